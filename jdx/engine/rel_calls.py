"""`callers` and `calls` (spec §7.3): incoming and outgoing call trees with `--depth`, cycle-safe.

The trees grow on demand (`TreeWalk.load`): only methods that will be shown are expanded, one query
per expanded method, so `--depth 5` stays bounded by `--limit` in time and output. Virtual dispatch is
explicit: an INVOKES edge names the declaration the JVM links (`via` the subtype named at the call
site); `calls` shows that declaration, and `callers` of an overridable method lists calls through its
declaring type and the subtypes that inherit it, never the callers of its overrides. In the Kotlin view the
callers of a Kotlin function include the callers of its `$default` stub (`via foo$default`; a multi-file facade's
stub reaches it through its part's), never the stub or an @JvmOverloads copy forwarding to it
(`kotlin_hits.kotlin_sites`); `--view jvm` lists the stub as the caller and a note says where its callers are.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import networkx as nx

from jdx.engine.kotlin_hits import KotlinSites, kotlin_sites, through_name
from jdx.engine.kotlin_view import member_ref
from jdx.engine.members import ACC
from jdx.engine.refs import format_type
from jdx.engine.relations import (ArtifactFilter, Artifacts, TreeWalk, check_depth, check_limit, is_bridge,
                                  is_lambda, lambda_writers, method_ref, resolve_symbol, rows_by_ids, sort_key,
                                  split_method_id, twin_ids)
from jdx.graph_schema import queries_graph as q
from jdx.graph_schema.store import GraphStore


@dataclass
class CallOptions:
    depth: int | None = None
    filter: ArtifactFilter = field(default_factory=ArtifactFilter)
    limit: int | None = None
    external_only: bool = False
    view: str = "kotlin"  # jvm: the JVM methods' own callers, nothing read as Kotlin


class _CallGraph:
    """Method rows (`c_` columns) and call edges, grown level by level; edges carry every site."""

    def __init__(self, store: GraphStore, arts: Artifacts):
        self.store = store
        self.arts = arts
        self.g = nx.DiGraph()
        self.rows: dict[str, dict] = {}

    def remember(self, row: dict, prefix: str) -> None:
        if row[prefix + "id"] in self.rows:
            return
        self.rows[row[prefix + "id"]] = row if prefix == "c_" else \
            {"c_" + k[len(prefix):]: v for k, v in row.items() if k.startswith(prefix)}

    def add(self, parent: str, child: str, line: int, kind: str, via: str | None, in_lambda: bool) -> None:
        if not self.g.has_edge(parent, child):
            self.g.add_edge(parent, child, lines=set(), kinds=set(), via=set(), in_lambda=False, method_ref=False)
        e = self.g.edges[parent, child]
        e["lines"].add(line if line is not None else -1)
        e["kinds"].add(kind)
        if via:
            e["via"].add(via)
        e["in_lambda"] = e["in_lambda"] or in_lambda
        e["method_ref"] = e["method_ref"] or kind == "handle"

    def order(self, node: str) -> tuple:
        row = self.rows.get(node)
        if row is None:
            return (1 << 30, node)
        return (self.arts.position(row["c_artifact"]), sort_key(row, "c_"), node)

    def entry(self, parent: str, child: str, data: dict) -> dict:
        row = self.rows[child]
        out = {"method": method_ref(row, "c_"), "id": child, "artifact": self.arts.name(row["c_artifact"]),
               "lines": sorted(data["lines"]), "kinds": sorted(data["kinds"])}
        for key in ("in_lambda", "method_ref"):
            if data[key]:
                out[key] = True
        if data["via"]:
            out["via"] = sorted(data["via"])
        if row.get("c_external"):
            out["external"] = True
        if row.get("c_access") is not None and is_bridge(row, "c_"):
            out["bridge"] = True
        return out


def _forwarded(kt: KotlinSites, rows: list[dict], ids: list[str]) -> dict[str, str]:
    """`kt.forwarded` through chains of stubs: a multi-file facade's `foo$default` calls its part's `foo$default`,
    which calls `foo`; callers of the facade's stub (every Kotlin caller omitting a default) are `foo`'s too."""
    out = kt.forwarded(rows, ids)
    hops = [(r["c_id"], r["target"]) for r in rows if r["c_id"] in kt.stubs and r["target"] in kt.stubs]
    while news := {s: out[t] for s, t in hops if s not in out and t in out}:
        out.update(news)
    return out


def _callers_loader(cg: _CallGraph, flt: ArtifactFilter, view: str = "kotlin"):
    def load(ids: list[str]) -> None:
        kt = kotlin_sites(cg.store, ids) if view == "kotlin" else None
        stubs = kt.stubs if kt is not None else {}
        rows = rows_by_ids(cg.store, q.CALLS_INTO, list(ids) + sorted(stubs))
        if kt is not None:
            stubs = _forwarded(kt, rows, ids)  # a stub forwarding to none of `ids` is another level's
            rows = [r for r in rows if not kt.forwarding(r["c_id"], r["target"])
                    and (r["target"] in ids or r["target"] in stubs)]
        writers = lambda_writers(cg.store, [r["c_id"] for r in rows if is_lambda(r, "c_")])
        for r in sorted(rows, key=lambda r: (stubs.get(r["target"], r["target"]), r["c_id"], r["line"] or -1)):
            caller, in_lambda = r, False
            if is_lambda(r, "c_") and r["c_id"] in writers:
                caller, in_lambda = writers[r["c_id"]], True
            if not flt.accepts(cg.arts, caller["c_artifact"]):
                continue
            cg.remember(caller, "c_")
            target, via = stubs.get(r["target"], r["target"]), [format_type(r["via"])] if r["via"] else []
            if r["target"] in stubs:  # a Kotlin caller omitting a defaulted argument calls the `$default` stub
                via.append(through_name(r["target"]))
            cg.add(target, caller["c_id"], r["line"], r["kind"], ", ".join(via), in_lambda)
    return load


def _calls_loader(cg: _CallGraph, flt: ArtifactFilter, external_only: bool):
    def load(ids: list[str]) -> None:
        owner = {i: i for i in ids}
        pending = list(ids)
        while pending:
            rows = rows_by_ids(cg.store, q.CALLS_FROM, pending)
            pending = []
            for r in sorted(rows, key=lambda r: (r["source"], r["t_id"], r["line"] or -1)):
                src = owner[r["source"]]
                if r["kind"] == "handle" and is_lambda(r, "t_"):
                    if r["t_id"] not in owner:  # the lambda's body runs as part of the method that wrote it
                        owner[r["t_id"]] = src
                        pending.append(r["t_id"])
                    continue
                src_artifact = cg.rows[src]["c_artifact"] if src in cg.rows else None
                if external_only and not r["t_external"] and r["t_artifact"] == src_artifact:
                    continue
                if not flt.accepts(cg.arts, None if r["t_external"] else r["t_artifact"]):
                    continue
                cg.remember(r, "t_")
                cg.add(src, r["t_id"], r["line"], r["kind"], format_type(r["via"]) if r["via"] else None,
                       r["source"] != src)
    return load


def _fix_twins(store: GraphStore, cg: _CallGraph, trees: list[dict]) -> None:
    """Bridge twins among the shown methods get `:ReturnType` in their refs."""
    shown: list[dict] = []

    def visit(entries: list[dict]) -> None:
        for e in entries:
            shown.append(e)
            visit(e.get("children", []))

    for t in trees:
        visit(t["tree"])
    twins = twin_ids(store, [cg.rows[i] for i in {e["id"] for e in shown} | {t["id"] for t in trees}], "c_")
    for e in shown + trees:
        if e["id"] in twins:
            e["method"] = method_ref(cg.rows[e["id"]], "c_", twins=True)


def _dispatch_note(store: GraphStore, row: dict, ref: str) -> str | None:
    """What `callers` of an overridable method includes and what it leaves to the overrides."""
    access = row["c_access"] or 0
    owner, name, _ = split_method_id(row["c_id"])
    if name in ("<init>", "<clinit>") or access & (ACC["static"] | ACC["private"]):
        return None
    overriders = store.rows(q.OVERRIDERS_COUNT, {"id": row["c_id"]})[0]["n"]
    owner = format_type(owner)
    text = (f"{ref}: calls through {owner} and through subtypes that inherit this declaration are included "
            f"(virtual dispatch may run an override)")
    if overriders:
        text += f"; callers of its {overriders} overriding method(s) are not: jdx overrides '{ref}'"
    return text


def _stub_notes(store: GraphStore, ids: list[str]) -> list[str]:
    """`--view jvm`: Kotlin callers omitting a defaulted argument call the `$default` stub, so they show as the
    stub's callers (deeper levels), not the function's; say so rather than drop them silently."""
    kt = kotlin_sites(store, ids)
    if kt is None:
        return []
    # the stub a caller names sits beside the function (a multi-file facade's part has its own, called by it)
    stubs = sorted(s for s, t in kt.stubs.items() if s not in kt.companions and s.split("#")[0] == t.split("#")[0])
    return [f"Kotlin callers that omit a defaulted argument call the stub {through_name(s)}: here they are its "
            f"callers (jdx callers '{member_ref(s)}' --view jvm); --view kotlin lists them here" for s in stubs]


def _bodyless_note(row: dict, ref: str) -> str | None:
    """`calls` of an abstract or native method is empty by nature: say where the code is."""
    access = row["c_access"] or 0
    if access & ACC["abstract"]:
        return f"{ref} is abstract: it has no calls; its implementations do (jdx overrides '{ref}')"
    if access & ACC["native"]:
        return f"{ref} is native: its code is not bytecode"
    return None


def call_tree(store: GraphStore, text: str, opts: CallOptions, direction: str) -> tuple[dict, dict | None]:
    """(result, truncation) of `callers` (direction `in`) or `calls` (direction `out`)."""
    limit = check_limit(opts.limit)
    depth = check_depth(opts.depth, 1)
    symbol = resolve_symbol(store, text, members_only=True)
    arts = Artifacts.of(store)
    cg = _CallGraph(store, arts)
    for r in rows_by_ids(store, q.METHODS_BY_IDS, [t.id for t in symbol.targets]):
        cg.remember(r, "")
    load = _callers_loader(cg, opts.filter, opts.view) if direction == "in" else \
        _calls_loader(cg, opts.filter, opts.external_only)
    walk = TreeWalk(cg.g, cg.order, load, limit, depth)
    trees, notes = [], []
    for t in symbol.targets:
        row = cg.rows[t.id]
        trees.append({"method": method_ref(row, "c_"), "id": t.id, "artifact": arts.name(row["c_artifact"]),
                      "tree": walk.walk(t.id, cg.entry)})
        note = _dispatch_note(store, row, t.ref) if direction == "in" else _bodyless_note(row, t.ref)
        if note:
            notes.append(note)
    if direction == "in" and opts.view == "jvm":
        notes.extend(_stub_notes(store, [t.id for t in symbol.targets]))
    if direction == "out":
        notes.append("each call names the declaration the JVM links; invokevirtual/invokeinterface may run an "
                     "override at run time (jdx overrides <method>)")
    _fix_twins(store, cg, trees)
    result = {"symbol": text, "direction": "callers" if direction == "in" else "calls", "depth": depth,
              "filter": opts.filter.describe() + (" --external-only" if opts.external_only else ""),
              "notes": notes, "roots": trees}
    truncated = None
    if walk.shown < walk.total:
        hint = f"--limit {walk.total}" + (" or a smaller --depth; deeper levels were not walked"
                                          if walk.lower_bound else "")
        truncated = {"shown": walk.shown, "total": walk.total, "hint": hint}
    return result, truncated
