"""`overrides` (spec §7.3): for each named method, what it overrides and what overrides it.

OVERRIDES edges are settled at build time (resolution.Hierarchy.method_lookup); this module orders and labels
them: supertypes in the JVM's lookup order, overriders nearest first (`direct` unless another overrider sits
between), an overrider a subclass inherits from a class outside the hierarchy marked `inherited` (JLS §8.4.8.1).
"""

from __future__ import annotations

from jdx.engine.members import ACC
from jdx.engine.refs import parse_ref
from jdx.engine.rel_hierarchy import left_out_hint, type_tiers
from jdx.engine.rel_lambdas import method_lambdas
from jdx.engine.relations import (ArtifactFilter, Artifacts, Target, check_limit, method_ref, resolve_symbol,
                                  rows_by_ids, twin_ids)
from jdx.graph_schema import queries_graph as q
from jdx.graph_schema.store import GraphStore


def overrides(store: GraphStore, text: str, filter: ArtifactFilter, limit: int | None) -> tuple[dict, dict | None]:
    """(result, truncation) of `overrides`: for each named method, what it overrides and what overrides it."""
    limit = check_limit(limit)
    symbol = resolve_symbol(store, text, members_only=True)
    targets = _overridable(symbol.targets) if parse_ref(text).params is None else symbol.targets
    arts = Artifacts.of(store)
    ids = [t.id for t in targets]
    up = rows_by_ids(store, q.OVERRIDDEN_BY, ids)
    down = [r for r in rows_by_ids(store, q.OVERRIDERS_OF, ids) if filter.accepts(arts, r["c_artifact"])]
    twins = twin_ids(store, up, "t_") | twin_ids(store, down, "c_")

    def entry(r: dict, p: str) -> dict:
        return {"method": method_ref(r, p, r[p + "id"] in twins), "artifact": arts.name(r[p + "artifact"]),
                "direct": bool(r["direct"]), "_key": (arts.position(r[p + "artifact"]), method_ref(r, p)),
                "_id": r[p + "id"]}

    up, down = distinct_pairs(up, "source", "t_id"), distinct_pairs(down, "target", "c_id")
    methods, shown, total = [], 0, 0
    tiers: dict[str, int] = {}
    left_out: list[str] = []
    for t in targets:
        owner = method_owner(t.id)
        orders = lookup_orders(store, [owner])
        rank = {a: i for i, a in enumerate(orders[owner][1:])}
        ups = sorted((entry(r, "t_") for r in up if r["source"] == t.id),
                     key=lambda e: (not e["direct"], rank.get(method_owner(e["_id"]), len(rank)), e["_key"]))
        for e in ups:  # a superinterface of a subclass only, which inherits this method (JLS §8.4.8.1)
            if method_owner(e["_id"]) not in rank:
                e["inherited"] = True
        downs = [entry(r, "c_") for r in down if r["target"] == t.id]
        tiers.update(type_tiers(store, {method_owner(e["_id"]) for e in downs} - tiers.keys()))
        # named classes first, anonymous, local and compiler-made ones last (as `hierarchy` ranks subtypes)
        downs.sort(key=lambda e: (tiers[method_owner(e["_id"])], e["_key"]))
        total += len(downs)
        room = max(limit - shown, 0)
        shown += min(room, len(downs))
        left_out += [method_owner(e["_id"]) for e in downs[room:]]
        _label_overriders(store, owner, downs[:room], {e["_id"] for e in downs})
        for e in ups + downs:
            e.pop("_key")
        lambdas = method_lambdas(store, t.id, t.row.get("access") or 0, filter)  # implementations no class holds
        methods.append({"method": t.ref, "overrides": ups, "overridden_by": downs[:room],
                        "overridden_by_count": len(downs), "_id": t.id}  # _id: the command drops them
                       | ({"lambdas": lambdas} if lambdas else {}))
    result = {"symbol": text, "filter": filter.describe(), "methods": methods}
    truncated = None
    if total > shown:
        left, words = left_out_hint(left_out, tiers)
        truncated = {"shown": shown, "total": total, "left_out": left,
                     "hint": "; ".join(x for x in (words, f"--limit {total}") if x)}
    return result, truncated


# the call kinds the JVM dispatches by the receiver's class: a call of an overridden method may run its override
_DISPATCHING = frozenset({"invokevirtual", "invokeinterface", "handle"})


