"""Golden files for the relationship graph commands (hierarchy, implementors, overrides, usages, callers,
calls), text and JSON, on the graph fixtures compiled at test time (tests/fixtures/graph) plus the JDK.

Cases run the CLI entry point in this process (as tests/cli/test_goldens.py does) and compare byte for
byte (text) or as parsed JSON. Regenerate with `JDX_UPDATE_GOLDENS=1 pytest tests/cli/test_goldens_graph.py`,
then review the diff.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.cli import golden
from tests.fixtures.build_graph import graph_jar

GOLDENS = golden.GOLDENS

CASES = [
    ("graph-hierarchy-shape", ["hierarchy", "gx.Shape"], 0),
    ("graph-hierarchy-textholder-up", ["hierarchy", "gx.TextHolder", "--up"], 0),
    ("graph-hierarchy-square-direct", ["hierarchy", "gx.Square", "--direct"], 0),
    ("graph-hierarchy-orphan", ["hierarchy", "gx.Orphan"], 0),
    ("graph-hierarchy-comparable-in", ["hierarchy", "java.lang.Comparable", "--down", "--in", "graph-*"], 0),
    ("graph-hierarchy-shape-limit", ["hierarchy", "gx.Shape", "--down", "--limit", "2"], 0),
    ("graph-implementors-shape", ["implementors", "gx.Shape"], 0),
    ("graph-implementors-shape-direct", ["implementors", "gx.Shape", "--direct"], 0),
    ("graph-overrides-shape-area", ["overrides", "gx.Shape#area"], 0),
    ("graph-overrides-square-name", ["overrides", "gx.Square#name()"], 0),
    ("graph-usages-counter-count", ["usages", "gx.Counter#count"], 0),
    ("graph-usages-ping", ["usages", "gx.Ping#ping(int)"], 0),
    ("graph-usages-pong-methodref", ["usages", "gx.Pong::pong"], 0),
    ("graph-usages-graphexception", ["usages", "gx.GraphException"], 0),
    ("graph-usages-graphexception-throw", ["usages", "gx.GraphException", "--kind", "throw"], 0),
    ("graph-usages-describe-call", ["usages", "gx.Shape#describe", "--kind", "call"], 0),
    ("graph-usages-sides-both", ["usages", "gx.AbstractShape#sides"], 0),
    ("graph-usages-circle-new", ["usages", "gx.Circle#<init>"], 0),
    ("graph-usages-marker", ["usages", "gx.Marker"], 0),
    ("graph-usages-shape-limit", ["usages", "gx.Shape#area", "--limit", "1"], 0),
    ("graph-callers-cyclea-depth5", ["callers", "gx.CycleA#a", "--depth", "5"], 0),
    ("graph-calls-cyclea-depth5", ["calls", "gx.CycleA#a", "--depth", "5"], 0),
    ("graph-callers-ping-depth3", ["callers", "gx.Ping#ping", "--depth", "3"], 0),
    ("graph-callers-shape-area", ["callers", "gx.Shape#area", "--depth", "2"], 0),
    ("graph-calls-client-lambdas", ["calls", "gx.Client#lambdas"], 0),
    ("graph-calls-client-lambdas-external", ["calls", "gx.Client#lambdas", "--external-only"], 0),
    ("graph-calls-client-make-in", ["calls", "gx.Client#make", "--in", "graph-*"], 0),
    ("graph-usages-not-found", ["usages", "gx.Ping#pingg"], 1),
    ("graph-usages-in-no-artifact", ["usages", "gx.Shape#area", "--in", "grahp-*"], 1),
    ("graph-hierarchy-ambiguous", ["hierarchy", "Shape"], 2),
    ("graph-callers-field", ["callers", "gx.Counter#count"], 3),
    ("graph-usages-bad-kind", ["usages", "gx.Shape", "--kind", "calls"], 3),
    ("graph-callers-bad-depth", ["callers", "gx.Ping#ping", "--depth", "0"], 3),
]


@pytest.fixture(scope="module")
def outputs(jdx_home, jdx_env, run_jdx) -> dict:
    jar = graph_jar(jdx_home)
    r = run_jdx("index", "--jars", str(jar))
    assert r.code == 0, r.err
    prefix = ["--jars", str(jar)]

    found = {}
    with golden.in_process(jdx_env) as run_here:
        for name, argv, code in CASES:
            found[(name, "txt")] = (run_here(prefix + argv), code)
            found[(name, "json")] = (run_here(prefix + argv + ["--json"]), code)
    return found


def _check(outputs: dict, jdx_home: Path, name: str, ext: str) -> None:
    run, code = outputs[(name, ext)]
    golden.check(GOLDENS / f"{name}.{ext}", run, code, jdx_home)


@pytest.mark.parametrize("name", [c[0] for c in CASES])
def test_graph_golden_text(outputs, jdx_home, name):
    _check(outputs, jdx_home, name, "txt")


@pytest.mark.parametrize("name", [c[0] for c in CASES])
def test_graph_golden_json(outputs, jdx_home, name):
    _check(outputs, jdx_home, name, "json")


def test_every_graph_golden_has_a_case():
    expected = {f"{n}.{ext}" for n, _, _ in CASES for ext in ("txt", "json")}
    present = {p.name for p in GOLDENS.glob("graph-*.*")}
    assert present <= expected, sorted(present - expected)


def test_json_sites_carry_caller_line_kind_artifact(outputs):
    data = json.loads(outputs[("graph-usages-ping", "json")][0].out)
    sites = [s for g in data["result"]["groups"] for c in g["callers"] for s in c["sites"]]
    assert sites and all({"caller", "line", "kind", "artifact"} <= set(s) for s in sites)
    assert data["provenance"] and all(p["origin"] == "bytecode" for p in data["provenance"])


def test_truncation_is_explicit_in_text_and_json(outputs):
    text = outputs[("graph-usages-shape-limit", "txt")][0].out
    assert re.search(r"… 1 of \d+ shown \(--limit \d+\)", text), text
    data = json.loads(outputs[("graph-usages-shape-limit", "json")][0].out)
    assert data["truncated"]["shown"] == 1 and data["truncated"]["hint"].startswith("--limit")


def test_cycle_markers_in_text(outputs):
    for name in ("graph-callers-cyclea-depth5", "graph-calls-cyclea-depth5", "graph-callers-ping-depth3"):
        assert "…(cycle)" in outputs[(name, "txt")][0].out, name
