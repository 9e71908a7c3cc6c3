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
