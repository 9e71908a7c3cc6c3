"""Kotlin lambdas compiled to classes (kotlinc before 2.0 for every lambda, 2.x for suspend lambdas): in the Kotlin view
`usages` and `callers` attribute a site inside such a class (extending kotlin.jvm.internal.Lambda, SuspendLambda, or a
SAM-converted lambda's synthetic class) to the method that holds the lambda, its EnclosingMethod, nested lambdas
followed outward, and mark it `in lambda`, as they do for javac's lambda bodies. A suspend function's continuation is
the function's own code; an `object :` expression keeps its own method (a declaration its source names). `--view jvm`
keeps the classes' methods.

The oracles: the Kotlin source text for the lines of the calls, `javap -v` for each class's superclass and
EnclosingMethod. Compiled here by kotlinc (Kotlin 1.3), as tests/kotlin/corpus.py compiles the fixtures."""

from __future__ import annotations

import re
import shutil
import zipfile
from pathlib import Path

import pytest

from tests.fixtures import jdktool

LIB = '''package kl

fun target(): Int = 42

fun plain(): Int = target()

fun viaLambda(): Int {
    val f = { target() }
    return f()
}

fun nested(): Int {
    val outer = { val inner = { target() + 1 }; inner() }
    return outer()
}

fun viaSuspend(): Any {
    val f: suspend () -> Int = { target() + 2 }
    return f
}

suspend fun suspending(): Int = target() + 3

suspend fun resumes(): Int {
    kotlin.coroutines.intrinsics.suspendCoroutineUninterceptedOrReturn<Unit> { Unit }
    return suspending()
}

fun viaObject(): Runnable = object : Runnable {
    override fun run() { target() + 4 }
}

fun viaSam(): Runnable = Runnable { target() + 5 }

class Holder {
    val prop: () -> Int = { target() + 6 }
}
'''
TARGET = "kl.LibKt#target"
ENCLOSING = re.compile(r"^EnclosingMethod: .*// ([\w.$]+)\.([\w<>$]+)$", re.M)
EXTENDS = re.compile(r"^\S.*class ([\w.$]+) (?:extends ([\w.$]+))?", re.M)


def _jar() -> Path:
    from tests.kotlin.corpus import kotlinc_jar

    return kotlinc_jar("lambda-classes", {"Lib.kt": LIB})


@pytest.fixture(scope="module")
def store(tmp_path_factory, jdx_home):
    from tests.kotlin.corpus import indexed_store

    yield from indexed_store(tmp_path_factory, jdx_home, _jar(), "ktlc", "lambda-classes.jar")


@pytest.fixture(scope="module")
def javap() -> dict[str, tuple[str | None, str | None]]:
    """Class name -> (its superclass, `owner.method` of its EnclosingMethod) of every nested class, as `javap -v`
    prints them."""
    tool = shutil.which("javap")
    if tool is None:
        pytest.skip("javap is not on PATH")
    names = sorted(n[:-6].replace("/", ".") for n in zipfile.ZipFile(_jar()).namelist()
                   if n.endswith(".class") and "$" in n)
    out = jdktool.run([tool, "-v", "-cp", str(_jar()), *names], capture_output=True, text=True, check=True,
                         timeout=120).stdout
    found = {}
    for part in re.split(r"^(?=Classfile )", out, flags=re.M)[1:]:
        head = EXTENDS.search(part)
        enclosing = ENCLOSING.search(part)
        found[head.group(1)] = (head.group(2), f"{enclosing.group(1)}.{enclosing.group(2)}" if enclosing else None)
    assert sorted(found) == names
    return found


def _line(call: str) -> int:
    """The source line of the one occurrence of `call`."""
    assert LIB.count(call) == 1, call
    return LIB[:LIB.index(call)].count("\n") + 1


def _usages(store, ref: str, view: str = "kotlin") -> set[tuple[str, int, bool]]:
    """(caller, line, in lambda) of every call site `usages` reports."""
    from jdx.engine.rel_usages import UsageOptions, usages

    result, _, _ = usages(store, ref, UsageOptions(kinds=("call",), view=view))
    return {(c["caller"], s["line"], s["in_lambda"]) for g in result["groups"] for c in g["callers"]
            for s in c["sites"]}


def _callers(store, ref: str, view: str = "kotlin") -> set[tuple[str, int, bool]]:
    from jdx.engine.rel_calls import CallOptions, call_tree

    result, truncated = call_tree(store, ref, CallOptions(view=view), "in")
    assert truncated is None
    (root,) = result["roots"]
    return {(e["method"], line, bool(e.get("in_lambda"))) for e in root["tree"] for line in e["lines"]}


