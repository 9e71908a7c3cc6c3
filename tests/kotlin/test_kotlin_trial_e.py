"""Kotlin answers a trial against javap, javac and kotlin-reflect found wrong (spec §12.1, §7.2):

- `outline` took every declaration whose JVM members are all synthetic for one `@Deprecated(level = HIDDEN)` hid:
  kotlinc 2 makes a reified inline function's method synthetic (`enumEntries<T>()`), @JvmSynthetic does the same, and
  Kotlin callers use them. Only a deprecation hides; the others are listed, marked Kotlin-only.
- `imports` offered Java an `import static` of a method javac cannot call (an @InlineOnly or a reified inline
  function's private or synthetic method), and found no synthetic one at all.
- `@JvmField` was claimed of a private field with no getter (an inline class's `@PublishedApi internal val`).
- a class header dropped a constructor property's visibility (`Regex(private val nativePattern: Pattern)`).
- an interface's abstract members printed without `abstract` beside `open` ones.
- `imports` did not know a typealias.
- a companion's `@JvmStatic val` left its static getter in the outer class an unclaimed JVM row.

One kotlinc call (Kotlin 1.3) compiles the fixture; javap, javac and kotlin-reflect are the oracles. The stdlib
tests (kotlinc 2's synthetic reified functions) skip without a kotlin-stdlib 2.1.0 in the local Maven repository.
"""

from __future__ import annotations

import re
import shutil

import pytest

from jdx.engine.cards import OutlineOptions
from jdx.engine.imports import imports
from tests.kotlin.corpus import kotlinc_jar, reflect_view, runtime_stdlib, stdlib_jar
from tests.fixtures.javac import javap
from tests.service import JdxService, Options
from tests.fixtures import jdktool

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)

SHAPES = '''package demo

interface Shape {
    fun area(): Double
    fun describe(): String = "shape " + area()
    val label: String
}

typealias ShapeList = List<Shape>

class Circle(val r: Double) : Shape {
    override fun area(): Double = 3.0 * r * r
    override val label: String get() = "circle"
    companion object {
        /** The unit circle. */
        @JvmStatic val UNIT = Circle(1.0)
        @JvmStatic fun of(r: Double): Circle = Circle(r)
    }
}

class Holder internal constructor(private val secret: String, internal val shared: Int, val open: Long) {
    @JvmField val exposed: Int = 1
    fun peek(): String = secret
}

inline class Wrapped(@PublishedApi internal val raw: Int)
'''

FNS = '''package demo

inline fun <reified T> typeName(): String = T::class.java.name
inline fun <reified T> Iterable<*>.onlyOf(): List<T> = filterIsInstance<T>()
fun plainTop(x: Int): Int = x
@Suppress("INVISIBLE_MEMBER", "INVISIBLE_REFERENCE") @kotlin.internal.InlineOnly inline fun twice(x: Int): Int = x * 2
@JvmSynthetic fun kotlinSide(): Int = 3
@Deprecated("gone", level = DeprecationLevel.HIDDEN) fun gone(): Int = 1
@Deprecated("gone", level = DeprecationLevel.HIDDEN) inline fun <reified T> goneReified(): String = "x"
'''

KOTLIN_ONLY = {"typeName": "reified inline", "onlyOf": "reified inline", "twice": "inline-only",
               "kotlinSide": "synthetic"}


@pytest.fixture(scope="module")
def jar():
    return kotlinc_jar("trial-e", {"Shapes.kt": SHAPES, "Fns.kt": FNS})


@pytest.fixture(scope="module")
def service(jar, jdx_home):
    s = JdxService(Options(jars=[str(jar)], jdk=False, cache_dir=str(jdx_home / "cache")))
    yield s
    s.close()


def _javap(jar, cls: str) -> str:
    return javap(jar, cls, "-v")


def _flags(javap: str, name: str) -> str:
    """The `flags:` line of the member `name` (a method `name(`, or a field `name;`) in javap -v output."""
    lines = javap.splitlines()
    for i, line in enumerate(lines):
        if re.match(r"  \S", line) and re.search(rf"[ .]{re.escape(name)}[(;]", line):
            return next(x for x in lines[i + 1:i + 4] if "flags:" in x)
    raise AssertionError(name)


