"""`hierarchy` and `implementors` (spec §7.3): supertypes up, subtypes down, as cycle-safe trees.

Both directions are walked breadth-first, one query per level, over EXTENDS/IMPLEMENTS; NetworkX holds
the edges and `TreeWalk` renders them (a type reached twice is expanded once; a malformed class file
that makes a cycle cannot loop). Each edge shows how the lower type names the upper one, generic
arguments included (`extends gx.Holder<java.util.List<java.lang.String>>`); up the tree each supertype is also
shown in the queried type's terms (`as_seen`: `PatriciaTrie` sees `AbstractBitwiseTrie<String, E>` where
`AbstractPatriciaTrie<K, V>` writes `<K, V>`), the type arguments carried down as `members` carries them.

Down the tree and in `implementors`, named subtypes (public first) come before anonymous and local classes and the
compiler's copies (kotlinc writes one `$$inlined$` copy of an anonymous object per inlining site: 44 of `Flow`'s 74
subtypes in kotlinx-coroutines), so `--limit` drops those first and the truncation counts what it left out (§8.3).
Within each of those tiers `implementors` lists nearest first (direct subtypes, then theirs: each entry's `depth`),
then by name (`implementor_key`), as an IDE's implementations view.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import networkx as nx

from jdx.engine import descriptors as d
from jdx.engine.members import ACC, supertypes_applied, type_arguments, unresolved_warnings
from jdx.engine.ranking import internal_packages, is_jdk_internal
from jdx.engine.rel_lambdas import lambda_implementations, sub_interfaces
from jdx.engine.refs import format_type, parse_ref
from jdx.engine.enum_bodies import declared_in
from jdx.engine.rel_sealed import sealed_warnings
from jdx.engine.stale_classes import mark_stale
from jdx.engine.relations import ArtifactFilter, Artifacts, TreeWalk, check_depth, check_limit, rows_by_ids
from jdx.engine.resolve import resolve_applied_type
from jdx.errors import NotFoundError, Warning_
from jdx.graph_schema import queries_graph as q
from jdx.graph_schema.store import GraphStore

INTERFACE_KINDS = ("interface", "annotation")

# how much a subtype is worth to a reader, best first: truncation drops the last tiers first (spec §8.3)
PUBLIC, NAMED, ANONYMOUS, GENERATED = range(4)
_NUMBERED = re.compile(r"(?<=\$)(\d+)")  # the number of javac's anonymous (`Foo$3`) or local (`Foo$1Row`) class
INLINED = "$$inlined$"  # kotlinc's copy of an anonymous object at one inlining site of an inline function


@dataclass
class HierarchyOptions:
    up: bool = True
    down: bool = True
    depth: int | None = None
    filter: ArtifactFilter = field(default_factory=ArtifactFilter)
    limit: int | None = None


def _as_written(child: dict) -> dict[str, str]:
    """How `child` names each direct supertype: binary name -> `java.util.AbstractList<E>`."""
    out: dict[str, str] = {}
    if child.get("signature"):
        try:
            sig = d.parse_class_signature(child["signature"])
        except ValueError:
            return out
        for t in (sig.superclass, *sig.interfaces):
            out[t.binary_name] = d.render_type(t)
    return out


RAW = None  # the environment of a type seen raw: its supertypes are seen erased (JLS §4.8)


def _type_params(row: dict | None) -> tuple:
    if not row or not row.get("signature"):
        return ()
    try:
        return d.parse_class_signature(row["signature"]).type_params
    except ValueError:
        return ()


def _seen(applied: dict, env: dict | None, parent: str, prow: dict | None) -> tuple[str, dict | None]:
    """(the supertype `parent` in the queried type's terms, `parent`'s environment), given how the child applies its
    supertypes and the child's environment; a raw use on the way leaves the rest erased rather than guessed."""
    applied = applied.get(parent) if env is not RAW else None
    params = _type_params(prow)
    if applied is None:
        return format_type(parent), (RAW if params else {})
    seen = d.substitute(applied, env)
    args = seen.inner[-1].args if seen.inner else seen.args
    if not params:
        return d.render_type(seen), {}
    if len(args) != len(params):
        return (d.render_type(seen) if args else format_type(parent)), RAW
    return d.render_type(seen), d.type_arg_env(params, seen)


