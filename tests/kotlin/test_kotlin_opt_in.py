"""Kotlin opt-in requirements in `members` and `outline` (spec §12): a declaration annotated with a marker that is
itself `@RequiresOptIn` (Kotlin 1.3's `@Experimental`) warns or fails to compile in Kotlin code that does not opt in.
A trial on kotlinx-coroutines found `members` silent on `@ExperimentalCoroutinesApi` (`signature` showed it).

kotlinc 1.3 compiles the fixture; javap is the oracle for where the annotation sits (a property's on its synthetic
`$annotations` method, an interface property's in DefaultImpls) and for the marker's level.
"""

from __future__ import annotations

import json

import pytest

from tests.fixtures import jdktool
from tests.kotlin.corpus import M2, jar_fixtures

pytestmark = pytest.mark.soak  # kotlinc 1.3 compiles its fixture (~5-30 s cold): the soak runs it (.ci/run)

LIB = '''package demo

@Experimental(level = Experimental.Level.WARNING)
annotation class Preview

@Experimental
annotation class Internal

class Box {
    @Preview fun soon(): Int = 1
    @Internal val secret: Int get() = 2
    fun plain(): Int = 3
}

interface Chan {
    @Preview val peek: Int get() = 1
    fun plain(): Int
}

@Preview fun topSoon(): Int = 4
'''


def _jar():
    from tests.kotlin.corpus import kotlinc_jar

    return kotlinc_jar("opt-in", {"Lib.kt": LIB})


store, jar_args = jar_fixtures(_jar, "ktoptin", "optin.jar")


def _javap(*args: str) -> str:
    return jdktool.run(["javap", "-cp", str(_jar()), *args], capture_output=True, text=True, check=True).stdout


def _lines(run_jdx, jar_args, *args: str) -> dict[str, str]:
    r = run_jdx(*args, *jar_args)
    assert r.code == 0, r.err
    return {line.split("(", 1)[0].split(":", 1)[0].rsplit(" ", 1)[-1]: line for line in r.out.splitlines()}


def test_members_mark_each_declaration_needing_an_opt_in_with_its_level(run_jdx, jar_args):
    assert "level=Lkotlin/Experimental$Level;.WARNING" in _javap("-v", "demo.Preview")
    assert "level=" not in _javap("-v", "demo.Internal").split("RuntimeVisibleAnnotations")[-1].split("\n\n")[0]
    box = _javap("-v", "-p", "demo.Box")
    assert "secret$annotations" in box and "Ldemo/Internal;" in box
    lines = _lines(run_jdx, jar_args, "members", "demo.Box")
    assert lines["soon"].endswith("[opt-in: Preview]"), lines
    assert lines["secret"].endswith("[opt-in required: Internal]"), lines  # Experimental's default level: ERROR
    assert "opt-in" not in lines["plain"], lines


def test_an_interface_property_reads_its_marker_from_default_impls(run_jdx, jar_args):
    assert "public static void peek$annotations();" in _javap("-p", "demo.Chan$DefaultImpls")
    lines = _lines(run_jdx, jar_args, "members", "demo.Chan")
    assert lines["peek"].endswith("[opt-in: Preview]"), lines
    assert "opt-in" not in lines["plain"], lines


def test_outline_of_a_facade_and_the_json_carry_the_marker(run_jdx, jar_args):
    lines = _lines(run_jdx, jar_args, "outline", "demo.LibKt")
    assert lines["topSoon"].endswith("[opt-in: Preview]"), lines
    r = run_jdx("members", "demo.Box", *jar_args, "--json")
    members = {m["name"]: m for m in json.loads(r.out)["result"]["members"]}
    assert "opt-in: Preview" in members["soon"]["kotlin"]["markers"], members["soon"]
    r = run_jdx("members", "demo.Box", *jar_args, "--view", "jvm")
    assert "opt-in" not in r.out, r.out  # Java callers need no opt-in


def test_kotlinx_coroutines_markers_as_javap_reads_them(run_jdx, tmp_path):
    jar = M2.parent / "kotlinx/kotlinx-coroutines-core-jvm/1.7.3/kotlinx-coroutines-core-jvm-1.7.3.jar"
    if not jar.exists():
        pytest.skip(f"{jar} is absent (the local Maven repository has no kotlinx-coroutines 1.7.3)")
    impls = jdktool.run(["javap", "-v", "-p", "-cp", str(jar), "kotlinx.coroutines.channels.ReceiveChannel$DefaultImpls"],
                        capture_output=True, text=True, check=True).stdout
    assert "isEmpty$annotations" in impls and "Lkotlinx/coroutines/ExperimentalCoroutinesApi;" in impls
    r = run_jdx("members", "kotlinx.coroutines.channels.ReceiveChannel", "--jars", str(jar), "--no-jdk")
    lines = {line.split(":", 1)[0].rsplit(" ", 1)[-1]: line for line in r.out.splitlines()}
    assert lines["isEmpty"].endswith("[opt-in: ExperimentalCoroutinesApi]"), r.out
    assert lines["isClosedForReceive"].endswith("[opt-in: DelicateCoroutinesApi]"), r.out
