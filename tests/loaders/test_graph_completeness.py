"""Every row the graph build hands to the store lands in the graph: node and edge counts of the database
equal the tables `build_graph_tables` produced, on the JDK (70 module artifacts, several without any edge of
some kind, so their per-artifact chunks are empty) and on the Debian jars.

Kùzu 0.11's COPY from an Arrow table silently drops rows after an empty chunk; this is the test that caught it.
"""

from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc
import pytest

from tests.service import JdxService, Options
from jdx.graph_schema.schema import NODE_TABLES, REL_TABLES, rel_labels
from jdx.loaders.graph_build import build_graph_tables
from jdx.loaders.shards import load_shard
from tests.conftest import GSON, GUAVA, LANG3, require


class _Tables:
    """A GraphSink that keeps what it is given."""

    def __init__(self):
        self.nodes_seen: dict[str, list[pa.Table]] = {}
        self.rels_seen: dict[tuple[str, str, str], list[pa.Table]] = {}

    def nodes(self, label: str, table: pa.Table) -> None:
        self.nodes_seen.setdefault(label, []).append(table)

    def rels(self, name: str, src: str, dst: str, table: pa.Table) -> None:
        self.rels_seen.setdefault((name, src, dst), []).append(table)


@pytest.mark.parametrize("jars,jdk", [pytest.param([], True, id="jdk", marks=pytest.mark.soak),
                                      pytest.param([GSON, GUAVA, LANG3], False, id="debian-jars", marks=pytest.mark.soak)])
def test_database_holds_every_built_row(jdx_home, monkeypatch, jars, jdk):
    for jar in jars:
        require(jar)
    monkeypatch.setenv("JDX_CACHE_DIR", str(jdx_home / "cache"))
    service = JdxService(Options(jars=[str(j) for j in jars], jdk=jdk))
    store = service.store()  # builds the graph (and the shards) when missing
    shards = [load_shard(service.cache, a) for a in service.artifacts()]
    assert all(s is not None for s in shards)
    sink = _Tables()
    build_graph_tables(shards, sink)
    for label in NODE_TABLES:
        want = sum(t.num_rows for t in sink.nodes_seen.get(label, []))
        got = store.rows(f"MATCH (n:{label}) RETURN count(n) AS n")[0]["n"]
        assert got == want, (label, got, want)
    for name, (pairs, _cols) in REL_TABLES.items():
        for src, dst in pairs:
            tables = sink.rels_seen.get((name, src, dst), [])
            want = sum(t.num_rows for t in tables)
            got = store.rows(f"MATCH (:{src})-[r:{rel_labels(name)}]->(:{dst}) RETURN count(r) AS n")[0]["n"]
            assert got == want, (name, src, dst, got, want)
    # the case that went missing: declaration-level `throws` references exist for every throws clause
    throws = store.rows("MATCH (:Method)-[r:REFERENCES|REFERENCES_ADDED]->(:Type) WHERE r.kind = 'throws' "
                        "RETURN count(r) AS n")[0]["n"]
    clauses = store.rows("MATCH (m:Method) WHERE NOT m.external RETURN sum(size(m.exceptions)) AS n")[0]["n"]
    assert throws == clauses > 0
    service.close()


def test_empty_chunks_do_not_lose_rows(tmp_path):
    """The store's COPY of a table whose columns have empty chunks between full ones keeps every row."""
    from jdx.graph_schema.store import GraphStore, GraphWriter

    def types(lo: int, hi: int) -> pa.Table:
        return pa.table({"id": pa.array([f"t/T{i}" for i in range(lo, hi)], pa.string())})

    table = pa.concat_tables([types(i * 10, i * 10 + 10) if i % 3 else types(0, 0) for i in range(30)])
    assert table.column(0).num_chunks == 30 and table.num_rows == 200
    edges = pa.table({"from": pc.take(table["id"], pa.array(range(0, 199))),
                      "to": pc.take(table["id"], pa.array(range(1, 200)))})
    edges = pa.concat_tables([edges.slice(0, 50), edges.slice(50, 0), edges.slice(50)])
    writer = GraphWriter(tmp_path / "g")
    writer.nodes("Type", table)
    writer.rels("EXTENDS", "Type", "Type", edges)
    build = writer.commit({})
    store = GraphStore(build / "graph.kz", read_only=True)
    assert store.rows("MATCH (t:Type) RETURN count(t) AS n")[0]["n"] == 200
    assert store.rows("MATCH ()-[r:EXTENDS]->() RETURN count(r) AS n")[0]["n"] == 199
    store.close()


