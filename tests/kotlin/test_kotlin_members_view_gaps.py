"""`members` (Kotlin view) of classes whose Kotlin view lies outside their own JVM members (docs/kotlin.md): a
companion whose `const val`s and `@JvmField`s are static fields of its outer class, an interface declaring nothing
with extensions declared for it, extensions declared for a supertype, an enum class's entries and kotlinc's enum
members, a default body inherited through a sub-interface's DefaultImpls, and kotlinc's no-argument constructor of an
all-defaults primary constructor (`outline` too).

Oracles: kotlin-reflect 1.6.10 (`KClasses.getDeclaredMembers`, constructors, a file facade's members with their
receivers) and javap over classes kotlinc compiles at test time (Debian's kotlinc 1.3: it writes no enum `entries`,
which kotlinc 1.9 adds; `outline`'s `[enum class member]` rows cover that in test_kotlin_view_t41.py)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.fixtures.javac import javap
from tests.kotlin.corpus import kotlinc_jar, reflect_view, runtime_stdlib

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)

LIB = '''package kq

class Diag(val code: Int) {
    companion object {
        const val INFO = 1
        const val ERROR = 2
        @JvmField val DEFAULT_NAME: String = "d"
        private const val serialVersionUID: Long = 1L
    }
}

interface ConfigKeys

open class Config : ConfigKeys {
    class Builder : ConfigKeys
}

enum class Level { WARNING, ERROR, HIDDEN }

enum class Opt(val mask: Int) { A(1), B(2) }

interface Resolver {
    fun resolve(x: String, n: Int): String = x + n
}

interface SubResolver : Resolver {
    fun other(): Int
}

object NoOp : SubResolver {
    override fun other(): Int = 0
}

open class Props(val map: Map<String, Int> = emptyMap(), val n: Int = 0)
'''

KEYS = '''package kq

val ConfigKeys.alpha: Int get() = 1
val ConfigKeys.beta: Int get() = 2
fun ConfigKeys.gamma(): Int = 3
fun Config.Builder.own(): Int = 4
'''


def _jar() -> Path:
    return kotlinc_jar("members-view-gaps", {"Lib.kt": LIB, "Keys.kt": KEYS})


@pytest.fixture(scope="module")
def jdx(tmp_path_factory, jdx_env, run_jdx):
    """`jdx <argv>` over a copy of the fixture jar, in process: its text output."""
    from tests.cli import golden

    copy = tmp_path_factory.mktemp("kmg") / "gaps.jar"
    shutil.copy(_jar(), copy)
    with golden.jar_runner(run_jdx, jdx_env, copy) as run:
        yield run


@pytest.fixture(scope="module")
def reflect() -> dict[str, list[dict]]:
    """kotlin-reflect's declarations by owner (JVM internal name)."""
    out: dict[str, list[dict]] = {}
    targets = ["class:kq.Diag$Companion", "package:kq.KeysKt", "class:kq.Resolver", "class:kq.SubResolver",
               "class:kq.Props"]
    for d in reflect_view(runtime_stdlib(), targets, _jar()):
        out.setdefault(d["owner"], []).append(d)
    return out


def _members(jdx, cls: str, *flags: str) -> dict:
    return json.loads(jdx("members", cls, "--json", *flags))["result"]


def _own(result: dict) -> list[dict]:
    return [m for m in result["members"] if m["declaring"] == result["type"]]


# --- 1. a class declaring no JVM member of its own --------------------------------------------------------------

def test_a_companions_consts_and_jvm_fields_are_its_members(jdx, reflect):
    ours = _own(_members(jdx, "kq.Diag$Companion"))
    theirs = {d["name"]: d for d in reflect["kq/Diag$Companion"] if d["kind"] == "property"}
    assert {n for n, d in theirs.items() if d["visibility"] == "public"} == {"INFO", "ERROR", "DEFAULT_NAME"}
    assert {m["kotlin"]["name"] for m in ours} == {"INFO", "ERROR", "DEFAULT_NAME"}, ours
    for m in ours:  # each the static field kotlinc wrote in the outer class, as kotlin-reflect's javaField says
        assert theirs[m["kotlin"]["name"]]["field"].startswith("kq/Diag#"), theirs
        assert m["ref"] == f"kq.Diag#{m['name']}" and m["static"] and m["kind"] == "field"
        assert m["kotlin"]["markers"][-1] == "JVM field in Diag"
    assert [m["kotlin"]["text"] for m in ours if m["kotlin"]["name"] == "INFO"] == ["public const val INFO: Int = 1"]
    diag = javap(_jar(), "kq.Diag")
    assert "public static final int INFO;" in diag and "public static final java.lang.String DEFAULT_NAME;" in diag
    assert "INFO" not in javap(_jar(), "kq.Diag$Companion")


def test_a_companions_answer_says_companion_object(jdx):
    result = _members(jdx, "kq.Diag$Companion")
    assert result["view"] == "kotlin" and result["kotlin_keyword"] == "companion object"
    out = jdx("members", "kq.Diag$Companion")
    assert "public const val ERROR: Int = 2  [JVM field in Diag]" in out, out
    assert "companion object kq.Diag$Companion" in out, out


def test_a_companions_outer_fields_follow_the_filters(jdx):
    def names(*flags: str) -> set[str]:
        return {(m.get("kotlin") or {}).get("name") for m in _own(_members(jdx, "kq.Diag$Companion", *flags))}

    assert names("--kind", "method") == set() and names("--instance") == set()
    assert names("--grep", "^err") == {"ERROR"}
    assert {"INFO", "ERROR", "DEFAULT_NAME", "serialVersionUID"} <= names("--access", "all")


