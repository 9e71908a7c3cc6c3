"""Call sites of `inline` Kotlin functions (docs/kotlin.md): kotlinc copies the function's body into each Kotlin
caller and records where in the class's SMAP (`SourceDebugExtension`: output lines -> the inline function's file and
line, and -> the line of the call). The extractor reads it: each inlined call becomes a site of kind `call`, detail
`inline`, at the line of the call in the caller's source; the code the body brought keeps that line too (never a line
past the end of the file); a body inlined through another inline function is that function's call, not the caller's.

The oracle is the Kotlin source text: every expected line is found by searching it, not written down."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.kotlin.corpus import copied_jar

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)

LIB = '''@file:JvmName("Inl")
package ki

inline fun twice(block: () -> Unit) {
    block()
    block()
}

inline fun outer(block: () -> Unit) {
    twice(block)
}

inline fun <reified T> typeName(): String = T::class.java.name

fun plain(): Int = 1
'''

USE = '''package ki.use

import ki.*

class Client {
    fun run(): Int {
        twice { plain() }
        outer { plain() }
        listOf(1, 2).forEach { plain() }
        return plain() + typeName<Client>().length
    }

    fun quiet(): Int = plain()
}
'''
RUN = "ki.use.Client#run()"
STDLIB = Path("/usr/share/java/kotlin-stdlib.jar")  # Debian's `kotlin` package (.ci/run installs it)


def line_of(text: str, needle: str) -> int:
    found = [i for i, line in enumerate(text.splitlines(), 1) if needle in line]
    assert len(found) == 1, (needle, found)
    return found[0]


def inline_jar() -> Path:
    from tests.kotlin.corpus import kotlinc_jar

    return kotlinc_jar("inline-sites", {"Lib.kt": LIB, "Use.kt": USE})


@pytest.fixture(scope="module")
def jar(tmp_path_factory):
    return copied_jar(tmp_path_factory, inline_jar(), "ktinline-cli", "inline.jar")


@pytest.fixture(scope="module")
def store(tmp_path_factory, jdx_home):
    from tests.kotlin.corpus import indexed_store

    extra = (STDLIB,) if STDLIB.exists() else ()
    yield from indexed_store(tmp_path_factory, jdx_home, inline_jar(), "ktinline", "inline.jar", extra, jdk=True)


def _sites(result: dict) -> set[tuple[str, int, str]]:
    return {(c["caller"], s["line"], s["detail"]) for g in result["groups"] for c in g["callers"] for s in c["sites"]}


@pytest.mark.parametrize("view", ["kotlin", "jvm"])
def test_usages_of_an_inline_function_list_its_inlined_calls(store, view):
    from jdx.engine.rel_usages import UsageOptions, usages

    result, warnings, _ = usages(store, "ki.Inl#twice", UsageOptions(view=view))
    # Client#run's own call, and outer's body (which inlines twice); not Client#run's `outer { }` line: that code
    # came into Client#run through outer, whose call it is
    assert _sites(result) == {(RUN, line_of(USE, "twice {"), "inline"),
                              ("ki.Inl#outer(kotlin.jvm.functions.Function0)", line_of(LIB, "twice(block)"), "inline")}
    assert warnings == []
    result, _, _ = usages(store, "ki.Inl#outer", UsageOptions(view=view))
    assert _sites(result) == {(RUN, line_of(USE, "outer {"), "inline")}
    result, _, _ = usages(store, "ki.Inl#typeName", UsageOptions(view=view))
    assert _sites(result) == {(RUN, line_of(USE, "typeName<Client>"), "inline")}
    # a function that is not inline: its calls, from inlined lambdas too, at the lines that wrote them
    result, _, _ = usages(store, "ki.Inl#plain", UsageOptions(view=view))
    assert {(c, line) for c, line, _ in _sites(result)} == {
        (RUN, line_of(USE, needle)) for needle in ("twice {", "outer {", "forEach {", "return plain()")} | {
        ("ki.use.Client#quiet()", line_of(USE, "fun quiet"))}


def test_code_an_inline_body_brought_keeps_the_line_of_the_call(store):
    """No call of Client#run is numbered past the end of Use.kt (kotlinc numbers inlined code after the file's last
    line): the iterator calls forEach's body makes are at the forEach line."""
    from jdx.engine.rel_calls import CallOptions, call_tree

    result, _ = call_tree(store, RUN, CallOptions(), "out")
    lines = {e["method"]: e["lines"] for e in result["roots"][0]["tree"]}
    last = len(USE.splitlines())
    assert all(0 < n <= last for ls in lines.values() for n in ls), lines
    assert lines["ki.Inl#twice(kotlin.jvm.functions.Function0)"] == [line_of(USE, "twice {")]
    kinds = {e["method"]: e["kinds"] for e in result["roots"][0]["tree"]}
    assert kinds["ki.Inl#outer(kotlin.jvm.functions.Function0)"] == ["inline"]
    if STDLIB.exists():
        assert lines["java.util.Iterator#hasNext()"] == [line_of(USE, "forEach {")]
        assert kinds["java.util.Iterator#hasNext()"] == ["invokeinterface"]


def test_an_inline_function_of_another_artifact(store):
    if not STDLIB.exists():
        pytest.skip(f"{STDLIB} is absent (Debian package `kotlin`)")
    from jdx.engine.rel_calls import CallOptions, call_tree

    result, _ = call_tree(store, "kotlin.collections.CollectionsKt___CollectionsKt#forEach", CallOptions(), "in")
    callers = {e["method"]: (e["lines"], e["kinds"], e["artifact"]) for e in result["roots"][0]["tree"]}
    assert callers[RUN] == ([line_of(USE, "forEach {")], ["inline"], "inline.jar")


def test_cli_text_and_json_say_inlined(run_jdx, jar):
    r = run_jdx("usages", "ki.Inl#outer", "--jars", str(jar))
    assert r.code == 0, r.out + r.err
    assert f"call {line_of(USE, 'outer {')} inlined" in r.out
    assert "INLINE_CALL_SITES_INVISIBLE" not in r.out + r.err
    r = run_jdx("callers", "ki.Inl#twice", "--jars", str(jar))
    assert r.code == 0 and f"{RUN.split('#')[0]}#run()" in r.out and "(inlined)" in r.out, r.out + r.err
    r = run_jdx("usages", "ki.Inl#outer", "--jars", str(jar), "--json")
    site = json.loads(r.out)["result"]["groups"][0]["callers"][0]["sites"][0]
    assert (site["kind"], site["detail"], site["line"]) == ("call", "inline", line_of(USE, "outer {"))

@pytest.mark.soak  # slow: the soak runs it (.ci/run)

def test_samples_of_an_inline_function_without_sources_show_the_decompiled_call(run_jdx, jar):
    """No call is spelled out where kotlinc copied the body, so the decompiled caller is focused on the line the
    decompiler wrote from the site's class-file line (its line map), labelled reconstructed."""
    from jdx.loaders.decompile import available_engines

    if not available_engines():
        pytest.skip("no decompiler installed: samples stay pointers")
    r = run_jdx("samples", "ki.Inl#twice", "--jars", str(jar), "--json")
    assert r.code == 0, r.out + r.err
    (sample,) = [s for s in json.loads(r.out)["result"]["samples"] if s["caller"].startswith(RUN.split("(")[0])]
    src = sample["source"]
    assert sample["origin"] == "decompiled" and src["reconstructed"] and src["focus_by"] == "line_map", sample
    assert sample["line"] == line_of(USE, "twice {")
    assert "bytecode only" not in run_jdx("samples", "ki.Inl#twice", "--jars", str(jar)).out
