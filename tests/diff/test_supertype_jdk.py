"""A supertype change beside a `java.*` supertype the artifact does not hold is decided in the JDK (spec §7.7): an
interface still reached through a JDK type's own supertypes is no change, one that is not is removed with no
"may still be inherited", and an added exception the JDK says is unchecked is no CHECKED_EXCEPTION_ADDED.
The oracle is javac: a client that compiles against the old jar compiles against the new one exactly when the
diff reports nothing breaking on the type it uses."""

from __future__ import annotations

import re
import shutil

import pytest

from tests.diff.shim import findings_json, version_jars
from tests.fixtures import jdktool

_LIST = " public String get(int i) { return null; } public int size() { return 0; }"
OLD = {
    # RandomAccess goes; List and Collection stay, through java.util.AbstractList
    "s/A.java": "package s; public class A extends java.util.AbstractList<String>"
                " implements java.util.List<String>, java.util.Collection<String>, java.util.RandomAccess {"
                + _LIST + "}",
    "s/B.java": "package s; public abstract class B implements java.util.RandomAccess, java.util.List<String> {}",
    "s/C.java": "package s; public abstract class C implements java.util.Collection<String>, java.util.List<String> {}",
    # a superclass swapped for one above it: AbstractList is gone, whatever AbstractCollection extends
    "s/D.java": "package s; public abstract class D extends java.util.AbstractList<String> {}",
    "s/E.java": "package s; public abstract class E implements java.util.List<String> {}",
    "s/F.java": "package s; public class F { public void a() {} public void b() {} }",
}
NEW = {
    "s/A.java": "package s; public class A extends java.util.AbstractList<String> {" + _LIST + "}",
    "s/B.java": "package s; public abstract class B implements java.util.List<String> {}",
    "s/C.java": "package s; public abstract class C implements java.util.List<String> {}",
    "s/D.java": "package s; public abstract class D extends java.util.AbstractCollection<String> {}",
    # Collection was a supertype already (through List): nothing added
    "s/E.java": "package s; public abstract class E implements java.util.List<String>, java.util.Collection<String> {}",
    # EmptyStackException is a RuntimeException; BrokenBarrierException is checked (neither is in jdx's lists)
    "s/F.java": "package s; public class F { public void a() throws java.util.EmptyStackException {}"
                " public void b() throws java.util.concurrent.BrokenBarrierException {} }",
}
# javac's question per change: a client body, and the (symbol, detail) of the breaking finding that says it fails
# against the new jar (None: no finding, so it must still compile)
CLIENTS = {
    "A_RandomAccess": ("java.util.RandomAccess x = (s.A) null;", ("s.A", "java.util.RandomAccess")),
    "A_List": ("java.util.List<String> x = (s.A) null;", None),
    "A_Collection": ("java.util.Collection<String> x = (s.A) null;", None),
    "B_RandomAccess": ("java.util.RandomAccess x = (s.B) null;", ("s.B", "java.util.RandomAccess")),
    "C_Collection": ("java.util.Collection<String> x = (s.C) null;", None),
    "D_AbstractList": ("java.util.AbstractList<String> x = (s.D) null;", ("s.D", "java.util.AbstractList")),
    "E_Collection": ("java.util.Collection<String> x = (s.E) null;", None),
    "F_a": ("new s.F().a();", None),
    "F_b": ("new s.F().b();", ("s.F#b()", "java.util.concurrent.BrokenBarrierException")),
}


@pytest.fixture(scope="module")
def jars(tmp_path_factory):
    if shutil.which("javac") is None:
        pytest.skip("javac is not installed")
    return version_jars(tmp_path_factory.mktemp("diff-supertype-jdk"), OLD, NEW, "s")


@pytest.fixture(scope="module")
def findings(jdx_home, jars):
    return [(f["rule"], f["symbol"], f["detail"]) for f in findings_json(jdx_home / "cache", *jars[1:])]


def _failing_clients(root, jar) -> set[str]:
    """The clients javac rejects against `jar` (one javac run for all of them)."""
    src = root / "clients"
    src.mkdir(exist_ok=True)
    for name, (body, _) in CLIENTS.items():
        (src / f"{name}.java").write_text(f"public class {name} {{ void use() {{ {body} }} }}")
    # past a type error javac still checks exceptions (FLOW), so every client's errors are reported
    run = jdktool.run(["javac", "-Xmaxerrs", "1000", "-XDshould-stop.ifError=FLOW",
                          "-d", str(root / f"out-{jar.stem}"), "-cp", str(jar), *sorted(str(p) for p in src.glob("*.java"))], capture_output=True, text=True)
    return set(re.findall(r"(\w+)\.java:\d+: error", run.stdout + run.stderr))


def test_supertype_findings_are_decided_in_the_jdk(findings):
    supertypes = sorted(f for f in findings if f[0].startswith("SUPERTYPE_"))
    assert supertypes == [
        ("SUPERTYPE_REMOVED", "s.A", "java.util.RandomAccess"),
        ("SUPERTYPE_REMOVED", "s.B", "java.util.RandomAccess"),
        ("SUPERTYPE_REMOVED", "s.D", "java.util.AbstractList"),
    ], supertypes
    assert not any("may still" in f[2] or "not in the artifact" in f[2] for f in findings), findings


def test_an_added_exception_is_classified_in_the_jdk(findings):
    assert [f for f in findings if f[1].startswith("s.F#")] == [
        ("CHECKED_EXCEPTION_ADDED", "s.F#b()", "java.util.concurrent.BrokenBarrierException")]


def test_findings_agree_with_javac(findings, jars):
    """Every client compiles against the old jar; against the new one, exactly those whose change the diff reports
    as breaking fail."""
    root, old, new = jars
    assert _failing_clients(root, old) == set()
    broken = {(f[1], f[2]) for f in findings if f[0] in ("SUPERTYPE_REMOVED", "CHECKED_EXCEPTION_ADDED")}
    assert broken == {finding for _, finding in CLIENTS.values() if finding is not None}, broken
    assert _failing_clients(root, new) == {name for name, (_, finding) in CLIENTS.items() if finding in broken}
