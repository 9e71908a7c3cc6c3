"""JVM-style resolution over the loaded classes: which declaration a call site or field access reaches
(JVMS 5.4.3.2-5.4.3.4), and which methods override which."""

from __future__ import annotations


import pyarrow as pa
import pyarrow.compute as pc

ACC_PRIVATE, ACC_STATIC, ACC_BRIDGE, ACC_SYNTHETIC = 0x0002, 0x0008, 0x0040, 0x1000


STRIDE = 1 << 32  # a member's code: its owner's code * STRIDE + its name-and-descriptor's code


def positions(values: pa.Array, table: pa.Array) -> pa.Array:
    """Where each of the distinct `values` is in `table` (distinct too), as int64, null where absent. A few values
    against a big table hash the values and probe the table, instead of hashing the whole table each time (an
    update's own members against the base's hundreds of thousands)."""
    if len(values) * 4 >= len(table):
        return pc.cast(pc.index_in(values, value_set=table), pa.int64())
    which = pc.index_in(table, value_set=values)  # per table row: which value it is
    found = pc.is_valid(which)
    rows, which = pc.indices_nonzero(found), which.filter(found)
    at = pc.index_in(pc.indices_nonzero(const_true(len(values))), value_set=pc.cast(which, pa.uint64()))
    return pc.cast(pc.take(rows, at), pa.int64())


def member_of(values: pa.Array, table: pa.Array) -> pa.Array:
    """`pc.is_in(values, value_set=table)`; a few values against a big table hash the values, not the table."""
    if len(values) * 4 < len(table):
        table = table.filter(pc.is_in(table, value_set=values))
    return pc.is_in(values, value_set=table)


def split_ids(ids) -> tuple[pa.Array, pa.Array]:
    """Member ids (`owner#name(desc)` or `owner#name:desc`) -> (owners, what follows the '#')."""
    parts = pc.split_pattern(ids, "#", max_splits=1)
    return pc.list_element(parts, 0), pc.list_element(parts, 1)


