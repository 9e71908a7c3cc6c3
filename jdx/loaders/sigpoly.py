"""Signature polymorphic methods (JVMS §2.9.3): `MethodHandle#invokeExact`, `VarHandle#compareAndSet`, … A call
names the descriptor of its arguments (`MethodHandle#invokeExact([B)I`), which no class declares; the JVM links it to
the one method of that name (JVMS §5.4.3.3), so the graph's call edge goes there, not to an external node per
descriptor (`resolution.resolve_targets` asks `polymorphic_links` after linking the rest)."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc

from jdx.loaders.resolution import STRIDE, Declared, const_true, split_ids

# where a signature polymorphic method is declared
SIGNATURE_POLYMORPHIC_OWNERS = ("java/lang/invoke/MethodHandle", "java/lang/invoke/VarHandle")


def polymorphic(declared: Declared) -> dict[str, dict[str, str]]:
    """The signature polymorphic methods declared: owner -> name -> its name with descriptor. One of
    SIGNATURE_POLYMORPHIC_OWNERS, a single Object[] parameter, and the only method of its name there (method
    lookup takes it for any descriptor only then: `invokeWithArguments` has a List overload). ACC_VARARGS and
    ACC_NATIVE are not among the codes; every method of the JDK's with that shape has both. Kept on `declared`."""
    if declared.polymorphic is None:
        declared.polymorphic = {}
        for owner in SIGNATURE_POLYMORPHIC_OWNERS:
            code = declared.code(owner)
            if code is None:
                continue
            mine = declared.codes.filter(pc.equal(pc.divide(declared.codes, STRIDE), code))
            by_name: dict[str, set[str]] = {}
            for nd in pc.take(declared.nds, pc.subtract(mine, code * STRIDE)).to_pylist():
                by_name.setdefault(nd.split("(", 1)[0], set()).add(nd)
            declared.polymorphic[owner] = {name: nd for name, (nd, *more) in by_name.items()
                                            if not more and nd.startswith(name + "([Ljava/lang/Object;)")}
    return declared.polymorphic


def polymorphic_links(keys: pa.Array, targets: pa.Array, vias: pa.Array, external: pa.Array, declared: Declared,
                      lookup) -> tuple[pa.Array, pa.Array, pa.Array]:
    """`resolve_targets`' answer with the calls of signature polymorphic methods linked to the method of that name
    the first class up the named owner's superclass chain declares so, `via` the owner when that is a subclass."""
    poly = polymorphic(declared)
    names = sorted({n for by_name in poly.values() for n in by_name})
    if not names or not pc.any(external).as_py():
        return targets, vias, external
    owner, nd = split_ids(keys)
    maybe = pc.and_(external, pc.is_in(pc.list_element(pc.split_pattern(nd, "(", max_splits=1), 0),
                                       value_set=pa.array(names, pa.string())))
    found: dict[int, tuple[str, str | None]] = {}
    for i, o, n in zip(pc.indices_nonzero(maybe).to_pylist(), owner.filter(maybe).to_pylist(),
                       nd.filter(maybe).to_pylist()):
        name = n.split("(", 1)[0]
        holder = next((t for t in lookup(o) if name in poly.get(t, {})), None)
        if holder is not None:
            found[i] = (f"{holder}#{poly[holder][name]}", None if holder == o else o)
    if not found:
        return targets, vias, external
    at = sorted(found)
    mask = pc.is_in(pc.indices_nonzero(const_true(len(keys))), value_set=pa.array(at, pa.uint64()))
    return (pc.replace_with_mask(targets, mask, pa.array([found[i][0] for i in at], pa.string())),
            pc.replace_with_mask(vias, mask, pa.array([found[i][1] for i in at], pa.string())),
            pc.and_(external, pc.invert(mask)))
