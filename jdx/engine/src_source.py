"""`source <type>` (spec §7.1): the whole file, `--lines A:B`, or `--around <member> --context N`; decompiled
when no sources exist. Also `source_window`, the few lines around a line of a class that `samples` shows."""

from __future__ import annotations

import re
import shlex

from jdx.engine.member_resolve import lookup
from jdx.engine.refs import format_type
from jdx.engine.src_body import ENGINES, RECONSTRUCTED, Target, member_target
from jdx.engine.src_decompiled import decompiled_file
from jdx.engine.src_special import is_lambda, lambda_rows, undecompiled_methods, undecompiled_warning
from jdx.engine.src_locate import (SourceContext, SourceFile, locate_field, locate_method, outer_chain, source_file,
                                   stale_source, top_level)
from jdx.errors import JdxError, NotFoundError, UsageError, Warning_
from jdx.graph_schema import queries

DEFAULT_AROUND_CONTEXT = 10


def parse_lines(spec: str) -> tuple[int, int | None]:
    """`100:180` (or `100-180`), `100:` (to the end), `100` (one line) → (first, last or None)."""
    m = re.fullmatch(r"\s*(\d+)\s*(?:[:-]\s*(\d*)\s*)?", spec or "")
    if not m:
        raise UsageError(f"--lines {spec!r}: use A:B or A-B (e.g. 100:180), A: or A")
    a = int(m.group(1))
    b = None if m.group(2) == "" else int(m.group(2)) if m.group(2) is not None else a
    if a < 1 or (b is not None and b < a):
        raise UsageError(f"--lines {spec!r}: lines count from 1 and A must not exceed B")
    return a, b


def resolve_source_type(store, text: str) -> dict:
    """The type `source` reads (resolve.resolve_type); a member reference is a usage error whose hint gives the
    commands that read a member: `body`, and `source <type> --around <member>`."""
    from jdx.engine.resolve import resolve_type

    try:
        return resolve_type(store, text)
    except UsageError as exc:
        hint = member_hint(text)
        if hint is None or exc.hint or "names a member" not in exc.message:
            raise
        raise UsageError(exc.message, hint=hint) from None


def member_hint(text: str) -> str | None:
    """`jdx body '<member>'` or `jdx source <type> --around '<member>'` for a member reference, else None."""
    import shlex

    from jdx.engine.refs import parse_ref

    try:
        ref = parse_ref(text)
    except JdxError:
        return None
    if ref.member is None or not ref.type_name:
        return None
    canonical = str(ref)
    member = canonical.partition("#")[2]
    return (f"to read a member: jdx body {shlex.quote(canonical)}, or jdx source {shlex.quote(ref.type_name)} "
            f"--around {shlex.quote(member)}")


def no_sources_why(ctx: SourceContext, type_row: dict) -> str:
    """Why a type has no source text: the sources paired with its artifact lack its file (named), or there are none.
    The workspace's source directories (the project's src/main/java, --src) are looked in for every artifact, but
    they are a jar's sources only when they hold its file: a jar's class they lack is a jar without sources, never
    "java lacks …" (which reads as if the project should hold the library's file)."""
    from jdx.engine.src_locate import source_rel

    key = type_row.get("artifact") or ""
    art = ctx.artifacts.get(key)
    own_dirs = art is not None and getattr(art, "kind", "") == "dir"  # a class directory: those are its sources
    roots = [r for r in ctx.roots_for(key) if r.how != "embedded" and (own_dirs or r.how != "--src")]
    if not roots:
        return "no sources jar"
    rel = source_rel(type_row, top_level(type_row["id"], outer_chain(ctx, type_row["id"]), type_row))
    labels = list(dict.fromkeys(r.label for r in roots))
    shown = ", ".join(labels[:3]) + (f" and {len(labels) - 3} more" if len(labels) > 3 else "")
    what = rel or type_row.get("source_file") or "its source file"
    return f"{shown} {'lacks' if len(labels) == 1 else 'lack'} {what}"


