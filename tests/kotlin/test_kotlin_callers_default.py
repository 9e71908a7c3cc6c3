"""`callers` of a Kotlin function with defaults lists the callers that omit a defaulted argument (they call its `$default`
stub), as `usages` does: also for a multi-file facade's function, whose `foo$default` calls the part's `foo$default`,
which calls `foo` (kotlinx-coroutines' `BuildersKt#launch` is one), and at every level of `--depth`. `--view jvm` keeps
the JVM graph (the stub is the caller) and says where those callers are.

The oracles: `usages` (kind call) for the set of sites, the Kotlin source text for their lines. Compiled here by
kotlinc (Kotlin 1.3), as tests/kotlin/corpus.py compiles the fixtures."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

TEXT = '''@file:JvmName("Text")
@file:JvmMultifileClass
package kd

fun shout(s: String, times: Int = 1): String = s.repeat(times)
'''

BOX = '''package kd

class Box {
    fun relay(s: String, loud: Boolean = false): String = if (loud) s else shout(s)
}
'''

USE = '''package kd.use

import kd.*

class Caller {
    fun withAll(): String = shout("a", 2)
    fun withDefault(): String = shout("b")
    fun chain(): String = Box().relay("c")
    fun chainAll(): String = Box().relay("d", true)
    fun both(): String = shout("e") + shout("f", 2)
}
'''
SHOUT, RELAY = "kd.Text#shout", "kd.Box#relay"


def _jar() -> Path:
    from tests.kotlin.corpus import kotlinc_jar

    return kotlinc_jar("callers-default", {"Text.kt": TEXT, "Box.kt": BOX, "Use.kt": USE})


@pytest.fixture(scope="module")
def store(tmp_path_factory, jdx_home):
    from tests.kotlin.corpus import indexed_store

    yield from indexed_store(tmp_path_factory, jdx_home, _jar(), "ktcd", "callers-default.jar")


def _line(text: str, call: str) -> int:
    """The source line of the one occurrence of `call`."""
    assert text.count(call) == 1, call
    return text[:text.index(call)].count("\n") + 1


def _usages(store, ref: str) -> set[tuple[str, int, str]]:
    """(caller, line, via) of every call site `usages` reports."""
    from jdx.engine.rel_usages import UsageOptions, usages

    result, _, _ = usages(store, ref, UsageOptions(kinds=("call",)))
    return {(c["caller"], s["line"], s.get("via") or "") for g in result["groups"] for c in g["callers"]
            for s in c["sites"]}


def _sites(entries: list[dict]) -> set[tuple[str, int, str]]:
    """(caller, line, via) of a callers tree level, for a caller calling only one way (its edge's `via` covers
    all its lines)."""
    out = set()
    for e in entries:
        assert len(e.get("via") or [""]) == 1, e
        out.update((e["method"], line, (e.get("via") or [""])[0]) for line in e["lines"])
    return out


def _by_caller(sites: set[tuple[str, int, str]]) -> dict[str, tuple[list[int], list[str]]]:
    """caller -> (its lines, the JVM methods it calls through): what one callers entry says of its sites."""
    out: dict[str, tuple[set, set]] = {}
    for caller, line, via in sites:
        lines, vias = out.setdefault(caller, (set(), set()))
        lines.add(line)
        if via:
            vias.add(via)
    return {c: (sorted(lines), sorted(vias)) for c, (lines, vias) in out.items()}


def _entries(entries: list[dict]) -> dict[str, tuple[list[int], list[str]]]:
    return {e["method"]: (e["lines"], e.get("via") or []) for e in entries}


def _tree(store, ref: str, **opts) -> dict:
    from jdx.engine.rel_calls import CallOptions, call_tree

    result, truncated = call_tree(store, ref, CallOptions(**opts), "in")
    assert truncated is None
    (root,) = result["roots"]
    return {**root, "notes": result["notes"]}


def test_callers_through_a_multifile_facade_stub_are_the_usages(store):
    expected = {("kd.use.Caller#withAll()", _line(USE, 'shout("a", 2)'), ""),
                ("kd.use.Caller#withDefault()", _line(USE, 'shout("b")'), "shout$default"),
                ("kd.Box#relay(java.lang.String, boolean)", _line(BOX, "shout(s)"), "shout$default"),
                ("kd.use.Caller#both()", _line(USE, 'shout("e")'), "shout$default"),
                ("kd.use.Caller#both()", _line(USE, 'shout("f", 2)'), "")}
    assert _usages(store, SHOUT) == expected
    # `both` calls both ways: one entry, its line and the stub it (also) calls through
    assert _entries(_tree(store, SHOUT)["tree"]) == _by_caller(expected)


def test_the_second_level_holds_the_callers_of_the_caller_s_stub(store):
    """`relay` calls `shout` only through the facade's stub, and is called through its own stub."""
    (relay,) = [e for e in _tree(store, SHOUT, depth=2)["tree"] if e["method"].startswith(RELAY)]
    expected = {("kd.use.Caller#chain()", _line(USE, 'relay("c")'), "relay$default"),
                ("kd.use.Caller#chainAll()", _line(USE, 'relay("d", true)'), "")}
    assert _usages(store, RELAY) == expected
    assert _sites(relay["children"]) == expected
    assert _sites(_tree(store, RELAY)["tree"]) == expected


def test_jvm_view_shows_the_stub_and_says_where_its_callers_are(store):
    root = _tree(store, SHOUT, view="jvm")
    stub = "kd.Text#shout$default(java.lang.String, int, int, java.lang.Object)"
    assert any("shout$default" in e["method"] for e in root["tree"])  # the part's stub, forwarding to shout
    assert [n for n in root["notes"] if "shout$default" in n] == [
        f"Kotlin callers that omit a defaulted argument call the stub shout$default: here they are its callers "
        f"(jdx callers '{stub}' --view jvm); --view kotlin lists them here"]
    through = {(c, line) for c, line, via in _usages(store, SHOUT) if via == "shout$default"}
    assert {(c, line) for c, line, _ in _sites(_tree(store, stub, view="jvm")["tree"])} == through


def test_cli_callers_match_usages(run_jdx, tmp_path):
    jar = tmp_path / "callers-default.jar"
    shutil.copy(_jar(), jar)
    flags = ("--jars", str(jar), "--no-jdk")
    r = run_jdx("callers", SHOUT, *flags)
    assert r.code == 0, r.err
    line = _line(USE, 'shout("b")')
    assert f"kd.use.Caller#withDefault()  line {line}  via shout$default" in r.out
    callers = json.loads(run_jdx("callers", SHOUT, *flags, "--json").out)["result"]
    usages = json.loads(run_jdx("usages", SHOUT, "--kind", "call", *flags, "--json").out)["result"]
    from_usages = {(c["caller"], s["line"], s.get("via") or "") for g in usages["groups"] for c in g["callers"]
                   for s in c["sites"]}
    assert _entries(callers["roots"][0]["tree"]) == _by_caller(from_usages)
    assert len(from_usages) == 5
