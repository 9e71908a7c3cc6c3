"""Shards of ordered artifacts -> the node and relationship tables of one workspace graph.

Settled here, once, so queries stay one- or few-hop: which of several same-named classes the JVM
would load (classpath order), which declaration a call site really reaches (JVM resolution), which
methods override which, and external nodes for everything referenced but absent. Tables go to a
sink as soon as they are complete, so the database loads nodes while edges are still being resolved.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Protocol

import pyarrow as pa
import pyarrow.compute as pc

from jdx.errors import Warning_
from jdx.graph_schema.schema import ANNOTATION_VALUE_SITE, LAMBDA_BODY, name_words
from jdx.graph_schema.store import return_freed_memory
from jdx.loaders.bridge_overrides import with_bridged
from jdx.loaders.build_context import (CONTEXT_COLUMNS, DECLARED_FIELDS, DECLARED_METHODS, JDK_INTERNAL,
                                       position_runs, shared_context, with_artifact_keys)
from jdx.loaders.extractor import REF_KINDS, TYPE_KINDS
from jdx.loaders.jdk_modules import artifact_module
from jdx.loaders.kotlin_graph import kotlin_graph_tables
from jdx.loaders.resolution import (Declared, Hierarchy, combined, overrides, resolve_edges, sorted_unique,
                                    split_ids, with_inherited)

ACC_PUBLIC, ACC_BRIDGE, ACC_INTERFACE, ACC_SYNTHETIC, ACC_DEPRECATED = 0x0001, 0x0040, 0x0200, 0x1000, 0x20000
READ_KINDS = (5, 6, 16)
STR_LIST = pa.list_(pa.string())


class GraphSink(Protocol):
    def nodes(self, label: str, table: pa.Table) -> None: ...

    def rels(self, name: str, src: str, dst: str, table: pa.Table) -> None: ...


@dataclass
class BuildResult:
    warnings: list[Warning_] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)


def _join(*arrays, sep: str = "") -> pa.Array:
    return pc.binary_join_element_wise(*arrays, sep)


class IncrementalRefused(Exception):
    """A partial build would not equal a build from scratch (a class name shared with another artifact, or
    other artifacts referring to the ones changed): the caller builds from scratch instead."""


def _concat(shards, name: str, only: set[int] | None = None, columns: list[str] | None = None,
            consume: bool = False, each=None) -> pa.Table:
    """One shard table of every (or `only` these) artifact, with its classpath position; `consume`: the last
    read of that table in this build, so a just-extracted shard lets go of it (its rows live on only as long
    as the build needs them); `each(table)` rewrites one artifact's part before the next is read."""
    return pa.concat_tables(list(_parts(shards, name, only, columns, consume, each)))


def _parts(shards, name: str, only: set[int] | None = None, columns: list[str] | None = None,
           consume: bool = False, each=None):
    """`_concat`'s parts one by one, as they are read (at least one, maybe empty): a caller done with one
    artifact's rows before it takes the next never holds the classpath's."""
    chosen = [pos for pos in range(len(shards)) if only is None or pos in only]
    if not chosen:  # no artifact selected: the first shard's columns, no rows
        t = shards[0].table(name, columns).slice(0, 0)
        t = t.append_column("pos", pa.nulls(0, pa.int32()))
        yield each(t) if each is not None else t
        return
    for pos, t in zip(chosen, _read_tables([shards[p] for p in chosen], name, columns)):
        shard = shards[pos]
        if consume and shard.loaded is not None:
            shard.loaded.pop(name, None)
        t = t.append_column("pos", pa.nulls(t.num_rows, pa.int32()).fill_null(pos))
        yield each(t) if each is not None else t


_READERS = 2  # shards read from disk two at a time (Parquet decoding releases the GIL)


def _read_tables(shards: list, name: str, columns: list[str] | None):
    """Each shard's table `name`, in order; the ones on disk are read on a small thread pool, a few ahead."""
    if sum(1 for s in shards if s.loaded is None or name not in s.loaded) < 4:
        for shard in shards:
            yield shard.table(name, columns)
        return
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=_READERS, thread_name_prefix="jdx-shard-read") as pool:
        pending = []
        for shard in shards:
            pending.append(pool.submit(shard.table, name, columns))
            if len(pending) > _READERS * 2:
                yield pending.pop(0).result()
        for future in pending:
            yield future.result()


def _first_rows(keys: pa.Array) -> pa.Array:
    """Mask of rows whose key did not occur earlier."""
    keys = combined(keys)
    first = pc.index_in(keys, value_set=keys)
    return pc.equal(first, pa.array(range(len(keys)), pa.int32()))


def _const(n: int, value, typ) -> pa.Array:
    return pa.nulls(n, typ).fill_null(value) if value is not None else pa.nulls(n, typ)


def _humps(simple: str) -> str:
    return "".join(ch for ch in simple if ch.isupper() or ch.isdigit())


def _package(t: str) -> str:
    return t.rsplit("/", 1)[0] if "/" in t else ""


def _split_list(col: pa.ChunkedArray | pa.Array, empty_is_none: bool) -> pa.Array:
    """'a,b' -> ['a', 'b']; null stays null; '' -> [] (or null when empty_is_none)."""
    col = pc.if_else(pc.equal(col, ""), None, col) if empty_is_none else col
    out = pc.split_pattern(col, ",")
    if not empty_is_none:
        out = pc.if_else(pc.equal(col, ""), pa.scalar([], STR_LIST), out)
    return out


def _lists_by_id(ids: pa.Array, grouped: tuple[pa.Array, pa.Array] | None) -> pa.Array:
    """Per-id lists (annotations) from `_group_lists` (None: no id has any), without a Python loop over every member."""
    if grouped is None:
        return pa.ListArray.from_arrays(pa.array([0] * (len(ids) + 1), pa.int32()), pa.array([], pa.string()))
    keys, values = grouped
    idx = pc.index_in(ids, value_set=keys)
    taken = pc.take(values, idx)
    return pc.if_else(pc.is_null(idx), pa.scalar([], STR_LIST), taken)


def _shadow_suffix(pos: int, art_ids: list[str]) -> str:
    return "@" + art_ids[pos][:16]


def _shadow_by_position(shadowed: set[tuple[int, str]]) -> dict[int, frozenset[str]]:
    """The shadowed class names of each classpath position that holds any (computed once per build)."""
    by_pos: dict[int, set[str]] = defaultdict(set)
    for p, name in shadowed:
        by_pos[p].add(name)
    return {p: frozenset(names) for p, names in by_pos.items()}


def _shadow_rows(ids, positions, by_pos: dict[int, frozenset[str]], art_ids: list[str], owners=None):
    """Rows owned by a shadowed class copy get ids under that copy's id (`name@artifact`): (new ids, new owners
    or None, flags). Only the artifacts holding a shadowed copy are looked at, and each of their distinct ids
    once (a method's many call sites share its id: a repository with every version of its libraries shadows
    most classes, and a loop over their call sites took minutes). An id is its owner, then `#member`."""
    ids, positions = combined(ids), combined(positions)
    owners = combined(owners) if owners is not None else None
    n = len(ids)
    segments = position_runs(positions)
    if segments is None:  # not grouped by position: sort, rename, put back
        order = pc.sort_indices(positions)
        inverse = pc.sort_indices(order)
        got = _shadow_rows(pc.take(ids, order), pc.take(positions, order), by_pos, art_ids,
                           None if owners is None else pc.take(owners, order))
        return (pc.take(got[0], inverse), None if owners is None else pc.take(got[1], inverse),
                pc.take(got[2], inverse))
    id_parts, owner_parts, flag_parts = [], [], []
    for p, start, count in segments:
        seg_ids = ids.slice(start, count)
        seg_owners = owners.slice(start, count) if owners is not None else None
        names = by_pos.get(p)
        if not names:
            id_parts.append(seg_ids)
            owner_parts.append(seg_owners)
            flag_parts.append(_const(count, False, pa.bool_()))
            continue
        suffix = _shadow_suffix(p, art_ids)
        if owners is None:  # the owner is the id up to its '#': decided once per distinct id
            enc = pc.dictionary_encode(seg_ids)
            renamed, flags = [], []
            for u in enc.dictionary.to_pylist():
                o = u.split("#", 1)[0]
                moved = o in names
                renamed.append(o + suffix + u[len(o):] if moved else u)
                flags.append(moved)
            id_parts.append(pc.take(pa.array(renamed, pa.string()), enc.indices))
            flag_parts.append(pc.take(pa.array(flags, pa.bool_()), enc.indices))
            owner_parts.append(None)
            continue
        enc = pc.dictionary_encode(seg_owners)  # decided once per owner; ids cut after their owner
        moved_owner = pa.array([o in names for o in enc.dictionary.to_pylist()], pa.bool_())
        flags = pc.take(moved_owner, enc.indices)
        rows = pc.indices_nonzero(flags)
        if len(rows):
            old_ids, old_owners = pc.take(seg_ids, rows).to_pylist(), pc.take(seg_owners, rows).to_pylist()
            seg_ids = pc.replace_with_mask(seg_ids, flags, pa.array(
                [o + suffix + i[len(o):] for i, o in zip(old_ids, old_owners)], pa.string()))
            seg_owners = pc.replace_with_mask(seg_owners, flags, pa.array([o + suffix for o in old_owners],
                                                                         pa.string()))
        id_parts.append(seg_ids)
        owner_parts.append(seg_owners)
        flag_parts.append(flags)
    if not id_parts:
        return ids, owners, _const(n, False, pa.bool_())
    return (pa.concat_arrays(id_parts), pa.concat_arrays(owner_parts) if owners is not None else None,
            pa.concat_arrays(flag_parts))


