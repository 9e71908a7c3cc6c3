"""`next:` hints name only commands that can answer: after a javap body, `jdx doc` only when the type's sources (its
javadoc) are paired with the artifact; otherwise the member's signatures, or the type's outline."""

from __future__ import annotations

import shlex
import shutil
from pathlib import Path

import pytest

from tests.fixtures.javac import javac_jar
from tests.fixtures import jdktool

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)

OKIO = Path.home() / ".m2/repository/com/squareup/okio/okio-jvm/3.6.0/okio-jvm-3.6.0.jar"
SOURCES = {"nh/Greeter.java": "package nh;\n/** Says hello. */\npublic class Greeter {\n"
                              "  /** The greeting for {@code name}. */\n"
                              "  public String greet(String name) { return \"hi \" + name; }\n}\n"}


@pytest.fixture(scope="module")
def jars(tmp_path_factory) -> tuple[Path, Path]:
    """(classes only, classes with their .java files beside them: sources embedded in the jar)."""
    if shutil.which("javac") is None:
        pytest.skip("javac is not installed")
    root = tmp_path_factory.mktemp("hints")
    bare, classes = javac_jar(root, SOURCES, "nh", "bare.jar", debug=True)
    embedded = root / "embedded.jar"
    jdktool.run(["jar", "cf", str(embedded), "-C", str(classes), "nh", "-C", str(root / "src"), "nh"], check=True)
    return bare, embedded


def _next(run_jdx, jar: Path, ref: str) -> str:
    """The `next:` step, without the workspace flags the CLI appends (checked by `_run_next`)."""
    r = run_jdx("body", ref, "--engine", "javap", "--jars", str(jar), "--no-jdk")
    assert r.code == 0, r.err
    line = r.out.splitlines()[-1]
    tail = " " + shlex.join(["--jars", str(jar), "--no-jdk"])
    assert line.endswith(tail), line  # run as printed, the step asks the same ad-hoc workspace
    return line[: -len(tail)]


def _run_next(run_jdx, jar: Path, ref: str):
    """Runs the `next:` step exactly as printed (its words, the workspace flags included)."""
    r = run_jdx("body", ref, "--engine", "javap", "--jars", str(jar), "--no-jdk")
    words = shlex.split(r.out.splitlines()[-1].removeprefix("next: jdx "))
    return run_jdx(*words)


def test_without_sources_a_javap_body_suggests_no_doc(run_jdx, jars):
    assert _next(run_jdx, jars[0], "nh.Greeter#greet") == "next: jdx signature 'nh.Greeter#greet(java.lang.String)'"
    assert _next(run_jdx, jars[0], "nh.Greeter") == "next: jdx outline nh.Greeter"
    r = _run_next(run_jdx, jars[0], "nh.Greeter#greet")
    assert r.code == 0 and "greet(" in r.out  # the suggested command answers, as printed


def test_with_sources_a_javap_body_suggests_the_doc(run_jdx, jars):
    assert _next(run_jdx, jars[1], "nh.Greeter#greet") == "next: jdx doc 'nh.Greeter#greet(java.lang.String)'"
    r = _run_next(run_jdx, jars[1], "nh.Greeter#greet")
    assert r.code == 0 and "The greeting for" in r.out, (r.code, r.out, r.err)


def test_a_commented_step_keeps_its_comment_after_the_flags(run_jdx, jars):
    """`next: jdx body X --engine javap   (exact bytecode)`: the flags go before the comment."""
    r = run_jdx("body", "nh.Greeter#greet", "--jars", str(jars[0]), "--no-jdk")
    assert r.code == 0, r.err
    step = next(line for line in r.out.splitlines() if line.startswith("next: "))
    command, _, comment = step.partition("   (")
    assert comment == "exact bytecode)" and command.endswith(shlex.join(["--jars", str(jars[0]), "--no-jdk"]))


@pytest.mark.soak
def test_okio_javap_body_has_no_doc_hint(run_jdx):
    """The trial's case: okio-jvm has no sources in ~/.m2, and `jdx doc` there says only `(no javadoc)`."""
    if not OKIO.exists():
        print(f"skipped: {OKIO} is not in ~/.m2")
        pytest.skip(f"{OKIO} is not in ~/.m2")
    r = run_jdx("body", "okio.Buffer#readUtf8(long)", "--engine", "javap", "--jars", str(OKIO))
    assert r.code == 0, r.err
    assert r.out.splitlines()[-1] == "next: jdx signature 'okio.Buffer#readUtf8(long)' " + shlex.join(["--jars", str(OKIO)])


