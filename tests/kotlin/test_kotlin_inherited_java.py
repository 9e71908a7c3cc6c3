"""The Kotlin view of `members` where the JVM shows through (docs/kotlin.md): an inherited Kotlin declaration reached
through a Java class of the supertype chain reads with the Java class's generic signature applied, as the platform
types Kotlin sees (`get(): String!`); kotlinc's bridges of a collection's special members (`contains(String)`,
`contains(Object)` of a `List<String>`) fold into the declaration they bridge. kotlin-reflect (`KClass.members`) is
the oracle, run against the newest stdlib of the local Maven repository, which the graph indexes too."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.kotlin.test_kotlin_inherited import _oracle, _ours, mixed_jar

LIB = '''package kj

open class KotlinTop<T> {
    open fun get(): T = throw UnsupportedOperationException()
    open fun top(): T? = null
    open fun take(t: T, ts: List<T>) {}
    val prop: T? get() = null
}

interface KDefault<E> {
    fun echo(e: E): E = e
}

class ThroughJava : JavaMid<String>()
class NullableThroughJava : JavaMid<String?>()
class FixedInJava : JavaFixed()
class SwappedInJava : JavaSwap<Long, String>()
class NestedInJava : JavaDeep<Int>()
class RawInJava : JavaRaw()
class CollectionInJava : JavaList()
class DefaultThroughJava : JavaDefault<String>()

class Names : AbstractList<String>() {
    override val size: Int get() = 0
    override fun get(index: Int): String = ""
}

open class Gen<E> : AbstractList<E>() {
    override val size: Int get() = 0
    override fun get(index: Int): E = throw IndexOutOfBoundsException()
}

class GenKid : Gen<String>()

class Counts : AbstractMap<String, Int>() {
    override val entries: Set<Map.Entry<String, Int>> get() = emptySet()
}

class Chars : CharSequence {
    override val length: Int get() = 0
    override fun get(index: Int): Char = 'a'
    override fun subSequence(startIndex: Int, endIndex: Int): CharSequence = ""
}

class Stack : AbstractMutableList<String>() {
    override val size: Int get() = 0
    override fun get(index: Int): String = ""
    override fun set(index: Int, element: String): String = element
    override fun add(index: Int, element: String) {}
    override fun removeAt(index: Int): String = ""
}

class Bag : java.util.ArrayList<String>() {
    override fun contains(element: String): Boolean = true
}
'''

JAVA = {f"{name}.java": f"package kj;\n{text}\n" for name, text in {
    "JavaMid": "public class JavaMid<T> extends KotlinTop<T> {\n    public T mid() { return null; }\n}",
    "JavaFixed": "public class JavaFixed extends KotlinTop<String> { }",
    "JavaSwap": "public class JavaSwap<A, B> extends KotlinTop<B> { }",
    "JavaDeep": "public class JavaDeep<X> extends JavaMid<Comparable<X>> { }",
    "JavaRaw": "@SuppressWarnings(\"rawtypes\")\npublic class JavaRaw extends KotlinTop { }",
    "JavaList": "public class JavaList extends KotlinTop<java.util.List<String>> { }",
    "JavaDefault": "public abstract class JavaDefault<Q> extends KotlinTop<Q> implements KDefault<Q> { }",
}.items()}

THROUGH_JAVA = ["kj.ThroughJava", "kj.NullableThroughJava", "kj.FixedInJava", "kj.SwappedInJava", "kj.NestedInJava",
                "kj.DefaultThroughJava"]
BRIDGING = ["kj.Names", "kj.GenKid", "kj.Counts", "kj.Chars", "kj.Stack", "kj.Bag"]


@pytest.fixture(scope="module")
def jars() -> tuple[Path, Path]:
    from tests.kotlin.corpus import runtime_stdlib

    return mixed_jar("inherited-java", LIB, JAVA), runtime_stdlib()


@pytest.fixture(scope="module")
def run(jars, run_jdx, tmp_path_factory):
    """`jdx members` of the fixture jar and the stdlib (a copy, named for this module), without the JDK."""
    stdlib = tmp_path_factory.mktemp("inherited-java") / "kotlin-stdlib-inherited-java.jar"
    shutil.copy(jars[1], stdlib)

    def go(name: str, *extra: str) -> str:
        r = run_jdx("members", name, "--jars", str(jars[0]), "--jars", str(stdlib), "--no-jdk", *extra)
        assert r.code == 0, r.err
        return r.out

    return go


def _lines(run, name: str, *extra: str) -> list[str]:
    return [line.strip() for line in run(name, *extra).splitlines()]


def _section(run, name: str, header: str, *extra: str) -> list[str]:
    """The member lines under `header` (`members of X`, `inherited from Y`)."""
    lines = run(name, *extra).splitlines()
    start = lines.index(header) + 1
    end = next((i for i in range(start, len(lines)) if not lines[i].startswith("  ")), len(lines))
    return [line.strip() for line in lines[start:end]]


@pytest.mark.soak
def test_a_java_class_in_the_chain_passes_its_arguments_on_as_platform_types(run):
    top = _section(run, "kj.ThroughJava", "inherited from kj.KotlinTop")
    assert top == ["public open fun get(): String!", "public val prop: String?",
                   "public open fun take(t: String!, ts: List<String!>): Unit", "public open fun top(): String?"]
    assert "public open fun get(): String?" in _lines(run, "kj.NullableThroughJava")  # `String?` is no platform type
    assert "public open fun get(): String!" in _lines(run, "kj.FixedInJava")  # the Java class's own argument
    assert "public open fun get(): String!" in _lines(run, "kj.SwappedInJava")  # JavaSwap<A, B> : KotlinTop<B>
    nested = _lines(run, "kj.NestedInJava")  # JavaDeep<X> : JavaMid<Comparable<X>> : KotlinTop<T>: two Java levels
    assert "public open fun top(): Comparable<Int!>?" in nested
    assert "public open fun take(t: Comparable<Int!>!, ts: List<Comparable<Int!>!>): Unit" in nested
    mid = json.loads(run("kj.ThroughJava", "--json"))["result"]["members"]
    get = next(m["kotlin"] for m in mid if m.get("kotlin") and m["kotlin"]["name"] == "get")
    assert get["declared"] == "public open fun get(): T" and get["substitution"] == {"T": "kotlin.String!"}
    java = next(m for m in mid if m["name"] == "mid")  # the Java class's own method keeps its JVM form
    assert java["text"] == "public String mid()" and "kotlin" not in java


@pytest.mark.soak
def test_a_raw_java_supertype_or_a_java_collection_argument_is_not_guessed(run):
    assert "public open fun get(): T" in _lines(run, "kj.RawInJava")  # kotlin-reflect: Any? (a raw type)
    # kotlin-reflect: `(Mutable)List<String!>!`, a mutability-flexible type the Kotlin renderer has no text for
    assert "public open fun get(): T" in _lines(run, "kj.CollectionInJava")


@pytest.mark.soak  # ~6 s; the bridge tests below keep the fixture in the default tier
def test_a_kotlin_interface_reached_through_a_java_class_is_substituted(run):
    lines = _lines(run, "kj.DefaultThroughJava")  # : JavaDefault<String> (Java) : KotlinTop<Q>, KDefault<Q>
    assert lines[lines.index("inherited from kj.KDefault") + 1] == "public open fun echo(e: String!): String!"


@pytest.mark.soak  # slow: the soak runs it (.ci/run)
def test_special_bridges_fold_into_the_declaration_they_bridge(run):
    names = _section(run, "kj.Names", "members of kj.Names")
    assert names == ["public constructor()", "public open operator fun contains(element: String): Boolean",
                     "public open operator fun get(index: Int): String",
                     "public open fun indexOf(element: String): Int",
                     "public open fun lastIndexOf(element: String): Int", "public open val size: Int"]
    kid = _section(run, "kj.GenKid", "members of kj.GenKid")  # bridges of a subclass of a generic class
    assert "public open operator fun contains(element: String): Boolean" in kid
    assert not any(line.startswith("method ") for line in kid)
    counts = _section(run, "kj.Counts", "members of kj.Counts")
    assert "public open fun containsValue(value: Int): Boolean" in counts  # `containsValue(int)`, a primitive
    assert "public open operator fun get(key: String): Int?" in counts
    chars = _section(run, "kj.Chars", "members of kj.Chars")  # `charAt`, `length()`: the built-ins' JVM names
    assert chars == ["public constructor()", "public open operator fun get(index: Int): Char",
                     "public open val length: Int",
                     "public open fun subSequence(startIndex: Int, endIndex: Int): CharSequence"]
    stack = _lines(run, "kj.Stack")  # AbstractMutableList's `remove(int)`, `size()`: bridges of Stack's overrides
    assert "public open fun removeAt(index: Int): String" in stack and "public open val size: Int" in stack
    assert "inherited from kotlin.collections.AbstractMutableList" not in stack
    assert not any(line.startswith("method ") and (" remove(int)" in line or " size()" in line) for line in stack)
    assert "method public final boolean remove(Object)" in stack  # `remove(element)` is java.util's: not a removeAt
    bag = _section(run, "kj.Bag", "members of kj.Bag")  # its own override's `contains(Object)`
    assert "public open operator fun contains(element: String): Boolean" in bag
    assert not any(line.startswith("method ") and " contains(" in line for line in bag)
    # no Kotlin declaration in the graph (java.util.ArrayList's, a built-in's): the bridges stay JVM methods
    assert "method public String removeAt(int)" in bag and "method public final String remove(int)" in bag


@pytest.mark.soak  # slow: the soak runs it (.ci/run)
def test_bridges_keep_their_jvm_form_in_json_and_in_view_jvm(run):
    result = json.loads(run("kj.Names", "--json"))["result"]
    contains = [m for m in result["members"] if m["name"] == "contains" and m["declaring"] == "kj.Names"]
    assert len(contains) == 1 and contains[0]["kotlin"]["role"] == "bridge"
    assert contains[0]["kotlin"]["declared"] == "public open operator fun contains(element: E): Boolean"
    assert contains[0]["kotlin"]["jvm"] == [
        {"role": "method", "ref": "kotlin.collections.AbstractCollection#contains(java.lang.Object)"}]
    assert result["folded"] >= 3
    jvm = _section(run, "kj.Names", "members of kj.Names", "--view", "jvm")
    assert "method public boolean contains(String)" in jvm and "method public final boolean contains(Object)" in jvm


@pytest.mark.soak  # the whole kotlin-reflect differential (~5 s); the tests above sample it, CI's soak runs it
def test_json_agrees_with_kotlin_reflect(jars, run):
    classes = THROUGH_JAVA + BRIDGING
    oracle = {json.dumps([r["class"], r["name"], r["kind"], r["receiver"], r["params"], r["returns"], r["bounds"]])
              for r in _oracle(jars[0], classes)}
    compared, bridges = 0, 0
    for name in classes:
        for m in json.loads(run(name, "--json"))["result"]["members"]:
            k = m.get("kotlin")
            if k is None or k["kind"] not in ("function", "property"):
                continue
            if m["declaring"] == name and k["role"] not in ("forwarder", "bridge"):
                continue  # its own declarations: the reflect oracle of test_reflect_oracle
            assert _ours(name, k) in oracle, (name, k["text"])
            compared += 1
            bridges += k["role"] == "bridge"
    assert compared >= 60 and bridges >= 9