def _parents(row: dict) -> list[tuple[str, str]]:
    """(supertype id, extends|implements) in declaration order; interfaces name no superclass."""
    out = []
    if row.get("super") and row["kind"] not in INTERFACE_KINDS:
        out.append((row["super"], "extends"))
    rel = "extends" if row["kind"] in INTERFACE_KINDS else "implements"
    out.extend((i, rel) for i in row.get("interfaces") or [])
    return out


class _Types:
    """Type rows by id, fetched in batches and remembered for one answer."""

    def __init__(self, store: GraphStore):
        self.store = store
        self.rows: dict[str, dict | None] = {}

    def fetch(self, ids) -> None:
        todo = sorted({i for i in ids if i not in self.rows})
        if todo:
            for r in rows_by_ids(self.store, q.TYPES_BY_IDS, todo):
                self.rows[r["id"]] = r
            for i in todo:
                self.rows.setdefault(i, None)


def _tiers(store: GraphStore, nodes, types: _Types) -> dict[str, int]:
    """Each node's value tier: an anonymous class has an empty InnerClasses name, a local one an EnclosingMethod (or,
    declared in an initializer, javac's `Outer$1Local` name); a `$$inlined$` name or the synthetic flag marks what the
    compiler made on its own."""
    nodes = list(nodes)
    nesting = {r["id"]: r for r in rows_by_ids(store, q.TYPE_NESTING, [n for n in nodes if "$" in n])}
    out = {}
    for n in nodes:
        access = (types.rows.get(n) or {}).get("access") or 0
        nest = nesting.get(n) or {}
        inner = nest.get("inner_name")
        if INLINED in n or access & ACC["synthetic"]:
            out[n] = GENERATED
        elif inner == "" or nest.get("om") or (inner and n.rsplit("$", 1)[-1][:1].isdigit()):
            out[n] = ANONYMOUS
        else:
            out[n] = PUBLIC if access & 1 else NAMED
    return out


def type_tiers(store: GraphStore, type_ids) -> dict[str, int]:
    """_tiers of the given types (overriders' classes ranked as `hierarchy` ranks subtypes)."""
    types = _Types(store)
    types.fetch(type_ids)
    return _tiers(store, types.rows, types)


def left_out_hint(nodes, tiers: dict[str, int]) -> tuple[dict[str, int], str]:
    """(counts, text) of the types an answer's limit left out: named, anonymous or local, inlined copies,
    synthetic; the text is empty when only named ones were cut."""
    left = _left_out(nodes, tiers)
    return left, _left_out_text(left)


def _marks(entry: dict, node: str, tier: int, types: _Types, places: dict[str, dict]) -> dict:
    """JSON flags of a low-value subtype; `inlined_copy` also tells the text that its Kotlin label (copied metadata)
    is the original's; `places`: `enum_bodies.declared_in` of the anonymous ones."""
    if INLINED in node:
        entry.update(anonymous=True, inlined_copy=True)
    elif tier == ANONYMOUS:
        entry["anonymous"] = True
    elif tier == GENERATED:
        entry["synthetic"] = True
    if entry.get("anonymous"):
        if node not in places:  # no EnclosingMethod-less anonymous row: a local class (it has a name)
            entry["local"] = True
        else:
            entry.update(places[node])
    # code outside its package cannot name it (`NoopSpanExporter`), as search marks it; an anonymous class no code names
    if tier != PUBLIC and not ((types.rows.get(node) or {}).get("access") or 0) & ACC["public"]:
        entry["public"] = False
    return entry


def subtype_marks(store: GraphStore, type_ids) -> dict[str, tuple[int, dict]]:
    """(tier, `_marks` flags) of each type, as `implementors` marks its rows (`usages` lists subtypes too)."""
    types = _Types(store)
    types.fetch(type_ids)
    tiers = _tiers(store, types.rows, types)
    places = declared_in(store, [n for n, t in tiers.items() if t >= ANONYMOUS])
    return {n: (t, _marks({}, n, t, types, places)) for n, t in tiers.items()}


def _left_out_text(left: dict[str, int]) -> str:
    """`left out: 3 named, 44 inlined copies` when the limit cut low-value types; nothing when it cut only named
    ones (`… 3 of 8 shown` says that already)."""
    if not set(left) - {"named"}:
        return ""
    words = {"named": "named", "anonymous": "anonymous or local", "inlined": "inlined copies", "synthetic": "synthetic"}
    return "left out: " + ", ".join(f"{n} {words[k]}" for k, n in left.items())


