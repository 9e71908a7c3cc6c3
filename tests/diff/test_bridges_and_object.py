"""A return type narrowed behind javac's bridge, and a member still inherited from a JDK supertype (spec §7.7).

commons-compress 1.21 -> 1.28.0: `ZipArchiveInputStream#getNextEntry()` now returns ZipArchiveEntry and a synthetic
bridge keeps `getNextEntry()ArchiveEntry`, so compiled callers still link: MEMBER_MADE_SYNTHETIC (suspicious), as a
parameter narrowed behind a bridge is; without a bridge it stays RETURN_TYPE_CHANGED. `ZstdCompressorOutputStream`
dropped its `toString()` while extending a JDK class the jar does not hold: java.lang.Object still declares it, so
the removal is MEMBER_MOVED_TO_SUPERTYPE. A concrete method gone while a supertype only declares it abstract
(`Runnable#run`) breaks compiled subclasses (AbstractMethodError, JLS §13.4.16): ABSTRACT_ADDED.
The oracles are javac and java: clients compiled against the old jar are linked and run against the new one, and
recompiled against it."""

from __future__ import annotations

import re
import shutil

import pytest

from tests.diff.shim import findings_json, version_jars
from tests.fixtures import jdktool

_ENTRIES = {
    "b/Entry.java": "package b; public class Entry {}",
    "b/ZipEntry.java": "package b; public class ZipEntry extends Entry {}",
    "b/Base.java": "package b; public abstract class Base { public abstract Entry next(); }",
    "b/Job.java": "package b; public abstract class Job implements Runnable { public abstract void run(); }",
}
OLD = {
    **_ENTRIES,
    # an override of Base#next(): narrowing it makes javac write the bridge next()Lb/Entry;
    "b/Zip.java": "package b; public class Zip extends Base { public Entry next() { return new ZipEntry(); } }",
    # overrides nothing: narrowed, it gets no bridge
    "b/Plain.java": "package b; public class Plain { public Entry get() { return new ZipEntry(); } }",
    "b/Val.java": "package b; public class Val { public String toString() { return \"v\"; }"
                  " public boolean equals(Object o) { return o == this; } public int hashCode() { return 1; }"
                  " public void gone() {} }",
    # the superclass chain runs into the JDK, which the jar does not hold (ZstdCompressorOutputStream's shape)
    "b/Out.java": "package b; public class Out extends java.io.FilterOutputStream {"
                  " public Out(java.io.OutputStream out) { super(out); }"
                  " public String toString() { return \"out\"; } public void write(int b) {} public void extra() {} }",
    "b/Worker.java": "package b; public class Worker extends Thread { public void run() {} }",
    "b/Task.java": "package b; public abstract class Task implements Runnable { public void run() {} }",
    "b/Job.java": "package b; public abstract class Job implements Runnable { public abstract void run(); }",
}
NEW = {
    **_ENTRIES,
    "b/Zip.java": "package b; public class Zip extends Base { public ZipEntry next() { return new ZipEntry(); } }",
    "b/Plain.java": "package b; public class Plain { public ZipEntry get() { return new ZipEntry(); } }",
    "b/Val.java": "package b; public class Val {}",
    "b/Out.java": "package b; public class Out extends java.io.FilterOutputStream {"
                  " public Out(java.io.OutputStream out) { super(out); } }",
    "b/Worker.java": "package b; public class Worker extends Thread {}",
    "b/Task.java": "package b; public abstract class Task implements Runnable {}",
    "b/Job.java": "package b; public abstract class Job implements Runnable {}",
}
# client -> (its class body beside `static void use()`, the symbol it uses, whether it still compiles against the
# new jar). Compiled against the old jar, a client still runs against the new one exactly when the diff reports
# nothing breaking on its symbol.
CLIENTS = {
    "ZipNext": ("static void use() { b.Entry e = new b.Zip().next(); }", "b.Zip#next()", True),
    # the bridge keeps callers linking, not overriders compiling: the detail says so
    "ZipOverride": ("static void use() { new Sub().next(); }"
                    " static class Sub extends b.Zip { public b.Entry next() { return null; } }", "b.Zip#next()", False),
    "PlainGet": ("static void use() { b.Entry e = new b.Plain().get(); }", "b.Plain#get()", True),
    "ValToString": ("static void use() { new b.Val().toString(); }", "b.Val#toString()", True),
    "ValEquals": ("static void use() { new b.Val().equals(null); }", "b.Val#equals(java.lang.Object)", True),
    "ValHashCode": ("static void use() { new b.Val().hashCode(); }", "b.Val#hashCode()", True),
    "ValGone": ("static void use() { new b.Val().gone(); }", "b.Val#gone()", False),
    "OutToString": ("static void use() { new b.Out(System.out).toString(); }", "b.Out#toString()", True),
    "OutWrite": ("static void use() { try { new b.Out(System.out).write(1); } catch (Exception e) {} }", "b.Out#write(int)", True),
    "OutExtra": ("static void use() { new b.Out(System.out).extra(); }", "b.Out#extra()", False),
    "WorkerRun": ("static void use() { new b.Worker().run(); }", "b.Worker#run()", True),
    # a subclass compiled against the old Task, which implemented run()
    "TaskRun": ("static void use() { new Sub().run(); } static class Sub extends b.Task {}", "b.Task#run()", False),
    "JobRun": ("static void use() { new Sub().run(); } static class Sub extends b.Job { public void run() {} }",
               "b.Job#run()", True),
}



