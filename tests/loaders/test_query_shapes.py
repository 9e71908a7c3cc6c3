"""The graph's queries never UNWIND ids into a key lookup inside a relationship pattern
(`UNWIND $ids AS i MATCH (m:Method {id: i})-[r:INVOKES]->()`): Kùzu plans that as a scan of the whole relationship
table joined to the ids, whatever their number (`samples java.util.Map#get`: ~0.8 s and ~280 MB of the buffer pool
for 257 ids, against 0.29 s and ~5 MB as an IN filter, 26 ms as key lookups for 12). The key lookup goes in a MATCH of
its own (`UNWIND … MATCH (m {id: i}) MATCH (m)-[…]->()`), or the ids in an IN filter. A daemon's memory is where it
showed (docs/PERFORMANCE.md)."""

from __future__ import annotations

import importlib
import re

from jdx.graph_schema.queries_graph import ByIds

MODULES = ["queries", "queries_graph", "queries_kotlin", "queries_samples", "queries_search"]
JOINED = re.compile(r"UNWIND \$\w+ AS (\w+) MATCH \(\w*:\w+ \{id: \1\}\)\s*(<?-)")


def _texts(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, ByIds):
        return [t for t in (value.one, value.many, value.unwind) if t] + (_texts(value.by_offset)
                                                                          if value.by_offset else [])
    return []


def test_no_query_unwinds_ids_into_a_relationship_pattern():
    seen, joined = 0, []
    for name in MODULES:
        module = importlib.import_module(f"jdx.graph_schema.{name}")
        for attr, value in vars(module).items():
            for text in _texts(value):
                seen += 1
                if JOINED.search(text):
                    joined.append(f"{name}.{attr}: {text[:120]}")
    assert seen > 100  # the scan reads the query modules
    assert not joined, joined


def test_the_pattern_is_recognised():
    assert JOINED.search("UNWIND $ids AS i MATCH (m:Method {id: i})-[r:INVOKES]->(:Method) RETURN m.id")
    assert not JOINED.search("UNWIND $ids AS i MATCH (m:Method {id: i}) MATCH (m)-[r:INVOKES]->(:Method)")
