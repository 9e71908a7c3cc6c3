"""Text of `imports` (spec §7.2): one name's statements (`jdx.render.search.imports`), or for several names the one
import block of them all, then each name that has more to say than its line in the block: its notes, or why it
has no import (not found, ambiguous, refused) with its candidates. Several names' text is Java a file can hold as it
is (`jdx imports A B C > Imports.java`): every line but an import statement is a `//` comment."""

from __future__ import annotations

from jdx.render.envelope import error_lines
from jdx.render.search import bare
from jdx.render.search import imports as one_name


def imports(r: dict, brief: bool = False) -> list[str]:
    """`brief`: the block alone (a statement commented out with why), then each failed name's error line."""
    if "names" not in r:
        return one_name(r, brief=brief)
    lines = list(r["statements"])
    if r.get("kotlin_statements"):
        lines += ([""] if lines else []) + _commented(["Kotlin:", *r["kotlin_statements"]])
    if brief:
        return bare(lines + [f"// {n['name']}: {n['error']['message']}" for n in r["names"] if "error" in n])
    if not lines:
        lines.append("// (no import to add)")
    block = {line.split("  // ", 1)[0] for line in r["statements"] if not line.startswith("//")}  # (a note after)
    said = [_name_lines(n, block) for n in r["names"]]
    for section in filter(None, said):
        lines += ["", *_commented(section)]
    return lines


def _commented(lines: list[str]) -> list[str]:
    return [f"// {line}" for line in lines]


def _name_lines(n: dict, block: set[str]) -> list[str]:
    """A name's lines after the block (none when its statements are all in it and carry no note)."""
    if "error" in n:
        body = error_lines({"error": n["error"], "candidates": n.get("candidates") or []})
    elif any(e.get("note") or e["statement"] not in block for e in n["imports"]):
        body = one_name(n, origin="  from ")  # the section is a comment already
    else:
        return []
    return [f"{n['name']}:", *(f"  {line}" for line in body)]
