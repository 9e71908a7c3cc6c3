"""The Kotlin view's answers to a user trial (docs/kotlin.md, spec §12.1): a Kotlin declaration's parameter names come
from `@Metadata`, so `signature` says so rather than `arg0, arg1, …`; a function type keeps the names
`@ParameterName` gives its parameters, as kotlin-reflect renders them (the oracle); `members` folds an object's
`INSTANCE` and the companion's field, which no Kotlin caller writes, names the companion to list instead, and prints
the Kotlin kind word (`object`, `data class`, ...) where the JVM view prints `class`. `--view jvm` keeps the JVM
members, naming the parameters its class file does not name as the metadata does."""

from __future__ import annotations

import re
import shutil

import pytest

from tests.kotlin.corpus import kotlinc_jar, metadata_rows, reflect_view, runtime_stdlib

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)

SOURCE = """\
package tv

interface Evaluator {
    suspend fun evaluate(script: String, retries: Int = 1): Int
}

abstract class Rule {
    open fun visit(node: String, emit: (offset: Int, errorMessage: String, canBeAutoCorrected: Boolean) -> Unit) {}
    fun plain(f: (Int, String) -> Unit) {}
    fun ext(block: String.(index: Int) -> Unit) {}
    suspend fun later(onDone: suspend (code: Int) -> Unit) {}
    fun nullable(listener: ((`in`: Int, count: Long) -> String)?) {}
    fun nested(f: (inner: (depth: Int) -> Unit) -> Unit) {}
}

open class Base<T> {
    fun each(action: (element: T) -> Unit) {}
}

class Strings : Base<String>()

object Logging {
    fun logger(name: String): String = name
}

class Range(val start: Int) {
    companion object {
        val EMPTY: Range = Range(0)
    }
}

data class P(val x: Int)

enum class Color { RED }

annotation class Tag(val value: String)
"""


@pytest.fixture(scope="module")
def jar() -> object:
    return kotlinc_jar("view-trial", {"Trial.kt": SOURCE})


@pytest.fixture(scope="module")
def jdx(tmp_path_factory, jar, jdx_env, run_jdx):
    from tests.cli import golden

    copy = tmp_path_factory.mktemp("kvt") / "trial.jar"
    shutil.copy(jar, copy)
    with golden.jar_runner(run_jdx, jdx_env, copy) as run:
        yield run


# --- 1. where parameter names come from -------------------------------------------------------------------------

def test_signature_names_come_from_kotlin_metadata(jdx):
    out = jdx("signature", "tv.Evaluator#evaluate")
    assert "suspend fun evaluate(script: String, retries: Int = ...): Int" in out
    assert "parameter names from Kotlin metadata" in out
    assert "arg0" not in out


def test_the_jvm_view_names_what_the_class_file_does_not_from_the_metadata(jdx):
    out = jdx("signature", "tv.Evaluator#evaluate", "--view", "jvm")  # abstract: no LocalVariableTable
    assert "String script, int retries, " in out and "$completion" in out and "arg0" not in out
    assert "parameter names from Kotlin metadata" in out


# --- 2. function types keep their parameter names ---------------------------------------------------------------

def test_function_types_keep_their_parameter_names(jdx):
    out = jdx("outline", "tv.Rule")
    for text in ("emit: (offset: Int, errorMessage: String, canBeAutoCorrected: Boolean) -> Unit",
                 "f: (Int, String) -> Unit",  # none written: none shown
                 "block: String.(index: Int) -> Unit",
                 "onDone: suspend (code: Int) -> Unit",
                 "listener: ((`in`: Int, count: Long) -> String)?",
                 "f: (inner: (depth: Int) -> Unit) -> Unit"):
        assert text in out, text


def test_an_inherited_function_type_keeps_its_names_substituted(jdx):
    assert "fun each(action: (element: String) -> Unit): Unit" in jdx("members", "tv.Strings")


def _unqualified(text: str) -> str:
    """kotlin-reflect's `(offset: kotlin.Int) -> kotlin.Unit` as the Kotlin view prints it: `(offset: Int) -> Unit`."""
    return re.sub(r"\b(?:[a-z_]\w*\.)+(?=[A-Z`])", "", text)


@pytest.mark.soak
def test_function_type_names_agree_with_kotlin_reflect(jar):
    from jdx.kotlin import decode_metadata
    from jdx.kotlin.render import render_type

    rows = dict(metadata_rows(jar))
    ours = {(f.name, p.name): render_type(p.type) for f in decode_metadata(rows["tv/Rule"]).klass.functions
            for p in f.parameters}
    theirs = {(d["name"], p["name"]): _unqualified(p["type"]) for d in reflect_view(runtime_stdlib(), ["class:tv.Rule"],
                                                                                      jar)
              if d.get("kind") == "function" for p in d["params"] if p["kind"] == "value"}
    function_typed = {k: v for k, v in theirs.items() if "->" in v}
    assert len(function_typed) == 6, theirs
    assert {k: ours.get(k) for k in function_typed} == function_typed


def test_the_qualified_form_is_the_types_identity(jar):
    """JSON's qualified types, diffs and substitutions compare types: a parameter's name is no part of one."""
    from jdx.kotlin import decode_metadata
    from jdx.kotlin.render import render_type

    visit = next(f for f in decode_metadata(dict(metadata_rows(jar))["tv/Rule"]).klass.functions if f.name == "visit")
    assert render_type(visit.parameters[1].type, qualified=True) == \
        "(kotlin.Int, kotlin.String, kotlin.Boolean) -> kotlin.Unit"


# --- 3. JVM artefacts of objects and companions, Kotlin kind words ---------------------------------------------

def test_an_objects_instance_field_folds(jdx):
    out = jdx("members", "tv.Logging")
    assert "INSTANCE" not in out
    assert "public fun logger(name: String): String" in out
    assert " · object tv.Logging · " in out and "1 JVM member(s) folded" in out
    jvm = jdx("members", "tv.Logging", "--view", "jvm")
    assert "field public static final Logging INSTANCE" in jvm and " · class tv.Logging · " in jvm


def test_the_companion_field_folds_and_the_companion_is_named(jdx):
    out = jdx("members", "tv.Range")
    assert "field public static final Range.Companion Companion" not in out
    assert "companion object Companion: jdx members 'tv.Range$Companion'" in out
    companion = jdx("members", "tv.Range$Companion")
    assert "public val EMPTY: Range" in companion and " · companion object tv.Range$Companion · " in companion
    jvm = jdx("members", "tv.Range", "--view", "jvm")
    assert "field public static final Range.Companion Companion" in jvm and "companion object" not in jvm


def test_outline_prints_the_kotlin_kind_word(jdx):
    out = jdx("outline", "tv.Logging").splitlines()
    assert out[0] == "object tv.Logging" and not any("INSTANCE" in line for line in out)
    jvm = jdx("outline", "tv.Logging", "--view", "jvm").splitlines()
    assert jvm[0] == "class tv.Logging" and any("INSTANCE" in line for line in jvm)


@pytest.mark.parametrize("fqn, kotlin, jvm", [("tv.P", "data class", "class"), ("tv.Color", "enum class", "enum"),
                                              ("tv.Tag", "annotation class", "annotation"),
                                              ("tv.Evaluator", "interface", "interface"),
                                              ("tv.Rule", "abstract class", "class")])
def test_show_prints_the_kotlin_kind_word(jdx, fqn, kotlin, jvm):
    assert jdx("show", fqn).splitlines()[0] == f"{kotlin} {fqn}"
    assert jdx("show", fqn, "--view", "jvm").splitlines()[0] == f"{jvm} {fqn}"
