"""The Kotlin view of `members` does not list a supertype's companion declarations as the subclass's inherited members
(trial on kotlin-compiler-embeddable: `members K2JVMCompiler` listed `CLITool`'s companion `@JvmStatic fun doMain`
under "inherited from CLITool"). On the JVM the @JvmStatic copy, a `const val` and a @JvmField are static members of
the supertype, which Java calls through the subclass (`--view jvm` keeps them); kotlinc rejects `Compiler.doMain(1)`
and `Compiler().doMain(1)` (the oracle: a Kotlin client compiled with Debian's kotlinc 1.3)."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from tests.fixtures.javac import javap
from tests.kotlin.corpus import kotlinc_jar

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)

LIB = '''package js

abstract class Tool {
    companion object {
        @JvmStatic fun doMain(x: Int): Int = x
        @JvmStatic val version: Int get() = 3
        const val NAME = "tool"
        fun plain(): Int = 2
    }
    fun run(): Int = 1
}

class Compiler : Tool()
'''

GOOD = '''package use
import js.Tool
fun good() = Tool.doMain(1) + Tool.version + Tool.NAME.length
'''

BAD = '''package use
import js.Compiler
fun a() = Compiler.doMain(1)
fun b() = Compiler().doMain(1)
fun c() = Compiler.version
fun d() = Compiler.NAME
'''


@pytest.fixture(scope="module")
def jar():
    return kotlinc_jar("inherited-companion-static", {"Tool.kt": LIB})


def test_kotlinc_rejects_the_companion_members_through_the_subclass(jar, tmp_path):
    (tmp_path / "Good.kt").write_text(GOOD)
    (tmp_path / "Bad.kt").write_text(BAD)
    proc = subprocess.run([shutil.which("kotlinc"), "-nowarn", "-cp", str(jar), "-d", str(tmp_path / "out"),
                           str(tmp_path / "Good.kt"), str(tmp_path / "Bad.kt")], capture_output=True, text=True,
                          timeout=600)
    errors = sorted({line.split(":")[1] for line in proc.stderr.splitlines() if "error: unresolved reference" in line
                     and line.split(":")[0].endswith("Bad.kt")})
    assert proc.returncode != 0 and errors == ["3", "4", "5", "6"], proc.stderr
    assert "Good.kt" not in proc.stderr
    assert "public static final int doMain(int);" in javap(jar, "js.Tool")


def test_members_of_the_subclass_leave_them_out(run_jdx, jar):
    args = ("--jars", str(jar), "--no-jdk")
    kotlin = run_jdx("members", "js.Compiler", *args)
    assert kotlin.code == 0, kotlin.err
    assert "public fun run(): Int" in kotlin.out
    for name in ("doMain", "version", "NAME"):
        assert name not in kotlin.out, kotlin.out
    jvm = run_jdx("members", "js.Compiler", "--view", "jvm", *args)
    assert "method public static final int doMain(int)" in jvm.out and "NAME" in jvm.out, jvm.out
    own = run_jdx("members", "js.Tool", *args)  # the supertype's own listing keeps them, marked
    assert "public fun doMain(x: Int): Int  [@JvmStatic, in companion object]" in own.out, own.out
