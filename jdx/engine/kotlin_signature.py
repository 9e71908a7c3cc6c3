"""`signature`'s Kotlin view of what the JVM view leaves out as synthetic: a reified inline function's method
(kotlinc 2 makes it synthetic, yet Kotlin code calls it), as `outline` and `members` list it."""

from __future__ import annotations

import dataclasses

from jdx.engine.kotlin_view import CALLED_ROLES, jvm_access, member_kotlin, reified_inline


_REIFIED = "Kotlin-only: reified inline"


def with_reified_inline(store, text: str, found):
    """`found` (a member_resolve.Lookup of `text`, synthetic members left out) with the members it left out that
    compile from a reified inline function: kotlinc 2 makes its method synthetic, yet it is a declaration Kotlin code
    calls (`Iterable<*>.filterIsInstance()`), as `outline` and `members` list it. Any other synthetic member stays
    out (a `$default`, a `@JvmSynthetic` function, one a deprecation hid); a top-level name's note counting the
    Kotlin-only declarations left out counts what is still left out."""
    from jdx.engine.member_resolve import lookup

    def key(e: dict) -> tuple:
        return e["declaring"], e["row"]["name"], e["row"]["descriptor"]

    have = {key(e) for e in found.members}
    every = lookup(store, text, with_hidden=True)
    extra = {f"{e['declaring']}#{e['row']['name']}{e['row']['descriptor']}": e for e in every.members
             if key(e) not in have and not e["is_field"]}
    decls = {i: rows[0] for i, rows in member_kotlin(store, list(extra)).items()
             if rows and rows[0]["role"] in CALLED_ROLES and reified_inline(rows[0])}
    if not decls:
        return found
    only = jvm_access(store, list({d["id"]: d for d in decls.values()}.values()))[1]
    added = {key(extra[i]) for i, d in decls.items() if only.get(d["id"]) == _REIFIED}
    if not added:
        return found
    members = [e for e in every.members if key(e) in have or key(e) in added]
    order = {owner: i for i, owner in enumerate(dict.fromkeys(e["declaring"] for e in members))}
    members.sort(key=lambda e: order[e["declaring"]])  # one `inherited from` group a declaring type
    return dataclasses.replace(found, members=members, notes=_left_out_notes(store, text, found, members))


def _left_out_notes(store, text: str, found, members: list[dict]) -> list[str]:
    """`found`'s notes, the one counting a top-level name's Kotlin-only declarations left out (member_resolve_kotlin)
    counted again over `members`."""
    if not found.notes:
        return found.notes
    from jdx.engine.member_resolve import _member_reading
    from jdx.engine.member_resolve_kotlin import _left_out_note, kotlin_top_level

    ref = _member_reading(text)[0]
    top = kotlin_top_level(store, ref, text)
    if top is None:
        return found.notes
    old = _left_out_note(store, ref, top.decls, found.members)
    new = _left_out_note(store, ref, top.decls, members)
    return [n for n in (new if n == old else n for n in found.notes) if n]
