"""Plain-text rendering of `samples`: one block per site, the call's line marked with `>`.

A site's line is the class file's (LineNumberTable). Shown from sources, the gutter uses the same numbers;
shown from a decompiled text, the gutter numbers that text (the source line says `lines of the decompiled
text`): `line N (decompiled line M)` when the decompiler's line map placed `>`, else `class-file line N` and
why `>` marks the use found by its shape."""

from __future__ import annotations

from jdx.render.search import bare


def samples(r: dict, max_lines: int | None = None, brief: bool = False) -> list[str]:
    """The header, then one block per sample; `max_lines` keeps the whole samples that fit (never half of one,
    spec §8.3), the cut stated by `truncation`. `brief` (`--brief`, bare rows): no header, each block one indent
    less without its number, `(none)` when there is no sample."""
    head, blocks = _parts(r, brief)
    lines = head + [line for block in blocks[:_fitting(head, blocks, max_lines)] for line in block]
    return bare(lines) if brief else lines


def truncation(r: dict, max_lines: int | None, brief: bool = False) -> dict | None:
    """The text's cut: whole samples left out to keep within `max_lines` (counted in samples), or None (then
    `--limit`'s cut, `engine.samples.limit_truncation`, is the one to state)."""
    head, blocks = _parts(r, brief)
    kept = _fitting(head, blocks, max_lines)
    if kept >= len(blocks):
        return None
    total = len(head) + sum(map(len, blocks))
    return {"shown": kept, "total": len(blocks),
            "hint": f"samples: --max-lines {total} shows every sample whole; a sample is never cut"}


def _fitting(head: list[str], blocks: list[list[str]], max_lines: int | None) -> int:
    if not max_lines:
        return len(blocks)
    used, kept = len(head), 0
    for block in blocks:
        if used + len(block) > max_lines:
            break
        used, kept = used + len(block), kept + 1
    return kept


def _parts(r: dict, brief: bool) -> tuple[list[str], list[list[str]]]:
    return ([] if brief else _header(r)), _blocks(r, brief)


def _header(r: dict) -> list[str]:
    """`samples of X (2 of 9 sites)`; method references (`Foo::bar`, which the total leaves out) counted apart:
    `(0 of 0 sites, 1 of 1 method reference)`; the `--in`/`--exclude` filter after it, as `usages` says it."""
    n, refs = len(r["samples"]), r.get("method_refs", 0)
    shown_refs = sum(1 for s in r["samples"] if s.get("method_ref"))
    counted = ("call" + ("s" if r["total"] != 1 else "") + " of its constructors and methods"
               if r.get("counts") == "member_calls" else "site" + ("s" if r["total"] != 1 else ""))
    counts = f"{n - shown_refs} of {r['total']} {counted}" + (
        f", {shown_refs} of {refs} method reference{'s' if refs != 1 else ''}" if refs else "")
    lines = [f"samples of {r['symbol']} ({counts})" + (f"  [{r['filter']}]" if r.get("filter") else "")]
    if not n:
        lines.append("  no call sites in " + ("the artifacts the filter keeps" if r.get("filter") else "the workspace"))
    return lines


def _blocks(r: dict, brief: bool) -> list[list[str]]:
    """A sample's site line, numbered, its source lines below it; `brief`: no number, one indent less."""
    out = []
    pad = "  " if brief else "     "
    for i, s in enumerate(r["samples"], 1):
        lines: list[str] = []
        out.append(lines)
        marks = [m for m, on in (("shadowed copy: never loaded", s.get("shadowed")), ("test", s["test"]),
                                 ("in lambda", s["in_lambda"]),
                                 ("method reference: passes no arguments", s.get("method_ref")),
                                 ("compiler-written: not in the source text", not s["written"])) if on]
        where = _where(s)
        lines.append(("" if brief else f"  {i}. ") + f"{s['caller']}  {s['artifact']}  {s['kind']} at {where}"
                     + (f"  ({', '.join(marks)})" if marks else ""))
        src = s.get("source")
        if src is None:
            failed = s.get("unavailable")
            lines.append(f"{pad}no sources, and {failed['message']}; jdx body '{s['caller']}' --engine javap shows "
                         "its bytecode" if failed else
                         f"{pad}no sources: bytecode only; jdx body '" + s["caller"] + "' shows the method")
            continue
        a, b = src["lines"]
        rebuilt = src.get("reconstructed")
        mark = "   ⚠ reconstructed" if rebuilt else ""
        numbering = ", lines of the decompiled text" if rebuilt else ""
        lines.append(f"{pad}source: {src['label']} ({src['file']}:{a}-{b}{numbering}){mark}")
        for why in (src.get("stale"), src.get("mismatch")):  # the lines shown are not the ones compiled
            if why:
                lines.append(f"{pad}⚠ SOURCES_VERSION_MISMATCH: {why}")
        width = len(str(b))
        for no, text in zip(range(a, b + 1), src["text"]):
            mark = ">" if no == src["focus"] else " "
            lines.append(f"{pad}{mark} {str(no).rjust(width)}  {text}".rstrip())
    return out


def _where(s: dict) -> str:
    """The site's line: the class file's, which numbers the text below only when that text is the source."""
    if s["line"] <= 0:
        return "no line numbers"
    src = s.get("source") or {}
    if s.get("origin") == "source":
        return f"line {s['line']}"
    if src.get("focus_by") == "line_map":
        return f"line {s['line']} (decompiled line {src['decompiled_line']})"
    if s.get("origin") == "decompiled":
        why = "no decompiled line maps to it" if src.get("line_map") else "the decompiler gave no line map"
        return f"class-file line {s['line']} ({why}; > marks the use found by its shape)"
    return f"class-file line {s['line']}"
