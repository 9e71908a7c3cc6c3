"""`samples` on binary-only code (spec §7.3, §11.1): the call site rendered from the decompiled text of its
enclosing class, labelled reconstructed.

A decompiled text does not keep the class file's line numbers: the enclosing method's declaration is matched
in the decompiled class (as `body` does), and the call (the member's name followed by `(`; `new Simple(` for a
constructor; the field's name) is searched inside it. The window also carries the decompiler's line map (Procyon
gives one) and the lines that spell the use, with which `samples` moves the focus to the line written from the
site's class-file line (or the use the decompiler wrote just after it, on lines it maps to no other line).
Only the few samples shown are decompiled, each class once (the decompiler caches its text)."""

from __future__ import annotations

import re

from jdx.engine import source_match as sm
from jdx.engine.samples import call_pattern
from jdx.engine.src_locate import SourceContext
from jdx.errors import JdxError
from jdx.graph_schema import queries_samples as q


def use_pattern(target_id: str, is_field: bool) -> re.Pattern:
    """How a use of the target is written: `name(`, `new Simple(` / `new Simple<>(` / `this(` / `super(` for a
    constructor (`samples.call_pattern`), `name` for a field."""
    if is_field:
        name = target_id.partition("#")[2].split(":", 1)[0]
        return re.compile(r"(?<![\w$])" + re.escape(name) + r"(?![\w$])")
    return call_pattern(target_id)


def reconstructed_window(ctx: SourceContext, caller_id: str, target_id: str, is_field: bool,
                         context: int, line: int | None = None) -> dict | None:
    """Lines around the use of `target_id` in the decompiled text of method `caller_id`, or None (no recognisable
    declaration or use); `{"unavailable": {code, message}}` when the class could not be decompiled. Same shape as `src_source.source_window`, plus
    `reconstructed: True`, the engine, `class_lines`: for each line of `text` the class-file lines the
    decompiler wrote on it (None when it gives no map), and `uses`: the lines that spell a use of the target, with
    which `samples` places the site exactly."""
    from jdx.engine.src_decompiled import decompiled_file

    owner = caller_id.split("#", 1)[0]
    type_row = ctx.type_row(owner)
    rows = ctx.store.rows(q.CALLER_ROW, {"id": caller_id})
    if type_row is None or not rows:
        return None
    try:
        file, keys, dec = decompiled_file(ctx, type_row)
    except JdxError as exc:  # no decompiler, a timeout or a failure: the sample says which (`unavailable`)
        return {"unavailable": {"code": getattr(exc, "code", "DECOMPILE_FAILED"), "message": exc.message}}
    try:
        match = sm.match_method(file.parsed, dict(rows[0], first_line=-1, last_line=-1), type_row, keys, file.lines)
    except Exception:  # noqa: BLE001 - a decompiled text the matcher cannot read: the sample stays a pointer
        return None
    decl = match.decl
    if decl is None and caller_id.split("#", 1)[1].startswith("<clinit>("):
        # a static initializer a decompiler writes as field initializers (an interface's constants): the type's text
        decl = next((d for d in file.parsed.types() if d.path == keys), None)
    if decl is None:
        return None
    rx = use_pattern(target_id, is_field)
    lines = file.lines
    # the declaration line itself names a constructor (`Api(...)`): the use is in the body
    uses = [n for n in range(decl.start, decl.end + 1)
            if rx.search(lines[n - 1]) and not (n == decl.start and "<init>" in caller_id)]
    focus = uses[0] if uses else None
    line_map = getattr(dec, "line_map", None)  # Procyon's; a JvmTools port may give none
    if focus is None and line_map is not None and line is not None and line > 0:
        # no call spelled out (an inline function's body copied into the caller): the line the decompiler wrote
        # from the site's class-file line
        focus = next((n for n in range(decl.start, decl.end + 1) if line in line_map.get(n, ())), None)
    if focus is None:
        return None
    a, b = max(decl.start, focus - context), min(decl.end, focus + context)
    return {"label": f"decompiled by {dec.engine} {dec.engine_version}", "file": file.rel, "lines": [a, b],
            "first_line": a, "focus": focus, "text": lines[a - 1:b], "reconstructed": True,
            "engine": dec.engine, "uses": [n for n in uses if a <= n <= b],
            "class_lines": None if line_map is None else [list(line_map.get(n, ())) for n in range(a, b + 1)]}
