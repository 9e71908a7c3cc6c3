"""Kotlin changes the JVM view cannot see, on kotlinc-compiled fixtures: a declaration whose JVM descriptor and
generic signature stay while its Kotlin types change (KOTLIN_TYPE_CHANGED: `List` -> `MutableList`, a type
argument made nullable; a type alias expanding to the same type is no change), and a top-level function moved to
another file of its package (KOTLIN_FACADE_MOVED: kotlinx-coroutines 1.7's `onTimeout`, now in `OnTimeoutKt`); a
member made `internal` (its JVM name mangled) is a MEMBER_REMOVED that says so."""

from __future__ import annotations

import json

import pytest

from tests.kotlin.corpus import kotlinc_jar

OLD = """package kt

class Box {
    fun items(): List<String> = listOf()
    fun names(x: List<String>): Int = x.size
}

open class Base {
    open fun items(): List<String> = listOf()
}

typealias Alias = Box

fun make(): Box = Box()
fun moved(x: Int): Int = x
inline fun movedInline(x: Int): Int = x + 1
fun stays(): Int = 1

class Job {
    fun mode(): Int = 1
}

abstract class Shape
"""

NEW = """package kt

class Box {
    fun items(): MutableList<String> = mutableListOf()
    fun names(x: List<String?>): Int = x.size
}

open class Base {
    open fun items(): MutableList<String> = mutableListOf()
}

typealias Alias = Box

fun make(): Alias = Box()
fun stays(): Int = 1

class Job {
    internal fun mode(): Int = 1
}

sealed class Shape
"""

MOVED = "package kt\n\nfun moved(x: Int): Int = x\ninline fun movedInline(x: Int): Int = x + 1\n"


@pytest.fixture(scope="module")
def jars():
    return (kotlinc_jar("ktypes-old", {"Lib.kt": OLD}), kotlinc_jar("ktypes-new", {"Lib.kt": NEW, "Moved.kt": MOVED}))


def _findings(diff, jars) -> dict[tuple[str, str], dict]:
    code, text = diff(str(jars[0]), str(jars[1]), "--json", "--limit", "1000")
    assert code == 0, text
    return {(f["rule"], f["symbol"]): f for f in json.loads(text)["result"]["findings"]}


@pytest.mark.soak  # kotlinc: ~10 s per fixture jar when not cached
def test_kotlin_type_changed_behind_one_descriptor(diff, jars):
    found = _findings(diff, jars)
    types = {k: f for k, f in found.items() if k[0] == "KOTLIN_TYPE_CHANGED"}
    assert set(types) == {("KOTLIN_TYPE_CHANGED", s) for s in ("kt.Box#items", "kt.Box#names", "kt.Base#items")}, \
        sorted(found)
    final = types[("KOTLIN_TYPE_CHANGED", "kt.Box#items")]
    assert final["severity"] == "info", final  # narrowed, and no class outside can override it
    assert final["detail"].startswith("return: kotlin.collections.List<kotlin.String> -> "
                                      "kotlin.collections.MutableList<kotlin.String>; narrowed"), final
    assert "compiled callers, Java or Kotlin, still link" in final["detail"]
    open_ = types[("KOTLIN_TYPE_CHANGED", "kt.Base#items")]
    assert open_["severity"] == "suspicious" and "override" in open_["detail"], open_
    param = types[("KOTLIN_TYPE_CHANGED", "kt.Box#names")]
    assert param["severity"] == "suspicious", param
    assert param["detail"].startswith("parameter x: kotlin.collections.List<kotlin.String> -> "
                                      "kotlin.collections.List<kotlin.String?>"), param
    # `Box` -> `Alias` (= Box) is the same type: nothing to report about `make`
    assert not [k for k in found if k[1].startswith("kt.LibKt#make")], sorted(found)


@pytest.mark.soak
def test_function_moved_to_another_facade(diff, jars):
    found = _findings(diff, jars)
    moved = found.get(("KOTLIN_FACADE_MOVED", "kt.LibKt#moved(int)"))
    assert moved is not None, sorted(found)
    assert moved["severity"] == "breaking"
    assert "kt.MovedKt" in moved["detail"] and "Kotlin sources unchanged" in moved["detail"], moved
    assert moved["new"] == "public static final int moved(int)", moved
    assert ("MEMBER_REMOVED", "kt.LibKt#moved(int)") not in found
    assert "inline" not in moved["detail"]
    inline = found[("KOTLIN_FACADE_MOVED", "kt.LibKt#movedInline(int)")]  # T97: kotlinx.coroutines' `synchronized`
    assert inline["detail"].endswith("; an inline function: Kotlin callers compiled against the old version carry "
                                     "its body and still run, Java callers do not"), inline
    assert ("TYPE_ADDED", "kt.MovedKt") in found


@pytest.mark.soak
def test_member_made_internal_names_its_mangled_name(diff, jars):
    found = _findings(diff, jars)
    removed = found[("MEMBER_REMOVED", "kt.Job#mode()")]
    assert removed["detail"] == "now Kotlin `internal` (mode$main, the name mangled): compiled callers fail to link " \
                                "(NoSuchMethodError)", removed
    assert "unresolved" not in removed, removed


@pytest.mark.soak
def test_a_class_made_sealed_in_its_metadata(diff, jars):
    """T97: kotlinx.coroutines 1.7's `SelectBuilder` and `SelectClause*` became sealed (metadata only, no
    PermittedSubclasses below a JVM 17 target): no finding said so. kotlinc refuses a subclass outside the module."""
    found = _findings(diff, jars)
    sealed = found.get(("KOTLIN_MADE_SEALED", "kt.Shape"))
    assert sealed is not None, sorted(found)
    assert sealed["severity"] == "suspicious" and sealed["detail"].startswith(
        "Kotlin code outside its module can no longer extend it (kotlinc refuses)"), sealed
    assert ("TYPE_MADE_SEALED", "kt.Shape") not in found