MEMBER_CONTEXT = CONTEXT_COLUMNS["members"]  # what resolution and overrides read of every member


def _give_back(whole: bool = True) -> None:
    """Returns the pages of freed Arrow buffers to the OS, and with `whole` (a full build's) those of freed malloc
    memory too (Python's lists and dicts, Arrow's compute kernels): the allocators keep them otherwise, and the graph
    database needs that memory next (measured after the JDK's extraction: ~300 MB of RSS). An update's tables are
    small: trimming malloc there (and loading ctypes for it) would cost more than it returns."""
    if whole:
        return_freed_memory()
    else:
        pa.default_memory_pool().release_unused()


class _Held:
    """Relationship tables that may end at an external node, handed over only once the external nodes are:
    a sink that spools (`GraphWriter.hold`/`release`) takes each at once and queues its COPY at release, so
    the build drops it right away; any other sink gets them at release, one table per relationship (the parts
    held artifact by artifact concatenated: one COPY each, in the order first held)."""

    def __init__(self, sink: GraphSink):
        self.sink = sink
        self.hold = getattr(sink, "hold", None)
        self.tables: dict[tuple[str, str, str], list[pa.Table]] = {}
        self.rows = 0

    def rels(self, name: str, src: str, dst: str, table: pa.Table) -> None:
        self.rows += table.num_rows
        if self.hold is not None:
            self.hold(name, src, dst, table)
        elif table.num_rows:
            self.tables.setdefault((name, src, dst), []).append(table)

    def release(self) -> None:
        if self.hold is not None:
            self.sink.release()
        tables, self.tables = self.tables, {}
        for (name, src, dst), parts in tables.items():
            self.sink.rels(name, src, dst, pa.concat_tables(parts, promote_options="default"))