def overridden_callers_notes(store: GraphStore, roots: list[tuple[str, str]], command: str) -> list[str]:
    """For each root (its id, its ref) that overrides methods with callers: the calls of those, which the JVM may
    dispatch to it at run time, are the overridden method's (an INVOKES edge names the declaration it links), so
    `callers`/`usages` of the root leave them out: say how many and the command that lists them (spec §3.3)."""
    ids = [i for i, _ in roots]
    up = distinct_pairs(rows_by_ids(store, q.OVERRIDDEN_BY, ids), "source", "t_id") if ids else []
    if not up:
        return []
    sites: dict[str, list[str]] = {}
    for r in rows_by_ids(store, q.CALLS_INTO, sorted({r["t_id"] for r in up})):
        if r["kind"] in _DISPATCHING:
            sites.setdefault(r["target"], []).append(r["c_id"])
    refs = dict(roots)
    notes = []
    for r in sorted(up, key=lambda r: (ids.index(r["source"]), not r["direct"], method_ref(r, "t_"))):
        calls = sites.get(r["t_id"])
        if not calls:
            continue
        ref = method_ref(r, "t_")
        whose = f"{refs[r['source']]}: " if len(roots) > 1 else ""
        n, m = len(calls), len(set(calls))
        notes.append(f"{whose}{command} through the method it overrides, {ref}: {n} site{'s' * (n != 1)} in {m} "
                     f"method{'s' * (m != 1)} may dispatch here: jdx {command} '{ref}'")
    return notes


def _overridable(targets: list[Target]) -> list[Target]:
    """A bare name's overloads that take part in overriding: not a static method, a private one or a constructor
    (`RevCommit#toString` is `toString()`, not the static `ObjectId#toString(ObjectId)` it also inherits); all of
    them when none does (a parameter list names any one exactly)."""
    kept = [t for t in targets if t.kind == "method" and not t.row.get("access", 0) & (ACC["static"] | ACC["private"])]
    return kept or targets


def method_owner(method_id: str) -> str:
    return method_id.split("#", 1)[0]


def distinct_pairs(rows: list[dict], end: str, other: str) -> list[dict]:
    """OVERRIDES rows once per pair of methods (an update may link an inherited method its base linked already)."""
    seen: set[tuple[str, str]] = set()
    return [r for r in rows if (r[end], r[other]) not in seen and not seen.add((r[end], r[other]))]


def lookup_orders(store: GraphStore, owners: list[str]) -> dict[str, list[str]]:
    """Per type: itself, its superclasses nearest first, then its superinterfaces breadth-first (the order
    OVERRIDES ranks supertypes in, resolution.Hierarchy.method_lookup); one query per level of the hierarchy."""
    parents: dict[str, list[str]] = {}
    todo = set(owners)
    while todo:
        for r in rows_by_ids(store, q.TYPES_BY_IDS, sorted(todo)):
            parents[r["id"]] = [r["super"] or "", *(r["interfaces"] or [])]
        for t in todo - parents.keys():
            parents[t] = [""]
        todo = {p for t in todo for p in parents[t] if p and p not in parents}
    orders = {}
    for o in owners:
        chain, c = [], o
        while c and c not in chain:
            chain.append(c)
            c = parents.get(c, [""])[0]
        out, seen = list(chain), set(chain)
        queue = [i for c in chain for i in parents.get(c, [""])[1:]]
        while queue:
            i = queue.pop(0)
            if i not in seen:
                seen.add(i)
                out.append(i)
                queue.extend(parents.get(i, [""])[1:])
        orders[o] = out
    return orders


def _label_overriders(store: GraphStore, owner: str, shown: list[dict], overriders: set[str]) -> None:
    """The shown overriders of a method of `owner`: `direct` unless one of the other `overriders` is between
    (declared by a supertype of its class, so it overrides that one too); `inherited` when its class is no subtype
    of `owner` (a subclass inherits it, JLS §8.4.8.1)."""
    if not shown:
        return
    orders = lookup_orders(store, sorted({method_owner(e["_id"]) for e in shown}))
    between = {method_owner(o) for o in overriders}
    for e in shown:
        order = orders[method_owner(e["_id"])]
        e["direct"] = not between.intersection(order[1:])
        if inherited_overrider(orders, owner, e["_id"]):
            e["inherited"] = True


def inherited_overrider(orders: dict[str, list[str]], owner: str, overrider: str) -> bool:
    """Whether an overrider of a method of `owner` is inherited: its class is no subtype of `owner` (a subclass
    inherits it and implements `owner`'s method with it, JLS §8.4.8.1). `orders`: lookup_orders of its class."""
    return owner not in orders[method_owner(overrider)]


def override_how(orders: dict[str, list[str]], row: dict) -> str:
    """An OVERRIDERS_OF row as a `usages` override site's detail: `inherited`, `direct` or `indirect`."""
    if inherited_overrider(orders, method_owner(row["target"]), row["c_id"]):
        return "inherited"
    return "direct" if row["direct"] else "indirect"
