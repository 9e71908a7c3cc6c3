"""The direct subtypes of a hierarchy level: a huge frontier's come from one pass over every subtype edge (kept as
Arrow columns), a smaller one's from a query per level; both give the same rows in the same order."""

from __future__ import annotations

import pytest

from jdx.engine.rel_hierarchy import WHOLE_GRAPH_FRONTIER, _Subtypes
from jdx.engine.relations import rows_by_ids
from jdx.graph_schema import queries_graph as q
from tests.service import JdxService, Options


@pytest.fixture(scope="module")
def store(jdx_home):
    service = JdxService(Options(cache_dir=str(jdx_home / "cache")))
    yield service.store()
    service.close()


def _queried(store, frontier):
    return sorted(rows_by_ids(store, q.SUBTYPES_OF, frontier), key=lambda r: (r["parent"], r["id"]))


def test_a_huge_frontier_from_every_edge_equals_the_per_level_query(store):
    classes = sorted(r["id"] for r in store.rows(
        "MATCH (t:Type)-[:EXTENDS]->(p:Type {id: 'java/lang/Object'}) RETURN t.id AS id"))
    # classes with subclasses, interfaces with implementors and subinterfaces, a type with none
    frontier = classes[: WHOLE_GRAPH_FRONTIER + 40] + ["java/lang/Object", "java/util/Collection",
                                                        "java/util/List", "java/lang/Runnable"]
    assert len(frontier) > WHOLE_GRAPH_FRONTIER
    subtypes = _Subtypes(store)
    whole = subtypes.of(frontier)
    assert subtypes.edges is not None  # the pass over every edge was taken
    assert whole == _queried(store, frontier)
    assert {r["rel"] for r in whole} == {"EXTENDS", "IMPLEMENTS"} and len(whole) > 9000
    # once the edges are read, a later, smaller level is answered from them too, the same as its query
    small = ["java/util/AbstractList", "java/util/AbstractCollection", "java/io/Serializable"]
    assert subtypes.of(small) == _queried(store, small) and subtypes.of(small)


def test_a_read_only_graph_reads_every_subtype_edge_once(store, monkeypatch):
    """A long-lived reader keeps the sorted edges of its first huge level (`reader_indexes`): a later answer's
    huge level asks the graph nothing and finds the same rows."""
    from jdx.engine.rel_hierarchy import SUBTYPE_EDGES

    store.reader_indexes.pop(SUBTYPE_EDGES, None)
    frontier = sorted(r["id"] for r in store.rows(
        "MATCH (t:Type)-[:EXTENDS]->(p:Type {id: 'java/lang/Object'}) RETURN t.id AS id"))[: WHOLE_GRAPH_FRONTIER + 1]
    first = _Subtypes(store).of(frontier)
    assert SUBTYPE_EDGES in store.reader_indexes
    asked = []
    query = type(store).query
    monkeypatch.setattr(type(store), "query", lambda self, cypher, params=None: asked.append(cypher) or
                        query(self, cypher, params))
    again = _Subtypes(store).of(frontier)
    assert again == first == _queried(store, frontier)
    assert q.ALL_SUBTYPE_EDGES not in asked
