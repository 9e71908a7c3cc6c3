"""Shapes from kotlinx-coroutines 1.6.4 -> 1.7.3, rebuilt with javac: an old supertype that gains an abstract method
(`Job.getParent()`, inherited by `ChildJob extends Job`) is blamed on that supertype, never called a new one; a class's
ACC_SUPER (0x20) never prints as `synchronized`; kotlinc's bookkeeping (`@kotlin.jvm.internal.*` annotations, the
`this`/`$this`/`$receiver` names it gives a passed receiver) is no API change."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from jdx.engine.diff.api_status import IMPLEMENTORS_ONLY
from jdx.engine.diff.members import compare_member
from jdx.engine.diff.surface import Member
from tests.fixtures.build import write_jar
from tests.fixtures import jdktool

SDE = ("package kotlin.jvm.internal;\n"
       "@java.lang.annotation.Retention(java.lang.annotation.RetentionPolicy.CLASS)\n"
       "public @interface SourceDebugExtension { String[] value(); }\n")

OLD = {
    "p/Job.java": "package p; public interface Job { boolean isActive(); }",
    "p/ChildJob.java": "package p; public interface ChildJob extends Job { void parentCancelled(); }",
    "p/AbstractJob.java": "package p; public abstract class AbstractJob implements ChildJob { }",
    "p/Handle.java": "package p; public interface Handle { default void dispose() {} }",
    "p/Disposer.java": "package p; public interface Disposer extends Handle { }",
    "p/Gone.java": "package p; public class Gone { }",
    "p/Facade.java": "package p; public class Facade {"
                     " public static int plus(Job $receiver, int x) { return x; }"
                     " public static int fold(Job $this, int x) { return x; }"
                     " public static int named(Job job, int x) { return x; } }",
    "kotlin/jvm/internal/SourceDebugExtension.java": SDE,
}
NEW = {
    "p/Job.java": "package p; public interface Job { boolean isActive(); Job getParent(); }",
    "p/ChildJob.java": OLD["p/ChildJob.java"],
    "p/AbstractJob.java": OLD["p/AbstractJob.java"],
    "p/Handle.java": "package p; public interface Handle { void dispose(); }",
    "p/Disposer.java": OLD["p/Disposer.java"],
    "p/Added.java": "package p; public abstract class Added { }",
    "p/Facade.java": "package p;"
                     " @kotlin.jvm.internal.SourceDebugExtension({\"SMAP\\nFacade.kt\\nKotlin\\n*S Kotlin\\n\"})"
                     " public class Facade {"
                     " @kotlin.jvm.internal.SourceDebugExtension({\"SMAP\"})"
                     " public static int plus(Job $this$plus, int x) { return x; }"
                     " public static int fold(Job $receiver, int x) { return x; }"
                     " public static int named(Job other, int x) { return x; } }",
    "kotlin/jvm/internal/SourceDebugExtension.java": SDE,
}


def _jar(root: Path, name: str, sources: dict[str, str]) -> Path:
    src, classes = root / f"{name}-src", root / f"{name}-classes"
    for rel, text in sources.items():
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        (src / rel).write_text(text + "\n")
    classes.mkdir(parents=True)
    jdktool.run(["javac", "--release", "17", "-g", "-d", str(classes), *sorted(sources)], cwd=src, check=True,
                   capture_output=True, text=True)
    jar = root / f"{name}.jar"
    write_jar(jar, {str(p.relative_to(classes)): p.read_bytes() for p in sorted(classes.rglob("*.class"))})
    return jar


@pytest.fixture(scope="module")
def jars(tmp_path_factory):
    if shutil.which("javac") is None:
        pytest.skip("javac is not installed")
    root = tmp_path_factory.mktemp("diff-inherited")
    return _jar(root, "old", OLD), _jar(root, "new", NEW)


@pytest.fixture()
def findings(diff, jars):
    code, text = diff(str(jars[0]), str(jars[1]), "--json", "--limit", "1000")
    assert code == 0, text
    return json.loads(text)["result"]["findings"]


def _by_symbol(findings) -> dict[str, list[tuple[str, str]]]:
    out: dict[str, list[tuple[str, str]]] = {}
    for f in findings:
        out.setdefault(f["symbol"], []).append((f["rule"], f["detail"]))
    return out


def test_method_new_in_an_old_supertype_is_blamed_on_it(findings):
    got = _by_symbol(findings)
    assert got["p.Job#getParent()"] == [("INTERFACE_METHOD_ADDED", IMPLEMENTORS_ONLY)]
    # ChildJob extended Job already (javap of both sides): Job is no new supertype, its new method is
    assert got["p.ChildJob#getParent()"] == [(
        "INTERFACE_METHOD_ADDED", "inherited from p.Job, which declares it anew: implementors outside the artifact "
                                  "must now implement it")]
    assert got["p.AbstractJob#getParent()"] == [(
        "ABSTRACT_ADDED", "inherited from p.Job, which declares it anew: subclasses outside the artifact must now "
                          "implement it")]
    # a default method made abstract in the old supertype
    assert got["p.Disposer#dispose()"] == [(
        "INTERFACE_METHOD_ADDED", "inherited from p.Handle, where it is now abstract: implementors outside the "
                                  "artifact must now implement it")]
    assert not any(f["rule"] == "SUPERTYPE_ADDED" or "new supertype" in f["detail"] for f in findings), findings


def test_a_class_never_prints_synchronized(diff, jars, findings):
    # javac sets ACC_SUPER (0x20, the bit of ACC_SYNCHRONIZED on a method) on every class
    forms = {f["symbol"]: (f["old"], f["new"]) for f in findings if f["rule"] in ("TYPE_ADDED", "TYPE_REMOVED")}
    assert forms == {"p.Added": (None, "public abstract class p.Added"), "p.Gone": ("public class p.Gone", None)}
    assert not any("synchronized" in (f["old"] or "") + (f["new"] or "") for f in findings), findings
    code, text = diff(str(jars[0]), str(jars[1]), "--limit", "1000")
    assert code == 0 and "synchronized" not in text, text


def test_kotlinc_bookkeeping_is_no_api_change(findings):
    got = _by_symbol(findings)
    assert not any("kotlin.jvm.internal" in f["detail"] for f in findings), findings
    assert "p.Facade" not in got and "p.Facade#plus(p.Job, int)" not in got
    assert "p.Facade#fold(p.Job, int)" not in got  # $this -> $receiver: both the receiver kotlinc passes
    assert got["p.Facade#named(p.Job, int)"] == [("PARAMETER_NAME_CHANGED", "(job,x) -> (other,x)")]


def test_receiver_names_of_every_kotlinc_are_one():
    """`DefaultImpls` of kotlinx-coroutines 1.6.4 name the interface parameter `this`, 1.7.3 `$this`."""
    def method(names: str) -> Member:
        return Member("p/Job$DefaultImpls", "fold", "(Lp/Job;Ljava/lang/Object;)Ljava/lang/Object;", False, 0x9,
                      None, (), names, None, None, {}, {})

    t = type("T", (), {"access": 0x31})()
    assert compare_member(method("this,initial"), method("$this,initial"), t, ()) == []
    assert compare_member(method("$receiver,initial"), method("$this$fold,initial"), t, ()) == []
    renamed = compare_member(method("this,initial"), method("$this,seed"), t, ())
    assert [(f.rule, f.detail) for f in renamed] == [("PARAMETER_NAME_CHANGED", "(this,initial) -> ($this,seed)")]
