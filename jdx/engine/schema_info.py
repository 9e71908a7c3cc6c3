"""`jdx schema` (spec §7.4): the workspace graph's node and relationship tables, each property's type and
meaning, row counts of the current workspace, and example queries, for `jdx cypher` and notebooks."""

from __future__ import annotations

from jdx.graph_schema.queries_graph import count_nodes, count_rels
from jdx.graph_schema.schema import ADDED, ADDED_TWINS, NODE_TABLES, REL_TABLES
from jdx.graph_schema.schema_docs import EXAMPLES, NODES, RELS
from jdx.graph_schema.store import GraphStore


def describe(store: GraphStore) -> dict:
    nodes = []
    for name, cols in NODE_TABLES.items():
        meaning, props = NODES[name]
        rows = store.rows(count_nodes(name))[0]["n"]
        nodes.append({"name": name, "meaning": meaning, "rows": rows, "key": cols[0][0],
                      "properties": [{"name": c, "type": t, "meaning": props[c]} for c, t in cols]})
    rels = []
    for name, (pairs, cols) in REL_TABLES.items():
        meaning, props = RELS[name]
        if name in ADDED_TWINS:
            meaning += (f"; the rows an incremental update appended are in its twin {name}{ADDED} (counted here): "
                        f"jdx cypher matches both for a pattern naming {name}")
        rows = store.rows(count_rels(name))[0]["n"]
        rels.append({"name": name, "meaning": meaning, "rows": rows, "ends": [{"from": a, "to": b} for a, b in pairs],
                     "properties": [{"name": c, "type": t, "meaning": props[c]} for c, t in cols]})
    return {"nodes": nodes, "relationships": rels,
            "examples": [{"title": t, "query": q} for t, q in EXAMPLES]}
