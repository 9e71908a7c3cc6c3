"""A sample in a static initializer that a decompiler writes as field initializers (an interface's constants:
JNA's `ShlObj.SHGFP_TYPE_CURRENT = new WinDef.DWORD(0L)`): the first-ranked sample said "no sources: bytecode only"
while the decompiled text held the line. Oracle: `javap -c` puts the `new` in `<clinit>`; the marked line of the
window holds the constructor call."""

from __future__ import annotations

import json

import pytest

from jdx.loaders.decompile import available_engines
from tests.fixtures import jdktool
from tests.fixtures.javac import javac_jar

SOURCES = {
    "ci/Word.java": "package ci;\npublic class Word {\n    public Word(long v) { }\n}\n",
    "ci/Flags.java": "package ci;\npublic interface Flags {\n    Word CURRENT = new Word(0L);\n    int PLAIN = 3;\n}\n",
}


def test_a_sample_in_an_interfaces_initializer_shows_its_line(run_jdx, tmp_path):
    if not available_engines():
        pytest.skip("no decompiler installed: samples stay pointers")
    jar, _ = javac_jar(tmp_path, SOURCES, "ci", "ci.jar", debug=True)
    code = jdktool.run(["javap", "-c", "-cp", str(jar), "ci.Flags"], capture_output=True, text=True, check=True).stdout
    assert "static {};" in code and 'Method ci/Word."<init>":(J)V' in code
    r = run_jdx("samples", "ci.Word#<init>(long)", "--json", "--no-jdk", "--jars", str(jar))
    assert r.code == 0, r.err
    (sample,) = json.loads(r.out)["result"]["samples"]
    assert sample["caller"] == "ci.Flags#<clinit>()"
    src = sample["source"]
    assert src is not None and src["reconstructed"], sample
    marked = src["text"][src["focus"] - src["lines"][0]]
    assert "new Word(0L)" in marked, src