def build_graph_tables(shards, sink: GraphSink, focus: set[int] | None = None) -> BuildResult:
    """Computes every table of the graph and hands each to the sink, nodes before the edges that need them.

    With `focus` (classpath positions), only the rows owned by those artifacts go to the sink, computed
    against the whole classpath (shadowing, resolution, overrides, externals) exactly as a full build
    would: what an incremental update appends to a graph that already holds the other artifacts.
    Refused (IncrementalRefused) when a focused artifact shares a class name with any other one.

    Memory: each table goes to the sink as soon as it is complete and every input is dropped after its
    last use (a full build reads each shard table once, `consume`), so what stays is the classpath
    context resolution needs (type names, supertypes, member keys), not every table of the workspace."""
    warnings: list[Warning_] = []
    partial = focus is not None
    consume = not partial
    focus = set(range(len(shards))) if focus is None else set(focus)
    art_names = [s.artifact.name for s in shards]
    art_ids = [s.artifact.key for s in shards]
    art_id_array = pa.array(art_ids, pa.string())
    edge_rows = 0
    _give_back(not partial)  # what extraction freed

    # --- types: the JVM loads the first class of a name on the classpath; the rest are shadowed
    # (an update reads the rest of the classpath's types through the base build's context: only these columns)
    types = _concat(shards, "types", columns=CONTEXT_COLUMNS["types"] if partial else None, consume=consume)
    plan = getattr(sink, "plan_context", None)  # a sink keeping the context sizes its files by the classes
    if plan is not None and not partial:
        plan(types.num_rows)
    _keep_context(sink, "types", types, art_ids)
    types, pos_name, keep = _loaded_types(types)
    same_name_twice = not pc.all(keep).as_py()  # one artifact holding two class files of one name
    names = types["name"].to_pylist()
    positions = types["pos"].to_pylist()
    winner_mask = _first_rows(types["name"]).to_pylist()
    ids = [n if w else n + _shadow_suffix(p, art_ids) for n, w, p in zip(names, winner_mask, positions)]
    type_ids = pa.array(ids, pa.string())
    winners = {n for n, w in zip(names, winner_mask) if w}
    shadowed = {(p, n) for n, w, p in zip(names, winner_mask, positions) if not w}
    by_pos = _shadow_by_position(shadowed)
    if partial and shadowed:
        loser_names = {n for p, n in shadowed}
        if any(p in focus for n, p in zip(names, positions) if n in loser_names):
            raise IncrementalRefused("a changed artifact shares class names with another artifact")
    warnings.extend(_duplicate_warnings(names, positions, art_names, {n for _p, n in shadowed}))
    in_focus = [p in focus for p in positions]

    sink.nodes("Artifact", pa.table({
        "id": art_id_array, "name": pa.array(art_names, pa.string()),
        "kind": pa.array([s.artifact.kind for s in shards], pa.string()),
        "path": pa.array([s.artifact.path for s in shards], pa.string()),
        "position": pa.array(range(len(shards)), pa.int32()),
        "classes": pa.array([int(s.meta.get("classes", 0)) for s in shards], pa.int32()),
        "module": pa.array([artifact_module(s.artifact.kind, s.artifact.path, n) if p in focus else None
                            for p, (s, n) in enumerate(zip(shards, art_names))], pa.string()),
    }).filter(pa.array([p in focus for p in range(len(shards))], pa.bool_())))
    packages = [_package(n) for n in names]

    # --- hierarchy of the loaded classes (supertypes rows of dropped duplicates go too)
    supertypes = _concat(shards, "supertypes", columns=CONTEXT_COLUMNS["supertypes"] if partial else None,
                         consume=consume)
    _keep_context(sink, "supertypes", supertypes, art_ids)
    st_idx = pc.index_in(_join(pc.cast(supertypes["pos"], pa.string()), supertypes["type"], sep=":"),
                         value_set=pos_name)
    supertypes = supertypes.filter(pc.is_valid(st_idx))
    st_idx = st_idx.filter(pc.is_valid(st_idx))
    # the hierarchy in Python (lookup orders walk it per owner), its names the type list's own string objects: a
    # Maven repository's 241k types have ~450k supertype rows, a fresh string per name and row was ~100 MB
    canonical = dict(zip(names, names))
    st_from = [ids[i] for i in st_idx.to_pylist()]
    st_super = [canonical.get(x, x) for x in supertypes["super"].to_pylist()]
    del canonical
    supers: dict[str, str] = {}
    interfaces: dict[str, list[str]] = defaultdict(list)
    for frm, sup, kind in zip(st_from, st_super, supertypes["kind"].to_pylist()):
        if kind == 0:
            supers[frm] = sup
        else:
            interfaces[frm].append(sup)
    del st_from, st_super
    # the supertype edges of the changed artifacts go now (they may end at external types: held, never a Python row
    # each); an interface's `extends java/lang/Object` is the class file's, not the language's
    held = _Held(sink)  # edges that may end at external nodes: a spooling sink takes them now, copies them at release
    st_focus = pc.is_in(supertypes["pos"], value_set=pa.array(sorted(focus), pa.int32())) if partial else None
    st_edges = pa.table({"from": pc.take(type_ids, st_idx), "to": supertypes["super"], "kind": supertypes["kind"],
                         "position": supertypes["position"],
                         "iface": pc.not_equal(pc.bit_wise_and(pc.take(types["access"], st_idx), ACC_INTERFACE), 0)})
    if st_focus is not None:
        st_edges = st_edges.filter(st_focus)
    del supertypes, st_idx, st_focus
    external_types: set[str] = set(pc.unique(st_edges["to"]).to_pylist())
    is_class = pc.equal(st_edges["kind"], 0)
    object_of_iface = pc.and_(st_edges["iface"], pc.equal(st_edges["to"], "java/lang/Object"))
    held.rels("EXTENDS", "Type", "Type", st_edges.filter(pc.and_(is_class, pc.invert(object_of_iface)))
              .select(["from", "to"]))
    held.rels("IMPLEMENTS", "Type", "Type", st_edges.filter(pc.invert(is_class)).select(["from", "to", "position"]))
    del st_edges, is_class, object_of_iface

    # --- annotations, rendered per owner
    ann_by_owner, annotated, ann_types = _annotations(shards, pos_name, type_ids, focus if partial else None,
                                                      consume=consume)
    del pos_name
    ann_edges = 0
    for label, table in annotated.items():
        held.rels("ANNOTATED_BY", label, "Type", table)
        ann_edges += table.num_rows
    del annotated

    # --- members, keyed under their declaring type's id
    def keyed(part: pa.Table) -> pa.Table:  # one artifact at a time: only a shadowed copy's rows are copied
        ids, owners = part["id"], part["owner"]
        if part.num_rows and part["pos"][0].as_py() in by_pos:
            ids, owners, flags = _shadow_rows(ids, part["pos"], by_pos, art_ids, owners)
        else:
            flags = _const(part.num_rows, False, pa.bool_())
        rest = [c for c in part.column_names if c not in ("id", "owner")]
        return pa.table({"id": ids, "owner_id": owners, "shadowed": flags, **{c: part[c] for c in rest}})

    def keyed_parts(only: set[int] | None, columns: list[str] | None):
        """Each artifact's members keyed, in classpath order; when every artifact is read (`only` None), their rows as
        the shards hold them go to a sink that keeps the context, artifact by artifact."""
        # a sink that keeps the context takes it part by part: each artifact's is written as it is read (at a Maven
        # repository's scale the classpath's member context, ~0.5 GB, no longer waits for the last artifact)
        part_of = getattr(sink, "context_part", None) if only is None else None

        def each(part: pa.Table) -> pa.Table:
            if part_of is not None:
                part_of("members", _context_table("members", part.select(MEMBER_CONTEXT + ["pos"]), art_ids))
            return keyed(part)

        yield from _parts(shards, "members", only, columns, consume=consume, each=each)
        if part_of is not None:
            sink.context_done("members")

    def member_table(only: set[int] | None, columns: list[str] | None) -> pa.Table:
        table = pa.concat_tables(list(keyed_parts(only, columns)))
        return table.filter(_first_rows(table["id"])) if same_name_twice else table  # (a filter copies every row)

    # the member nodes, artifact by artifact: each artifact's methods and fields become node rows handed to the sink
    # (a spooling writer appends them to one file per table) and only the columns the edges below read are kept: at
    # a Maven repository's scale the member tables with every column, and their node tables, were ~1.2 GB of Arrow
    # (the lambda writers and the member annotations are looked up per artifact: they belong to one artifact each)
    handles, inline_keys = [], []
    for part in _ref_parts(shards, "calls", by_pos, art_ids, focus if partial else None,
                           columns=["from", "kind", "to"], keep=_handles_or_inlined):
        is_inline = pc.equal(part["kind"], INLINE_KIND)
        handles.append(part.filter(pc.invert(is_inline)))
        inline_keys.append(pc.unique(part["to"].filter(is_inline)))
    writers = _lambda_writers(handles)
    inline_targets = _inline_targets(shards, _distinct_sorted(inline_keys), names, positions, winner_mask)
    del handles, inline_keys
    art_name_array = pa.array(art_names, pa.string())  # readable beside the content-hash `artifact` key
    type_ann, member_ann, param_ann = ann_by_owner
    out_nodes = {"Method": _NodeParts(sink, "Method"), "Field": _NodeParts(sink, "Field")}
    kept: dict[str, list[pa.Table]] = {"Method": [], "Field": []}
    indexed: dict[str, list[pa.Table]] = {"Method": [], "Field": []}
    search = getattr(sink, "search", None)
    for rows in keyed_parts(focus if partial else None, None):
        pos = rows["pos"][0].as_py() if rows.num_rows else None
        for label, kind in (("Method", 0), ("Field", 1)):
            half = rows.filter(pc.equal(rows["kind"], kind))
            if same_name_twice:  # (one artifact's own second class file of a name: its ids repeat only within it)
                half = half.filter(_first_rows(half["id"]))
            nodes = (_method_nodes(half, member_ann.get(pos), art_id_array, writers.get(pos), param_ann.get(pos))
                     if kind == 0
                     else _field_nodes(half, member_ann.get(pos), art_id_array))
            nodes = nodes.append_column("artifact_name", pc.take(art_name_array, half["pos"]))
            out_nodes[label].add(nodes)
            if search is not None:
                # (a row's artifact by its classpath position: a string per member was ~0.1 GB at scale)
                indexed[label].append(nodes.select(NAME_INDEX_MEMBER_COLUMNS).append_column("pos", half["pos"]))
            # what is drawn from a member's row alone goes now, artifact by artifact (a spooling sink appends it to
            # one file per table): which type declares it, and a method's throws clause (declaration-level
            # references, which may end at external types: held). The kept columns are those resolution and
            # overrides read; a member's id is its owner's, '#', then name and descriptor (':' between them for a
            # field), drawn again where needed (a Maven repository's 2.8M ids were ~250 MB at the build's peak)
            held.rels("DECLARES", "Type", label, pa.table({"from": half["owner_id"], "to": half["id"]}))
            if kind == 0:
                throws = _throws(half)
                external_types.update(pc.unique(throws["to"]).to_pylist())
                held.rels("REFERENCES", "Method", "Type", throws)
                del throws
            kept[label].append(half.select(["owner_id", "name", "descriptor", "access", "pos"] if kind == 0
                                           else ["owner_id", "name", "descriptor"]))
            del half, nodes
        del rows
    del writers, member_ann, param_ann
    methods, fields = (_concat_kept(kept[label]) for label in ("Method", "Field"))
    del kept
    expect = getattr(sink, "expect", None)
    if expect is not None and not partial:  # a sink may plan its work by the build's size (GraphWriter.expect)
        expect(methods.num_rows + fields.num_rows)
    hierarchy = Hierarchy(supers, interfaces)

    # declared nodes go to the database now; externals follow once resolution has found them
    f_ids = [x for x, f in zip(ids, in_focus) if f]
    f_names = [x for x, f in zip(names, in_focus) if f]
    f_winners = [x for x, f in zip(winner_mask, in_focus) if f]
    f_packages = [x for x, f in zip(packages, in_focus) if f]
    f_types = _loaded_types(_concat(shards, "types", focus))[0] if partial else types
    type_nodes = _type_nodes(f_types, f_ids, f_names, f_winners, f_packages, interfaces, type_ann, art_id_array)
    type_nodes = type_nodes.append_column("artifact_name", pc.take(art_name_array, f_types["pos"]))
    sink.nodes("Type", type_nodes)
    for parts in out_nodes.values():
        parts.done()
    del out_nodes
    # the search index reads a few columns of the node tables
    index_input = None if search is None else (type_nodes.select(NAME_INDEX_TYPE_COLUMNS),
                                               *(_concat_kept(indexed[label]) for label in ("Method", "Field")))
    del type_nodes, ann_by_owner, type_ann, indexed
    _give_back(not partial)
    if index_input is not None:
        search(*_name_index(*index_input, art_id_array))
        del index_input
        _give_back(not partial)

    # the declared members of the whole classpath, as codes resolution looks up (coded once the node tables are
    # handed over: their other columns are gone by then)
    if partial:  # the base's from its context (kept per process), plus the joined artifacts' own
        all_methods = member_table(None, MEMBER_CONTEXT)
        base = shared_context(shards)
        if base is not None and base.declared is not None:  # kept by the base's build, or by this process before
            base_methods, base_fields = base.declared
        else:
            is_method = pc.fill_null(pc.equal(all_methods["kind"], 0), False)
            in_base = pc.invert(pc.is_in(all_methods["pos"], value_set=pa.array(sorted(focus), pa.int32())))
            base_methods = Declared.of(all_methods["id"].filter(pc.and_(is_method, in_base)))
            base_fields = Declared.of(all_methods["id"].filter(pc.and_(pc.invert(is_method), in_base)))
            del is_method, in_base
            if base is not None:
                base.declared = (base_methods, base_fields)
        declared_methods = base_methods.plus_parts(methods["owner_id"], _join(methods["name"], methods["descriptor"]))
        declared_fields = base_fields.plus_parts(fields["owner_id"], _join(fields["name"], fields["descriptor"],
                                                                           sep=":"))
        n_methods, n_fields = len(declared_methods), len(declared_fields)
        # the base's codes are kept beside it already: this build keeps the joined artifacts' (`context_files`)
        declared_from = (len(base_methods), len(base_fields), [k for i, k in enumerate(art_ids) if i in focus])
    else:
        # (a member's id is its owner's id, '#', then name and descriptor: ':' between them for a field)
        declared_methods = Declared.of_columns(methods["owner_id"], methods["name"], methods["descriptor"])
        declared_fields = Declared.of_columns(fields["owner_id"], fields["name"], fields["descriptor"], sep=":")
        all_methods, n_methods, n_fields = methods, methods.num_rows, fields.num_rows
        declared_from = (0, 0, art_ids)
    _keep_declared(sink, declared_methods, declared_fields, declared_from)
    _give_back(not partial)  # what coding the member ids allocated on the way
    del fields
    pkg_ids = sorted(set(f_packages))
    pkg_names = [p.replace("/", ".") for p in pkg_ids]
    internal = _jdk_internal_packages(shards)
    if internal is not None:
        _keep_context(sink, JDK_INTERNAL, pa.table({"name": pa.array(sorted(internal), pa.string())}), art_ids)
    sink.nodes("Package", pa.table({"id": pa.array(pkg_ids, pa.string()), "name": pa.array(pkg_names, pa.string()),
                                    "jdk_internal": pa.array([None if internal is None else n in internal
                                                              for n in pkg_names], pa.bool_())}))

    # --- relationships between declared nodes only: no external node is needed first
    s = pa.string()
    nest_from, nest_to = [], []
    id_set = set(ids)
    for tid, outer, w, pos in zip(f_ids, f_types["outer"].to_pylist(), f_winners, f_types["pos"].to_pylist()):
        if outer:
            oid = outer if w else outer + _shadow_suffix(pos, art_ids)
            if oid in id_set:
                nest_from.append(oid)
                nest_to.append(tid)
    del id_set
    f_type_ids = pa.array(f_ids, s)
    for rel in (
        ("CONTAINS", "Artifact", "Type", pa.table({"from": pc.take(art_id_array, f_types["pos"]), "to": f_type_ids})),
        ("CONTAINS", "Package", "Type", pa.table({"from": pa.array(f_packages, s), "to": f_type_ids})),
        ("DECLARES", "Type", "Type", pa.table({"from": pa.array(nest_from, s), "to": pa.array(nest_to, s)})),
    ):
        sink.rels(*rel)
        edge_rows += rel[3].num_rows
    del nest_from, nest_to, f_type_ids, rel
    del types, f_types
    # what is drawn from the member tables alone goes now, and they with it: resolution needs only the codes
    only = set(f_ids) if partial else None
    override_edges = with_inherited(
        with_bridged(overrides(all_methods, winners, hierarchy, only), all_methods, winners, hierarchy, only,
                     lambda pos: shards[pos].table("calls", ["from", "to"])), all_methods, winners, hierarchy, only)
    sink.rels("OVERRIDES", "Method", "Method", override_edges)
    n_overrides = override_edges.num_rows
    del override_edges
    # the Kotlin declarations link only to declared classes and members, handed over above: their links are checked
    # against the declared members' codes (no member id is drawn for it)
    kotlin_nodes, kotlin_rels = kotlin_graph_tables(shards, shadowed, art_ids, declared_methods, declared_fields,
                                                    winners, focus if partial else None)
    n_kotlin = kotlin_nodes.num_rows if kotlin_nodes is not None else 0
    if kotlin_nodes is not None:
        sink.nodes("KotlinDecl", kotlin_nodes)
        for rel in kotlin_rels:
            sink.rels(*rel)
    del kotlin_nodes, kotlin_rels, methods, all_methods
    _give_back(not partial)

    # --- references from method bodies, resolved as the JVM links them; they may end at external nodes
    kind_names = pa.array(REF_KINDS, pa.string())
    external_methods: list[pa.Array] = []
    external_fields: list[pa.Array] = []
    # a few artifacts at a time (`_batches`): each batch's resolved edges are handed over (a spooling sink
    # appends them to one file per table) before the next is read, and its sites are let go
    n_invokes = 0
    orders: dict[str, list[int]] = {}  # each owner's lookup order, in codes
    for batch in _batches(_ref_parts(shards, "calls", by_pos, art_ids, focus if partial else None, consume=consume)):
        batch = _inlined_to_targets(batch, inline_targets)
        invokes = resolve_edges(batch, declared_methods, hierarchy.method_lookup, orders, kind_names,
                                external_methods)
        n_invokes += invokes.num_rows
        held.rels("INVOKES", "Method", "Method", invokes)
        _give_back(not partial)
    del invokes, declared_methods
    orders = {}
    read_kinds = pa.array(READ_KINDS, pa.int32())
    for batch in _batches(_ref_parts(shards, "accesses", by_pos, art_ids, focus if partial else None,
                                     consume=consume)):
        field_edges = resolve_edges(batch, declared_fields, hierarchy.field_lookup, orders, kind_names,
                                    external_fields)
        read_mask = pc.is_in(batch["kind"], value_set=read_kinds)
        held.rels("READS", "Method", "Field", field_edges.filter(read_mask))
        held.rels("WRITES", "Method", "Field", field_edges.filter(pc.invert(read_mask)))
        _give_back(not partial)
    del orders, declared_fields, field_edges, batch
    external_methods, external_fields = _distinct_sorted(external_methods), _distinct_sorted(external_fields)
    value_refs: list[pa.Table] = []
    for part in _ref_parts(shards, "typerefs", by_pos, art_ids, focus if partial else None, consume=consume):
        is_value = pc.equal(part["kind"], ANNOTATION_VALUE_KIND)
        if pc.any(is_value).as_py():
            value_refs.append(part.filter(is_value).select(["from", "to"]))
            part = part.filter(pc.invert(is_value))
        external_types.update(pc.unique(part["to"]).to_pylist())
        held.rels("REFERENCES", "Method", "Type", pa.table({"from": part["from"], "to": part["to"],
                                                            "line": part["line"],
                                                            "kind": pc.take(kind_names, part["kind"])}))
    del part
    for label, table in annotation_value_edges(value_refs, type_ids).items():
        external_types.update(pc.unique(table["to"]).to_pylist())
        held.rels("ANNOTATED_BY", label, "Type", table)
    del value_refs
    _give_back(not partial)

    external_types.update(pc.unique(split_ids(external_methods)[0]).to_pylist())
    external_types.update(pc.unique(split_ids(external_fields)[0]).to_pylist())
    external_types.update(ann_types)
    external_types = {t for t in external_types if t and t not in winners and not t.startswith("[")}
    sink.nodes("Type", _external_types(sorted(external_types)))
    sink.nodes("Method", _external_members(external_methods, method=True))
    sink.nodes("Field", _external_members(external_fields, method=False))
    held.release()
    edge_rows += held.rows - ann_edges
    counts = {
        "artifacts": len(shards), "classes": len(winners), "types": len(ids) + len(external_types),
        "methods": n_methods, "fields": n_fields, "members": n_methods + n_fields,
        "calls": n_invokes,
        "edges": edge_rows + n_overrides + ann_edges,
        "kotlin": n_kotlin,
    }
    return BuildResult(warnings, counts)