class Declared:
    """The declared member ids of one kind on the classpath, as integer codes (owner, name and descriptor): what
    resolution tests membership against, in Arrow instead of a Python set of strings (2.8M of them for a whole
    Maven repository cost ~1 GB). `plus` adds an update's own members to a base kept per process."""

    def __init__(self, owners: list[str], index: dict[str, int], nds: pa.Array, codes: pa.Array,
                 extra: dict[str, int] | None = None):
        self.owners = owners  # owner name by code
        self.index = index  # owner name -> code
        self.extra = extra or {}  # owners an update added to a base's index (the base's dict is shared)
        self.nds = nds  # distinct names with descriptors, by code
        self.codes = codes  # every declared member's code
        self._names: pa.Array | None = None
        self.polymorphic: dict[str, dict[str, str]] | None = None  # sigpoly.polymorphic, once asked

    def names(self) -> pa.Array:
        """The owners by code, as Arrow."""
        if self._names is None:
            self._names = pa.array(self.owners, pa.string())
        return self._names

    @classmethod
    def of(cls, ids) -> Declared:
        return cls.of_parts(*split_ids(ids))

    @classmethod
    def of_parts(cls, owner, nd) -> Declared:
        """`of` from the parts of the ids before and after the '#', where the caller has them already (splitting a
        whole Maven repository's 2.8M ids cost a few hundred MB at the build's peak)."""
        chunk = max(len(owner), 1)
        return cls._coded(owner, lambda start: combined(nd.slice(start, chunk)), chunk)

    @classmethod
    def of_columns(cls, owner, name, descriptor, sep: str = "", chunk: int = 1 << 18) -> Declared:
        """`of_parts(owner, name + sep + descriptor)`, the joined column drawn a chunk of rows at a time (the whole
        column of a Maven repository's 2.07M methods, ~0.1 GB, was held at the build's peak)."""
        return cls._coded(owner, lambda start: combined(pc.binary_join_element_wise(
            name.slice(start, chunk), descriptor.slice(start, chunk), sep)), chunk)

    @classmethod
    def _coded(cls, owner, nd, chunk: int) -> Declared:
        """Every member coded, `nd(start)` giving the names with descriptors of the `chunk` rows from `start`; owners
        and names with descriptors coded in order of first appearance. Chunked columns are sliced, never combined
        (that would copy them)."""
        starts = range(0, len(owner), chunk)
        owners = combined(pc.unique(owner))
        nds = pc.unique(pa.concat_arrays([pc.unique(nd(s)) for s in starts])) if len(owner) else pc.unique(nd(0))
        codes = [combined(pc.add(pc.multiply(pc.cast(pc.index_in(owner.slice(s, chunk), value_set=owners), pa.int64()),
                                             STRIDE), pc.cast(pc.index_in(nd(s), value_set=nds), pa.int64())))
                 for s in starts]
        names = owners.to_pylist()
        return cls(names, {o: i for i, o in enumerate(names)}, nds,
                   pa.concat_arrays(codes) if codes else pa.array([], pa.int64()))

    def plus(self, ids) -> Declared:
        """These ids added (an update's own members, none of them already declared)."""
        return self.plus_parts(*split_ids(ids))

    def plus_parts(self, owner, nd) -> Declared:
        """`plus` from the ids' parts before and after the '#' (as `to_table` keeps them)."""
        new_owners = [o for o in pc.unique(owner).to_pylist() if self.code(o) is None]
        owners = self.owners + new_owners
        extra = dict(self.extra)
        extra.update((o, len(self.owners) + k) for k, o in enumerate(new_owners))
        distinct = pc.unique(nd)
        at = positions(distinct, self.nds)
        fresh = distinct.filter(pc.is_null(at))
        nds = pa.concat_arrays([self.nds, fresh])
        nd_codes = pc.fill_null(at, pc.add(pc.cast(positions(distinct, fresh), pa.int64()), len(self.nds)))
        owner_codes = pa.array([self.index.get(o, extra.get(o)) for o in owner.to_pylist()], pa.int64())
        codes = pc.add(pc.multiply(owner_codes, STRIDE), pc.take(nd_codes, pc.index_in(nd, value_set=distinct)))
        grown = Declared(owners, self.index, nds, pa.concat_arrays([self.codes, combined(codes)]), extra)
        grown._names = pa.concat_arrays([self.names(), pa.array(new_owners, pa.string())])
        return grown

    def to_table(self, start: int = 0) -> pa.Table:
        """The codes (from the `start`-th member on) as a table a build keeps beside its graph (`build_context`): per
        member its owner and its name with descriptor, each dictionary-encoded (by its code for the whole table; an
        update's part, from `start`, by its own rows)."""
        codes = self.codes.slice(start) if start else self.codes
        owner = pc.cast(pc.divide(codes, STRIDE), pa.int32())
        nd = pc.cast(pc.subtract(codes, pc.multiply(pc.cast(owner, pa.int64()), STRIDE)), pa.int32())
        if start:
            return pa.table({"owner": pc.dictionary_encode(pc.take(self.names(), owner)),
                             "nd": pc.dictionary_encode(pc.take(self.nds, nd))})
        return pa.table({"owner": pa.DictionaryArray.from_arrays(owner, self.names()),
                         "nd": pa.DictionaryArray.from_arrays(nd, self.nds)})

    @classmethod
    def from_table(cls, table: pa.Table) -> Declared:
        """`to_table` read back."""
        owner, nd = combined(table["owner"]), combined(table["nd"])
        names = owner.dictionary.to_pylist()
        codes = pc.add(pc.multiply(pc.cast(owner.indices, pa.int64()), STRIDE), pc.cast(nd.indices, pa.int64()))
        out = cls(names, {o: i for i, o in enumerate(names)}, nd.dictionary, codes)
        out._names = owner.dictionary
        return out

    def code(self, owner: str) -> int | None:
        found = self.index.get(owner)
        return found if found is not None else self.extra.get(owner)

    def __len__(self) -> int:
        return len(self.codes)

    def contains(self, ids: pa.Array) -> pa.Array:
        """Per member id (`owner#name(desc)` or `owner#name:desc`), whether it is declared: in codes, no id drawn for
        the declared members."""
        if not len(ids):
            return pa.array([], pa.bool_())
        owner, nd = split_ids(ids)
        owners = pc.unique(owner)
        owner_codes = pa.array([self.code(o) for o in owners.to_pylist()], pa.int64())
        distinct = pc.unique(nd)
        nd_codes = positions(distinct, self.nds)
        probe = pc.add(pc.multiply(pc.take(owner_codes, pc.index_in(owner, value_set=owners)), STRIDE),
                       pc.take(nd_codes, pc.index_in(nd, value_set=distinct)))
        return pc.fill_null(member_of(probe, self.codes), False)

    def __contains__(self, member_id: str) -> bool:
        owner, _, nd = member_id.partition("#")
        code, at = self.code(owner), pc.index(self.nds, nd).as_py()
        return code is not None and at >= 0 and pc.is_in(pa.array([code * STRIDE + at], pa.int64()),
                                                          value_set=self.codes)[0].as_py()