def test_missing_adhoc_jar_hint_names_jars_not_ws(run_jdx, tmp_path):
    """A missing `--jars` path: exit 5 naming it; the hint speaks of --jars (no workspace to `ws info`)."""
    r = run_jdx("members", "java.util.Map", "--jars", str(tmp_path / "nonexist.jar"))
    assert r.code == 5, (r.code, r.out, r.err)
    assert "nonexist.jar" in r.err and "hint: check the path, or drop it from --jars" in r.err, r.err
    assert "ws info" not in r.err
    r = run_jdx("members", "java.util.Map", "--coord", "org.example.none:none:9.9")
    assert r.code == 5 and "hint: check the coordinate" in r.err and "drop it from --coord" in r.err, r.err


def test_a_missing_jar_given_on_top_of_a_workspace_is_dropped_from_the_flags(run_jdx, tmp_path):
    """`-w jk --jars missing.jar`: the path is the flag's, not the workspace's; the hint said `jdx ws drop jk PATH`,
    which then failed (not a root of jk). A root of the workspace itself still gets the `ws drop` hint."""
    kept = tmp_path / "kept"
    kept.mkdir()
    (kept / "A.class").write_bytes(b"")  # (a class directory root: the workspace's own)
    assert run_jdx("ws", "create", "hintjk", "--jars", str(kept), "--no-jdk").code == 0
    try:
        r = run_jdx("-w", "hintjk", "members", "java.util.Map", "--jars", str(tmp_path / "nonexist.jar"))
        assert r.code == 5, (r.code, r.out, r.err)
        assert "hint: check the path, or drop it from --jars" in r.err and "ws drop" not in r.err, r.err
        kept.rename(tmp_path / "gone")
        r = run_jdx("-w", "hintjk", "members", "java.util.Map")
        assert r.code == 5 and "jdx ws drop hintjk PATH" in r.err, r.err
    finally:
        run_jdx("ws", "remove", "hintjk")


def test_a_corrupt_class_named_is_an_artifact_error_not_nowhere(run_jdx, tmp_path):
    """A reference to a class whose file the index could not read (CORRUPT_CLASS): exit 5 saying the file is there,
    not exit 1 "not found"; another missing name stays not found."""
    src, classes = tmp_path / "src", tmp_path / "classes"
    (src / "cx").mkdir(parents=True)
    (src / "cx" / "Broken.java").write_text("package cx; public class Broken { public int f() { return 1; } }")
    (src / "cx" / "Ok.java").write_text("package cx; public class Ok { }")
    jdktool.run(["javac", "-d", str(classes), *map(str, sorted(src.rglob("*.java")))], check=True)
    broken = classes / "cx" / "Broken.class"
    broken.write_bytes(broken.read_bytes()[:40])  # truncated: ASM fails past the constant pool's end
    jar = tmp_path / "bad.jar"
    jdktool.run(["jar", "cf", str(jar), "-C", str(classes), "cx"], check=True)
    for args in (("show", "cx.Broken"), ("body", "cx.Broken#f")):
        r = run_jdx(*args, "--jars", str(jar), "--no-jdk")
        assert r.code == 5, (r.code, r.out, r.err)
        assert "the class file is there but could not be read (CORRUPT_CLASS: bad.jar: cx/Broken.class" in r.err
    r = run_jdx("show", "cx.Nope", "--jars", str(jar), "--no-jdk")
    assert r.code == 1 and "not found: cx.Nope" in r.out, (r.code, r.out)


def test_a_long_classpath_is_named_not_repeated(run_jdx, jars):
    """Many jars: the step says it needs this command's workspace flags instead of repeating ~700 characters."""
    many = ["--jars", str(jars[0])] * 8 + ["--no-jdk"]
    r = run_jdx("show", "nh.Greeter", *many)
    assert r.code == 0, r.err
    step = next(line for line in r.out.splitlines() if line.startswith("next: "))
    assert step == "next: jdx members nh.Greeter   (with this command's workspace flags)", step
