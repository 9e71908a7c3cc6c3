"""The Kotlin view after trial 60 (okio-jvm 3.6.0, kotlin-logging-jvm 7.0.3):

1. An override's parameters inherit the default values of the function it overrides (Kotlin forbids redeclaring
   them; kotlin-reflect's `isOptional` is true): `outline`, `members` and `signature` print `= ...` and mark
   `defaults inherited from <supertype>` (okio's `ForwardingFileSystem.sink(file, mustCreate)`), through a class
   between and a generic supertype too.
2. A declaration deprecated at level ERROR is not `Kotlin-only` (Kotlin cannot call it either): okio's
   `@Deprecated(level = ERROR) @JvmName("-deprecated_size") fun size()` says its level; every `kotlin_members`
   entry of `outline --json` carries `deprecated`, as the JVM rows do.
3. `imports` leaves out the places another module cannot import from: an `internal` declaration's package, an object
   whose members are all deprecated at level ERROR (okio's `-DeprecatedOkio`); an internal one is at most listed
   after the answer, as not importable.
4. `search` ranks an `internal` declaration after public ones and qualifies a receiver type whose simple name is
   another class's, as `outline` does (`fun java.nio.file.Path.toOkioPath(...): okio.Path`).
5. The JVM view names an abstract method's parameters (no LocalVariableTable: javap's `arg0`) as the Kotlin metadata
   declares them (kotlin_view.MetadataParamNames, which jdx/engine/cards.py's render_member asks).

Oracles: kotlinc itself (a client calling each override without the inherited arguments compiles only when they
are inherited; kotlinc 1.3 of Debian) and javap (`Deprecated: true`, no LocalVariableTable)."""

from __future__ import annotations

import json

import pytest

from tests.fixtures.javac import javap

pytestmark = pytest.mark.soak  # a kotlinc fixture and its own graph build (.ci/run runs the soak)

LIB = '''package kt60

abstract class Store {
    abstract fun sink(file: String, mustCreate: Boolean = false): Int
    open fun open(file: String, a: Boolean = false, b: Boolean = true): Int = 0
    abstract fun plain(file: String, flag: Boolean): Int
}

open class Forwarding(val d: Store) : Store() {
    override fun sink(file: String, mustCreate: Boolean): Int = d.sink(file, mustCreate)
    override fun open(file: String, a: Boolean, b: Boolean): Int = 1
    override fun plain(file: String, flag: Boolean): Int = 2
}

class Leaf(d: Store) : Forwarding(d) {
    override fun sink(file: String, mustCreate: Boolean): Int = 3
}

interface Gen<T> {
    fun put(value: T, count: Int = 1)
}

class StrGen : Gen<String> {
    override fun put(value: String, count: Int) {}
}

class Buf {
    var size: Long = 0

    @Deprecated("moved to val", level = DeprecationLevel.ERROR)
    @JvmName("-deprecated_size")
    fun size(): Long = size

    @Deprecated("soon gone")
    fun soft(): Int = 1
}

class Path

fun java.nio.file.Path.toKtPath(): Path = Path()

fun String.toKey(): Int = 1
'''

INTERNAL = '''package kt60.internal

internal fun Int.toKey(): Int = 2
'''

DEPRECATED = '''package kt60

object `-DeprecatedKt` {
    @Deprecated("use the extension", level = DeprecationLevel.ERROR)
    fun toKey(s: String): Int = 3
}
'''

# compiles only when each override's parameters inherit their defaults (kotlinc: "No value passed for parameter")
USE = '''package kt60use

import kt60.Forwarding
import kt60.Leaf
import kt60.StrGen

fun use(f: Forwarding, l: Leaf, g: StrGen): Int {
    g.put("s")
    return f.sink("a") + f.open("b") + f.open("c", true) + l.sink("d")
}
'''


@pytest.fixture(scope="module")
def jar():
    from tests.kotlin.corpus import kotlinc_jar

    return kotlinc_jar("t60-view", {"Lib.kt": LIB, "Internal.kt": INTERNAL, "Deprecated.kt": DEPRECATED,
                                    "Use.kt": USE})


@pytest.fixture(scope="module")
def args(jar):
    return ("--jars", str(jar))


def _lines(out: str, word: str) -> list[str]:
    return [line.strip() for line in out.splitlines() if word in line]