class Hierarchy:
    """Supertypes of the loaded classes: the order in which the JVM looks for a member (JVMS 5.4.3.2-5.4.3.3),
    and the ancestors an override may match."""

    def __init__(self, supers: dict[str, str], interfaces: dict[str, list[str]]):
        self.supers = supers
        self.interfaces = interfaces

    def method_lookup(self, owner: str) -> list[str]:
        """Where a method named through `owner` is looked for, in order: the class chain (for an interface:
        itself, then Object), then the superinterfaces breadth-first (JVMS 5.4.3.3)."""
        seen: set[str] = set()
        chain = []
        c: str | None = owner
        while c and c not in seen:
            seen.add(c)
            chain.append(c)
            c = self.supers.get(c)
        out = list(chain)
        queue = [i for c in chain for i in self.interfaces.get(c, ())]
        while queue:
            i = queue.pop(0)
            if i in seen:
                continue
            seen.add(i)
            out.append(i)
            queue.extend(self.interfaces.get(i, ()))
        return out

    def field_lookup(self, owner: str) -> list[str]:
        """Where a field named through `owner` is looked for, in order: the class, then its superinterfaces (each
        with theirs, depth first), then its superclass, the same way up (JVMS 5.4.3.2)."""
        # depth first with a stack of the types still to walk, not a recursive closure: that closure referred to
        # itself and to the hierarchy, a reference cycle per call that kept a Maven repository's hierarchy (~0.1 GB)
        # alive after its build until the cyclic collector ran
        out: list[str] = []
        seen: set[str] = set()
        stack: list[str | None] = [owner]
        while stack:
            c = stack.pop()
            if not c or c in seen:
                continue
            seen.add(c)
            out.append(c)
            stack.append(self.supers.get(c))  # the superclass once every superinterface is walked
            stack.extend(reversed(self.interfaces.get(c, ())))
        return out

    def ancestors(self, t: str) -> list[str]:
        """Superclasses nearest first, then superinterfaces breadth-first: a method's lookup order past `t` itself."""
        return self.method_lookup(t)[1:]


def resolve_targets(keys: pa.Array, declared: Declared, lookup, orders: dict[str, list[int]]) \
        -> tuple[pa.Array, pa.Array, pa.Array]:
    """Distinct named members -> (the member the JVM links, the type it was named through when that is not the
    declaring one, whether it is declared nowhere on the classpath). `lookup(owner)`: the types to look in, in
    order (Hierarchy.method_lookup or field_lookup); `orders` keeps their codes per owner across calls.
    Each key is expanded against its owner's lookup order and the first declaration found wins, in integer
    codes: no Python object per key but one per distinct owner."""
    n = len(keys)
    owner, nd = split_ids(keys)
    distinct_nd = pc.unique(nd)
    nd_code = pc.take(positions(distinct_nd, declared.nds), pc.index_in(nd, value_set=distinct_nd))
    owners = pc.unique(owner)
    offsets, values, own_codes = [0], [], []
    for o in owners.to_pylist():
        order = orders.get(o)
        if order is None:
            order = orders[o] = [c for c in map(declared.code, lookup(o)) if c is not None]
        values.extend(order)
        offsets.append(len(values))
        own_codes.append(declared.code(o))
    owner_pos = pc.index_in(owner, value_set=owners)
    expanded = pc.take(pa.ListArray.from_arrays(pa.array(offsets, pa.int32()), pa.array(values, pa.int64())),
                       owner_pos)
    parent = pc.list_parent_indices(expanded)
    candidate = pc.list_flatten(expanded)
    del expanded
    probe = pc.add(pc.multiply(candidate, STRIDE), pc.take(nd_code, parent))
    hit = pc.fill_null(member_of(probe, declared.codes), False)
    parent, candidate = parent.filter(hit), candidate.filter(hit)
    if len(parent):  # the first declaration in lookup order (a key's candidates are contiguous, in order)
        first = pa.concat_arrays([pa.array([True]), pc.not_equal(parent.slice(1), parent.slice(0, len(parent) - 1))])
        parent, candidate = parent.filter(first), candidate.filter(first)
    at = pc.index_in(pc.indices_nonzero(const_true(n)), value_set=pc.cast(parent, pa.uint64()))
    found = pc.take(candidate, at)  # the declaring owner's code per key, null when declared nowhere
    here = pc.fill_null(pc.equal(found, pc.take(pa.array(own_codes, pa.int64()), owner_pos)), False)
    moved = pc.and_(pc.is_valid(found), pc.invert(here))
    found_name = pc.take(declared.names(), pc.if_else(moved, found, None))
    targets = pc.if_else(moved, pc.binary_join_element_wise(found_name, nd, "#"), keys)
    vias = pc.if_else(moved, owner, pa.scalar(None, pa.string()))
    from jdx.loaders.sigpoly import polymorphic_links

    return polymorphic_links(keys, targets, vias, pc.is_null(found), declared, lookup)


