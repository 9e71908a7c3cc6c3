"""The did-you-mean of a member reference whose type is misspelled (`Nope#x`, member_resolve.lookup): the near
types that have the member, the workspace's own first."""

from __future__ import annotations

from dataclasses import replace

from jdx.engine.member_resolve import MAX_SUGGESTIONS, _matches, _named, _suggest, collect
from jdx.engine.refs import SymbolRef, parse_ref
from jdx.engine.resolve import resolve_type_ref
from jdx.errors import AmbiguousError, NotFoundError, UsageError
from jdx.graph_schema import queries
from jdx.graph_schema.store import GraphStore


def no_owner(store: GraphStore, ref: SymbolRef, text: str, exc: NotFoundError) -> NotFoundError:
    """`Nope#x` where no type is named `Nope`: the near types that have a member `x` (the ref as written
    on each, or its overloads nearest the written parameters), so every suggestion resolves; when none has
    one, the near types themselves: gluing `#x` onto a type without it names nothing."""
    from jdx.engine.external_symbols import external_miss, external_type

    external = external_type(store, ref)
    if external is not None:  # the type is referenced, not declared: no near names, where its sites are
        return external_miss(text, external["fqn"], text)
    near = _workspace_first(store, ref, exc.candidates)
    out: list[dict] = []
    for c, oref, row in _owners_with_name(store, ref, near):
        found = collect(store, row)
        member = "<init>" if ref.member == ref.simple_name else ref.member  # `Nope#Nope()`: a constructor
        fixed = replace(ref, type_name=oref.type_name, coord=oref.coord, member=member)
        named = _named(found.visible, member)
        if any(_matches(fixed, e) for e in named + _named(found.hidden, member)):
            got = [{"ref": str(fixed), "kind": (named + _named(found.hidden, member))[0]["kind"]}]
        elif named:
            got = _suggest(found, row, member, fixed)[0]
        else:
            continue
        out.extend({**g, "artifact": c.get("artifact", "")} for g in got)
        if len(out) >= MAX_SUGGESTIONS:
            break
    if ref.coord and exc.hint:  # the coordinate itself is missing: keep its message (the versions present)
        return NotFoundError(exc.message, candidates=out[:MAX_SUGGESTIONS],
                             hint=exc.hint if out or not exc.candidates else None)
    if out:
        return NotFoundError(f"not found: {text} (no type {ref.type_name})", candidates=out[:MAX_SUGGESTIONS])
    if not near:
        return NotFoundError(f"not found: {text} (no type {ref.type_name})")
    return NotFoundError(f"not found: {text} (no type {ref.type_name}, and none named like it has a member "
                         f"{ref.member})", candidates=near[:MAX_SUGGESTIONS])


def _workspace_first(store: GraphStore, ref: SymbolRef, near: list[dict]) -> list[dict]:
    """Near types in the written package (or below it) first, then the workspace's own jars and
    dependencies before the JDK; the search ranking within each."""
    from jdx.engine.search import artifact_table

    jdk = {a["name"] for a in artifact_table(store) if a["origin"] == "jdk"}
    pkg = ref.type_name.rpartition(".")[0] + "." if "." in ref.type_name else None
    return sorted(near, key=lambda c: (not (pkg and c["ref"].rpartition("/")[2].startswith(pkg)),
                                       c.get("artifact") in jdk))


def _owners_with_name(store: GraphStore, ref: SymbolRef, near: list[dict]):
    """(candidate, its parsed ref, its Type row) of the near types, in order, skipping those that neither
    declare nor inherit a member of the ref's name (one graph query, before any member walk)."""
    rows = []
    for c in near:
        try:
            oref = parse_ref(c["ref"])
            rows.append((c, oref, resolve_type_ref(store, oref, c["ref"])))
        except (NotFoundError, AmbiguousError, UsageError):
            continue
    member = ref.member
    if member not in ("<init>", ref.simple_name) and rows and not store.rows(queries.TYPES_DECLARING, {
            "ids": ["java/lang/Object"], "name": member}):
        ids = [r["id"] for _, _, r in rows]
        having = {r["id"] for q in (queries.TYPES_DECLARING, queries.TYPES_INHERITING)
                  for r in store.rows(q, {"ids": ids, "name": member})}
        rows = [t for t in rows if t[2]["id"] in having]
    return rows
