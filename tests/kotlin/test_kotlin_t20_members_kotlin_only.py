"""`members` (Kotlin view) lists the public Kotlin declarations whose JVM method Java cannot call (docs/kotlin.md):
a reified inline function (kotlinc 1.3 makes its method private, kotlinc 2 synthetic) and an @InlineOnly function
(private), marked as `outline` marks them (`Kotlin-only: reified inline`, `Kotlin-only: inline-only`); `--view jvm`
stays the JVM members (where they are private). And a bare `Type#name` naming only one declaration's @JvmOverloads
copies stands for that declaration (kotlin_view.one_declaration_member: what `body` and `doc` need).

Oracles: kotlinc compiles a Kotlin client calling each of them (`r.firstOf<Circle>()`, `r.pick<Circle>(…)`,
`typeName<Circle>()`), so Kotlin callers name them; javap shows their JVM methods private. kotlin-stdlib 2.0.21 from
the local Maven repository (skipped, saying so, without it): `"x".let { it }` is Kotlin every Kotlin programmer writes.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from jdx.commands.cards import members_answer
from jdx.engine.kotlin_view import one_declaration_member
from jdx.engine.member_resolve import lookup
from jdx.engine.members import MemberOptions
from tests.fixtures.javac import javap
from tests.kotlin.corpus import kotlinc_jar
from tests.service import JdxService, Options

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)

LIB = '''package tz

interface Shape { fun area(): Double }

class Circle(val r: Double) : Shape {
    override fun area(): Double = 3.14 * r * r
    companion object {
        /** Makes a circle. */
        @JvmStatic @JvmOverloads fun of(r: Double, tag: String? = null, scale: Int = 1): Circle = Circle(r * scale)
    }
}

open class Base {
    inline fun <reified T> pick(xs: List<Any>): T? = xs.firstOrNull { it is T } as T?
    fun size(): Int = 0
}

class Registry : Base() {
    val shapes: MutableList<Shape> = mutableListOf()
    fun register(s: Shape) { shapes.add(s) }
    inline fun <reified T : Shape> firstOf(): T? = shapes.firstOrNull { it is T } as T?
    fun count(): Int = shapes.size
    internal fun secret(): Int = 1
    internal val hidden: Int = 2
    internal fun other() {}
}

inline fun <reified T> kindName(): String = T::class.java.simpleName
'''

TOPS = '''@file:JvmMultifileClass
@file:JvmName("Tops")
package tz

inline fun <reified T> typeName(): String = T::class.java.name
fun plainTop(): Int = 1
'''

USE = '''package tz.use

import tz.*

fun use(r: Registry): Int {
    val c: Circle? = r.firstOf<Circle>()
    val p: Circle? = r.pick<Circle>(listOf<Any>(Circle(1.0)))
    return (c?.r ?: 0.0).toInt() + (p?.r ?: 0.0).toInt() + typeName<Circle>().length + plainTop() +
        kindName<Circle>().length
}
'''

STDLIB = Path.home() / ".m2/repository/org/jetbrains/kotlin/kotlin-stdlib/2.0.21/kotlin-stdlib-2.0.21.jar"


def _jar() -> Path:
    return kotlinc_jar("t20-kotlin-only", {"Lib.kt": LIB, "Tops.kt": TOPS, "Use.kt": USE})


@pytest.fixture(scope="module")
def service(jdx_home):
    s = JdxService(Options(jars=[str(_jar())], jdk=False, cache_dir=str(jdx_home / "cache")))
    yield s
    s.close()


def _members(service, cls: str, view: str = "kotlin", **opts) -> dict:
    return members_answer(service, cls, MemberOptions(**opts), view).result


def _rows(result: dict) -> dict[str, tuple[str, list[str], str]]:
    """Kotlin name (JVM name for a JVM row) -> (text, markers, declaring type)."""
    out = {}
    for m in result["members"]:
        k = m.get("kotlin")
        out[k["name"] if k else m["name"]] = (k["text"] if k else m["text"], k["markers"] if k else [], m["declaring"])
    return out


def test_the_oracle_private_jvm_methods_kotlin_calls():
    jar = _jar()  # (Use.kt compiled: Kotlin calls firstOf, pick and typeName)
    assert "private final <T extends tz.Shape> T firstOf();" in javap(jar, "tz.Registry")
    assert "private final <T> T pick(java.util.List<? extends java.lang.Object>);" in javap(jar, "tz.Base")
    part = javap(jar, "tz.Tops__TopsKt")
    assert "private static final <T> java.lang.String typeName();" in part, part
    assert "typeName" not in javap(jar, "tz.Tops")  # the facade has no copy of it


def test_members_lists_a_reified_inline_function_marked_kotlin_only(service):
    result = _members(service, "tz.Registry")
    rows = _rows(result)
    assert rows["firstOf"] == ("public inline fun <reified T: Shape> firstOf(): T?", ["Kotlin-only: reified inline"],
                               "tz.Registry"), rows
    # inherited from a Kotlin superclass, though the JVM does not inherit a private method
    assert rows["pick"] == ("public inline fun <reified T> pick(xs: List<Any>): T?", ["Kotlin-only: reified inline"],
                            "tz.Base"), rows
    assert rows["count"][1] == [] and rows["register"][1] == []
    assert result["internal_hidden"] == 3  # secret, hidden, other: as before
    item = next(m for m in result["members"] if m["name"] == "firstOf")
    assert item["ref"] == "tz.Registry#firstOf()" and item["access"] == "private" and not item["static"]
    # grouped with the class's own members, in name order (members' default `--sort kind`)
    own = [m["kotlin"]["name"] for m in result["members"] if m["declaring"] == "tz.Registry"]
    assert own == ["<init>", "count", "firstOf", "register", "shapes"], own


def test_the_filters_apply_to_kotlin_only_declarations(service):
    assert set(_rows(_members(service, "tz.Registry", grep="first"))) == {"firstOf"}
    assert set(_rows(_members(service, "tz.Registry", grep="^pi"))) == {"pick"}
    assert "firstOf" not in _rows(_members(service, "tz.Registry", kind="field"))
    assert "firstOf" in _rows(_members(service, "tz.Registry", kind="method"))
    assert "firstOf" not in _rows(_members(service, "tz.Registry", static=True))
    assert "firstOf" in _rows(_members(service, "tz.Registry", static=False))
    assert "pick" not in _rows(_members(service, "tz.Registry", inherited=False))
    assert set(_rows(_members(service, "tz.Registry", from_type="tz.Base"))) == {"pick", "size"}
    # --access all: the private JVM method is a member already; it is listed once, marked
    rows = _members(service, "tz.Registry", access=("all",))["members"]
    assert [m["kotlin"]["markers"] for m in rows if m["name"] == "firstOf"] == [["Kotlin-only: reified inline"]]


def test_the_jvm_view_is_unchanged(service):
    assert "firstOf" not in _rows(_members(service, "tz.Registry", view="jvm"))
    jvm = _rows(_members(service, "tz.Registry", view="jvm", access=("all",)))
    assert jvm["firstOf"] == ("private final <T extends Shape> T firstOf()", [], "tz.Registry")


def test_a_multi_file_facade_lists_its_parts_kotlin_only_functions(service):
    rows = _rows(_members(service, "tz.Tops"))
    assert rows["typeName"] == ("public inline fun <reified T> typeName(): String", ["Kotlin-only: reified inline"],
                                "tz.Tops"), rows
    assert rows["plainTop"][1] == []


def test_the_overloads_of_one_declaration_stand_for_it(service):
    store = service.store()
    found = lookup(store, "tz.Circle$Companion#of")
    assert len(found.members) == 3  # javap: of(double), of(double, String), of(double, String, int)
    assert one_declaration_member(store, found.members)["ref"] == "tz.Circle$Companion#of(double, java.lang.String, int)"
    # two declarations of one name stay an ambiguity
    assert one_declaration_member(store, lookup(store, "tz.Registry#<init>").members + found.members) is None


@pytest.fixture(scope="module")
def stdlib_service(jdx_home):
    if not STDLIB.exists():
        pytest.skip(f"kotlin-stdlib 2.0.21 is not in the local Maven repository ({STDLIB})")
    s = JdxService(Options(jars=[str(STDLIB)], jdk=False, cache_dir=str(jdx_home / "cache")))
    yield s
    s.close()


@pytest.mark.soak  # slow: the soak runs it (.ci/run)
def test_stdlib_inline_only_and_reified_functions_are_members(stdlib_service):
    assert "private static final <T, R> R let(T, kotlin.jvm.functions.Function1<? super T, ? extends R>);" in \
        javap(STDLIB, "kotlin.StandardKt__StandardKt")
    rows = _members(stdlib_service, "kotlin.StandardKt")["members"]
    texts = {m["kotlin"]["text"]: m["kotlin"]["markers"] for m in rows}
    for text in ("public inline fun <T, R> T.let(block: (T) -> R): R", "public inline fun <R> run(block: () -> R): R",
                 "public inline fun repeat(times: Int, action: (Int) -> Unit): Unit", "public inline fun TODO(): Nothing"):
        assert texts.get(text) == ["Kotlin-only: inline-only"], (text, sorted(texts))
    rows = _members(stdlib_service, "kotlin.collections.CollectionsKt", grep="^filterIsInstance$")["members"]
    assert {m["kotlin"]["text"]: m["kotlin"]["markers"] for m in rows} == {
        "public fun <R> Iterable<*>.filterIsInstance(klass: Class<R>): List<R>": [],
        "public inline fun <reified R> Iterable<*>.filterIsInstance(): List<R>": ["Kotlin-only: reified inline"]}


@pytest.mark.soak  # slow: the soak runs it (.ci/run)
def test_search_ranks_a_reified_inline_function_as_the_public_declaration_it_is(jdx_home):
    """Its JVM method is private (javap), yet Kotlin callers name it (the client compiled): an exact match ranks it
    first, before the JDK's public `typeName()` methods (TypeNotPresentException, jdk.jdi)."""
    from jdx.engine.search import SearchOptions, search

    with_jdk = JdxService(Options(jars=[str(_jar())], jdk=True, cache_dir=str(jdx_home / "cache")))
    try:
        result, _ = search(with_jdk.store(), "typeName", SearchOptions(view="kotlin", limit=3))
    finally:
        with_jdk.close()
    assert result["matches"][0]["ref"].startswith("tz."), result["matches"]