def resolve_edges(refs: pa.Table, declared: Declared, lookup, orders: dict[str, list[int]], kind_names: pa.Array,
                  externals: list[pa.Array]) -> pa.Table:
    """Call sites or field accesses -> edges to the declaration the JVM would link (resolve_targets, once per
    distinct key of `refs`); the keys declared nowhere are appended to `externals` (they become external
    nodes)."""
    # the distinct keys and each row's, without combining the batch's chunks (a copy of the whole column)
    keys = combined(pc.unique(refs["to"]))
    at = pc.index_in(refs["to"], value_set=keys)
    targets, vias, external = resolve_targets(keys, declared, lookup, orders)
    externals.append(keys.filter(external))
    return pa.table({
        "from": refs["from"],
        "to": pc.take(targets, at),
        "line": refs["line"],
        "kind": pc.take(kind_names, refs["kind"]),
        "via": pc.take(vias, at),
    })


def const_true(n: int) -> pa.Array:
    return pa.nulls(n, pa.bool_()).fill_null(True)


def combined(col):
    """One Arrow array of a column (a ChunkedArray's chunks concatenated)."""
    return col.combine_chunks() if isinstance(col, pa.ChunkedArray) else col


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
    # the candidates by row number in `methods`, each column taken only while it is coded (a filtered copy of four
    # string columns held through the whole function was ~0.15 GB at a Maven repository's scale)
    m = pc.indices_nonzero(keep)
    del keep
    if len(m) == 0:
        return _override_table(pa.array([], pa.string()), pa.array([], pa.string()), pa.array([], pa.bool_()))
    owner = pc.take(methods["owner_id"], m)
    owners = sorted_unique(owner)
    owner_at = pc.cast(pc.index_in(owner, value_set=owners), pa.int64())
    del owner
    signature = pc.binary_join_element_wise(  # name + erased parameter types: what an override must match
        pc.take(methods["name"], m),
        pc.replace_substring_regex(pc.take(methods["descriptor"], m), pattern=r"\).*", replacement=")"), "")
    signatures = sorted_unique(signature)
    width = len(signatures)
    code = pc.add(pc.multiply(owner_at, width), pc.cast(pc.index_in(signature, value_set=signatures), pa.int64()))
    del signature, signatures, owner_at
    # one declaration per (owner, signature): two real methods of one erasure (not javac's output) keep the
    # smallest descriptor; `m` keeps the rows of the kept declarations (found by sorting row numbers, not the rows: a
    # Maven repository's 1.2M candidates copied twice were ~0.4 GB at the build's peak)
    code = combined(code)
    if pc.count_distinct(code).as_py() < len(code):  # ordered by code, then descriptor: the first of each wins
        order = pc.sort_indices(pa.table({"code": code, "descriptor": pc.take(methods["descriptor"], m)}),
                                sort_keys=[("code", "ascending"), ("descriptor", "ascending")])
        ordered = pc.take(code, order)
        first = pa.concat_arrays([pa.array([True]), pc.not_equal(ordered.slice(1), ordered.slice(0, len(ordered) - 1))])
        winners_at = pc.take(order, pc.indices_nonzero(first))
        del order, ordered, first
        rows = pc.indices_nonzero(pc.is_in(pc.indices_nonzero(const_true(len(code))), value_set=winners_at))
        del winners_at
        code = pc.take(code, rows)
        m = pc.take(m, rows)
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
    access = combined(pc.take(methods["access"], m))
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

    def ids(at):  # owner#name(descriptor) of the edges' ends only
        at = pc.take(m, at)
        owner_name = pc.binary_join_element_wise(pc.take(methods["owner_id"], at), pc.take(methods["name"], at), "#")
        return pc.binary_join_element_wise(owner_name, pc.take(methods["descriptor"], at), "")

    return _override_table(ids(edges["own"]), ids(edges["theirs"]), edges["direct"])


