"""`resolution.overrides` is columnar (integer-coded signatures, ancestors expanded in chunks); these tests hold it
to the direct per-owner definition of JLS §8.4.8.1 it replaced, on random hierarchies and on the corner cases
(package-private across packages, erasure twins, bridges, statics, constructors, shadowed owners, chunk
boundaries, the `only` owners of an update). The reflection differential (tests/engine/test_overrides_reflection.py)
holds both to the JVM."""

from __future__ import annotations

from collections import defaultdict

import pyarrow as pa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jdx.loaders.resolution import Hierarchy, overrides

ACC_PUBLIC, ACC_PRIVATE, ACC_PROTECTED, ACC_STATIC, ACC_BRIDGE, ACC_SYNTHETIC = 1, 2, 4, 8, 0x40, 0x1000


def _package(t: str) -> str:
    return t.rsplit("/", 1)[0] if "/" in t else ""


def reference(methods: pa.Table, winners: set[str], hierarchy: Hierarchy, only: set[str] | None = None) -> pa.Table:
    """The definition, owner by owner: every overridable method of a winning type against each ancestor's, nearest
    ancestor first, signatures in order within one ancestor; `direct` marks the first match of each method."""
    by_owner: dict[str, dict[str, tuple[str, int]]] = defaultdict(dict)
    for row in methods.to_pylist():
        if "kind" in row and row["kind"] != 0:
            continue
        name, desc, acc = row["name"], row["descriptor"], row["access"]
        if acc & (ACC_PRIVATE | ACC_STATIC | ACC_BRIDGE | ACC_SYNTHETIC) or name.startswith("<"):
            continue
        key = name + desc[: desc.index(")") + 1]
        own = by_owner[row["owner_id"]]
        if key not in own or name + desc < own[key][0]:
            own[key] = (name + desc, acc)
    src, dst, direct = [], [], []
    for t in sorted(by_owner):
        if t not in winners or (only is not None and t not in only):
            continue
        own = by_owner[t]
        matched: set[str] = set()
        for a in hierarchy.ancestors(t):
            theirs = by_owner.get(a, {})
            for key in sorted(own.keys() & theirs.keys()):
                their_nd, their_acc = theirs[key]
                if not their_acc & 0x0007 and _package(a) != _package(t):
                    continue
                src.append(f"{t}#{own[key][0]}")
                dst.append(f"{a}#{their_nd}")
                direct.append(key not in matched)
                matched.add(key)
    return pa.table({"from": pa.array(src, pa.string()), "to": pa.array(dst, pa.string()),
                     "direct": pa.array(direct, pa.bool_())})


def _methods(rows: list[tuple[str, str, str, int]], with_kind: bool = False) -> pa.Table:
    text = pa.string()
    cols = {"owner_id": pa.array([r[0] for r in rows], text), "name": pa.array([r[1] for r in rows], text),
            "descriptor": pa.array([r[2] for r in rows], text), "access": pa.array([r[3] for r in rows], pa.int32())}
    if with_kind:
        cols["kind"] = pa.array([0] * len(rows), pa.int8())
    cols["id"] = pa.array([f"{r[0]}#{r[1]}{r[2]}" for r in rows], text)
    return pa.table(cols)


NAMES = ["a/A", "a/B", "a/C", "b/D", "b/E", "F", "a/G", "b/H"]
DESCS = ["()V", "()Ljava/lang/Object;", "()Ljava/lang/String;", "(I)V", "(Ljava/lang/String;)V", "(I)I", "(II)V"]
ACCESS = [ACC_PUBLIC, ACC_PROTECTED, 0, ACC_PRIVATE, ACC_PUBLIC | ACC_STATIC, ACC_PUBLIC | ACC_BRIDGE | ACC_SYNTHETIC,
          ACC_PUBLIC | ACC_SYNTHETIC]