class _NodeParts:
    """A node table handed to the sink artifact by artifact where it takes parts (`GraphWriter.nodes_part`: appended
    to one spool file, copied once at `done`), else whole at `done`."""

    def __init__(self, sink: GraphSink, label: str):
        self.sink, self.label = sink, label
        self._part = getattr(sink, "nodes_part", None)
        self._parts: list[pa.Table] = []

    def add(self, table: pa.Table) -> None:
        if self._part is not None:
            self._part(self.label, table)
        else:
            self._parts.append(table)

    def done(self) -> None:
        if self._part is not None:
            self.sink.nodes_done(self.label)
        elif self._parts:
            table = pa.concat_tables(self._parts)
            self._parts = []
            self.sink.nodes(self.label, table)


def _concat_kept(parts: list[pa.Table]) -> pa.Table:
    table = pa.concat_tables(parts)
    parts.clear()
    return table


def _loaded_types(types: pa.Table) -> tuple[pa.Table, pa.Array, pa.Array]:
    """Class rows without module descriptors and without a second class file of one name in one artifact: (the
    rows, their `pos:name` keys, the mask of kept rows among the class rows)."""
    types = types.filter(pc.not_equal(types["kind"], TYPE_KINDS.index("module")))
    pos_name = _join(pc.cast(types["pos"], pa.string()), types["name"], sep=":")
    keep = _first_rows(pos_name)
    return types.filter(keep), pos_name.filter(keep), keep


def _keep_declared(sink: GraphSink, methods: Declared, fields: Declared, since: tuple[int, int, list[str]]) -> None:
    """Hands a sink that keeps the classpath context the build's declared members as codes (`build_context`): the
    next update grown from this build reads them instead of coding its ~335k member ids again (~0.15 s). `since`:
    the first method and field codes to hand over, and the artifacts those belong to (an update: the joined ones)."""
    keep = getattr(sink, "context", None)
    if keep is not None:
        first_method, first_field, keys = since
        for name, declared, start in ((DECLARED_METHODS, methods, first_method), (DECLARED_FIELDS, fields, first_field)):
            keep(name, with_artifact_keys(declared.to_table(start), keys))


