"""Kotlin answers a trial on kotlinx-coroutines 1.7.3 and kotlin-stdlib 1.8.21 found wrong (spec §6, §12, §16):

- a bare name (`launch`, `withTimeout`) was "names a type" in `signature` and `callers` though no type has it, and
  not found in `doc` and `usages`: a Kotlin top-level function or property of any package is what it names (several
  files declaring it an ambiguity), a name that is neither is not found (exit 1), a type's stays a usage error.
- a property's `@Deprecated(level = ERROR)` was missed: kotlinc puts a property's annotations on its synthetic
  `$annotations` method (an interface property's in its DefaultImpls), not on its accessors.
- `search` ranked a Kotlin `internal` class (public on the JVM) with the public types.

One kotlinc call (Kotlin 1.3) compiles the fixture; javap is the oracle for where kotlinc put what.
"""

from __future__ import annotations

import json

import pytest

from tests.fixtures import jdktool
from tests.kotlin.corpus import jar_fixtures

pytestmark = pytest.mark.soak  # kotlinc 1.3 compiles its fixture (~10-30 s cold): the soak runs it (.ci/run)

LIB = '''package demo

fun launchIt(times: Int): Int = times
fun shared(): Int = 1

interface Job
fun Job(): Job = object : Job {}

interface Pipe
fun Pipe(): Pipe = object : Pipe {}

interface Chan<E> {
    @Deprecated("gone", level = DeprecationLevel.ERROR)
    val onOld: String? get() = null
    @Deprecated("soft")
    val onSoft: String get() = ""
}

class Box {
    @Deprecated("gone", level = DeprecationLevel.ERROR)
    val old: Int get() = 1
}

@Deprecated("gone", level = DeprecationLevel.ERROR)
val topOld: Int get() = 3

internal interface WithTimeoutDiagnostics
fun withTimeout(millis: Long): Int = 0
internal class Clock {
    fun withTimeout(millis: Long): Int = 1
}
'''

OTHER = '''package demo.other

fun shared(x: Int): Int = x

interface Pipe
'''

USE = '''package demo

fun caller(): Int = launchIt(2)
'''

ERROR = "deprecated at level ERROR: Kotlin cannot call it"


def _jar():
    from tests.kotlin.corpus import kotlinc_jar

    return kotlinc_jar("bare-names", {"Lib.kt": LIB, "Other.kt": OTHER, "Use.kt": USE})


store, jar_args = jar_fixtures(_jar, "ktbare", "bare.jar")


def _javap(*args: str) -> str:
    return jdktool.run(["javap", "-cp", str(_jar()), *args], capture_output=True, text=True, check=True).stdout


def _json(run_jdx, jar_args, *args: str) -> dict:
    r = run_jdx(*args, *jar_args, "--json")
    return json.loads(r.out)


def test_a_bare_top_level_name_names_its_facade_member(run_jdx, jar_args):
    assert "public static final int launchIt(int);" in _javap("demo.LibKt")
    r = run_jdx("signature", "launchIt", *jar_args)
    assert r.code == 0, r.err
    assert r.out.splitlines()[0] == "signature demo.LibKt#launchIt(int)", r.out
    assert "public fun launchIt(times: Int): Int" in r.out


def test_usages_callers_and_doc_take_a_bare_top_level_name(run_jdx, jar_args):
    # (needs relations._declared_symbol and src_body.resolve_symbol to hand a bare name to member_resolve.lookup)
    callers = _json(run_jdx, jar_args, "callers", "launchIt")
    assert callers["ok"], callers
    assert [n["method"] for r in callers["result"]["roots"] for n in r["tree"]] == ["demo.UseKt#caller()"]
    usages = _json(run_jdx, jar_args, "usages", "launchIt")
    assert usages["ok"] and usages["result"]["targets"] == ["demo.LibKt#launchIt(int)"], usages
    doc = _json(run_jdx, jar_args, "doc", "launchIt")
    assert doc["ok"] and [d["ref"] for d in doc["result"]["docs"]] == ["demo.LibKt#launchIt(int)"], doc
    r = run_jdx("callers", "Frobnicate", *jar_args)
    assert r.code == 1 and "names a type" not in r.err + r.out, r.err