def _left_out(nodes, tiers: dict[str, int]) -> dict[str, int]:
    """How many of `nodes` (left out of an answer) are named, anonymous or local, kotlinc's copies, synthetic."""
    out = {"named": 0, "anonymous": 0, "inlined": 0, "synthetic": 0}
    for n in nodes:
        key = "inlined" if INLINED in n else ("named", "named", "anonymous", "synthetic")[tiers[n]]
        out[key] += 1
    return {k: v for k, v in out.items() if v}


def _up_graph(store: GraphStore, root: dict, depth: int | None, types: _Types,
              cut: list | None = None, applied: dict | None = None) -> tuple[nx.DiGraph, list[str]]:
    """Edges child -> supertype over the whole closure (within `depth`), and the unresolved supertypes; `cut` gets
    what `depth` left out (`_beyond`); `applied` binds the root's type parameters (`hierarchy 'Map<String, V>'`)."""
    g = nx.DiGraph()
    g.add_node(root["id"])
    types.rows[root["id"]] = root
    frontier, level, unresolved = [root["id"]], 0, []
    envs: dict[str, dict | None] = {root["id"]: applied or {}}  # type variables of each supertype, in the root's terms
    while frontier and (depth is None or level < depth):
        types.fetch(p for t in frontier if types.rows.get(t) for p, _ in _parents(types.rows[t]))
        nxt = []
        for t in frontier:
            row = types.rows.get(t)
            if not row:
                continue
            written, applied = _as_written(row), supertypes_applied(row)
            for parent, rel in _parents(row):
                if parent not in g:
                    nxt.append(parent)
                prow = types.rows.get(parent)
                if prow is None or prow["external"]:
                    unresolved.append(parent)
                seen, penv = _seen(applied, envs[t], parent, prow)
                envs.setdefault(parent, penv)  # one parameterization per supertype (JLS §8.1.5): the first path's
                g.add_edge(t, parent, rel=rel, written=written.get(parent, format_type(parent)), seen=seen)
        frontier, level = [n for n in dict.fromkeys(nxt) if types.rows.get(n) and not types.rows[n]["external"]], \
            level + 1
    if cut is not None and frontier:
        def parents(ids: list[str]) -> list[str]:
            rows = [types.rows[t] for t in ids if types.rows.get(t) and not types.rows[t]["external"]]
            types.fetch(p for row in rows for p, _ in _parents(row))
            return [p for row in rows for p, _ in _parents(row)]
        cut.extend(_beyond(parents, frontier, g))
    return g, sorted(set(unresolved))


def _beyond(step, frontier: list[str], g: nx.DiGraph) -> tuple[list[str], int]:
    """(the types past a --depth cut, how many more levels hold them): the walk on from the cut's last level,
    `step` giving a level's next types, counting only (no edges, no warnings)."""
    seen, found, levels = set(g), [], 0
    while frontier:
        frontier = [n for n in dict.fromkeys(step(frontier)) if n not in seen]
        seen.update(frontier)
        found.extend(frontier)
        levels += bool(frontier)
    return found, levels


WHOLE_GRAPH_FRONTIER = 200  # above this many ids a level reads every subtype edge once (measured: ~0.4 s on the
# JDK, against ~3 s for an IN filter over the 9,800 direct subclasses of Object)


SUBTYPE_EDGES = "subtype-edges"  # GraphStore.reader_indexes: every subtype edge, sorted by parent and subtype


class _Subtypes:
    """Direct subtypes of a frontier: per-level queries, or one pass over every edge for huge frontiers. The edges of
    that pass stay Arrow columns, sorted by parent and subtype, and only a level's rows become Python rows (a Maven
    repository's 105k subtype edges as Python rows were most of `hierarchy java.util.Collection`'s 1.3 s there)."""

    def __init__(self, store: GraphStore):
        self.store = store
        self.edges = None  # pa.Table of every subtype edge, once a frontier was huge

    def of(self, frontier: list[str]) -> list[dict]:
        if self.edges is None and len(frontier) <= WHOLE_GRAPH_FRONTIER:
            return sorted(rows_by_ids(self.store, q.SUBTYPES_OF, frontier), key=lambda r: (r["parent"], r["id"]))
        import pyarrow as pa  # (not on the path of smaller answers)
        import pyarrow.compute as pc

        if self.edges is None:
            # a read-only graph never changes while open: a long-lived reader reads the edges once (0.23 s of every
            # `hierarchy java.util.Collection` on a Maven repository's graph before)
            held = self.store.reader_indexes.get(SUBTYPE_EDGES) if self.store.read_only else None
            if held is None:
                edges = self.store.query(q.ALL_SUBTYPE_EDGES)
                held = edges.take(pc.sort_indices(edges, [("parent", "ascending"), ("id", "ascending")]))
                if self.store.read_only:
                    self.store.reader_indexes[SUBTYPE_EDGES] = held
            self.edges = held
        mask = pc.is_in(self.edges["parent"], value_set=pa.array(sorted(set(frontier)), pa.string()))
        return self.edges.filter(mask).to_pylist()