def sorted_unique(col) -> pa.Array:
    """The distinct values of a column, sorted."""
    u = pc.unique(col)
    return pc.take(u, pc.sort_indices(u))


def _override_table(src, dst, direct) -> pa.Table:
    return pa.table({"from": src, "to": dst, "direct": direct})


OBJECT = "java/lang/Object"


def with_inherited(edges: pa.Table, methods: pa.Table, winners: set[str], hierarchy: Hierarchy,
                   only: set[str] | None = None) -> pa.Table:
    """`edges` (from, to, direct) with the implementations a class inherits (JLS §8.4.8.1: a method inherited by C
    from its superclass overrides, from C, a method of C's superinterfaces): `TreePVector extends
    AbstractUnmodifiableList implements PVector` declares no `add(int, Object)`, so `AbstractUnmodifiableList#add(int,
    Object)` overrides `PSequence#add(int, Object)` (and `PVector`'s) although its own class implements neither.

    For each class C with a superclass other than Object and each non-static, non-private method of an interface C
    implements that its superclass does not (the superclass's own pass links those), when C declares no method of
    that name and erased parameters (a bridge included: what a generic supertype's bridge shows is
    bridge_overrides'), the first declaration up C's superclass chain (Object excluded: an interface re-declaring
    `equals` says nothing new) is linked to it when it is public, not static, not a bridge (a private one is
    skipped: not inherited; a package-private or protected one cannot implement an interface method, JLS §8.4.8.3).
    A visibility bridge (`public class PubSub extends PkgBase implements I`, PkgBase package-private: javac writes
    `PubSub#m()` calling `PkgBase#m()`) does not count as a declaration: PkgBase's method is linked to I's.
    Each pair once, `direct` false (the method's nearest override stays the one its own class's supertypes give).
    `only`: an update's owners; a pair some class of its base gives already is not linked again."""
    targets = hierarchy.interfaces if only is None else sorted(only)
    plans = [p for p in map(lambda c: _plan(c, hierarchy), targets) if p is not None and p[0] in winners]
    if not plans:
        return edges
    others = []
    if only is not None:  # the base's classes below a superclass of the update's: the pairs they give are there
        tops = {d for _, chain, _ in plans for d in chain}
        others = [p for p in map(lambda c: _plan(c, hierarchy), _below(tops, hierarchy, only))
                  if p is not None and p[0] in winners]
    wanted = pa.array(sorted({i for _, _, its in plans + others for i in its}), pa.string())
    owners = pa.array(sorted({o for c, chain, _ in plans + others for o in [c, *chain]}), pa.string())
    methods = methods.filter(pc.is_in(methods["owner_id"], value_set=pa.concat_arrays([wanted, owners])))
    if "kind" in methods.column_names:
        methods = methods.filter(pc.equal(methods["kind"], 0))
    methods = methods.filter(pc.invert(pc.starts_with(methods["name"], "<")))
    # the interfaces' instance methods by erased signature
    theirs = methods.filter(pc.and_(pc.is_in(methods["owner_id"], value_set=wanted), pc.equal(pc.bit_wise_and(
        methods["access"], ACC_PRIVATE | ACC_STATIC | ACC_BRIDGE | ACC_SYNTHETIC), 0)))
    of_iface: dict[str, list[tuple[str, str]]] = {}  # interface -> [(erased signature, method id)]
    for r in theirs.select(["owner_id", "name", "descriptor"]).to_pylist():
        of_iface.setdefault(r["owner_id"], []).append(
            (r["name"] + r["descriptor"][: r["descriptor"].index(")") + 1],
             f"{r['owner_id']}#{r['name']}{r['descriptor']}"))
    # every declaration of those names in the classes and their superclass chains (bridges too: all but a visibility
    # bridge stop the walk)
    mine = methods.filter(pc.and_(pc.is_in(methods["owner_id"], value_set=owners),
                                  pc.is_in(methods["name"], value_set=pc.unique(theirs["name"]))))
    declared: dict[tuple[str, str], tuple[str, int]] = {}
    for r in mine.select(["owner_id", "name", "descriptor", "access"]).to_pylist():
        key = (r["owner_id"], r["name"] + r["descriptor"][: r["descriptor"].index(")") + 1])
        declared.setdefault(key, (f"{r['owner_id']}#{r['name']}{r['descriptor']}", r["access"]))
    # the (owner, name, arity) of real declarations: a bridge beside one is a generic bridge, not a visibility bridge
    real = {(r["owner_id"], r["name"], _arity(r["descriptor"])) for r in mine.select(
        ["owner_id", "name", "descriptor", "access"]).to_pylist() if not r["access"] & (ACC_BRIDGE | ACC_SYNTHETIC)}
    added = sorted(_inherited_pairs(plans, of_iface, declared, real)
                   - _inherited_pairs(others, of_iface, declared, real))
    if not added:
        return edges
    return pa.concat_tables([edges, pa.table({
        "from": pa.array([f for f, _ in added], pa.string()),
        "to": pa.array([t for _, t in added], pa.string()),
        "direct": pa.array([False] * len(added), pa.bool_()),
    }).cast(edges.schema)])


