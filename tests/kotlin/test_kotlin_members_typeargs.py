"""`members 'KotlinClass<Arg>'` in the Kotlin view substitutes the arguments given into the Kotlin declarations, as the
JVM view does into the JVM ones (docs/kotlin.md): the class's own declarations and inherited ones alike
(`fun get(): String`, `fun <R> map(f: (String) -> R): Box<R>`), a JVM type argument read as the Kotlin type it
stands for (`Integer` is `Int`, `int[]` is `IntArray`, `List<? extends Number>` is `List<out Number>`), and a
declaration's own type parameter that an argument would capture renamed as the JVM view renames it
(`fun <B1> with(b: B1, a: B)`). A wildcard argument (captured in the JVM view) leaves its parameter as declared in the
Kotlin view: Kotlin's use-site projection is no capture, and nothing is guessed. The fixture is compiled by kotlinc
once (cached by its text); kotlin-stdlib's ArrayDeque is read where the other Kotlin tests find the stdlib."""

from __future__ import annotations

import json

import pytest

from tests.kotlin.corpus import kotlinc_jar, stdlib_jar

LIB = '''package kb

open class Box<T>(val value: T) {
    fun get(): T = value
    fun <R> map(f: (T) -> R): Box<R> = Box(f(value))
    fun <T2> pair(other: T2): Pair<T, T2> = Pair(value, other)
    open fun put(item: T?): List<T> = listOf(value)
    var held: T? = null
}

class Cap<V, W>(v: V) : Box<V>(v) {
    fun <V> swap(w: W, v: V): Map<W, V> = emptyMap()
    fun both(v: V, w: W): Pair<V, W> = Pair(v, w)
}

class Bounded<N : Number>(val n: N) {
    fun num(): N = n
}

open class Pairer<A> {
    fun <B> with(b: B, a: A): Pair<A, B> = Pair(a, b)
}

class Clashy<B> : Pairer<B>()
'''


@pytest.fixture(scope="module")
def jar():
    return kotlinc_jar("typeargs", {"Lib.kt": LIB})


def _lines(run_jdx, jar, *args: str, code: int = 0) -> list[str]:
    r = run_jdx("members", *args, "--jars", str(jar))
    assert r.code == code, r.err
    return [line.strip() for line in (r.out if code == 0 else r.err).splitlines()]


def test_the_class_and_its_supertypes_read_the_arguments(run_jdx, jar):
    lines = _lines(run_jdx, jar, "kb.Box<String>")
    assert {"public constructor(value: String)", "public fun get(): String",
            "public fun <R> map(f: (String) -> R): Box<R>", "public fun <T2> pair(other: T2): Pair<String, T2>",
            "public open fun put(item: String?): List<String>", "public var held: String?",
            "public val value: String"} <= set(lines), lines
    lines = _lines(run_jdx, jar, "kb.Cap<String, Integer>")
    assert {"public constructor(v: String)", "public fun both(v: String, w: Int): Pair<String, Int>",
            "public fun <V> swap(w: Int, v: V): Map<Int, V>",  # its own V shadows the class's, no capture
            "public fun get(): String", "public fun <R> map(f: (String) -> R): Box<R>"} <= set(lines), lines
    assert "public fun get(): T" not in lines
    # the JVM view agrees
    jvm = _lines(run_jdx, jar, "kb.Cap<String, Integer>", "--view", "jvm")
    assert {"method public final String get()",
            "method public final Pair<String, Integer> both(String, Integer)"} <= set(jvm), jvm


def test_the_json_keeps_the_declaration_and_the_substitution(run_jdx, jar):
    r = run_jdx("members", "kb.Cap<String, Integer>", "--jars", str(jar), "--json")
    assert r.code == 0, r.err
    kotlin = {m["kotlin"]["name"]: m["kotlin"] for m in json.loads(r.out)["result"]["members"] if m.get("kotlin")}
    assert kotlin["get"]["declared"] == "public fun get(): T"
    assert kotlin["get"]["substitution"] == {"T": "kotlin.String"}
    assert kotlin["get"]["detail"]["returns"] == "kotlin.String"
    assert kotlin["both"]["substitution"] == {"V": "kotlin.String", "W": "kotlin.Int"}
    assert [p["type"] for p in kotlin["<init>"]["detail"]["parameters"]] == ["kotlin.String"]


def test_jvm_types_read_as_kotlin_types(run_jdx, jar):
    assert "public fun get(): IntArray" in _lines(run_jdx, jar, "kb.Box<int[]>")
    assert "public fun get(): Array<String>" in _lines(run_jdx, jar, "kb.Box<String[]>")
    assert "public fun num(): Int" in _lines(run_jdx, jar, "kb.Bounded<Integer>")
    lines = _lines(run_jdx, jar, "kb.Clashy<java.util.List<? extends Number>>")
    assert "public fun <B> with(b: B, a: List<out Number>): Pair<List<out Number>, B>" in lines, lines


def test_a_captured_type_parameter_is_renamed_in_both_views(run_jdx, jar):
    assert "public fun <B1> with(b: B1, a: B): Pair<B, B1>" in _lines(run_jdx, jar, "kb.Clashy")
    assert "method public final <B1> Pair<B, B1> with(B1, B)" in _lines(run_jdx, jar, "kb.Clashy", "--view", "jvm")
    # with B bound nothing is captured: the declaration keeps its own name
    assert "public fun <B> with(b: B, a: String): Pair<String, B>" in _lines(run_jdx, jar, "kb.Clashy<String>")


def test_a_wildcard_argument_leaves_the_kotlin_declaration_as_declared(run_jdx, jar):
    assert "public fun get(): T" in _lines(run_jdx, jar, "kb.Box<? extends Number>")
    assert "method public final capture of ? extends Number get()" in _lines(
        run_jdx, jar, "kb.Box<? extends Number>", "--view", "jvm")


def test_an_argument_out_of_its_bound_is_a_usage_error(run_jdx, jar):
    err = _lines(run_jdx, jar, "kb.Bounded<String>", code=3)
    assert len(err) == 1 and "String is not within the bound of N (N extends Number)" in err[0], err


@pytest.mark.soak
def test_stdlib_array_deque(run_jdx):
    stdlib = stdlib_jar("2.0.21")
    lines = _lines(run_jdx, stdlib, "kotlin.collections.ArrayDeque<String>")
    assert {"public constructor(elements: Collection<String>)", "public fun addFirst(element: String): Unit",
            "public fun removeFirstOrNull(): String?", "public open operator fun get(index: Int): String",
            "public open fun <T> toArray(array: Array<T>): Array<T>"} <= set(lines), lines
    assert "kotlin.collections.ArrayDeque<java.lang.String>" in lines[-1]