def _file_for(ctx: SourceContext, type_row: dict, engine: str | None) -> tuple[SourceFile, list[str], str,
                                                                               dict | None, list[Warning_], dict | None]:
    """(file, type keys, origin, engine, warnings, line map): the sources, else (or with --engine) the decompiled
    class, with the decompiler's map of its lines to the class file's (None: sources, or no map)."""
    found = source_file(ctx, type_row) if engine is None else None
    if found is not None:
        return found[0], found[1], "sources", None, stale_source(ctx, type_row, found[0]), None
    art = ctx.artifact_name(type_row)
    why = no_sources_why(ctx, type_row)
    warnings = [] if engine else [Warning_("NO_SOURCES", f"{format_type(type_row['id'])}: "
                                           f"{'no sources' if why == 'no sources jar' else why}; showing "
                                           f"the class reconstructed from bytecode", art)]
    try:
        file, keys, dec = decompiled_file(ctx, type_row, engine)
    except JdxError as exc:
        if getattr(exc, "code", "") != "DECOMPILER_UNAVAILABLE" or engine is None:
            raise
        # the engine asked for is missing: say so and use the next one that exists (as `body` does)
        warnings.append(Warning_("DECOMPILER_UNAVAILABLE", f"--engine {engine}: {engine} is not installed; using "
                                 "the next decompiler that exists", art))
        file, keys, dec = decompiled_file(ctx, type_row, None)
    # what the loader knows to be wrong in the decompiled text and could not correct (DECOMPILED_*)
    warnings += [Warning_(w.code, w.message, art) for w in getattr(dec, "warnings", ())]
    if file.parsed.errors:  # (Procyon's text of a pattern switch: labels and helper calls that are no Java)
        n = file.parsed.errors
        warnings.append(Warning_("SOURCE_PARSE_ERROR", f"{dec.engine}'s text of {format_type(type_row['id'])}: {n} "
                                 f"region{'s' * (n != 1)} tree-sitter could not parse: the decompiler wrote code that "
                                 "is not valid Java there (body --engine javap shows the bytecode)", art))
    return file, keys, "decompiled", {"name": dec.engine, "version": dec.engine_version}, \
        warnings, dec.line_map


class _Absent(Exception):
    """`--around` names a member the sources lack: `warnings` say so (as `body` does), `why` is the header's reason."""

    def __init__(self, warnings: list[Warning_], why: str):
        super().__init__(why)
        self.warnings, self.why = warnings, why


def _line_hint(ctx: SourceContext, type_row: dict, n: int, file: SourceFile, origin: str,
               line_map: dict | None) -> str:
    """What `--around <n>` (a stack trace's line) should have been: `--lines` around it. In decompiled text a stack
    trace's line is the class file's, which the decompiler's line map places (`Decompiled.line_map`); a line the map
    does not place (its code merged into another line's) is shown by the nearest line of the same method it does."""
    head = "--around takes a member (e.g. 'get(Object)'), not a line"
    c = DEFAULT_AROUND_CONTEXT
    if origin != "decompiled":
        return f"{head}: for the lines around line {n}, --lines {max(1, n - c)}:{n + c}"
    mapped = sorted(k for k, lines in (line_map or {}).items() if n in lines)
    if mapped:
        a, b = mapped[0], mapped[-1]
        at = f"line {a}" if a == b else f"lines {a}-{b}"
        return (f"{head}: class-file line {n} is decompiled {at}; for the lines around it, "
                f"--lines {max(1, a - c)}:{min(len(file.lines), b + c)}")
    near = _nearest_mapped(ctx, type_row, n, line_map) if line_map else None
    if near is not None:
        method, line, rows = near
        return (f"{head}: class-file line {n} has no decompiled line of its own (the decompiler wrote its code "
                f"with another line's); the nearest line of {method} that has one is class-file line {line}, "
                f"decompiled line {rows[0]}; for the lines around it, --lines {max(1, rows[0] - c)}:"
                f"{min(len(file.lines), rows[-1] + c)}")
    why = "no decompiled line maps to it" if line_map else "the decompiler gave no line map"
    return (f"{head}: class-file line {n} has no place in the decompiled text ({why}); name the method the stack "
            f"frame is in (jdx resolve '<frame>' finds it)")


