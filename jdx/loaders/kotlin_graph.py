"""The Kotlin part of the workspace graph (spec §12.1): KotlinDecl nodes from the shards' `kotlin` tables,
KOTLIN edges from each class (and each multi-file facade) to its declarations, COMPILES_TO edges from each
declaration to the JVM members that implement it. Additive: nothing else of the graph depends on it."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc


def kotlin_graph_tables(shards, shadowed: set, art_ids: list[str], method_ids: pa.Array, field_ids: pa.Array,
                        type_ids: set[str], only: set[int] | None = None):
    """(KotlinDecl nodes, [(rel, src, dst, table)]): declarations of loaded (not shadowed) classes only, of the
    artifacts at positions `only` (an incremental update's) or of all."""
    parts = []
    for pos, shard in enumerate(shards):
        if only is not None and pos not in only:
            continue
        try:
            t = shard.table("kotlin")
        except (OSError, KeyError):
            continue
        if t.num_rows:
            parts.append(t.append_column("artifact", pa.nulls(t.num_rows, pa.string()).fill_null(art_ids[pos]))
                         .append_column("pos", pa.nulls(t.num_rows, pa.int32()).fill_null(pos)))
    if not parts:
        return None, []
    t = pa.concat_tables(parts)
    if shadowed:
        keep = [(p, o) not in shadowed for p, o in zip(t["pos"].to_pylist(), t["owner"].to_pylist())]
        t = t.filter(pa.array(keep, pa.bool_()))
    # one class file of a name per artifact set: the first artifact's copy is the loaded one
    first = pc.equal(pc.index_in(t["id"], value_set=t["id"]), pa.array(range(t.num_rows), pa.int32()))
    t = t.filter(first)
    t = t.filter(pc.is_in(t["owner"], value_set=pa.array(sorted(type_ids), pa.string())))
    nodes = t.drop_columns(["pos"])
    s = pa.string()
    owners = t["owner"].to_pylist()
    facades = t["facade"].to_pylist()
    ids = t["id"].to_pylist()
    k_from, k_to = list(owners), list(ids)
    for f, i in zip(facades, ids):
        if f and f in type_ids:
            k_from.append(f)
            k_to.append(i)
    methods = set(method_ids.to_pylist())
    fields = set(field_ids.to_pylist())
    edges: dict[str, tuple[list, list, list]] = {"Method": ([], [], []), "Field": ([], [], []), "Type": ([], [], [])}
    for decl, links in zip(ids, t["jvm"].to_pylist()):
        for link in links or ():
            role, _, target = link.partition(":")
            label = "Type" if role == "type" else ("Field" if role == "field" else "Method")
            if (label == "Method" and target not in methods) or (label == "Field" and target not in fields) or (
                    label == "Type" and target not in type_ids):
                continue
            rows = edges[label]
            rows[0].append(decl)
            rows[1].append(target)
            rows[2].append(role)
    rels = [("KOTLIN", "Type", "KotlinDecl", pa.table({"from": pa.array(k_from, s), "to": pa.array(k_to, s)}))]
    for label, (src, dst, role) in edges.items():
        rels.append(("COMPILES_TO", "KotlinDecl", label, pa.table({"from": pa.array(src, s), "to": pa.array(dst, s),
                                                                   "role": pa.array(role, s)})))
    return nodes, rels