def _down_graph(store: GraphStore, root: dict, depth: int | None, types: _Types, cut: list | None = None) -> nx.DiGraph:
    """Edges supertype -> subtype over every subtype in the workspace (within `depth`); `cut` gets what `depth` left
    out (`_beyond`)."""
    g = nx.DiGraph()
    g.add_node(root["id"])
    subtypes = _Subtypes(store)
    frontier, level = [root["id"]], 0
    while frontier and (depth is None or level < depth):
        nxt = []
        for r in subtypes.of(frontier):
            child = r["id"]
            types.rows.setdefault(child, {k: v for k, v in r.items() if k not in ("parent", "rel")})
            if child not in g:
                nxt.append(child)
            rel = "extends" if r["rel"] == "EXTENDS" or r["kind"] in INTERFACE_KINDS else "implements"
            g.add_edge(r["parent"], child, rel=rel,
                       written=_as_written(types.rows[child]).get(r["parent"], format_type(r["parent"])))
        frontier, level = list(dict.fromkeys(nxt)), level + 1
    if cut is not None and frontier:
        def children(ids: list[str]) -> list[str]:
            rows = subtypes.of(ids)
            for r in rows:
                types.rows.setdefault(r["id"], {k: v for k, v in r.items() if k not in ("parent", "rel")})
            return [r["id"] for r in rows]
        cut.extend(_beyond(children, frontier, g))
    return g


def _filtered(g: nx.DiGraph, root: str, keep) -> nx.DiGraph:
    """`g` with the nodes `keep` rejects bypassed: an accepted node hangs under its nearest accepted
    ancestors, the skipped chain named in `via`."""
    out = nx.DiGraph()
    out.add_node(root)
    for node in nx.bfs_tree(g, root):
        if node == root or not keep(node):
            continue
        for parent in g.predecessors(node):
            stack = [(parent, [], g.edges[parent, node])]
            while stack:
                p, via, data = stack.pop()
                if p == root or keep(p):
                    out.add_edge(p, node, **data, via=list(reversed(via)))
                    continue
                stack.extend((pp, via + [p], data) for pp in g.predecessors(p) if pp not in via)
    return out


def _abstract_class(row: dict | None) -> bool:
    """An abstract class (not an interface, whose flags say abstract too): shown `abstract class`, as `show` does."""
    return bool(row) and row.get("kind") == "class" and bool((row.get("access") or 0) & ACC["abstract"])


def _final_class(row: dict | None) -> bool:
    """A final class (no subclass can exist, in the workspace or outside it): shown `final class`, as `show` does; an
    enum and a record are final by their kind."""
    return bool(row) and row.get("kind") == "class" and bool((row.get("access") or 0) & ACC["final"])


def _entry(types: _Types, arts: Artifacts, node: str, data: dict) -> dict:
    row = types.rows.get(node)
    entry = {"type": format_type(node), "kind": (row or {}).get("kind") or "unknown",
             "artifact": arts.name(row.get("artifact") if row and not row["external"] else None),
             "relation": data["rel"], "as": data["written"]}
    if _abstract_class(row):
        entry["abstract"] = True
    elif _final_class(row):
        entry["final"] = True
    if "seen" in data:
        entry["as_seen"] = data["seen"]
    if row is None or row["external"]:
        entry["unresolved"] = True
    if data.get("via"):
        entry["via"] = [format_type(v) for v in data["via"]]
    return entry