def _nearest_mapped(ctx: SourceContext, type_row: dict, n: int, line_map: dict) -> tuple[str, int, list[int]] | None:
    """(the method whose line table spans class-file line `n` (the narrowest, of the class file's type and the types
    declared in it), its mapped class-file line nearest to `n` (the earlier on a tie), the decompiled lines that line
    went to), or None."""
    top = top_level(type_row["id"], outer_chain(ctx, type_row["id"]), type_row)
    holders = [(lines[1] - lines[0], lines, f"{format_type(tid)}#{row['name']}")
               for tid, row in _methods_within(ctx, top) for lines in [member_lines(row)]
               if lines is not None and lines[0] <= n <= lines[1]]
    if not holders:
        return None
    _, (first, last), method = min(holders)
    held = sorted({line for lines in line_map.values() for line in lines if first <= line <= last})
    if not held:
        return None
    line = min(held, key=lambda k: (abs(k - n), k))
    return method, line, sorted(k for k, lines in line_map.items() if line in lines)


def _around(ctx: SourceContext, type_row: dict, around: str, file: SourceFile, origin: str,
            line_map: dict | None = None) -> tuple[int, int, Target]:
    """The lines of the member `--around` names in `file`, and the member (maybe inherited: its `type_row` says)."""
    if around.strip().isdigit():  # a stack trace's line: --lines shows it
        raise UsageError(_line_hint(ctx, type_row, int(around), file, origin, line_map))
    text = around if "#" in around else f"{format_type(type_row['id'])}#{around}"
    found = lookup(ctx.store, text, require_one=True)
    entry = found.members[0]
    target = member_target(ctx, entry)
    if origin != "sources":
        from jdx.engine import source_match as sm
        from jdx.engine.src_locate import is_top_level

        owner = target.type_row
        declaring = top_level(owner["id"], outer_chain(ctx, owner["id"]), owner)
        if declaring != top_level(type_row["id"], outer_chain(ctx, type_row["id"]), type_row):
            name = format_type(owner["id"])  # inherited from another class file: its text is not this one
            raise UsageError(f"--around {around!r}: {entry['ref']} is declared in {name}, another class file; "
                             f"run jdx source {name} --around {shlex.quote(entry['ref'].partition('#')[2])}")
        keys = sm.type_keys(owner["id"], outer_chain(ctx, owner["id"]), is_top_level(owner))
        if target.is_field:
            decl = sm.match_field(file.parsed, target.row["name"], keys)
        else:
            match = sm.match_method(file.parsed, dict(target.row, first_line=-1, last_line=-1), target.type_row,
                                    keys, file.lines)
            if match.ambiguous:
                raise NotFoundError(f"--around {around!r}: {sm.ambiguous_why(match.ambiguous, entry['ref'])}; "
                                    f"run jdx body {entry['ref']!r} --engine javap")
            decl = match.decl
    else:
        loc = locate_field(ctx, target.type_row, target.row["name"]) if target.is_field else \
            locate_method(ctx, target.type_row, target.row)
        if loc is None or loc.file.rel != file.rel:
            raise UsageError(f"--around {around!r}: {entry['ref']} is declared in another file; "
                             f"run jdx body {entry['ref']!r}")
        decl = loc.decl
        if loc.ambiguous:
            from jdx.engine.source_match import ambiguous_why

            raise NotFoundError(f"--around {around!r}: {loc.file.display}: {ambiguous_why(loc.ambiguous, entry['ref'])}"
                                f"; run jdx body {entry['ref']!r}")
    if decl is None and origin == "sources" and not loc.implicit:
        raise _Absent(*_absent_warnings(ctx, target, loc))
    if decl is None and origin == "decompiled" and not target.is_field and is_lambda(target.row):
        rows = lambda_rows(target.row, line_map)  # a lambda's method: where its lines went in the enclosing method
        if rows is not None:
            return rows[0], rows[1], target
    if decl is None:
        first = target.row.get("first_line") if not target.is_field else None
        if first and first > 0 and origin == "sources":
            return first, target.row.get("last_line") or first, target
        raise NotFoundError(f"--around {around!r}: {entry['ref']} has no declaration in the {origin} text")
    return decl.start, decl.end, target


