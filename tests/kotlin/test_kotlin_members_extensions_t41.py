"""`members` of a Kotlin class points at the extensions declared for it (T41: `members kotlin.reflect.KClass` listed
23 members and no word of the 25 `KClass` extensions in kotlin.reflect.full.KClasses, where a Kotlin caller's
`memberProperties` is). Public top-level extensions are counted by the file facade an importer names, most first;
a member extension of another class (it needs that class in scope) and a private one are not. The oracle is javap:
each facade's static methods taking the class first."""

from __future__ import annotations

import json

import pytest

from tests.kotlin.corpus import kotlinc_jar
from tests.kotlin.test_kotlin_trial_e import _flags, _javap

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)

SOURCES = {
    "Box.kt": "package ext\n\nclass Box(val size: Int)\n",
    "Boxes.kt": """package ext

val Box.doubled: Int get() = size * 2
fun Box.grow(by: Int): Box = Box(size + by)
fun <T> Box.tag(t: T): String = t.toString()
fun Box?.orEmpty(): Box = this ?: Box(0)
private fun Box.hidden(): Int = 0
@Deprecated("gone", level = DeprecationLevel.HIDDEN)
fun Box.gone(): Int = 0
""",
    "More.kt": "package ext\n\nfun Box.shrink(): Box = Box(size - 1)\n",
    "Scope.kt": "package ext\n\nclass Scope {\n    fun Box.scoped(): Int = size\n}\n",
}


@pytest.fixture(scope="module")
def jar():
    return kotlinc_jar("members-extensions", SOURCES)


def test_members_names_the_files_declaring_extensions(run_jdx, jar):
    boxes = _javap(jar, "ext.BoxesKt")
    assert sum("(ext.Box" in line and "static" in line for line in boxes.splitlines()) >= 4  # the oracle
    # a deprecation hid `gone` (T97: `Dispatchers.IO`'s hidden extension was counted): synthetic, no caller uses it
    assert "ACC_SYNTHETIC" in _flags(boxes, "gone"), _flags(boxes, "gone")
    assert "public final int scoped(ext.Box);" in _javap(jar, "ext.Scope")  # a member extension: not static
    r = run_jdx("--no-jdk", "--jars", str(jar), "members", "ext.Box", "--json")
    assert r.code == 0, r.err
    assert json.loads(r.out)["result"]["kotlin_extensions"] == [{"facade": "ext.BoxesKt", "count": 4},
                                                               {"facade": "ext.MoreKt", "count": 1}]
    text = run_jdx("--no-jdk", "--jars", str(jar), "members", "ext.Box").out.splitlines()
    assert "extensions: 4 in ext.BoxesKt, 1 in ext.MoreKt (jdx outline ext.BoxesKt)" in text, text
    assert "extensions:" not in run_jdx("--no-jdk", "--jars", str(jar), "members", "ext.Box", "--brief").out
