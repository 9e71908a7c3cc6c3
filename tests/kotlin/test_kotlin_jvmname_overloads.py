"""A Kotlin name is every JVM method its declarations compile to, @JvmName-renamed overloads included, whether or not
another overload kept the name (the trial's `PropertiesCollection$Builder#append`: `signature` said 2 overloads of 4,
the others `appendToList` and `appendToMap`); overloads renamed to several names with none keeping it are all listed
(an ambiguity only where one member is asked for). The `imports` note names every JVM member a Kotlin name's
declarations compile to (bounded): the getters of an extension property declared in several file facades of one
package (kotlin-scripting-jvm's `jvm`), a companion function's overloads (`PropertiesCollection.Companion.key`).
Oracles: `javap -p -l` (the JVM names and descriptors, and the Kotlin name kotlinc gives an extension's receiver,
`$this$append`, in its local variable table) and the fixture's declarations."""

from __future__ import annotations

import json
import re

import pytest

from tests.fixtures import jdktool
from tests.kotlin.corpus import jar_fixtures

pytestmark = pytest.mark.soak  # kotlinc 1.3 compiles its fixture (~10-30 s cold): the soak runs it (.ci/run)

BUILDER = '''package kt70

class Key<T>(val name: String)

class Builder {
    fun <V> Key<in List<V>>.append(vararg values: V) {}

    fun <K, V> Key<in Map<K, V>>.append(values: Map<K, V>) {}

    @JvmName("appendToList")
    fun <V> Key<in List<V>>.append(values: Iterable<V>) {}

    @JvmName("appendToMap")
    fun <K, V> Key<in Map<K, V>>.append(values: Iterable<Pair<K, V>>) {}

    @JvmName("twinInt")
    fun Key<Int>.twin(x: Int) {}

    @JvmName("twinLong")
    fun Key<Long>.twin(x: Long) {}

    fun use(k: Key<List<String>>) {
        k.append(listOf("a"))
    }

    companion object {
        fun <T> key(default: T? = null, isTransient: Boolean = false): Key<T> = Key("d")

        fun <T> key(getDefault: (Builder) -> T, isTransient: Boolean = false): Key<T> = Key("f")
    }
}
'''
FACADES = "ABCD"  # one more than a note names
SOURCES = {"Builder.kt": BUILDER, **{f"{f}.kt": f"package kt70\n\nclass {f}Keys\n\nval {f}Keys.jvm: String get() = \"{f}\"\n"
                                     for f in FACADES}}


def _jar():
    from tests.kotlin.corpus import kotlinc_jar

    return kotlinc_jar("jvmname-overloads", SOURCES)


store, jar_args = jar_fixtures(_jar, "kt70", "kt70.jar")


def _javap(cls: str) -> dict[str, str | None]:
    """JVM name + descriptor -> the Kotlin name of its extension receiver (`$this$<name>`), None without one."""
    out = jdktool.run(["javap", "-p", "-s", "-l", "-cp", str(_jar()), cls], capture_output=True, text=True,
                      check=True).stdout
    found: dict[str, str | None] = {}
    name = key = None
    for line in out.splitlines():
        if m := re.match(r"\s+(?:[\w<>,.? \[\]$]+ )?([\w$]+)\(.*\);$", line):
            name, key = m.group(1), None
        elif name and line.strip().startswith("descriptor:"):
            key = name + line.split(":", 1)[1].strip()
            found[key] = None
        elif key and (lv := re.match(r"\s+\d+\s+\d+\s+\d+\s+\$this\$(\w+)\s", line)):
            found[key] = lv.group(1)
    return found


def _members(found) -> set[str]:
    return {e["row"]["name"] + e["row"]["descriptor"] for e in found.members}


def test_a_kotlin_name_takes_its_jvmname_overloads_beside_those_that_kept_it(store, run_jdx, jar_args):
    from jdx.engine.member_resolve import lookup

    jvm = _javap("kt70.Builder")
    append = {k for k, v in jvm.items() if v == "append"}
    assert {k.split("(", 1)[0] for k in append} == {"append", "appendToList", "appendToMap"} and len(append) == 4
    assert _members(lookup(store, "kt70.Builder#append")) == append
    assert _members(lookup(store, "kt70.Builder#appendToList")) == {k for k in append if k.startswith("appendToList(")}
    r = run_jdx("signature", "kt70.Builder#append", *jar_args)
    assert r.code == 0, r.err
    assert r.out.splitlines()[0] == "signatures of kt70.Builder#append (4 overloads)", r.out
    assert "[@JvmName appendToList]" in r.out and "[@JvmName appendToMap]" in r.out, r.out
    r = run_jdx("callers", "kt70.Builder#append", *jar_args)
    assert r.code == 0, r.err
    assert "kt70.Builder#appendToList(kt70.Key, java.lang.Iterable)" in r.out  # `use` calls it
    assert "kt70.Builder#use(kt70.Key)" in r.out, r.out


def test_overloads_renamed_to_several_names_are_all_listed_and_one_asked_for_is_ambiguous(store):
    from jdx.engine.member_resolve import lookup
    from jdx.errors import AmbiguousError

    jvm = _javap("kt70.Builder")
    twin = {k for k, v in jvm.items() if v == "twin"}
    assert {k.split("(", 1)[0] for k in twin} == {"twinInt", "twinLong"}  # no JVM method keeps the name
    assert _members(lookup(store, "kt70.Builder#twin")) == twin
    with pytest.raises(AmbiguousError):
        lookup(store, "kt70.Builder#twin", require_one=True)


def test_the_imports_note_names_every_jvm_member_of_the_kotlin_name(store, run_jdx, jar_args):
    getters = [ref for f in FACADES for ref in _javap(f"kt70.{f}Kt") if ref.startswith("getJvm(")]
    assert getters == [f"getJvm(Lkt70/{f}Keys;)Ljava/lang/String;" for f in FACADES]  # one per facade
    r = run_jdx("imports", "kt70.jvm", "--json", *jar_args)
    assert r.code == 0, r.err
    note = json.loads(r.out)["result"]["imports"][-1]["note"]
    named = [f"kt70.{f}Kt#getJvm(kt70.{f}Keys)" for f in FACADES]
    assert note == f"extension: Java calls it as the static methods {', '.join(named[:3])} or 1 more", note

    companion = _javap("kt70.Builder$Companion")
    keys = sorted(k for k in companion if k.startswith("key("))
    assert keys == ["key(Ljava/lang/Object;Z)Lkt70/Key;", "key(Lkotlin/jvm/functions/Function1;Z)Lkt70/Key;"]
    r = run_jdx("imports", "kt70.Builder$Companion#key", "--json", *jar_args)
    assert r.code == 0, r.err
    note = json.loads(r.out)["result"]["imports"][-1]["note"]
    said = note.split(";", 1)[0].removeprefix("Java calls it as ").split(" or ")
    assert sorted(said) == ["kt70.Builder$Companion#key(java.lang.Object, boolean)",
                            "kt70.Builder$Companion#key(kotlin.jvm.functions.Function1, boolean)"], note