def test_an_interface_declaring_nothing_lists_its_extensions(jdx, reflect):
    result = _members(jdx, "kq.ConfigKeys")
    theirs = [d for d in reflect["kq/KeysKt"]
              if any(p["kind"] == "extension_receiver" and p["type"] == "kq.ConfigKeys" for p in d["params"])]
    assert len(theirs) == 3, reflect["kq/KeysKt"]
    assert result["view"] == "kotlin" and result["kotlin_keyword"] == "interface"
    assert result["kotlin_extensions"] == [{"facade": "kq.KeysKt", "count": len(theirs)}]


# --- 2. extensions declared for a supertype ---------------------------------------------------------------------

def test_extensions_of_a_supertype_are_counted_by_receiver(jdx, reflect):
    result = _members(jdx, "kq.Config$Builder")
    receivers = [next(p["type"] for p in d["params"] if p["kind"] == "extension_receiver")
                 for d in reflect["kq/KeysKt"]]
    assert result["kotlin_extensions"] == [{"facade": "kq.KeysKt", "count": receivers.count("kq.Config.Builder")}]
    assert result["kotlin_supertype_extensions"] == [
        {"receiver": "kq.ConfigKeys", "facade": "kq.KeysKt", "count": receivers.count("kq.ConfigKeys")}]
    assert "kotlin_supertype_extensions" not in _members(jdx, "kq.ConfigKeys")  # its own, counted as such


def test_the_supertypes_extensions_line(jdx):
    out = jdx("members", "kq.Config$Builder")
    assert "extensions: 1 in kq.KeysKt (jdx outline kq.KeysKt)" in out, out
    assert "extensions on supertypes: ConfigKeys: 3 in kq.KeysKt (jdx outline kq.KeysKt)" in out, out


# --- 3. enum classes --------------------------------------------------------------------------------------------

def test_an_enum_without_members_of_its_own_lists_entries_and_kotlins_enum_members(jdx):
    own = _own(_members(jdx, "kq.Level"))
    assert all(m.get("kotlin") for m in own), own  # no JVM row among its own
    rows = {m["kotlin"]["name"]: (m["kotlin"]["kind"], m["kotlin"]["text"], m["kotlin"]["markers"]) for m in own}
    code = javap(_jar(), "kq.Level")
    for entry in ("WARNING", "ERROR", "HIDDEN"):
        assert f"public static final kq.Level {entry};" in code
        assert rows[entry] == ("enum entry", entry, [])
    assert "public static kq.Level[] values();" in code
    assert rows["values"] == ("function", "public fun values(): Array<Level>", ["enum class member"])
    assert rows["valueOf"] == ("function", "public fun valueOf(value: String): Level", ["enum class member"])


def test_an_enum_with_members_of_its_own_is_all_kotlin(jdx):
    own = _own(_members(jdx, "kq.Opt"))
    assert all(m.get("kotlin") for m in own), own
    assert {m["kotlin"]["name"] for m in own} == {"A", "B", "mask", "values", "valueOf"}
    out = jdx("members", "kq.Opt")
    assert "  public fun valueOf(value: String): Opt  [enum class member]" in out and "field public" not in out


# --- 4. a default body inherited through a sub-interface's DefaultImpls -----------------------------------------

def test_a_forwarder_through_a_sub_interfaces_default_impls_is_the_superinterfaces_declaration(jdx, reflect):
    code = javap(_jar(), "kq.NoOp", "-c")
    assert "kq/SubResolver$DefaultImpls.resolve" in code, code  # kotlinc's copy in the sub-interface
    assert [d["name"] for d in reflect["kq/SubResolver"] if d["kind"] == "function"] == ["other"]
    declared = [d for d in reflect["kq/Resolver"] if d["name"] == "resolve"]
    assert len(declared) == 1 and [p["name"] for p in declared[0]["params"][1:]] == ["x", "n"]
    row = next(m for m in _members(jdx, "kq.NoOp")["members"] if m["name"] == "resolve")
    assert row["kotlin"]["text"] == "public open fun resolve(x: String, n: Int): String", row
    assert row["kotlin"]["markers"] == ["from kq.Resolver via DefaultImpls"]
    assert row["kotlin"]["forwards_to"].startswith("kq.SubResolver$DefaultImpls#resolve(")


# --- 5. kotlinc's no-argument constructor of an all-defaults primary constructor --------------------------------

def test_the_no_argument_constructor_folds_into_the_primary_constructor(jdx, reflect):
    assert "public kq.Props();" in javap(_jar(), "kq.Props")
    assert len([d for d in reflect["kq/Props"] if d["kind"] == "constructor"]) == 1
    ctors = [m for m in _members(jdx, "kq.Props")["members"] if m["kind"] == "constructor"]
    assert [m["kotlin"]["text"] for m in ctors] == ["public constructor(map: Map<String, Int> = ..., n: Int = ...)"]
    out = jdx("outline", "kq.Props")
    assert "(jvm)" not in out and out.count("constructor") == 1, out
    result = json.loads(jdx("outline", "kq.Props", "--json"))["result"]
    ctor = next(e for e in result["kotlin_members"] if e["kind"] == "constructor")
    assert {"role": "no_arg", "ref": "kq.Props#<init>()"} in ctor["jvm"], ctor