@pytest.fixture(scope="module")
def jars(tmp_path_factory):
    if shutil.which("javac") is None or shutil.which("java") is None:
        pytest.skip("javac and java are not installed")
    return version_jars(tmp_path_factory.mktemp("diff-bridges"), OLD, NEW, "b")


@pytest.fixture(scope="module")
def findings(jdx_home, jars):
    return [(f["rule"], f["severity"], f["symbol"], f["detail"]) for f in findings_json(jdx_home / "cache", *jars[1:])]


def _clients(root):
    src = root / "clients"
    src.mkdir(exist_ok=True)
    for name, (body, _, _) in CLIENTS.items():
        (src / f"{name}.java").write_text(f"public class {name} {{ {body} }}")
    return sorted(str(p) for p in src.glob("*.java"))


def _compile_failures(root, jar) -> set[str]:
    """The clients javac rejects against `jar` (one javac run for all of them)."""
    out = root / f"compiled-{jar.stem}"
    run = jdktool.run(["javac", "-Xmaxerrs", "1000", "-d", str(out), "-cp", str(jar), *_clients(root)],
                         capture_output=True, text=True)
    return set(re.findall(r"(\w+)\.java:\d+: error", run.stdout + run.stderr))


def _run_against(root, compiled_with, jar) -> dict[str, str]:
    """Every client compiled against `compiled_with`, run against `jar` in one JVM: name -> "ok" or the error."""
    from tests.diff.shim import run_clients

    return run_clients(root, _clients(root), [compiled_with], [jar], sorted(CLIENTS))


def _on(findings, symbol):
    return [(f[0], f[1]) for f in findings if f[2] == symbol]


def test_a_return_narrowed_behind_a_bridge_is_not_breaking(findings):
    assert _on(findings, "b.Zip#next()") == [("MEMBER_MADE_SYNTHETIC", "suspicious")], findings
    detail = next(f[3] for f in findings if f[2] == "b.Zip#next()")
    assert detail.startswith("return type narrowed from b.Entry to b.ZipEntry: a synthetic bridge keeps the old "
                             "descriptor, so compiled callers still link"), detail
    assert "overriding the old signature no longer compiles" in detail, detail


def test_a_return_narrowed_without_a_bridge_stays_breaking(findings):
    assert [f for f in findings if f[2] == "b.Plain#get()"] == [
        ("RETURN_TYPE_CHANGED", "breaking", "b.Plain#get()", "b.Entry -> b.ZipEntry")]


def test_a_removed_override_of_an_object_method_is_inherited_from_object(findings):
    for symbol in ("b.Val#toString()", "b.Val#equals(java.lang.Object)", "b.Val#hashCode()", "b.Out#toString()"):
        assert [(f[0], f[3]) for f in findings if f[2] == symbol] == [
            ("MEMBER_MOVED_TO_SUPERTYPE", "now inherited from java.lang.Object")], symbol
    assert [(f[0], f[3]) for f in findings if f[2] in ("b.Out#write(int)", "b.Worker#run()")] == [
        ("MEMBER_MOVED_TO_SUPERTYPE", "now inherited from java.io.FilterOutputStream"),
        ("MEMBER_MOVED_TO_SUPERTYPE", "now inherited from java.lang.Thread")]


def test_a_removed_implementation_of_an_abstract_jdk_method_is_breaking(findings):
    task = [f for f in findings if f[2] == "b.Task#run()"]
    assert [(f[0], f[1]) for f in task] == [("ABSTRACT_ADDED", "breaking")], task
    assert "java.lang.Runnable declares it abstract: subclasses outside the artifact must now implement it" \
        in task[0][3], task
    # a redeclaration of the abstract method going changes nothing
    assert [(f[0], f[3]) for f in findings if f[2] == "b.Job#run()"] == [
        ("MEMBER_MOVED_TO_SUPERTYPE", "now inherited from java.lang.Runnable")]


def test_really_removed_members_stay_breaking(findings):
    assert _on(findings, "b.Val#gone()") == [("MEMBER_REMOVED", "breaking")]
    assert _on(findings, "b.Out#extra()") == [("MEMBER_REMOVED", "breaking")]


@pytest.mark.soak
def test_findings_agree_with_java_and_javac(findings, jars):
    """Compiled against the old jar, every client runs against it; against the new one, exactly those whose symbol
    has a breaking finding fail to link or run. Recompiled against the new one, the clients marked so fail."""
    root, old, new = jars
    assert set(_run_against(root, old, old).values()) == {"ok"}
    ran = _run_against(root, old, new)
    breaking = {f[2] for f in findings if f[1] == "breaking"}
    assert {name for name, result in ran.items() if result != "ok"} == \
        {name for name, (_, symbol, _) in CLIENTS.items() if symbol in breaking}, (ran, breaking)
    assert ran["TaskRun"] == "java.lang.AbstractMethodError" and ran["PlainGet"] == "java.lang.NoSuchMethodError"
    assert _compile_failures(root, old) == set()
    assert _compile_failures(root, new) == {name for name, (_, _, compiles) in CLIENTS.items() if not compiles}