def _tree(g: nx.DiGraph, root: str, types: _Types, arts: Artifacts, limit: int, depth: int | None,
          make) -> tuple[list[dict], TreeWalk]:
    def order(n: str) -> tuple:  # the superclass, then the interfaces as the class declares them (as javap, show)
        row = types.rows.get(n) or {}
        return (row.get("kind") in INTERFACE_KINDS,)  # (a stable sort: the edges were added in declaration order)

    walk = TreeWalk(g, order, lambda _ids: None, limit, depth)
    return walk.walk(root, make), walk


def _down_tree(store: GraphStore, g: nx.DiGraph, root: str, types: _Types, tiers: dict[str, int], limit: int,
               make) -> tuple[list[dict], int, set[str]]:
    """(tree, entries shown, types shown) of the subtypes: siblings by tier, then classes before interfaces, then
    name; past `limit`, entries in or under an anonymous, local or generated class go first, whichever branch
    holds them. The named types alone are walked first, bounded by `limit` as ever; only when they leave room is
    the whole tree walked and cut: the named entries, then the others in tree order while room is left. Both are
    prefixes of tree order, so every kept entry's parent is kept, and so is a type's first (expanded) occurrence."""
    keys: dict[str, tuple] = {}

    def key(n: str) -> tuple:
        if n not in keys:
            keys[n] = (tiers.get(n, PUBLIC), (types.rows.get(n) or {}).get("kind") in INTERFACE_KINDS,
                       name_order(format_type(n)))
        return keys[n]

    def raw(p: str, c: str, data: dict) -> dict:
        return {"node": c, "parent": p, "data": data}

    def flatten(entries: list[dict], under_low: bool, named: list[dict], low: list[dict]) -> None:
        for e in entries:
            is_low = under_low or tiers.get(e["node"], PUBLIC) >= ANONYMOUS
            (low if is_low else named).append(e)
            flatten(e.get("children", []), is_low, named, low)

    named_g = g.subgraph(n for n in g if n == root or tiers.get(n, PUBLIC) < ANONYMOUS)
    walk = TreeWalk(named_g, key, lambda _ids: None, limit, None)
    tree = walk.walk(root, raw)
    named: list[dict] = []
    low: list[dict] = []
    if walk.shown < limit and named_g.number_of_edges() < g.number_of_edges():
        tree = TreeWalk(g, key, lambda _ids: None, g.number_of_edges() + 1, None).walk(root, raw)
    flatten(tree, False, named, low)
    kept = named[:limit] + low[:max(limit - len(named), 0)]
    keep = {id(e) for e in kept}
    places = declared_in(store, {e["node"] for e in kept if tiers.get(e["node"], PUBLIC) >= ANONYMOUS})

    def build(entries: list[dict]) -> list[dict]:
        out = []
        for e in entries:
            if id(e) not in keep:
                continue
            entry = _marks(make(e["parent"], e["node"], e["data"]), e["node"], tiers.get(e["node"], PUBLIC), types,
                           places)
            entry.update({k: True for k in ("cycle", "seen") if e.get(k)})
            if "children" in e:
                entry["children"] = build(e["children"])
            out.append(entry)
        return out
    return build(tree), len(kept), {e["node"] for e in kept}


def _within(g: nx.DiGraph, root: dict, opts: HierarchyOptions, arts: Artifacts, types: _Types) -> nx.DiGraph:
    """The graph cut to the artifacts `--in`/`--exclude` keep (skipped types named in `via`)."""
    if not (opts.filter.include or opts.filter.exclude):
        return g
    return _filtered(g, root["id"], lambda n: opts.filter.accepts(arts, (types.rows.get(n) or {}).get("artifact")))


