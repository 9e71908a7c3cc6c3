"""Plain-text rendering of `samples`: one block per site, the call's line marked with `>`."""

from __future__ import annotations


def samples(r: dict) -> list[str]:
    n = len(r["samples"])
    lines = [f"samples of {r['symbol']} ({n} of {r['total']} site{'s' if r['total'] != 1 else ''})"]
    if not n:
        lines.append("  no call sites in the workspace")
    for i, s in enumerate(r["samples"], 1):
        marks = [m for m, on in (("test", s["test"]), ("in lambda", s["in_lambda"]),
                                 ("compiler-written: not in the source text", not s["written"])) if on]
        where = f"line {s['line']}" if s["line"] > 0 else "no line numbers"
        lines.append(f"  {i}. {s['caller']}  {s['artifact']}  {s['kind']} at {where}"
                     + (f"  ({', '.join(marks)})" if marks else ""))
        src = s.get("source")
        if src is None:
            lines.append("     no sources: bytecode only; jdx body '" + s["caller"] + "' shows the method")
            continue
        a, b = src["lines"]
        mark = "   ⚠ reconstructed" if src.get("reconstructed") else ""
        lines.append(f"     source: {src['label']} ({src['file']}:{a}-{b}){mark}")
        width = len(str(b))
        for no, text in zip(range(a, b + 1), src["text"]):
            mark = ">" if no == src["focus"] else " "
            lines.append(f"     {mark} {str(no).rjust(width)}  {text}".rstrip())
    return lines
