"""`outline --from X` (spec §7.1): the members a type inherits from its supertype X, as `members --from X` resolves
them, their parameters named as the outline's own rows are."""

from __future__ import annotations

from jdx.engine import descriptors as d
from jdx.engine.members import unresolved_warnings
from jdx.engine.refs import format_type
from jdx.engine.resolve import resolve_type
from jdx.errors import JdxError, UsageError, Warning_
from jdx.graph_schema.store import GraphStore


def inherited_from(store: GraphStore, result: dict, walk: list, opts, named=None) -> list[Warning_]:
    """`outline --from X`: the members the type inherits from its supertype X, as `members --from X` resolves them
    (overridden and hidden ones left out), in `result["inherited"]`; X not a supertype is a usage error naming them."""
    from jdx.engine.members import MemberOptions, list_members

    member_opts = MemberOptions(kind=opts.kind, static=opts.static, access=opts.access, from_type=opts.from_type,
                                grep=opts.grep, include_synthetic=opts.include_synthetic)
    own = d.fqn_to_internal(result["type"])
    supers = [format_type(row["id"]) for row, _ in walk if row["id"] != own]
    refused = UsageError(f"--from {opts.from_type}: not a supertype of {result['type']}; its supertypes: "
                         + (", ".join(supers) if supers else "none in the workspace"))
    try:
        same = resolve_type(store, opts.from_type)["id"] == own  # (`members --from` takes the type itself)
    except JdxError:
        same = False  # not found or ambiguous: list_members says so as `members --from` does
    if same:
        raise refused
    try:
        found = list_members(store, result["type"], member_opts)
    except UsageError as exc:
        if not str(exc).startswith(f"--from {opts.from_type}: not a supertype"):
            raise
        raise refused from exc
    result["from"] = found.get("from_overridden") or next((m["declaring"] for m in found["members"]), None) \
        or opts.from_type
    result["inherited_total"] = len(found["members"])
    result["inherited"] = [_with_param_names(store, m, named) for m in found["members"]]
    return unresolved_warnings(found["unresolved_supertypes"])


def _with_param_names(store: GraphStore, member: dict, named=None) -> dict:
    """An inherited member of `outline --from` as `members` lists it, its parameters named as its declaring class
    file names them (as the outline's own rows are), else as its sources do (`named`), `param_names_from` saying
    from where."""
    out = {k: v for k, v in member.items() if k != "descriptor"}
    if member["kind"] != "method" or not member.get("descriptor"):
        return out
    from jdx.engine.members import declared_members

    methods, _ = declared_members(store, [({"id": d.fqn_to_internal(member["declaring"])}, {})])
    row = next((r for rows in methods.values() for r in rows
                if r["name"] == member["name"] and r["descriptor"] == member["descriptor"]), None)
    text = member["text"]
    head = text.find(f" {member['name']}(")
    if row is None or head < 0:
        return out
    start = head + len(member["name"]) + 2
    end, depth = start, 1
    while end < len(text) and depth:
        depth += {"(": 1, ")": -1}.get(text[end], 0)
        end += 1
    params = _top_level_split(text[start:end - 1])
    if not params:
        return out
    from jdx.engine.cards import param_names

    names, source = param_names(row, len(params))
    if source == "none" and named is not None:
        declared = named.names(d.fqn_to_internal(member["declaring"]), row, len(params))
        names, source = (declared, "source") if declared is not None else (names, source)
    if source == "none":
        return out
    out["text"] = f"{text[:start]}{', '.join(f'{t} {n}' for t, n in zip(params, names))}{text[end - 1:]}"
    out["param_names_from"] = source
    return out


def _top_level_split(params: str) -> list[str]:
    """`Map<K, V>, int` -> [`Map<K, V>`, `int`]: the commas outside type arguments."""
    out, depth, part = [], 0, ""
    for ch in params:
        depth += {"<": 1, ">": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            out.append(part.strip())
            part = ""
        else:
            part += ch
    return out + [part.strip()] if part.strip() else out