def hierarchy(store: GraphStore, text: str, opts: HierarchyOptions) -> tuple[dict, list[Warning_], dict | None]:
    """(result, warnings, truncation) of `hierarchy`: the up and down trees with their distinct counts."""
    limit = check_limit(opts.limit)
    depth = check_depth(opts.depth, None)
    root, applied, notes = _root(store, text)
    arts = Artifacts.of(store)
    types = _Types(store)
    result: dict = {"type": format_type(root["id"]), "kind": root["kind"], "artifact": arts.name(root["artifact"]),
                    **({"type_arguments": type_arguments(applied)} if applied else {}), **_external(notes, root)}
    if _abstract_class(root):
        result["abstract"] = True
    elif _final_class(root):
        result["final"] = True
    warnings: list[Warning_] = []
    made: list[tuple[str, dict]] = []  # (type id, row) of each row listed, for stale class files (mark_stale)
    shown = total = types_shown = types_total = 0
    left: dict[str, int] = {}  # subtypes the limit left out, by kind (named, anonymous, inlined, synthetic)
    deeper, need = 0, depth  # types past --depth (counted, not shown) and the --depth that shows them all
    for direction, wanted in (("up", opts.up), ("down", opts.down)):
        if not wanted:
            continue
        cut: list = []
        if direction == "up":
            g, unresolved = _up_graph(store, root, depth, types, cut, applied)
            warnings += unresolved_warnings(unresolved, "the hierarchy above it is unknown")
        else:
            g = _down_graph(store, root, depth, types, cut)
            warnings += sealed_warnings(store, root["id"], g, "the subtypes below it are unknown")
        g = _within(g, root, opts, arts, types)
        beyond = _accepted(cut[0], opts, arts, types) if cut else []
        if beyond:
            deeper, need = deeper + len(beyond), max(need, depth + cut[1])
        def make(_p: str, c: str, data: dict) -> dict:
            made.append((c, _entry(types, arts, c, data)))
            return made[-1][1]
        if direction == "up":
            tree, walk = _tree(g, root["id"], types, arts, limit - shown, None, make)
            walked, seen = walk.shown, _types_in(tree)
        else:
            tiers = _tiers(store, (n for n in g if n != root["id"]), types)
            tree, walked, kept = _down_tree(store, g, root["id"], types, tiers, limit - shown, make)
            seen = {format_type(n) for n in kept}
            left = _left_out((n for n in g if n != root["id"] and n not in kept), tiers)
        result[direction] = tree
        if root_cut := g.out_degree(root["id"]) - len(tree):  # the root's own supertypes (subtypes) the limit left out: never read as complete
            result[f"{direction}_not_shown"] = root_cut
        result[f"{direction}_count"] = g.number_of_nodes() - 1 + len(beyond)  # every one, whatever --depth shows
        # every node is expanded once, so the full tree has one entry per edge; a type reached through two
        # parents is one of the header's distinct types, so the footer counts distinct types too
        shown, total = shown + walked, total + g.number_of_edges()
        types_shown, types_total = types_shown + len(seen), types_total + g.number_of_nodes() - 1 + len(beyond)
    truncated = None
    if shown < total or deeper:
        parts = [f"{result[k]} {w}" for k, w in (("up_count", "supertypes"), ("down_count", "subtypes")) if k in result]
        hint = "; ".join(x for x in (" + ".join(parts), _left_out_text(left),
                                     deeper and f"{deeper} deeper than --depth {depth}: --depth {need} shows them",
                                     shown < total and f"--limit {total}") if x)  # (within --depth)
        truncated = {"shown": types_shown, "total": types_total, "hint": hint}
        if left:
            truncated["left_out"] = left
        if deeper:
            truncated.update(deeper=deeper, depth=need)
    return result, warnings + mark_stale(store, made), truncated


def _accepted(nodes: list[str], opts: HierarchyOptions, arts: Artifacts, types: _Types) -> list[str]:
    """The types past a --depth cut that --in/--exclude keep."""
    if not (opts.filter.include or opts.filter.exclude):
        return nodes
    return [n for n in nodes if opts.filter.accepts(arts, (types.rows.get(n) or {}).get("artifact"))]


def _types_in(entries: list[dict]) -> set[str]:
    out: set[str] = set()
    for e in entries:
        out.add(e["type"])
        out |= _types_in(e.get("children", []))
    return out


def _root(store: GraphStore, text: str) -> tuple[dict, dict, list[str]]:
    """(the type a hierarchy question names, its type parameters bound to the arguments given as `members` checks
    them, notes): a type no artifact declares but the workspace's code extends, implements or references (its
    artifact is missing: an external node) answers with the subtypes the workspace has and a note saying the rest of
    it is unknown."""
    try:
        row, applied = resolve_applied_type(store, text)
        shadowed = f"this copy is shadowed (an earlier artifact provides {row['fqn']}): the workspace's subtypes " \
            f"extend the loaded copy: jdx implementors '{row['fqn']}'"
        return row, applied, [shadowed] if row.get("shadowed") else []
    except NotFoundError:
        from jdx.engine.external_symbols import external_type

        ref = parse_ref(text)
        row = external_type(store, ref) if ref.member is None else None
        if row is None:
            raise
        name = format_type(row["id"])
        unchecked = " (nor its type parameters: the type arguments given are not checked)" if "<" in text else ""
        return row, {}, [f"{name} is external: no artifact of the workspace declares it (its artifact is missing), so "
                         f"its own supertypes and kind are unknown{unchecked}; its subtypes are the workspace's types "
                         f"that extend or implement it"]


