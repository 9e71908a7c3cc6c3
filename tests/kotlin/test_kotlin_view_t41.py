"""The Kotlin view of `signature`, `outline` and `show` after a trial (docs/kotlin.md):

1. `signature` lists a reified inline function whose JVM method is synthetic (kotlinc 2 makes it so: kotlin-stdlib's
   `Iterable<*>.filterIsInstance()`) as the declaration it is, as `outline` and `members` do; any other synthetic
   member (a `@JvmSynthetic` function) stays out.
2. `outline --include-synthetic` takes a declaration's deprecation from its own members, never from the `$annotations`
   stub kotlinc marks deprecated for every annotated property.
3. Nested classes read as Kotlin declares them (`companion object Companion`, `object Default`, `enum class Severity`,
   `data class Pt`, `sealed class Outcome`, `inner class Cursor`); an interface's `DefaultImpls` (kotlinc's) is left
   out unless `--include-synthetic`.
4. `show` counts an enum class's entries and prints no empty `kotlin:` line for an object declaring nothing; a value
   class's boxed twins and `equals-impl0` fold into their declarations (kotlin-stdlib 2.0.21, soak).

Oracles: javap (`-p -v`: flags, `Deprecated: true`, fields and InnerClasses) of kotlinc-compiled fixtures; the
kotlinc 1.3 of Debian makes a reified inline method private, so `@JvmSynthetic` gives the fixture's one the synthetic
flag kotlinc 2 writes (javap shows it)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.fixtures.javac import javap
from tests.kotlin.corpus import jar_fixtures

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)

HOLDER = '''package kv

interface Shape {
    fun area(): Double = 0.0
    val label: String
}

@Target(AnnotationTarget.PROPERTY)
annotation class Tag

class Holder(val x: Int) {
    companion object {
        const val MAX = 3
        fun make(): Holder = Holder(1)
    }
    object Default { fun d(): Int = 1 }
    enum class Severity { LOW, HIGH }
    data class Pt(val a: Int)
    sealed class Outcome { class Ok : Outcome() }
    inner class Cursor { fun at(): Int = x }
    @Tag val tagged: Int get() = 1
    @Deprecated("old") @Tag val old: Int get() = 2
}

object Marker

@Tag val String.shout: String get() = toUpperCase()
'''

BOX = '''package kr

class Box(val items: List<Any>) {
    fun <R> pick(klass: Class<R>): List<R> = items.filterIsInstance(klass)
    @JvmSynthetic inline fun <reified R> pick(): List<R> = items.filterIsInstance<R>()
    @JvmSynthetic fun pick(n: Int): List<Any> = items.take(n)
}
'''


def _jar() -> Path:
    from tests.kotlin.corpus import kotlinc_jar

    return kotlinc_jar("view-t41", {"Holder.kt": HOLDER, "Box.kt": BOX})


store, jar_args = jar_fixtures(_jar, "kt41", "t41.jar")


def _methods(cls: str) -> dict[str, tuple[str, bool]]:
    """JVM name + descriptor -> (flags line, `Deprecated: true`), of `cls` (javap -p -v)."""
    found, name, key = {}, None, None
    for line in javap(_jar(), cls, "-v").splitlines():
        m = re.match(r"\s{2}\S.*?([\w$-]+)\(.*\);$", line)
        if m:
            name, key = m.group(1), None
        elif name and key is None and line.strip().startswith("descriptor:"):
            key = name + line.split(":", 1)[1].strip()
            found[key] = ["", False]
        elif key and line.strip().startswith("flags:"):
            found[key][0] = line.strip()
        elif key and line.strip() == "Deprecated: true":
            found[key][1] = True
    return {k: (v[0], v[1]) for k, v in found.items()}


def _rows(out: str) -> list[str]:
    return [line.strip() for line in out.splitlines() if line.startswith("  ")]


# --- 1. signature of a reified inline overload ---------------------------------------------------------------------

def test_signature_lists_a_reified_inline_overload_whose_method_is_synthetic(run_jdx, jar_args):
    jvm = _methods("kr.Box")
    assert "ACC_SYNTHETIC" in jvm["pick()Ljava/util/List;"][0]  # (kotlinc 2 writes it for every reified inline one)
    assert "ACC_SYNTHETIC" in jvm["pick(I)Ljava/util/List;"][0]  # @JvmSynthetic: Java cannot call it
    assert "ACC_SYNTHETIC" not in jvm["pick(Ljava/lang/Class;)Ljava/util/List;"][0]
    r = run_jdx("signature", "kr.Box#pick", *jar_args)
    assert r.code == 0, r.err
    assert "signatures of kr.Box#pick (2 overloads)" in r.out, r.out
    assert "public fun <R> pick(klass: Class<R>): List<R>" in r.out
    assert "public inline fun <reified R> pick(): List<R>  [Kotlin-only: reified inline]" in r.out
    assert "pick(n: Int)" not in r.out  # a synthetic member no reified inline function compiles to stays out
    every = run_jdx("signature", "kr.Box#pick", "--include-synthetic", *jar_args)
    assert "(3 overloads)" in every.out and "pick(n: Int)" in every.out, every.out
    jvm_view = run_jdx("signature", "kr.Box#pick", "--view", "jvm", *jar_args)
    assert jvm_view.out.startswith("signature kr.Box#pick(java.lang.Class)"), jvm_view.out  # unchanged


# --- 2. deprecation, not from the $annotations stub ----------------------------------------------------------------

def test_an_annotated_property_is_not_deprecated_by_its_annotations_stub(run_jdx, jar_args):
    jvm = _methods("kv.Holder")
    stubs = {k: v for k, v in jvm.items() if "$annotations" in k}
    assert {k.split("(")[0] for k in stubs} == {"tagged$annotations", "old$annotations"}
    assert all(deprecated and "ACC_SYNTHETIC" in flags for flags, deprecated in stubs.values())  # kotlinc's, always
    assert jvm["getOld()I"][1] and not jvm["getTagged()I"][1]
    for flags in ((), ("--include-synthetic",)):
        rows = _rows(run_jdx("outline", "kv.Holder", *flags, *jar_args).out)
        assert "public val tagged: Int" in rows, rows
        assert "public val old: Int  @Deprecated" in rows, rows
    facade = _methods("kv.HolderKt")
    assert facade["shout$annotations(Ljava/lang/String;)V"][1] and not facade[
        "getShout(Ljava/lang/String;)Ljava/lang/String;"][1]
    rows = _rows(run_jdx("outline", "kv.HolderKt", "--include-synthetic", *jar_args).out)
    assert "public val String.shout: String" in rows, rows


# --- 3. nested classes as Kotlin declares them ---------------------------------------------------------------------

def test_nested_classes_read_as_kotlin(run_jdx, jar_args):
    holder = javap(_jar(), "kv.Holder")
    assert "public static final kv.Holder$Companion Companion;" in holder  # a companion object
    assert "public static final kv.Holder$Default INSTANCE;" in javap(_jar(), "kv.Holder$Default")  # an object
    assert "public final class kv.Holder$Severity extends java.lang.Enum<kv.Holder$Severity>" in \
        javap(_jar(), "kv.Holder$Severity")
    assert "public final int component1();" in javap(_jar(), "kv.Holder$Pt")  # a data class
    assert "public abstract class kv.Holder$Outcome" in javap(_jar(), "kv.Holder$Outcome")
    assert "final kv.Holder this$0;" in javap(_jar(), "kv.Holder$Cursor")  # inner: it holds its outer instance
    out = run_jdx("outline", "kv.Holder", *jar_args).out
    rows = _rows(out)
    assert rows[-6:] == ["public companion object Companion", "public inner class Cursor", "public object Default",
                         "public sealed class Outcome", "public data class Pt", "public enum class Severity"], out
    assert "(jvm)" not in out
    assert _rows(run_jdx("outline", "kv.Holder", "--kind", "type", "--grep", "^S", *jar_args).out)[:1] == [
        "public enum class Severity"]
    jvm = run_jdx("outline", "kv.Holder", "--view", "jvm", *jar_args).out  # unchanged
    assert "class public static final Companion" in jvm and "enum public static Severity" in jvm, jvm


def test_an_interfaces_default_impls_is_kotlincs_left_out(run_jdx, jar_args):
    assert "public static double area(kv.Shape);" in javap(_jar(), "kv.Shape$DefaultImpls")
    out = run_jdx("outline", "kv.Shape", *jar_args).out
    assert "DefaultImpls  (jvm)" not in out and "DefaultImpls hidden (kotlinc's interface method bodies for Java; " \
        "--include-synthetic)" in out, out
    assert "class public static final DefaultImpls  (jvm)" in run_jdx("outline", "kv.Shape", "--include-synthetic",
                                                                      *jar_args).out


# --- 4. show's Kotlin counts ---------------------------------------------------------------------------------------

def test_show_counts_enum_entries_and_prints_no_empty_line(run_jdx, jar_args):
    assert "public static final kv.Holder$Severity LOW;" in javap(_jar(), "kv.Holder$Severity")
    out = run_jdx("show", "kv.Holder.Severity", *jar_args).out
    assert "  kotlin: 2 enum entries, 1 constructor (jdx outline" in out, out
    out = run_jdx("show", "kv.Marker", *jar_args).out
    assert out.startswith("object kv.Marker") and "kotlin: " not in out.replace("kotlin class", ""), out


# --- the trial's jars (~/.m2) --------------------------------------------------------------------------------------

M2 = Path.home() / ".m2/repository/org/jetbrains/kotlin"
STDLIB = M2 / "kotlin-stdlib/2.0.21/kotlin-stdlib-2.0.21.jar"


@pytest.fixture(scope="module")
def stdlib_args(tmp_path_factory):
    if not STDLIB.exists():
        print(f"skipped: {STDLIB} is absent")
        pytest.skip(f"kotlin-stdlib 2.0.21 is not in the local Maven repository ({STDLIB})")
    return ("--jars", str(STDLIB), "--no-jdk")


@pytest.mark.soak  # slow: indexes kotlin-stdlib
def test_stdlib_reified_inline_signature_and_value_class_outline(run_jdx, stdlib_args):
    part = javap(STDLIB, "kotlin.collections.CollectionsKt___CollectionsKt", "-v")
    head = part.index("java.util.List<R> filterIsInstance(java.lang.Iterable<?>);")
    assert "ACC_SYNTHETIC" in part[head:head + 400]
    r = run_jdx("signature", "kotlin.collections.CollectionsKt#filterIsInstance", *stdlib_args)
    assert r.code == 0 and "public inline fun <reified R> Iterable<*>.filterIsInstance(): List<R>  " \
        "[Kotlin-only: reified inline]" in r.out, r.out
    r = run_jdx("signature", "kotlin.enums.enumEntries", *stdlib_args)
    assert "fun <reified T: Enum<T>> enumEntries(): EnumEntries<T>" in r.out and "left out" not in r.out, r.out

    duration = javap(STDLIB, "kotlin.time.Duration")
    for boxed in ("public boolean equals(java.lang.Object);", "public int hashCode();",
                  "public java.lang.String toString();", "public int compareTo-LRDsOJo(long);",
                  "public static final boolean equals-impl0(long, long);"):
        assert boxed in duration, boxed
    r = run_jdx("outline", "kotlin.time.Duration", "--json", *stdlib_args)
    import json

    result = json.loads(r.out)["result"]
    assert result["jvm_only"] == [], result["jvm_only"]
    equals = next(m for m in result["kotlin_members"] if m["name"] == "equals")
    assert [j["role"] for j in equals["jvm"]] == ["method", "boxed", "unboxed"], equals["jvm"]
