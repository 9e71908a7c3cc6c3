"""The two graph backends (kuzu, and its fork ladybug via JDX_GRAPH_BACKEND=ladybug) give identical answers.

gson is indexed once per backend, each in a cache of its own (graph files are backend-specific), and the same
Cypher queries are compared row for row: counts per node label and per relationship type, the gson types with
their properties, the INVOKES edges out of com.google.gson.Gson's methods, and every OVERRIDES edge.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from jdx.graph_schema.schema import NODE_TABLES, REL_TABLES
from tests.conftest import GSON, require

pytestmark = pytest.mark.soak  # a second graph backend built whole; the default tier uses one backend

BACKENDS = ("kuzu", "ladybug")


def props(var: str, columns: list[str]) -> str:
    """`var.c AS c, ...` for every column the schema declares (so a schema change cannot hide a difference)."""
    return ", ".join(f"{var}.{c} AS {var}_{c}" for c in columns)


TYPE_COLUMNS = [c for c, _ in NODE_TABLES["Type"]]
INVOKES_COLUMNS = [c for c, _ in REL_TABLES["INVOKES"][1]]
OVERRIDES_COLUMNS = [c for c, _ in REL_TABLES["OVERRIDES"][1]]

QUERIES = {
    "node labels": "MATCH (n) RETURN label(n) AS label, count(*) AS n ORDER BY label",
    "rel types": "MATCH ()-[r]->() RETURN label(r) AS label, count(*) AS n ORDER BY label",
    "gson types": (
        "MATCH (t:Type) WHERE t.fqn STARTS WITH 'com.google.gson.' AND NOT t.external "
        f"RETURN {props('t', TYPE_COLUMNS)} ORDER BY t_id"
    ),
    "Gson invokes": (
        "MATCH (t:Type)-[:DECLARES]->(m:Method)-[r:INVOKES|INVOKES_ADDED]->(n:Method) "
        "WHERE t.fqn = 'com.google.gson.Gson' "
        f"RETURN m.id AS caller, n.id AS callee, {props('r', INVOKES_COLUMNS)} "
        f"ORDER BY caller, callee, {', '.join('r_' + c for c in INVOKES_COLUMNS)}"
    ),
    "overrides": (
        f"MATCH (a:Method)-[r:OVERRIDES]->(b:Method) RETURN a.id AS method, b.id AS overridden, "
        f"{props('r', OVERRIDES_COLUMNS)} ORDER BY method, overridden, {', '.join('r_' + c for c in OVERRIDES_COLUMNS)}"
    ),
}


def run_json(run_jdx, env: dict, *args: str) -> dict:
    run = run_jdx(*args, "--json", env=env)
    assert "Traceback" not in run.out + run.err, run.out + run.err
    assert run.code == 0, (run.code, run.out, run.err)
    envelope = json.loads(run.out)
    assert envelope["ok"] is True
    return envelope["result"]


@pytest.fixture(scope="module")
def answers(tmp_path_factory, run_jdx) -> dict[str, dict]:
    """backend -> {"graph": build dir, query name -> rows}."""
    gson = require(GSON)
    if importlib.util.find_spec("ladybug") is None:
        pytest.skip("ladybug is not installed (pip install 'jdx[ladybug]')")
    out: dict[str, dict] = {}
    for backend in BACKENDS:
        home = tmp_path_factory.mktemp(f"parity-{backend}")
        env = {"JDX_GRAPH_BACKEND": backend, "JDX_CACHE_DIR": str(home / "cache"),
               "JDX_CONFIG_DIR": str(home / "config")}
        args = ("--no-jdk", "--jars", str(gson))
        result = run_json(run_jdx, env, "index", *args)
        got = {"graph": Path(result["graph"]), "index": result}
        for name, query in QUERIES.items():
            got[name] = run_json(run_jdx, env, "cypher", query, "--limit", "1000000", *args)["rows"]
        out[backend] = got
    return out


def test_each_backend_built_its_own_graph(answers):
    for backend in BACKENDS:
        graph = answers[backend]["graph"]
        manifest = json.loads((graph / "manifest.json").read_text())
        assert manifest["backend"] == backend
    assert answers["kuzu"]["index"]["classes"] == answers["ladybug"]["index"]["classes"] > 100


@pytest.mark.parametrize("name", list(QUERIES))
def test_same_rows_on_both_backends(answers, name):
    kuzu, ladybug = answers["kuzu"][name], answers["ladybug"][name]
    assert kuzu, f"{name}: no rows"  # a query that finds nothing would prove nothing
    assert kuzu == ladybug


def test_gson_answers_are_meaningful(answers):
    kuzu = answers["kuzu"]
    labels = {r["label"]: r["n"] for r in kuzu["node labels"]}
    assert set(labels) == set(NODE_TABLES) - {"KotlinDecl"}  # gson has no Kotlin classes
    assert labels["Artifact"] == 1
    fqns = [r["t_fqn"] for r in kuzu["gson types"]]
    assert "com.google.gson.Gson" in fqns and "com.google.gson.TypeAdapter" in fqns
    assert len(kuzu["Gson invokes"]) > 50
    assert len(kuzu["overrides"]) > 50
    # `edges` counts the code's relationships (the search index lives beside the graph)
    assert sum(r["n"] for r in kuzu["rel types"]) == kuzu["index"]["edges"]


def test_switching_backend_in_one_cache_never_opens_the_other_graph(run_jdx, tmp_path):
    """Graph files are backend-specific: one cache holds one graph per backend, each answering alike."""
    gson = require(GSON)
    if importlib.util.find_spec("ladybug") is None:
        pytest.skip("ladybug is not installed")
    env = {"JDX_CACHE_DIR": str(tmp_path / "cache"), "JDX_CONFIG_DIR": str(tmp_path / "config")}
    args = ("--no-jdk", "--jars", str(gson))
    graphs, rows = {}, {}
    for backend in BACKENDS:
        benv = {**env, "JDX_GRAPH_BACKEND": backend}
        result = run_json(run_jdx, benv, "index", *args)
        graphs[backend] = Path(result["graph"])
        rows[backend] = run_json(run_jdx, benv, "cypher", QUERIES["node labels"], "--limit", "1000000", *args)["rows"]
    assert graphs["kuzu"].parent != graphs["ladybug"].parent
    assert rows["kuzu"] == rows["ladybug"]
    # and back again: kuzu still answers from its own, untouched graph
    again = run_json(run_jdx, {**env, "JDX_GRAPH_BACKEND": "kuzu"}, "index", *args)
    assert again["built"] is False and Path(again["graph"]) == graphs["kuzu"]
