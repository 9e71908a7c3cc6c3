"""A member reference whose parameter list is written as Kotlin declares it (T41: `CollectionsKt#filterIsInstance()`
was "not found", the JVM method taking the extension's receiver first): an extension function's list leaves out its
receiver, a suspend function's the Continuation kotlinc adds last, and Kotlin's own parameter types name a mangled
function (`pause(Dur)` is kotlinc's `pause-<hash>(long, Continuation)`). The oracle is javap: the JVM descriptors
the Kotlin lists stand for."""

from __future__ import annotations

import json

import pytest

from tests.kotlin.corpus import kotlinc_jar
from tests.kotlin.test_kotlin_trial_e import _javap

SOURCE = """package kp

inline class Dur(val ms: Long)

fun Iterable<*>.firstText(): String? = firstOrNull { it is String } as String?
fun Iterable<*>.pick(cls: Class<*>): Any? = firstOrNull { cls.isInstance(it) }
suspend fun pause(ms: Long) {}
suspend fun pause(d: Dur) {}
fun plain(items: Iterable<*>): Int = 0
"""


@pytest.fixture(scope="module")
def jar():
    return kotlinc_jar("param-refs", {"Kp.kt": SOURCE})


def _ref(run_jdx, jar, ref: str):
    r = run_jdx("--no-jdk", "--jars", str(jar), "signature", ref, "--json")
    return r.code, [o["ref"] for o in json.loads(r.out)["result"]["signatures"]] if r.code == 0 else r.out


def test_kotlin_parameter_lists_name_the_jvm_methods(run_jdx, jar):
    javap = _javap(jar, "kp.KpKt")
    for jvm in ("firstText(java.lang.Iterable)", "pick(java.lang.Iterable, java.lang.Class<?>)",
                "pause(long, kotlin.coroutines.Continuation<? super kotlin.Unit>)", "plain(java.lang.Iterable<?>)"):
        assert jvm.split("(")[0] + "(" in javap, jvm
    mangled = next(line.split("(")[0].rsplit(" ", 1)[1] for line in javap.splitlines() if " pause-" in line)
    assert _ref(run_jdx, jar, "kp.KpKt#firstText()") == (0, ["kp.KpKt#firstText(java.lang.Iterable)"])
    assert _ref(run_jdx, jar, "kp.KpKt#pick(Class)") == (0, ["kp.KpKt#pick(java.lang.Iterable, java.lang.Class)"])
    assert _ref(run_jdx, jar, "kp.KpKt#pause(long)") == (
        0, ["kp.KpKt#pause(long, kotlin.coroutines.Continuation)"])
    assert _ref(run_jdx, jar, "kp.KpKt#pause(Long)") == (
        0, ["kp.KpKt#pause(long, kotlin.coroutines.Continuation)"])
    assert _ref(run_jdx, jar, "kp.KpKt#pause(Dur)") == (0, [f"kp.KpKt#{mangled}(long, kotlin.coroutines.Continuation)"])
    # the JVM's own lists still name them, and a list that fits neither form is not found
    assert _ref(run_jdx, jar, "kp.KpKt#firstText(Iterable)") == (0, ["kp.KpKt#firstText(java.lang.Iterable)"])
    assert _ref(run_jdx, jar, "kp.KpKt#plain()")[0] == 1  # not an extension: its parameter is no receiver
    assert _ref(run_jdx, jar, "kp.KpKt#pause(String)")[0] == 1
