"""Text renderings of search and navigation answers (spec §8.1: leading kind word, two-space indent)."""

from __future__ import annotations

from jdx.render.cards import STALE_NOTE
from jdx.render.graph import type_place


def _columns(rows: list[tuple[str, str]], indent: str = "") -> list[str]:
    """`left  right` lines: no padding to a common width (one long ref would cost every line tokens)."""
    return [f"{indent}{a}  {b}".rstrip() for a, b in rows]


HIDDEN = "hidden by deprecation: no caller can use it"  # a Kotlin declaration `@Deprecated(level = HIDDEN)`
DEPRECATED = "deprecated"  # `@Deprecated` (the Deprecated attribute), still usable: JSON `deprecated`
JDK_INTERNAL = "(JDK internal)"  # in a package its JDK module exports to some modules or none: JSON `jdk_internal`


def _marks(m: dict, non_public: bool = True) -> str:
    """` (non-public)` (when `non_public` says to mark it), ` (JDK internal)`, ` [deprecated]`, ` (stale class file:
    an earlier build left it)` of a row."""
    return ((" (non-public)" if non_public and not m.get("public", True) else "")
            + (" (its class is not public: call it on a public subclass)" if m.get("through_subclasses") else "")
            + (f" {JDK_INTERNAL}" if m.get("jdk_internal") else "")
            + (f" [{DEPRECATED}]" if m.get("deprecated") else "")
            + (f" ({STALE_NOTE})" if m.get("stale") else ""))


def _local(m: dict) -> str:
    """` (local)` of a local class: javac names `class Row` declared in a block `Areas$1Row`, its name after `$` and a
    number (the reference stays javac's, as javap and stack traces print it)."""
    ref, name = m["ref"], m.get("name") or ""
    head = ref[: -len(name)] if name and "#" not in ref and ref.endswith(name) else ""
    return " (local)" if head[-1:].isdigit() and head.rstrip("0123456789").endswith("$") else ""


def _symbol(m: dict) -> str:
    if m["kind"] == "typealias":  # `typealias kx.Transform<T> = (T) -> T`: the reference is the alias's own name
        return m["declaration"]
    k = m.get("kotlin")
    if k is not None:  # the Kotlin declaration (its keyword is the kind word), then the JVM reference
        text = k["text"].removeprefix("public ")
        marks = k["markers"] + [HIDDEN] * bool(m.get("hidden")) + [DEPRECATED] * bool(m.get("deprecated"))
        return f"{text}  {m['ref']}" + "".join(f"  [{x}]" for x in marks)
    text = f"{m['kind']} {m['ref']}"
    if m.get("overloads", 1) > 1:
        text += f" ({m['overloads']} overloads)"
    text += _local(m) + _marks(m)
    if "value" in m:  # search --value: the constant's value as Java text
        text += f" = {m['value']}"
    return text


def bare(lines: list[str]) -> list[str]:
    """`--brief` (spec §7.6: bare rows, no headers, no footers): an answer without rows is `(none)`, never an empty
    output that reads as lost."""
    return lines or ["(none)"]


def search(r: dict, brief: bool = False) -> list[str]:
    """One match a line, then how many matched; `brief`: the matches alone."""
    rows = [(_symbol(m), ", ".join(m["artifacts"]) if len(m.get("artifacts") or ()) > 1 else m["artifact"])
            for m in r["matches"]]
    lines = _columns(rows)
    if brief:
        return bare(lines)
    n, total = len(r["matches"]), r["total"]
    if n == total:  # a truncated answer gets output's `… N of M shown (hint)` line instead
        lines.append(f"{total} match{'es' if total != 1 else ''} for {r['pattern']!r} ({r['mode']})")
    return lines


def resolve(r: dict, brief: bool = False) -> list[str]:
    """A frame's line, the candidates (under a frame, indented), notes, how many; `brief`: the candidates alone, not
    indented. A whole trace: each line, then its answer indented."""
    if "trace" in r:
        return _trace(r, brief)
    lines = []
    if r.get("frame") and not brief:
        f = r["frame"]
        lines.append(f"frame {f['text']}" + (f"  {f['file']}:{f['line']}" if f.get("line") is not None else ""))
    named = not r.get("frame")  # a name's non-public candidates are marked as search marks them; a frame's ran
    lines.extend(_columns(_candidate_rows(r["candidates"], named), "  " if r.get("frame") and not brief else ""))
    if brief:
        return bare(lines)
    lines.extend(f"note: {n}" for n in r.get("notes", ()))
    n = len(r["candidates"])
    if n == r["total"] and not (r.get("notes") and not n):  # a truncated answer gets output's `… N of M shown`
        lines.append(f"{n} candidate{'s' if n != 1 else ''} for {r['name']}")
    return lines