def test_body_and_doc_of_one_declarations_overloads_answer_once(service):
    """`tz.Circle$Companion#of` names three JVM overloads that compile from one @JvmOverloads declaration: one
    body, one doc (not ambiguous, not three copies)."""
    body = service.body("tz.Circle$Companion#of")
    assert body.result["ref"] == "tz.Circle$Companion#of(double, java.lang.String, int)", body.result
    doc = service.doc("tz.Circle$Companion#of")
    assert [i["ref"] for i in doc.result["docs"]] == ["tz.Circle$Companion#of(double, java.lang.String, int)"]


def test_a_jvmstatic_declarations_outer_overloads_stand_for_it(service):
    """`@JvmStatic @JvmOverloads fun of(…)` in a companion also puts three static copies on the outer class
    (javap); `tz.Circle#of` names the one declaration: its full static copy, the two shorter ones linked to it as
    its @JvmOverloads copies (they were linked to nothing, so `body tz.Circle#of` was ambiguous)."""
    outer = javap(_jar(), "tz.Circle")
    for sig in ("(double)", "(double, java.lang.String)", "(double, java.lang.String, int)"):
        assert f"public static final tz.Circle of{sig};" in outer, outer
    store = service.store()
    found = lookup(store, "tz.Circle#of")
    assert len(found.members) == 3
    assert one_declaration_member(store, found.members)["ref"] == "tz.Circle#of(double, java.lang.String, int)"
    body = service.body("tz.Circle#of")
    assert body.result["ref"] == "tz.Circle#of(double, java.lang.String, int)", body.result