def _javac_accepts(jar, tmp_path, call: str) -> bool:
    """Whether javac compiles a Java class calling `call` with the fixture on its class path."""
    javac = shutil.which("javac")
    if javac is None:
        pytest.skip("javac is not on PATH")
    src = tmp_path / "Client.java"
    src.write_text(f"class Client {{ Object f() {{ return {call}; }} }}\n")
    return jdktool.run([javac, "-d", str(tmp_path), "-cp", str(jar), str(src)], capture_output=True).returncode == 0


def _outline(service, cls: str, **kw) -> dict:
    return service.outline(cls, OutlineOptions(view="kotlin", **kw)).result


@pytest.mark.soak  # slow: the soak runs it (.ci/run)
def test_outline_lists_what_only_kotlin_calls_and_hides_only_what_deprecation_hides(service, jar, tmp_path):
    javap = _javap(jar, "demo.FnsKt")
    assert "ACC_PUBLIC" in _flags(javap, "kotlinSide") and "ACC_SYNTHETIC" in _flags(javap, "kotlinSide")
    for name in ("typeName", "twice", "kotlinSide"):  # the oracle: Java cannot call them
        assert not _javac_accepts(jar, tmp_path, f"demo.FnsKt.{name}({'1' if name == 'twice' else ''})"), name
    assert _javac_accepts(jar, tmp_path, "demo.FnsKt.plainTop(1)")
    result = _outline(service, "demo.FnsKt")
    shown = {e["name"]: e["markers"] for e in result["kotlin_members"]}
    for name, why in KOTLIN_ONLY.items():
        assert f"Kotlin-only: {why}" in shown[name], (name, shown.get(name))
    assert not any(m.startswith("Kotlin-only") for m in shown["plainTop"])
    assert "gone" not in shown and "goneReified" not in shown
    assert result["hidden_deprecated"] == 2


def test_imports_gives_java_no_import_of_what_javac_cannot_call(service):
    store = service.store()
    for name, why in KOTLIN_ONLY.items():
        entries = imports(store, f"demo.{name}")[0]["imports"]
        assert [e["language"] for e in entries] == ["kotlin"], (name, entries)
        assert entries[0]["statement"] == f"import demo.{name}"
        assert "Java cannot call it" in entries[0]["note"] and why in entries[0]["note"], entries[0]
    plain = imports(store, "demo.plainTop")[0]["imports"]
    assert [(e["language"], e["statement"]) for e in plain] == [("java", "import static demo.FnsKt.plainTop;"),
                                                                 ("kotlin", "import demo.plainTop")]


def test_jvm_field_only_of_a_field_with_the_property_visibility(service, jar):
    assert "ACC_PRIVATE" in _flags(_javap(jar, "demo.Wrapped"), "raw")  # the oracle: no getter, a private field
    assert "ACC_PUBLIC" in _flags(_javap(jar, "demo.Holder"), "exposed")
    rows = {e["name"]: e for e in _outline(service, "demo.Wrapped")["kotlin_members"]}
    assert "@JvmField" not in rows["raw"]["markers"] and rows["raw"]["visibility"] == "internal"
    rows = {e["name"]: e for e in _outline(service, "demo.Holder")["kotlin_members"]}
    assert "@JvmField" in rows["exposed"]["markers"]


def test_class_header_says_a_constructor_property_visibility(service):
    result = _outline(service, "demo.Holder")
    rows = {e["name"]: e["visibility"] for e in result["kotlin_members"] if e["kind"] == "property"}
    assert rows == {"secret": "private", "shared": "internal", "open": "public", "exposed": "public"}
    assert "internal constructor(private val secret: String, internal val shared: Int, val open: Long)" in \
        result["kotlin_declaration"]


@pytest.mark.soak  # slow: the soak runs it (.ci/run)
def test_interface_members_print_their_modality_as_kotlin_reflect_has_it(service, jar):
    oracle = reflect_view(runtime_stdlib(), ["class:demo.Shape"], extra=jar)
    members = {m["name"]: m for m in oracle if m["kind"] in ("function", "property")}
    assert members, oracle
    rows = {e["name"]: e["text"] for e in _outline(service, "demo.Shape")["kotlin_members"]}
    for name in ("area", "describe", "label"):
        word = "abstract" if members[name]["abstract"] else "open"
        assert rows[name].startswith(f"public {word} "), (name, rows[name], members[name])
    assert rows["area"].startswith("public abstract fun") and rows["describe"].startswith("public open fun")


