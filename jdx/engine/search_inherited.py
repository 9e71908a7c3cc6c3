"""`search 'Type#member'` finds the members a type declares (docs/search.md). When the type declares none that
match but inherits some (`ArrayList#stream`: `Collection#stream()`), the miss names those, with the `members`
line that lists them."""

from __future__ import annotations

import re
import shlex

from jdx.engine.search_match import Pattern, name_words
from jdx.errors import AmbiguousError, JdxError
from jdx.graph_schema.store import GraphStore

MAX_NAMED = 5
MAX_OWNERS = 3


def _matches(p: Pattern, name: str) -> bool:
    if p.mode == "glob":
        return re.fullmatch(p.anchored, name) is not None
    return re.fullmatch(p.anywhere, name_words(name)) is not None


def _listing(store: GraphStore, ref: str) -> tuple[str, list[dict]]:
    """(type, its members, inherited ones included): those `members` collapses (java.lang.Object's) too."""
    from jdx.engine.members import MemberOptions, list_members

    listed = list_members(store, ref, MemberOptions(inherited=True, kind="all"))
    members = list(listed["members"])
    for collapsed in sorted(listed.get("collapsed") or {}):
        members += list_members(store, listed["type"], MemberOptions(inherited=True, from_type=collapsed))["members"]
    return listed["type"], members


def _owners(store: GraphStore, qualifier: str) -> list[tuple[str, list[dict]]]:
    """_listing of each type the qualifier names: one, or the first few candidates of an ambiguous simple name
    (`ArrayList`), public first as the candidates rank them; none for a qualifier that names no type (a camel-hump
    qualifier)."""
    try:
        return [_listing(store, qualifier)]
    except AmbiguousError as e:
        refs = [c["ref"] for c in e.candidates[:MAX_OWNERS]]
    except JdxError:
        return []
    out = []
    for ref in refs:
        try:
            out.append(_listing(store, ref))
        except JdxError:
            continue
    return out


def inherited_matches(store: GraphStore, p: Pattern, kinds: set[str]) -> tuple[list[dict], str | None]:
    """(candidates, hint) for a member pattern whose qualifier names a type: the public and protected members it
    inherits whose names match, nearest supertype first (as `members` lists them); ([], None) when the qualifier
    names no type or nothing inherited matches."""
    from jdx.engine.resolve import declaring_artifacts

    if not p.member or p.qualifier is None or p.mode not in ("hump", "glob"):
        return [], None
    found: list[dict] = []
    for owner, members in _owners(store, p.qualifier):  # the first type (public first) that inherits a match
        found = [m for m in members if m["declaring"] != owner and m["kind"] in kinds and _matches(p, m["name"])]
        if found:
            break
    if not found:
        return [], None
    shown = found[:MAX_NAMED]
    artifacts = declaring_artifacts(store, [m["declaring"].replace(".", "/") for m in shown])
    candidates = [{"ref": m["ref"], "kind": m["kind"], "artifact": a} for m, a in zip(shown, artifacts)]
    names = sorted({re.escape(m["name"]) for m in found})
    grep = f"^{names[0]}$" if len(names) == 1 else "^(" + "|".join(names) + ")$"
    declaring = {m["declaring"] for m in found}
    # one declaring type (java.lang.Object's members, which `members` collapses): --from shows exactly those
    narrow = f" --from {shlex.quote(declaring.pop())}" if len(declaring) == 1 else ""
    hint = (f"{owner} declares no member matching {p.name!r} but inherits {len(found)} "
            f"(search finds declarations): jdx members {shlex.quote(owner)}{narrow} --grep {shlex.quote(grep)}")
    return candidates, hint
