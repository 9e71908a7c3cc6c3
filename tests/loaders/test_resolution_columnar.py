"""`resolution.resolve_targets` finds the declaration a call or field access links to in integer codes (each key
expanded against its owner's lookup order); these tests hold it to JVMS 5.4.3.2-5.4.3.3 written out per key, as
the JVM walks it, on random hierarchies (diamonds, cycles the JVM would reject, interfaces reached twice,
owners declared nowhere), and `Declared.plus` (an update's own members on a base) to a Declared built whole.
The javap differential (tests/loaders/test_differential_javap_calls.py) holds both to real bytecode."""

from __future__ import annotations

from collections import defaultdict

import pyarrow as pa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jdx.loaders.resolution import Declared, Hierarchy, member_of, positions, resolve_edges, resolve_targets


def method_definition(h: Hierarchy, declared: set[str], owner: str, nd: str) -> str | None:
    seen: set[str] = set()
    chain = []
    c = owner
    while c and c not in seen:
        seen.add(c)
        chain.append(c)
        if f"{c}#{nd}" in declared:
            return c
        c = h.supers.get(c)
    queue = [i for c in chain for i in h.interfaces.get(c, ())]
    while queue:
        i = queue.pop(0)
        if i in seen:
            continue
        seen.add(i)
        if f"{i}#{nd}" in declared:
            return i
        queue.extend(h.interfaces.get(i, ()))
    return None


def field_definition(h: Hierarchy, declared: set[str], owner: str, nd: str, seen: set[str] | None = None):
    seen = set() if seen is None else seen
    c = owner
    while c and c not in seen:
        seen.add(c)
        if f"{c}#{nd}" in declared:
            return c
        for i in h.interfaces.get(c, ()):
            found = field_definition(h, declared, i, nd, seen)
            if found:
                return found
        c = h.supers.get(c)
    return None


TYPES = ["a/A", "a/B", "b/C", "b/D", "E", "F", "a/G"]
METHOD_NDS = ["m()V", "m(I)V", "n()Ljava/lang/Object;", "<init>()V"]
FIELD_NDS = ["x:I", "y:Ljava/lang/String;"]


@st.composite
def worlds(draw, field: bool):
    types = TYPES[: draw(st.integers(2, len(TYPES)))]
    supers, interfaces = {}, defaultdict(list)
    for t in types:
        if draw(st.booleans()):
            supers[t] = draw(st.sampled_from(types + ["java/lang/Object"]))  # cycles too: the walk stops
        interfaces[t] = draw(st.lists(st.sampled_from(types), max_size=3, unique=True))
    nds = FIELD_NDS if field else METHOD_NDS
    owners = types + ["java/lang/Object", "zz/Missing"]
    declared = sorted(set(draw(st.lists(st.tuples(st.sampled_from(owners[:-1]), st.sampled_from(nds)), max_size=25))))
    keys = sorted(set(draw(st.lists(st.tuples(st.sampled_from(owners), st.sampled_from(nds + ["q()V"])),
                                    min_size=1, max_size=25))))
    split = draw(st.integers(0, len(declared)))
    return Hierarchy(supers, dict(interfaces)), [f"{o}#{nd}" for o, nd in declared], \
        [f"{o}#{nd}" for o, nd in keys], split


def _check(world, field: bool):
    hierarchy, declared_ids, keys, split = world
    text = pa.string()
    whole = Declared.of(pa.array(declared_ids, text))
    grown = Declared.of(pa.array(declared_ids[:split], text)).plus(pa.array(declared_ids[split:], text))
    lookup = hierarchy.field_lookup if field else hierarchy.method_lookup
    definition = field_definition if field else method_definition
    want_targets, want_vias, want_external = [], [], []
    for key in keys:
        owner, nd = key.split("#", 1)
        found = None if key in declared_ids else definition(hierarchy, set(declared_ids), owner, nd)
        here = key in declared_ids
        want_targets.append(key if here or found is None else f"{found}#{nd}")
        want_vias.append(None if here or found is None else owner)
        want_external.append(not here and found is None)
    for declared in (whole, grown):
        targets, vias, external = resolve_targets(pa.array(keys, text), declared, lookup, {})
        assert targets.to_pylist() == want_targets
        assert vias.to_pylist() == want_vias
        assert external.to_pylist() == want_external
        assert len(declared) == len(declared_ids)
        assert all(i in declared for i in declared_ids)
        assert not any(k in declared for k in keys if k not in declared_ids)
        assert declared.contains(pa.array(keys, text)).to_pylist() == [k in declared_ids for k in keys]


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(worlds(field=False))
def test_method_resolution_equals_the_jvms_walk(world):
    _check(world, field=False)


def field_walk(h: Hierarchy, owner: str) -> list[str]:
    """JVMS 5.4.3.2's order, recursively: the class, each superinterface with theirs (depth first), the superclass."""
    out: list[str] = []

    def walk(c):
        while c and c not in out:
            out.append(c)
            for i in h.interfaces.get(c, ()):
                walk(i)
            c = h.supers.get(c)

    walk(owner)
    return out


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(worlds(field=True))
def test_field_lookup_order_is_the_jvms_walk(world):
    hierarchy = world[0]
    for owner in TYPES + ["java/lang/Object", "zz/Missing"]:
        assert hierarchy.field_lookup(owner) == field_walk(hierarchy, owner)


