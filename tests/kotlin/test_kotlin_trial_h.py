"""Kotlin answers a trial on kotlinx-coroutines, okio and kotlin-stdlib found wrong (spec §6, §7.2, §12.1):

- a bare `Type#name` left out the overloads kotlinc mangled for an inline class parameter (`delay(Duration)` is
  `delay-VtjQ1oo`) from `signature`, `usages` and `callers`, and `outline` did not mark them Kotlin-only.
- a Kotlin top-level name (`kotlinx.coroutines.delay`) was no reference: it names its file facade's member
  (`DelayKt#delay`), several facades declaring it are an ambiguity.
- `imports ByteString.Companion.encodeUtf8` took the `@JvmName("-deprecated_encodeUtf8")` method for the @JvmStatic one.
- an interface companion's `const val` (`Channel.Factory.UNLIMITED`, a static field in the interface too) showed as a
  JVM field only, and `imports` of it by its dotted name was not found.
- `imports` dropped a type alias sharing its name with a function (`CancellationException`).
- a function whose Kotlin name holds a `$` (okio's `access$newTimeoutException`) was marked `@JvmName`.

One kotlinc call (Kotlin 1.3) compiles the fixture; javap is the oracle for the JVM names. The real libraries' tests
skip without kotlinx-coroutines 1.7.3 and okio 3.6.0 in the local Maven repository.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from jdx.engine.cards import OutlineOptions
from jdx.engine.imports import imports
from jdx.errors import AmbiguousError
from tests.kotlin.corpus import kotlinc_jar
from tests.fixtures.javac import javap as _javap
from tests.service import JdxService, Options

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)

LIB = '''package demo

inline class Span(val raw: Long)

fun delay(millis: Long) {}
fun delay(span: Span) {}

fun shared(): Int = 1
val Bytes.size: Int get() = 0

typealias Failure = IllegalStateException
fun Failure(message: String, code: Int): Failure = IllegalStateException(message + code)

class Bytes {
    companion object {
        @JvmStatic @JvmName("encodeUtf8") fun String.encodeUtf8(): Bytes = Bytes()
        @JvmName("-deprecated_encodeUtf8") @Deprecated("moved", level = DeprecationLevel.ERROR)
        fun encodeUtf8(string: String): Bytes = string.encodeUtf8()
    }
}

interface Chan {
    companion object Factory {
        const val UNLIMITED: Int = Int.MAX_VALUE
    }
}

class Timer {
    @PublishedApi internal fun `access$expire`(x: Int): Int = x
}
'''

OTHER = '''package demo

fun shared(x: Int): Int = x
val Timer.size: Int get() = 1
val Chan.size: Int get() = 2
'''

USE = '''package demo

fun waitSpan() { delay(Span(5L)) }
fun waitMillis() { delay(3L) }
'''

M2 = Path.home() / ".m2/repository"
COROUTINES = M2 / "org/jetbrains/kotlinx/kotlinx-coroutines-core-jvm/1.7.3/kotlinx-coroutines-core-jvm-1.7.3.jar"
OKIO = M2 / "com/squareup/okio/okio-jvm/3.6.0/okio-jvm-3.6.0.jar"


@pytest.fixture(scope="module")
def jar():
    return kotlinc_jar("trial-h", {"Lib.kt": LIB, "Other.kt": OTHER, "Use.kt": USE})


@pytest.fixture(scope="module")
def service(jar, jdx_home):
    s = JdxService(Options(jars=[str(jar)], jdk=False, cache_dir=str(jdx_home / "cache")))
    yield s
    s.close()


def _mangled(jar) -> str:
    """The JVM name kotlinc gave `delay(span: Span)` (the oracle: javap)."""
    found = re.search(r"public static final void (delay-[\w-]{7})\(long\);", _javap(jar, "demo.LibKt"))
    assert found, _javap(jar, "demo.LibKt")
    return found.group(1)


def _outline(service, cls: str) -> dict:
    return service.outline(cls, OutlineOptions(view="kotlin")).result


def _kotlin(entries: list[dict]) -> list[dict]:
    return [e for e in entries if e["language"] == "kotlin"]


def test_a_bare_name_lists_the_mangled_overload_marked_kotlin_only(service, jar):
    mangled = _mangled(jar)
    sigs = service.signature("demo.LibKt#delay", "kotlin").result["signatures"]
    assert [s["ref"] for s in sigs] == ["demo.LibKt#delay(long)", f"demo.LibKt#{mangled}(long)"]
    assert sigs[1]["kotlin"]["text"] == "public fun delay(span: Span): Unit"
    assert sigs[1]["kotlin"]["markers"] == [f"Kotlin-only: mangled {mangled}"] and sigs[0]["kotlin"]["markers"] == []
    # a written parameter list names the JVM method of that name and descriptor only, as before
    assert [s["ref"] for s in service.signature("demo.LibKt#delay(long)").result["signatures"]] == [
        "demo.LibKt#delay(long)"]
    rows = {e["text"]: e["markers"] for e in _outline(service, "demo.LibKt")["kotlin_members"]}
    assert rows["public fun delay(span: Span): Unit"] == [f"Kotlin-only: mangled {mangled}"]
    assert rows["public fun delay(millis: Long): Unit"] == []


def test_usages_and_callers_of_a_bare_name_include_the_mangled_overload(service, jar):
    mangled = _mangled(jar)
    usages = service.usages("demo.LibKt#delay").result
    assert usages["targets"] == ["demo.LibKt#delay(long)", f"demo.LibKt#{mangled}(long)"]
    assert usages["total"] == 2, usages
    roots = service.callers("demo.LibKt#delay").result["roots"]
    callers = {r["method"]: [n["method"] for n in r["tree"]] for r in roots}
    assert callers == {"demo.LibKt#delay(long)": ["demo.UseKt#waitMillis()"],
                       f"demo.LibKt#{mangled}(long)": ["demo.UseKt#waitSpan()"]}, roots


def test_a_top_level_name_names_its_facade_member(service, jar):
    mangled = _mangled(jar)
    assert [s["ref"] for s in service.signature("demo.delay").result["signatures"]] == [
        "demo.LibKt#delay(long)", f"demo.LibKt#{mangled}(long)"]
    assert service.usages("demo.delay").result["targets"] == ["demo.LibKt#delay(long)", f"demo.LibKt#{mangled}(long)"]
    assert [r["method"] for r in service.callers("demo.delay(long)").result["roots"]] == ["demo.LibKt#delay(long)"]
    assert service.body("demo.delay(long)").result["ref"] == "demo.LibKt#delay(long)"


def test_a_top_level_name_of_several_files_is_ambiguous(service, jar):
    assert "public static final int shared();" in _javap(jar, "demo.LibKt")
    assert "public static final int shared(int);" in _javap(jar, "demo.OtherKt")
    with pytest.raises(AmbiguousError) as exc:
        service.signature("demo.shared")
    assert [c["ref"] for c in exc.value.candidates] == ["demo.LibKt#shared", "demo.OtherKt#shared"]
    # a property is named by its getter there, so each candidate resolves
    assert "public static final int getSize(demo.Bytes);" in _javap(jar, "demo.LibKt")
    with pytest.raises(AmbiguousError) as exc:
        service.usages("demo.size")
    assert [c["ref"] for c in exc.value.candidates] == ["demo.LibKt#getSize", "demo.OtherKt#getSize"]
    assert [s["ref"] for s in service.signature("demo.OtherKt#getSize").result["signatures"]] == [
        "demo.OtherKt#getSize(demo.Chan)", "demo.OtherKt#getSize(demo.Timer)"]


def test_imports_takes_the_jvm_static_member_over_a_deprecated_jvm_name(service, jar):
    companion = _javap(jar, "demo.Bytes$Companion")
    assert "public final demo.Bytes -deprecated_encodeUtf8(java.lang.String);" in companion
    assert "public static final demo.Bytes encodeUtf8(java.lang.String);" in _javap(jar, "demo.Bytes")
    for text in ("demo.Bytes.Companion.encodeUtf8", "encodeUtf8"):
        entries = imports(service.store(), text)[0]["imports"]
        assert [e["statement"] for e in entries] == ["import static demo.Bytes.encodeUtf8;",
                                                     "import demo.Bytes.Companion.encodeUtf8"], (text, entries)
        assert "-deprecated" not in entries[-1]["ref"] and "note" not in entries[-1], entries
        assert len(entries[-1]["declarations"]) == 2


def test_an_interface_companion_const_is_the_companion_declaration(service, jar):
    for cls in ("demo.Chan", "demo.Chan$Factory"):  # the oracle: a static field in both
        assert "public static final int UNLIMITED;" in _javap(jar, cls), cls
    result = _outline(service, "demo.Chan")
    rows = {e["name"]: e for e in result["kotlin_members"]}
    assert rows["UNLIMITED"]["markers"] == ["in companion object Factory"], rows
    assert not any(r.endswith("#UNLIMITED") for r in result["jvm_only"]), result["jvm_only"]
    for text in ("demo.Chan.Factory.UNLIMITED", "demo.Chan.UNLIMITED", "demo.Chan#UNLIMITED"):
        entries = imports(service.store(), text)[0]["imports"]
        assert [e["statement"] for e in entries] == ["import static demo.Chan.UNLIMITED;",
                                                     "import demo.Chan.Factory.UNLIMITED"], (text, entries)


def test_imports_keeps_a_type_alias_beside_a_function_of_its_name(service, jar):
    assert "public static final java.lang.IllegalStateException Failure(java.lang.String, int);" in _javap(
        jar, "demo.LibKt")
    for text in ("demo.Failure", "Failure"):
        entries = imports(service.store(), text)[0]["imports"]
        assert [(e["language"], e["kind"], e["statement"]) for e in entries] == [
            ("java", "method", "import static demo.LibKt.Failure;"), ("kotlin", "function", "import demo.Failure"),
            ("kotlin", "typealias", "import demo.Failure")], (text, entries)


def test_a_kotlin_name_holding_a_dollar_is_no_jvm_name(service, jar):
    assert "public final int access$expire(int);" in _javap(jar, "demo.Timer")
    rows = {e["name"]: e for e in _outline(service, "demo.Timer")["kotlin_members"]}
    assert rows["access$expire"]["markers"] == [] and "jvm_name" not in rows["access$expire"]["flags"], rows


# --- the real libraries (~/.m2) ----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def libraries(jdx_home):
    if not COROUTINES.exists() or not OKIO.exists():
        pytest.skip(f"{COROUTINES} or {OKIO} is absent")
    s = JdxService(Options(jars=[str(COROUTINES), str(OKIO)], jdk=False, cache_dir=str(jdx_home / "cache")))
    yield s
    s.close()


@pytest.mark.soak
def test_libraries_trial_answers(libraries):
    assert "public static final java.lang.Object delay-VtjQ1oo(long, kotlin.coroutines.Continuation<? super " \
           "kotlin.Unit>);" in _javap(COROUTINES, "kotlinx.coroutines.DelayKt")
    sigs = libraries.signature("kotlinx.coroutines.delay", "kotlin").result["signatures"]
    assert [s["ref"] for s in sigs] == [f"kotlinx.coroutines.DelayKt#{name}(long, kotlin.coroutines.Continuation)"
                                        for name in ("delay", "delay-VtjQ1oo")]
    assert sigs[1]["kotlin"]["markers"] == ["Kotlin-only: mangled delay-VtjQ1oo"]
    store = libraries.store()
    assert [e["statement"] for e in imports(store, "okio.ByteString.Companion.encodeUtf8")[0]["imports"]] == [
        "import static okio.ByteString.encodeUtf8;", "import okio.ByteString.Companion.encodeUtf8"]
    assert [e["statement"] for e in imports(store, "kotlinx.coroutines.channels.Channel.Factory.UNLIMITED")[0][
        "imports"]] == ["import static kotlinx.coroutines.channels.Channel.UNLIMITED;",
                        "import kotlinx.coroutines.channels.Channel.Factory.UNLIMITED"]
    kinds = [e["kind"] for e in _kotlin(imports(store, "kotlinx.coroutines.CancellationException")[0]["imports"])]
    assert kinds == ["function", "typealias"]
    rows = {e["name"]: e for e in _outline(libraries, "okio.AsyncTimeout")["kotlin_members"]}
    assert rows["access$newTimeoutException"]["markers"] == []
