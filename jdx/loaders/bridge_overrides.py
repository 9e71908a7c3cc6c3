"""Overrides that only a bridge method shows (JLS §8.4.8.1 with §4.5.2's member types).

`BooleanComparator implements Comparator<Boolean>` declares `compare(Boolean, Boolean)`: it overrides
`Comparator#compare(Object, Object)` because a method overrides the supertype's method *as a member of the
parameterised supertype* (`Comparator<Boolean>`'s `compare(Boolean, Boolean)`), not by its erasure. The erasures
differ, so `resolution.overrides` (erased parameter types) does not pair them; javac (and kotlinc, scalac) write the
pairing into the class file as a bridge: a synthetic `compare(Object, Object)` with ACC_BRIDGE in
`BooleanComparator` that calls `compare(Boolean, Boolean)`. Each bridge here stands for the method it bridges:
what the bridge's erasure overrides in the supertypes, the bridged method overrides.

The bridged method is the one the bridge's code calls (read from its artifact's call sites): a method of the
bridge's own class with its name (or that name as kotlinc mangles it for an inline class: `get-pVg5ArA(I)I` behind
the bridge `get(I)Ljava/lang/Object;` of `override fun get(index: Int): UInt`) and number of parameters, not itself
a bridge or synthetic. A bridge that calls
something else (javac's bridges to a superclass's method, `FindSink$OfInt#accept(Integer)` calling
`FindSink#accept(Object)`) or whose calls cannot be read is left alone: no guess. A bridge for a narrowed return
type adds nothing (its class declares its parameter types again, and that method's erasure overrides the same).
A method that overrides a bridged method (a subclass's `compare(Boolean, Boolean)`) overrides what the bridged
method overrides too.
"""

from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc

from jdx.kotlin.jvm import MANGLED
from jdx.loaders.resolution import ACC_BRIDGE, ACC_PRIVATE, ACC_STATIC, ACC_SYNTHETIC, Hierarchy, _arity, _package

_COLUMNS = ["owner_id", "name", "descriptor", "access"]
def _base_name(name: str) -> str:
    """The declaration's name of a method kotlinc mangled for an inline class (`get-pVg5ArA` for `get(): UInt`,
    whose bridge keeps the plain name: `get(I)Ljava/lang/Object;` calls `get-pVg5ArA(I)I`), else `name`."""
    m = MANGLED.fullmatch(name)
    return m.group("name") if m else name


def _erased(name: str, descriptor: str) -> str:
    return name + descriptor[: descriptor.index(")") + 1]


def _called(bridges: list[dict], read_calls) -> dict[str, str]:
    """bridge id -> the name and descriptor of the method of its own class and name (or that name mangled by
    kotlinc, `jdx.kotlin.jvm.MANGLED`) that its code calls, from the call sites of the bridges' artifacts
    (`read_calls(position)`: that artifact's `calls` table, from and to)."""
    ids = {f"{b['owner_id']}#{b['name']}{b['descriptor']}": b for b in bridges}
    out: dict[str, str] = {}
    for pos in sorted({b["pos"] for b in bridges}):
        try:
            calls = read_calls(pos)
        except (OSError, pa.ArrowException, KeyError):
            continue
        calls = calls.filter(pc.is_in(calls["from"], value_set=pa.array(sorted(ids), pa.string())))
        for r in calls.select(["from", "to"]).to_pylist():
            b = ids[r["from"]]
            owner, _, rest = r["to"].partition("#")
            name = rest.split("(", 1)[0]
            if owner == b["owner_id"] and _base_name(name) == b["name"] and r["from"] not in out:
                out[r["from"]] = rest
    return out


def _narrowing(b: dict, candidates: list[str]) -> bool:
    """A bridge for a narrowed return type: its class declares the bridge's name and parameter types again, and
    that method overrides by its erasure what the bridge does. `candidates`: `name(descriptor)`s."""
    return any(d.startswith(_erased(b["name"], b["descriptor"])) for d in candidates)