def test_imports_of_a_typealias_is_its_kotlin_import(service):
    answer = imports(service.store(), "demo.ShapeList")[0]
    [entry] = answer["imports"]
    assert entry["language"] == "kotlin" and entry["statement"] == "import demo.ShapeList"
    assert entry["kind"] == "typealias" and "Java has no import" in entry["note"]
    assert imports(service.store(), "ShapeList")[0]["imports"] == answer["imports"]


def test_jvm_static_companion_property_claims_its_static_getter(service, jar):
    javap = _javap(jar, "demo.Circle")
    assert re.search(r"public static final demo\.Circle getUNIT\(\)", javap)  # the oracle
    result = _outline(service, "demo.Circle")
    assert not [r for r in result["jvm_only"] if "getUNIT" in r], result["jvm_only"]
    unit = next(e for e in result["kotlin_members"] if e["name"] == "UNIT")
    assert "@JvmStatic" in unit["markers"]
    assert any(link["role"] == "static" and link["ref"] == "demo.Circle#getUNIT()" for link in unit["jvm"]), unit


@pytest.fixture(scope="module")
def stdlib(jdx_home):
    s = JdxService(Options(jars=[str(stdlib_jar("2.1.0"))], jdk=False, cache_dir=str(jdx_home / "cache")))
    yield s
    s.close()


@pytest.mark.soak
def test_stdlib_reified_inline_functions_are_listed_and_imported_for_kotlin(stdlib):
    """kotlinc 2 marks `enumEntries<T>()` ACC_PUBLIC|ACC_STATIC|ACC_FINAL|ACC_SYNTHETIC, with no @Deprecated."""
    result = _outline(stdlib, "kotlin.enums.EnumEntriesKt")
    reified = [e for e in result["kotlin_members"] if e["name"] == "enumEntries" and not e["detail"]["parameters"]]
    assert reified and "Kotlin-only: reified inline" in reified[0]["markers"]
    assert not result.get("hidden_deprecated")
    [entry] = imports(stdlib.store(), "kotlin.enums.enumEntries")[0]["imports"]
    assert entry["statement"] == "import kotlin.enums.enumEntries" and "Java cannot call it" in entry["note"]
    [let] = imports(stdlib.store(), "kotlin.let")[0]["imports"]  # @InlineOnly: private static final
    assert let["language"] == "kotlin" and "inline-only" in let["note"]


@pytest.mark.soak
def test_stdlib_private_fields_and_constructor_properties(stdlib):
    value = next(e for e in _outline(stdlib, "kotlin.Result")["kotlin_members"] if e["name"] == "value")
    assert value["visibility"] == "internal" and "@JvmField" not in value["markers"], value
    header = _outline(stdlib, "kotlin.text.Regex")["kotlin_declaration"]
    assert "(private val nativePattern: Pattern)" in header


@pytest.mark.soak
def test_search_names_the_synthetic_functions_kotlin_calls(stdlib):
    """`search filterIsInstance` lists the reified `filterIsInstance<R>()` beside the `Class<R>` overload (kotlinc 2
    marks the reified one ACC_SYNTHETIC: javap), never a function `@Deprecated(level = HIDDEN)` hid (`Array.max()`,
    synthetic and deprecated since 1.4)."""
    from jdx.engine.search import SearchOptions

    def flags(cls: str, method: str) -> str:
        out = jdktool.run(["javap", "-p", "-v", "-cp", str(stdlib_jar("2.1.0")), cls], capture_output=True,
                             text=True, check=True).stdout.splitlines()
        at = next(i for i, line in enumerate(out) if method in line)
        return next(line for line in out[at:] if "flags:" in line)

    assert "ACC_SYNTHETIC" in flags("kotlin.collections.CollectionsKt___CollectionsKt",
                                    " filterIsInstance(java.lang.Iterable<?>);")
    assert "ACC_SYNTHETIC" in flags("kotlin.collections.ArraysKt___ArraysJvmKt", " max(java.lang.Comparable[]);")
    refs = {h["ref"] for h in stdlib.search("filterIsInstance", SearchOptions(limit=100)).result["matches"]}
    assert {"kotlin.collections.CollectionsKt#filterIsInstance(java.lang.Iterable)",
            "kotlin.collections.CollectionsKt#filterIsInstance(java.lang.Iterable, java.lang.Class)"} <= refs
    maxes = {h["ref"] for h in stdlib.search("max", SearchOptions(limit=1000)).result["matches"]}
    assert "kotlin.collections.ArraysKt#max(java.lang.Comparable[])" not in maxes
    assert "kotlin.collections.ArraysKt#maxOrNull(java.lang.Comparable[])" in maxes
