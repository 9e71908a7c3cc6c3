"""`jdx cypher` after trial T55: a twinned relationship table named in lower case or backquoted still matches its
`_ADDED` twin (a workspace grown from the JDK's graph keeps its jar's calls there); a searched CASE over a bare
boolean is answered right (Kùzu 0.11 takes it as true for the first row only); integral sums are JSON integers and
Python ints; writes are CYPHER_REFUSED like every refused clause; `position` read from a graph shared with another
order of the same artifacts is warned about."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from jdx.graph_schema.cypher_guard import guard_case_conditions, written_columns
from jdx.graph_schema.schema import expand_rel_labels
from tests.fixtures.javac import javac_jar

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)

SOURCES = {
    "tf/Calls.java": "package tf;\n"
                     "public class Calls {\n"
                     "  public String run(java.util.List<String> l) { l.size(); l.add(\"x\"); return l.toString(); }\n"
                     "  public int twice(StringBuilder b) { b.append(1); b.append(2); return b.length(); }\n"
                     "}\n",
    "tf/Other.java": "package tf;\npublic class Other { void go() { new Calls().twice(new StringBuilder()); } }\n",
}


@pytest.fixture(scope="module")
def jar(tmp_path_factory) -> Path:
    return javac_jar(tmp_path_factory.mktemp("cypher-t55"), SOURCES, "tf", "tf.jar", debug=True)[0]


def _rows(run_jdx, query: str, *args: str) -> tuple[list[dict], dict]:
    r = run_jdx("cypher", query, *args, "--json")
    body = json.loads(r.out)
    assert r.code == 0, r.out + r.err
    return body["result"]["rows"], body


# javap -c of the fixture: run calls size, add, toString; twice calls append twice and length; Other#go calls
# StringBuilder.<init>, Calls.<init> and twice; each constructor calls Object.<init>
CALLS = 11


@pytest.mark.parametrize("label", ["INVOKES", "invokes", "`INVOKES`", "`invokes`", "Invokes|REFERENCES"])
def test_every_spelling_of_a_twinned_label_sees_the_calls_a_grown_graph_appended(run_jdx, jar, label):
    """The workspace (the JDK and the jar) grows from the JDK's graph, so the jar's calls are INVOKES_ADDED rows."""
    query = f"MATCH (c:Method)-[r:{label}]->(m:Method) WHERE c.artifact_name = 'tf.jar' RETURN count(*) AS n"
    rows, _ = _rows(run_jdx, query, "--jars", str(jar))
    assert rows == [{"n": CALLS}]


def test_the_rewrite_of_twinned_labels_keeps_the_users_spelling():
    assert expand_rel_labels("MATCH ()-[r:invokes]->()") == "MATCH ()-[r:invokes|INVOKES_ADDED]->()"
    assert expand_rel_labels("MATCH ()-[`r`:`Reads`|:writes]->()") == \
        "MATCH ()-[`r`:`Reads`|READS_ADDED|writes|WRITES_ADDED]->()"
    for untouched in ("MATCH ()-[:`INVOKES_ADDED`]->()", "MATCH ()-[r:invokes|invokes_added]->()",
                      "MATCH (n:`INVOKES`) RETURN n", "RETURN '[r:invokes]', `[r:invokes]`"):
        assert expand_rel_labels(untouched) == untouched


_PROBE = """
import json, kuzu, os, sys, tempfile
c = kuzu.Connection(kuzu.Database(os.path.join(tempfile.mkdtemp(), "db")))
c.execute("CREATE NODE TABLE T(id INT64, b BOOLEAN, c BOOLEAN, s STRING, PRIMARY KEY(id))")
for i, b, cc, s in ((1, 'true', 'true', "'ab'"), (2, 'true', 'false', "'x'"), (3, 'false', 'true', "'ay'"),
                    (4, 'null', 'true', 'null'), (5, 'true', 'null', "'a'"), (6, 'false', 'false', "'z'")):
    c.execute(f"CREATE (:T {{id: {i}, b: {b}, c: {cc}, s: {s}}})")
out = []
for q in json.loads(sys.argv[1]):
    r = c.execute(q)
    rows = []
    while r.has_next():
        rows.append([str(v) for v in r.get_next()])
    out.append(rows)
