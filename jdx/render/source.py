"""Text renderings of body / source / doc (spec §8.1): the provenance line first, then the text; truncation
explicit and naming the flag that shows the rest."""

from __future__ import annotations

from jdx.graph_schema.annotation_text import source_spelling


def _numbered(text: list[str], first: int | None) -> list[str]:
    if first is None:
        return list(text)
    width = len(str(first + len(text) - 1))
    return [f"{str(first + i).rjust(width)}  {line}".rstrip() for i, line in enumerate(text)]


def truncation(r: dict, max_lines: int | None) -> dict | None:
    total = len(r["text"])
    if max_lines is None or total <= max_lines:
        return None
    return {"shown": max_lines, "total": total, "hint": f"--max-lines {total} for all"}


def code(r: dict, line_numbers: bool, max_lines: int | None, brief: bool = False) -> list[str]:
    """`source: <where>` then the text (optionally numbered), cut at `max_lines`; `brief`: the text alone."""
    if brief:
        return _text(r, line_numbers, max_lines)
    lines = [r["header"]]
    if r.get("signature"):
        lines.append(f"signature: {r['signature']}")
    src = r.get("source") or {}
    # `source --lines/--around` picks lines by numbers: which file's numbers they are is said unasked
    sliced = r.get("total_lines") is not None and src.get("lines") != [1, r["total_lines"]]
    if (line_numbers or sliced) and src.get("lines_of") and r.get("first_line") is not None:
        where, held, trace = src.get("class_file_lines"), src.get("class_file_slice"), src.get("as_trace_lines")
        a, b = src.get("lines") or (r["first_line"], r["first_line"] + len(r["text"]) - 1)
        lines.append((f"line numbers: of the {src['lines_of']}" if line_numbers else  # (unnumbered: which lines)
                      f"lines {a}-{b} of the {src['lines_of']}")
                     + (f" (these hold class-file lines {held[0]}-{held[1]})" if held else "")
                     + (f"; the class file's are {where[0]}-{where[1]} (what stack traces show)" if where else ""))
        if trace:
            (a, b), (c, d) = trace["lines"], trace["decompiled"]
            lines.append(f"a stack trace's lines {a}-{b} are decompiled lines {c}-{d}: --lines {c}:{d}")
    return lines + _text(r, line_numbers, max_lines)


def _text(r: dict, line_numbers: bool, max_lines: int | None) -> list[str]:
    text = r["text"][:max_lines] if max_lines else r["text"]
    return _numbered(text, r.get("first_line")) if line_numbers else list(text)


def _enclosing(e: dict | None) -> str:
    """`  (anonymous class in java.util.Collections#singletonIterator(java.lang.Object))`, or nothing."""
    if not e:
        return ""
    where = e["method"] or f"an initializer of {e['type']}"
    return f"  ({e['role']} class in {where})"


def body(r: dict, line_numbers: bool, max_lines: int | None, brief: bool = False) -> list[str]:
    """Spec Appendix A: the reference (and where a local or anonymous class is declared), `source: <where>`, the
    text, then the `next:` step. `brief`: the text alone, and why it holds no body where it holds none (a native,
    abstract or annotation element's declaration would read as its code)."""
    if brief:
        return _text(r, line_numbers, max_lines) + _no_body(r)
    lines = [r["ref"] + _enclosing(r.get("enclosing"))]
    if r.get("delegated_from"):
        lines.append(f"(the code of {r['delegated_from']}: that file facade's copy only delegates here)")
    lines += code(r, line_numbers, max_lines) + _no_body(r)
    if r.get("next"):
        lines.append(f"next: {r['next']}")
    return lines


def _no_body(r: dict) -> list[str]:
    if r.get("no_body") == "native":
        return ["note: a native method: its code is not bytecode (JNI), no class file holds a body"]
    if r.get("no_body") == "abstract":
        return ["note: an abstract method: no body; the implementations have one"]
    if r.get("no_body") == "annotation_element":
        default = r.get("annotation_default")  # as stored: binary names, written as source writes them
        default = None if default is None else source_spelling(default)
        return ["note: an annotation element: no body; each use of the annotation gives its value"
                + (f" (default {default})" if default is not None else " (no default: every use must give one)")]
    return []


def _doc_lines(r: dict, raw: bool, brief: bool = False) -> list[str]:
    out: list[str] = []
    if brief:  # bare text; the reference only to tell several members apart
        for it in r["docs"]:
            if len(r["docs"]) > 1:
                out.append(it["ref"])
            body = (it.get("raw") or "").splitlines() if raw else it["text"]
            body = body or ["(no KDoc)" if "links" in it else "(no javadoc)"]  # never an empty answer
            out.extend(f"  {line}".rstrip() if len(r["docs"]) > 1 else line for line in body)
        return out
    for it in r["docs"]:
        if out:
            out.append("")
        head = f"{it['kind']} {it['ref']}" + ("  @Deprecated" if it.get("deprecated") else "")
        if it["inherited_from"]:
            head += f"  (inherited from {it['inherited_from']})"
        elif it.get("documented_by"):
            head += f"  (from {it['documented_by']})"
        out.append(head)
        if it["source"]:
            s = it["source"]
            out.append(f"source: {s.get('root') or s['label']} ({s['file']}:{s['lines'][0]}-{s['lines'][1]})")
        if it.get("inherited_source") and not raw:
            s = it["inherited_source"]
            out.append(f"inherited text: {s.get('root') or s['label']} ({s['file']}:{s['lines'][0]}-{s['lines'][1]})")
        body = (it.get("raw") or "").splitlines() if raw else it["text"]
        out.extend(f"  {line}".rstrip() for line in body)
        if not body:
            out.append("  (no KDoc)" if "links" in it else "  (no javadoc)")
    return out


def doc_truncation(r: dict, raw: bool, max_lines: int | None, brief: bool = False) -> dict | None:
    total = len(_doc_lines(r, raw, brief))
    if max_lines is None or total <= max_lines:
        return None
    return {"shown": max_lines, "total": total, "hint": f"--max-lines {total} for all"}


def doc(r: dict, raw: bool, max_lines: int | None, brief: bool = False) -> list[str]:
    """Each item's kind and reference, `source:` (and the inherited part's), the text; `brief`: the text alone."""
    lines = _doc_lines(r, raw, brief)
    return lines[:max_lines] if max_lines else lines
