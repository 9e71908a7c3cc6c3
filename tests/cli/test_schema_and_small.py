"""`jdx schema` and the graph's readable artifact names (spec §7.4), the notebook example, and small
friction fixes: `source --lines A-B`, a stack frame outside its method, `cache gc`'s summary, the JDK
sources hint of `doc`."""

from __future__ import annotations

import json
import os
import re
import time
import tomllib
from pathlib import Path

from jdx.engine.sources import missing_sources_hint
from jdx.graph_schema.schema import NODE_TABLES, REL_TABLES
from jdx.graph_schema.schema_docs import NODES, RELS

ROOT = Path(__file__).resolve().parents[2]


def _json(run_jdx, *args):
    r = run_jdx(*args, "--json")
    assert r.code == 0, r.out + r.err
    return json.loads(r.out)


def test_every_table_and_property_has_a_meaning():
    assert set(NODES) == set(NODE_TABLES) and set(RELS) == set(REL_TABLES)
    for name, cols in NODE_TABLES.items():
        assert [c for c, _ in cols if c not in NODES[name][1]] == [], name
    for name, (_, cols) in REL_TABLES.items():
        assert [c for c, _ in cols if c not in RELS[name][1]] == [], name


def test_schema_lists_tables_with_counts_and_runnable_examples(run_jdx):
    data = _json(run_jdx, "schema")["result"]
    nodes = {n["name"]: n for n in data["nodes"]}
    rels = {r["name"]: r for r in data["relationships"]}
    assert set(nodes) == set(NODE_TABLES) and set(rels) == set(REL_TABLES)
    assert nodes["Type"]["rows"] > 10000 and rels["INVOKES"]["rows"] > 100000
    assert {"name": "artifact_name", "type": "STRING"}.items() <= next(
        p for p in nodes["Method"]["properties"] if p["name"] == "artifact_name").items()
    assert len(data["examples"]) == 3
    for e in data["examples"]:
        rows = _json(run_jdx, "cypher", e["query"])["result"]["rows"]
        assert rows, e["title"]
    text = run_jdx("schema").out
    assert "node tables" in text and "relationship tables" in text and "jdx cypher \"MATCH" in text
    assert "jdx schema" in run_jdx("cypher", "--help").out


def test_nodes_carry_a_readable_artifact_name(run_jdx):
    rows = _json(run_jdx, "cypher", "MATCH (a:Artifact)-[:CONTAINS]->(t:Type {id: 'java/util/Map'}) "
                                    "RETURN a.name AS a, t.artifact_name AS t")["result"]["rows"]
    assert rows == [{"a": "java.base", "t": "java.base"}]
    rows = _json(run_jdx, "cypher", "MATCH (m:Method {id: 'java/util/Map#size()I'}) "
                                    "RETURN m.artifact_name AS n")["result"]["rows"]
    assert rows == [{"n": "java.base"}]


def test_readme_notebook_example_and_extra():
    readme = (ROOT / "README.md").read_text()
    assert ".to_pylist()" in readme and "jdx[notebook]" in readme
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert any(dep.startswith("pandas") for dep in extras["notebook"])


def test_python_api_schema_and_to_pylist(jdx_home):
    import jdx

    with jdx.open(jars=[], cache_dir=str(jdx_home / "cache")) as ws:
        rows = ws.cypher("MATCH (t:Type {id: 'java/util/Map'}) RETURN t.fqn, t.artifact_name").to_pylist()
        assert rows == [{"t.fqn": "java.util.Map", "t.artifact_name": "java.base"}]
        assert {n["name"] for n in ws.schema()["nodes"]} == set(NODE_TABLES)


def test_source_lines_with_a_dash(run_jdx):
    colon = _json(run_jdx, "source", "java.util.ArrayList", "--lines", "1:3")["result"]
    dash = _json(run_jdx, "source", "java.util.ArrayList", "--lines", "1-3")["result"]
    assert dash["text"] == colon["text"] and dash["source"]["lines"] == [1, 3]
    bad = run_jdx("source", "java.util.ArrayList", "--lines", "1-x")
    assert bad.code == 3 and "A-B" in bad.err and "Traceback" not in bad.err


def test_frame_line_outside_the_method_warns(run_jdx):
    inside = _json(run_jdx, "resolve", "at java.base/java.util.HashMap.putVal(HashMap.java:640)")
    assert not [w for w in inside["warnings"] if w["code"] == "FRAME_LINE_OUTSIDE"]
    outside = _json(run_jdx, "resolve", "at java.base/java.util.HashMap.putVal(HashMap.java:9999)")
    assert [w for w in outside["warnings"] if w["code"] == "FRAME_LINE_OUTSIDE"]


def test_cache_gc_summarises_by_kind(run_jdx, tmp_path):
    cache = tmp_path / "cache"
    (cache / "shards" / ("ef" * 16)).mkdir(parents=True)
    stray = cache / "shards" / ("ab" * 16)
    stray.mkdir()
    (stray / "types.parquet").write_bytes(b"x" * 3000)
    (cache / "graphs" / ("cd" * 12)).mkdir(parents=True)
    month_ago = time.time() - 30 * 86400  # used by nothing for longer than `cache gc` keeps what was used
    for p in [*cache.rglob("*")]:
        os.utime(p, (month_ago, month_ago))
    env = {"JDX_CACHE_DIR": str(cache)}
    r = run_jdx("cache", "gc", "--dry-run", env=env)
    assert r.code == 0, r.err
    assert re.search(r"^  shards: 2 \(", r.out, re.M) and re.search(r"^  graphs: 1 \(", r.out, re.M), r.out
    assert "ab" * 16 not in r.out
    verbose = run_jdx("cache", "gc", "--dry-run", "-v", env=env)
    assert f"shards/{'ab' * 16}" in verbose.out
    data = json.loads(run_jdx("cache", "gc", "--dry-run", "--json", env=env).out)["result"]
    assert {s["kind"]: s["count"] for s in data["summary"]} == {"shards": 2, "graphs": 1}
    assert data["bytes"] >= 3000


def test_doc_hint_names_the_jdk_sources_package(tmp_path):
    (tmp_path / "release").write_text('JAVA_VERSION="17.0.9"\n')
    hint = missing_sources_hint("jrt", f"jrt:{tmp_path}!java.base")
    assert "openjdk-17-source" in hint
    assert "--sources" in missing_sources_hint("jar", "jar:/x/gson.jar")