def _absent_warnings(ctx: SourceContext, target, loc) -> tuple[list[Warning_], str]:
    """What `body` says of a member its sources lack: SOURCES_VERSION_MISMATCH naming it (SOURCE_PARSE_ERROR when
    the file did not fully parse), and the reason its text is reconstructed."""
    from jdx.engine.src_body import parse_error_warning
    from jdx.engine.src_locate import mismatch_warnings

    art = ctx.artifact_name(target.type_row)
    if loc.file.parsed.errors:
        out = [] if loc.file.is_kotlin else stale_source(ctx, target.type_row, loc.file)
        return out + [parse_error_warning(loc.file, target.ref, art)], \
            f"{loc.file.root.label}: {loc.file.display} did not parse, {target.ref} not found in it"
    missing = [dict(target.row, ref=target.ref)] if not target.is_field else []
    out = mismatch_warnings(ctx, loc.owner or target.type_row, loc.file, loc.keys, missing)
    if target.is_field:
        out.append(Warning_("SOURCES_VERSION_MISMATCH", f"{art} declares {target.ref} which is absent from "
                            f"{loc.file.root.label} ({loc.file.display}). Structure shown from bytecode.", art))
    return out, f"{loc.file.root.label} lacks {target.ref}"


def _javap(ctx: SourceContext, type_row: dict) -> SourceFile:
    """The whole class through javap, as a text file (no declarations: --around needs sources)."""
    from jdx.engine.bytecode_view import javap_member
    from jdx.engine.java_parse import ParsedFile
    from jdx.engine.sources import SourceRoot

    art = ctx.artifacts[type_row["artifact"]]
    text = javap_member(ctx.jvm, ctx.cache, art.kind, art.path, type_row["id"], None, None)
    return SourceFile(SourceRoot("dir", "", "javap", "javap"), type_row["id"] + ".class", text.encode(),
                      _parsed=ParsedFile([], "", 0))


def source(ctx: SourceContext, type_row: dict, lines: str | None, around: str | None,
           context: int | None, engine: str | None = None) -> tuple[dict, list[Warning_], list[dict]]:
    if lines and around:
        raise UsageError("--lines and --around exclude each other")
    if lines:
        parse_lines(lines)  # a malformed range is a usage error before any decompilation
    if context is not None and context < 0:
        raise UsageError("--context must be 0 or more")
    if engine is not None and engine not in ENGINES:
        raise UsageError(f"--engine {engine!r}: use {', '.join(ENGINES)}")
    if engine == "javap":
        if around:
            raise UsageError("--around needs source text; with --engine javap use jdx body <member> --engine javap")
        file, origin, engine_info, warnings = _javap(ctx, type_row), "javap", \
            {"name": "javap", "version": None}, []
        return _answer(ctx, type_row, file, origin, engine_info, warnings, lines, None, context)
    try:
        file, _keys, origin, engine_info, warnings, line_map = _file_for(ctx, type_row, engine)
    except JdxError as exc:
        raise NotFoundError(f"no source for {format_type(type_row['id'])}: no sources and {exc.message}; "
                            f"try jdx body {format_type(type_row['id'])!r} --engine javap",
                            warnings=[Warning_(getattr(exc, "code", "DECOMPILE_FAILED"), exc.message)]) from None
    try:
        return _answer(ctx, type_row, file, origin, engine_info, warnings, lines, around, context, line_map=line_map)
    except _Absent as absent:  # as `body`: the member's text from the decompiled class, saying the sources lack it
        try:
            file, _keys, dec = decompiled_file(ctx, type_row, None)
        except JdxError as exc:
            raise NotFoundError(f"--around {around!r}: {absent.why}, and {exc.message}; try jdx body "
                                f"{format_type(type_row['id'])!r} --engine javap",
                                warnings=absent.warnings + [Warning_(getattr(exc, "code", "DECOMPILE_FAILED"),
                                                                     exc.message)]) from None
        return _answer(ctx, type_row, file, "decompiled", {"name": dec.engine, "version": dec.engine_version},
                       absent.warnings, lines, around, context, why=absent.why, line_map=dec.line_map)


