"""Kotlin's opt-in requirements: a declaration annotated with a marker that is itself `@RequiresOptIn` (kotlinx's
`@ExperimentalCoroutinesApi`, `@DelicateCoroutinesApi`) warns or fails to compile in Kotlin code that does not opt in
(`@OptIn(Marker::class)`). `members` and `outline` say it beside the declaration, as `signature` lists the annotation:
a function's is on its method, a property's on its synthetic `$annotations` method (kotlinc's; an interface
property's in its DefaultImpls). Java callers need no opt-in, so the JVM view says nothing of it."""

from __future__ import annotations

import re

from jdx.engine.kotlin_signature import annotations_of, declaration_links, member_rows
from jdx.engine.kotlin_view import CALLED_ROLES

# the annotations that make an annotation class an opt-in marker: Kotlin 1.7+'s and Kotlin 1.3's older one
_REQUIRES = ("@kotlin.RequiresOptIn", "@kotlin.Experimental")
_LEVEL = re.compile(r"level=kotlin\.(?:RequiresOptIn|Experimental)[.$]Level\.(\w+)")
_ROLES = (*CALLED_ROLES, "annotations")


def opt_in_markers(store, decls: list[dict]) -> dict[str, list[str]]:
    """Declaration id -> its markers naming each opt-in it needs: `opt-in: ExperimentalCoroutinesApi` (a warning
    without it, the marker's level WARNING), `opt-in required: X` (an error, level ERROR, the default); none for
    the declarations that need none. One query per class declaring their JVM members, one for the annotation
    classes."""
    held = {d["id"]: [t for r, t in declaration_links(d) if r in _ROLES] for d in decls}
    if not any(held.values()):
        return {}
    rows = member_rows(store, sorted({t for targets in held.values() for t in targets}))
    named = {i: sorted({_annotation_type(a) for a in annotations_of(rows, targets)}) for i, targets in held.items()}
    types = sorted({t for names in named.values() for t in names})
    if not types:
        return {}
    from jdx.graph_schema.queries_samples import TYPE_ANNOTATIONS

    levels = {}
    for row in store.rows(TYPE_ANNOTATIONS, {"ids": types}):
        marks = [a for a in row["annotations"] or () if a.split("(", 1)[0] in _REQUIRES]
        if marks:
            level = _LEVEL.search(marks[0])
            levels[row["id"]] = level.group(1) if level else "ERROR"  # RequiresOptIn's default level
    out = {}
    for i, names in named.items():
        said = [_marker(t, levels[t]) for t in names if t in levels]
        if said:
            out[i] = said
    return out


def _annotation_type(text: str) -> str:
    """`@kotlinx.coroutines.ExperimentalCoroutinesApi(...)` -> its Type id,
    `kotlinx/coroutines/ExperimentalCoroutinesApi`."""
    return text.lstrip("@").split("(", 1)[0].replace(".", "/")


def _marker(type_id: str, level: str) -> str:
    simple = type_id.rsplit("/", 1)[-1].replace("$", ".")
    return f"opt-in required: {simple}" if level == "ERROR" else f"opt-in: {simple}"