def _keep_context(sink: GraphSink, name: str, table: pa.Table, art_ids: list[str]) -> None:
    """Hands a sink that keeps the classpath context (`build_context`) its share of a table read from every
    artifact, in classpath order, with its `pos` and the artifact keys those positions stand for."""
    keep = getattr(sink, "context", None)
    if keep is not None:
        keep(name, _context_table(name, table, art_ids))


def _context_table(name: str, table: pa.Table, art_ids: list[str]) -> pa.Table:
    """A context table's columns (`pos` last) labelled with the artifact keys its positions stand for."""
    columns = CONTEXT_COLUMNS.get(name, table.column_names)
    table = table.select([c for c in columns if c != "pos"] + (["pos"] if "pos" in table.column_names else []))
    return with_artifact_keys(table, art_ids)


def _duplicate_warnings(names: list[str], positions: list[int], art_names: list[str],
                        shadowed: set[str]) -> list[Warning_]:
    """DUPLICATE_CLASS per set of artifacts providing the same class names (`shadowed`: the names some later
    artifact provides again); the classpath's other names are not grouped (an update over the JDK: 77 ms)."""
    if not shadowed:
        return []
    providers: dict[str, list[int]] = defaultdict(list)
    for n, p in zip(names, positions):
        if n in shadowed:
            providers[n].append(p)
    dup_sets: dict[tuple[int, ...], list[str]] = defaultdict(list)
    for n, ps in providers.items():
        if len(ps) > 1:
            dup_sets[tuple(ps)].append(n)
    out = []
    for ps, dup_names in sorted(dup_sets.items()):
        dup_names.sort()
        who = ", ".join(art_names[p] for p in ps)
        out.append(Warning_(
            "DUPLICATE_CLASS",
            f"{len(dup_names)} class(es) provided by several artifacts, e.g. {dup_names[0].replace('/', '.')}; "
            f"loaded from {art_names[ps[0]]} (providers: {who})",
            art_names[ps[0]],
        ))
    return out


def _ref_parts(shards, name: str, by_pos: dict[int, frozenset[str]], art_ids: list[str],
               only: set[int] | None = None, consume: bool = False, columns: list[str] | None = None, keep=None):
    """One artifact's references at a time (`_parts`), their `from` under a shadowed copy's id where it owns
    them; `keep(part)`: the rows wanted of each part, kept before renaming."""
    def renamed(part: pa.Table) -> pa.Table:  # one artifact at a time: the classpath's call sites are never copied
        if keep is not None:
            part = keep(part)
        if not part.num_rows or part["pos"][0].as_py() not in by_pos:
            return part
        frm, _owners, _flags = _shadow_rows(part["from"], part["pos"], by_pos, art_ids)
        return part.set_column(part.schema.get_field_index("from"), "from", frm)

    return _parts(shards, name, only, columns, consume, each=renamed if by_pos or keep is not None else None)


def _throws(methods: pa.Table) -> pa.Table:
    """throws clauses are declaration-level references (usages --kind throw)."""
    exc = methods["exceptions"]
    has = pc.fill_null(pc.not_equal(exc, ""), False)
    lists = pc.split_pattern(combined(exc.filter(has)), ",")
    src = pc.take(combined(methods["id"].filter(has)), pc.list_parent_indices(lists))
    n = len(src)
    return pa.table({"from": src, "to": pc.list_flatten(lists),
                     "line": _const(n, -1, pa.int32()), "kind": _const(n, "throws", pa.string())})


def _annotations(shards, pos_name: pa.Array, type_ids: pa.Array, only: set[int] | None = None,
                 consume: bool = False):
    """The graph's annotations, in columns: (the rendered texts grouped per annotated id, for the nodes'
    `annotations` lists: types', members' by position, and parameters' (`index:text`, Method.param_annotations) by
    position; per node label the ANNOTATED_BY rows (id, annotation type, text, param, site); the annotation types).
    An edge goes from the element that carries the annotation: a parameter's and a type use's from their method
    (or field, or class), with `site` saying where; an annotation inside another's values (a repeatable
    annotation's container holds them) is an edge of its own too (`nested_annotations`). No Python object per
    annotation: a repository's worth of them (the Kotlin compiler's @NotNull on every signature) made this the
    build's largest structure of strings."""
    ann = _concat(shards, "annotations", only, consume=consume)
    idx = pc.index_in(_join(pc.cast(ann["pos"], pa.string()), ann["owner"], sep=":"), value_set=pos_name)
    keep = pc.and_(pc.is_valid(idx), pc.fill_null(pc.starts_with(ann["annotation"], "L"), False))
    ann = ann.filter(keep)
    owners = pc.take(type_ids, idx.filter(keep))
    del idx, keep
    kind = ann["owner_kind"]
    n = ann.num_rows
    element_col, site_col = _column_or_nulls(ann, "element"), _column_or_nulls(ann, "site")
    # Type: the owner; Method (and a parameter's): owner#name(desc); Field: owner#name:desc; a type use: the owner
    # and its `element` (`#name(desc)`, `#name:desc`, or empty for the class itself)
    desc = pc.if_else(pc.equal(kind, 2), _join(_const(n, ":", pa.string()), ann["member_desc"]), ann["member_desc"])
    member_sid = _join(_join(owners, ann["member_name"], sep="#"), desc)
    is_use = pc.equal(kind, 4)
    sid = pc.if_else(pc.equal(kind, 0), owners, pc.if_else(is_use, _join(owners, element_col), member_sid))
    del desc, member_sid
    element = pc.fill_null(element_col, "")
    label_code = pc.if_else(is_use, pc.if_else(pc.equal(element, ""), 0, pc.if_else(
        pc.match_substring(element, "("), 1, 2)), pc.if_else(pc.equal(kind, 3), 1, kind))
    atype = pc.utf8_slice_codeunits(ann["annotation"], 1, -1)
    text = ann["text"]
    is_param = pc.equal(kind, 3)
    # a parameter's index among the descriptor's parameters (`site`: `parameter N`); the shard's `param` counts
    # those the attribute counts, which may leave synthetic leading ones out (an inner class's outer instance)
    param_site = pc.if_else(is_param, site_col, pa.scalar(None, pa.string()))
    by_descriptor = pc.cast(pc.utf8_slice_codeunits(param_site, len("parameter ")), pa.int32())
    param = pc.if_else(is_param, pc.coalesce(by_descriptor, ann["param"]), pa.scalar(None, pa.int32()))
    site = pc.if_else(is_param, _join(_const(n, "parameter ", pa.string()), pc.cast(param, pa.string())),
                      pc.if_else(is_use, site_col, pa.scalar(None, pa.string())))
    edges = pa.table({"from": sid, "to": atype, "text": text, "param": param, "site": site, "label": label_code})
    nested = nested_annotations(edges)
    if nested is not None:
        edges = pa.concat_tables([edges, nested])
    annotated = {}
    for label, k in (("Type", 0), ("Method", 1), ("Field", 2)):
        annotated[label] = edges.filter(pc.equal(edges["label"], k)).drop(["label"])
    # a type's annotations are looked up once for every type; a member's, artifact by artifact (`_group_lists_by_pos`)
    is_type = pc.equal(kind, 0)
    is_member = pc.or_(pc.equal(kind, 1), pc.equal(kind, 2))
    by_owner = (_group_lists(sid.filter(is_type), text.filter(is_type)),
                _group_lists_by_pos(ann["pos"].filter(is_member), sid.filter(is_member), text.filter(is_member)),
                _group_lists_by_pos(ann["pos"].filter(is_param), sid.filter(is_param),
                                    _join(pc.cast(param.filter(is_param), pa.string()),
                                          text.filter(is_param), sep=":")))
    return by_owner, annotated, set(pc.unique(edges["to"]).to_pylist())


def _column_or_nulls(table: pa.Table, name: str, typ=pa.string()):
    """A column a shard written by another extractor (a test's fake) may lack: nulls then."""
    return table[name] if name in table.column_names else pa.nulls(table.num_rows, typ)


def nested_annotations(edges: pa.Table) -> pa.Table | None:
    """One ANNOTATED_BY row per annotation inside another's values (`@Tag.List({@Tag("a"), @Tag("b")})` holds two
    `Tag`s, what javac writes for a repeated annotation), from the element the outer one annotates, `site` naming the
    outer one; read from the outer one's text (`ValuePrinter`: a nested annotation prints as `@binary.Name(...)`)."""
    has = pc.fill_null(pc.match_substring(pc.utf8_slice_codeunits(edges["text"], 1), "@"), False)
    if not pc.any(has).as_py():
        return None
    rows: dict[str, list] = {c: [] for c in ("from", "to", "text", "param", "site", "label")}
    inner = edges.filter(has)
    for frm, to, text, param, site, label in zip(*(inner[c].to_pylist() for c in rows)):
        where = (site + ", " if site else "") + "in @" + to.replace("/", ".")
        for name, ntext in _inner_annotations(text):
            for c, v in zip(rows, (frm, name.replace(".", "/"), ntext, param, where, label)):
                rows[c].append(v)
    return pa.table(rows, schema=edges.schema)