def test_a_hierarchy_is_freed_once_dropped_with_no_cycle_left_by_its_lookups():
    # a build's hierarchy (a Maven repository's: ~0.1 GB) must go with the build, not wait for the cyclic collector
    import gc
    import weakref

    h = Hierarchy({"p/C": "p/S", "p/S": "java/lang/Object"}, {"p/C": ["p/I", "p/J"], "p/I": ["p/K"]})
    gc.disable()
    try:
        assert h.field_lookup("p/C") == ["p/C", "p/I", "p/K", "p/J", "p/S", "java/lang/Object"]
        assert h.method_lookup("p/C") == ["p/C", "p/S", "java/lang/Object", "p/I", "p/J", "p/K"]
        gone = weakref.ref(h)
        del h
        assert gone() is None
    finally:
        gc.enable()


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(worlds(field=True))
def test_field_resolution_equals_the_jvms_walk(world):
    _check(world, field=True)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text("abc", max_size=3), unique=True, max_size=12), st.lists(st.text("abcd", max_size=3),
                                                                               unique=True, max_size=60))
def test_positions_both_ways(values, table):
    text = pa.string()
    want = [table.index(v) if v in table else None for v in values]
    assert positions(pa.array(values, text), pa.array(table, text)).to_pylist() == want


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 40), max_size=15), st.lists(st.integers(0, 40), unique=True, max_size=80))
def test_member_of_both_ways(values, table):
    got = member_of(pa.array(values, pa.int64()), pa.array(table, pa.int64())).to_pylist()
    assert got == [v in table for v in values]


def test_a_field_reached_through_an_interface_before_the_superclass():
    # JVMS 5.4.3.2: C's superinterfaces are searched before its superclass
    h = Hierarchy({"p/C": "p/S"}, {"p/C": ["p/I"]})
    declared = Declared.of(pa.array(["p/S#x:I", "p/I#x:I"], pa.string()))
    targets, vias, external = resolve_targets(pa.array(["p/C#x:I"], pa.string()), declared, h.field_lookup, {})
    assert targets.to_pylist() == ["p/I#x:I"] and vias.to_pylist() == ["p/C"] and external.to_pylist() == [False]
    # methods: the superclass chain first (5.4.3.3)
    declared = Declared.of(pa.array(["p/S#m()V", "p/I#m()V"], pa.string()))
    targets, _, _ = resolve_targets(pa.array(["p/C#m()V"], pa.string()), declared, h.method_lookup, {})
    assert targets.to_pylist() == ["p/S#m()V"]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.sampled_from("abcde"), st.sampled_from(["m", "n", "x"]),
                          st.sampled_from(["()V", "(I)V", "I"])), max_size=40),
       st.sampled_from(["", ":"]), st.integers(1, 7))
def test_declared_of_columns_a_chunk_at_a_time_equals_of_the_joined_column(rows, sep, chunk):
    import pyarrow.compute as pc

    owner, name, desc = (pa.array([r[i] for r in rows], pa.string()) for i in range(3))
    whole = Declared.of_parts(owner, pc.binary_join_element_wise(name, desc, sep))
    chunked = Declared.of_columns(owner, name, desc, sep, chunk=chunk)
    assert chunked.owners == whole.owners and chunked.index == whole.index
    assert chunked.nds.to_pylist() == whole.nds.to_pylist() and chunked.codes.to_pylist() == whole.codes.to_pylist()


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(worlds(field=False), st.data())
def test_resolved_edges_of_a_batch_in_chunks_are_each_sites_resolution(world, data):
    """resolve_edges over a batch of sites whose columns are in several chunks (artifacts concatenated): each site
    gets its key's resolution and every key declared nowhere is an external once."""
    hierarchy, declared_ids, keys, _split = world
    text = pa.string()
    declared = Declared.of(pa.array(declared_ids, text))
    sites = data.draw(st.lists(st.sampled_from(keys), min_size=1, max_size=40))
    cuts = sorted(data.draw(st.lists(st.integers(0, len(sites)), max_size=4)))
    bounds = [0, *cuts, len(sites)]
    chunks = [sites[a:b] for a, b in zip(bounds, bounds[1:])]
    refs = pa.table({
        "from": pa.chunked_array([[f"caller{i}" for i in range(a, b)] for a, b in zip(bounds, bounds[1:])], text),
        "to": pa.chunked_array(chunks, text),
        "line": pa.chunked_array([list(range(a, b)) for a, b in zip(bounds, bounds[1:])], pa.int32()),
        "kind": pa.chunked_array([[0] * len(c) for c in chunks], pa.int32()),
    })
    externals: list[pa.Array] = []
    edges = resolve_edges(refs, declared, hierarchy.method_lookup, {}, pa.array(["invoke"], text), externals)
    targets, vias, external = resolve_targets(pa.array(keys, text), declared, hierarchy.method_lookup, {})
    by_key = dict(zip(keys, zip(targets.to_pylist(), vias.to_pylist())))
    assert edges["to"].to_pylist() == [by_key[k][0] for k in sites]
    assert edges["via"].to_pylist() == [by_key[k][1] for k in sites]
    assert edges["from"].to_pylist() == [f"caller{i}" for i in range(len(sites))]
    assert edges["line"].to_pylist() == list(range(len(sites)))
    assert edges["kind"].to_pylist() == ["invoke"] * len(sites)
    missing = {k for k, x in zip(keys, external.to_pylist()) if x and k in sites}
    got = [k for part in externals for k in part.to_pylist()]
    assert sorted(got) == sorted(missing)