@st.composite
def worlds(draw):
    n = draw(st.integers(2, len(NAMES)))
    types = NAMES[:n]
    supers, interfaces = {}, defaultdict(list)
    for i, t in enumerate(types):
        if i and draw(st.booleans()):
            supers[t] = types[draw(st.integers(0, i - 1))]
        for j in draw(st.lists(st.integers(0, max(i - 1, 0)), max_size=2, unique=True)) if i else []:
            interfaces[t].append(types[j])
    owners = types + [types[0] + "~shadow"]  # a shadowed copy: its methods are never an overriding end
    rows = draw(st.lists(st.tuples(st.sampled_from(owners), st.sampled_from(["m", "n", "<init>", "equals"]),
                                   st.sampled_from(DESCS), st.sampled_from(ACCESS)), max_size=40))
    rows = list(dict.fromkeys(rows))
    winners = set(types) - set(draw(st.lists(st.sampled_from(types), max_size=1)))
    only = set(draw(st.lists(st.sampled_from(types), min_size=1, max_size=3))) if draw(st.booleans()) else None
    chunk = draw(st.sampled_from([1, 2, 3, 7, 1 << 18]))
    return rows, Hierarchy(supers, dict(interfaces)), winners, only, chunk


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(worlds(), st.booleans())
def test_columnar_overrides_equal_the_definition(world, with_kind):
    rows, hierarchy, winners, only, chunk = world
    methods = _methods(rows, with_kind)
    got = overrides(methods, winners, hierarchy, only, chunk=chunk)
    want = reference(methods, winners, hierarchy, only)
    assert got.to_pylist() == want.to_pylist()


def test_corner_cases_by_hand():
    hierarchy = Hierarchy({"b/Sub": "a/Base", "a/Base": "java/lang/Object"}, {"b/Sub": ["a/I"]})
    methods = _methods([
        ("java/lang/Object", "toString", "()Ljava/lang/String;", ACC_PUBLIC),
        ("java/lang/Object", "clone", "()Ljava/lang/Object;", ACC_PROTECTED),
        ("a/Base", "toString", "()Ljava/lang/String;", ACC_PUBLIC),
        ("a/Base", "hidden", "()V", 0),  # package-private in a/: not overridden from b/
        ("a/Base", "clone", "()La/Base;", ACC_PUBLIC),
        ("a/I", "run", "()V", ACC_PUBLIC),
        ("b/Sub", "toString", "()Ljava/lang/String;", ACC_PUBLIC),
        ("b/Sub", "hidden", "()V", ACC_PUBLIC),
        ("b/Sub", "clone", "()Lb/Sub;", ACC_PUBLIC),  # covariant return: still an override
        ("b/Sub", "clone", "()Ljava/lang/Object;", ACC_PUBLIC | ACC_BRIDGE | ACC_SYNTHETIC),  # folded away
        ("b/Sub", "run", "()V", ACC_PUBLIC),
        ("b/Sub", "<init>", "()V", ACC_PUBLIC),
        ("b/Sub", "util", "()V", ACC_PUBLIC | ACC_STATIC),
    ])
    got = overrides(methods, {"java/lang/Object", "a/Base", "a/I", "b/Sub"}, hierarchy, chunk=2).to_pylist()
    assert got == [
        {"from": "a/Base#clone()La/Base;", "to": "java/lang/Object#clone()Ljava/lang/Object;", "direct": True},
        {"from": "a/Base#toString()Ljava/lang/String;", "to": "java/lang/Object#toString()Ljava/lang/String;",
         "direct": True},
        {"from": "b/Sub#clone()Lb/Sub;", "to": "a/Base#clone()La/Base;", "direct": True},
        {"from": "b/Sub#toString()Ljava/lang/String;", "to": "a/Base#toString()Ljava/lang/String;", "direct": True},
        {"from": "b/Sub#clone()Lb/Sub;", "to": "java/lang/Object#clone()Ljava/lang/Object;", "direct": False},
        {"from": "b/Sub#toString()Ljava/lang/String;", "to": "java/lang/Object#toString()Ljava/lang/String;",
         "direct": False},
        {"from": "b/Sub#run()V", "to": "a/I#run()V", "direct": True},
    ]
    assert got == reference(methods, {"java/lang/Object", "a/Base", "a/I", "b/Sub"}, hierarchy).to_pylist()


def test_no_overridable_methods():
    assert overrides(_methods([("a/A", "<init>", "()V", ACC_PUBLIC)]), {"a/A"}, Hierarchy({}, {})) \
        .num_rows == 0