def _plan(c: str, hierarchy: Hierarchy) -> tuple[str, list[str], list[str]] | None:
    """(class, its superclass chain below Object, the interfaces it implements that its superclass does not), or
    None when there is nothing to inherit or to implement (an interface's class file names Object as its super)."""
    s = hierarchy.supers.get(c)
    direct = hierarchy.interfaces.get(c, ())
    if not direct or s in (None, OBJECT):
        return None
    had = set(hierarchy.method_lookup(s))
    todo, seen = [i for i in direct if i not in had], set()
    while todo:
        i = todo.pop()
        if i not in seen and i not in had:
            seen.add(i)
            todo.extend(hierarchy.interfaces.get(i, ()))
    chain, x = [], s
    while x and x != OBJECT and x not in chain:
        chain.append(x)
        x = hierarchy.supers.get(x)
    return (c, chain, sorted(seen)) if seen else None


def _below(tops: set[str], hierarchy: Hierarchy, skip: set[str]) -> list[str]:
    """The classes, `skip` left out, that have one of `tops` above them in their superclass chain."""
    reaches: dict[str, bool] = {}  # a type is one of `tops` or has one above it
    out = []
    for c in hierarchy.supers:
        walked, x = [], hierarchy.supers.get(c)
        while x is not None and x not in reaches and x not in walked:
            walked.append(x)
            x = hierarchy.supers.get(x)
        hit = reaches.get(x, False) if x is not None else False
        for w in reversed(walked):
            hit = hit or w in tops
            reaches[w] = hit
        if c not in skip and reaches.get(hierarchy.supers.get(c), False):
            out.append(c)
    return sorted(out)


def _arity(descriptor: str) -> int:
    """The number of parameters of a method descriptor."""
    n, i, end = 0, 1, descriptor.index(")")
    while i < end:
        while descriptor[i] == "[":
            i += 1
        i = descriptor.index(";", i) + 1 if descriptor[i] == "L" else i + 1
        n += 1
    return n


def _visibility_bridge(owner: str, hit: tuple[str, int], real: set[tuple[str, str, int]]) -> bool:
    """Whether `owner`'s declaration `hit` is javac's visibility bridge (a public class re-declaring a public method
    of a package-private superclass, calling it with invokespecial): a bridge or synthetic method beside no real
    method of its name and arity (a generic bridge always has the method it bridges beside it)."""
    name, descriptor = hit[0][hit[0].index("#") + 1:].split("(", 1)
    return bool(hit[1] & (ACC_BRIDGE | ACC_SYNTHETIC)) and (owner, name, _arity("(" + descriptor)) not in real


def _inherited_pairs(plans, of_iface, declared, real) -> set[tuple[str, str]]:
    """(inherited method, interface method it implements) for each planned class (with_inherited). A visibility
    bridge (in the class or up its chain) does not stop the walk: the declaration it calls, of the same name and
    descriptor further up, is the one inherited in source."""
    found: set[tuple[str, str]] = set()
    for c, chain, its in plans:
        for i in its:
            for signature, target in of_iface.get(i, ()):
                bridged = None  # the name and descriptor of the visibility bridges passed
                for d in [c, *chain]:
                    hit = declared.get((d, signature))
                    if hit is None or (d != c and hit[1] & ACC_PRIVATE):
                        continue
                    own = hit[0][hit[0].index("#"):]
                    if bridged is not None and own != bridged:
                        break
                    if _visibility_bridge(d, hit, real):
                        bridged = own
                        continue
                    if d != c and hit[1] & 0x0001 and not hit[1] & (ACC_STATIC | ACC_BRIDGE | ACC_SYNTHETIC):
                        found.add((hit[0], target))
                    break
    return found
