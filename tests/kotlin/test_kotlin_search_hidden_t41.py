"""`search` of a name a `@Deprecated(level = HIDDEN)` declaration shares (T41: `search seconds` put kotlin.time's
hidden `Int.seconds` extensions, synthetic on the JVM since 1.9, above the companion's usable ones, unmarked): a hidden
declaration ranks after what callers can name and says it is hidden. The oracle is javap: the hidden getter is public
and ACC_SYNTHETIC, the companion's plain public."""

from __future__ import annotations

import json

import pytest

from tests.kotlin.corpus import kotlinc_jar
from tests.kotlin.test_kotlin_trial_e import _javap
from tests.kotlin.test_kotlin_trial_g import _flags

SOURCE = """package hid

class Dur(val raw: Long) {
    companion object {
        val Int.secs: Dur get() = Dur(this.toLong())
    }
}

@Deprecated("use Dur.secs", level = DeprecationLevel.HIDDEN)
val Int.secs: Dur get() = Dur(this.toLong())
"""


@pytest.fixture(scope="module")
def jar():
    return kotlinc_jar("search-hidden", {"Dur.kt": SOURCE})


def test_a_hidden_declaration_ranks_last_and_says_so(run_jdx, jar):
    assert "ACC_SYNTHETIC" in _flags(_javap(jar, "hid.DurKt"), "public static final hid.Dur getSecs(int);")
    assert "ACC_SYNTHETIC" not in _flags(_javap(jar, "hid.Dur$Companion"), "public final hid.Dur getSecs(int);")
    r = run_jdx("--no-jdk", "--jars", str(jar), "search", "secs", "--json")
    assert r.code == 0, r.err
    rows = [(m["ref"], m.get("hidden", False)) for m in json.loads(r.out)["result"]["matches"]]
    assert rows[:2] == [("hid.Dur$Companion#getSecs(int)", False), ("hid.DurKt#getSecs(int)", True)], rows
    text = run_jdx("--no-jdk", "--jars", str(jar), "search", "secs").out.splitlines()
    marked = [line for line in text if "[hidden by deprecation: no caller can use it]" in line]
    assert len(marked) == 1 and "hid.DurKt#getSecs(int)" in marked[0], text
