"""`jdx resolve` of a Kotlin frame whose line is code kotlinc inlined (docs/kotlin.md, inline functions): kotlinc
numbers the copied body past the caller file's last line and maps it in the class's SMAP (SourceDebugExtension), so
such a line is in the method's LineNumberTable but past the range of the method's own lines. Resolve names the
method, never warns FRAME_LINE_OUTSIDE, and says where the line came from (the inline function's file and line, and
the call in the caller's file). The oracles: `javap -l -v` (the LineNumberTable and the SMAP) and the source text."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from tests.fixtures import jdktool
from tests.kotlin.corpus import copied_jar

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)

LIB = '''@file:JvmName("Guard")
package kf

inline fun guarded(block: () -> Int): Int {
    val before = System.nanoTime()
    val r = block()
    check(r >= 0) { "negative" }
    return r + (System.nanoTime() - before).toInt() * 0
}
'''

USE = '''package kf.use

import kf.*

class Task {
    fun run(): Int {
        val x = 1
        return guarded { x }
    }
}
'''
CHECK = "check(r >= 0)"
COROUTINES = Path.home() / (".m2/repository/org/jetbrains/kotlinx/kotlinx-coroutines-core-jvm/1.7.3/"
                            "kotlinx-coroutines-core-jvm-1.7.3.jar")
STDLIB_1910 = Path.home() / ".m2/repository/org/jetbrains/kotlin/kotlin-stdlib/1.9.10/kotlin-stdlib-1.9.10.jar"


def line_of(text: str, needle: str) -> int:
    found = [i for i, line in enumerate(text.splitlines(), 1) if needle in line]
    assert len(found) == 1, (needle, found)
    return found[0]


def _jar() -> Path:
    from tests.kotlin.corpus import kotlinc_jar

    return kotlinc_jar("inlined-frames", {"Lib.kt": LIB, "Use.kt": USE})


@pytest.fixture(scope="module")
def jar(tmp_path_factory):
    return copied_jar(tmp_path_factory, _jar(), "ktframes-cli", "frames.jar")


def _javap(jar: Path, cls: str, method: str) -> tuple[list[int], str]:
    """`javap -l -v`: the lines of `method`'s LineNumberTable and the class's SourceDebugExtension text."""
    tool = shutil.which("javap")
    if tool is None:
        pytest.skip("javap is not on PATH")
    out = jdktool.run([tool, "-l", "-v", "-p", "-cp", str(jar), cls], capture_output=True, text=True, check=True,
                      timeout=120).stdout
    body = out.split(f" {method}(")[1].split("LocalVariableTable")[0]
    smap = out.split("SourceDebugExtension:\n")[1].split("\n*E")[0] if "SourceDebugExtension:" in out else ""
    return [int(n) for n in re.findall(r"line (\d+): \d+", body)], smap


def _mapped(smap: str, file_id: int, source_line: int) -> int:
    """The output line the SMAP's Kotlin stratum gives `source_line` of file `file_id` (`in#f,repeat:out`)."""
    kotlin = smap.split("*S KotlinDebug")[0]
    for m in re.finditer(r"^\s*(\d+)#(\d+)(?:,(\d+))?:(\d+)\s*$", kotlin, re.M):
        start, fid, repeat, out = int(m[1]), int(m[2]), int(m[3] or 1), int(m[4])
        if fid == file_id and start <= source_line < start + repeat:
            return out + source_line - start
    raise AssertionError(f"line {source_line} of file {file_id} is not in the SMAP:\n{smap}")


def test_a_frame_in_inlined_code_names_the_method_and_the_inline_function(run_jdx, jar):
    table, smap = _javap(jar, "kf.use.Task", "run")
    lib_id = int(re.search(r"\+ (\d+) Lib\.kt", smap)[1])
    frame_line = _mapped(smap, lib_id, line_of(LIB, CHECK))
    own_end = len(USE.splitlines())
    assert frame_line > own_end and frame_line in table, (frame_line, table)  # the oracle: inlined, yet in the table
    r = run_jdx("resolve", f"at kf.use.Task.run(Use.kt:{frame_line})", "--jars", str(jar), "--json")
    assert r.code == 0, r.out + r.err
    doc = json.loads(r.out)
    assert "FRAME_LINE_OUTSIDE" not in r.out + r.err
    (c,) = doc["result"]["candidates"]
    assert c["ref"] == "kf.use.Task#run()"
    own = [n for n in table if n <= own_end]
    assert c["lines"] == [min(own), max(own)]  # the method's own lines, not a line of inlined code
    assert c["inlined"] == {"file": "Lib.kt", "line": line_of(LIB, CHECK), "owner": "kf.Guard", "function": "guarded",
                            "call_file": "Use.kt", "call_line": line_of(USE, "guarded {")}
    r = run_jdx("resolve", f"at kf.use.Task.run(Use.kt:{frame_line})", "--jars", str(jar))
    assert r.code == 0 and "FRAME_LINE_OUTSIDE" not in r.out + r.err, r.out + r.err
    assert (f"inlined code: Lib.kt:{line_of(LIB, CHECK)} (kf.Guard#guarded), called at Use.kt:"
            f"{line_of(USE, 'guarded {')}") in r.out, r.out


