"""`resolve` of a whole pasted stack trace (spec §7.2): each frame, exception and `... N more` line answered as
`resolve` answers it alone, in the trace's order; a line the workspace cannot answer says why in place, so one
missing class never hides the rest of the trace."""

from __future__ import annotations

from jdx.engine.search_frames import exception_type, frame_warnings, from_thread_lead, has_lead, omitted_frames, parse_frame
from jdx.errors import NotFoundError, Warning_
from jdx.graph_schema.store import GraphStore

MAX_TRACE_LINES = 200  # a trace's lines answered; the rest are counted (`lines_total`) and named as cut


def trace_lines(text: str) -> list[str] | None:
    """The lines of a pasted stack trace resolve answers one by one (frames, exception lines, `... N more`), when the
    text holds two or more frame or exception lines; None for a name or a single line (blank and other lines, a
    log line's text, are skipped)."""
    if "\n" not in text.strip():
        return None
    read: list[str] = []
    in_message = False  # after an exception line, before its first frame: the lines of its message
    for ln in text.strip().splitlines():
        ln = from_thread_lead(ln).strip()
        if not ln:
            continue
        if omitted_frames(ln) is not None or parse_frame(ln)[1] is not None:
            read.append(ln)
            in_message = False
        elif exception_type(ln) is not None and not (in_message and not has_lead(ln)):
            read.append(ln)  # (`libfoo.so: cannot open …` on a message's second line is no exception)
            in_message = True
    return read if sum(1 for ln in read if omitted_frames(ln) is None) >= 2 else None


def resolve_trace(store: GraphStore, lines: list[str], limit: int, line_tables=None, smap=None) \
        -> tuple[dict, list[Warning_]]:
    """({trace: one entry per line, lines_total, resolved, missed}, the frames' warnings once each). An entry is the
    line's `resolve` result with its `line`, or the line with the not-found's `error` (code, message)."""
    from jdx.engine.search_nav import resolve

    entries: list[dict] = []
    warnings: dict[tuple[str, str], Warning_] = {}
    for line in lines[:MAX_TRACE_LINES]:
        try:
            result, _cut = resolve(store, line, limit, line_tables=line_tables, smap=smap)
        except NotFoundError as exc:  # (a frame of a class outside the workspace: its near names are noise here)
            entries.append({"line": line, "error": {"code": exc.code, "message": exc.message}})
            continue
        for w in frame_warnings(result):
            warnings.setdefault((w.code, w.message), w)
        entries.append({"line": line, **result})
    _proxies_called(entries)
    missed = sum(1 for e in entries if "error" in e)
    answered = sum(1 for e in entries if "error" not in e and not e.get("omitted"))
    if not answered and missed:  # nothing of the trace is in the workspace: a not-found, as one line's would be
        first = next(e for e in entries if "error" in e)
        raise NotFoundError(f"not found: none of the trace's {missed} frame and exception lines is in the workspace "
                            f"(first: {first['error']['message'].removeprefix('not found: ')})")
    return ({"trace": entries, "lines_total": len(lines), "resolved": answered, "missed": missed},
            list(warnings.values()))


def _proxies_called(entries: list[dict]) -> None:
    """A lambda proxy's frame (`a.B$$Lambda$9/0x….get`) alone lists every lambda body of `a.B`; in a trace the frame
    above it is the one it called: its lambda bodies narrow to the ones that frame resolved to (none narrowed when
    that frame is not one of them: a method reference's target)."""
    for above, entry in zip(entries, entries[1:]):
        if not ((entry.get("frame") or {}).get("hidden") or {}).get("lambda_of"):
            continue
        called = {c["ref"] for c in above.get("candidates") or () if "#" in c["ref"]}
        bodies = [c for c in entry["candidates"] if "#" in c["ref"]]
        if not called & {c["ref"] for c in bodies}:
            continue
        entry["candidates"] = [c for c in entry["candidates"] if "#" not in c["ref"] or c["ref"] in called]
        entry["total"] = len(entry["candidates"])


def trace_candidates(result: dict) -> list[dict]:
    """Every candidate of a trace's answer, for its provenance."""
    return [c for e in result["trace"] for c in e.get("candidates", ())]
