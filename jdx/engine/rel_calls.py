"""`callers` and `calls` (spec §7.3): incoming and outgoing call trees with `--depth`, cycle-safe.

The trees grow on demand (`TreeWalk.load`): only methods that will be shown are expanded, one query
per expanded method, so `--depth 5` stays bounded by `--limit` in time and output. Virtual dispatch is
explicit: an INVOKES edge names the declaration the JVM links (`via` the subtype named at the call
site); `calls` shows that declaration, and `callers` of an overridable method lists calls through its
declaring type and the subtypes that inherit it, never the callers of its overrides. In the Kotlin view the
callers of a Kotlin function include the callers of its `$default` stub (`via foo$default`; a multi-file facade's
stub reaches it through its part's), never the stub or an @JvmOverloads copy forwarding to it
(`kotlin_hits.kotlin_sites`); `--view jvm` lists the stub as the caller and a note says where its callers are.
A multi-file facade's function is one node (`_facade_twins`): the facade's public copy, what callers call, stands for
the part's method that holds its code (`part` names it; its lines are the part's), so its callers are the next level
and `calls` of the copy are the part's calls; `--view jvm` keeps the copy and the part's method as two hops.
Lambdas are their writer's code both ways: `calls foo` lists the calls in the lambda bodies `foo` hands over (javac's,
kotlinc 2's) and, in the Kotlin view, in the Kotlin lambda classes it writes, marked in lambda, exactly the sites
`callers` gives to `foo` (foo is among `callers X` iff X is among `calls foo`); a lambda class's plumbing (constructor,
bridges, a suspend lambda's `create`/`invoke`) and a continuation resuming its function are neither's.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import networkx as nx

from jdx.engine.kotlin_hits import KotlinSites, has_kotlin, kotlin_sites, through_name
from jdx.engine.kotlin_view import member_kotlin, member_ref
from jdx.engine.members import ACC
from jdx.engine.refs import format_type
from jdx.engine.relations import (ArtifactFilter, Artifacts, TreeWalk, check_depth, check_limit, is_bridge,
                                  is_lambda, kotlin_lambda_code, kotlin_lambda_plumbing, kotlin_lambda_writers,
                                  lambda_writers, method_ref, resolve_symbol, rows_by_ids, sort_key, split_method_id,
                                  twin_ids)
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
        self.parts: dict[str, str] = {}  # a multi-file facade's copy shown -> the part's method it stands for

    def remember_ids(self, ids) -> None:
        """Rows of methods known by id only (a facade's copy standing for its part's method)."""
        missing = [i for i in ids if i not in self.rows]
        for r in rows_by_ids(self.store, q.METHODS_BY_IDS, missing) if missing else ():
            self.remember(r, "")

    def remember(self, row: dict, prefix: str) -> None:
        if row[prefix + "id"] in self.rows:
            return
        self.rows[row[prefix + "id"]] = row if prefix == "c_" else \
            {"c_" + k[len(prefix):]: v for k, v in row.items() if k.startswith(prefix)}

    def add(self, parent: str, child: str, line: int, kind: str, via: str | None, in_lambda: bool) -> None:
        if not self.g.has_edge(parent, child):
            self.g.add_edge(parent, child, lines=set(), kinds=set(), via=set(), in_lambda=False, method_ref=False,
                            direct_lines=set(), lambda_lines=set())
        e = self.g.edges[parent, child]
        e["lines"].add(line if line is not None else -1)
        (e["lambda_lines"] if in_lambda else e["direct_lines"]).add(line if line is not None else -1)
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
        if data["in_lambda"] and data["direct_lines"]:  # called directly and in a lambda: which lines are in one
            out["lambda_lines"] = sorted(data["lambda_lines"])
        if data["via"]:
            out["via"] = sorted(data["via"])
        if row.get("c_external"):
            out["external"] = True
        if row.get("c_access") is not None and is_bridge(row, "c_"):
            out["bridge"] = True
        if child in self.parts and self.parts[child] in self.rows:
            out["part"] = method_ref(self.rows[self.parts[child]], "c_")
        return out


_TWIN_ROLES = {"method": "facade", "facade": "method", "getter": "getter", "setter": "setter", "default": "default"}


def _facade_twins(store: GraphStore, ids) -> dict[str, tuple[str, str]]:
    """Member id -> (the facade's copy, the part's method) of the Kotlin declaration of a multi-file facade
    (`@file:JvmMultifileClass`) it compiles to, for those of `ids` that are one of the two: the facade's public
    static copy (what callers call) only calls the part's method, which holds the code. A function's pair, its
    `$default` stubs', or a property accessor's; a facade whose parts it inherits (kotlin-stdlib's) has no copies,
    so no pairs."""
    ids = sorted(set(ids))
    if not ids or not has_kotlin(store):
        return {}
    out = {}
    for mid, rows in member_kotlin(store, ids).items():
        d = rows[0]
        facade, part, twin = d.get("facade"), d["owner"], _TWIN_ROLES.get(rows[0]["role"])
        if not facade or twin is None or mid.split("#", 1)[0] not in (facade, part):
            continue
        mine = mid.split("#", 1)[0]
        other = next((m for role, m in (link.split(":", 1) for link in d["jvm"] or () if not link.startswith("type:"))
                      if role == twin and m != mid and m.split("#", 1)[0] in (facade, part)
                      and m.split("#", 1)[0] != mine), None)
        if other is not None:
            out[mid] = (mid, other) if mine == facade else (other, mid)
    return out


def _forwarded(kt: KotlinSites, rows: list[dict], ids: list[str]) -> dict[str, str]:
    """`kt.forwarded` through chains of stubs: a multi-file facade's `foo$default` calls its part's `foo$default`,
    which calls `foo`; callers of the facade's stub (every Kotlin caller omitting a default) are `foo`'s too."""
    out = kt.forwarded(rows, ids)
    hops = [(r["c_id"], r["target"]) for r in rows if r["c_id"] in kt.stubs and r["target"] in kt.stubs]
    while news := {s: out[t] for s, t in hops if s not in out and t in out}:
        out.update(news)
    return out


def _twin_rows(rows: list[dict], pairs: dict[str, tuple[str, str]], ids: list[str]) -> list[dict]:
    """CALLS_INTO `rows` read as calls of `ids`: the facade copy's own call of its part's method left out, a call of
    the twin of one of `ids` (its facade copy, its part's method) made a call of that one, `via` the class it
    names (an inlined body names the part's method: its source is the part's)."""
    twin_of = {}
    for i in ids:
        if i in pairs:
            facade, part = pairs[i]
            twin_of[part if i == facade else facade] = i
    out = []
    for r in rows:
        pair = pairs.get(r["target"]) or pairs.get(twin_of.get(r["target"], ""))
        if pair and (r["c_id"], r["target"]) == pair:
            continue  # the copy forwarding to the part's method: the function itself
        if r["target"] in twin_of and r["target"] not in ids:
            via = r["via"] or (r["target"].split("#", 1)[0] if r["kind"] != "inline" else None)
            r = {**r, "target": twin_of[r["target"]], "via": via}
        out.append(r)
    return out


def _callers_loader(cg: _CallGraph, flt: ArtifactFilter, view: str = "kotlin"):
    def load(ids: list[str]) -> None:
        kt = kotlin_sites(cg.store, ids) if view == "kotlin" else None
        stubs = kt.stubs if kt is not None else {}
        pairs = _facade_twins(cg.store, ids) if view == "kotlin" else {}
        twins = {x for i in ids if i in pairs for x in pairs[i]}
        rows = rows_by_ids(cg.store, q.CALLS_INTO, sorted(set(ids) | set(stubs) | twins))
        if pairs:
            rows = _twin_rows(rows, pairs, ids)
        if kt is not None:
            stubs = _forwarded(kt, rows, ids)  # a stub forwarding to none of `ids` is another level's
            rows = [r for r in rows if not kt.forwarding(r["c_id"], r["target"])
                    and (r["target"] in ids or r["target"] in stubs)]
        classes = kotlin_lambda_writers(cg.store, [r["c_id"] for r in rows]) if view == "kotlin" else {}
        # a lambda class inside a lambda body (a suspend lambda in kotlinc 2's `foo$lambda$0`) is the body's writer's
        writers = lambda_writers(cg.store, [r["c_id"] for r in rows if is_lambda(r, "c_")] + [
            e.row["c_id"] for e in classes.values() if is_lambda(e.row, "c_")])
        plumbing = kotlin_lambda_plumbing(cg.store, {i: cg.rows[i]["c_access"] for i in ids if i in cg.rows}) \
            if view == "kotlin" else set()
        # a caller that is a multi-file part's method shows as the facade's copy callers call (one node, one hop)
        folds = {} if view != "kotlin" else {
            m: pair[0] for m, pair in _facade_twins(cg.store, {w["c_id"] for w in writers.values()} | {
                e.row["c_id"] for e in classes.values()} | {
                r["c_id"] for r in rows if "__" in r["c_id"].split("#", 1)[0]}).items() if m == pair[1]}
        cg.remember_ids(sorted(set(folds.values())))
        for r in sorted(rows, key=lambda r: (stubs.get(r["target"], r["target"]), r["c_id"], r["line"] or -1)):
            target_row = cg.rows.get(r["target"])
            if r["kind"] == "handle" and target_row is not None and is_lambda(target_row, "c_"):
                continue  # handing over a lambda body: the body is its writer's code (`calls` descends into it)
            if r["target"] in plumbing and r["target"].split("#", 1)[0] != r["c_id"].split("#", 1)[0]:
                continue  # constructing a Kotlin lambda class: no code of the lambda runs
            caller, in_lambda = r, False
            enclosing = classes.get(r["c_id"])
            if enclosing is not None and r["target"].split("#", 1)[0] != enclosing.lambda_class:
                if enclosing.resumes is not None and r["target"] in (enclosing.resumes, folds.get(enclosing.resumes)):
                    continue  # a suspend function's state machine resuming the function
                caller, in_lambda = enclosing.row, enclosing.in_lambda
            if is_lambda(caller, "c_") and caller["c_id"] in writers:
                caller, in_lambda = writers[caller["c_id"]], True
            if not flt.accepts(cg.arts, caller["c_artifact"]):
                continue
            cg.remember(caller, "c_")
            caller_id = caller["c_id"]
            if caller_id in folds and folds[caller_id] in cg.rows:
                caller_id = folds[caller_id]
                cg.parts[caller_id] = caller["c_id"]
            target, via = stubs.get(r["target"], r["target"]), [format_type(r["via"])] if r["via"] else []
            if r["target"] in stubs:  # a Kotlin caller omitting a defaulted argument calls the `$default` stub
                via.append(through_name(r["target"]))
            cg.add(target, caller_id, r["line"], r["kind"], ", ".join(via), in_lambda)
    return load


def _calls_loader(cg: _CallGraph, flt: ArtifactFilter, external_only: bool, view: str = "kotlin"):
    """The inverse of `_callers_loader`: the calls of a method, of the lambda bodies it hands over (javac's, kotlinc
    2's) and, in the Kotlin view, of the code of the Kotlin lambda classes it writes (`kotlin_lambda_code`), those
    two marked in lambda; the lambda classes' plumbing and a continuation resuming its function left out."""
    kotlin = view == "kotlin"

    def load(ids: list[str]) -> None:
        owner = {i: i for i in ids}  # a method whose calls are shown -> the node they are shown under
        in_lambda: dict[str, bool] = {}
        own_class: dict[str, str] = {}  # a method of a Kotlin lambda class -> the class: its calls into it are its own
        resumed: dict[str, tuple] = {}  # a continuation's method -> the suspend function it resumes (and its copy)
        # a multi-file facade's copy only calls its part's method: the part's calls are the copy's (one hop)
        parts = {} if not kotlin else {
            pair[1]: pair[0] for m, pair in _facade_twins(cg.store, ids).items() if m == pair[0]}
        for part, facade in parts.items():
            owner.setdefault(part, facade)
            cg.parts[facade] = part
        cg.remember_ids(sorted(parts))
        pending = sorted(set(owner))
        while pending:
            for m, e in sorted(kotlin_lambda_code(cg.store, pending).items()) if kotlin else ():
                if m not in owner:
                    owner[m], in_lambda[m], own_class[m] = owner[e.row["c_id"]], e.in_lambda, e.lambda_class
                    if e.resumes is not None:
                        resumed[m] = (e.resumes, parts.get(e.resumes))
                    pending.append(m)
            rows = rows_by_ids(cg.store, q.CALLS_FROM, pending)
            plumbing = kotlin_lambda_plumbing(cg.store, {r["t_id"]: r["t_access"] for r in rows}) if kotlin else set()
            pending = []
            for r in sorted(rows, key=lambda r: (r["source"], r["t_id"], r["line"] or -1)):
                source, target = r["source"], r["t_id"]
                src = owner[source]
                if parts.get(target) == src:
                    continue  # the facade's copy forwarding to its part's method
                if r["kind"] == "handle" and is_lambda(r, "t_"):
                    if target not in owner:  # the lambda's body runs as part of the method that wrote it
                        owner[target], in_lambda[target] = src, True
                        if source in own_class:
                            own_class[target] = own_class[source]
                        pending.append(target)
                    continue
                if target.split("#", 1)[0] == own_class.get(source) or target in resumed.get(source, ()):
                    continue  # a lambda class calling its own plumbing; a suspend function's state machine resuming it
                if target in plumbing and target.split("#", 1)[0] != source.split("#", 1)[0]:
                    continue  # constructing a Kotlin lambda class: no code of the lambda runs
                src_artifact = cg.rows[src]["c_artifact"] if src in cg.rows else None
                if external_only and not r["t_external"] and r["t_artifact"] == src_artifact:
                    continue
                if not flt.accepts(cg.arts, None if r["t_external"] else r["t_artifact"]):
                    continue
                cg.remember(r, "t_")
                cg.add(src, target, r["line"], r["kind"], format_type(r["via"]) if r["via"] else None,
                       in_lambda.get(source, False))
    return load


def _entries(entries: list[dict]):
    for e in entries:
        yield e
        yield from _entries(e.get("children", []))


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
        _calls_loader(cg, opts.filter, opts.external_only, opts.view)
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
    shown = {e["id"] for t in trees for e in _entries(t["tree"])} | {t["id"] for t in trees}
    folded = sorted((f, p) for f, p in cg.parts.items() if f in shown and p in cg.rows)
    if folded:
        facade, part = folded[0]
        notes.append(f"a multi-file facade's function is shown once, as the facade's copy callers call "
                     f"({method_ref(cg.rows[facade], 'c_')}); its code, and the lines, are its part's method's "
                     f"({method_ref(cg.rows[part], 'c_')}); --view jvm shows the two as separate hops")
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