def _inner_annotations(text: str) -> list[tuple[str, str]]:
    """(binary name, text) of every annotation in an annotation's values, at any depth; strings and chars skipped."""
    out, i, n = [], 1, len(text)
    while i < n:
        c = text[i]
        if c in "\"'":
            i = _after_quoted(text, i)
            continue
        if c == "@":
            j = i + 1
            while j < n and (text[j].isalnum() or text[j] in "_$."):
                j += 1
            end = j
            if j < n and text[j] == "(":
                depth, k = 0, j
                while k < n:
                    if text[k] in "\"'":
                        k = _after_quoted(text, k)
                        continue
                    depth += text[k] == "("
                    depth -= text[k] == ")"
                    k += 1
                    if depth == 0:
                        break
                end = k
            if j > i + 1:
                out.append((text[i + 1:j], text[i:end]))
            i = j  # (annotations inside this one are found as the scan goes on)
            continue
        i += 1
    return out


def _after_quoted(text: str, i: int) -> int:
    q, i = text[i], i + 1
    while i < len(text) and text[i] != q:
        i += 2 if text[i] == "\\" else 1
    return i + 1


def _group_lists(keys, values) -> tuple[pa.Array, pa.Array]:
    """(distinct keys sorted, the list of each one's values in their original order)."""
    keys, values = combined(keys), combined(values)
    order = pc.sort_indices(keys)  # stable: a key's values keep their order
    runs = pc.run_end_encode(pc.take(keys, order))
    offsets = pa.concat_arrays([pa.array([0], pa.int32()), pc.cast(runs.run_ends, pa.int32())])
    return runs.values, pa.ListArray.from_arrays(offsets, pc.take(values, order))


def _group_lists_by_pos(pos, keys, values) -> dict[int, tuple[pa.Array, pa.Array]]:
    """`_group_lists` of each classpath position's rows."""
    out: dict[int, tuple[pa.Array, pa.Array]] = {}
    if not len(keys):
        return out
    pos, keys, values = combined(pos), combined(keys), combined(values)
    order = pc.sort_indices(pos)  # stable
    pos, keys, values = pc.take(pos, order), pc.take(keys, order), pc.take(values, order)
    runs = pc.run_end_encode(pos)
    start = 0
    for p, end in zip(runs.values.to_pylist(), runs.run_ends.to_pylist()):
        out[p] = _group_lists(keys.slice(start, end - start), values.slice(start, end - start))
        start = end
    return out


def _jdk_internal_packages(shards) -> set[str] | None:
    """The JDK's packages its module descriptors export to no one (None: no JDK, or unreadable)."""
    from pathlib import Path

    from jdx.loaders.jdk_modules import internal_packages

    jrt_shards = [s for s in shards if s.artifact.kind == "jrt" and "!" in s.artifact.spec]
    if not jrt_shards:
        return None
    known = getattr(jrt_shards[0], "jdk_internal", None)  # what the base build of an update found for them
    if known is not None and all(getattr(s, "jdk_internal", None) is known for s in jrt_shards):
        return set(known)
    jrt = [s.artifact for s in jrt_shards]
    home = jrt[0].spec[len("jrt:"):].rsplit("!", 1)[0]
    return internal_packages(Path(home), [a.name for a in jrt])


def _type_nodes(types, ids, names, winner_mask, packages, interfaces, ann_by_owner, art_id_array) -> pa.Table:
    simple = []
    for n, inner in zip(names, types["inner_name"].to_pylist()):
        base = n.rsplit("/", 1)[-1]
        if inner:
            simple.append(inner)
        elif inner == "" and "$" in base:
            simple.append(base.rsplit("$", 1)[-1])
        else:
            simple.append(base)
    # inner_access carries the real modifiers of a nested class (private, protected, static)
    access = pc.if_else(pc.greater_equal(types["inner_access"], 0), types["inner_access"], types["access"])
    type_ids = pa.array(ids, pa.string())
    return pa.table({
        "id": type_ids, "name": types["name"],
        "fqn": pa.array([n.replace("/", ".") for n in names], pa.string()),
        "simple_name": pa.array(simple, pa.string()),
        "package": pa.array([p.replace("/", ".") for p in packages], pa.string()),
        "kind": pc.take(pa.array(TYPE_KINDS, pa.string()), types["kind"]),
        "access": access, "signature": types["signature"], "super": types["super"],
        "interfaces": pa.array([interfaces.get(i, []) for i in ids], STR_LIST),
        "permits": _split_list(types["permits"], empty_is_none=True),  # null: not sealed
        # a record's components (JVMS 4.7.30) in declaration order: `name:descriptor[:signature]`, then a tab before
        # each annotation's text
        "record_components": pc.split_pattern(_column_or_nulls(types, "record_components"), "\n"),
        "outer": types["outer"], "inner_name": types["inner_name"], "outer_method": types["outer_method"],
        "source_file": types["source_file"], "version": types["version"], "kotlin": types["kotlin"],
        "artifact": pc.take(art_id_array, types["pos"]),
        "external": _const(len(ids), False, pa.bool_()),
        "shadowed": pa.array([not w for w in winner_mask], pa.bool_()),
        "deprecated": pc.not_equal(pc.bit_wise_and(types["access"], ACC_DEPRECATED), 0),
        "annotations": _lists_by_id(type_ids, ann_by_owner),
        "simple_lower": pa.array([x.lower() for x in simple], pa.string()),
        "humps": pa.array([_humps(x) for x in simple], pa.string()),
    })


NAME_INDEX_TYPE_COLUMNS = ["id", "simple_name", "kind", "package", "access", "artifact", "shadowed", "kotlin",
                           "deprecated"]
NAME_INDEX_MEMBER_COLUMNS = ["owner", "name", "descriptor", "access", "shadowed", "annotations"]  # and `pos`


def _kotlin_only(methods: pa.Table, kotlin_owners: pa.Array) -> pa.Array:
    """Synthetic methods Kotlin code calls, so search must name them: kotlinc marks a public reified inline function
    (`filterIsInstance<R>()`) and a `@JvmSynthetic` one synthetic to keep Java out. Not its own plumbing (a bridge, a `$`
    in the name: `$default`, `access$`, lambda bodies) nor what `@Deprecated(level = HIDDEN)` hid (any @Deprecated
    left out: the annotation's level is in its text, not worth parsing here)."""
    texts = pc.fill_null(pc.binary_join(methods["annotations"], "\n"), "")
    return pc.and_(pc.and_(pc.is_in(methods["owner"], value_set=kotlin_owners),
                           pc.equal(pc.bit_wise_and(methods["access"], ACC_PUBLIC | ACC_BRIDGE), ACC_PUBLIC)),
                   pc.and_(pc.invert(pc.match_substring(methods["name"], "$")),
                           pc.invert(pc.match_substring(texts, "@kotlin.Deprecated"))))


def _bridge_keys(methods: pa.Table) -> list[tuple]:
    """(package, name, descriptor) of each method: an access bridge's key equals its target's."""
    return [(owner.rpartition("/")[0], name, descriptor) for owner, name, descriptor in
            zip(*(methods[c].to_pylist() for c in ("owner", "name", "descriptor")))]


def _bridged(methods: pa.Table, reached: pa.Array, every: pa.Table, public_types: pa.Array) -> pa.Array:
    """`reached` (a method's class is public) or'ed with: a public method of a non-public class that a public class's
    access bridge re-exports (`_public_bridge_keys` of `every` method of the part). Keys are drawn for those few
    methods alone, in Python (every method's key, or Arrow's first string join, cost ~0.1-0.2 s on the JDK)."""
    bridges = _public_bridge_keys(every, public_types)
    if not bridges:
        return reached
    names = pa.array(sorted({name for _p, name, _d in bridges}), pa.string())
    asked = pc.indices_nonzero(pc.and_(pc.and_(pc.invert(reached), pc.is_in(methods["name"], value_set=names)),
                                       pc.not_equal(pc.bit_wise_and(methods["access"], ACC_PUBLIC), 0)))
    found = [i for i, key in zip(asked.to_pylist(), _bridge_keys(methods.take(asked))) if key in bridges]
    if not found:
        return reached
    mask = reached.to_pylist()  # (no numpy: pyarrow alone is a dependency)
    for i in found:
        mask[i] = True
    return pa.array(mask, pa.bool_())


