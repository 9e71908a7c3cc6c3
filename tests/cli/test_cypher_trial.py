"""`jdx cypher` after a trial (spec §7.4, §16, determinism): statements that write or hold the database's state and
multi-statement queries are refused (exit 3), a graph left with a failed reader's side files still opens, a
zero-column answer is an empty table, the relationship-label rewrite leaves strings alone and keeps `label(r)`'s
column name, unordered answers are sorted (a LIMIT without ORDER BY warned about), `$parameters` are bound or named,
and `jdx schema`/docs/graph-schema.md say what the rows hold."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from jdx.errors import CypherRefused, NoIndexError, UsageError
from jdx.graph_schema.cypher_guard import check_read_only
from jdx.graph_schema.schema import expand_rel_labels
from tests.fixtures.javac import javac_jar

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)

ROOT = Path(__file__).resolve().parents[2]
SOURCES = {
    "ct/Calls.java": "package ct;\n"
                     "public class Calls implements Runnable {\n"
                     "  public void run() { b(); c(); zeta(); alpha(); }\n"
                     "  void b() { c(); }\n"
                     "  void c() { alpha(); }\n"
                     "  void zeta() { }\n"
                     "  void alpha() { }\n"
                     "}\n",
    "ct/Sub.java": "package ct;\npublic interface Sub extends Runnable, java.io.Serializable {}\n",
}


def _workspace(root: Path, tag: str = "") -> list[str]:
    """The fixture jar; a `tag` adds a class `ct.<tag>`, so the workspace (and its graph) is the test's own."""
    sources = {**SOURCES, f"ct/{tag}.java": f"package ct;\nclass {tag} {{}}\n"} if tag else SOURCES
    jar, _ = javac_jar(root, sources, "ct", "ct.jar", debug=True)
    return ["--no-jdk", "--jars", str(jar)]


@pytest.fixture(scope="module")
def ws(tmp_path_factory) -> list[str]:
    return _workspace(tmp_path_factory.mktemp("cypher-trial"))


def _json(run_jdx, ws, *args):
    r = run_jdx("cypher", *args, *ws, "--json")
    return r.code, json.loads(r.out)


def _build(run_jdx, ws) -> Path:
    r = run_jdx("index", *ws, "--json")
    assert r.code == 0, r.out + r.err
    return Path(json.loads(r.out)["result"]["graph"])


REFUSED = ["CHECKPOINT", "checkpoint;", "BEGIN TRANSACTION", "BEGIN TRANSACTION READ ONLY", "COMMIT", "ROLLBACK",
           "EXPLAIN CHECKPOINT", "UPDATE json", "RETURN 1; RETURN 2", "RETURN 1;RETURN 2;",
           "MATCH (t:Type) RETURN t; // x\nRETURN 1"]
# a trailing `;` (comments after it) and names spelled like the refused statements still pass
PASSING = ["RETURN 1;", "RETURN 1; // done\n/* really */ ", "RETURN ';' AS s",
           "MATCH (begin:Type) RETURN begin.id AS commit", "RETURN 1 AS checkpoint"]


@pytest.mark.parametrize("query", REFUSED)
def test_state_and_multi_statement_queries_are_refused_and_names_pass(query):
    with pytest.raises(CypherRefused):
        check_read_only(query)
    for passing in PASSING:
        check_read_only(passing)


@pytest.mark.soak
def test_checkpoint_is_refused_and_leaves_the_graph_readable(run_jdx, tmp_path):
    ws = _workspace(tmp_path, "Checkpoint")
    graph = _build(run_jdx, ws)
    for query in ("CHECKPOINT", "BEGIN TRANSACTION", "RETURN 1; RETURN 2"):
        code, body = _json(run_jdx, ws, query)
        assert code == 3 and body["error"]["code"] == "CYPHER_REFUSED", body
    assert sorted(p.name for p in graph.iterdir() if p.name.startswith("graph.kz")) == ["graph.kz"]
    code, body = _json(run_jdx, ws, "MATCH (t:Type) RETURN count(t) AS n")
    assert code == 0 and body["result"]["rows"] == [{"n": 6}]


