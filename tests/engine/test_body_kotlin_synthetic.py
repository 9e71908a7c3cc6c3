"""`body` of a synthetic method that a Kotlin function compiles to is the function's text, not "compiler-generated":
kotlinc marks a @JvmSynthetic function's method synthetic, and kotlinc 2 a reified inline function's (kotlinc 1.3
makes it private: the fixture's class file is rewritten to kotlinc 2's flags). The Kotlin metadata says they are
declared; a method kotlinc writes itself (`access$secret`) stays compiler-generated.

Oracles: `javap -p -v` (the flags of each method) and the Kotlin source text (a sources jar's slice is verbatim)."""

from __future__ import annotations

import json
import struct
import zipfile

import pytest

from tests.fixtures.javac import javap_method_flags, paired_and_bare

pytestmark = pytest.mark.soak  # kotlinc takes seconds to start

SOURCE = """package rs

inline fun <reified T : Throwable> expect(block: () -> Unit): T? {
    try {
        block()
    } catch (e: Throwable) {
        if (e is T) return e
    }
    return null
}

@JvmSynthetic
fun hidden(x: Int): Int {
    val y = x * 2
    return y + 1
}

fun plain(x: Int): Int = hidden(x)

class Outer {
    private fun secret() = 1

    inner class In {
        fun f() = secret()
    }
}
"""

EXPECT = ("expect", "(Lkotlin/jvm/functions/Function0;)Ljava/lang/Throwable;")
KOTLINC_2_FLAGS = 0x1019  # public static final synthetic, as kotlinc 2 writes a reified inline function's method


def _as_kotlinc_2(data: bytes, name: str, descriptor: str) -> bytes:
    """A class file with the access flags of the method `name` `descriptor` set to KOTLINC_2_FLAGS."""
    from jdx.loaders.decompile_procyon import read_class

    cf = read_class(data)
    index = {cf.utf8(i): i for i, (tag, _) in cf.entries.items() if tag == 1}
    at = data.index(struct.pack(">HH", index[name], index[descriptor]), cf.cp_end) - 2
    return data[:at] + struct.pack(">H", KOTLINC_2_FLAGS) + data[at + 2:]


@pytest.fixture(scope="module")
def fx(jdx_home, run_jdx, tmp_path_factory):
    from tests.kotlin.corpus import kotlinc_jar

    jar = kotlinc_jar("body-synthetic", {"Lib.kt": SOURCE})
    with zipfile.ZipFile(jar) as z:
        entries = {n: z.read(n) for n in z.namelist() if not n.endswith("/")}
    entries["rs/LibKt.class"] = _as_kotlinc_2(entries["rs/LibKt.class"], *EXPECT)
    work = tmp_path_factory.mktemp("body-synthetic")
    paired, bare = paired_and_bare(work, "rs-1.0", entries, {"rs/Lib.kt": SOURCE.encode()})
    for path in (paired, bare):
        r = run_jdx("index", "--jars", str(path), "--no-jdk")
        assert r.code == 0, r.err
    return {"paired": ["--jars", str(paired), "--no-jdk"], "bare": ["--jars", str(bare), "--no-jdk"], "jar": bare}


def _body(run_jdx, args: list[str], ref: str) -> dict:
    r = run_jdx("body", ref, *args, "--json")
    assert r.code == 0, r.out + r.err
    return json.loads(r.out)["result"]


def _declared(lines: list[str], first: str) -> list[str]:
    """The source lines of the function whose declaration line starts with `first` (annotations above it too)."""
    start = next(i for i, line in enumerate(lines) if line.startswith(first))
    while start and lines[start - 1].startswith("@"):
        start -= 1
    end = next(i for i in range(start, len(lines)) if lines[i] == "}")
    return lines[start:end + 1]


def test_the_fixture_has_the_synthetic_shapes(fx):
    flags = javap_method_flags(fx["jar"], "rs.LibKt")
    assert "ACC_SYNTHETIC" in flags["hidden(I)I"] and "ACC_SYNTHETIC" in flags["".join(EXPECT)]
    assert "ACC_SYNTHETIC" not in flags["plain(I)I"]
    assert "ACC_SYNTHETIC" in javap_method_flags(fx["jar"], "rs.Outer")["access$secret(Lrs/Outer;)I"]


@pytest.mark.parametrize("ref, first", [("rs.LibKt#hidden(int)", "fun hidden("),
                                        ("rs.LibKt#expect(kotlin.jvm.functions.Function0)", "inline fun <reified T")])
def test_with_sources_a_declared_synthetic_method_is_its_function(fx, run_jdx, ref, first):
    res = _body(run_jdx, fx["paired"], ref)
    assert res["origin"] == "sources", res["header"]
    assert res["text"] == _declared(SOURCE.splitlines(), first)
    assert "compiler-generated" not in res["header"] and not res["implicit"]


def test_without_sources_a_declared_synthetic_method_is_not_called_compiler_generated(fx, run_jdx):
    from jdx.loaders.decompile import available_engines

    res = _body(run_jdx, fx["bare"], "rs.LibKt#hidden(int)")
    assert "compiler-generated" not in res["header"] and not res["implicit"]
    if available_engines():
        assert res["origin"] == "decompiled" and "hidden(final int x)" in "\n".join(res["text"])
    # the decompiler may leave an uncalled synthetic method out of its text: javap's code, said to be no source
    res = _body(run_jdx, fx["bare"], "rs.LibKt#expect(kotlin.jvm.functions.Function0)")
    assert "compiler-generated" not in res["header"] and not res["implicit"]
    assert res["origin"] in ("decompiled", "javap") and "(no sources jar" in res["header"]
    if res["origin"] == "javap":
        assert any(line.strip() == "Code:" for line in res["text"])


@pytest.mark.parametrize("layout", ["paired", "bare"])
def test_a_method_kotlinc_writes_stays_compiler_generated(fx, run_jdx, layout):
    res = _body(run_jdx, fx[layout], "rs.Outer#access$secret(rs.Outer)")
    assert "compiler-generated" in res["header"], res["header"]
