"""The Kotlin part of the workspace graph (spec §12.1): KotlinDecl nodes from the shards' `kotlin` tables,
KOTLIN edges from each class (and each multi-file facade) to its declarations, COMPILES_TO edges from each
declaration to the JVM members that implement it. Additive: nothing else of the graph depends on it."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc

from jdx.loaders.resolution import Declared, combined


def kotlin_graph_tables(shards, shadowed: set, art_ids: list[str], methods: Declared, fields: Declared,
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
    # each declaration's `role:member-id` links, kept where the member is on the classpath; membership is tested in
    # codes against the classpath's declared members (a Python set of a Maven repository's 2.8M ids held ~0.7 GB)
    links = pc.list_flatten(t["jvm"])
    decls = pc.take(t["id"], pc.list_parent_indices(t["jvm"]))
    parts = pc.split_pattern(links, ":", max_splits=1)
    whole = pc.equal(pc.list_value_length(parts), 2)  # `role:target` (a link without its colon names nothing)
    decls, parts = decls.filter(whole), parts.filter(whole)
    roles, targets = pc.list_element(parts, 0), pc.list_element(parts, 1)
    is_type, is_field = pc.equal(roles, "type"), pc.equal(roles, "field")
    is_method = pc.invert(pc.or_(is_type, is_field))
    edges: dict[str, tuple] = {}
    for label, mask, members in (("Method", is_method, methods), ("Field", is_field, fields), ("Type", is_type, None)):
        picked = targets.filter(mask)
        if members is not None:
            found = members.contains(combined(picked))
        else:
            found = pa.array([x in type_ids for x in picked.to_pylist()], pa.bool_())
        edges[label] = (decls.filter(mask).filter(found), picked.filter(found), roles.filter(mask).filter(found))
    rels = [("KOTLIN", "Type", "KotlinDecl", pa.table({"from": pa.array(k_from, s), "to": pa.array(k_to, s)}))]
    for label, (src, dst, role) in edges.items():
        rels.append(("COMPILES_TO", "KotlinDecl", label, pa.table({"from": src.cast(s), "to": dst.cast(s),
                                                                   "role": role.cast(s)})))
    return nodes, rels
