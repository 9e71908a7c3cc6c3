"""Kotlin changes that break sources but not compiled callers are suspicious, not breaking or info (spec §7.7,
docs/diff.md): breaking = an old caller fails to link or run, suspicious = sources stop compiling.

- A declaration made `internal` (function, class, constructor) stays public on the JVM: a client compiled against
  v1, Kotlin or Java, runs against v2; recompiling a Kotlin client fails ("cannot access: it is internal"). So a
  narrowing only the Kotlin metadata shows is suspicious; a JVM narrowing (public -> protected) stays breaking.
- `@Deprecated(level = ERROR)` added, or a level raised to ERROR: compiled callers link and run, Kotlin sources
  using it no longer compile ("using ... is an error"). Suspicious, not info; WARNING stays info.

The oracle is the toolchain: kotlinc builds both library versions and a Kotlin client against v1, java runs the
client against v2, and kotlinc compiling the same client against v2 must fail on every declaration; javac and java do
the same for a Java client. The library jars are cached by source hash (tests/kotlin/corpus.py)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.kotlin.corpus import kotlinc_jar

LONG = ('"this long deprecation message says what replaces the declaration and why it goes, well over the limit '
        'of the short form"')
V1 = f"""package kl
fun madeInternal(x: Int): Int = x
class MadeInternalClass(val v: Int)
class Ctor(val v: Int)
open class Narrowed {{ open fun j(): Int = 1 }}
fun deprError(): Int = 1
@Deprecated("w") fun deprRaised(): Int = 2
@Deprecated({LONG}, level = DeprecationLevel.WARNING) fun deprRaisedLong(): Int = 3
@Deprecated({LONG}) fun deprAddedLong(): Int = 4
fun deprWarn(): Int = 5
"""
V2 = f"""package kl
internal fun madeInternal(x: Int): Int = x
internal class MadeInternalClass(val v: Int)
class Ctor internal constructor(val v: Int)
open class Narrowed {{ protected open fun j(): Int = 1 }}
@Deprecated("no", level = DeprecationLevel.ERROR) fun deprError(): Int = 1
@Deprecated("w", level = DeprecationLevel.ERROR) fun deprRaised(): Int = 2
@Deprecated({LONG}, level = DeprecationLevel.ERROR) fun deprRaisedLong(): Int = 3
@Deprecated({LONG}, level = DeprecationLevel.ERROR) fun deprAddedLong(): Int = 4
@Deprecated("soft") fun deprWarn(): Int = 5
"""
CLIENT = """package c
import kl.*
fun main() {
    println("madeInternal=" + madeInternal(1))
    println("class=" + MadeInternalClass(2).v)
    println("ctor=" + Ctor(3).v)
    println("deprError=" + deprError())
    println("deprRaised=" + deprRaised())
    println("deprRaisedLong=" + deprRaisedLong())
    println("deprAddedLong=" + deprAddedLong())
}
"""
RAN = ["madeInternal=1", "class=2", "ctor=3", "deprError=1", "deprRaised=2", "deprRaisedLong=3", "deprAddedLong=4"]
JAVA_CLIENT = """public class J { public static void main(String[] a) {
    System.out.println("madeInternal=" + kl.LibKt.madeInternal(1));
    System.out.println("class=" + new kl.MadeInternalClass(2).getV());
    System.out.println("ctor=" + new kl.Ctor(3).getV());
    System.out.println("deprError=" + kl.LibKt.deprError());
    try { System.out.println("j=" + new kl.Narrowed().j()); } catch (Throwable e) { System.out.println(e.getClass().getName()); }
} }
"""
# the findings the fix rates suspicious, and the kotlinc error recompiling the client against v2 gives each
KOTLIN_ONLY = {
    ("MEMBER_VISIBILITY_NARROWED", "kl.LibKt#madeInternal(int)"): "cannot access 'madeInternal': it is internal",
    ("TYPE_VISIBILITY_NARROWED", "kl.MadeInternalClass"): "cannot access 'MadeInternalClass': it is internal",
    ("MEMBER_VISIBILITY_NARROWED", "kl.Ctor#<init>(int)"): "cannot access '<init>': it is internal in 'Ctor'",
}
ERROR_LEVEL = {
    ("DEPRECATED_ADDED", "kl.LibKt#deprError()"): "using 'deprError(): Int' is an error",
    ("ANNOTATION_VALUES_CHANGED", "kl.LibKt#deprRaised()"): "using 'deprRaised(): Int' is an error",
    ("ANNOTATION_VALUES_CHANGED", "kl.LibKt#deprRaisedLong()"): "using 'deprRaisedLong(): Int' is an error",
    ("ANNOTATION_VALUES_CHANGED", "kl.LibKt#deprAddedLong()"): "using 'deprAddedLong(): Int' is an error",
}


@pytest.fixture(scope="module")
def jars():
    return kotlinc_jar("t37-v1", {"Lib.kt": V1}), kotlinc_jar("t37-v2", {"Lib.kt": V2})


def _stdlib() -> str:
    return os.path.join(os.path.dirname(os.path.realpath(shutil.which("kotlinc") or "")), "..", "lib",
                        "kotlin-stdlib.jar")  # what a Kotlin class may touch at run time


def _kotlinc(src: Path, classpath: Path, out: Path) -> subprocess.CompletedProcess:
    return subprocess.run(["kotlinc", "-nowarn", "-cp", str(classpath), "-d", str(out), str(src)],
                          capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def answer(jars, jdx_home) -> dict:
    from tests.diff.shim import main

    code, text = main([str(jars[0]), str(jars[1]), "--json", "--limit", "1000", "--cache-dir",
                       str(jdx_home / "cache")])
    assert code == 0, text
    return {(f["rule"], f["symbol"]): f for f in json.loads(text)["result"]["findings"]}


def test_a_narrowing_only_kotlin_metadata_shows_is_suspicious(answer):
    for key in KOTLIN_ONLY:
        f = answer.get(key)
        assert f is not None, (key, sorted(answer))
        assert f["severity"] == "suspicious", f
        assert f["detail"] == ("public -> internal (Kotlin metadata; still public on the JVM); compiled callers "
                               "still link, Kotlin sources outside the module no longer compile (rated suspicious, "
                               "not breaking)"), f
    # a JVM narrowing stays breaking: a compiled caller of the public method gets IllegalAccessError
    jvm = answer[("MEMBER_VISIBILITY_NARROWED", "kl.Narrowed#j()")]
    assert (jvm["severity"], jvm["detail"]) == ("breaking", "public -> protected"), jvm


def test_deprecation_level_error_is_suspicious(answer):
    for key in ERROR_LEVEL:
        f = answer.get(key)
        assert f is not None, (key, sorted(answer))
        assert f["severity"] == "suspicious", f
        assert f["detail"].endswith("; level ERROR: Kotlin sources using it no longer compile, compiled callers "
                                    "still link (rated suspicious, not info)"), f
    assert answer[("ANNOTATION_VALUES_CHANGED", "kl.LibKt#deprRaisedLong()")]["detail"].startswith(
        "@kotlin.Deprecated: level=kotlin.DeprecationLevel.WARNING -> kotlin.DeprecationLevel.ERROR")
    assert answer[("ANNOTATION_VALUES_CHANGED", "kl.LibKt#deprAddedLong()")]["detail"].startswith(
        "@kotlin.Deprecated: level=kotlin.DeprecationLevel.ERROR added")
    # WARNING added: sources still compile (a warning), so info
    warn = answer[("DEPRECATED_ADDED", "kl.LibKt#deprWarn()")]
    assert (warn["severity"], warn["detail"]) == ("info", '@kotlin.Deprecated(message="soft")'), warn


@pytest.mark.soak  # slow (kotlinc runs the client; two exports): the soak runs it (.ci/run)
def test_kotlin_client_compiled_against_v1_runs_against_v2_and_no_longer_compiles(jars, tmp_path):
    """The oracle of both ratings: every suspicious declaration still links and runs, and none compiles."""
    if shutil.which("java") is None:
        pytest.skip("java is not installed")
    src = tmp_path / "Client.kt"
    src.write_text(CLIENT)
    built = _kotlinc(src, jars[0], tmp_path / "client.jar")
    assert built.returncode == 0, built.stderr
    ran = subprocess.run(["java", "-cp", os.pathsep.join([str(tmp_path / "client.jar"), str(jars[1]), _stdlib()]),
                          "c.ClientKt"], capture_output=True, text=True, timeout=120)
    assert (ran.returncode, ran.stdout.split()) == (0, RAN), ran.stderr
    again = _kotlinc(src, jars[1], tmp_path / "client2.jar")
    assert again.returncode != 0
    errors = [line for line in again.stderr.splitlines() if ": error: " in line]
    for why in (*KOTLIN_ONLY.values(), *ERROR_LEVEL.values()):
        assert any(why in line for line in errors), (why, errors)


def test_java_client_compiled_against_v1_runs_against_v2(jars, tmp_path):
    """A Java caller of the internal-made declarations links; one of the JVM-narrowed method does not."""
    if shutil.which("javac") is None or shutil.which("java") is None:
        pytest.skip("javac and java are not installed")
    (tmp_path / "J.java").write_text(JAVA_CLIENT)
    subprocess.run(["javac", "-nowarn", "-cp", str(jars[0]), "-d", str(tmp_path), str(tmp_path / "J.java")],
                   check=True, capture_output=True, timeout=300)
    ran = subprocess.run(["java", "-cp", os.pathsep.join([str(tmp_path), str(jars[1]), _stdlib()]), "J"],
                         capture_output=True, text=True, timeout=120)
    assert (ran.returncode, ran.stdout.split()) == (
        0, ["madeInternal=1", "class=2", "ctor=3", "deprError=1", "java.lang.IllegalAccessError"]), ran.stderr


M2 = Path.home() / ".m2/repository/org/jetbrains/kotlinx/kotlinx-coroutines-core-jvm"
COROUTINES = tuple(M2 / v / f"kotlinx-coroutines-core-jvm-{v}.jar" for v in ("1.6.4", "1.7.3"))


@pytest.mark.soak
def test_coroutines_internal_constructor_and_error_level(jdx_home):
    missing = [str(j) for j in COROUTINES if not j.exists()]
    if missing:
        print(f"skipped: {', '.join(missing)} absent from the local Maven repository")
        pytest.skip(f"{missing[0]} is absent (the local Maven repository has no kotlinx-coroutines-core-jvm)")
    from tests.diff.shim import main

    code, text = main([str(COROUTINES[0]), str(COROUTINES[1]), "--json", "--limit", "5000", "--cache-dir",
                       str(jdx_home / "cache")])
    assert code == 0, text
    found = {(f["rule"], f["symbol"]): f for f in json.loads(text)["result"]["findings"]}
    ctor = found[("MEMBER_VISIBILITY_NARROWED", "kotlinx.coroutines.debug.internal.DebugCoroutineInfo#<init>("
                  "kotlinx.coroutines.debug.internal.DebugCoroutineInfoImpl, kotlin.coroutines.CoroutineContext)")]
    assert ctor["severity"] == "suspicious" and "compiled callers still link" in ctor["detail"], ctor
    flow = found[("ANNOTATION_VALUES_CHANGED",
                  "kotlinx.coroutines.flow.FlowKt#asFlow(kotlinx.coroutines.channels.BroadcastChannel)")]
    assert flow["severity"] == "suspicious" and "level ERROR" in flow["detail"], flow
    # ERROR -> HIDDEN is no raise to ERROR: the member made synthetic has its own suspicious finding
    hidden = found[("ANNOTATION_VALUES_CHANGED", "kotlinx.coroutines.channels.ChannelsKt#sendBlocking("
                    "kotlinx.coroutines.channels.SendChannel, java.lang.Object)")]
    assert hidden["severity"] == "info", hidden
