"""--jars values the trial broke (t19): a `**` glob over a tree with links to a parent directory (it never ended),
an existing path holding `[` (taken as a glob: no jar matches), a glob of wars or jmods (no jar matches, while the
path itself is read), and archives holding jars (a Spring Boot fat jar, a war, an aar) or no class files at all,
indexed without a word. Oracles: bash's globstar for the glob, the JDK's `jar`, `jmod` and `javap` for the
archives and the class the nested jar holds."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from jdx.loaders.roots import expand_jar_arg, glob_paths
from tests.fixtures import jdktool
from tests.fixtures.javac import javac_jar

pytestmark = [pytest.mark.skipif(shutil.which("javac") is None or shutil.which("bash") is None,
                                 reason="javac and bash are needed"),
              pytest.mark.soak]  # a trial regression family: the soak runs it whole


def bash_globstar(cwd: Path, pattern: str) -> list[str]:
    """What bash (globstar on, C collation) expands `pattern` to, nothing when it matches nothing."""
    out = subprocess.run(["bash", "-O", "globstar", "-O", "nullglob", "-c", f'printf "%s\\n" {pattern}'],
                         cwd=cwd, env={**os.environ, "LC_ALL": "C"}, capture_output=True, text=True, timeout=30,
                         check=True).stdout
    return [line for line in out.splitlines() if line]


@pytest.fixture(scope="module")
def liba(tmp_path_factory) -> tuple[Path, Path]:
    """liba.jar holding la.A, and its classes directory (javap's class path)."""
    root = tmp_path_factory.mktemp("liba")
    return javac_jar(root, {"la/A.java": "package la;\npublic class A {\n    public int f() { return 1; }\n}\n"},
                     "la", "liba.jar")


def jdx_json(run_jdx, *args: str) -> tuple[int, dict]:
    r = run_jdx("--json", "--no-jdk", *args)
    return r.code, json.loads(r.out)


def codes(envelope: dict) -> list[str]:
    return [w["code"] for w in envelope.get("warnings", [])]


# 1. `**` does not loop over links to a parent directory, and walks as bash's globstar does


def test_globstar_over_links_to_a_parent_ends(tmp_path, liba):
    sub = tmp_path / "loopy" / "sub"
    sub.mkdir(parents=True)
    shutil.copy(liba[0], sub / "liba.jar")
    (sub / "l1").symlink_to("..")
    (sub / "l2").symlink_to("..")
    expected = bash_globstar(tmp_path, "loopy/**/*.jar")
    assert expected == ["loopy/sub/liba.jar"]
    code = ("import sys; from jdx.loaders.roots import expand_jar_arg; "
            "print([str(p) for p in expand_jar_arg(sys.argv[1])[0]])")
    try:
        r = subprocess.run([sys.executable, "-c", code, "loopy/**/*.jar"], cwd=tmp_path, capture_output=True,
                           text=True, timeout=60, env={**os.environ, "PYTHONPATH": os.getcwd()})
    except subprocess.TimeoutExpired:
        pytest.fail("the ** glob over links to a parent directory did not end in 60 s")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == repr(expected)


def test_globstar_matches_bash(tmp_path, monkeypatch):
    for name in ("top.jar", "a/1.jar", "a/b/2.jar", "c/3.jar", ".h/4.jar", "x/.5.jar", "x/y/z/6.war"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(b"")
    (tmp_path / "a" / "linkc").symlink_to("../c")  # a symlinked directory: ** does not descend into it
    (tmp_path / "a" / "b" / "up").symlink_to("..")
    monkeypatch.chdir(tmp_path)
    for pattern in ("**/*.jar", "a/**", "**/*.war", "**/.*.jar", "x/**/z/*", "a/linkc/*.jar", "*/*.jar"):
        assert glob_paths(pattern) == bash_globstar(tmp_path, pattern), pattern
    # below a prefix bash 5.2 takes a symlinked directory as one `**` level (a/b/up/1.jar, a/linkc/3.jar), at the
    # top it does not; jdx never enters one through `**` (zsh's `**/`, pathlib's rglob), wherever it is
    assert glob_paths("a/**/*.jar") == ["a/1.jar", "a/b/2.jar"]
    # an absolute pattern walks the same tree (bash's own walk of one follows a link once: not the oracle here)
    assert glob_paths(str(tmp_path / "**/*.jar")) == [str(tmp_path / p) for p in bash_globstar(tmp_path, "**/*.jar")]


# 2. an existing path holding `[` is a path


def test_existing_paths_with_brackets_are_paths(tmp_path, liba):
    copy = tmp_path / "proj [copy]"
    copy.mkdir()
    shutil.copy(liba[0], copy / "liba.jar")
    shutil.copy(liba[0], tmp_path / "a[1].jar")
    for arg, want in ((copy / "liba.jar", copy / "liba.jar"), (copy, copy / "liba.jar"),
                      (tmp_path / "a[1].jar", tmp_path / "a[1].jar"), (copy / "*.jar", copy / "liba.jar")):
        assert expand_jar_arg(str(arg)) == ([want], []), arg


def test_a_path_with_brackets_answers(run_jdx, tmp_path, liba):
    copy = tmp_path / "proj [copy]"
    copy.mkdir()
    shutil.copy(liba[0], copy / "a[1].jar")
    javap = jdktool.run(["javap", "-cp", str(copy / "a[1].jar"), "la.A"], capture_output=True, text=True)
    assert "public class la.A" in javap.stdout, javap
    for arg in (copy / "a[1].jar", copy):
        code, env = jdx_json(run_jdx, "--jars", str(arg), "show", "la.A")
        assert code == 0 and env["result"]["ref"] == "la.A", env


# 3. a glob matches every archive kind a path is read as; a directory scan takes jars and says so


def test_a_glob_matches_wars_and_jmods(run_jdx, tmp_path, liba):
    if shutil.which("jmod") is None:
        pytest.skip("no jmod tool")
    shutil.copy(liba[0], tmp_path / "app.war")
    _jar, classes = javac_jar(tmp_path / "mod", {"module-info.java": "module la.mod { exports la; }\n",
                                                 "la/A.java": "package la;\npublic class A {}\n"}, "la", "la.jar")
    subprocess.run(["jmod", "create", "--class-path", str(classes), str(tmp_path / "la.mod.jmod")], check=True,
                   capture_output=True, timeout=120)
    for glob_arg, path in ((tmp_path / "*.war", tmp_path / "app.war"), (tmp_path / "la.m*.jmod",
                                                                        tmp_path / "la.mod.jmod")):
        assert expand_jar_arg(str(glob_arg)) == ([path], [])
        by_glob = jdx_json(run_jdx, "--jars", str(glob_arg), "ls")
        by_path = jdx_json(run_jdx, "--jars", str(path), "ls")
        assert by_glob[0] == 0 and by_glob[1]["result"] == by_path[1]["result"], (by_glob, by_path)


def test_a_directory_of_wars_says_it_is_scanned_for_jars(tmp_path, liba):
    wars = tmp_path / "wars"
    wars.mkdir()
    shutil.copy(liba[0], wars / "app.war")
    paths, warnings = expand_jar_arg(str(wars))
    assert paths == [] and [w.message for w in warnings] == [
        f"{wars}: directory holds no jars and no class files (a directory is scanned for *.jar only; it holds 1 "
        f"other archive: app.war; pass --jars '{wars}/**/*.war')"]
    assert expand_jar_arg(f"{wars}/**/*.war") == ([wars / "app.war"], [])
    empty = tmp_path / "empty"
    empty.mkdir()
    assert [w.message for w in expand_jar_arg(str(empty))[1]] == [
        f"{empty}: directory holds no jars and no class files"]


# 4. jars inside an archive are named; an archive without class files too


def _archive(path: Path, top: Path) -> Path:
    jdktool.run(["jar", "cf", str(path), "-C", str(top), "."], check=True)
    return path


@pytest.fixture(scope="module")
def nested(tmp_path_factory, liba) -> dict[str, Path]:
    """A Spring Boot fat jar, a war and an aar, each holding liba.jar, built by `jar`."""
    root = tmp_path_factory.mktemp("nested")
    out = {}
    for name, inside in (("fat.jar", "BOOT-INF/lib/liba.jar"), ("app.war", "WEB-INF/lib/liba.jar"),
                         ("lib.aar", "classes.jar")):
        top = root / f"{name}.d"
        (top / inside).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(liba[0], top / inside)
        (top / "META-INF").mkdir(exist_ok=True)
        (top / "META-INF" / "x.txt").write_text("x\n")
        out[name] = _archive(root / name, top)
    return out


@pytest.mark.parametrize("name,inside", [("fat.jar", "BOOT-INF/lib/liba.jar"), ("app.war", "WEB-INF/lib/liba.jar"),
                                         ("lib.aar", "classes.jar")])
def test_nested_jars_are_named_and_unpacking_them_answers(run_jdx, tmp_path, nested, name, inside):
    archive = nested[name]
    listed = jdktool.run(["jar", "tf", str(archive)], capture_output=True, text=True, check=True).stdout.split()
    assert inside in listed
    code, env = jdx_json(run_jdx, "--jars", str(archive), "show", "la.A")
    assert code == 1
    warning = [w for w in env["warnings"] if w["code"] == "NESTED_JARS"]
    assert warning == [{"code": "NESTED_JARS", "artifact": name, "message":
                        f"{name} holds 1 jar inside it ({inside}): jdx does not read jars inside jars, so their "
                        f"classes are not in the workspace; unpack them (unzip {archive} {inside}) and pass them "
                        f"with --jars"}], env
    code, env = jdx_json(run_jdx, "--jars", str(archive), "index")
    assert "NESTED_JARS" in codes(env), env
    # the way out the warning gives: unpacked, the nested jar answers
    jdktool.run(["jar", "xf", str(archive), inside], cwd=tmp_path, check=True)
    javap = jdktool.run(["javap", "-cp", str(tmp_path / inside), "la.A"], capture_output=True, text=True)
    assert "public class la.A" in javap.stdout
    code, env = jdx_json(run_jdx, "--jars", str(archive), "--jars", str(tmp_path / inside), "show", "la.A")
    assert code == 0 and env["result"]["ref"] == "la.A", env


def test_many_nested_jars_are_counted(tmp_path, liba):
    from jdx.loaders.roots import ArchiveNotes, archive_warnings

    top = tmp_path / "fat"
    for i in range(5):
        (top / "BOOT-INF" / "lib").mkdir(parents=True, exist_ok=True)
        shutil.copy(liba[0], top / "BOOT-INF" / "lib" / f"lib{i}.jar")
    fat = _archive(tmp_path / "fat.jar", top)
    assert [w.message for w in archive_warnings(ArchiveNotes(tmp_path / "cache"), "k", fat, "fat.jar", True)] == [
        "fat.jar holds 5 jars inside it (BOOT-INF/lib/lib0.jar, BOOT-INF/lib/lib1.jar, BOOT-INF/lib/lib2.jar, …): "
        f"jdx does not read jars inside jars, so their classes are not in the workspace; unpack them (unzip {fat} "
        "'BOOT-INF/lib/*') and pass them with --jars"]


def test_an_archive_without_class_files_is_said_when_named(run_jdx, tmp_path, liba):
    empty = tmp_path / "empty.jar"
    with zipfile.ZipFile(empty, "w"):
        pass
    top = tmp_path / "res"
    (top / "META-INF").mkdir(parents=True)
    (top / "META-INF" / "x.txt").write_text("x\n")
    res = _archive(tmp_path / "res.jar", top)
    for jar in (empty, res):
        assert "class" not in jdktool.run(["jar", "tf", str(jar)], capture_output=True, text=True).stdout
        code, env = jdx_json(run_jdx, "--jars", str(jar), "index")
        assert code == 0 and env["result"]["classes"] == 0
        assert [(w["code"], w["message"]) for w in env["warnings"]] == [
            ("EMPTY_ARTIFACT", f"{jar.name} holds no class files: nothing of it is in the workspace")], env
    # matched by a glob (a dependency set, where a resources-only jar is common): not said
    lib = tmp_path / "lib"
    lib.mkdir()
    shutil.copy(res, lib / "res.jar")
    shutil.copy(liba[0], lib / "liba.jar")
    code, env = jdx_json(run_jdx, "--jars", str(lib / "*.jar"), "show", "la.A")
    assert code == 0 and "EMPTY_ARTIFACT" not in codes(env), env


def test_a_plain_jar_gets_no_new_warning(run_jdx, liba):
    code, env = jdx_json(run_jdx, "--jars", str(liba[0]), "show", "la.A")
    assert code == 0 and not {"NESTED_JARS", "EMPTY_ARTIFACT"} & set(codes(env)), env
