"""`usages`, `callers` and `samples` of Kotlin declarations read as a Kotlin caller means them (spec §12.1, docs/kotlin.md):
a caller omitting a defaulted argument calls the function's `$default` stub, so the stub's callers are the function's
(`via foo$default`) and the stub's own forwarding call is no usage; a property's usages are its getter's and setter's
calls and its field's accesses from outside its accessors. `--view jvm` keeps the JVM members' own sites.
The sources are compiled here by kotlinc (Kotlin 1.3), as tests/kotlin/corpus.py compiles the fixtures."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

LIB = '''@file:JvmName("Tools")
package ks

fun pad(s: String, width: Int = 8): String = s.padStart(width)

fun countdown(n: Int = 3): Int = if (n <= 0) 0 else countdown(n - 1)

var counter: Int = 0

class Account(val owner: String = "anon") {
    var label: String? = null
        get() = field ?: "none"
        set(v) { field = v?.trim() }
    var plain: Int = 0
    @JvmField var open: Boolean = false

    @JvmOverloads
    fun deposit(amount: Long, note: String = "", fee: Long = 0L): Long = amount - fee

    fun twice(): String {
        plain = plain + 1
        return pad("x")
    }
}

class Names : AbstractList<String>() {
    override val size: Int get() = 1
    override fun get(index: Int): String = "n"
}

class Point(val x: Int) {
    companion object {
        @JvmStatic fun origin(): Point = Point(0)
    }
}
'''

USE = '''package ks.use

import ks.*

class Client {
    fun run(): String {
        val a = Account()
        a.deposit(5)
        a.deposit(5, "n")
        a.deposit(5, "n", 1)
        a.label = "x"
        val l = a.label
        a.open = true
        a.plain = 2
        counter++
        return pad("y") + pad("z", 2) + l + countdown() + Account("o").owner
    }

    fun start(): Point = Point.origin()
}
'''
RUN, TWICE = "ks.use.Client#run()", "ks.Account#twice()"


def _jar() -> Path:
    from tests.kotlin.corpus import kotlinc_jar

    return kotlinc_jar("call-sites", {"Lib.kt": LIB, "Use.kt": USE})


@pytest.fixture(scope="module")
def store(tmp_path_factory, jdx_home):
    from tests.kotlin.corpus import indexed_store

    yield from indexed_store(tmp_path_factory, jdx_home, _jar(), "ktcs", "call-sites.jar")


def _usages(store, text: str, view: str = "kotlin", kinds=("all",)) -> tuple[dict, list[tuple]]:
    from jdx.engine.rel_usages import UsageOptions, usages

    result, _warnings, _truncated = usages(store, text, UsageOptions(kinds=kinds, view=view))
    sites = [(c["caller"], s["kind"], s["line"], s.get("via") or "")
             for g in result["groups"] for c in g["callers"] for s in c["sites"]]
    return result, sites


def test_a_function_s_usages_are_the_calls_of_its_default_stub_not_the_stub_itself(store):
    result, sites = _usages(store, "ks.Tools#pad")
    assert sorted(sites) == [(TWICE, "call", 22, "pad$default"), (RUN, "call", 16, ""),
                             (RUN, "call", 16, "pad$default")]
    assert result["counts"] == {"call": 3}
    through = {s.get("through") for g in result["groups"] for c in g["callers"] for s in c["sites"]}
    assert "ks.Tools#pad$default(java.lang.String, int, int, java.lang.Object)" in through


def test_jvm_overloads_copies_and_the_stub_forward_without_being_usages(store):
    result, sites = _usages(store, "ks.Account#deposit")
    assert sorted(sites) == [(RUN, "call", 8, "deposit$default"), (RUN, "call", 9, "deposit$default"),
                             (RUN, "call", 10, "")]
    targets = {s["target"] for g in result["groups"] for c in g["callers"] for s in c["sites"]}
    assert targets == {"ks.Account#deposit(long, java.lang.String, long)"}


def test_a_recursive_call_is_still_a_usage(store):
    _, sites = _usages(store, "ks.Tools#countdown")
    assert sorted(sites) == [("ks.Tools#countdown(int)", "call", 6, ""), (RUN, "call", 16, "countdown$default")]


def test_jvm_view_keeps_the_jvm_sites(store):
    _, sites = _usages(store, "ks.Tools#pad", view="jvm")
    assert sorted(sites) == [("ks.Tools#pad$default(java.lang.String, int, int, java.lang.Object)", "call", 4, ""),
                             (RUN, "call", 16, "")]


def test_a_property_s_usages_are_its_accessors_calls(store):
    result, sites = _usages(store, "ks.Account#label")
    assert sorted(sites) == [(RUN, "read", 12, "getLabel"), (RUN, "write", 11, "setLabel")]
    assert result["counts"] == {"read": 1, "write": 1}
    assert result["targets"] == ["ks.Account#label"]
    _, reads = _usages(store, "ks.Account#label", kinds=("read",))
    assert reads == [(RUN, "read", 12, "getLabel")]


def test_a_property_keeps_its_field_accesses_from_outside_its_accessors(store):
    _, sites = _usages(store, "ks.Account#plain")
    assert sorted(sites) == [(TWICE, "read", 21, ""), (TWICE, "write", 21, ""), (RUN, "write", 14, "setPlain")]
    _, sites = _usages(store, "ks.Account#open")  # @JvmField: no accessors, the field is the property
    assert sites == [(RUN, "write", 13, "")]


def test_a_top_level_property_through_its_facade_accessors(store):
    _, sites = _usages(store, "ks.Tools#counter")
    assert sorted(sites) == [(RUN, "read", 15, "getCounter"), (RUN, "write", 15, "setCounter")]


def test_jvm_view_of_a_property_is_its_field(store):
    _, sites = _usages(store, "ks.Account#label", view="jvm")
    assert sorted(s[:2] for s in sites) == [("ks.Account#getLabel()", "read"),
                                            ("ks.Account#setLabel(java.lang.String)", "write")]


def test_callers_include_the_callers_of_the_default_stub(store):
    from jdx.engine.rel_calls import CallOptions, call_tree

    result, _ = call_tree(store, "ks.Account#deposit", CallOptions(), "in")
    trees = {r["method"]: [(e["method"], e["lines"], e.get("via")) for e in r["tree"]] for r in result["roots"]}
    assert trees == {"ks.Account#deposit(long)": [], "ks.Account#deposit(long, java.lang.String)": [],
                     "ks.Account#deposit(long, java.lang.String, long)": [(RUN, [8, 9, 10], ["deposit$default"])]}
    result, _ = call_tree(store, "ks.Tools#pad", CallOptions(view="jvm"), "in")
    assert [e["method"] for e in result["roots"][0]["tree"]] == [
        "ks.Tools#pad$default(java.lang.String, int, int, java.lang.Object)", RUN]


def test_samples_show_the_real_call_sites(store):
    from jdx.engine.samples import SampleOptions, samples

    result, _ = samples(store, "ks.Tools#pad", SampleOptions(limit=5), lambda *a: None)
    assert {s["caller"] for s in result["samples"]} == {RUN, TWICE}
    result, _ = samples(store, "ks.Account#label", SampleOptions(limit=5), lambda *a: None)
    assert sorted((s["caller"], s["kind"], s["line"]) for s in result["samples"]) == [(RUN, "read", 12),
                                                                                      (RUN, "write", 11)]


def test_cli_usages_say_through_which_jvm_method(run_jdx, tmp_path):
    jar = tmp_path / "call-sites.jar"
    shutil.copy(_jar(), jar)
    r = run_jdx("usages", "ks.Tools#pad", "--jars", str(jar), "--no-jdk")
    assert r.code == 0, r.err
    assert "fun run(): String  ks.use.Client#run()  call 16, call 16 via pad$default" in r.out
    assert "#pad$default(" not in r.out.split("\n", 1)[1].split("next:")[0].replace("via pad$default", "")


def test_cli_usages_of_a_property_name_its_accessor_calls(run_jdx, tmp_path):
    jar = tmp_path / "call-sites.jar"
    shutil.copy(_jar(), jar)
    r = run_jdx("usages", "ks.Account#label", "--jars", str(jar), "--no-jdk")
    assert r.code == 0, r.err
    assert "usages of var label: String?  ks.Account#label: 2 (read 1, write 1)" in r.out
    assert "fun run(): String  ks.use.Client#run()  write 11 via setLabel, read 12 via getLabel" in r.out
    assert "[getter]" not in r.out and "[setter]" not in r.out


def test_kotlin_collection_bridges_are_members(store):
    """kotlinc declares `contains(String)` and `contains(Object)` of a `List<String>` with ACC_BRIDGE but not
    ACC_SYNTHETIC: Java callers call them, so `members` lists them; javac-style synthetic bridges stay hidden."""
    from jdx.engine.members import MemberOptions, list_members

    declared = list_members(store, "ks.Names", MemberOptions(inherited=False))["members"]
    refs = [m["ref"] for m in declared]
    for name in ("contains", "indexOf", "lastIndexOf"):
        assert f"ks.Names#{name}(java.lang.String)" in refs and f"ks.Names#{name}(java.lang.Object)" in refs, refs
    assert len([r for r in refs if r.startswith("ks.Names#get(int)")]) == 1, refs  # get(int):Object is synthetic


def test_a_jvmstatic_companion_function_is_one_function_under_either_name(store):
    """Kotlin's `Point.origin()` calls the companion's method; the static copy on `Point` forwards to it. Named either
    way, the function's usages and callers are the companion method's callers (not the copy's forwarding call)."""
    from jdx.engine.rel_calls import CallOptions, call_tree

    start = "ks.use.Client#start()"
    _, via_copy = _usages(store, "ks.Point#origin")
    assert via_copy == [(start, "call", 19, "Companion.origin")], via_copy
    _, direct = _usages(store, "ks.Point$Companion#origin")
    assert direct == [(start, "call", 19, "")], direct  # the static copy's own call is no usage
    _, jvm = _usages(store, "ks.Point#origin", view="jvm")
    assert jvm == [], jvm  # nothing calls the static copy itself
    result, _ = call_tree(store, "ks.Point#origin", CallOptions(), "in")
    trees = {r["method"]: [(e["method"], e["lines"], e.get("via")) for e in r["tree"]] for r in result["roots"]}
    assert trees == {"ks.Point#origin()": [(start, [19], ["Companion.origin"])]}, trees