def test_a_line_in_no_table_still_warns(run_jdx, jar):
    table, _ = _javap(jar, "kf.use.Task", "run")
    line = max(table) + 50
    r = run_jdx("resolve", f"at kf.use.Task.run(Use.kt:{line})", "--jars", str(jar))
    assert r.code == 0 and "FRAME_LINE_OUTSIDE" in r.out + r.err, r.out + r.err
    assert "inlined code" not in r.out


@pytest.mark.soak  # slow: the soak runs it (.ci/run); indexes kotlinx-coroutines and kotlin-stdlib from ~/.m2
def test_kotlinx_coroutines_dispatched_task_run(run_jdx):
    """The trial's frame: DispatchedTask.kt:230 is withContinuationContext's body (CoroutineContext.kt), inlined at
    DispatchedTask.kt line 90; the class's own lines end at 222 (223 is kotlinc's fake.kt)."""
    if not (COROUTINES.exists() and STDLIB_1910.exists()):
        pytest.skip(f"{COROUTINES.name} or {STDLIB_1910.name} is absent from ~/.m2")
    table, smap = _javap(COROUTINES, "kotlinx.coroutines.DispatchedTask", "run")
    assert 230 in table
    r = run_jdx("resolve", "at kotlinx.coroutines.DispatchedTask.run(DispatchedTask.kt:230)", "--jars",
                f"{COROUTINES}:{STDLIB_1910}", "--json")
    assert r.code == 0 and "FRAME_LINE_OUTSIDE" not in r.out + r.err, r.out + r.err
    (c,) = json.loads(r.out)["result"]["candidates"]
    own_end = int(re.search(r"^\s*1#1,(\d+):1\s*$", smap, re.M)[1])
    assert c["lines"] == [min(n for n in table if n <= own_end), max(n for n in table if n <= own_end)]
    ctx_id = int(re.search(r"\+ (\d+) CoroutineContext\.kt", smap)[1])
    start, out = next((int(m[1]), int(m[3])) for m in re.finditer(r"^\s*(\d+)#(\d+),\d+:(\d+)\s*$", smap, re.M)
                      if int(m[2]) == ctx_id)
    assert c["inlined"] == {"file": "CoroutineContext.kt", "line": start + 230 - out,
                            "owner": "kotlinx.coroutines.CoroutineContextKt", "function": "withContinuationContext",
                            "call_file": "DispatchedTask.kt", "call_line": 90}


KLOGGING = Path.home() / ".m2/repository/io/github/oshai/kotlin-logging-jvm/7.0.3/kotlin-logging-jvm-7.0.3.jar"
STDLIB_210 = Path.home() / ".m2/repository/org/jetbrains/kotlin/kotlin-stdlib/2.1.0/kotlin-stdlib-2.1.0.jar"


@pytest.mark.soak  # indexes kotlin-logging and kotlin-stdlib from ~/.m2
def test_an_inline_function_with_defaults_is_named_not_its_default_stub(run_jdx):
    """kotlinc 2's `withLoggingContext$default` holds a copy of the inline function's body with the same lines, so
    line 25 of KotlinLoggingMDC.kt is in both line tables (T34: the frame's `inlined` named no function)."""
    if not (KLOGGING.exists() and STDLIB_210.exists()):
        print(f"skipped: {KLOGGING.name} or {STDLIB_210.name} absent from ~/.m2")
        pytest.skip(f"{KLOGGING.name} or {STDLIB_210.name} absent from ~/.m2")
    cls = "io.github.oshai.kotlinlogging.KotlinLoggingMDCKt"
    assert 25 in _javap(KLOGGING, cls, "withLoggingContext")[0]
    assert 25 in _javap(KLOGGING, cls, "withLoggingContext$default")[0]  # the oracle: the stub has the line too
    r = run_jdx("resolve", "at io.github.oshai.kotlinlogging.coroutines.KotlinLoggingAsyncMDCKt."
                "withLoggingContextAsync(KotlinLoggingAsyncMDC.kt:70)", "--jars", f"{KLOGGING}:{STDLIB_210}", "--json")
    assert r.code == 0, r.out + r.err
    (c,) = json.loads(r.out)["result"]["candidates"]
    assert c["inlined"]["file"] == "KotlinLoggingMDC.kt" and c["inlined"]["line"] == 25, c
    assert c["inlined"]["function"] == "withLoggingContext", c
