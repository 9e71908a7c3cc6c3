"""`jdx cypher` reads the workspace graph and nothing else (spec §7.4, §17): clauses that read or write files, load
code, open other databases or change settings are refused before Kùzu sees the query (exit 3, CYPHER_REFUSED), on
every adapter, while reading queries — keywords in strings, names and comments included — still run."""

from __future__ import annotations

import json

import pytest

from jdx.graph_schema.cypher_guard import CypherRefused, check_read_only, picks_unordered

READS = [
    "MATCH (t:Type) RETURN count(t)",
    "MATCH (load:Type) RETURN load.id AS copy",
    "MATCH (load:Type) RETURN load",
    "MATCH (t:Type) WHERE t.fqn = 'LOAD FROM x' RETURN t",
    'MATCH (t:Type) WHERE t.fqn = "COPY x TO y" RETURN t',
    "MATCH (m:Method) // LOAD FROM '/etc/passwd'\nRETURN m.name",
    "MATCH (m:Method) /* INSTALL json */ RETURN m.name",
    "MATCH (t:`COPY`) RETURN t",
    "MATCH (t:Type) RETURN t.copy, t.load, t.use",
    "CALL show_tables() RETURN *",
    "call TABLE_INFO('Type') RETURN *",
    "MATCH (copy:Type) WITH copy RETURN copy.fqn",  # a variable after WITH, never a clause
    "MATCH (load:Type) WITH load ORDER BY load.fqn RETURN DISTINCT load",
    "MATCH (use:Type) UNWIND [use] AS x RETURN x",
]
OUTSIDE = [
    "LOAD FROM '/etc/hostname' (header=false, file_format='csv') RETURN *",
    "load from '/etc/hostname' RETURN *",
    "LOAD WITH HEADERS (a STRING) FROM '/etc/passwd' RETURN *",
    "MATCH (t:Type) WITH t LOAD FROM 'x.csv' RETURN *",
    "UNWIND [1] AS x LOAD FROM 'x.csv' RETURN *",
    "MATCH (t:Type) WITH t, 1 AS one COPY Type TO '/tmp/x.csv'",
    "LOAD EXTENSION '/lib/x86_64-linux-gnu/libm.so.6'",
    "INSTALL json",
    "COPY (MATCH (t:Type) RETURN t.id) TO '/tmp/x.csv'",
    "COPY Type TO '/tmp/x.parquet'",
    "ATTACH '/tmp/other.kz' AS o (dbtype kuzu)",
    "DETACH o",
    "USE o",
    "EXPORT DATABASE '/tmp/x'",
    "IMPORT DATABASE '/tmp/x'",
    "CALL threads=1",
    "CALL file_search_path='/etc'",
    "CALL show_tables() RETURN *; LOAD FROM '/etc/passwd' RETURN *",
    "CHECKPOINT",  # on a read-only graph: fails, leaving .shadow/.wal files no later reader can open
    "BEGIN TRANSACTION",
    "COMMIT",
    "ROLLBACK",
    "RETURN 1; RETURN 2",  # several statements: a list of results that crashed the reader
    "MATCH (n) DETACH DELETE n",  # a write: refused like the rest (the read-only graph would fail it as USAGE)
]


@pytest.mark.parametrize("query", READS)
def test_reading_queries_pass(query):
    check_read_only(query)


@pytest.mark.parametrize("query", OUTSIDE)
def test_queries_reaching_outside_the_graph_are_refused(query):
    with pytest.raises(CypherRefused) as info:
        check_read_only(query)
    assert info.value.exit_code == 3 and info.value.code == "CYPHER_REFUSED"


def test_the_cli_refuses_before_reading_the_file(run_jdx, tmp_path):
    secret = tmp_path / "secret.csv"
    secret.write_text("jdx-secret-line\n")
    r = run_jdx("cypher", f"LOAD FROM '{secret}' (header=false) RETURN *", "--json")
    assert r.code == 3
    body = json.loads(r.out)
    assert body["ok"] is False and body["error"]["code"] == "CYPHER_REFUSED"
    assert "jdx-secret-line" not in r.out + r.err
    ok = run_jdx("cypher", "MATCH (a:Artifact) RETURN count(a) AS n", "--json")
    assert ok.code == 0 and json.loads(ok.out)["result"]["rows"][0]["n"] > 0


def test_a_thin_client_maps_the_refusal_to_exit_3():
    """A daemon's envelope carries the error code only: the client, which never imports the guard, must still
    exit 3 (it maps codes through jdx.errors)."""
    import subprocess
    import sys

    code = subprocess.run([sys.executable, "-c", "from jdx.errors import exit_code_of; import sys; "
                           "sys.exit(exit_code_of({'ok': False, 'error': {'code': 'CYPHER_REFUSED'}}))"]).returncode
    assert code == 3


@pytest.mark.parametrize("query, unordered", [
    ("MATCH (t:Type) RETURN t.fqn LIMIT 3", True),
    ("MATCH (t:Type) RETURN t.fqn ORDER BY t.fqn LIMIT 3", False),
    ("MATCH (t:Type) RETURN t.fqn", False),
    # a WITH keeps 3 arbitrary rows though the query orders at its end
    ("MATCH (t:Type)-[:IMPLEMENTS]->(i:Type) WITH i, count(t) AS n LIMIT 3 RETURN i.fqn, n ORDER BY n", True),
    ("MATCH (t:Type)-[:IMPLEMENTS]->(i:Type) WITH i, count(t) AS n ORDER BY n DESC LIMIT 3 RETURN i.fqn, n", False),
    ("MATCH (t:Type) WITH t ORDER BY t.fqn SKIP 2 RETURN t.fqn LIMIT 1", True),
    ("MATCH (t:Type) RETURN t.limit AS skip", False),  # names, not clauses
])
def test_unordered_picks_are_found_per_projection(query, unordered):
    assert picks_unordered(query) is unordered