def line_range(lines: str, total: int, display: str, decompiled: bool = False,
               line_map: dict | None = None) -> tuple[int, int]:
    """`--lines A:B` (or `A:`, `A`) within a file of `total` lines: (first, last), B capped at the end; A past the
    end is a usage error naming the file. Decompiled text's lines are not the class file's, which a stack trace
    names: the error says where the decompiler's line map puts class-file lines A..B."""
    a, b = parse_lines(lines)
    if a > total:
        if not decompiled:
            raise UsageError(f"--lines {lines}: {display} has {total} lines")
        wanted = range(a, (b if b is not None else a) + 1)
        mapped = sorted(k for k, of in (line_map or {}).items() if any(n in wanted for n in of))
        where = (f"class-file lines {a}-{wanted[-1]} (a stack trace's) are its lines {mapped[0]}-{mapped[-1]}: "
                 f"--lines {mapped[0]}:{mapped[-1]}") if mapped else \
            "a stack trace's line numbers are the class file's, not this text's (--around <member> finds a method)"
        raise UsageError(f"--lines {lines}: the decompiled {display} has {total} lines; {where}")
    return a, min(total, b if b is not None else total)


def _answer(ctx: SourceContext, type_row: dict, file: SourceFile, origin: str, engine: dict | None,
            warnings: list[Warning_], lines: str | None, around: str | None, context: int | None,
            why: str | None = None, line_map: dict | None = None):
    total = len(file.lines)
    target = None
    if lines:
        a, b = line_range(lines, total, file.display, decompiled=origin == "decompiled", line_map=line_map)
    elif around:
        a, b, target = _around(ctx, type_row, around, file, origin, line_map)
        n = DEFAULT_AROUND_CONTEXT if context is None else context
        a, b = max(1, a - n), min(total, b + n)
    else:
        a, b = 1, total
    art = ctx.artifact_name(type_row)
    if origin == "sources":
        header = f"source: {file.root.label} ({file.display}:{a}-{b})"
    elif origin == "javap":
        header = f"source: javap -c -p -l of {format_type(type_row['id'])} from {art}   ⚠ bytecode, not source"
    else:
        why = why or (no_sources_why(ctx, type_row) if any(w.code == "NO_SOURCES" for w in warnings)
                      else f"--engine {engine['name']}")
        header = f"source: decompiled by {engine['name']} {engine['version']} from {art} ({why})   {RECONSTRUCTED}"
    inherited = format_type(target.type_row["id"]) if target and target.type_row["id"] != type_row["id"] else None
    if inherited:  # `--around` a member the type inherits: the text is its declaring type's
        header += f"  ({target.ref.partition('#')[2]} inherited from {inherited})"
    result = {"ref": format_type(type_row["id"]), "artifact": art, "origin": origin, "header": header,
              "source": {"label": file.root.label if origin == "sources" else None, "how": file.root.how,
                         "file": file.display if origin == "sources" else file.rel, "lines": [a, b]},
              "engine": engine, "total_lines": total, "first_line": a, "text": file.lines[a - 1:b]}
    if inherited:
        result["inherited_from"] = inherited
    if origin == "decompiled":  # its line numbers are not the class file's, which a stack trace names
        result["source"]["lines_of"] = "decompiled text"
        failed = undecompiled_methods(file, a, b)
        if failed:  # bodies the engine replaced by its note and a throw
            warnings = warnings + [undecompiled_warning(engine["name"], failed, format_type(type_row["id"]), art)]
        if target is not None:  # the member's (a field's initializer has no line table of its own)
            where = None if target.is_field else member_lines(target.row)
        else:  # the whole file's, nested types' included
            where = class_file_lines(ctx, top_level(type_row["id"], outer_chain(ctx, type_row["id"]), type_row))
        if where is not None:
            result["source"]["class_file_lines"] = where
        if lines and line_map:  # `--lines A:B` picked decompiled lines: which class-file lines they hold, and
            result["source"].update(_slice_lines(a, b, line_map))  # where A..B would be as a trace's lines
    prov = {"symbol": result["ref"], "artifact": art, "origin": origin, "file": result["source"]["file"],
            "lines": [a, b]}
    for key in ("lines_of", "class_file_lines"):
        if key in result["source"]:
            prov[key] = result["source"][key]
    if origin == "sources":
        prov["sources"] = file.root.label
    return result, warnings, [prov]