print(json.dumps(out))
"""

# condition -> the ids of T it holds for (by hand, from the rows above; a null condition holds for none)
CONDITIONS = {"t.b": [1, 2, 5], "(t.b)": [1, 2, 5], "NOT t.b": [3, 6], "t.b AND t.c": [1],
              "t.b OR t.c": [1, 2, 3, 4, 5],
              "t.b XOR t.c": [2, 3], "t.id > 2": [3, 4, 5, 6], "t.s STARTS WITH 'a'": [1, 3, 5],
              "starts_with(t.s, 'a')": [1, 3, 5], "t.b IS NULL": [4], "coalesce(t.b, false)": [1, 2, 5],
              "CASE WHEN t.c THEN t.b ELSE false END": [1]}


def _backend(queries: list[str]) -> list[list[list[str]]]:
    """The rows Kùzu answers, in a child process (the probe graph is its own)."""
    proc = subprocess.run([sys.executable, "-c", _PROBE, json.dumps(queries)], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout)


def test_every_searched_case_condition_is_answered_right_once_guarded():
    texts = [f"MATCH (t:T) RETURN t.id, CASE WHEN {c} THEN 'y' ELSE 'n' END ORDER BY t.id" for c in CONDITIONS]
    texts += [f"MATCH (t:T) RETURN sum(CASE WHEN {c} THEN 1 ELSE 0 END)" for c in CONDITIONS]
    raw = _backend(texts)
    guarded = _backend([guard_case_conditions(q) for q in texts])
    n = len(CONDITIONS)
    for (cond, want), rows, total in zip(CONDITIONS.items(), guarded[:n], guarded[n:]):
        assert [int(i) for i, v in rows if v == "y"] == want, cond
        assert total == [[str(len(want))]], cond
    assert [int(i) for i, v in raw[0] if v == "y"] == [1] and raw[n] == [["1"]]  # the backend's bug, unguarded


def test_the_case_guard_wraps_searched_conditions_only():
    assert guard_case_conditions("RETURN CASE x WHEN true THEN CASE WHEN y THEN 1 END END") == \
        "RETURN CASE x WHEN true THEN CASE WHEN (y) = true THEN 1 END END"
    assert guard_case_conditions("RETURN case when case when a then b end then 'when c then' end, t.case") == \
        "RETURN case when (case when (a) = true then b end) = true then 'when c then' end, t.case"
    for untouched in ("RETURN `CASE WHEN a THEN`", "RETURN 1 // CASE WHEN a THEN 1 END",
                      "RETURN CASE t.b WHEN a THEN 1 END"):
        assert guard_case_conditions(untouched) == untouched


def test_the_cli_answers_a_bare_boolean_condition_right_and_sums_are_integers(run_jdx, jar):
    rows, body = _rows(run_jdx, "UNWIND [true, true, false, null] AS b RETURN sum(CASE WHEN b THEN 1 ELSE 0 END) AS s, "
                       "collect(CASE WHEN b THEN 'y' ELSE 'n' END) AS v", "--no-jdk", "--jars", str(jar))
    assert rows == [{"s": 2, "v": ["y", "y", "n", "n"]}], rows
    rows, _ = _rows(run_jdx, "MATCH (m:Method) WHERE m.artifact_name = 'tf.jar' "
                    "RETURN sum(CASE WHEN m.name = 'run' OR m.name = 'go' THEN 1 ELSE 0 END) AS s, "
                    "sum(CASE WHEN m.external THEN 1 ELSE 0 END) AS e, count(*) AS n", "--no-jdk", "--jars", str(jar))
    assert rows == [{"s": 2, "e": 0, "n": 5}], rows  # run, twice, go and the two constructors; none external


def test_integral_decimal_columns_become_int64():
    from decimal import Decimal

    import pyarrow as pa

    from jdx.commands.foundation import integral_columns

    table = integral_columns(pa.table({"s": pa.array([Decimal(1), Decimal(2)], pa.decimal128(38, 0)),
                                       "big": pa.array([Decimal(10 ** 30)] * 2, pa.decimal128(38, 0)),
                                       "d": pa.array([Decimal("1.5")] * 2, pa.decimal128(10, 2))}))
    assert table.schema.types == [pa.int64(), pa.decimal128(38, 0), pa.decimal128(10, 2)]
    assert table.column("s").to_pylist() == [1, 2]


@pytest.mark.parametrize("query", ["CREATE (p:Package {id: 'x', name: 'x'})", "MATCH (t:Type) SET t.name = 'x'",
                                   "MATCH (t:Type) DETACH DELETE t", "MERGE (p:Package {id: 'x'})"])
def test_writes_are_cypher_refused(run_jdx, jar, query):
    r = run_jdx("cypher", query, "--no-jdk", "--jars", str(jar), "--json")
    env = json.loads(r.out)
    assert r.code == 3 and env["error"]["code"] == "CYPHER_REFUSED" and "read-only" in env["error"]["message"], env


def test_positions_read_from_a_graph_another_order_built_are_warned_about(run_jdx, jar, tmp_path):
    other = javac_jar(tmp_path, {"tg/G.java": "package tg;\npublic class G {}\n"}, "tg", "tg.jar")[0]
    query = "MATCH (a:Artifact) RETURN a.name AS name, a.position AS position ORDER BY position"
    first, body = _rows(run_jdx, query, "--no-jdk", "--jars", str(jar), "--jars", str(other))
    assert [r["name"] for r in first] == ["tf.jar", "tg.jar"] and body["warnings"] == []
    shared, body = _rows(run_jdx, query, "--no-jdk", "--jars", str(other), "--jars", str(jar))
    assert shared == first  # the graph file is the first order's: its positions
    assert [w["code"] for w in body["warnings"]] == ["CYPHER_ARTIFACT_POSITION"]
    assert [p["artifact"] for p in body["provenance"]] == ["tg.jar", "tf.jar"]  # where the warning points
    _, body = _rows(run_jdx, "MATCH (a:Artifact) RETURN a.name", "--no-jdk", "--jars", str(other), "--jars", str(jar))
    assert body["warnings"] == []


def test_columns_without_an_alias_are_named_as_the_query_writes_them(run_jdx, jar):
    """Kùzu names `count(t)` `COUNT(t._ID)` and `count(*)` `COUNT_STAR()`: the answer says what the user wrote, an
    alias and a property as Kùzu names them already; `RETURN *` and UNION keep Kùzu's names."""
    q = ("MATCH (t:Type) WHERE t.fqn STARTS WITH 'tf.' RETURN t.fqn,  count( t ), count(*) AS n, "
         "sum(CASE WHEN t.fqn = 'tf.Calls' THEN 1 ELSE 0 END) ORDER BY t.fqn")
    rows, body = _rows(run_jdx, q, "--no-jdk", "--jars", str(jar))
    summed = "sum(CASE WHEN t.fqn = 'tf.Calls' THEN 1 ELSE 0 END)"
    assert body["result"]["columns"] == ["t.fqn", "count( t )", "n", summed]
    assert rows[0] == {"t.fqn": "tf.Calls", "count( t )": 1, "n": 1, summed: 1}
    text = run_jdx("cypher", "MATCH (t:Type) WHERE t.fqn = 'tf.Calls' RETURN count(t)", "--no-jdk",
                   "--jars", str(jar)).out
    assert text.splitlines()[0].strip() == "count(t)", text
    assert written_columns("MATCH (t) RETURN *", ["t"]) == ["t"]
    assert written_columns("MATCH (t) RETURN count(t) UNION MATCH (t) RETURN count(t)", ["X"]) == ["X"]
    assert written_columns("MATCH (t) WITH t, count(t) AS c RETURN DISTINCT c, max(t.x) // note",
                           ["c", "MAX(t.x)"]) == ["c", "max(t.x)"]


