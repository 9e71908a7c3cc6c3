"""`ws create --jars a.jar:b.jar:c.jar` and `ws add NAME a.jar:b.jar`: a classpath string (`java -cp`'s form, which
`--jars` takes everywhere) is stored as its entries, each absolute, and the existence check looks at each entry,
not at the unsplit string: no `ARTIFACT_READ_ERROR` for jars that are there, one naming only the entry that is not.
A `--jars` glob that matches jars is there too."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from tests.conftest import GSON, LANG3, require


@pytest.fixture
def jars(tmp_path):
    require(GSON)
    require(LANG3)
    folder = tmp_path / "lib"
    folder.mkdir()
    shutil.copy(GSON, folder / "a.jar")
    shutil.copy(LANG3, folder / "b.jar")
    return folder


def jdx_in(env: dict, cwd, *args: str) -> tuple[int, dict]:
    """`jdx ARGS --json` run from `cwd` (relative roots are read from there)."""
    proc = subprocess.run([sys.executable, "-m", "jdx", *args, "--json"], capture_output=True, text=True, env=env,
                          cwd=cwd, timeout=300)
    return proc.returncode, json.loads(proc.stdout)


@pytest.fixture
def workspace(run_jdx):
    names: list[str] = []
    yield names
    for name in names:
        run_jdx("ws", "remove", name)


def test_absolute_classpath_is_split_and_not_warned(run_jdx, jars, workspace):
    workspace.append("wscp1")
    a, b = jars / "a.jar", jars / "b.jar"
    r = run_jdx("ws", "create", "wscp1", "--jars", f"{a}:{b}", "--no-jdk", "--json")
    env = json.loads(r.out)
    assert r.code == 0 and env["warnings"] == [], r.out
    assert env["result"]["jars"] == [str(a), str(b)]
    info = json.loads(run_jdx("ws", "info", "wscp1", "--json").out)["result"]
    assert [x["path"] for x in info["artifacts"]] == [str(a), str(b)] and "unreadable" not in info, info


def test_relative_classpath_is_stored_absolute(jdx_env, run_jdx, jars, workspace, tmp_path):
    workspace.append("wscp2")
    code, env = jdx_in(jdx_env, jars, "ws", "create", "wscp2", "--jars", "a.jar:b.jar", "--no-jdk")
    assert code == 0 and env["warnings"] == [], env
    assert env["result"]["jars"] == [str(jars / "a.jar"), str(jars / "b.jar")]
    code, info = jdx_in(jdx_env, tmp_path, "ws", "info", "wscp2")  # from elsewhere: b.jar is still lib/b.jar
    assert code == 0 and "unreadable" not in info["result"], info
    assert [x["name"] for x in info["result"]["artifacts"]] == ["a.jar", "b.jar"]


def test_only_the_missing_entry_is_warned(run_jdx, jars, workspace):
    workspace.append("wscp3")
    a, b, c = jars / "a.jar", jars / "b.jar", jars / "c.jar"
    r = run_jdx("ws", "create", "wscp3", "--jars", f"{a}:{b}:{c}", "--no-jdk", "--json")
    env = json.loads(r.out)
    assert r.code == 0 and [w["code"] for w in env["warnings"]] == ["ARTIFACT_READ_ERROR"], r.out
    message = env["warnings"][0]["message"]
    assert message.startswith(f"{c}: no such file") and str(a) not in message and str(b) not in message


def test_ws_add_takes_a_classpath_not_a_coordinate(run_jdx, jars, workspace):
    """`x.jar:y.jar:z.jar` has a Maven coordinate's shape (g:a:v): its entries are jars, so it is a classpath."""
    workspace.append("wscp4")
    assert run_jdx("ws", "create", "wscp4", "--no-jdk").code == 0
    shutil.copy(jars / "a.jar", jars / "z.jar")
    r = run_jdx("ws", "add", "wscp4", f"{jars / 'a.jar'}:{jars / 'b.jar'}:{jars / 'z.jar'}", "--json")
    env = json.loads(r.out)
    assert r.code == 0 and env["warnings"] == [], r.out
    assert env["result"]["jars"] == [str(jars / n) for n in ("a.jar", "b.jar", "z.jar")]
    assert not env["result"].get("coords")
    r = run_jdx("ws", "add", "wscp4", f"{jars / 'b.jar'}")
    assert r.code == 3 and "already a root" in r.err


def test_a_matching_glob_is_not_missing(run_jdx, jars, workspace):
    workspace.append("wscp5")
    r = run_jdx("ws", "create", "wscp5", "--jars", str(jars / "*.jar"), "--no-jdk", "--json")
    assert r.code == 0 and json.loads(r.out)["warnings"] == [], r.out
    workspace.append("wscp6")
    r = run_jdx("ws", "create", "wscp6", "--jars", str(jars / "none*.jar"), "--no-jdk", "--json")
    assert [w["code"] for w in json.loads(r.out)["warnings"]] == ["ARTIFACT_READ_ERROR"], r.out


def test_a_directory_root_is_labelled_dir_as_ws_info_labels_it(run_jdx, jars, workspace, tmp_path):
    """T53: `ws create` listed a class directory as `jar`; `ws info` says `dir`."""
    workspace.append("wscp-dir")
    classes = tmp_path / "classes"
    (classes / "p").mkdir(parents=True)
    (classes / "p" / "A.class").write_bytes(b"\xca\xfe\xba\xbe")
    r = run_jdx("ws", "create", "wscp-dir", "--jars", f"{classes}:{jars / 'a.jar'}", "--no-jdk")
    assert r.code == 0, r.err
    assert f"  dir {classes}" in r.out.splitlines() and f"  jar {jars / 'a.jar'}" in r.out.splitlines(), r.out
    env = json.loads(run_jdx("ws", "add", "wscp-dir", str(jars / "b.jar"), "--json").out)
    assert env["result"]["root_kinds"] == {str(classes): "dir"}, env
