"""A removed type the new version's own API still names (commons-beanutils 1.11's methods taking
`org.apache.commons.collections.FastHashMap`, a class 1.8.3 held and 1.11 leaves to commons-collections): the
TYPE_REMOVED stays, as compiled callers of the type fail to link unless another artifact supplies it, and its detail
says where the new API still uses it, so the type is expected from a dependency now."""

from __future__ import annotations

from dataclasses import replace

from jdx.engine.diff.findings import Finding
from jdx.engine.diff.forms import member_ref, type_ref
from jdx.engine.diff.visibility import ApiView

MAX_SHOWN = 2  # the places a detail names


def still_referenced(findings: list[Finding], new: ApiView) -> list[Finding]:
    """`findings` with each TYPE_REMOVED whose type the new side's API still names (a supertype of an API type, or
    the descriptor or Signature of an API member) saying so: how many places, the first one."""
    removed = {f.id for f in findings if f.rule == "TYPE_REMOVED"}
    if not removed:
        return findings
    places = _places(removed, new)
    out = []
    for f in findings:
        where = places.get(f.id) if f.rule == "TYPE_REMOVED" else None
        if not where:
            out.append(f)
            continue
        shown = ", ".join(where[:MAX_SHOWN]) + (" …" if len(where) > MAX_SHOWN else "")
        note = (f"still referenced by the new version's API ({len(where)} place{'' if len(where) == 1 else 's'}, "
                f"e.g. {shown}): it is expected from another artifact now")
        out.append(replace(f, detail=f"{f.detail}; {note}" if f.detail else note))
    return out


def _places(removed: set[str], view: ApiView) -> dict[str, list[str]]:
    """Removed type -> the places of the new side's API naming it, in name order: `p.A` (a supertype or its class
    Signature), `p.A#m(…)` (a member's descriptor or Signature)."""
    needles = {name: (f"L{name};", f"L{name}<") for name in removed}
    out: dict[str, list[str]] = {}
    for name in sorted(view.surface.types):
        if name in removed or not view.type_is_api(name):
            continue
        t = view.surface.types[name]
        for gone, marks in needles.items():
            if gone in t.supertypes or any(m in (t.signature or "") for m in marks):
                out.setdefault(gone, []).append(type_ref(name))
        hits = [g for g in removed if not t.blob or g.encode() in t.blob]  # the packed members hold every name
        if not hits:
            continue
        for m in sorted(view.members(name).values(), key=lambda m: m.key):
            text = f"{m.descriptor} {m.signature or ''}"
            for gone in hits:
                if any(mark in text for mark in needles[gone]):
                    out.setdefault(gone, []).append(member_ref(m, name))
    return out