def test_columns_say_their_types_and_text_writes_values_as_cypher_does(run_jdx, jar):
    """T62: JSON named the columns but not their types (an empty or null column said nothing of what it holds); text
    printed Python's `False`, a null as nothing and a node as Kùzu's internals (`{_ID: {offset: …}, _LABEL: …}`)."""
    q = ("MATCH (t:Type)-[e:EXTENDS]->(s:Type) WHERE t.fqn = 'tf.Calls' "
         "RETURN t.fqn, t.shadowed, t.interfaces, count(*) AS n, s, e, t.outer")
    _, body = _rows(run_jdx, q, "--jars", str(jar))
    assert body["result"]["types"] == ["STRING", "BOOL", "STRING[]", "INT64", "NODE", "REL", "STRING"]
    text = run_jdx("cypher", q, "--jars", str(jar)).out.splitlines()
    cells = text[1].split()
    assert cells[:4] == ["tf.Calls", "false", "[]", "1"] and cells[-1] == "null", text
    assert "(:Type {id: java/lang/Object," in text[1] and "[:EXTENDS]" in text[1] and "_ID" not in text[1], text


@pytest.mark.parametrize("query, nearest", [("MATCH (t:Typo) RETURN t", "nearest tables: Type,"),
                                            ("MATCH (t:Type)-[:INVOKE]->(m) RETURN m", "nearest tables: INVOKES,"),
                                            ("MATCH (t:Type) RETURN t.fqm", "nearest properties: fqn,")])
def test_a_table_or_property_the_graph_lacks_is_answered_with_the_nearest(run_jdx, jar, query, nearest):
    r = run_jdx("cypher", query, "--no-jdk", "--jars", str(jar), "--json")
    error = json.loads(r.out)["error"]
    assert r.code == 3 and error["code"] == "USAGE" and error["hint"].startswith(nearest), error
