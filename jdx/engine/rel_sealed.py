"""Sealed types in the relationship answers (JVMS §4.7.31 PermittedSubclasses): the subclasses a sealed type
permits that the workspace has no class file of (SEALED_SUBTYPE_MISSING on `hierarchy --down` and `implementors`)."""

from __future__ import annotations

from jdx.engine.refs import format_type
from jdx.errors import Warning_
from jdx.graph_schema import queries_graph as q
from jdx.graph_schema.store import GraphStore


def _missing_permitted(store: GraphStore, ids: list[str]) -> list[tuple[str, str]]:
    """(sealed type, permitted subclass) for each subclass a sealed type among `ids` names (PermittedSubclasses,
    JVMS §4.7.31) that the workspace has no class file of: a subtype it must have, missing from the hierarchy."""
    found = {r["id"]: list(r["permits"]) for r in store.rows_cached(q.SEALED_TYPES, {})}
    sealed = [(i, found[i]) for i in ids if i in found]  # in the order of `ids` (the root first)
    permits = sorted({p for _, ps in sealed for p in ps})
    if not permits:
        return []
    present = {r["id"] for r in store.rows(q.TYPES_LOADED_BY_ID, {"ids": permits})}
    return [(t, p) for t, ps in sealed for p in ps if p not in present]


def sealed_warnings(store: GraphStore, root_id: str, tree, what: str) -> list[Warning_]:
    """SEALED_SUBTYPE_MISSING for the root and every sealed type of its down `tree` (a graph of type ids) that
    permits a subclass the workspace lacks; `what` says what that leaves incomplete."""
    ids = [root_id] + sorted(n for n in tree if n != root_id)
    return [Warning_("SEALED_SUBTYPE_MISSING", f"{format_type(t)} permits {format_type(p)}, which the workspace "
                                               f"lacks: {what}") for t, p in _missing_permitted(store, ids)]