def _stray_side_files(graph_file: Path) -> None:
    """What a reader's CHECKPOINT left before the guard refused it: `.shadow` and `.wal` beside the file."""
    from jdx.graph_schema.store import backend

    mod = backend()
    db = mod.Database(str(graph_file), read_only=True)
    conn = mod.Connection(db)
    with pytest.raises(RuntimeError):
        conn.execute("CHECKPOINT")
    conn.close()
    db.close()
    assert graph_file.with_name("graph.kz.shadow").exists()


@pytest.mark.soak
def test_a_published_graph_with_a_readers_side_files_still_opens(run_jdx, tmp_path):
    ws = _workspace(tmp_path, "Strays")
    graph = _build(run_jdx, ws)
    _stray_side_files(graph / "graph.kz")
    code, body = _json(run_jdx, ws, "MATCH (t:Type) RETURN count(t) AS n")
    assert code == 0 and body["result"]["rows"] == [{"n": 6}], body
    assert not (graph / "graph.kz.shadow").exists() and not (graph / "graph.kz.wal").exists()


@pytest.mark.soak
def test_an_unpublished_graph_with_side_files_is_no_index_with_the_way_out(run_jdx, ws, tmp_path):
    from jdx.graph_schema.store import GraphStore

    copy = tmp_path / "graph.kz"
    shutil.copyfile(_build(run_jdx, ws) / "graph.kz", copy)
    _stray_side_files(copy)
    with pytest.raises(NoIndexError) as info:
        GraphStore(copy)
    assert info.value.exit_code == 4 and "graph.kz.shadow" in info.value.message
    assert "jdx index --force" in info.value.hint
    assert copy.with_name("graph.kz.shadow").exists()  # not a build jdx published: left as it is


@pytest.mark.soak  # slow: the soak runs it (.ci/run)
def test_a_zero_column_answer_is_an_empty_table(run_jdx, ws):
    from jdx.graph_schema.store import GraphStore

    with GraphStore(_build(run_jdx, ws) / "graph.kz") as store:
        table = store.query("CALL enable_semi_mask=false")
    assert table.num_columns == 0 and table.num_rows == 0