def test_held_edges_of_many_parts_reach_the_graph_in_one_copy(tmp_path, monkeypatch):
    """Edges held part by part (an artifact at a time) are appended to one spool file in row groups of at most
    SPOOL_ROW_GROUP rows, copied once, and every row arrives; a part that cannot be appended fails the build."""
    import pyarrow.parquet as pq

    from jdx.graph_schema import store as store_module
    from jdx.graph_schema.store import SPOOL_ROW_GROUP, GraphStore, GraphWriter
    from jdx.errors import JdxError

    n = SPOOL_ROW_GROUP + 500
    ids = pa.array([f"t/T{i}" for i in range(n)], pa.string())
    copied: list[tuple[str, int, int]] = []
    original = GraphStore._copy_file

    def watched(self, name, path, src=None, dst=None):
        meta = pq.ParquetFile(path).metadata
        copied.append((name, meta.num_rows, max(meta.row_group(i).num_rows for i in range(meta.num_row_groups))))
        return original(self, name, path, src, dst)

    monkeypatch.setattr(store_module.GraphStore, "_copy_file", watched)
    writer = GraphWriter(tmp_path / "g")
    writer.nodes("Type", pa.table({"id": ids}))
    cuts = [0, 7, 7, 40_000, n - 1]  # parts of 7, 0, 39,993 and the rest (over a row group) rows
    for lo, hi in zip(cuts, cuts[1:] + [n - 1]):
        writer.hold("EXTENDS", "Type", "Type", pa.table({"from": ids.slice(lo, hi - lo),
                                                         "to": ids.slice(lo + 1, hi - lo)}))
    writer.release()
    build = writer.commit({})
    monkeypatch.undo()
    assert [c for c in copied if c[0] == "EXTENDS"] == [("EXTENDS", n - 1, SPOOL_ROW_GROUP)]
    store = GraphStore(build / "graph.kz", read_only=True)
    assert store.rows("MATCH ()-[r:EXTENDS]->() RETURN count(r) AS n")[0]["n"] == n - 1
    store.close()

    writer = GraphWriter(tmp_path / "h")
    writer.nodes("Type", pa.table({"id": ids}))
    writer.hold("EXTENDS", "Type", "Type", pa.table({"from": ids.slice(0, 3), "to": ids.slice(1, 3)}))
    writer.hold("EXTENDS", "Type", "Type", pa.table({"from": pa.array([[1], [2]]), "to": pa.array([[3], [4]])}))
    writer.release()
    with pytest.raises((JdxError, pa.ArrowException)):
        writer.commit({})
    writer.abort()
    assert not (tmp_path / "h").joinpath("current").exists()  # nothing half-written became current


def test_a_big_build_copies_nothing_until_its_edges_are_released(tmp_path, monkeypatch):
    """Past DEFER_COPIES_FROM members the writer holds every COPY, nodes included, until `release` (Kùzu's COPY
    then does not run beside the build's peak), and copies them in the order they were handed over."""
    from jdx.graph_schema import store as store_module
    from jdx.graph_schema.store import GraphStore, GraphWriter

    copied: list[str] = []
    original = GraphStore._copy_file

    def watched(self, name, path, src=None, dst=None):
        copied.append(name)
        return original(self, name, path, src, dst)

    monkeypatch.setattr(store_module.GraphStore, "_copy_file", watched)
    monkeypatch.setattr(store_module, "DEFER_COPIES_FROM", 2)
    ids = pa.array([f"t/T{i}" for i in range(5)], pa.string())
    import time

    small = GraphWriter(tmp_path / "small")
    small.expect(2)  # not past the threshold: copies start at once, before any release
    small.nodes("Type", pa.table({"id": ids}))
    waited = time.monotonic()
    while not copied and time.monotonic() - waited < 30:
        time.sleep(0.02)
    assert copied == ["Type"]
    small.commit({})

    copied.clear()
    writer = GraphWriter(tmp_path / "g")
    writer.expect(3)
    writer.nodes("Type", pa.table({"id": ids}))
    writer.rels("EXTENDS", "Type", "Type", pa.table({"from": ids.slice(0, 4), "to": ids.slice(1, 4)}))
    writer.hold("IMPLEMENTS", "Type", "Type", pa.table({"from": ids.slice(0, 2), "to": ids.slice(2, 2),
                                                        "position": pa.array([0, 0], pa.int32())}))
    time.sleep(0.3)  # the COPY thread would have started by now
    assert copied == []
    writer.release()
    build = writer.commit({})
    monkeypatch.undo()
    assert copied == ["Type", "EXTENDS", "IMPLEMENTS"]
    store = GraphStore(build / "graph.kz", read_only=True)
    assert store.rows("MATCH (t:Type) RETURN count(t) AS n")[0]["n"] == 5
    assert store.rows("MATCH ()-[r:EXTENDS]->() RETURN count(r) AS n")[0]["n"] == 4
    assert store.rows("MATCH ()-[r:IMPLEMENTS]->() RETURN count(r) AS n")[0]["n"] == 2
    store.close()
