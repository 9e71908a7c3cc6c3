"""`search PATTERN --value`: the constant fields whose value is PATTERN (`RS256` finds
`AlgorithmIdentifiers#RSA_USING_SHA256 = "RS256"`): an agent holding a magic string or number finds the
constant's name. A string constant matches by its text, a number by its digits (`42` finds `42L`), a char by its
character; a `*`/`?` glob matches the whole value, plain text an equal value first, then values containing it."""

from __future__ import annotations

import fnmatch
import re

from jdx.engine import descriptors as d
from jdx.engine.ranking import internal_packages, is_jdk_internal
from jdx.engine.refs import format_member, format_type
from jdx.engine.search import SearchOptions, artifact_table, jdk_internal, select_artifacts
from jdx.errors import NotFoundError, UsageError
from jdx.graph_schema import queries_search
from jdx.graph_schema.store import GraphStore

_ESCAPES = {"n": "\n", "r": "\r", "t": "\t", "\\": "\\", "\"": "\"", "'": "'"}
_ESCAPE = re.compile(r"\\(u[0-9a-fA-F]{4}|.)")
_NUMBER_SUFFIX = {"J": "L", "F": "f", "D": "d"}


def literal_value(descriptor: str, text: str) -> str:
    """The value a ConstantValue's Java text stands for, as a user writes it: a string's or char's text unquoted and
    unescaped, a number without its type suffix, a boolean `true`/`false`."""
    shown = d.render_constant(descriptor, text)
    if len(shown) >= 2 and shown[0] == shown[-1] and shown[0] in "\"'":
        text = _ESCAPE.sub(lambda m: chr(int(m.group(1)[1:], 16)) if m.group(1)[0] == "u" and len(m.group(1)) == 5
                           else _ESCAPES.get(m.group(1), m.group(1)), shown[1:-1])
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")  # a pair is one code point
    suffix = _NUMBER_SUFFIX.get(descriptor)
    return shown[:-1] if suffix and shown.endswith(suffix) else shown


# how the graph stores a string constant's characters (`f.constant`, ValuePrinter.quote's Java literal): these
# escaped so, other controls and UTF-16 surrogates as `\uXXXX`, every other character as itself
_STORED_ESCAPES = {"\\": "\\\\", "\"": "\\\"", "\n": "\\n", "\t": "\\t", "\r": "\\r"}


def _stored(c: str) -> str:
    if c in _STORED_ESCAPES:
        return _STORED_ESCAPES[c]
    if c < " " or "\ud800" <= c <= "\udfff" or ord(c) > 0xFFFF:
        units = c.encode("utf-16-be", "surrogatepass")
        return "".join(f"\\u{int.from_bytes(units[i:i + 2], 'big'):04x}" for i in range(0, len(units), 2))
    return c


def _needle(pattern: str) -> str:
    """The longest run of the pattern (no glob character) as the stored Java text holds it (escaped: a newline is
    `\\n` there), which the graph searches for."""
    return max(("".join(map(_stored, run)) for run in re.split(r"[*?]", pattern)), key=len)


def written_values(text: str) -> list[str]:
    """The values PATTERN may stand for: as written, and, when it writes a Java escape (`\\n`, `\\t`, `\\u000b`),
    with it read as the character (`search '\\n' --value` finds StringUtils.LF; a shell's `$'\\n'` passes the
    character itself). The text as written is matched too (`C:\\temp` still finds the path)."""
    read = _WRITTEN_ESCAPE.sub(lambda m: chr(int(m.group(1)[1:], 16)) if m.group(1)[0] == "u"
                               else _ESCAPES[m.group(1)], text)
    # a number as Java writes it, the form jdx prints (`0.8f`, `9223372036854775807L`, `1_000`): its digits
    number = _WRITTEN_NUMBER.fullmatch(text)
    digits = (number.group(1).replace("_", ""),) if number else ()
    return list(dict.fromkeys((text, read, *digits)))


_WRITTEN_ESCAPE = re.compile(r"\\(u[0-9a-fA-F]{4}|[nrt\\\"'])")
_WRITTEN_NUMBER = re.compile(r"(-?(?:\d[\d_]*)?\.?\d[\d_]*(?:[eE][+-]?\d+)?)[fFdDlL]?")


def search_values(store: GraphStore, text: str, opts: SearchOptions) -> tuple[dict, dict | None]:
    pattern = text
    if opts.regex:
        raise UsageError("--value matches constant values by text or glob; --regex is for names")
    kinds = set(opts.kinds or ())
    if kinds - {"field", "all"}:
        raise UsageError("--value finds constant fields: drop --kind, or use --kind field")
    if not _needle(pattern):
        raise UsageError(f"--value {text!r}: give some of the value's text (a glob of only * and ? matches every "
                         "constant)")
    glob = any(c in pattern for c in "*?")
    values = written_values(pattern)
    arts = select_artifacts(store, opts.artifact_globs)
    table = {a["id"]: a for a in artifact_table(store)}
    allowed = {a["id"] for a in arts} if arts is not None else None
    internal = internal_packages(store)
    found = []
    for r in _candidate_rows(store, values):
        if allowed is not None and r["artifact"] not in allowed:
            continue
        owner = format_type(r["owner"])
        if opts.package_glob and not fnmatch.fnmatchcase(owner.rpartition(".")[0], opts.package_glob):
            continue
        value = literal_value(r["descriptor"], r["constant"])
        exact = any(fnmatch.fnmatchcase(value, v) if glob else value == v for v in values)
        if not exact and (glob or not any(v in value for v in values)):
            continue
        public = bool((r["access"] or 0) & 1)
        art = table.get(r["artifact"]) or {}
        row = {"kind": "field", "ref": format_member(r["owner"], r["name"], r["descriptor"], is_field=True),
               "artifact": art.get("name", ""), "public": public,
               "value": d.render_constant(r["descriptor"], r["constant"]), "match": "exact" if exact else "contains"}
        if jdk_internal(art.get("origin", ""), owner, internal):
            row["jdk_internal"] = True
        found.append(((not exact, is_jdk_internal(owner, internal), not public, art.get("position", 0), owner,
                       r["name"]), row))
    if not found:
        raise NotFoundError(f"not found: no constant's value is {pattern!r}" + (" or holds it" if not glob else ""),
                            hint="a constant is a static final field with a compile-time value; search by name "
                                 "without --value")
    found.sort(key=lambda x: x[0])
    matches = [m for _, m in found[:opts.limit]]
    result = {"pattern": pattern, "mode": "value", "matches": matches, "total": len(found)}
    truncated = None
    if len(found) > len(matches):
        truncated = {"shown": len(matches), "total": len(found), "hint": f"--limit {len(found)}, or narrow with "
                                                                          "--package or --in"}
    return result, truncated


def _candidate_rows(store: GraphStore, values: list[str]) -> list[dict]:
    """The constant fields whose stored text holds a needle of one of the values (`written_values`), each once."""
    rows: dict[tuple[str, str], dict] = {}
    for value in values:
        # a char or boolean constant is stored as its int (JVMS §4.7.2): asked by the number it is stored as
        stored = [str(ord(value))] if len(value) == 1 else ["1" if value == "true" else "0"] \
            if value in ("true", "false") else []
        for r in store.rows(queries_search.CONSTANTS_CONTAINING, {"needle": _needle(value), "stored": stored}):
            rows.setdefault((r["owner"], r["name"]), r)
    return list(rows.values())
