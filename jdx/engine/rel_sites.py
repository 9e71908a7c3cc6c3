"""The rows `usages` reports (`usage_site`), and its `signature` kind: declarations whose types name a type; the
hint of a large cut of `usages`, `callers` and `calls` (`narrow_hint`); which of their entries are code of shadowed
class copies (`in_shadowed_copy`, `shadowed_sites_note`).

A signature site is a method's parameter or return type, a field's type, or a type argument or bound in a generic
signature, which the erased descriptor does not show (`f(T t, List<T> ts)` names `T` twice).
"""

from __future__ import annotations

from jdx.engine.refs import format_member, format_type
from jdx.engine.relations import Target
from jdx.graph_schema import queries_graph as q
from jdx.graph_schema.store import GraphStore


NARROW_ABOVE = 500  # past this many entries `--limit <total>` alone can mean megabytes: the hint names the filters too


def narrow_hint(hint: str, total: int, flags: list[str]) -> str:
    """`hint`, and when `total` passes NARROW_ABOVE the filters that would narrow the answer (`flags`, those that
    can: `--kind` when several kinds were found), as search's hint does: `--limit 36129, or narrow with --kind, --in
    or --exclude`."""
    if total <= NARROW_ABOVE or not flags:
        return hint
    return f"{hint}, or narrow with " + (f"{', '.join(flags[:-1])} or {flags[-1]}" if len(flags) > 1 else flags[0])


def in_shadowed_copy(node_id: str) -> bool:
    """Whether a type, method or field id is of a shadowed class copy (`Owner@artifact`: an earlier artifact provides
    Owner, so the JVM never loads this copy and its code never runs on this classpath)."""
    return "@" in node_id.split("#", 1)[0]


def shadowed_sites_note(n: int, total: int, what: str = "sites") -> list[str]:
    """How many of an answer's entries are code of shadowed class copies: dead on this classpath, listed last."""
    if not n:
        return []
    return [f"{n} of the {total} {what} {'are' if n > 1 else 'is'} in shadowed class copies (an earlier artifact "
            "provides the class, so the JVM never loads that copy): dead code on this classpath, listed after the "
            "live ones and marked shadowed"]


def usage_site(row: dict, kind: str, target: Target, detail: str, **extra) -> dict:
    return {"row": row, "kind": kind, "target": target.ref, "target_id": target.id, "detail": detail,
            "line": row.get("line", -1) if row.get("line") is not None else -1, **extra}


def type_row_as_caller(r: dict) -> dict:
    """A subtype or annotated element as the `caller` of a site: it has no method columns."""
    return {"c_id": r["id"], "c_artifact": r.get("artifact"), "line": -1}


def element_ref(label: str, node_id: str) -> str:
    """Canonical ref of an annotated Type, Method or Field id."""
    if label == "Type":
        return format_type(node_id)
    owner, _, rest = node_id.partition("#")
    if label == "Field":
        name, _, desc = rest.partition(":")
        return format_member(owner, name, desc, is_field=True)
    name = rest[: rest.index("(")]
    return format_member(owner, name, rest[len(name):])


def signature_sites(store: GraphStore, target: Target) -> list[dict]:
    """Declarations whose types name `target`: a method's parameters or return type, a field's type, a type
    argument or bound in a generic signature (a class's own: `implements Comparable<T>`, `<E extends T>`). The detail
    lists every way one declaration names it (`parameter, type argument`: `f(T t, List<T> ts)`)."""
    plain = f"L{target.id};"
    inner = target.id.rsplit("/", 1)[-1].rpartition("$")[2] if "$" in target.id.rsplit("/", 1)[-1] else ""
    # `$i` finds `Outer<..>.Inner` (no `Outer$Inner` written); every row it alone brings is parsed to confirm
    params = {"d": plain, "g": f"L{target.id}<", "i": f">.{inner}" if inner else plain}
    sites = []
    for r in store.rows(q.METHODS_NAMING, params):
        head, _, ret = (r["descriptor"] or "").partition(")")
        where = [w for w, hit in (("parameter", plain in head), ("return", plain in ret)) if hit]
        row = {k: r[k] for k in ("c_id", "c_access", "c_artifact")}
        generic = _generic_names(r["signature"], target.id, method=True)
        if where or generic or _named_plainly(r["signature"], target.id):
            sites.append(usage_site(row, "signature", target, ", ".join(where + generic) or "type argument"))
    for r in store.rows(q.FIELDS_NAMING, params):
        row = type_row_as_caller(r)
        row["ref"] = element_ref("Field", r["id"])
        where = (["field"] if plain in (r["descriptor"] or "") else []) + _generic_names(r["signature"], target.id)
        if where or _named_plainly(r["signature"], target.id):
            sites.append(usage_site(row, "signature", target, ", ".join(where) or "type argument"))
    for r in store.rows(q.TYPES_NAMING, params):
        detail = _class_signature_names(r["signature"], target.id)
        if detail:
            row = type_row_as_caller(r)
            row["ref"] = format_type(r["id"])
            sites.append(usage_site(row, "signature", target, detail))
    return sites


def _named_plainly(signature: str | None, type_id: str) -> bool:
    """The generic signature writes `type_id` by its own name (`Lpkg/T;`, `Lpkg/T<`): a row the `>.Inner` pattern
    alone matched is some other outer's inner class of that name."""
    return bool(signature) and (f"L{type_id};" in signature or f"L{type_id}<" in signature)


def _names(roots, type_id: str) -> bool:
    from jdx.engine.generic_signatures import ClassTypeSig, signature_nodes

    return any(isinstance(n, ClassTypeSig) and n.binary_name == type_id for n in signature_nodes(*roots))


def _arguments(sig) -> list:
    """The type arguments of a type signature (of an array's component), the type itself left out."""
    from jdx.engine.generic_signatures import ArrayTypeSig, ClassTypeSig

    while isinstance(sig, ArrayTypeSig):
        sig = sig.component
    if not isinstance(sig, ClassTypeSig):
        return []
    return [*sig.args, *(a for i in sig.inner for a in i.args)]


def _generic_names(text: str | None, type_id: str, method: bool = False) -> list[str]:
    """`type argument` when a generic signature names `type_id` inside a type's arguments (`List<T>`), `bound` when a
    method's type parameter is bounded by it (`<E extends T>`): what the erased descriptor does not show."""
    from jdx.engine.generic_signatures import parse_field_signature, parse_method_signature

    if not text:
        return []
    try:
        sig = parse_method_signature(text) if method else parse_field_signature(text)
    except ValueError:
        return []
    types = [*sig.params, sig.return_type, *sig.throws] if method else [sig]
    out = ["type argument"] if _names([a for t in types for a in _arguments(t)], type_id) else []
    if method and _names(sig.type_params, type_id):
        out.append("bound")
    return out


def _class_signature_names(text: str, type_id: str) -> str | None:
    """How a class's generic signature names `type_id` other than as a supertype (which `impl` lists): `type
    argument` of a supertype (`Comparable<T>`), `bound` of a type parameter (`<E extends T>`), or None."""
    from jdx.engine.generic_signatures import parse_class_signature

    try:
        sig = parse_class_signature(text)
    except ValueError:
        return None
    if _names([a for st in (sig.superclass, *sig.interfaces) for a in _arguments(st)], type_id):
        return "type argument"
    return "bound" if _names(sig.type_params, type_id) else None
