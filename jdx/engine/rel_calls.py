"""`callers` and `calls` (spec §7.3): incoming and outgoing call trees with `--depth`, cycle-safe.

The trees fill level by level (`_LevelWalk`): `--limit` keeps every direct caller before any caller's caller
(spec §8.3: the deepest entries go first), and the graph grows on demand, one batch of methods at a time, so
`--depth 5` stays bounded by `--limit` in time and output. Virtual dispatch is
explicit: an INVOKES edge names the declaration the JVM links (`via` the subtype named at the call
site); `calls` shows that declaration, and `callers` of an overridable method lists calls through its
declaring type and the subtypes that inherit it, never the callers of its overrides, nor the calls of a method it
overrides (a note counts those: the JVM may dispatch them to it). In the Kotlin view the
callers of a Kotlin function include the callers of its `$default` stub (`via foo$default`; a multi-file facade's
stub reaches it through its part's), never the stub or an @JvmOverloads copy forwarding to it
(`kotlin_hits.kotlin_sites`); `--view jvm` lists the stub as the caller and a note says where its callers are.
A multi-file facade's function is one node (`facade_twins`): the facade's public copy, what callers call, stands for
the part's method that holds its code (`part` names it; its lines are the part's), so its callers are the next level
and `calls` of the copy are the part's calls; `--view jvm` keeps the copy and the part's method as two hops.
Lambdas are their writer's code both ways: `calls foo` lists the calls in the lambda bodies `foo` hands over (javac's,
kotlinc 2's) and, in the Kotlin view, in the Kotlin lambda classes it writes, marked in lambda, exactly the sites
`callers` gives to `foo` (foo is among `callers X` iff X is among `calls foo`); a lambda class's plumbing (constructor,
bridges, a suspend lambda's `create`/`invoke`) and a continuation resuming its function are neither's. Asked
about a lambda body itself, `callers` lists its writer (the handle edge, the only way in), marked `lambda_writer`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import networkx as nx

from jdx.engine.kotlin_hits import KotlinSites, facade_twins, kotlin_sites, through_name, twin_rows
from jdx.engine.kotlin_view import member_ref
from jdx.engine.members import ACC
from jdx.engine.refs import format_type
from jdx.engine.external_symbols import external_notes, link_error, missing_member_note, shadowed_declarers
from jdx.engine.enum_bodies import mark_declaring_classes
from jdx.engine.rel_overrides import dispatch_notes, overridden_callers_notes
from jdx.engine.rel_sites import in_shadowed_copy, narrow_hint, shadowed_sites_note
from jdx.engine.rel_kotlin_lambdas import kotlin_lambda_code, kotlin_lambda_plumbing, kotlin_lambda_writers
from jdx.engine.relations import (ArtifactFilter, Artifacts, check_depth, check_limit, is_bridge, is_lambda,
                                  lambda_writers, method_ref, namesake_ids, resolve_symbol, rows_by_ids, sort_key,
                                  split_method_id, through_access_bridges, twin_ids)
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
        self.missing: dict[str, list[dict]] = {}  # an external callee -> the shadowed copies declaring it

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

    def add(self, parent: str, child: str, line: int, kind: str, via: str | None, in_lambda: bool,
            writes: bool = False) -> None:
        """One site; `writes`: the handle edge of a lambda body's writer, shown as the body's caller."""
        if not self.g.has_edge(parent, child):
            self.g.add_edge(parent, child, lines=set(), kinds=set(), via=set(), in_lambda=False, writes=False,
                            direct_lines=set(), lambda_lines=set(), handle_lines=set())
        e = self.g.edges[parent, child]
        line = line if line is not None else -1
        e["lines"].add(line)
        (e["lambda_lines"] if in_lambda else e["direct_lines"]).add(line)
        if kind == "handle":
            e["handle_lines"].add(line)
        e["kinds"].add(kind)
        if via:
            e["via"].add(via)
        e["in_lambda"] = e["in_lambda"] or in_lambda
        e["writes"] = e["writes"] or writes

    def order(self, node: str) -> tuple:
        """Live methods first, then those of shadowed class copies (dead code on this classpath); classpath order."""
        row = self.rows.get(node)
        if row is None:
            return (in_shadowed_copy(node), 1 << 30, node)
        return (in_shadowed_copy(node), self.arts.position(row["c_artifact"]), sort_key(row, "c_"), node)

    def declarers(self, node: str) -> list[dict]:
        """`shadowed_declarers` of an external method (the loaded copy of its class lacks it), once per method."""
        if node not in self.missing:
            self.missing[node] = shadowed_declarers(self.store, node, False) if self.rows[node].get("c_external") \
                else []
        return self.missing[node]

    def entry(self, parent: str, child: str, data: dict) -> dict:
        row = self.rows[child]
        out = {"method": method_ref(row, "c_"), "id": child, "artifact": self.arts.name(row["c_artifact"]),
               "lines": sorted(data["lines"]), "kinds": sorted(data["kinds"])}
        if data["in_lambda"]:
            out["in_lambda"] = True
        if data["in_lambda"] and data["direct_lines"]:  # called directly and in a lambda: which lines are in one
            out["lambda_lines"] = sorted(data["lambda_lines"])
        if data["writes"]:
            out["lambda_writer"] = True
        elif data["handle_lines"]:
            out["method_ref"] = True
            if data["kinds"] != {"handle"}:  # also invoked: which lines are method references
                out["method_ref_lines"] = sorted(data["handle_lines"])
        if data["via"]:
            out["via"] = sorted(data["via"])
        if row.get("c_external"):
            out["external"] = True
            if found := self.declarers(child):
                out["missing"] = {"error": link_error(False), "artifact": found[0]["artifact"],
                                  "declared_by": found[0]["ref"], "loaded": found[0]["loaded"]}
        if in_shadowed_copy(child):
            out["shadowed"] = True
        if row.get("c_access") is not None and is_bridge(row, "c_"):
            out["bridge"] = True
        elif _is_accessor(row):
            out["accessor"] = True
        if child in self.parts and self.parts[child] in self.rows:
            out["part"] = method_ref(self.rows[self.parts[child]], "c_")
        return out


def _is_accessor(row: dict) -> bool:
    """A synthetic accessor: the static `access$NNN` javac before 11 writes for a nested class's use of a private
    member (kotlinc's `access$foo` alike), a method no source declares, so a caller list says what it is."""
    access = row.get("c_access") or 0
    name = split_method_id(row["c_id"])[1]
    both = ACC["synthetic"] | ACC["static"]
    return name.startswith("access$") and access & both == both


def _forwarded(kt: KotlinSites, rows: list[dict], ids: list[str]) -> dict[str, str]:
    """`kt.forwarded` through chains of stubs: a multi-file facade's `foo$default` calls its part's `foo$default`,
    which calls `foo`; callers of the facade's stub (every Kotlin caller omitting a default) are `foo`'s too."""
    out = kt.forwarded(rows, ids)
    hops = [(r["c_id"], r["target"]) for r in rows if r["c_id"] in kt.stubs and r["target"] in kt.stubs]
    while news := {s: out[t] for s, t in hops if s not in out and t in out}:
        out.update(news)
    return out


def _callers_loader(cg: _CallGraph, flt: ArtifactFilter, view: str = "kotlin",
                    roots: frozenset[str] = frozenset()):
    """`roots`: the methods asked about; one that is a lambda body has its writer as caller (a body elsewhere in
    the tree is its writer's code, never a node)."""

    def load(ids: list[str]) -> None:
        kt = kotlin_sites(cg.store, ids) if view == "kotlin" else None
        stubs = kt.stubs if kt is not None else {}
        pairs = facade_twins(cg.store, ids) if view == "kotlin" else {}
        twins = {x for i in ids if i in pairs for x in pairs[i]}
        # a shadowed copy's method: the calls written against it name the loaded class, which lacks it
        named = {n: i for i in ids for n in namesake_ids(cg.store, i, False)}
        rows = rows_by_ids(cg.store, q.CALLS_INTO, sorted(set(ids) | set(stubs) | twins | set(named)))
        # a lambda's or a string concatenation's bootstrap is no call: `calls` leaves it out too (INDY_PLUMBING)
        rows = [r for r in rows if not (r["kind"] == "indy" and r["target"].split("#", 1)[0] in INDY_PLUMBING)]
        rows = through_access_bridges(cg.store, rows)
        if pairs:
            rows = twin_rows(rows, pairs, ids)
        if kt is not None:
            stubs = _forwarded(kt, rows, ids)  # a stub forwarding to none of `ids` is another level's
            rows = [r for r in rows if not kt.forwarding(r["c_id"], r["target"])
                    and (r["target"] in ids or r["target"] in stubs or r["target"] in named)]
        stubs = {**stubs, **named}
        classes = kotlin_lambda_writers(cg.store, [r["c_id"] for r in rows]) if view == "kotlin" else {}
        # a lambda class inside a lambda body (a suspend lambda in kotlinc 2's `foo$lambda$0`) is the body's writer's
        writers = lambda_writers(cg.store, [r["c_id"] for r in rows if is_lambda(r, "c_")] + [
            e.row["c_id"] for e in classes.values() if is_lambda(e.row, "c_")])
        plumbing = kotlin_lambda_plumbing(cg.store, {i: cg.rows[i]["c_access"] for i in ids if i in cg.rows}) \
            if view == "kotlin" else set()
        # a caller that is a multi-file part's method shows as the facade's copy callers call (one node, one hop)
        folds = {} if view != "kotlin" else {
            m: pair[0] for m, pair in facade_twins(cg.store, {w["c_id"] for w in writers.values()} | {
                e.row["c_id"] for e in classes.values()} | {
                r["c_id"] for r in rows if "__" in r["c_id"].split("#", 1)[0]}).items() if m == pair[1]}
        cg.remember_ids(sorted(set(folds.values())))
        for r in sorted(rows, key=lambda r: (stubs.get(r["target"], r["target"]), r["c_id"], r["line"] or -1)):
            target_row = cg.rows.get(r["target"])
            writes = r["kind"] == "handle" and target_row is not None and is_lambda(target_row, "c_")
            if writes and r["target"] not in roots:
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
            if r["target"] in named:  # the class the call names, when it is not the shadowed copy's own
                named_owner = r["target"].split("#", 1)[0]
                via = [] if named_owner == target.split("#", 1)[0].split("@", 1)[0] else [format_type(named_owner)]
            elif r["target"] in stubs:  # a Kotlin caller omitting a defaulted argument calls the `$default` stub
                via.append(through_name(r["target"]))
            cg.add(target, caller_id, r["line"], r["kind"], ", ".join(via), in_lambda, writes)
    return load


def _facade_parts(cg: _CallGraph, ids) -> dict[str, str]:
    """The part's method -> the multi-file facade's copy, for the copies among `ids`, noted in `cg.parts` (the
    copy is shown, its code is the part's)."""
    parts = {pair[1]: pair[0] for m, pair in facade_twins(cg.store, ids).items() if m == pair[0]}
    for part, facade in parts.items():
        cg.parts[facade] = part
    cg.remember_ids(sorted(parts))
    return parts


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
        parts = _facade_parts(cg, ids) if kotlin else {}
        for part, facade in parts.items():
            owner.setdefault(part, facade)
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
                if r["kind"] == "indy" and target.split("#", 1)[0] in INDY_PLUMBING:
                    continue  # javac's bootstrap of a lambda or a string concatenation: no call the source wrote
                src_artifact = cg.rows[src]["c_artifact"] if src in cg.rows else None
                if external_only and not r["t_external"] and r["t_artifact"] == src_artifact:
                    continue
                if not flt.accepts(cg.arts, None if r["t_external"] else r["t_artifact"]):
                    continue
                cg.remember(r, "t_")
                cg.add(src, target, r["line"], r["kind"], format_type(r["via"]) if r["via"] else None,
                       in_lambda.get(source, False))
    return load


# bootstrap classes of invokedynamic sites javac writes for lambdas, method references and string concatenation:
# `calls` descends into a lambda's body instead; `usages` of them still lists every site (ObjectMethods, the
# bootstrap of a record's equals/hashCode/toString, and SwitchBootstraps, of a pattern switch, stay in `calls`)
INDY_PLUMBING = frozenset({"java/lang/invoke/LambdaMetafactory", "java/lang/invoke/StringConcatFactory"})

_COUNT_LOADS = 50  # methods counting may load at least (the default --limit's worth), so small trees count out


class _LevelWalk:
    """The trees below `roots`, filled breadth first: `limit` entries, every level-1 entry (of all roots) before any
    level-2 one, so the limit drops the deepest entries first (spec §8.3). `load` grows the graph on demand, in
    batches of the methods a level expands, as many as the room left needs. A method is expanded once, where the
    walk first meets it (nearest a root; `seen`, with `seen_below` when that place prints below, elsewhere), an
    edge back to an ancestor says `cycle`. Past the limit the walk goes on counting without building entries, so
    `total` is the tree's, unless counting it out would load more than `limit` (at least `_COUNT_LOADS`) further
    methods, ~1.5 ms each on the JDK: it stops as soon as the methods waiting to be loaded outnumber what is left
    of that budget, so time stays bounded by --limit, not by the tree. Then `total` is `at_least`, and `complete`
    holds the levels counted whole. A shown, expanded entry whose own entries the limit left out says so, never
    reading as a leaf: `not_shown` (how many), or `not_counted` when the walk stopped before counting them, unless
    the whole level went unread (`_unmark_unread_levels`: the truncation line says that once)."""

    def __init__(self, graph: nx.DiGraph, order, load, limit: int, depth: int | None):
        self.graph, self.order, self.load, self.limit, self.depth = graph, order, load, limit, depth
        self.shown = self.total = 0
        self.counting = 0  # methods loaded only to count
        self.at_least = False
        self.complete: tuple[int, int] = (0, 0)  # (levels counted whole, entries in them)
        self.loaded: set[str] = set()

    def _ensure(self, nodes: list[str]) -> None:
        todo = sorted(n for n in set(nodes) if n not in self.loaded)
        if todo:
            self.loaded.update(todo)
            self.load(todo)

    def _uncounted(self, items: list[tuple]) -> None:
        """`not_counted` on the shown expanded entries among `items` (level tuples) the stopped walk leaves unread."""
        for _root, node, _path, _out, own in items:
            leaf = node in self.loaded and not (node in self.graph and self.graph.out_degree(node))
            if own is not None and not leaf:
                own["not_counted"] = True

    def walk(self, roots: list[str], make, prepare=None) -> tuple[dict[str, list[dict]], dict[str, int]]:
        """({root: its tree entries}, {root: its level-1 entries the limit left out});
        `make(parent, child, edge_data)` builds each entry's payload once the walk is done, after
        `prepare(the shown methods it expanded)`: the limit may have ended the walk before it loaded them."""
        roots = list(dict.fromkeys(roots))
        trees: dict[str, list[dict]] = {r: [] for r in roots}
        cut = dict.fromkeys(roots, 0)
        expanded = set(roots)
        made: list[tuple[dict, str, str]] = []
        self._ensure(roots)
        # (root, node, path, the entries to fill, the node's own entry: None for a root or one not shown)
        level: list[tuple[str, str, tuple, list | None, dict | None]] = [(r, r, (r,), trees[r], None) for r in roots]
        depth = 1
        while level and not self.at_least:
            deeper = self.depth is None or depth < self.depth
            nxt = []
            for i, (root, node, path, out, own) in enumerate(level):
                if node not in self.loaded:  # the next batch: as many as the room left can show, or to count
                    room = self.limit - self.shown
                    todo = [n for _r, n, _p, _o, _e in level[i:] if n not in self.loaded]
                    budget = max(self.limit, _COUNT_LOADS) - self.counting
                    if room <= 0 and len(todo) + len(nxt) > budget:
                        self.at_least = True  # the tree cannot be counted out within the budget: do not start
                        self._uncounted(level[i:])
                        break
                    batch = todo[:room if room > 0 else budget]
                    self.counting += len(batch) if room <= 0 else 0
                    self._ensure(batch)
                for child in sorted(self.graph.successors(node), key=self.order) if node in self.graph else ():
                    self.total += 1
                    expand = deeper and child not in path and child not in expanded
                    if expand:
                        expanded.add(child)
                    if self.shown >= self.limit:
                        cut[root] += depth == 1
                        if own is not None:  # a shown entry's children the limit left out: it says so itself
                            own["not_shown"] = own.get("not_shown", 0) + 1
                        if expand:
                            nxt.append((root, child, path + (child,), None, None))
                        continue
                    self.shown += 1
                    entry: dict = {}
                    made.append((entry, node, child))
                    if child in path:
                        entry["cycle"] = True
                    elif expand:
                        entry["children"] = []
                        nxt.append((root, child, path + (child,), entry["children"], entry))
                    elif child in expanded:
                        entry["seen"] = True
                    out.append(entry)
            if not self.at_least:
                self.complete = (depth, self.total)
            else:
                self._uncounted(nxt)
            level, depth = nxt, depth + 1
        if prepare is not None:
            prepare(sorted({child for e, _n, child in made if "children" in e}))
        for entry, node, child in made:  # the payload first, then the walk's marks
            marks = dict(entry)
            entry.clear()
            entry.update(make(node, child, self.graph.edges[node, child]), **marks)
        _mark_seen_below(roots, trees, cut)
        _unmark_unread_levels(trees)
        return trees, cut


def _unmark_unread_levels(trees: dict[str, list[dict]]) -> None:
    """`not_counted` off the entries of a level none of whose entries shows or counts its own (the walk stopped
    before the next level): the truncation line says it once (`deeper levels not all counted; … reaches depth N`),
    where a marker on each entry of the level would repeat it. On a level where some entries show or count their
    own, a marker tells which of the others went unread (none reads as a leaf), so it stays."""
    level = [e for entries in trees.values() for e in entries]
    while level:
        if not any(e.get("children") or e.get("not_shown") for e in level):
            for e in level:
                e.pop("not_counted", None)
        level = [c for e in level for c in e.get("children", ())]


def _mark_seen_below(roots: list[str], trees: dict[str, list[dict]], cut: dict[str, int]) -> None:
    """`seen_below` on a `seen` entry whose expansion prints below it (the walk expands a method nearest a root,
    which may be in a later branch); a root without entries of its own is a leaf there (it prints no tree)."""
    bare = {r for r in roots if not trees[r] and not cut.get(r)}
    order: list[dict] = []
    expanded_at: dict[str, int] = {}
    for r in roots:
        expanded_at.setdefault(r, len(order))
        order.append({"id": r})
        for e in _entries(trees[r]):
            if "children" in e:
                expanded_at[e["id"]] = len(order)
            order.append(e)
    for i, e in enumerate(order):
        if e.get("seen") and e["id"] in bare:
            del e["seen"]
        elif e.get("seen") and expanded_at.get(e["id"], -1) > i:
            e["seen_below"] = True


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
    symbol = resolve_symbol(store, text, members_only=True, view=opts.view)
    arts = Artifacts.of(store)
    cg = _CallGraph(store, arts)
    for r in rows_by_ids(store, q.METHODS_BY_IDS, [t.id for t in symbol.targets]):
        cg.remember(r, "")
    roots = [t.id for t in symbol.targets]
    load = _callers_loader(cg, opts.filter, opts.view, frozenset(roots)) if direction == "in" else \
        _calls_loader(cg, opts.filter, opts.external_only, opts.view)
    walk = _LevelWalk(cg.g, cg.order, load, limit, depth)
    # a shown callee the limit kept from being loaded: which facade copies are among those expanded
    prepare = (lambda ids: _facade_parts(cg, ids)) if direction == "out" and opts.view == "kotlin" else None
    walked, cut = walk.walk(roots, cg.entry, prepare)
    trees, notes, dispatching = [], [], []
    for t in symbol.targets:
        row = cg.rows[t.id]
        trees.append({"method": method_ref(row, "c_"), "id": t.id, "artifact": arts.name(row["c_artifact"]),
                      "tree": walked[t.id]})
        if cut[t.id]:  # direct callers (callees) of this root the limit left out: never read as "none"
            trees[-1]["not_shown"] = cut[t.id]
        if symbol.external:  # its flags are unknown: no dispatch to speak of, no body to read
            trees[-1]["external"] = True
        elif direction == "in":
            dispatching.append((row, t.ref))
        elif note := _bodyless_note(row, t.ref):
            notes.append(note)
    notes[:0] = external_notes(symbol, store) + symbol.notes + dispatch_notes(store, dispatching, opts.filter)
    if direction == "in" and opts.view == "jvm":
        notes.extend(_stub_notes(store, [t.id for t in symbol.targets]))
    shown = {e["id"] for t in trees for e in _entries(t["tree"])} | {t["id"] for t in trees}
    folded = sorted((f, p) for f, p in cg.parts.items() if f in shown and p in cg.rows)
    if folded:
        facade, part = folded[0]
        notes.append(f"a multi-file facade's function is shown once, as the facade's copy callers call "
                     f"({method_ref(cg.rows[facade], 'c_')}); its code, and the lines, are its part's method's "
                     f"({method_ref(cg.rows[part], 'c_')}); --view jvm shows the two as separate hops")
    notes.extend(_shadow_notes(cg, trees, direction))
    if direction == "in" and depth > 1:
        notes.extend(_dispatched_leaves(store, cg, walk, trees, opts.filter))
    if direction == "out":
        notes.append("each call names the declaration the JVM links; invokevirtual/invokeinterface may run an "
                     "override at run time (jdx overrides <method>)")
    _fix_twins(store, cg, trees)
    mark_declaring_classes(store, [e for t in trees for e in _entries(t["tree"])], "id")
    result = {"symbol": text, "direction": "callers" if direction == "in" else "calls", "depth": depth,
              "filter": opts.filter.describe() + (" --external-only" if opts.external_only else ""),
              "notes": notes, "roots": trees}
    truncated = None
    if walk.shown < walk.total or walk.at_least:  # (at_least: the limit was spent just as the walk stopped counting)
        truncated = {"shown": walk.shown, "total": walk.total, "hint": f"--limit {walk.total}"}
        if walk.at_least:
            levels, within = walk.complete
            noun = "caller" if direction == "in" else "callee"
            truncated["at_least"] = True
            deeper = f"a higher --limit (--limit {walk.total * 4}) reaches depth {depth}"  # (the limit is spent first
            truncated["hint"] = f"at least {walk.total}, deeper levels not all counted; " + (  # on the near levels)
                f"{deeper}; --depth {levels} --limit {within} shows every {noun} to depth {levels}"
                if within > walk.shown and levels < depth else
                f"--depth {levels} --limit {within} shows every {noun} to depth {levels}" if within > walk.shown
                else f"--limit {walk.total} or a smaller --depth shows more")
        truncated["hint"] = narrow_hint(truncated["hint"], walk.total, _narrowing(cg, roots, opts, direction))
    return result, truncated


MAX_LEAF_NOTES = 5  # the leaves of a callers tree whose callers through an overridden method are named


def _dispatched_leaves(store: GraphStore, cg: _CallGraph, walk: _LevelWalk, trees: list[dict], filter) -> list[str]:
    """A callers tree's entries that have no caller of their own (expanded, none found) but override a method that
    has: the calls the JVM may dispatch to them are that method's, which the tree stops before (a tree leaf read as
    "nobody calls this"); the root's own are in `dispatch_notes`. The first MAX_LEAF_NOTES, in the tree's order."""
    leaves = []
    for e in (e for t in trees for e in _entries(t["tree"])):
        node = e["id"]
        if e.get("seen") or e.get("cycle") or node not in walk.loaded or (node in cg.g and cg.g.out_degree(node)):
            continue
        access = (cg.rows[node]["c_access"] or 0) if node in cg.rows else ACC["static"]
        if not access & (ACC["static"] | ACC["private"]) and not node.split("#", 1)[1].startswith("<"):
            leaves.append((node, e.get("method") or method_ref(cg.rows[node], "c_")))
    found = overridden_callers_notes(store, list(dict.fromkeys(leaves)), "callers", name_each=True, filter=filter)
    return [f"a leaf above, {n}" for n in found[:MAX_LEAF_NOTES]] + (
        [f"{len(found) - MAX_LEAF_NOTES} more leaves have callers through a method they override"]
        if len(found) > MAX_LEAF_NOTES else [])


def _shadow_notes(cg: _CallGraph, trees: list[dict], direction: str) -> list[str]:
    """What the shown tree holds of shadowed class copies: callees the loaded copy of their class lacks (a shadowed
    copy declares them: the call fails on this classpath), and entries that are code of a shadowed copy."""
    shown = [e for t in trees for e in _entries(t["tree"])]
    notes = [missing_member_note(e["method"], format_type(e["id"].split("#", 1)[0]), cg.missing[e["id"]], False)
             for e in {e["id"]: e for e in shown if e.get("missing")}.values()]
    dead = len({e["id"] for e in shown if e.get("shadowed")})
    return notes + shadowed_sites_note(dead, len({e["id"] for e in shown}),
                                       "callers shown" if direction == "in" else "callees shown")


def call_tree_warnings(store: GraphStore, result: dict) -> list:
    """DUPLICATE_CLASS for each class of a `calls`/`callers` answer whose shadowed copy decides it: the class of a
    callee the loaded copy lacks (a shadowed copy declares it), and of the asked method; STALE_CLASS_FILE for the
    rows whose class an earlier build left (each marked `stale`)."""
    from jdx.engine.imports import duplicate_class_warnings
    from jdx.engine.stale_classes import mark_stale

    classes = [r["id"].split("#", 1)[0] for r in result["roots"]]
    classes += [e["id"].split("#", 1)[0] for t in result["roots"] for e in _entries(t["tree"]) if e.get("missing")]
    out: list = []
    for c in dict.fromkeys(format_type(c.split("@", 1)[0]) for c in classes):
        out += [w for w in duplicate_class_warnings(store, c) if w not in out]
    rows = [e for t in result["roots"] for e in _entries(t["tree"])]
    return out + mark_stale(store, [(e["id"].split("#", 1)[0], e) for e in rows])


def _narrowing(cg: _CallGraph, roots: list[str], opts: CallOptions, direction: str) -> list[str]:
    """The filters that would narrow a large tree: `--in`/`--exclude` when its entries are in several artifacts,
    `--external-only` when `calls` has callees in a root's own artifact."""
    artifacts = {cg.rows[n]["c_artifact"] for n in cg.g if n not in roots and n in cg.rows}
    own = {cg.rows[r]["c_artifact"] for r in roots if r in cg.rows}
    return ["--in", "--exclude"] * (len(artifacts) > 1) + ["--external-only"] * (
        direction == "out" and not opts.external_only and bool(own & artifacts))