def with_bridged(edges: pa.Table, methods: pa.Table, winners: set[str], hierarchy: Hierarchy,
                 only: set[str] | None = None, read_calls=None) -> pa.Table:
    """`edges` (resolution.overrides' table: from, to, direct) with the overrides bridges show: each bridged
    method's, and those of every method overriding a bridged one. The bridged method's nearest override is its
    `direct` one, whether it came from its erasure or its bridge. `only`: the owners whose overriding methods are
    wanted (an incremental update's); the others' bridges are read to follow overrides through them.
    `read_calls(position)`: the `calls` table (from, to) of the artifact at that classpath position, read for the
    artifacts holding bridges that are not for a narrowed return type."""
    if only is not None:  # only these owners and their supertypes matter: skip reading the rest
        wanted = set(only)
        for t in only:
            wanted.update(hierarchy.ancestors(t))
        methods = methods.filter(pc.is_in(methods["owner_id"], value_set=pa.array(sorted(wanted), pa.string())))
    if "kind" in methods.column_names:
        methods = methods.filter(pc.equal(methods["kind"], 0))
    access = methods["access"]
    is_bridge = pc.and_(pc.not_equal(pc.bit_wise_and(access, ACC_BRIDGE), 0),
                        pc.equal(pc.bit_wise_and(access, ACC_PRIVATE | ACC_STATIC), 0))
    bridges = methods.filter(pc.and_(is_bridge, pc.invert(pc.starts_with(methods["name"], "<"))))
    if only is not None and bridges.num_rows:
        # a supertype's bridge matters to an update only through a method of the update's own of its name
        own = pc.is_in(methods["owner_id"], value_set=pa.array(sorted(only), pa.string()))
        own_names = pc.unique(methods["name"].filter(own))
        bridges = bridges.filter(pc.or_(pc.is_in(bridges["owner_id"], value_set=pa.array(sorted(only), pa.string())),
                                        pc.is_in(bridges["name"], value_set=own_names)))
    columns = _COLUMNS + (["pos"] if "pos" in bridges.column_names else [])
    bridge_rows = [b for b in bridges.select(columns).to_pylist() if b["owner_id"] in winners]
    if not bridge_rows:
        return edges
    real = pc.equal(pc.bit_wise_and(access, ACC_PRIVATE | ACC_STATIC | ACC_BRIDGE | ACC_SYNTHETIC), 0)
    owners = pa.array(sorted({b["owner_id"] for b in bridge_rows}), pa.string())
    names = pa.array(sorted({b["name"] for b in bridge_rows}), pa.string())
    # what a bridge may bridge: its class's real methods of its name (or that name mangled) and number of parameters
    same_class = methods.filter(pc.and_(real, pc.and_(pc.is_in(methods["owner_id"], value_set=owners), pc.or_(
        pc.is_in(methods["name"], value_set=names), pc.match_substring_regex(methods["name"], MANGLED.pattern)))))
    by_arity: dict[tuple[str, str, int], list[str]] = {}  # (owner, plain name, arity) -> `name(descriptor)`s
    for r in same_class.select(_COLUMNS).to_pylist():
        by_arity.setdefault((r["owner_id"], _base_name(r["name"]), _arity(r["descriptor"])), []).append(
            r["name"] + r["descriptor"])
    # the supertypes' declarations a bridge's erasure may override
    ancestors = {o: hierarchy.ancestors(o) for o in owners.to_pylist()}
    supers = pa.array(sorted({a for chain in ancestors.values() for a in chain}), pa.string())
    declared = methods.filter(pc.and_(real, pc.and_(pc.is_in(methods["owner_id"], value_set=supers),
                                                    pc.is_in(methods["name"], value_set=names))))
    erased = pc.binary_join_element_wise(declared["name"], pc.replace_substring_regex(
        declared["descriptor"], pattern=r"\).*", replacement=")"), "")
    wanted = pa.array(sorted({_erased(b["name"], b["descriptor"]) for b in bridge_rows}), pa.string())
    declared = declared.filter(pc.is_in(erased, value_set=wanted))
    decl: dict[tuple[str, str], tuple[str, int]] = {}
    for r in declared.select(_COLUMNS).to_pylist():
        decl.setdefault((r["owner_id"], _erased(r["name"], r["descriptor"])),
                        (f"{r['owner_id']}#{r['name']}{r['descriptor']}", r["access"]))
    candidates = {id(b): [d for d in by_arity.get((b["owner_id"], b["name"], _arity(b["descriptor"])), ())
                          if d != b["name"] + b["descriptor"]] for b in bridge_rows}

    def overrides_some(b: dict) -> bool:
        signature = _erased(b["name"], b["descriptor"])
        return any((a, signature) in decl for a in ancestors[b["owner_id"]])

    generic = [b for b in bridge_rows if "pos" in b and candidates[id(b)] and not _narrowing(b, candidates[id(b)])
               and overrides_some(b)]
    called = _called(generic, read_calls) if generic and read_calls is not None else {}
    # bridged method id -> {overridden id: rank of its owner among the bridge class's ancestors}
    bridged: dict[str, dict[str, int]] = {}
    for b in bridge_rows:
        owner, name, desc = b["owner_id"], b["name"], b["descriptor"]
        found = called.get(f"{owner}#{name}{desc}")
        if found is None or found not in candidates[id(b)]:
            continue
        target = f"{owner}#{found}"
        signature = _erased(name, desc)
        for rank, a in enumerate(ancestors[owner]):
            hit = decl.get((a, signature))
            if hit is not None and (hit[1] & 0x0007 or _package(a) == _package(owner)):
                over = bridged.setdefault(target, {})
                over[hit[0]] = min(over.get(hit[0], rank), rank)
    if not bridged:
        return edges

    def emitted(method_id: str) -> bool:
        return only is None or method_id.split("#", 1)[0] in only

    rank_of = {o: {a: i for i, a in enumerate(chain)} for o, chain in ancestors.items()}
    redone = sorted(t for t in bridged if emitted(t))
    redone_mask = pc.is_in(edges["from"], value_set=pa.array(redone, pa.string()))
    theirs: dict[str, list[str]] = {}
    for r in edges.filter(redone_mask).select(["from", "to"]).to_pylist():
        theirs.setdefault(r["from"], []).append(r["to"])
    # the bridged methods' own rows, redone with their bridges' overrides: nearest first, the first direct
    rows: list[tuple[str, str, bool]] = []
    for target in redone:
        owner = target.split("#", 1)[0]
        ranks = dict(bridged[target])
        for t in theirs.get(target, ()):
            ranks.setdefault(t, rank_of[owner].get(t.split("#", 1)[0], len(rank_of[owner])))
        rows += [(target, t, i == 0) for i, t in enumerate(sorted(ranks, key=lambda t: (ranks[t], t)))]
    # whatever overrides a bridged method overrides what the bridged method does, through any chain of them
    into = edges.filter(pc.is_in(edges["to"], value_set=pa.array(sorted(bridged), pa.string())))
    overriders = sorted({f for f in into["from"].to_pylist() if emitted(f)} | {f for f, _, _ in rows})
    overridden: dict[str, set[str]] = {f: set() for f in overriders}
    for r in edges.filter(pc.is_in(edges["from"], value_set=pa.array(overriders, pa.string()))) \
            .select(["from", "to"]).to_pylist():
        overridden[r["from"]].add(r["to"])
    for f, t, _ in rows:
        overridden[f].add(t)
    extra: list[tuple[str, str, bool]] = []
    for f in overriders:
        todo = sorted(t for t in overridden[f] if t in bridged)
        while todo:
            for z in sorted(bridged[todo.pop(0)]):
                if z != f and z not in overridden[f]:
                    overridden[f].add(z)
                    extra.append((f, z, False))
                    if z in bridged:
                        todo.append(z)
    added = rows + extra
    if not added:
        return edges
    return pa.concat_tables([edges.filter(pc.invert(redone_mask)), pa.table({
        "from": pa.array([e[0] for e in added], pa.string()),
        "to": pa.array([e[1] for e in added], pa.string()),
        "direct": pa.array([e[2] for e in added], pa.bool_()),
    }).cast(edges.schema)])