def _candidate_rows(candidates: list[dict], named: bool) -> list[tuple[str, str]]:
    """resolve's candidates as (text, artifact): kind, ref, where a class no source names is declared, marks
    (`(non-public)` only for a `named` answer), lines, note."""
    return [(f"{c['kind']} {c['ref']}" + "".join(" " + m for m in type_place(c)) + _marks(c, named)
             + (f"  (lines {c['lines'][0]}-{c['lines'][1]})" if c.get("lines") else "")
             + (f"  [{c['note']}]" if c.get("note") else ""), c["artifact"]) for c in candidates]


def _trace(r: dict, brief: bool) -> list[str]:
    """Each line of the trace as pasted, its candidates (or why none) under it; a header counting what was answered
    (`brief`: the lines and candidates alone)."""
    lines = [] if brief else [f"trace: {r['lines_total']} lines, {r['resolved']} resolved"
                              + (f", {r['missed']} not in the workspace" if r["missed"] else "")]
    for e in r["trace"]:
        lines.append(e["line"])
        if "error" in e:
            lines.append(f"  {e['error']['message']}")
            continue
        lines.extend(_columns(_candidate_rows(e["candidates"], False), "  "))
        if len(e["candidates"]) < e["total"]:
            lines.append(f"  … {len(e['candidates'])} of {e['total']} shown (--limit {e['total']})")
        if not brief:
            lines.extend(f"  note: {n}" for n in e.get("notes", ()))
    if len(r["trace"]) < r["lines_total"]:
        lines.append(f"… {len(r['trace'])} of {r['lines_total']} lines answered: resolve the rest as a trace of its "
                     "own")
    return lines


def imports(r: dict, brief: bool = False, origin: str = "  // from ") -> list[str]:
    """One statement a line (`Java: `/`Kotlin: ` when a Kotlin top-level declaration has both; commented out with why
    when another package cannot compile it, `restricted`), then `origin` and its
    artifact (a Java comment: the text pastes into a file), once for a run of statements from the same one; `brief`:
    the statements alone."""
    lines = []
    entries = r["imports"]
    for i, imp in enumerate(entries):
        why = imp.get("restricted")  # javac rejects it outside its package: commented out, as a block does
        note = f"  // {why or imp['note']}" if why or imp.get("note") else ""
        label = {"java": "Java: ", "kotlin": "Kotlin: "}.get(imp.get("language"), "")
        lines.append(f"{'// ' if why else ''}{label}{imp['statement']}{note}")
        if not brief and (i + 1 == len(entries) or entries[i + 1]["artifact"] != imp["artifact"]):
            lines.append(f"{origin}{imp['artifact']}")
    return bare(lines) if brief else lines


def _types(n: int) -> str:
    return f"{n} type{'s' * (n != 1)}"


def _nonpublic_line(e: dict) -> str:
    more = e["types"] - len(e["names"])
    rest = f", +{more} more (jdx search '<package>.*' lists them)" if more else ""
    return f"{'  ' * e['level']}+ {e['types']} not public: {', '.join(e['names'])}{rest}"


def ls(r: dict) -> list[str]:
    lines = []
    for e in r["entries"]:
        count = f"  ({_types(e['types'])})" if "types" in e else ""
        if "types_here" in e:
            count = f"  ({_types(e['types_here'])} here, {e['types']} with subpackages)"
        indent = "  " * e["level"]
        if e["kind"] == "package":
            lines.append(f"{indent}package {e['name']}{count}")
        elif e["kind"] == "nonpublic":
            lines.append(_nonpublic_line(e))
        elif e["kind"] == "nested":
            lines.append(f"{indent}+ {e['types']} nested in the types above (jdx show <Type> names its nested types)")
        else:
            lines.append(f"{indent}{e.get('kotlin_keyword') or e['kind']} {e['name']}")
    if not lines:
        lines.append("no packages")
    return lines


def tree(r: dict) -> list[str]:
    lines = []
    for e in r["entries"]:
        indent = "  " * e["level"]
        count = f"  ({_types(e['types'])})" if "types" in e else ""
        if e["kind"] == "artifact":
            lines.append(f"{indent}{e['artifact_kind']} {e['name']}{count}")
        elif e["kind"] == "package":
            lines.append(f"{indent}package {e['name']}{count}")
        elif e["kind"] == "nonpublic":
            lines.append(_nonpublic_line(e))
        else:
            lines.append(f"{indent}{e.get('kotlin_keyword') or e['kind']} {e['name']}")
    return lines
