"""A Kotlin property named by its Kotlin name is the property as a whole, whatever else shares the name: beside a
function @JvmName renamed (`Qux#total`: `getTotal()`, `setTotal(int)` and `totalOf(List)`, once an ambiguity), beside a
function that kept the name (`Baz#count`: `count(int)` and the getter `getCount()`), inherited from a Kotlin superclass
(`Sub#total`: `Base`'s accessors). `callers` lists its getter's and setter's sites, each root labelled by its role; a
delegated property's field (`cache$delegate`) holds the delegate, so its write in the constructor reads as the
delegate's creation, not a write of the property.

Oracles: javap (the JVM members kotlinc made) and `javap -c -l` of the Kotlin client kotlinc compiled with them (the
line of every call of each accessor, of the constructor's `putfield` of the delegate field)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from jdx.engine.member_resolve import lookup
from jdx.engine.rel_calls import CallOptions, call_tree
from jdx.engine.rel_usages import UsageOptions, usages
from tests.fixtures.javac import javap
from tests.kotlin.corpus import jar_fixtures
from tests.kotlin.test_kotlin_property_refs import _call_lines

pytestmark = pytest.mark.soak  # its own kotlinc build (~1 min on a fresh machine): the soak runs it whole (.ci/run)

LIB = '''package kn

class Qux {
    var total: Int
        get() = 1
        set(v) {}
    @JvmName("totalOf") fun total(x: List<String>): Int = x.size
}

class Baz {
    val count: Int get() = 3
    fun count(x: Int): Int = x
}

open class Base {
    var total: Int = 0
}

class Sub : Base()

class Lazy {
    private val cache by lazy { "c" }
    fun read(): String = cache
}
'''

USE = '''package kn.use

import kn.*

fun use(q: Qux, b: Baz, s: Sub): Int {
    q.total = 2
    val t = q.total
    s.total = 5
    val u = s.total + b.count
    return t + u + b.count(1)
}
'''


def _jar() -> Path:
    from tests.kotlin.corpus import kotlinc_jar

    return kotlinc_jar("property-names", {"Lib.kt": LIB, "Use.kt": USE})


store, jar_args = jar_fixtures(_jar, "kn", "property-names.jar")


def _refs(store, text: str) -> list[str]:
    return [e["ref"] for e in lookup(store, text).members]


def _oracle(target: str) -> set[int]:
    """The lines of `kn.use.UseKt#use` calling `target` (`kn/Qux.getTotal`)."""
    return {line for m, line in _call_lines(_jar(), "kn.use.UseKt", target) if m == "use"}


def test_the_oracles():
    qux, baz, sub = (javap(_jar(), f"kn.{c}") for c in ("Qux", "Baz", "Sub"))
    for line in ("public final int getTotal();", "public final void setTotal(int);",
                 "public final int totalOf(java.util.List<java.lang.String>);"):
        assert line in qux, qux
    assert not re.search(r"\btotal\b", qux.replace("getTotal", "").replace("setTotal", ""))  # no JVM member `total`
    assert "public final int getCount();" in baz and "public final int count(int);" in baz
    assert "Total" not in sub  # Sub's `total` is Base's accessors
    assert _oracle("kn/Qux.getTotal") == {7} and _oracle("kn/Qux.setTotal") == {6}
    # kotlinc names the receiver's class at the call: `Sub.getTotal`, the JVM resolves it to `Base`'s
    assert _oracle("kn/Sub.getTotal") == {9} and _oracle("kn/Sub.setTotal") == {8}


def test_a_property_beside_a_function_renamed_to_another_jvm_name(store):
    assert _refs(store, "kn.Qux#total") == ["kn.Qux#getTotal()", "kn.Qux#setTotal(int)",
                                                 "kn.Qux#totalOf(java.util.List)"]


def test_a_property_beside_a_function_of_its_name(store):
    assert _refs(store, "kn.Baz#count") == ["kn.Baz#count(int)", "kn.Baz#getCount()"]
    assert _refs(store, "kn.Baz#count(int)") == ["kn.Baz#count(int)"]  # parameters: the JVM member
    assert "getter kn.Baz#getCount()" in lookup(store, "kn.Baz#count").notes[0]


def test_an_inherited_property(store):
    assert _refs(store, "kn.Sub#total") == ["kn.Base#getTotal()", "kn.Base#setTotal(int)"]


def test_callers_of_a_property_are_its_getters_and_setters_labelled(store):
    result, _ = call_tree(store, "kn.Qux#total", CallOptions(view="kotlin"), "in")
    lines = {root["method"]: {line for n in root["tree"] for line in n["lines"]} for root in result["roots"]}
    assert lines == {"kn.Qux#getTotal()": _oracle("kn/Qux.getTotal"), "kn.Qux#setTotal(int)": _oracle("kn/Qux.setTotal"),
                     "kn.Qux#totalOf(java.util.List)": set()}
    result, _ = call_tree(store, "kn.Sub#total", CallOptions(view="kotlin"), "in")
    lines = {root["method"]: {line for n in root["tree"] for line in n["lines"]} for root in result["roots"]}
    assert lines == {"kn.Base#getTotal()": _oracle("kn/Sub.getTotal"),
                     "kn.Base#setTotal(int)": _oracle("kn/Sub.setTotal")}
    # the accessors are no overloads of one name: the note names each
    assert not any("overloads of" in n for n in result["notes"]), result["notes"]


def test_callers_text_gives_each_accessor_its_tree(run_jdx, jar_args):
    r = run_jdx("callers", "kn.Qux#total", *jar_args)
    assert r.code == 0, r.err
    trees = [line for line in r.out.splitlines() if line.startswith("callers of ")]
    assert trees == ["callers of var total: Int  kn.Qux#getTotal()  [getter]  property-names.jar  (depth 1)",
                     "callers of var total: Int  kn.Qux#setTotal(int)  [setter]  property-names.jar  (depth 1)",
                     "callers of kn.Qux#totalOf  (depth 1): none in workspace for 1 of 3 overloads: (List)"], r.out


def test_a_delegated_propertys_field_write_is_its_delegates_creation(store):
    out = javap(_jar(), "kn.Lazy", "-c", "-l")
    init = out[out.index("public kn.Lazy();"):]
    assert "putfield      #" in init and "// Field cache$delegate:Lkotlin/Lazy;" in init
    result, _, _ = usages(store, "kn.Lazy#cache", UsageOptions(kinds=("write",)))
    sites = [(c["caller"], s) for g in result["groups"] for c in g["callers"] for s in c["sites"]]
    assert [(caller, s["kind"], s["via"], s["through"]) for caller, s in sites] == [
        ("kn.Lazy#<init>()", "write", "its delegate cache$delegate", "kn.Lazy#cache$delegate")]
    assert "its field cache$delegate holds its delegate" in result["notes"][0], result["notes"]