def _outermost(javap: dict, cls: str) -> str:
    """`owner.method` holding a lambda class, nested lambdas followed outward (javap's EnclosingMethod)."""
    method = javap[cls][1]
    while method.rsplit(".", 1)[0] in javap and javap[method.rsplit(".", 1)[0]][0] == "kotlin.jvm.internal.Lambda":
        method = javap[method.rsplit(".", 1)[0]][1]
    return method


def test_the_fixture_compiles_lambdas_to_classes(javap):
    """What the attribution relies on, as javap shows it (kotlinc 1.3)."""
    assert javap["kl.LibKt$viaLambda$f$1"] == ("kotlin.jvm.internal.Lambda", "kl.LibKt.viaLambda")
    assert javap["kl.LibKt$nested$outer$1$inner$1"] == ("kotlin.jvm.internal.Lambda", "kl.LibKt$nested$outer$1.invoke")
    assert javap["kl.LibKt$viaSuspend$f$1"] == ("kotlin.coroutines.jvm.internal.SuspendLambda", "kl.LibKt.viaSuspend")
    assert javap["kl.LibKt$resumes$1"] == ("kotlin.coroutines.jvm.internal.ContinuationImpl", "kl.LibKt.resumes")
    assert javap["kl.Holder$prop$1"][1] == "kl.Holder.<init>"
    assert javap["kl.LibKt$viaSam$1"][1] == "kl.LibKt.viaSam"
    assert javap["kl.LibKt$viaObject$1"][1] == "kl.LibKt.viaObject"


def test_sites_in_lambda_classes_are_their_enclosing_method_s(store, javap):
    in_lambda = {"{ target() }": "kl.LibKt$viaLambda$f$1", "{ target() + 1 }": "kl.LibKt$nested$outer$1$inner$1",
                 "{ target() + 2 }": "kl.LibKt$viaSuspend$f$1", "{ target() + 5 }": "kl.LibKt$viaSam$1",
                 "{ target() + 6 }": "kl.Holder$prop$1"}
    holders = {call: _outermost(javap, cls) for call, cls in in_lambda.items()}
    assert holders["{ target() + 1 }"] == "kl.LibKt.nested"
    refs = {"kl.LibKt.viaLambda": "kl.LibKt#viaLambda()", "kl.LibKt.nested": "kl.LibKt#nested()",
            "kl.LibKt.viaSuspend": "kl.LibKt#viaSuspend()", "kl.LibKt.viaSam": "kl.LibKt#viaSam()",
            "kl.Holder.<init>": "kl.Holder#<init>()"}
    expected = {(refs[holders[call]], _line(call), True) for call in in_lambda} | {
        ("kl.LibKt#plain()", _line("plain(): Int = target()"), False),
        ("kl.LibKt#suspending(kotlin.coroutines.Continuation)", _line("target() + 3"), False),
        ("kl.LibKt$viaObject$1#run()", _line("target() + 4"), False)}  # an object expression: its own method
    assert _usages(store, TARGET) == expected
    assert _callers(store, TARGET) == expected


def test_usages_name_the_lambda_class(store):
    from jdx.engine.relations import resolve_symbol
    from jdx.engine.rel_usages import usage_sites

    sites = {s["line"]: s for s in usage_sites(store, resolve_symbol(store, TARGET), ("call",))}
    assert sites[_line("{ target() + 1 }")]["lambda"] == "LibKt$nested$outer$1$inner$1#invoke"
    assert sites[_line("{ target() + 2 }")]["lambda"] == "LibKt$viaSuspend$f$1#invokeSuspend"


def test_jvm_view_keeps_the_classes(store):
    expected = {("kl.LibKt$viaLambda$f$1#invoke():int", _line("{ target() }"), False),
                ("kl.LibKt$nested$outer$1$inner$1#invoke():int", _line("{ target() + 1 }"), False),
                ("kl.LibKt$viaSuspend$f$1#invokeSuspend(java.lang.Object)", _line("{ target() + 2 }"), False)}
    assert expected <= _usages(store, TARGET, "jvm")
    assert not {s for s in _callers(store, TARGET, "jvm") if s[2]}


def test_a_continuation_is_its_suspend_function_s_code(store):
    """`resumes`' state machine (`LibKt$resumes$1`) calls `resumes` to resume it: no caller in the Kotlin view."""
    assert _usages(store, "kl.LibKt#resumes") == _callers(store, "kl.LibKt#resumes") == set()
    assert {c for c, _, _ in _usages(store, "kl.LibKt#resumes", "jvm")} == {
        "kl.LibKt$resumes$1#invokeSuspend(java.lang.Object)"}
    line = _line("return suspending()")
    assert _callers(store, "kl.LibKt#suspending") == {("kl.LibKt#resumes(kotlin.coroutines.Continuation)", line,
                                                       False)}
