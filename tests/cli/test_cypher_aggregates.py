"""A grouped projection with an aggregate over DISTINCT before a plain one is refused (T36): Kùzu 0.11 answers the
later aggregate wrong (`RETURN m.id, count(DISTINCT c), count(r)` gave `calls 0` beside 302 callers, where javap
counts 408 call sites) or aborts the process on a malloc assertion (`collect` after `count(DISTINCT …)`). The oracle
is the backend itself, run in a child process (an abort must not take the test run with it): the refused order
answers wrong, the order the hint gives answers right."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from jdx.graph_schema.cypher_guard import CypherRefused, check_aggregates

_PROBE = """
import kuzu, os, sys, tempfile
db = kuzu.Database(os.path.join(tempfile.mkdtemp(), "db"))
c = kuzu.Connection(db)
c.execute("CREATE NODE TABLE T(id STRING, g STRING, PRIMARY KEY(id))")
for i, g in (("1", "a"), ("2", "a"), ("3", "a"), ("4", "b")):
    c.execute(f"CREATE (:T {{id: '{i}', g: '{g}'}})")
r = c.execute(sys.argv[1])
rows = []
while r.has_next():
    rows.append(r.get_next())
print(rows)
"""


def _backend(query: str) -> str:
    return subprocess.run([sys.executable, "-c", _PROBE, query], capture_output=True, text=True, timeout=60).stdout


REFUSED = ["MATCH (t:T) RETURN t.g, count(DISTINCT t.id), count(t) ORDER BY t.g",
           "MATCH (t:T) WITH t.g AS g, count(DISTINCT t.id) AS a, count(*) AS b RETURN g, a, b ORDER BY g"]


@pytest.mark.parametrize("query", REFUSED)
def test_the_backend_answers_that_order_wrong_and_it_is_refused(query):
    assert _backend(query).strip() in ("[['a', 3, 0], ['b', 1, 0]]", "")  # wrong (0), or no answer at all
    with pytest.raises(CypherRefused) as refused:
        check_aggregates(query)
    assert "put the aggregates without DISTINCT first" in refused.value.hint


def test_the_order_the_hint_gives_is_answered_right_and_runs():
    query = "MATCH (t:T) RETURN t.g, count(t), count(DISTINCT t.id) ORDER BY t.g"
    assert _backend(query).strip() == "[['a', 3, 3], ['b', 1, 1]]"
    check_aggregates(query)


@pytest.mark.parametrize("query", ["MATCH (t:T) RETURN count(DISTINCT t.id), count(t)",  # no grouping key: right
                                   "MATCH (t:T) RETURN t.g, count(DISTINCT t.id), count(DISTINCT t.g)",
                                   "MATCH (t:T) RETURN t.count, count(DISTINCT t.id)",
                                   "MATCH (t:T) WITH t, count(DISTINCT t.id) AS a RETURN t.g, a, count(t)"])
def test_other_shapes_run(query):
    check_aggregates(query)


def test_the_cli_refuses_it_with_exit_3(run_jdx):
    r = run_jdx("cypher", "MATCH (c:Method)-[r:INVOKES]->(m:Method) RETURN m.id, count(DISTINCT c) AS callers, "
                "count(r) AS calls", "--json")
    env = json.loads(r.out)
    assert r.code == 3 and env["error"]["code"] == "CYPHER_REFUSED", env


def test_brief_prints_the_rows_alone(run_jdx):
    """T45: `jdx cypher --brief` printed the column header and the row count as without it (spec §8: bare rows)."""
    query = "MATCH (t:Type) WHERE t.fqn STARTS WITH 'java.util.HashMap' RETURN t.fqn AS fqn ORDER BY fqn LIMIT 2"
    full = run_jdx("cypher", query)
    brief = run_jdx("cypher", query, "--brief")
    assert full.code == 0 and brief.code == 0, full.err + brief.err
    lines = full.out.splitlines()
    assert lines[0].strip() == "fqn" and lines[-1] == "2 rows", lines
    assert brief.out.splitlines() == [line.rstrip() for line in lines[1:-1]], brief.out