def test_the_store_answers_several_statements_with_the_last_without_crashing(run_jdx, ws):
    """Kùzu chains several statements' results to the first: reading the last after the first went crashed the
    process (the CLI, the daemon, a notebook kernel). In a child process, so a crash fails this test only."""
    import subprocess
    import sys

    graph = _build(run_jdx, ws) / "graph.kz"
    code = ("import sys; from pathlib import Path; from jdx.graph_schema.store import GraphStore\n"
            f"s = GraphStore(Path({str(graph)!r}))\n"
            "rows = [s.query('RETURN 1 AS a; RETURN 2 AS b').to_pylist() for _ in range(5)]\n"
            "assert rows[-1] == [{'b': 2}] and s.rows('RETURN 1 AS a; RETURN 3 AS c') == [{'c': 3}], rows\n"
            "s.close()\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]


def test_the_label_rewrite_leaves_strings_names_and_comments_alone(run_jdx, ws):
    for query in ("RETURN '-[r:INVOKES]->' AS s", 'RETURN "label(x)" AS s', "RETURN `label(r)`",
                  "MATCH (a) // -[r:READS]-> label(a)\nRETURN a"):
        assert expand_rel_labels(query) == query
    assert expand_rel_labels("MATCH ()-[r:INVOKES]->() WHERE r.kind = ':WRITES]' RETURN r") == \
        "MATCH ()-[r:INVOKES|INVOKES_ADDED]->() WHERE r.kind = ':WRITES]' RETURN r"
    code, body = _json(run_jdx, ws, "RETURN '-[r:INVOKES]->' AS s, 'label(x)' AS t")
    assert code == 0 and body["result"]["rows"] == [{"s": "-[r:INVOKES]->", "t": "label(x)"}]


def test_an_unaliased_label_keeps_its_name(run_jdx, ws):
    code, body = _json(run_jdx, ws, "MATCH (:Method)-[r]->() RETURN label(r), count(*) AS n ORDER BY label(r)")
    assert code == 0 and body["result"]["columns"] == ["label(r)", "n"]
    assert body["result"]["rows"][0] == {"label(r)": "INVOKES", "n": 7}  # six calls and the constructor's super()
    code, body = _json(run_jdx, ws, "MATCH (:Method)-[r]->() RETURN DISTINCT label(r) AS kind, label(r) = 'INVOKES'")
    assert code == 0 and body["result"]["columns"][0] == "kind"


def test_unordered_rows_come_sorted_and_a_bare_limit_is_warned_about(run_jdx, ws):
    query = "MATCH (m:Method) WHERE NOT m.external RETURN m.name"
    code, body = _json(run_jdx, ws, query)
    names = [r["m.name"] for r in body["result"]["rows"]]
    assert code == 0 and names == sorted(names) and len(names) == 6 and body["warnings"] == []
    code, body = _json(run_jdx, ws, query, "--limit", "2")
    assert [r["m.name"] for r in body["result"]["rows"]] == sorted(names)[:2]
    code, body = _json(run_jdx, ws, query + " LIMIT 3")
    assert code == 0 and [w["code"] for w in body["warnings"]] == ["CYPHER_UNORDERED_LIMIT"]
    code, body = _json(run_jdx, ws, query + " ORDER BY m.name DESC LIMIT 3")
    assert [r["m.name"] for r in body["result"]["rows"]] == sorted(names, reverse=True)[:3]
    assert body["warnings"] == []


def test_parameters_are_bound_or_named(run_jdx, ws, jdx_home):
    query = "MATCH (m:Method) WHERE m.name = $name RETURN m.id"
    r = run_jdx("cypher", query, *ws)
    assert r.code == 3 and "$name" in r.err and "--param name=" in r.err
    code, body = _json(run_jdx, ws, query, "--param", "name=zeta")
    assert code == 0 and body["result"]["rows"] == [{"m.id": "ct/Calls#zeta()V"}]
    code, body = _json(run_jdx, ws, "MATCH (m:Method) WHERE m.first_line > $n RETURN count(*) AS c", "--param", "n=0")
    assert code == 0 and body["result"]["rows"][0]["c"] > 0
    import jdx

    with jdx.open(jars=[ws[2]], jdk=False, cache_dir=str(jdx_home / "cache")) as notebook:
        with pytest.raises(UsageError) as info:
            notebook.cypher(query, {"nmae": "zeta"})
        assert "$name" in info.value.message
        with pytest.raises(CypherRefused):
            notebook.cypher("RETURN 1; RETURN 2")
        assert notebook.cypher(query, {"name": "zeta"}).to_pylist() == [{"m.id": "ct/Calls#zeta()V"}]


def test_schema_says_what_the_rows_hold(run_jdx, ws):
    r = run_jdx("schema", *ws, "--json")
    data = json.loads(r.out)["result"]
    rels = {t["name"]: t["meaning"] for t in data["relationships"]}
    code, body = _json(run_jdx, ws, "MATCH (:Type {id: 'ct/Sub'})-[r]->(s:Type) RETURN label(r) AS l, s.id "
                                    "ORDER BY s.id")
    assert {row["l"] for row in body["result"]["rows"]} == {"IMPLEMENTS"}  # an interface's superinterfaces
    assert "superinterface" in rels["IMPLEMENTS"] and "interfaces have none" in rels["EXTENDS"]
    kind = next(p["meaning"] for n in data["nodes"] if n["name"] == "Type" for p in n["properties"]
                if p["name"] == "kind")
    code, body = _json(run_jdx, ws, "MATCH (t:Type) RETURN DISTINCT t.kind AS k")
    assert {row["k"] for row in body["result"]["rows"]} == {"class", "interface", "unknown"}
    assert all(k in kind for k in ("annotation", "class", "enum", "interface", "record", "unknown"))
    assert "module" not in kind
    doc = (ROOT / "docs" / "graph-schema.md").read_text()
    assert "`jdk_internal`" in doc and "`lower`" in doc and "NOT t.shadowed" in doc
    assert "RETURN c.id, r.line LIMIT" not in doc


def test_read_index_takes_a_str(run_jdx, ws):
    from jdx.graph_schema.search_files import read_index

    names, symbols = read_index(str(_build(run_jdx, ws)))
    assert "zeta" in names.column("name").to_pylist() and symbols.num_rows > 0
