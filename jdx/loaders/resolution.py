"""JVM-style resolution over the loaded classes: which declaration a call site or field access reaches
(JVMS 5.4.3.2-5.4.3.4), and which methods override which."""

from __future__ import annotations

from collections import defaultdict

import pyarrow as pa
import pyarrow.compute as pc

ACC_PRIVATE, ACC_STATIC, ACC_BRIDGE, ACC_SYNTHETIC = 0x0002, 0x0008, 0x0040, 0x1000


class MemberKeys:
    """Member ids for membership tests: a base set shared between updates plus the update's own."""

    __slots__ = ("base", "own")

    def __init__(self, base: frozenset[str] | set[str], own: set[str]):
        self.base, self.own = base, own

    def __contains__(self, key: str) -> bool:
        return key in self.own or key in self.base

    def __len__(self) -> int:
        return len(self.base) + len(self.own)


class Hierarchy:
    """Supertypes of the loaded classes plus the set of declared member ids."""

    def __init__(self, supers: dict[str, str], interfaces: dict[str, list[str]], methods, fields):
        self.supers = supers
        self.interfaces = interfaces
        self.methods = methods
        self.fields = fields

    def resolve_method(self, owner: str, name_desc: str) -> str | None:
        """The class chain (for an interface: itself, then Object), then superinterfaces breadth-first."""
        seen: set[str] = set()
        chain = []
        c: str | None = owner
        while c and c not in seen:
            seen.add(c)
            chain.append(c)
            if f"{c}#{name_desc}" in self.methods:
                return c
            c = self.supers.get(c)
        queue = [i for c in chain for i in self.interfaces.get(c, ())]
        while queue:
            i = queue.pop(0)
            if i in seen:
                continue
            seen.add(i)
            if f"{i}#{name_desc}" in self.methods:
                return i
            queue.extend(self.interfaces.get(i, ()))
        return None

    def resolve_field(self, owner: str, name_desc: str, seen: set[str] | None = None) -> str | None:
        """The class, then its superinterfaces, then its superclass."""
        seen = set() if seen is None else seen
        c: str | None = owner
        while c and c not in seen:
            seen.add(c)
            if f"{c}#{name_desc}" in self.fields:
                return c
            for i in self.interfaces.get(c, ()):
                found = self.resolve_field(i, name_desc, seen)
                if found:
                    return found
            c = self.supers.get(c)
        return None

    def ancestors(self, t: str) -> list[str]:
        """Superclasses nearest first, then superinterfaces breadth-first."""
        out, seen = [], {t}
        c = self.supers.get(t)
        while c and c not in seen:
            seen.add(c)
            out.append(c)
            c = self.supers.get(c)
        queue = [i for c in [t, *out] for i in self.interfaces.get(c, ())]
        while queue:
            i = queue.pop(0)
            if i in seen:
                continue
            seen.add(i)
            out.append(i)
            queue.extend(self.interfaces.get(i, ()))
        return out


def resolve_edges(refs: pa.Table, hierarchy: Hierarchy, is_field: bool, kind_names: pa.Array,
                  externals: dict[str, tuple[str, str, str]], memo: dict[str, str | None] | None = None) -> pa.Table:
    """Call sites or field accesses -> edges to the declaration the JVM would link.

    A key declared where it is named is kept as is; the rest are resolved once per distinct key (`memo` keeps
    what was found across calls: the artifacts of one classpath resolved one after another). Unresolvable
    targets become external members (collected in `externals`).
    """
    keys = refs["to"]
    unique = pc.unique(keys)
    targets = unique.to_pylist()
    vias: list[str | None] = [None] * len(targets)
    declared = hierarchy.fields if is_field else hierarchy.methods  # a set lookup per distinct key: no hash table
    resolve = hierarchy.resolve_field if is_field else hierarchy.resolve_method  # of every member id per call
    memo = {} if memo is None else memo
    for i, key in enumerate(targets):
        if key in declared:
            continue
        owner, nd = key.split("#", 1)
        if key in memo:
            found = memo[key]
        else:
            found = memo[key] = resolve(owner, nd)
        if found is None:
            if is_field:
                name, desc = nd.split(":", 1)
            else:
                paren = nd.index("(")
                name, desc = nd[:paren], nd[paren:]
            externals[key] = (owner, name, desc)
        else:
            targets[i] = f"{found}#{nd}"
            vias[i] = owner  # named through a subtype or sub-interface of the declaring type
    positions = pc.index_in(keys, value_set=unique)
    return pa.table({
        "from": refs["from"],
        "to": pc.take(pa.array(targets, pa.string()), positions),
        "line": refs["line"],
        "kind": pc.take(kind_names, refs["kind"]),
        "via": pc.take(pa.array(vias, pa.string()), positions),
    })


def _package(t: str) -> str:
    return t.rsplit("/", 1)[0] if "/" in t else ""


def overrides(methods: pa.Table, winners: set[str], hierarchy: Hierarchy, only: set[str] | None = None) -> pa.Table:
    """Instance, non-private methods and every supertype declaration they override; `direct` marks the nearest.

    JLS §8.4.8.1: an override is decided by the name and the erased parameter types (a covariant return
    type still overrides) and by accessibility (a package-private method only inside its package), never by
    the exact descriptor. Bridges and other synthetic methods are folded into the method they bridge: they
    are on neither end of an edge, so `Map#keySet()` is overridden by `ConcurrentHashMap#keySet()`, the real
    method, and `ArrayDeque#clone()` overrides `Object#clone()`. `only`: the owners whose overriding methods
    are wanted (an incremental update's types)."""
    if only is not None:  # only these owners and their supertypes matter: skip reading the rest
        wanted = set(only)
        for t in only:
            wanted.update(hierarchy.ancestors(t))
        methods = methods.filter(pc.is_in(methods["owner_id"], value_set=pa.array(sorted(wanted), pa.string())))
    if "kind" in methods.column_names:  # members of both kinds (an incremental update's classpath context)
        methods = methods.filter(pc.equal(methods["kind"], 0))
    by_owner: dict[str, dict[str, tuple[str, int]]] = defaultdict(dict)
    for oid, name, desc, acc in zip(methods["owner_id"].to_pylist(), methods["name"].to_pylist(),
                                     methods["descriptor"].to_pylist(), methods["access"].to_pylist()):
        if acc & (ACC_PRIVATE | ACC_STATIC | ACC_BRIDGE | ACC_SYNTHETIC) or name.startswith("<"):
            continue
        key = name + desc[: desc.index(")") + 1]
        own = by_owner[oid]
        if key not in own or name + desc < own[key][0]:  # two real methods of one erasure (not javac): one wins
            own[key] = (name + desc, acc)
    src, dst, direct = [], [], []
    for t in sorted(by_owner):
        if t not in winners or (only is not None and t not in only):
            continue
        own = by_owner[t]
        matched: set[str] = set()
        for a in hierarchy.ancestors(t):
            theirs = by_owner.get(a)
            if not theirs:
                continue
            for key in sorted(own.keys() & theirs.keys()):
                their_nd, their_acc = theirs[key]
                if not their_acc & 0x0007 and _package(a) != _package(t):
                    continue  # package-private: overridable only inside its package
                src.append(f"{t}#{own[key][0]}")
                dst.append(f"{a}#{their_nd}")
                direct.append(key not in matched)
                matched.add(key)
    return pa.table({"from": pa.array(src, pa.string()), "to": pa.array(dst, pa.string()),
                     "direct": pa.array(direct, pa.bool_())})
