"""Type arguments against their parameters' bounds (JLS §4.5; javac's Check.firstIncompatibleTypeArg): subtyping,
containment and castability of written types through the workspace's hierarchy (`members 'java.util.EnumSet<X>'`)."""

from __future__ import annotations

from jdx.engine import descriptors as d
from jdx.errors import UsageError
from jdx.graph_schema import queries
from jdx.graph_schema.store import GraphStore


def class_type_params(row: dict) -> tuple[d.TypeParam, ...]:
    """A Type row's declared type parameters (from its generic signature); () when it has none or it is unreadable."""
    if not row.get("signature"):
        return ()
    try:
        return d.parse_class_signature(row["signature"]).type_params
    except ValueError:
        return ()


_ARRAY_SUPERS = frozenset({d.OBJECT, "java/lang/Cloneable", "java/io/Serializable"})


def check_bounds(store: GraphStore, name: str, params: tuple[d.TypeParam, ...], args: tuple[d.TypeArg, ...],
                 whole: str) -> None:
    """Each argument within its parameter's bounds, the arguments substituted into them (`E extends Enum<E>`); a
    wildcard `? extends U` only needs U castable to the bound, as javac checks it. UsageError on the first that is
    not."""
    env = {p.name: a for p, a in zip(params, args)}
    for p, a in zip(params, args):
        for bound in p.bounds:
            if not _within(store, a, _with_args(bound, env)):
                declared = d.render_type_params((p,), qualified=False)[1:-1]
                raise UsageError(f"{whole!r}: {d.render_type_arg(a, qualified=False)} is not within the bound of "
                                 f"{p.name} ({declared}) of {name}")


def _within(store: GraphStore, arg: d.TypeArg, bound: d.TypeSig) -> bool:
    if arg.wildcard == "*" or arg.type is None:
        return True
    if arg.wildcard == "+":
        return _castable(store, bound, arg.type)
    return _is_subtype(store, arg.type, bound)  # an exact type, or the lower bound of `? super L`


def _with_args(sig: d.TypeSig, env: dict[str, d.TypeArg]) -> d.TypeSig:
    """A bound or supertype with type arguments (wildcards among them) put for its class's type variables; a bare
    variable takes its argument's upper bound."""
    if isinstance(sig, d.TypeVar):
        a = env.get(sig.name)
        if a is None:
            return sig
        return a.type if a.wildcard in ("", "+") and a.type is not None else d.ClassTypeSig(d.OBJECT)
    if isinstance(sig, d.ArrayTypeSig):
        return d.ArrayTypeSig(_with_args(sig.component, env))
    if isinstance(sig, d.ClassTypeSig):
        return d.ClassTypeSig(sig.name, tuple(_arg_with_args(a, env) for a in sig.args),
                              tuple(d.InnerClassSig(i.name, tuple(_arg_with_args(a, env) for a in i.args))
                                    for i in sig.inner))
    return sig


def _arg_with_args(arg: d.TypeArg, env: dict[str, d.TypeArg]) -> d.TypeArg:
    if arg.type is None:
        return arg
    if isinstance(arg.type, d.TypeVar) and arg.type.name in env:
        given = env[arg.type.name]
        if not arg.wildcard or given.wildcard == "*":
            return given
        if not given.wildcard or given.wildcard == arg.wildcard:
            return d.TypeArg(arg.wildcard, given.type)
        return d.TypeArg("*", None)  # `? extends (? super L)`: nothing more is known
    return d.TypeArg(arg.wildcard, _with_args(arg.type, env))


def _last_args(sig: d.ClassTypeSig) -> tuple[d.TypeArg, ...]:
    return sig.inner[-1].args if sig.inner else sig.args


def _row(store: GraphStore, internal: str) -> dict | None:
    rows = store.rows_cached(queries.TYPE_BY_ID, {"id": internal})
    return {k[2:]: v for k, v in rows[0].items()} if rows and not rows[0]["t.external"] else None