def _external(notes: list[str], root: dict) -> dict:
    return {**({"external": True} if root.get("external") else {}), "notes": notes} if notes else {}


def implementor_key(node: str, depth: int, tier: int, internal: frozenset[str] | None = None) -> tuple:
    """`implementors`' order, an IDE's "implementations" view: by value tier (public, non-public named, anonymous or
    local, compiler-made), the JDK's implementation packages after the rest of a tier (`internal`: as search ranks
    them, ranking.is_jdk_internal), each nearest first (direct subtypes, then theirs, ...), then by name, so a
    truncated page keeps the subtypes a reader names first (ElementMatcher's direct `Junction` before 78 deep
    matchers; AbstractMap's java.util.HashMap before com.sun.org.apache.xerces.internal...XSNamedMapImpl)."""
    name = format_type(node)
    return (tier, is_jdk_internal(name, internal), depth, name_order(name))


def name_order(name: str) -> list:
    """A name as subtype lists order it: javac's numbered classes by their number (`JsonWriter$2` before
    `JsonWriter$10`, `Outer$1` before `Outer$1Row`), the rest as text."""
    return [int(p) if i % 2 else p for i, p in enumerate(_NUMBERED.split(name))]


def implementors(store: GraphStore, text: str, opts: HierarchyOptions) -> tuple[dict, list[Warning_], dict | None]:
    """Every subtype of a type in the workspace (the down closure, flat), with the supertypes it names."""
    limit = check_limit(opts.limit)
    depth = check_depth(opts.depth, None)
    root, _applied, notes = _root(store, text)
    arts = Artifacts.of(store)
    types = _Types(store)
    cut: list = []
    whole = _down_graph(store, root, depth, types, cut)
    levels = nx.single_source_shortest_path_length(whole, root["id"])  # the workspace's depth, whatever --in skips
    g = _within(whole, root, opts, arts, types)
    beyond = _accepted(cut[0], opts, arts, types) if cut else []
    tiers = _tiers(store, (n for n in g if n != root["id"]), types)
    internal = internal_packages(store)
    nodes = sorted((n for n in g if n != root["id"]), key=lambda n: implementor_key(n, levels[n], tiers[n], internal))
    out = []
    places = declared_in(store, [n for n in nodes[:limit] if tiers[n] >= ANONYMOUS])
    for n in nodes[:limit]:
        parents = sorted(g.predecessors(n), key=d.internal_to_fqn)
        entry = _marks(_entry(types, arts, n, g.edges[parents[0], n]), n, tiers[n], types, places)
        entry["supertypes"] = [f"{g.edges[p, n]['rel']} {g.edges[p, n]['written']}" for p in parents]
        entry["direct"] = root["id"] in parents
        entry["depth"] = levels[n]
        out.append(entry)
    result = {"type": format_type(root["id"]), "kind": root["kind"], "artifact": arts.name(root["artifact"]),
              "implementors": out, "count": len(nodes) + len(beyond),  # every one, whatever --depth shows
              **_external(notes, root)}
    if _abstract_class(root):
        result["abstract"] = True
    elif _final_class(root):
        result["final"] = True
    lambdas = lambda_implementations(store, root, sub_interfaces(whole, root["id"], types), opts.filter, arts)
    if lambdas:
        result["lambdas"] = lambdas
    truncated = None
    if len(nodes) > limit or beyond:
        left = _left_out(nodes[limit:], tiers)
        deeper = beyond and f"{len(beyond)} deeper than --depth {depth}: --depth {depth + cut[1]} shows them"
        truncated = {"shown": len(out), "total": len(nodes) + len(beyond), "left_out": left,
                     "hint": "; ".join(x for x in (_left_out_text(left), deeper,
                                                   len(nodes) > limit and f"--limit {len(nodes)}") if x)}
        if beyond:
            truncated.update(deeper=len(beyond), depth=depth + cut[1])
    return result, sealed_warnings(store, root["id"], whole, "it and the subtypes below it are not listed") \
        + mark_stale(store, zip(nodes[:limit], out)), truncated
