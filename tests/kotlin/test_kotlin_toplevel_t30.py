"""A Kotlin top-level name (`pkg.name`) is every declaration Kotlin code calls by it (docs/kotlin.md): the @JvmName
`flowCombine` of `Flow<T1>.combine` too, and a note counts the Kotlin-only ones the lookup leaves out (a
@JvmSynthetic one: synthetic on the JVM); a companion object's member is found through its class, as Kotlin writes
`Config.from(...)`, with a note that it lives in the companion. Oracles: `javap -p -s -v` (JVM names, descriptors,
flags) and the Kotlin metadata's declarations (`kotlin_view.decls_of`)."""

from __future__ import annotations

import json


import pytest

from tests.fixtures.javac import javap_method_flags
from tests.kotlin.corpus import jar_fixtures

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)

FLOWS = '''@file:JvmName("Flows")
package kt30

class Flow<T>(val v: T)

fun <T1, T2, R> combine(a: Flow<T1>, b: Flow<T2>, transform: (T1, T2) -> R): Flow<R> = Flow(transform(a.v, b.v))

fun <T1, T2, T3, R> combine(a: Flow<T1>, b: Flow<T2>, c: Flow<T3>, transform: (T1, T2, T3) -> R): Flow<R> =
    Flow(transform(a.v, b.v, c.v))

@JvmName("flowCombine")
fun <T1, T2, R> Flow<T1>.combine(other: Flow<T2>, transform: (T1, T2) -> R): Flow<R> = Flow(transform(v, other.v))

inline fun <reified T> combine(flows: List<Flow<T>>): Flow<String> = Flow(T::class.java.name + flows.size)

@JvmSynthetic
fun combine(n: Int): Int = n
'''

CONFIG = '''package kt30

class Config(val s: String) {
    fun plain(): String = s

    companion object {
        fun from(s: String): Config = Config(s)
        const val NAME = "n"
    }
}
'''


def _jar():
    from tests.kotlin.corpus import kotlinc_jar

    return kotlinc_jar("toplevel-t30", {"Flows.kt": FLOWS, "Config.kt": CONFIG})


store, jar_args = jar_fixtures(_jar, "kt30", "t30.jar")


def _javap(cls: str) -> dict[str, str]:
    """JVM name + descriptor -> the method's flags line, of `cls` (javap -p -v)."""
    return javap_method_flags(_jar(), cls)


def test_a_top_level_name_lists_its_jvmname_overload_and_counts_the_kotlin_only_one_left_out(store):
    from jdx.engine.kotlin_view import decls_of
    from jdx.engine.member_resolve import lookup

    jvm = _javap("kt30.Flows")
    named = {k: v for k, v in jvm.items() if k.startswith(("combine(", "flowCombine("))}
    assert sum(k.startswith("flowCombine(") for k in named) == 1  # the @JvmName overload
    callable_ = {k for k, v in named.items() if "ACC_SYNTHETIC" not in v}
    synthetic = set(named) - callable_
    assert len(synthetic) == 1  # the @JvmSynthetic one
    declared = [x for x in decls_of(store, "kt30/Flows") if x["name"] == "combine" and x["kind"] == "function"]
    assert len(declared) == len(named) == 5  # the metadata's declarations, one JVM method each

    found = lookup(store, "kt30.combine")
    assert {e["row"]["name"] + e["row"]["descriptor"] for e in found.members} == callable_
    assert found.notes == ["1 Kotlin-only declaration of kt30.combine left out (synthetic on the JVM): "
                           "jdx signature kt30.combine --include-synthetic lists it"]
    every = lookup(store, "kt30.combine", with_hidden=True)
    assert {e["row"]["name"] + e["row"]["descriptor"] for e in every.members} == set(named)
    assert every.notes == []


def test_signature_and_callers_of_a_top_level_name_show_the_jvmname_extension(run_jdx, jar_args):
    r = run_jdx("signature", "kt30.combine", *jar_args)
    assert r.code == 0, r.err
    assert "(4 overloads)" in r.out
    assert "Flow<T1>.combine(other: Flow<T2>, transform: (T1, T2) -> R): Flow<R>  [@JvmName flowCombine]" in r.out
    assert "note: 1 Kotlin-only declaration of kt30.combine left out" in r.out
    r = run_jdx("callers", "kt30.combine", *jar_args)
    assert r.code == 0, r.err
    # no overload has callers: one line names them all, the @JvmName one by its JVM name
    assert "none in workspace for 4 of 4 overloads:" in r.out and "flowCombine(Flow, Flow, Function2)" in r.out, r.out
    roots = json.loads(run_jdx("callers", "kt30.combine", "--json", *jar_args).out)["result"]["roots"]
    assert "kt30.Flows#flowCombine(kt30.Flow, kt30.Flow, kotlin.jvm.functions.Function2)" in \
        [root["method"] for root in roots], roots
    assert "note: 1 Kotlin-only declaration of kt30.combine left out" in r.out
    r = run_jdx("usages", "kt30.combine", *jar_args)
    assert r.code == 0 and "1 Kotlin-only declaration of kt30.combine left out" in r.out, r.out


def test_a_companion_member_is_found_through_its_class(store, run_jdx, jar_args):
    from jdx.engine.member_resolve import lookup

    assert any(k.startswith("from(Ljava/lang/String;)") for k in _javap("kt30.Config$Companion"))
    assert not any(k.startswith("from(") for k in _javap("kt30.Config"))  # the class itself has none
    found = lookup(store, "kt30.Config#from")
    assert found.target["id"] == "kt30/Config$Companion"
    assert [e["ref"] for e in found.members] == ["kt30.Config$Companion#from(java.lang.String)"]
    assert found.notes == ["from is a member of the companion object kt30.Config.Companion, not of kt30.Config: "
                           "Kotlin calls it as kt30.Config.from, Java through kt30.Config.Companion"]
    r = run_jdx("signature", "kt30.Config#from", *jar_args)
    assert r.code == 0, r.err
    assert "signature kt30.Config$Companion#from(java.lang.String)" in r.out
    assert "note: from is a member of the companion object kt30.Config.Companion" in r.out
    r = run_jdx("signature", "kt30.Config#nope", *jar_args)
    assert r.code != 0 and "not found: kt30.Config#nope" in r.err + r.out