def _as_super(store: GraphStore, sig: d.ClassTypeSig, target: str) -> d.ClassTypeSig | None:
    """`sig` seen as its supertype `target` through the workspace's hierarchy (`ArrayList<Integer>` as
    `java/util/List` is `List<Integer>`); without arguments when a raw type is on the way; None if not a supertype."""
    if sig.binary_name == target:
        return sig
    rows = {r["id"]: r for r in store.rows_cached(queries.SUPERTYPES_CLOSURE, {"id": sig.binary_name})}
    if target not in rows:
        return None
    rows[sig.binary_name] = _row(store, sig.binary_name)
    queue, seen = [sig], {sig.binary_name}
    while queue:
        cur = queue.pop(0)
        row = rows.get(cur.binary_name)
        if not row or row.get("external"):
            continue
        params = class_type_params(row)
        args = _last_args(cur)
        raw = bool(params) and len(args) != len(params)
        env = {p.name: a for p, a in zip(params, args)}
        try:
            parsed = d.parse_class_signature(row["signature"]) if row.get("signature") else None
        except ValueError:
            parsed = None
        supers = [parsed.superclass, *parsed.interfaces] if parsed else [
            d.ClassTypeSig(n) for n in (row.get("super"), *(row.get("interfaces") or [])) if n]
        for up in supers:
            up = d.ClassTypeSig(up.binary_name) if raw else _with_args(up, env)  # a raw type's supertypes are erased
            if up.binary_name == target:
                return up
            if up.binary_name not in seen:
                seen.add(up.binary_name)
                queue.append(up)
    return None


def _is_subtype(store: GraphStore, s: d.TypeSig, t: d.TypeSig) -> bool:
    """JLS §4.10 over written types (no free type variables: one is taken as fitting), through the graph."""
    if isinstance(s, d.TypeVar) or isinstance(t, d.TypeVar):
        return True
    if isinstance(s, d.BaseType) or isinstance(t, d.BaseType):
        return s == t
    if isinstance(t, d.ClassTypeSig) and t.binary_name == d.OBJECT:
        return True
    if isinstance(s, d.ArrayTypeSig):
        if isinstance(t, d.ArrayTypeSig):
            if isinstance(s.component, d.BaseType) or isinstance(t.component, d.BaseType):
                return s.component == t.component
            return _is_subtype(store, s.component, t.component)
        return t.binary_name in _ARRAY_SUPERS and not _last_args(t)
    if isinstance(t, d.ArrayTypeSig):
        return False
    sup = _as_super(store, s, t.binary_name)
    if sup is None:
        return False
    wanted, got = _last_args(t), _last_args(sup)
    if not wanted:
        return True
    return len(wanted) == len(got) and all(_contains(store, w, g) for w, g in zip(wanted, got))  # raw: no


def _contains(store: GraphStore, t: d.TypeArg, s: d.TypeArg) -> bool:
    """Type argument containment (JLS §4.5.1): does `t` contain `s`?"""
    if t.wildcard == "*" or t.type is None:
        return True
    if not t.wildcard:
        return not s.wildcard and s.type == t.type
    if t.wildcard == "+":
        upper = s.type if s.wildcard in ("", "+") and s.type is not None else d.ClassTypeSig(d.OBJECT)
        return _is_subtype(store, upper, t.type)
    return s.wildcard in ("", "-") and s.type is not None and _is_subtype(store, t.type, s.type)


def _castable(store: GraphStore, bound: d.TypeSig, u: d.TypeSig) -> bool:
    """javac's isCastable(bound, U) for `? extends U`, on erasures: related types are; unrelated ones are when one is
    an interface and the other is no final class (an unknown type is taken as castable)."""
    if isinstance(bound, d.TypeVar) or isinstance(u, d.TypeVar):
        return True
    if isinstance(bound, d.ArrayTypeSig) or isinstance(u, d.ArrayTypeSig):
        return _is_subtype(store, u, bound) or _is_subtype(store, d.erase_sig(bound), d.erase_sig(u))
    if not isinstance(bound, d.ClassTypeSig) or not isinstance(u, d.ClassTypeSig):
        return False
    b, v = d.ClassTypeSig(bound.binary_name), d.ClassTypeSig(u.binary_name)
    if _as_super(store, v, b.name) is not None or _as_super(store, b, v.name) is not None:
        return True
    rb, rv = _row(store, b.name), _row(store, v.name)
    if rb is None or rv is None:
        return True
    final = 0x10
    b_iface, v_iface = rb.get("kind") in ("interface", "annotation"), rv.get("kind") in ("interface", "annotation")
    if b_iface and v_iface:
        return True
    if b_iface:
        return not (rv.get("access") or 0) & final
    if v_iface:
        return not (rb.get("access") or 0) & final
    return False
