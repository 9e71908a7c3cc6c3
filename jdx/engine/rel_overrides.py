"""`overrides` (spec §7.3): for each named method, what it overrides and what overrides it.

OVERRIDES edges are settled at build time (resolution.Hierarchy.method_lookup); this module orders and labels
them: supertypes in the JVM's lookup order, overriders nearest first (`direct` unless another overrider sits
between), an overrider a subclass inherits from a class outside the hierarchy marked `inherited` (JLS §8.4.8.1).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from jdx.engine.enum_bodies import mark_declaring_classes
from jdx.engine.members import ACC
from jdx.engine.refs import format_member, format_type, parse_ref
from jdx.engine.rel_hierarchy import left_out_hint, name_order, type_tiers
from jdx.engine.rel_lambdas import method_lambdas
from jdx.engine.relations import (ArtifactFilter, Artifacts, Target, check_limit, method_ref, resolve_symbol,
                                  rows_by_ids, split_method_id, twin_ids)
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
                "direct": bool(r["direct"]), "_key": (arts.position(r[p + "artifact"]), name_order(method_ref(r, p))),
                "_id": r[p + "id"]}

    up, down = distinct_pairs(up, "source", "t_id"), distinct_pairs(down, "target", "c_id")
    methods, shown, total = [], 0, 0
    tiers: dict[str, int] = {}
    left_out: list[str] = []
    orders = lookup_orders(store, sorted({method_owner(t.id) for t in targets}))
    missing = missing_overridden(store, targets, orders)
    for t in targets:
        owner = method_owner(t.id)
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
        mark_declaring_classes(store, ups + downs[:room], "_id")  # `(anonymous, in Outer#rows)`, as implementors
        for e in ups + downs:
            e.pop("_key")
        lambdas = method_lambdas(store, t.id, t.row.get("access") or 0, filter)  # implementations no class holds
        notes = missing.notes(t.id, bool(ups))
        methods.append({"method": t.ref, "overrides": ups, "overridden_by": downs[:room],
                        "overridden_by_count": len(downs), "_id": t.id}  # _id: the command drops them
                       | ({"notes": notes} if notes else {}) | ({"lambdas": lambdas} if lambdas else {}))
    result = {"symbol": text, "filter": filter.describe(), "methods": methods}
    if missing.unresolved:  # the command's UNRESOLVED_SUPERTYPE warnings
        result["unresolved_supertypes"] = sorted({format_type(u) for ts in missing.unresolved.values() for u in ts})
    truncated = None
    if total > shown:
        left, words = left_out_hint(left_out, tiers)
        truncated = {"shown": shown, "total": total, "left_out": left,
                     "hint": "; ".join(x for x in (words, f"--limit {total}") if x)}
    return result, truncated


# the call kinds the JVM dispatches by the receiver's class: a call of an overridden method may run its override
_DISPATCHING = frozenset({"invokevirtual", "invokeinterface", "handle"})


def overridden_callers_notes(store: GraphStore, roots: list[tuple[str, str]], command: str,
                             name_each: bool = False, filter: ArtifactFilter | None = None) -> list[str]:
    """For each root (its id, its ref) that overrides methods with callers: the calls of those, which the JVM may
    dispatch to it at run time, are the overridden method's (an INVOKES edge names the declaration it links), so
    `callers`/`usages` of the root leave them out: say how many and the command that lists them (spec §3.3).
    `name_each`: every note names its root (one of several, or a tree's leaf). `filter` (`--in`/`--exclude`): only
    the sites in the artifacts it accepts count, and the command named carries it."""
    ids = [i for i, _ in roots]
    up = distinct_pairs(rows_by_ids(store, q.OVERRIDDEN_BY, ids), "source", "t_id") if ids else []
    if not up:
        return []
    active = filter is not None and filter.active()
    arts = Artifacts.of(store) if active else None
    sites: dict[str, list[str]] = {}
    for r in rows_by_ids(store, q.CALLS_INTO, sorted({r["t_id"] for r in up})):
        if r["kind"] in _DISPATCHING and (not active or filter.accepts(arts, r.get("c_artifact"))):
            sites.setdefault(r["target"], []).append(r["c_id"])
    narrowed = f" {filter.describe()}" if active else ""
    refs = dict(roots)
    notes = []
    for r in sorted(up, key=lambda r: (ids.index(r["source"]), not r["direct"], method_ref(r, "t_"))):
        calls = sites.get(r["t_id"])
        if not calls:
            continue
        ref = method_ref(r, "t_")
        whose = f"{refs[r['source']]}: " if len(roots) > 1 or name_each else ""
        n, m = len(calls), len(set(calls))
        notes.append(f"{whose}{command} through the method it overrides, {ref}: {n} site{'s' * (n != 1)} in {m} "
                     f"method{'s' * (m != 1)} may dispatch here: jdx {command} '{ref}'{narrowed}")
    return notes


# a class type a descriptor names: `Lcom/sun/source/tree/Tree;`, in an array's too
_CLASS_TYPES = re.compile(r"L([^;]+);")


@dataclass
class Missing:
    """What the methods `overrides` answers may override that no OVERRIDES edge can show (`missing_overridden`)."""

    # method id -> the supertypes of its class the workspace lacks
    unresolved: dict[str, list[str]] = field(default_factory=dict)
    # method id -> its bridges no supertype explains, each with its parameter types the workspace lacks
    bridges: dict[str, list[tuple[str, list[str]]]] = field(default_factory=dict)
    # method id -> its parameter types the workspace lacks
    lacking: dict[str, list[str]] = field(default_factory=dict)

    def notes(self, method_id: str, found: bool) -> list[str]:
        """The notes of a method (`found`: it overrides something the workspace holds): its unexplained bridges, its
        missing supertypes, or, with neither and nothing found, its parameter types the workspace lacks (spec §3.3)."""
        notes = [_bridge_note(b, b == method_id, lacking) for b, lacking in self.bridges.get(method_id, ())]
        if unresolved := self.unresolved.get(method_id):
            notes.append(f"{_lacks(unresolved)}: the method may override {'its' if len(unresolved) == 1 else 'their'} "
                         "methods")
        elif not notes and not found and (lacking := self.lacking.get(method_id)):
            notes.append(f"its {_lacks(lacking, 'parameter type')}: a version of a supertype that has "
                         f"{'it' if len(lacking) == 1 else 'them'} (a newer JDK or library) may declare a method it "
                         "overrides")
        return notes


def missing_overridden(store: GraphStore, targets: list[Target], orders: dict[str, list[str]]) -> Missing:
    """What each overridable target may override that the workspace lacks. A supertype the workspace lacks may declare
    it; a bridge javac (or kotlinc, scalac) wrote for it whose erasure no supertype in the workspace declares shows it
    overrides a method only another version of a supertype declares (a newer JDK's
    `TreeVisitor#visitDeconstructionPattern` on JDK 17) or a supertype of a missing jar; a parameter type the workspace
    lacks says it may. A bridge stands for the method of its class its code calls (bridge_overrides). `orders`:
    lookup_orders of the targets' classes. A few queries for all targets (an overloaded name has dozens)."""
    kept = [t for t in targets if _overriding(t)]
    missing = Missing()
    if not kept:
        return missing
    names = sorted({split_method_id(t.id)[1] for t in kept})
    owners = sorted({method_owner(t.id) for t in kept})
    twins = [f"{r['owner']}#{r['name']}{r['descriptor']}" for r in store.rows(q.METHOD_NAMES_OF_OWNERS,
                                                                                {"ids": owners, "names": names})]
    bridges = [r["id"] for r in rows_by_ids(store, q.METHODS_BY_IDS, twins)
               if (r["access"] or 0) & ACC["bridge"] and not (r["access"] or 0) & (ACC["static"] | ACC["private"])]
    params = {m: list(dict.fromkeys(_CLASS_TYPES.findall(_erased(m).split("(", 1)[1])))  # each type once
              for m in [*(t.id for t in kept), *bridges]}
    named = {a for o in owners for a in orders[o][1:]} | {p for ps in params.values() for p in ps}
    rows = {r["id"]: r for r in rows_by_ids(store, q.TYPES_BY_IDS, named)}
    absent = {i for i in named if i not in rows or rows[i]["external"]}
    supers = sorted({a for o in owners for a in orders[o][1:]} - absent)
    declared = {(r["owner"], r["name"] + r["descriptor"].split(")", 1)[0]) for r in store.rows(
        q.METHOD_NAMES_OF_OWNERS, {"ids": supers, "names": names})} if supers and bridges else set()
    unexplained = [b for b in bridges if not any((a, _erased(b).split("#", 1)[1]) in declared
                                                 for a in orders[method_owner(b)][1:])]
    called: dict[str, set[str]] = {b: {b} for b in unexplained}
    for r in rows_by_ids(store, q.CALLS_FROM, unexplained):
        called[r["source"]].add(r["t_id"])
    for t in kept:
        order = orders[method_owner(t.id)]
        if unresolved := [a for a in order[1:] if a in absent and a != "java/lang/Object"]:
            missing.unresolved[t.id] = unresolved
        if mine := [(b, [p for p in params[b] if p in absent]) for b in unexplained if t.id in called[b]]:
            missing.bridges[t.id] = mine
        if lacking := [p for p in params[t.id] if p in absent]:
            missing.lacking[t.id] = lacking
    return missing


def _erased(method_id: str) -> str:
    """`Owner#name(params)` of a method id, its return type cut (what an override matches, JLS §8.4.2)."""
    return method_id.split(")", 1)[0]


def _bridge_note(bridge: str, asked: bool, lacking: list[str]) -> str:
    """A bridge no supertype's declaration in the workspace explains (`asked`: the method asked is the bridge), with
    the types of its parameters the workspace lacks."""
    ref = format_member(*split_method_id(bridge), with_return=True)
    which = "it is a bridge: it" if asked else f"a bridge, {ref}, shows it"
    why = f"; its {_lacks(lacking, 'parameter type')}" if lacking else ""
    return (f"{which} overrides a method no supertype in the workspace declares: another version of "
            f"a supertype (a newer JDK or library) or a missing jar declares it{why}")


def _lacks(types: list[str], what: str = "") -> str:
    """`X is not in the workspace`, `parameter types X, Y are not in the workspace` (`what`: what they are)."""
    one = len(types) == 1
    what = f"{what}{'' if one else 's'} " if what else ""
    return f"{what}{', '.join(format_type(t) for t in types)} {'is' if one else 'are'} not in the workspace"


def _overridable(targets: list[Target]) -> list[Target]:
    """A bare name's overloads that take part in overriding: not a static method, a private one or a constructor
    (`RevCommit#toString` is `toString()`, not the static `ObjectId#toString(ObjectId)` it also inherits); all of
    them when none does (a parameter list names any one exactly)."""
    return [t for t in targets if _overriding(t)] or targets


def _overriding(t: Target) -> bool:
    """A method that takes part in overriding: not a static method, a private one or a constructor."""
    return t.kind == "method" and not t.row.get("access", 0) & (ACC["static"] | ACC["private"])


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


def dispatch_notes(store: GraphStore, roots: list[tuple[dict, str]], filter: ArtifactFilter | None = None) -> list[str]:
    """What `callers` of each overridable root (its row, its ref) includes and what it leaves to the overrides and to
    the methods it overrides; the overloads of one name none of which is overridden share one note (a bare name can
    have dozens)."""
    notes: list[str] = []
    plain: dict[str, list[str]] = {}  # owner -> refs of roots without overriders
    overriding: list[tuple[str, str]] = []
    for row, ref in roots:
        access = row["c_access"] or 0
        owner, name, _ = split_method_id(row["c_id"])
        if name in ("<init>", "<clinit>") or access & (ACC["static"] | ACC["private"]):
            continue
        overriding.append((row["c_id"], ref))
        overriders = store.rows(q.OVERRIDERS_COUNT, {"id": row["c_id"]})[0]["n"]
        if not overriders:
            plain.setdefault(format_type(owner), []).append(ref)
            continue
        notes.append(f"{ref}: calls through {format_type(owner)} and through subtypes that inherit this declaration "
                     f"are included (virtual dispatch may run an override); callers of its {overriders} overriding "
                     f"method(s) are not: jdx overrides '{ref}'")
    for owner, refs in plain.items():
        names = {r.split("(", 1)[0] for r in refs}  # several: a Kotlin property's accessors, a name's @JvmName ones
        what = f"{refs[0]}: " if len(refs) == 1 else f"{', '.join(refs)}: " if len(names) > 1 else \
            f"{len(refs)} overloads of {refs[0].split('(', 1)[0]}: "
        these = "this declaration" if len(refs) == 1 else "these declarations"
        notes.append(f"{what}calls through {owner} and through subtypes that inherit {these} are included "
                     f"(virtual dispatch may run an override)")
    return notes + overridden_callers_notes(store, overriding, "callers", filter=filter)
