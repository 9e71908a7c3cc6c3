"""Golden files for body / source / doc, text and JSON, on the sx fixtures (tests/fixtures/build_sources.py)
in several pairing layouts, plus text-only JDK cases. Same rules as tests/cli/test_goldens.py: byte-for-byte
text, parsed-JSON equality, nothing machine-specific in a golden. The goldens live in tests/goldens/sources/.
Regenerate with `JDX_UPDATE_GOLDENS=1 pytest tests/cli/test_goldens_source.py`, then review the diff.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli import golden
from tests.fixtures.build_sources import build_layouts

GOLDENS = golden.GOLDENS / "sources"

# (golden name, layout, argv, exit code)
FIXTURE_CASES = [
    ("body-shapes-area", "paired", ["body", "sx.Shapes#area(double)"], 0),
    ("body-shapes-area-flags", "paired",
     ["body", "sx.Shapes#area(double)", "--with-doc", "--with-signature", "--line-numbers"], 0),
    ("body-shapes-count-max-lines", "paired", ["body", "sx.Shapes#count", "--context", "1", "--max-lines", "4"], 0),
    ("body-shapes-anonymous-run", "paired", ["body", "sx.Shapes$1#run"], 0),
    ("body-shapes-local-bump", "paired", ["body", "sx.Shapes$1Counter#bump"], 0),
    ("body-shapes-varargs-ctor", "paired", ["body", "sx.Shapes#<init>(Comparable, Comparable...)"], 0),
    ("body-shapes-clinit", "paired", ["body", "sx.Shapes#<clinit>"], 0),
    ("body-shapes-point-type", "paired", ["body", "sx.Shapes$Point"], 0),
    ("body-color-constant-body", "paired", ["body", "sx.Color$1#label"], 0),
    ("body-color-values-implicit", "paired", ["body", "sx.Color#values"], 0),
    ("body-range-compact-ctor", "paired", ["body", "sx.Range#<init>(int, int)"], 0),
    ("body-embedded", "embedded", ["body", "sx.Dog#name"], 0),
    ("body-gradle", "gradle", ["body", "sx.Dog#name"], 0),
    ("body-stale-present", "stale", ["body", "sx.Dog#name"], 0),
    ("body-stale-missing", "stale", ["body", "sx.Dog#fetch"], 0),
    ("body-bare-decompiled", "bare", ["body", "sx.Shapes#area(double)"], 0),
    ("body-not-found", "paired", ["body", "sx.Shapes#areaa"], 1),
    ("body-ambiguous", "paired", ["body", "sx.Shapes#area"], 2),
    ("body-bad-engine", "paired", ["body", "sx.Shapes#area(double)", "--engine", "fernflower"], 3),
    ("source-range", "paired", ["source", "sx.Range"], 0),
    ("source-shapes-lines", "paired", ["source", "sx.Shapes", "--lines", "45:47", "--line-numbers"], 0),
    ("source-shapes-around", "paired", ["source", "sx.Shapes", "--around", "area(double)", "--context", "1"], 0),
    ("source-shapes-max-lines", "paired", ["source", "sx.Shapes", "--max-lines", "5"], 0),
    ("source-bad-lines", "paired", ["source", "sx.Shapes", "--lines", "9:2"], 3),
    ("source-bare-decompiled", "bare", ["source", "sx.Range"], 0),
    ("doc-named-greet", "paired", ["doc", "sx.Named#greet"], 0),
    ("doc-dog-name-inherited", "paired", ["doc", "sx.Dog#name"], 0),
    ("doc-dog-greet-inheritdoc", "paired", ["doc", "sx.Dog#greet"], 0),
    ("doc-dog-name-no-inherited", "paired", ["doc", "sx.Dog#name", "--no-inherited"], 0),
    ("doc-shapes-type", "paired", ["doc", "sx.Shapes"], 0),
    ("doc-shapes-area-overloads", "paired", ["doc", "sx.Shapes#area"], 0),
    ("doc-shapes-area-raw", "paired", ["doc", "sx.Shapes#area(double)", "--raw"], 0),
    ("doc-bare-no-sources", "bare", ["doc", "sx.Shapes"], 0),
]
# JDK cases: text only (line numbers move with JDK updates)
JDK_CASES = [
    ("body-jdk-hashmap-get", ["body", "java.util.HashMap#get(Object)"], 0),
    ("doc-jdk-arraylist-add", ["doc", "java.util.ArrayList#add(Object)"], 0),
    ("doc-jdk-arraylist-removeif", ["doc", "java.util.ArrayList#removeIf"], 0),
]


@pytest.fixture(scope="module")
def layout_args(jdx_home) -> dict:
    lay = build_layouts(jdx_home)
    return {"paired": ["--no-jdk", "--jars", str(lay.paired)], "bare": ["--no-jdk", "--jars", str(lay.bare)],
            "stale": ["--no-jdk", "--jars", str(lay.stale)], "embedded": ["--no-jdk", "--jars", str(lay.embedded)],
            "gradle": ["--no-jdk", "--jars", str(lay.gradle)]}


@pytest.fixture(scope="module")
def outputs(layout_args, jdx_env, run_jdx) -> dict:
    found = {}
    with golden.in_process(jdx_env) as run_here:
        for name, layout, argv, code in FIXTURE_CASES:
            found[(name, "txt")] = (run_here(layout_args[layout] + argv), code)
            found[(name, "json")] = (run_here(layout_args[layout] + argv + ["--json"]), code)
    for name, argv, code in JDK_CASES:
        found[(name, "txt")] = (run_jdx(*argv), code)
    return found


def _check(outputs: dict, jdx_home: Path, name: str, ext: str) -> None:
    run, code = outputs[(name, ext)]
    golden.check(GOLDENS / f"{name}.{ext}", run, code, jdx_home)


@pytest.mark.parametrize("name", [c[0] for c in FIXTURE_CASES])
def test_source_golden_text(outputs, jdx_home, name):
    _check(outputs, jdx_home, name, "txt")


@pytest.mark.parametrize("name", [c[0] for c in FIXTURE_CASES])
def test_source_golden_json(outputs, jdx_home, name):
    _check(outputs, jdx_home, name, "json")


@pytest.mark.parametrize("name", [c[0] for c in JDK_CASES])
def test_source_jdk_golden_text(outputs, jdx_home, name):
    _check(outputs, jdx_home, name, "txt")


def test_every_source_golden_has_a_case():
    expected = {f"{n}.txt" for n, *_ in FIXTURE_CASES + JDK_CASES} | {f"{n}.json" for n, *_ in FIXTURE_CASES}
    present = {p.name for p in GOLDENS.glob("*.*")} if GOLDENS.exists() else set()
    assert present <= expected, sorted(present - expected)


def test_text_is_a_rendering_of_the_json(outputs):
    """Every body/source text line and its provenance header are in the envelope's result."""
    for name, _layout, _argv, code in FIXTURE_CASES:
        if code or name.startswith("doc-"):
            continue
        data = json.loads(outputs[(name, "json")][0].out)
        text = outputs[(name, "txt")][0].out
        assert data["result"]["header"] in text and data["provenance"][0]["origin"] == data["result"]["origin"]
        for line in data["result"]["text"][:4]:
            assert line in text, (name, line)
