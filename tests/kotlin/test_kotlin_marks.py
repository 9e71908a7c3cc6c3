"""Kotlin declarations whose JVM shape misled the Kotlin view (spec §7.1, §7.2, §12.1):

- `@JvmOverloads` on a constructor: its JVM copies fold into the constructor (marked `[@JvmOverloads]`), as a
  function's do; `usages` leaves out the copies' own calls of the `$default` constructor.
- a type alias of a file with `@file:JvmPackageName` is named by its Kotlin package (metadata `pn`), as the file's
  functions and properties are; an alias whose simple name is its expansion's prints the expansion qualified.
- `signature` of a reified inline function gives the reason `outline` gives (`Kotlin-only: reified inline`).
- `imports` finds a top-level declaration by its JVM name (`@get:JvmName("fetchGreeting") val greeting`), and offers
  no Kotlin import of an internal one (kotlinc: "cannot access 'secretTop': it is internal in 'tl'").
- the Kotlin outline of an enum class lists its entries as entries, `values()`/`valueOf` as Kotlin reads them.

One kotlinc call (Kotlin 1.3) compiles the fixture; javap is the oracle for the JVM members. The stdlib test skips
without kotlin-stdlib 2.0.21 in the local Maven repository.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from jdx.engine.cards import OutlineOptions
from jdx.engine.imports import imports
from jdx.engine.search import SearchOptions
from jdx.engine.search_nav import resolve
from tests.fixtures.javac import javap as _javap
from tests.kotlin.corpus import kotlinc_jar
from tests.service import JdxService, Options

LIB = '''package tl

class Config @JvmOverloads constructor(val name: String, val port: Int = 80, val secure: Boolean = false)

fun makeConfig(): Config = Config("a", 1)

inline fun <reified T> ofType(items: List<Any>): List<T> = items.filterIsInstance<T>()

@get:JvmName("fetchGreeting")
val greeting: String get() = "hi"

internal fun secretTop(): Int = 1

enum class Op { PLUS, MINUS }
'''

# @JvmPackageName is internal to the stdlib: kotlinc 1.3 compiles it once its visibility error is suppressed
MOVED = '''@file:Suppress("INVISIBLE_MEMBER", "INVISIBLE_REFERENCE")
@file:JvmPackageName("tl.jvm")
package tl

typealias AutoCloseable = java.lang.AutoCloseable

fun useIt(c: AutoCloseable) {}
'''

STDLIB = Path.home() / ".m2/repository/org/jetbrains/kotlin/kotlin-stdlib/2.0.21/kotlin-stdlib-2.0.21.jar"


@pytest.fixture(scope="module")
def jar():
    return kotlinc_jar("marks", {"Lib.kt": LIB, "Moved.kt": MOVED})


@pytest.fixture(scope="module")
def service(jar, jdx_home):
    s = JdxService(Options(jars=[str(jar)], jdk=False, cache_dir=str(jdx_home / "cache")))
    yield s
    s.close()


def _outline(service, cls: str) -> dict:
    return service.outline(cls, OutlineOptions(view="kotlin")).result


def test_jvm_overloads_copies_of_a_constructor_fold_into_it(service, jar):
    javap = _javap(jar, "tl.Config", "-v")
    copies = ["tl.Config#<init>(java.lang.String)", "tl.Config#<init>(java.lang.String, int)"]
    for jvm in ("public tl.Config(java.lang.String);", "public tl.Config(java.lang.String, int);"):
        assert jvm in javap and "kotlin.jvm.JvmOverloads" in javap.split(jvm, 1)[1].split("\n\n", 1)[0], javap
    result = _outline(service, "tl.Config")
    rows = {e["name"]: e for e in result["kotlin_members"]}
    assert rows["<init>"]["markers"] == ["@JvmOverloads"], rows
    assert {j["ref"]: j["role"] for j in rows["<init>"]["jvm"]}.items() >= {c: "overload" for c in copies}.items()
    assert not set(copies) & set(result["jvm_only"]), result["jvm_only"]
    sigs = service.signature("tl.Config#<init>", "kotlin").result["signatures"]
    assert [(s["ref"], s["kotlin"]["role"]) for s in sigs] == [
        (copies[0], "overload"), (copies[1], "overload"), ("tl.Config#<init>(java.lang.String, int, boolean)",
                                                           "constructor")], sigs
    usages = service.usages("tl.Config#<init>").result
    callers = [c["caller"] for g in usages["groups"] for c in g["callers"]]
    assert callers == ["tl.LibKt#makeConfig()"] and usages["total"] == 1, usages


def test_a_type_alias_of_a_jvm_package_name_file_is_named_by_its_kotlin_package(service, jar):
    javap = _javap(jar, "tl.jvm.MovedKt", "-v")
    assert 'pn="tl"' in javap, javap  # the oracle: the facade's metadata names the Kotlin package
    store = service.store()
    hits = service.search("AutoCloseable", SearchOptions(kinds=("typealias",))).result["matches"]
    assert [(h["ref"], h["declaration"]) for h in hits] == [
        ("tl.AutoCloseable", "typealias tl.AutoCloseable = java.lang.AutoCloseable")], hits
    result, _ = resolve(store, "tl.AutoCloseable", 50)
    assert [c["ref"] for c in result["candidates"]] == ["tl.AutoCloseable"], result
    assert [e["statement"] for e in imports(store, "tl.AutoCloseable")[0]["imports"]] == ["import tl.AutoCloseable"]
    # the file's function was named by its Kotlin package already: the alias now agrees
    assert [e["statement"] for e in imports(store, "useIt")[0]["imports"]] == [
        "import static tl.jvm.MovedKt.useIt;", "import tl.useIt"]
    rows = {e["name"]: e["text"] for e in _outline(service, "tl.jvm.MovedKt")["kotlin_members"]}
    assert rows["AutoCloseable"] == "public typealias AutoCloseable = java.lang.AutoCloseable", rows


def test_signature_of_a_reified_inline_function_says_why_java_cannot_call_it(service, jar):
    javap = _javap(jar, "tl.LibKt")  # kotlinc 1.3 makes the method private (kotlinc 2: synthetic)
    assert "private static final <T> java.util.List<T> ofType(java.util.List<? extends java.lang.Object>);" in javap
    rows = {e["name"]: e for e in _outline(service, "tl.LibKt")["kotlin_members"]}
    said = rows["ofType"]["markers"]
    assert said == ["Kotlin-only: reified inline"], rows
    sigs = service.signature("tl.LibKt#ofType", "kotlin").result["signatures"]
    assert [s["kotlin"]["markers"] for s in sigs] == [said] and sigs[0]["synthetic"] == [], sigs


def test_imports_finds_a_top_level_declaration_by_its_jvm_name(service, jar):
    assert "public static final java.lang.String fetchGreeting();" in _javap(jar, "tl.LibKt")
    store = service.store()
    for text in ("fetchGreeting", "tl.fetchGreeting"):
        entries = imports(store, text)[0]["imports"]
        assert [(e["language"], e["statement"]) for e in entries] == [
            ("java", "import static tl.LibKt.fetchGreeting;"), ("kotlin", "import tl.greeting")], entries
        assert entries[1]["note"] == "fetchGreeting is the JVM name of tl.greeting", entries


def test_imports_offers_no_kotlin_import_of_an_internal_declaration(service, jar):
    # internal is public on the JVM (Java calls it), but kotlinc of another module rejects the import
    assert "public static final int secretTop();" in _javap(jar, "tl.LibKt")
    entries = imports(service.store(), "secretTop")[0]["imports"]
    assert [e["statement"] for e in entries] == [
        "import static tl.LibKt.secretTop;",
        "// tl.secretTop is internal: it cannot be imported from another module (only code of its module can use it)"]
    assert entries[1]["importable"] is False, entries


def test_an_enum_outline_lists_entries_as_entries(service, jar):
    javap = _javap(jar, "tl.Op")
    assert "public static final tl.Op PLUS;" in javap and "public static tl.Op[] values();" in javap
    result = _outline(service, "tl.Op")
    assert [(e["kind"], e["text"]) for e in result["kotlin_members"]] == [
        ("enum entry", "PLUS"), ("enum entry", "MINUS"), ("constructor", "private constructor()"),
        ("function", "public fun values(): Array<Op>"), ("function", "public fun valueOf(value: String): Op")]
    assert result["jvm_only"] == [], result["jvm_only"]


# --- the real stdlib (~/.m2) --------------------------------------------------------------------------------------
@pytest.mark.soak
def test_stdlib_auto_closeable_alias_is_kotlin_auto_closeable(jdx_home):
    if not STDLIB.exists():
        pytest.skip(f"{STDLIB} is absent")
    s = JdxService(Options(jars=[str(STDLIB)], jdk=False, cache_dir=str(jdx_home / "cache")))
    try:
        hits = s.search("AutoCloseable", SearchOptions(kinds=("typealias",))).result["matches"]
        assert [h["declaration"] for h in hits] == ["typealias kotlin.AutoCloseable = java.lang.AutoCloseable"]
        kinds = [e["kind"] for e in imports(s.store(), "kotlin.AutoCloseable")[0]["imports"]
                 if e["statement"] == "import kotlin.AutoCloseable"]
        assert "typealias" in kinds, kinds
    finally:
        s.close()