def _public_bridge_keys(methods: pa.Table, public_types: pa.Array) -> set[tuple]:
    """The keys (`_bridge_keys`) of the public synthetic bridges public classes declare: javac's access bridges,
    which re-export a public method a class inherits from a non-public superclass of its package (xz's public
    `X86Options#setStartOffset(int)` of the package-private `BCJOptions`), so code outside the package calls it."""
    flags = ACC_PUBLIC | ACC_BRIDGE | ACC_SYNTHETIC
    bridges = methods.filter(pc.and_(pc.equal(pc.bit_wise_and(methods["access"], flags), flags),
                                     pc.is_in(methods["owner"], value_set=public_types)))
    return set(_bridge_keys(bridges))


def _name_index(type_nodes: pa.Table, methods: pa.Table, fields: pa.Table,
                art_id_array: pa.Array) -> tuple[pa.Table, pa.Table]:
    """The search index's names and symbols (graph_schema.search_files, which draws their `first` column): what
    search can name is loaded (not shadowed), named (not anonymous), not synthetic types and members; constructors
    and initialisers are found through their type. Ranks are not stored: they follow the workspace's classpath order
    when loaded. A member's artifact is `art_id_array` at its classpath position (`pos`)."""
    keep = pc.and_(pc.invert(type_nodes["shadowed"]), pc.invert(pc.match_substring_regex(
        type_nodes["simple_name"], r"^[0-9]*$")))
    types = type_nodes.filter(keep)
    type_public = pc.not_equal(pc.bit_wise_and(types["access"], ACC_PUBLIC), 0)
    public_types = types.filter(type_public)["id"]
    parts = [pa.table({
        "name": types["simple_name"], "kind": types["kind"], "owner": types["id"], "package": types["package"],
        "public": type_public, "descriptor": pa.nulls(types.num_rows, pa.string()),
        # a nested type's access is its InnerClasses flags, which have no deprecated bit: its class file's is set
        "access": pc.if_else(types["deprecated"], pc.bit_wise_or(types["access"], pa.scalar(ACC_DEPRECATED,
                                                                                            types["access"].type)),
                             types["access"]),
        "artifact": types["artifact"],
    })]
    kotlin_owners = type_nodes.filter(pc.is_valid(type_nodes["kotlin"]))["id"]
    for label, table in (("method", methods), ("field", fields)):
        shown = pc.equal(pc.bit_wise_and(table["access"], ACC_SYNTHETIC), 0)
        if label == "method":
            shown = pc.or_(shown, _kotlin_only(table, kotlin_owners))
        keep = pc.and_(pc.invert(table["shadowed"]), shown)
        if label == "method":
            keep = pc.and_(keep, pc.invert(pc.is_in(table["name"], value_set=pa.array(["<init>", "<clinit>"]))))
        t = table.filter(keep)
        owners = t["owner"]
        reached = pc.is_in(owners, value_set=public_types)
        if label == "method":  # a public method of a non-public class that javac bridges into a public subclass
            reached = _bridged(t, reached, table, public_types)
        parts.append(pa.table({
            "name": t["name"], "kind": _const(t.num_rows, label, pa.string()), "owner": owners,
            "package": pc.replace_substring(pc.replace_substring_regex(owners, r"/?[^/]*$", ""), "/", "."),
            "public": pc.and_(pc.not_equal(pc.bit_wise_and(t["access"], ACC_PUBLIC), 0), reached),
            "descriptor": t["descriptor"], "access": t["access"], "artifact": pc.take(art_id_array, t["pos"]),
        }))
    symbols = pa.concat_tables(parts)
    distinct = sorted(set(pc.unique(symbols["name"]).to_pylist()))
    names = pa.table({"name": pa.array(distinct, pa.string()),
                      "lower": pa.array([n.lower() for n in distinct], pa.string()),  # as a pattern is lowered
                      "words": pa.array([name_words(n) for n in distinct], pa.string())})
    return names, symbols




def _lambda_handles(calls: pa.Table) -> pa.Table:
    """The call sites that hand a lambda body over (invokedynamic's method handles to lambda body methods)."""
    return calls.filter(pc.and_(pc.equal(calls["kind"], REF_KINDS.index("handle")),
                                pc.match_substring_regex(calls["to"], LAMBDA_BODY)))


INLINE_KIND = REF_KINDS.index("inline")
# ClassExtractor.R_ANNOTATION_VALUE: a typeref of a type an annotation's values name (an ANNOTATED_BY edge, never a
# REFERENCES one)
ANNOTATION_VALUE_KIND = REF_KINDS.index("annotation_value")


def annotation_value_edges(parts: list[pa.Table], type_ids: pa.Array) -> dict[str, pa.Table]:
    """Per node label, the ANNOTATED_BY rows (site `annotation value`) of the types that class literals and enum
    constants in an element's annotation values name (`@Test(expected = ShapeException.class)`): from the annotated
    class, method (a parameter's: its method; an annotation type's element: its default value) or field. No
    REFERENCES edge: those start at methods only. A class outside the graph (module-info) is left out."""
    if not parts:
        return {}
    refs = pa.concat_tables(parts)
    refs = refs.filter(pc.is_valid(refs["to"]))
    frm = refs["from"]
    member = pc.match_substring(frm, "#")
    is_method = pc.and_(member, pc.match_substring(frm, "("))
    out = {}
    for label, mask in (("Type", pc.and_(pc.invert(member), pc.is_in(frm, value_set=type_ids))),
                        ("Method", is_method), ("Field", pc.and_(member, pc.invert(is_method)))):
        rows = refs.filter(mask)
        if not rows.num_rows:
            continue
        n = rows.num_rows
        out[label] = pa.table({"from": combined(rows["from"]), "to": combined(rows["to"]),
                               "text": _const(n, None, pa.string()), "param": _const(n, None, pa.int32()),
                               "site": _const(n, ANNOTATION_VALUE_SITE, pa.string())})
    return out


def _handles_or_inlined(calls: pa.Table) -> pa.Table:
    """`_lambda_handles`' call sites and the sites of inlined Kotlin code (kind `inline`, `to` its file's class and
    line: `owner#@line`, or `owner#@line#name` when kotlinc's `$i$f$` marker names the inlined function)."""
    is_handle = pc.and_(pc.equal(calls["kind"], REF_KINDS.index("handle")),
                        pc.match_substring_regex(calls["to"], LAMBDA_BODY))
    return calls.filter(pc.or_(is_handle, pc.equal(calls["kind"], INLINE_KIND)))


def _inline_targets(shards, keys: pa.Array, names: list[str], positions: list[int],
                    winner_mask: list[bool]) -> dict[str, str]:
    """`owner#@line` or `owner#@line#name` (where kotlinc's SMAP says inlined code came from, and the function its
    `$i$f$name` marker names) -> the id of the method of that class it came from (`_inlined_from`). Classes not on
    the classpath map nothing."""
    if not len(keys):
        return {}
    wanted: dict[str, list[tuple[str, int, str]]] = defaultdict(list)
    for key in keys.to_pylist():
        owner, _, rest = key.partition("#@")
        line, _, name = rest.partition("#")
        if line.isdigit():
            wanted[owner].append((key, int(line), name))
    by_pos: dict[int, list[str]] = defaultdict(list)
    for n, p, w in zip(names, positions, winner_mask):
        if w and n in wanted:
            by_pos[p].append(n)
    out: dict[str, str] = {}
    for pos, owners in sorted(by_pos.items()):
        columns = ["id", "owner", "kind", "name", "access", "first_line", "last_line"]
        members = shards[pos].table("members", columns)
        members = members.filter(pc.and_(pc.is_in(members["owner"], value_set=pa.array(sorted(owners), pa.string())),
                                         pc.and_(pc.equal(members["kind"], 0), pc.greater_equal(members["first_line"],
                                                                                                0))))
        spans: dict[str, list[tuple[int, int, bool, str, str]]] = defaultdict(list)
        for mid, owner, name, access, first, last in zip(*(members[c].to_pylist() for c in
                                                           ("id", "owner", "name", "access", "first_line",
                                                            "last_line"))):
            spans[owner].append((first, last, bool(access & ACC_SYNTHETIC), mid, name))
        for owner in owners:
            for key, line, name in wanted[owner]:
                found = _inlined_from(spans.get(owner, ()), line, name)
                if found is not None:
                    out[key] = found
    return out


