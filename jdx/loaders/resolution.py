"""JVM-style resolution over the loaded classes: which declaration a call site or field access reaches
(JVMS 5.4.3.2-5.4.3.4), and which methods override which."""

from __future__ import annotations


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


def overrides(methods: pa.Table, winners: set[str], hierarchy: Hierarchy, only: set[str] | None = None,
              chunk: int = 1 << 18) -> pa.Table:
    """Instance, non-private methods and every supertype declaration they override; `direct` marks the nearest.

    JLS §8.4.8.1: an override is decided by the name and the erased parameter types (a covariant return
    type still overrides) and by accessibility (a package-private method only inside its package), never by
    the exact descriptor. Bridges and other synthetic methods are folded into the method they bridge: they
    are on neither end of an edge, so `Map#keySet()` is overridden by `ConcurrentHashMap#keySet()`, the real
    method, and `ArrayDeque#clone()` overrides `Object#clone()`. `only`: the owners whose overriding methods
    are wanted (an incremental update's types).

    Columnar: each method is coded as (owner, name + erased parameters) in one integer, each overriding
    candidate is expanded against its owner's ancestors (`chunk` candidates at a time) and the ancestors'
    declarations are found by integer lookup, so no per-method Python object is made (at the scale of a
    whole Maven repository, 2.8M methods, per-owner dicts of strings were the build's peak memory).
    Edges come in the order: overriding type, then its ancestors nearest first, then the signature."""
    if only is not None:  # only these owners and their supertypes matter: skip reading the rest
        wanted = set(only)
        for t in only:
            wanted.update(hierarchy.ancestors(t))
        methods = methods.filter(pc.is_in(methods["owner_id"], value_set=pa.array(sorted(wanted), pa.string())))
    if "kind" in methods.column_names:  # members of both kinds (an incremental update's classpath context)
        methods = methods.filter(pc.equal(methods["kind"], 0))
    skip = ACC_PRIVATE | ACC_STATIC | ACC_BRIDGE | ACC_SYNTHETIC
    keep = pc.and_(pc.equal(pc.bit_wise_and(methods["access"], skip), 0),
                   pc.invert(pc.starts_with(methods["name"], "<")))
    m = methods.select(["owner_id", "name", "descriptor", "access"]).filter(keep)
    del keep
    if m.num_rows == 0:
        return _override_table(pa.array([], pa.string()), pa.array([], pa.string()), pa.array([], pa.bool_()))
    owners = _sorted_unique(m["owner_id"])
    signature = pc.binary_join_element_wise(  # name + erased parameter types: what an override must match
        m["name"], pc.replace_substring_regex(m["descriptor"], pattern=r"\).*", replacement=")"), "")
    signatures = _sorted_unique(signature)
    width = len(signatures)
    code = pc.add(pc.multiply(pc.cast(pc.index_in(m["owner_id"], value_set=owners), pa.int64()), width),
                  pc.cast(pc.index_in(signature, value_set=signatures), pa.int64()))
    del signature, signatures
    # one declaration per (owner, signature), ordered by that code; two real methods of one erasure (not
    # javac's output) keep the smallest descriptor
    m = m.append_column("code", code).sort_by([("code", "ascending"), ("descriptor", "ascending")])
    del code
    code = m["code"].combine_chunks()
    if len(code) > 1:
        first = pc.not_equal(code.slice(1), code.slice(0, len(code) - 1))
        m = m.filter(pa.concat_arrays([pa.array([True]), first]))
        code = m["code"].combine_chunks()
    owner_code = pc.divide(code, width)  # integer division of int64
    signature_code = pc.subtract(code, pc.multiply(owner_code, width))
    owner_names = owners.to_pylist()
    index = {o: i for i, o in enumerate(owner_names)}
    packages = pa.array([_package(o) for o in owner_names], pa.string())
    # per overriding owner: the ancestors that declare something, nearest first, and their ranks
    offsets, ancestors, ranks = [0], [], []
    for o in owner_names:
        if o in winners and (only is None or o in only):
            for rank, a in enumerate(hierarchy.ancestors(o)):
                i = index.get(a)
                if i is not None:
                    ancestors.append(i)
                    ranks.append(rank)
        offsets.append(len(ancestors))
    offsets_array = pa.array(offsets, pa.int32())
    ancestor_lists = pa.ListArray.from_arrays(offsets_array, pa.array(ancestors, pa.int64()))
    rank_lists = pa.ListArray.from_arrays(offsets_array, pa.array(ranks, pa.int32()))
    del offsets, ancestors, ranks, offsets_array
    access = m["access"].combine_chunks()
    found = []
    for start in range(0, len(code), chunk):
        own_owner = owner_code.slice(start, chunk)
        lists = pc.take(ancestor_lists, own_owner)
        row = pc.list_parent_indices(lists)
        theirs_owner = pc.list_flatten(lists)
        probe = pc.add(pc.multiply(theirs_owner, width), pc.take(signature_code.slice(start, chunk), row))
        theirs = pc.index_in(probe, value_set=code)
        hit = pc.is_valid(theirs)
        row, theirs, theirs_owner = row.filter(hit), theirs.filter(hit), theirs_owner.filter(hit)
        rank = pc.list_flatten(pc.take(rank_lists, own_owner)).filter(hit)
        own_owner_rows = pc.take(own_owner, row)
        # package-private: overridable only inside its package
        visible = pc.or_(pc.not_equal(pc.bit_wise_and(pc.take(access, theirs), 0x0007), 0),
                         pc.equal(pc.take(packages, theirs_owner), pc.take(packages, own_owner_rows)))
        row, theirs, rank, own_owner_rows = (row.filter(visible), theirs.filter(visible), rank.filter(visible),
                                             own_owner_rows.filter(visible))
        own_row = pc.add(pc.cast(row, pa.int64()), start)
        found.append(pa.table({"owner": own_owner_rows, "rank": rank,
                               "signature": pc.take(signature_code, own_row), "own": own_row, "theirs": theirs}))
    edges = pa.concat_tables(found)
    del found
    # the nearest declaration of each overriding method is the first of its row (expanded nearest first)
    own = edges["own"].combine_chunks()
    direct = pa.concat_arrays([pa.array([True]), pc.not_equal(own.slice(1), own.slice(0, len(own) - 1))]) \
        if len(own) else pa.array([], pa.bool_())
    edges = edges.append_column("direct", direct).sort_by(
        [("owner", "ascending"), ("rank", "ascending"), ("signature", "ascending")])

    def ids(rows):  # owner#name(descriptor) of the edges' ends only
        owner_name = pc.binary_join_element_wise(pc.take(m["owner_id"], rows), pc.take(m["name"], rows), "#")
        return pc.binary_join_element_wise(owner_name, pc.take(m["descriptor"], rows), "")

    return _override_table(ids(edges["own"]), ids(edges["theirs"]), edges["direct"])


def _sorted_unique(col) -> pa.Array:
    u = pc.unique(col)
    return pc.take(u, pc.sort_indices(u))


def _override_table(src, dst, direct) -> pa.Table:
    return pa.table({"from": src, "to": dst, "direct": direct})