def test_an_override_inherits_its_supertypes_default_values(run_jdx, jar, args):
    # kotlinc compiled the calls leaving the inherited defaults out
    assert "use(kt60.Forwarding, kt60.Leaf, kt60.StrGen)" in javap(jar, "kt60use.UseKt")
    r = run_jdx("outline", "kt60.Forwarding", *args)
    assert r.code == 0, r.out + r.err
    assert _lines(r.out, "fun sink(") == [
        "public open fun sink(file: String, mustCreate: Boolean = ...): Int  [defaults inherited from kt60.Store]"]
    assert _lines(r.out, "fun open(") == ["public open fun open(file: String, a: Boolean = ..., b: Boolean = ...): "
                                          "Int  [defaults inherited from kt60.Store]"]
    assert _lines(r.out, "fun plain(") == ["public open fun plain(file: String, flag: Boolean): Int"]
    leaf = run_jdx("outline", "kt60.Leaf", *args)
    assert _lines(leaf.out, "fun sink(") == [
        "public open fun sink(file: String, mustCreate: Boolean = ...): Int  [defaults inherited from kt60.Store]"]
    gen = run_jdx("outline", "kt60.StrGen", *args)
    assert _lines(gen.out, "fun put(") == [
        "public open fun put(value: String, count: Int = ...): Unit  [defaults inherited from kt60.Gen]"]
    members = run_jdx("members", "kt60.Leaf", *args)
    assert any("fun open(file: String, a: Boolean = ..., b: Boolean = ...)" in line
               for line in _lines(members.out, "defaults inherited from kt60.Store"))
    sig = run_jdx("signature", "kt60.Forwarding#sink", "--json", *args)
    kotlin = json.loads(sig.out)["result"]["signatures"][0]["kotlin"]
    assert [p.get("default", False) for p in kotlin["detail"]["parameters"]] == [False, True]
    assert "defaults inherited from kt60.Store" in kotlin["markers"]


def test_an_error_deprecated_declaration_is_not_kotlin_only(run_jdx, jar, args):
    text = javap(jar, "kt60.Buf", "-v")
    assert "-deprecated_size()" in text and "Deprecated: true" in text
    r = run_jdx("outline", "kt60.Buf", *args)
    assert r.code == 0, r.out + r.err
    line = next(x for x in _lines(r.out, "fun size()"))
    assert "Kotlin-only" not in line
    assert "[@JvmName -deprecated_size, deprecated at level ERROR: not callable]" in line
    data = json.loads(run_jdx("outline", "kt60.Buf", "--json", *args).out)["result"]
    deprecated = {(m["kind"], m["name"]): m["deprecated"] for m in data["kotlin_members"]}
    assert deprecated[("function", "size")] is True and deprecated[("function", "soft")] is True
    assert deprecated[("property", "size")] is False
    assert all(isinstance(m["deprecated"], bool) for m in data["kotlin_members"])
    members = run_jdx("members", "kt60.Buf", *args)
    assert "deprecated at level ERROR: not callable" in next(x for x in _lines(members.out, "fun size()"))


def test_imports_leaves_out_internal_and_error_deprecated_places(run_jdx, args):
    r = run_jdx("imports", "toKey", *args)
    assert r.code == 0, r.out + r.err
    assert r.out.startswith("Kotlin: import kt60.toKey  //")  # the one place, no ambiguity
    assert "DeprecatedKt" not in r.out
    internal = [line for line in r.out.splitlines() if "kt60.internal" in line]  # after it, said so
    assert all("internal: it cannot be imported" in line for line in internal)


def test_search_ranks_internal_after_public_and_qualifies_receivers(run_jdx, args):
    r = run_jdx("search", "toKey", *args)
    assert r.code == 0, r.out + r.err
    rows = [line for line in r.out.splitlines() if "toKey(" in line]
    public = next(i for i, line in enumerate(rows) if line.startswith("fun String.toKey()"))
    internal = next(i for i, line in enumerate(rows) if line.startswith("internal fun Int.toKey()"))
    assert public < internal
    found = run_jdx("search", "toKtPath", *args)
    assert "fun java.nio.file.Path.toKtPath(): kt60.Path" in found.out


def test_jvm_view_names_abstract_parameters_from_metadata(run_jdx, jar, args):
    text = javap(jar, "kt60.Store", "-v")
    abstract = text[text.index("sink(java.lang.String, boolean)"):text.index("open(java.lang.String")]
    assert "LocalVariableTable" not in abstract and "MethodParameters" not in abstract  # the class file names none
    r = run_jdx("outline", "kt60.Store", "--view", "jvm", *args)
    assert r.code == 0, r.out + r.err
    assert "sink(String file, boolean mustCreate)" in r.out.replace("@org.jetbrains.annotations.NotNull ", "")
    assert "arg0" not in r.out
    assert "parameter names from Kotlin metadata" in r.out