def _slice_lines(a: int, b: int, line_map: dict) -> dict:
    """`class_file_slice`: the first and last class-file line decompiled lines a..b hold (the decompiler's line map),
    and, where lines a..b taken as a stack trace's (class-file) lines are elsewhere in the text, `as_trace_lines`:
    the `--lines` that shows those (an agent holding `RoaringBitmap.java:1167` asked for --lines 1160:1172)."""
    out: dict = {}
    held = sorted(n for k in range(a, b + 1) for n in line_map.get(k, ()))
    if held:
        out["class_file_slice"] = [held[0], held[-1]]
    wanted = range(a, b + 1)
    mapped = sorted(k for k, of in line_map.items() if any(n in wanted for n in of))
    if mapped and not a <= mapped[0] <= mapped[-1] <= b:
        out["as_trace_lines"] = {"lines": [a, b], "decompiled": [mapped[0], mapped[-1]]}
    return out


def member_lines(row: dict | None) -> list[int] | None:
    """[first, last] of a method's line table (what a stack trace names), None without one (a field, no debug
    information)."""
    first = (row or {}).get("first_line") or 0
    return [first, row.get("last_line") or first] if first > 0 else None


def class_file_lines(ctx: SourceContext, type_id: str) -> list[int] | None:
    """[first, last] over the line tables of the methods of `type_id` and of the types declared in it (its text
    holds theirs), None when none has one."""
    found = [n for _, row in _methods_within(ctx, type_id) for n in member_lines(row) or []]
    return [min(found), max(found)] if found else None


def _methods_within(ctx: SourceContext, type_id: str):
    """(type id, method row) of `type_id` and of the types declared in it, nested ones too."""
    todo, seen = [type_id], set()
    while todo:
        tid = todo.pop()
        if tid in seen:
            continue
        seen.add(tid)
        for r in ctx.store.rows_cached(queries.MEMBERS_OF, {"id": tid}):
            yield tid, {k[2:]: v for k, v in r.items()}
        todo += [r["id"] for r in ctx.store.rows_cached(queries.NESTED_TYPES_OF, {"id": tid})]


def source_window(ctx: SourceContext, type_id: str, line: int, context: int = 3) -> dict | None:
    """The lines `line - context … line + context` of the class `type_id` from its sources (no decompiling:
    a decompiled text does not keep the class file's line numbers), or None without sources.
    {label, file, lines: [a, b], first_line, focus, text}, with `mismatch` when the line table puts the line in
    another method and `stale` when the file was modified after the class was compiled (`stale_source`)."""
    type_row = ctx.type_row(type_id)
    if type_row is None or line is None or line < 1:
        return None
    found = source_file(ctx, type_row)
    if found is None:
        return None
    file = found[0]
    total = len(file.lines)
    if line > total:
        return None
    a, b = max(1, line - context), min(total, line + context)
    out = {"label": file.root.label, "file": file.display, "lines": [a, b], "first_line": a, "focus": line,
           "text": file.lines[a - 1:b]}
    drift = _line_drift_at(ctx, type_row, found, line)
    if drift is not None:
        out["mismatch"] = drift
    stale = stale_source(ctx, type_row, file)  # edited since compiling: the marked line need not be the site
    if stale:
        out["stale"] = stale[0].message
    return out


def _line_drift_at(ctx: SourceContext, type_row: dict, found: tuple[SourceFile, list[str]], line: int) -> str | None:
    """The SOURCES_VERSION_MISMATCH message when the method whose line table holds `line` (the narrowest) is
    declared elsewhere in the sources: the lines shown are not the ones compiled."""
    from jdx.engine import source_match as sm
    from jdx.engine.src_locate import Located, line_drift

    file, keys = found
    if file.is_kotlin:
        return None
    rows = [{k[2:]: v for k, v in r.items()} for r in ctx.store.rows_cached(queries.MEMBERS_OF, {"id": type_row["id"]})]
    around = sorted((r for r in rows if (r.get("first_line") or -1) > 0 and r["first_line"] <= line <= r["last_line"]
                     and not (r.get("access") or 0) & (sm.ACC_SYNTHETIC | sm.ACC_BRIDGE)),
                    key=lambda r: (r["last_line"] - r["first_line"], r["name"], r["descriptor"]))
    if not around:
        return None
    row = around[0]
    drift = line_drift(ctx, type_row, row, Located(file, keys, sm.match_method(file.parsed, row, type_row, keys,
                                                                              file.lines).decl))
    return drift.message if drift is not None else None
