"""COPY from Python tables (what every incremental update appends with) works in a process that never imported
`importlib.util`: Kùzu's Python scan calls `importlib.util.find_spec` without importing it."""

from __future__ import annotations

import subprocess
import sys

SCRIPT = r"""
import sys
from pathlib import Path
import pyarrow as pa
from jdx.graph_schema.schema import NODE_TABLES, ddl
from jdx.graph_schema.store import GraphStore, _with_schema_columns
store = GraphStore(Path(sys.argv[1]) / "graph.kz", read_only=False)
for statement in ddl():
    store._conn.execute(statement)
table = pa.table({"id": ["p/a", "p/b"], "name": ["p.a", "p.b"]})
# as in a plain install: no pandas (find_spec answers None), and nothing imported importlib.util
sys.modules["pandas"] = None
import importlib
sys.modules.pop("importlib.util", None)
if hasattr(importlib, "util"):
    del importlib.util
store._copy_node("Package", _with_schema_columns(table, NODE_TABLES["Package"]))
print(store.query("MATCH (p:Package) RETURN count(*) AS n").column(0)[0].as_py())
store.close()
"""


def test_copy_from_a_python_table_needs_no_earlier_import_of_importlib_util(tmp_path):
    proc = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-1500:]
    assert proc.stdout.strip().splitlines()[-1] == "2"


def test_a_spool_file_appended_table_by_table_has_whole_row_groups(tmp_path):
    """Tables appended one artifact at a time are written in row groups of exactly SPOOL_ROW_GROUP rows (the last
    one the rest): groups cut at each table's end left Kùzu's COPY with part-filled node groups."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from jdx.graph_schema.store import SPOOL_ROW_GROUP, _SpoolAppender

    appender = _SpoolAppender(tmp_path / "spool.parquet")
    sizes = [SPOOL_ROW_GROUP // 3 + 7, SPOOL_ROW_GROUP // 2, 5, SPOOL_ROW_GROUP + 11, 1, SPOOL_ROW_GROUP // 4]
    start = 0
    for n in sizes:
        appender.add(pa.table({"id": pa.array(range(start, start + n), pa.int64())}))
        start += n
    paths = appender.close()
    assert paths == [tmp_path / "spool.parquet"]
    meta = pq.ParquetFile(paths[0]).metadata
    groups = [meta.row_group(i).num_rows for i in range(meta.num_row_groups)]
    assert sum(groups) == start and all(g == SPOOL_ROW_GROUP for g in groups[:-1]) and 0 < groups[-1] <= SPOOL_ROW_GROUP
    assert pq.read_table(tmp_path / "spool.parquet")["id"].to_pylist() == list(range(start))


def test_a_spool_file_split_every_so_many_rows_keeps_whole_row_groups_and_every_row(tmp_path):
    """A node table's spool (`split_rows`) is several files of at most that many rows each (one COPY statement
    each), every file but the last full, in whole row groups, the rows in order."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from jdx.graph_schema.store import SPOOL_ROW_GROUP, _SpoolAppender

    split = 2 * SPOOL_ROW_GROUP
    appender = _SpoolAppender(tmp_path / "spool.parquet", split_rows=split)
    sizes = [SPOOL_ROW_GROUP + 3, 3 * SPOOL_ROW_GROUP, 17, SPOOL_ROW_GROUP // 2]
    start = 0
    for n in sizes:
        appender.add(pa.table({"id": pa.array(range(start, start + n), pa.int64())}))
        start += n
    paths = appender.close()
    assert len(paths) == -(-start // split) and paths[0] == tmp_path / "spool.parquet"
    rows = [pq.ParquetFile(p).metadata.num_rows for p in paths]
    assert all(r == split for r in rows[:-1]) and 0 < rows[-1] <= split, rows
    for p in paths:
        meta = pq.ParquetFile(p).metadata
        groups = [meta.row_group(i).num_rows for i in range(meta.num_row_groups)]
        assert all(g == SPOOL_ROW_GROUP for g in groups[:-1]), (p, groups)
    assert pa.concat_tables([pq.read_table(p) for p in paths])["id"].to_pylist() == list(range(start))


def test_the_build_waits_for_the_spool_thread_past_its_bound_and_every_table_is_written(tmp_path, monkeypatch):
    """Tables handed to a GraphWriter wait in memory for its spool thread; past SPOOL_PENDING_BYTES the builder waits
    for the oldest to be written instead of queueing more (at a Maven repository's scale ~0.3 GB of resolved edges
    queued at the build's peak). Nothing handed over is lost: the edges are all in the committed graph."""
    import threading

    import pyarrow as pa

    from jdx.graph_schema import store
    from jdx.graph_schema.store import GraphStore, GraphWriter

    n = 20_000
    types = pa.table({"id": pa.array([f"p/T{i}" for i in range(n)], pa.string())})
    edges = pa.table({"from": types["id"], "to": pa.array([f"p/T{(i + 1) % n}" for i in range(n)], pa.string())})
    monkeypatch.setattr(store, "SPOOL_PENDING_BYTES", edges.nbytes + 1)  # one table may wait, not two
    writer = GraphWriter(tmp_path / "g")
    gate = threading.Event()
    try:
        writer.nodes("Type", types)
        writer._spooler.submit(gate.wait)  # the spool thread is busy until the gate opens
        writer.hold("EXTENDS", "Type", "Type", edges)  # queued: within the bound
        handed = threading.Event()
        second = threading.Thread(target=lambda: (writer.hold("EXTENDS", "Type", "Type", edges), handed.set()))
        second.start()
        assert not handed.wait(1.0), "a second table was queued past the bound while the spool thread was busy"
        gate.set()
        assert handed.wait(30), "the builder never went on once the spool thread had written the first table"
        second.join()
        assert writer._pending_bytes <= store.SPOOL_PENDING_BYTES
        build = writer.commit({"artifacts": []})
    except BaseException:
        gate.set()
        writer.abort()
        raise
    with GraphStore(build / "graph.kz") as g:
        assert g._conn.execute("MATCH ()-[r:EXTENDS]->() RETURN count(r)").get_next()[0] == 2 * n