def _inlined_from(spans, line: int, name: str) -> str | None:
    """The id of the method of `spans` ((first line, last line, synthetic, id, name)) that code inlined from `line`
    came from. Of the methods called `name` (when the caller's marker named one; else of all): the one whose lines
    hold `line`, starting last at or before it (a lambda or local function inside another starts after it), a
    declared function before a synthetic copy (`$default`); else the one of that name nearest the line (the class
    on the classpath is another version than the one the caller was compiled against: its lines moved)."""
    def rank(s):
        return s[2], -s[0], "$default" in s[3], s[3]

    named = [s for s in spans if s[4] == name] if name else []
    holding = [s for s in named or spans if s[0] <= line <= s[1]]
    if holding:
        return min(holding, key=rank)[3]
    if named:
        return min(named, key=lambda s: (max(s[0] - line, line - s[1]), rank(s)))[3]
    return None


def _inlined_to_targets(calls: pa.Table, targets: dict[str, str]) -> pa.Table:
    """The inlined sites of `calls` pointed at the inline functions they came from (`_inline_targets`), once per
    method, function and line; the ones whose function is not known are dropped. Other sites are left as they are."""
    is_inline = pc.equal(calls["kind"], INLINE_KIND)
    if not pc.any(is_inline).as_py():
        return calls
    inlined = calls.filter(is_inline)
    rest = calls.filter(pc.invert(is_inline))
    to = pa.array([targets.get(k) for k in inlined["to"].to_pylist()], pa.string())
    inlined = inlined.set_column(inlined.schema.get_field_index("to"), "to", to).filter(pc.is_valid(to))
    seen: set[tuple] = set()
    keep = []
    for row in zip(inlined["from"].to_pylist(), inlined["to"].to_pylist(), inlined["line"].to_pylist()):
        keep.append(row not in seen)
        seen.add(row)
    inlined = inlined.filter(pa.array(keep, pa.bool_()))
    return pa.concat_tables([rest, inlined.cast(rest.schema)])


DESERIALIZE_LAMBDA = "$deserializeLambda$("


def _lambda_writers(handles) -> dict[int, tuple[pa.Array, pa.Array]]:
    """Per classpath position: lambda body ids and the method whose invokedynamic hands each over (javac writes both
    into one class, so into one artifact; the first writer by id when several do). Kept on the body's node so
    `usages` and `callers` attribute a lambda's sites to the method that wrote it with a key lookup instead of a scan
    of the call edges. scalac's `$deserializeLambda$` hands every lambda body of its class to LambdaDeserialize's
    bootstrap: it writes none. `handles`: the call sites `_lambda_handles` keeps, artifact by artifact."""
    out: dict[int, tuple[pa.Array, pa.Array]] = {}
    for part in handles:
        if not part.num_rows:
            continue
        found: dict[str, str] = {}
        for frm, to in zip(part["from"].to_pylist(), part["to"].to_pylist()):
            owner, _, member = to.partition("#")
            frm_owner, _, frm_member = frm.partition("#")
            if frm_owner.split("@", 1)[0] != owner or frm_member.startswith(DESERIALIZE_LAMBDA):
                continue
            body = f"{frm_owner}#{member}"  # a shadowed class's body carries its class's `@artifact` suffix
            if body not in found or frm < found[body]:
                found[body] = frm
        if found:
            bodies = sorted(found)
            out[part["pos"][0].as_py()] = (pa.array(bodies, pa.string()),
                                          pa.array([found[b] for b in bodies], pa.string()))
    return out


def _method_nodes(methods: pa.Table, ann_by_owner, art_id_array, writers, param_ann=None) -> pa.Table:
    name = methods["name"]
    kind = pc.if_else(pc.equal(name, "<init>"), "constructor",
                      pc.if_else(pc.equal(name, "<clinit>"), "initializer", "method"))
    return pa.table({
        "id": methods["id"], "owner": methods["owner_id"], "name": name, "descriptor": methods["descriptor"],
        "signature": methods["signature"], "access": methods["access"], "kind": kind,
        "exceptions": _split_list(methods["exceptions"], empty_is_none=True),
        "param_names": _split_list(methods["param_names"], empty_is_none=False),
        "param_source": pc.take(pa.array(["none", "MethodParameters", "LocalVariableTable"], pa.string()),
                                methods["param_source"]),
        "annotation_default": methods["annotation_default"],
        "first_line": methods["first_line"], "last_line": methods["last_line"], "position": methods["ordinal"],
        "artifact": pc.take(art_id_array, methods["pos"]),
        "external": _const(methods.num_rows, False, pa.bool_()), "shadowed": methods["shadowed"],
        "deprecated": pc.not_equal(pc.bit_wise_and(methods["access"], ACC_DEPRECATED), 0),
        "annotations": _lists_by_id(methods["id"], ann_by_owner),
        "writer": _writer_column(methods["id"], writers),
        # `index:text` per parameter annotation, index by the descriptor (RuntimeVisible/InvisibleParameterAnnotations)
        "param_annotations": _lists_by_id(methods["id"], param_ann),
    })


def _writer_column(method_ids, writers: tuple[pa.Array, pa.Array] | None) -> pa.Array:
    """Each method's writer (the method whose handle edge reaches a lambda body), null for the rest: looked up in
    Arrow, not through a Python string per method. `writers`: (lambda body ids, their writers) of the methods'
    artifact (`_lambda_writers`)."""
    if writers is None:
        return pa.nulls(len(method_ids), pa.string())
    bodies, by = writers
    return combined(pc.take(by, pc.index_in(method_ids, value_set=bodies)))


def _field_nodes(fields: pa.Table, ann_by_owner, art_id_array) -> pa.Table:
    return pa.table({
        "id": fields["id"], "owner": fields["owner_id"], "name": fields["name"], "descriptor": fields["descriptor"],
        "signature": fields["signature"], "access": fields["access"], "constant": fields["constant"],
        "position": fields["ordinal"], "artifact": pc.take(art_id_array, fields["pos"]),
        "external": _const(fields.num_rows, False, pa.bool_()), "shadowed": fields["shadowed"],
        "deprecated": pc.not_equal(pc.bit_wise_and(fields["access"], ACC_DEPRECATED), 0),
        "annotations": _lists_by_id(fields["id"], ann_by_owner),
    })


def _external_types(names: list[str]) -> pa.Table:
    n = len(names)
    simple = [x.rsplit("/", 1)[-1].rsplit("$", 1)[-1] for x in names]
    return pa.table({
        "id": pa.array(names, pa.string()), "name": pa.array(names, pa.string()),
        "fqn": pa.array([x.replace("/", ".") for x in names], pa.string()),
        "simple_name": pa.array(simple, pa.string()),
        "package": pa.array([_package(x).replace("/", ".") for x in names], pa.string()),
        "kind": _const(n, "unknown", pa.string()), "access": _const(n, 0, pa.int32()),
        "interfaces": pa.array([[]] * n, STR_LIST), "external": _const(n, True, pa.bool_()),
        "shadowed": _const(n, False, pa.bool_()), "deprecated": _const(n, False, pa.bool_()),
        "annotations": pa.array([[]] * n, STR_LIST),
        "simple_lower": pa.array([x.lower() for x in simple], pa.string()),
        "humps": pa.array([_humps(x) for x in simple], pa.string()),
    })


def _external_members(ids: pa.Array, method: bool) -> pa.Table:
    """Nodes for the members named but declared nowhere on the classpath (`ids` distinct and sorted)."""
    n = len(ids)
    owner, rest = split_ids(ids)
    parts = pc.split_pattern(rest, "(" if method else ":", max_splits=1)
    name, desc = pc.list_element(parts, 0), pc.list_element(parts, 1)
    cols = {
        "id": ids, "owner": owner, "name": name,
        "descriptor": _join(_const(n, "(", pa.string()), desc) if method else desc,
        "access": _const(n, 0, pa.int32()), "external": _const(n, True, pa.bool_()),
        "shadowed": _const(n, False, pa.bool_()), "deprecated": _const(n, False, pa.bool_()),
        "annotations": pa.array([[]] * n, STR_LIST),
    }
    if method:
        cols["kind"] = pc.if_else(pc.equal(name, "<init>"), "constructor", "method")
        cols["exceptions"] = pa.array([[]] * n, STR_LIST)
    return pa.table(cols)


def _distinct_sorted(parts: list[pa.Array]) -> pa.Array:
    return sorted_unique(pa.chunked_array(parts, pa.string()))


_BATCH_ROWS = 1 << 19  # references resolved together: the lookups' hash tables are built once per batch


def _batches(parts, rows: int = _BATCH_ROWS):
    """Consecutive artifacts' parts concatenated up to about `rows` rows (at least one batch, maybe empty)."""
    pending, count = [], 0
    for part in parts:
        pending.append(part)
        count += part.num_rows
        if count >= rows:
            yield pa.concat_tables(pending, promote_options="default")
            pending, count = [], 0
    if pending:
        yield pa.concat_tables(pending, promote_options="default")
