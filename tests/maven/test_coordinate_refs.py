"""A `g:a:v/` reference to an artifact the workspace lacks (spec §6, §13): answered from a workspace that adds it,
as `--coord g:a:v` would, when the local repository has it (COORDINATE_ADDED); exit 1 when it has not."""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path

import pytest

from tests.fixtures.javac import javac_jar, javap
from tests.maven import fixture as fx

REF = "org.cr:lib:1.0/t.lib.Lib"
BASE = "package t.base;\npublic class Base {\n    public int fromBase() { return 1; }\n}\n"
LIB = ("package t.lib;\npublic class Lib extends t.base.Base {\n    public static String hello(String who) "
       "{ return who; }\n    public long size(java.util.List<String> items) { return items.size(); }\n"
       "    protected void tidy() {}\n}\n")


@pytest.fixture(scope="module")
def repo_world(tmp_path_factory, jdx_env):
    """A local repository holding `org.cr:lib:1.0` (class t.lib.Lib, extending t.base.Base); a plain project whose
    `lib/base.jar` holds t.base.Base; an empty directory."""
    root = tmp_path_factory.mktemp("coordref")
    base, _ = javac_jar(root / "base", {"t/base/Base.java": BASE}, "t", "base.jar")
    lib, lib_classes = javac_jar(root / "lib", {"t/base/Base.java": BASE, "t/lib/Lib.java": LIB}, "t/lib", "lib.jar")
    folder = root / "repo" / "org" / "cr" / "lib" / "1.0"
    folder.mkdir(parents=True)
    (folder / "lib-1.0.jar").write_bytes(lib.read_bytes())
    (folder / "lib-1.0.pom").write_text(fx._pom("lib", "1.0", group="org.cr"))
    project = root / "project"
    (project / "lib").mkdir(parents=True)
    (project / "lib" / "base.jar").write_bytes(base.read_bytes())
    empty = root / "empty"
    empty.mkdir()
    env = {**jdx_env, "JDX_MAVEN_REPO": str(root / "repo"), "JDX_GRADLE_CACHE": str(root / "no-gradle")}
    return {"env": {k: v for k, v in env.items() if k.startswith("JDX_")}, "project": project, "empty": empty,
            "base": base, "classes": lib_classes}


@pytest.fixture
def jdx_in(repo_world, monkeypatch, capsys):
    """`jdx ARGS` answered by `jdx.cli.main.main` in this process (no interpreter or JVM start per line), in a
    directory, with the test repository as the local repository: (exit code, stdout + stderr)."""
    from jdx.cli.main import main

    def run(cwd: Path, *args: str, stdin: str | None = None) -> tuple[int, str]:
        for key, value in repo_world["env"].items():
            if key.startswith("JDX_"):
                monkeypatch.setenv(key, value)
        monkeypatch.chdir(cwd)
        if stdin is not None:
            monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        capsys.readouterr()
        code = main(list(args))
        out = capsys.readouterr()
        return code, out.out + out.err

    return run


def _javap_members(classes: Path) -> set[tuple[str, str]]:
    """(name, descriptor) of each member javap lists for t.lib.Lib, constructors as `<init>`."""
    lines = javap(classes, "t.lib.Lib", "-s").splitlines()
    out = set()
    for line, after in zip(lines, lines[1:]):
        if after.strip().startswith("descriptor:"):
            found = re.search(r"([\w.$]+)\(", line)
            name = found.group(1).rsplit(".", 1)[-1] if found else line.rstrip(";").split()[-1]
            out.add(("<init>" if name == "Lib" else name, after.split(":", 1)[1].strip()))
    return out


def test_a_coordinate_in_the_local_repository_is_added_and_the_discovered_project_kept(repo_world, jdx_in):
    """From a plain project (t.base.Base in lib/base.jar), with no flag naming the artifact: the answer is Lib's
    members as javap lists them, with Base's inherited method (the project is still there), and a warning."""
    code, out = jdx_in(repo_world["project"], "--json", "--no-jdk", "members", REF, "--inherited")
    assert code == 0, out
    env = json.loads(out)
    (added,) = [w for w in env["warnings"] if w["code"] == "COORDINATE_ADDED"]
    assert added["message"] == ("org.cr:lib:1.0 is not in the workspace: answered from a workspace that adds it "
                                "(as --coord org.cr:lib:1.0)")
    members = env["result"]["members"]
    own = {(m["name"], m["descriptor"]) for m in members if m["declaring"] == "t.lib.Lib"}
    assert own == _javap_members(repo_world["classes"]), env
    assert "fromBase" in {m["name"] for m in members}, env
    assert not [w for w in env["warnings"] if "t.base.Base" in w["message"]], env["warnings"]


def test_a_coordinate_absent_from_the_local_repository_stays_not_found(repo_world, jdx_in):
    code, out = jdx_in(repo_world["empty"], "--no-jdk", "--jars", str(repo_world["base"]), "members",
                       "org.cr:lib:9.9/t.lib.Lib")
    assert code == 1, out
    assert "not found: org.cr:lib:9.9 is not in the workspace\nhint: add it with --coord org.cr:lib:9.9\n" in out
    assert "COORDINATE_ADDED" not in out
    code, out = jdx_in(repo_world["empty"], "--json", "--no-jdk", "--jars", str(repo_world["base"]), "members",
                       "org.cr:lib:9.9/t.lib.Lib")
    assert code == 1, out
    error = json.loads(out)["error"]
    assert (error["code"], error["coordinate"]) == ("NOT_FOUND", "org.cr:lib:9.9"), error


def test_a_coordinate_already_in_the_workspace_has_no_warning(repo_world, jdx_in):
    code, out = jdx_in(repo_world["empty"], "--json", "--no-jdk", "--jars", str(repo_world["base"]), "--coord",
                       "org.cr:lib:1.0", "members", REF)
    assert code == 0, out
    env = json.loads(out)
    assert "COORDINATE_ADDED" not in {w["code"] for w in env["warnings"]}
    assert {"hello", "size", "tidy"} <= {m["name"] for m in env["result"]["members"]}


def test_a_batch_keeps_its_workspace_and_says_a_command_line_adds_it(repo_world, jdx_in):
    code, out = jdx_in(repo_world["empty"], "--json", "--no-jdk", "--jars", str(repo_world["base"]), "batch",
                       stdin=f"members {REF}\n")
    assert code == 0, out
    env = json.loads(out)
    assert env["error"]["code"] == "NOT_FOUND"
    assert env["error"]["hint"] == ("add it with --coord org.cr:lib:1.0; org.cr:lib:1.0 is in the local repository: "
                                    "a command line with this reference answers from a workspace that adds it")