def test_a_bare_name_of_several_files_is_ambiguous(run_jdx, jar_args):
    assert "public static final int shared();" in _javap("demo.LibKt")
    assert "public static final int shared(int);" in _javap("demo.other.OtherKt")
    r = run_jdx("signature", "shared", *jar_args, "--json")
    assert r.code == 2, r.out
    answer = json.loads(r.out)
    assert [c["ref"] for c in answer["candidates"]] == ["demo.LibKt#shared", "demo.other.OtherKt#shared"], answer


def test_a_bare_name_naming_nothing_is_not_found_with_near_members(run_jdx, jar_args):
    r = run_jdx("signature", "Frobnicate", *jar_args)
    assert r.code == 1 and "names a type" not in r.err + r.out, r.err
    r = run_jdx("signature", "lanchIt", *jar_args, "--json")
    assert r.code == 1, r.out
    assert "demo.LibKt#launchIt(int)" in [c["ref"] for c in json.loads(r.out)["candidates"]], r.out


@pytest.mark.parametrize("name,owner", [("Job", "demo.Job"), ("Pipe", "demo.other.Pipe")])
def test_a_bare_type_name_stays_a_usage_error_naming_the_top_level_function(run_jdx, jar_args, name, owner):
    """`Job`: one type and a top-level `Job()`; `Pipe`: two types (as `signature Channel` on kotlinx-coroutines:
    java.nio's Channel and kotlinx's) and a top-level `Pipe()`: the usage error names the function either way."""
    assert f"public interface {owner}" in _javap(owner)
    assert f"public static final demo.{name} {name}();" in _javap("demo.LibKt")
    r = run_jdx("signature", name, *jar_args)
    assert r.code == 3, r.err
    assert f"'{name}' names a type" in r.err and f"the Kotlin top-level function: demo.{name}" in r.err, r.err


def _annotations_method(cls: str, name: str) -> str:
    """javap's text of the synthetic `$annotations` method kotlinc gave a property, in `cls`."""
    out = _javap("-v", "-p", cls)
    start = out.index(f" {name}$annotations();")
    return out[start:out.index("\n\n", start)]


def test_a_property_deprecated_at_level_error_says_so(run_jdx, jar_args):
    # the oracle: kotlinc's @Deprecated of an interface property is on `$annotations` in DefaultImpls, of a class's or
    # a top-level one on `$annotations` in the class itself; the getter has the Deprecated attribute only
    for cls, name in (("demo.Chan$DefaultImpls", "onOld"), ("demo.Box", "old"), ("demo.LibKt", "topOld")):
        assert "DeprecationLevel;.ERROR" in _annotations_method(cls, name), (cls, name)
    assert "DeprecationLevel" not in _annotations_method("demo.Chan$DefaultImpls", "onSoft")
    members = _json(run_jdx, jar_args, "members", "demo.Chan")["result"]["members"]
    markers = {m["kotlin"]["name"]: m["kotlin"]["markers"] for m in members if m.get("kotlin")}
    assert markers["onOld"] == [ERROR] and markers["onSoft"] == [], markers
    members = _json(run_jdx, jar_args, "members", "demo.Box")["result"]["members"]
    assert [m["kotlin"]["markers"] for m in members if (m.get("kotlin") or {}).get("name") == "old"] == [[ERROR]]
    outline = _json(run_jdx, jar_args, "outline", "demo.LibKt")["result"]["kotlin_members"]
    assert [e["markers"] for e in outline if e["name"] == "topOld"] == [[ERROR]], outline
    sig = _json(run_jdx, jar_args, "signature", "demo.Chan#getOnOld")["result"]["signatures"][0]["kotlin"]
    assert sig["markers"] == [ERROR], sig
    assert any(a.startswith("@kotlin.Deprecated(") and "ERROR" in a for a in sig["annotations"]), sig


def test_search_ranks_an_internal_class_after_the_public_symbols(run_jdx, jar_args):
    # public on the JVM, `internal` to Kotlin: another module's code can use neither, nor what the class declares
    assert "public interface demo.WithTimeoutDiagnostics" in _javap("demo.WithTimeoutDiagnostics")
    assert "public final int withTimeout(long);" in _javap("demo.Clock")
    matches = _json(run_jdx, jar_args, "search", "withTimeout")["result"]["matches"]
    refs = [m["ref"] for m in matches]
    assert refs[0] == "demo.LibKt#withTimeout(long)", refs
    assert set(refs[1:]) == {"demo.WithTimeoutDiagnostics", "demo.Clock#withTimeout(long)"}, refs
