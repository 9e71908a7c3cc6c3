"""A decompiled Kotlin class without kotlinc's bookkeeping payloads (a trial on kotlin-scripting: `source` of a
facade spent 4,877 of its 25,348 bytes on one `@Metadata` line): the `d1`/`d2` arrays and the SMAP become an empty
initializer with a comment saying how many characters were left out and where jdx reads them. Every line keeps its
number (the line map and `--lines` rest on them) and the text stays Java (tree-sitter-java is the oracle); a Java
class's text is untouched. The end-to-end case decompiles a class of Debian's kotlin-stdlib."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from jdx.engine.java_parse import parse_source
from jdx.loaders import decompile as d
from jdx.loaders.decompile_compact import compact_kotlin_bookkeeping

STDLIB = Path("/usr/share/java/kotlin-stdlib.jar")
CLASS = "kotlin/io/TextStreamsKt"  # a file facade with inline functions: @Metadata d1/d2 and an SMAP

TEXT = '''package demo;

import kotlin.Metadata;

@Metadata(mv = { 1, 9, 0 }, k = 2, xi = 48, d1 = { "%s" }, d2 = { "run", "", "x", "%s" })
@SourceDebugExtension({ "SMAP\\nA.kt\\nKotlin\\n*S Kotlin\\n*F\\n+ 1 A.kt\\ndemo/AKt\\n%s" })
public final class AKt {
    public static final int run(final int x) {
        return x + 1;
    }
}
''' % ("\\u0000\\n\\u0002\\u0018" * 40, "y" * 60, "*L\\n1#1,10:1\\n" * 10)


def test_payloads_are_left_out_keeping_lines_and_java():
    out = compact_kotlin_bookkeeping(TEXT)
    assert out.count("\n") == TEXT.count("\n")
    meta = next(line for line in out.splitlines() if line.startswith("@Metadata"))
    assert meta.startswith("@Metadata(mv = { 1, 9, 0 }, k = 2, xi = 48, d1 = { /* ") and "\\u0000" not in meta, meta
    assert "characters of @kotlin.Metadata" in meta and '"run"' not in meta, meta
    smap = next(line for line in out.splitlines() if line.startswith("@SourceDebugExtension"))
    assert smap.startswith("@SourceDebugExtension({ /* ") and "characters of SMAP" in smap, smap
    assert parse_source(out.encode()).errors == 0
    assert out.splitlines()[8:] == TEXT.splitlines()[8:]  # the code as it was


def test_short_payloads_and_java_text_stay_as_written():
    short = '@Metadata(mv = { 1, 9, 0 }, k = 1, d1 = { "\\u0000" }, d2 = { "A" })\npublic final class A {}\n'
    assert compact_kotlin_bookkeeping(short) == short
    java = 'public class B { String s = "d1 = { \\"x\\" }"; }\n'
    assert compact_kotlin_bookkeeping(java) == java


@pytest.mark.soak  # a JVM and a Procyon run: the soak runs it (.ci/run)
@pytest.mark.skipif(not d.available_engines(), reason="no decompiler installed (see .ci/run)")
def test_a_decompiled_kotlin_facade_has_no_payload(tmp_path, jdx_home):
    if not STDLIB.exists():
        pytest.skip(f"{STDLIB} is absent (Debian package kotlin, see .ci/run)")
    from jdx.loaders import java_tools

    with zipfile.ZipFile(STDLIB) as zf:
        raw = zf.read(CLASS + ".class")
    assert b"SourceDebugExtension" in raw and b"kotlin/Metadata" in raw  # (the class carries both)
    java_tools.ensure_jvm(jdx_home / "cache")
    result = d.decompile_class(tmp_path, "jar", str(STDLIB), CLASS, [("jar", str(STDLIB))])
    meta = [line for line in result.text.splitlines() if "@Metadata" in line]
    assert meta and all("characters of @kotlin.Metadata" in line and len(line) < 400 for line in meta), meta
    assert max(len(line) for line in result.text.splitlines()) < 1000
    assert parse_source(result.text.encode()).errors == 0
