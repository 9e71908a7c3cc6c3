"""A Kotlin `const val`'s value in the Kotlin view (`outline`, `members`), as the JVM view and javap print its
field's: a trial on kotlin-scripting read `public const val unspecifiedError: Int` where `javap -constants` says
`= -1`. Oracle: javap -constants of the kotlinc-compiled fixture (Kotlin 1.3)."""

from __future__ import annotations

import pytest

from tests.fixtures import jdktool
from tests.kotlin.corpus import jar_fixtures

pytestmark = pytest.mark.soak  # kotlinc 1.3 compiles its fixture (~5-30 s cold): the soak runs it (.ci/run)

LIB = '''package demo

class Holder {
    companion object {
        const val LIMIT: Int = -7
        const val NAME: String = "kts"
        const val BIG: Long = 10L
        const val ON: Boolean = true
        val notConst: Int = 3
    }
}

const val TOP: Char = 'x'
'''


def _jar():
    from tests.kotlin.corpus import kotlinc_jar

    return kotlinc_jar("const-values", {"Lib.kt": LIB})


store, jar_args = jar_fixtures(_jar, "ktconst", "const.jar")


def _constants(cls: str) -> dict[str, str]:
    out = jdktool.run(["javap", "-constants", "-cp", str(_jar()), cls], capture_output=True, text=True,
                      check=True).stdout
    return {line.split("=")[0].split()[-1]: line.split("=", 1)[1].strip().rstrip(";")
            for line in out.splitlines() if " = " in line}


def _kotlin_lines(run_jdx, jar_args, *args) -> dict[str, str]:
    r = run_jdx(*args, *jar_args)
    assert r.code == 0, r.err
    return {line.split(":", 1)[0].split()[-1]: line for line in r.out.splitlines() if " val " in line}


def test_outline_and_members_print_a_const_val_with_its_value(run_jdx, jar_args):
    javap = _constants("demo.Holder")
    assert javap == {"LIMIT": "-7", "NAME": '"kts"', "BIG": "10l", "ON": "true"}, javap
    for command in (("outline", "demo.Holder"), ("members", "demo.Holder$Companion")):
        lines = _kotlin_lines(run_jdx, jar_args, *command)
        assert "const val LIMIT: Int = -7" in lines["LIMIT"], (command, lines)
        assert 'const val NAME: String = "kts"' in lines["NAME"], (command, lines)
        assert "const val BIG: Long = 10L" in lines["BIG"], (command, lines)
        assert "const val ON: Boolean = true" in lines["ON"], (command, lines)
        assert " = " not in lines["notConst"], (command, lines)  # (no ConstantValue: not a const)


def test_a_top_level_const_val(run_jdx, jar_args):
    assert _constants("demo.LibKt") == {"TOP": "'x'"}
    lines = _kotlin_lines(run_jdx, jar_args, "outline", "demo.LibKt")
    assert "const val TOP: Char = 'x'" in lines["TOP"], lines
