"""`body` (spec §7.1, §16 degradation ladder): a member's or type's text, honestly labelled.

sources (ground truth) → decompiled (the decompiled class parsed like sources, the member's range taken)
→ javap (the JVM instructions) → signatures only. Each step down carries a named warning and a provenance
line that says what the text is: `source: gson-2.10-sources.jar (com/google/gson/Gson.java:412-430)`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from jdx.engine import source_match as sm
from jdx.engine.java_parse import Decl
from jdx.engine.members import ACC
from jdx.engine.refs import format_member, format_type
from jdx.engine.src_decompiled import decompiled_file
from jdx.engine.src_locate import (Located, SourceContext, SourceFile, locate_field, locate_method, locate_type,
                                   line_drift, mismatch_warnings, stale_source)
from jdx.engine.src_special import (ASSIGNED, METHOD_KINDS, UNDECOMPILED, is_lambda, kotlin_lambda_labelled,
                                    lambda_body, lines_of, static_value, static_without_constant, undecompiled,
                                    undecompiled_methods, undecompiled_warning, value_note, with_assignments)
from jdx.errors import JdxError, NotFoundError, UsageError, Warning_
from jdx.graph_schema import queries

ENGINES = ("javap", "vineflower", "procyon")
RECONSTRUCTED = "⚠ reconstructed"


@dataclass
class BodyOptions:
    engine: str | None = None  # None: the ladder; javap: bytecode; vineflower|procyon: force decompilation
    with_doc: bool = False
    with_signature: bool = False
    context: int = 0


@dataclass
class Target:
    """What `body` shows: a type (row None) or one member of `type_row`."""

    type_row: dict
    ref: str
    kind: str  # type kind word, method, constructor, initializer, field
    row: dict | None = None
    is_field: bool = False


def check_options(opts: BodyOptions) -> None:
    if opts.engine is not None and opts.engine not in ENGINES:
        raise UsageError(f"--engine {opts.engine!r}: use {', '.join(ENGINES)}")
    if opts.context < 0:
        raise UsageError("--context must be 0 or more")


def _span(decl: Decl, opts: BodyOptions, total: int) -> tuple[int, int]:
    start = decl.doc_start if opts.with_doc and decl.doc_start else decl.start
    return max(1, start - opts.context), min(total, decl.end + opts.context)


def cut(lines: list[str], decl: Decl, a: int, b: int) -> list[str]:
    """Lines a..b, where a first or last line shared with other code (`}};` closing an anonymous class,
    `int a; int b;`) is cut at the declaration's own columns; whole lines otherwise, verbatim."""
    out = lines[a - 1:b]
    if not out:
        return out
    if b == decl.end and decl.end_col >= 0:
        raw = out[-1].encode("utf-8")
        if raw[decl.end_col:].strip():
            out[-1] = raw[:decl.end_col].decode("utf-8", "replace")
    if a == decl.start and decl.start_col > 0:
        raw = out[0].encode("utf-8")
        if raw[:decl.start_col].strip():
            out[0] = " " * decl.start_col + raw[decl.start_col:].decode("utf-8", "replace")
    return out


def with_opening(decl: Decl) -> Decl:
    """An anonymous class's declaration from the expression that opens its body (`new Iterator<E>() {`), not
    from the bare `{`: the text then says what the class is, as an IDE shows it."""
    head = getattr(decl, "head_start", 0)  # Kotlin declarations have none
    return replace(decl, start=head, start_col=decl.head_col) if head and head <= decl.start else decl


def _opening_of(decl) -> dict:
    return {"head_start": getattr(decl, "head_start", 0), "head_col": getattr(decl, "head_col", 0)}


def enclosing(type_row: dict) -> dict | None:
    """Where a local or anonymous class is declared (its class file's EnclosingMethod / InnerClasses): {"role":
    "anonymous" | "local", "type", "method" (None when declared in an initializer)}; None for other types."""
    outer, method = type_row.get("outer"), type_row.get("outer_method") or ""
    # a local class declared in an initializer has no EnclosingMethod; javac's `Outer$1Local` name says it
    local = bool(type_row.get("inner_name")) and (bool(method) or type_row["id"].rsplit("$", 1)[-1][:1].isdigit())
    if not outer or (type_row.get("inner_name") and not local):
        return None
    ref = None
    if "(" in method:
        name, desc = method[:method.index("(")], method[method.index("("):]
        try:
            ref = format_member(outer, name, desc)
        except ValueError:  # an unreadable descriptor: the raw one rather than nothing
            ref = f"{format_type(outer)}#{method}"
    return {"role": "local" if type_row.get("inner_name") else "anonymous", "type": format_type(outer),
            "method": ref}


def _result(target: Target, artifact: str, origin: str, header: str, text: list[str], first_line: int | None,
            source: dict | None = None, engine: dict | None = None, implicit: str | None = None) -> dict:
    return {"ref": target.ref, "kind": target.kind, "declaring": format_type(target.type_row["id"]),
            "enclosing": enclosing(target.type_row) if target.row is None else None, "artifact": artifact, "origin": origin, "header": header, "source": source, "engine": engine,
            "implicit": implicit, "signature": None, "first_line": first_line, "text": text}


def _from_sources(target: Target, loc: Located, artifact: str, opts: BodyOptions) -> dict:
    file, decl = loc.file, loc.decl
    implicit = None
    if decl is None:  # compiler-written member: the declaring type's header stands in for it
        owner = _nearest_type(file.parsed, loc.keys)
        decl = with_opening(Decl("class", "", loc.keys, owner.start, owner.header_end, start_col=owner.start_col,
                                 **_opening_of(owner))) if owner \
            else Decl("class", "", loc.keys, 1, 1)
        implicit = loc.implicit
    elif target.row is None:
        decl = with_opening(decl)
    a, b = _span(decl, opts, len(file.lines))
    assigned = static_value(target, file, decl)
    header = f"source: {file.root.label} ({file.display}:{a}-{b})"
    if assigned:
        header += f"  ({value_note(assigned)})"
    elif implicit:
        header += f"  (implicit: {implicit}; no source text, the declaring type's header shown)"
    elif decl.kind == sm.RECORD_COMPONENT:
        header += (f"  (record component {decl.name}: the record header declares this private final field and its "
                   f"accessor {decl.name}())")
    source = {"label": file.root.label, "how": file.root.how, "file": file.display, "lines": [a, b]}
    result = with_assignments(_result(target, artifact, "sources", header, cut(file.lines, decl, a, b), a, source,
                                       implicit=implicit), file, assigned)
    if decl.kind == sm.RECORD_COMPONENT:
        result["declared_by"] = "record component"
    return result


def clinit_parts(ctx: SourceContext, target: Target, loc: Located | None) -> list[tuple[str, Decl]]:
    """What a Java `<clinit>` runs, in source order (JLS §12.4.2): each `static {}` block, each static field
    initializer whose value is no ConstantValue (those the JVM sets without code), each enum constant; as
    (label, declaration), one declaration per line range. Empty for other members."""
    if (target.row is None or target.is_field or target.row["name"] != "<clinit>" or loc is None
            or loc.file.is_kotlin):
        return []
    constants = {r["f.name"] for r in ctx.store.rows_cached(queries.FIELDS_OF, {"id": target.type_row["id"]})
                 if r.get("f.constant") is not None}
    parts: list[tuple[str, Decl]] = []
    for d in loc.file.parsed.decls:
        if d.path != loc.keys:
            continue
        if d.kind == "static_initializer":
            label = "static initializer block"
        elif d.kind == "field" and getattr(d, "static_init", False) and d.name not in constants:
            label = f"static field initializer: {d.name}"
        elif d.kind == "enum_constant":
            label = f"enum constant: {d.name}"
        else:
            continue
        if parts and (parts[-1][1].start, parts[-1][1].end) == (d.start, d.end) and d.kind != "static_initializer":
            parts[-1] = (parts[-1][0] + ", " + d.name, parts[-1][1])  # `static int a = f(), b = g();`
            continue
        parts.append((label, d))
    return parts


def _clinit_from_sources(target: Target, loc: Located, artifact: str, parts: list[tuple[str, Decl]]) -> dict:
    """A `<clinit>` whose code comes from several places of the class (or only from field initializers):
    each part under a `// <what>, lines a-b` line, in source order, the lines the class file's table names."""
    file = loc.file
    text: list[str] = []
    for label, d in parts:
        text.append(f"// {label}, {lines_of(d)}")
        text.extend(cut(file.lines, d, d.start, d.end))
    a, b = parts[0][1].start, parts[-1][1].end
    header = (f"source: {file.root.label} ({file.display}:{a}-{b})  (static initialization: {len(parts)} "
              f"part{'s' if len(parts) != 1 else ''} in source order, each labelled with its lines)")
    source = {"label": file.root.label, "how": file.root.how, "file": file.display, "lines": [a, b],
              "parts": [{"what": label, "lines": [d.start, d.end]} for label, d in parts]}
    # no `static {}` written: still compiler-assembled (`implicit` says from what), but with source text
    return _result(target, artifact, "sources", header, text, None, source, implicit=loc.implicit)


def _nearest_type(parsed, keys: list[str]) -> Decl | None:
    """The type declaration for `keys`, else its nearest enclosing one (decompilers inline anonymous classes)."""
    for n in range(len(keys), 0, -1):
        found = next((d for d in parsed.types() if d.path == keys[:n]), None)
        if found is not None:
            return found
    return None


def _from_decompiler(ctx: SourceContext, target: Target, artifact: str, opts: BodyOptions, why: str,
                     warnings: list[Warning_]) -> dict:
    file, keys, dec = decompiled_file(ctx, target.type_row, opts.engine)
    implicit = None
    if target.row is None:
        decl = next((with_opening(d) for d in file.parsed.types() if d.path == keys), None)
    elif target.is_field:
        decl = sm.match_field(file.parsed, target.row["name"], keys)
    else:
        match = sm.match_method(file.parsed, dict(target.row, first_line=-1, last_line=-1), target.type_row, keys,
                                file.lines)
        decl, implicit = match.decl, match.implicit
        if match.ambiguous:  # rather than another overload's text: the next rung, exact
            raise JdxError(f"{dec.engine}'s text of {format_type(target.type_row['id'])}: "
                           f"{sm.ambiguous_why(match.ambiguous, target.ref)}")
    if decl is None:
        owner = _nearest_type(file.parsed, keys)
        if implicit and _default_stub(target):  # its code holds the default values: the next rung has it
            raise JdxError(f"{dec.engine}'s text of {format_type(target.type_row['id'])} leaves out {target.ref}, "
                           f"kotlinc's stub filling in the default arguments (its code holds the default values)")
        if implicit and _kotlin_declared(ctx, target):  # not compiler-written: the next rung has its code
            raise JdxError(f"{dec.engine}'s text of {format_type(target.type_row['id'])} leaves out {target.ref}, a "
                           f"synthetic method (kotlinc's for a reified inline or @JvmSynthetic function) the class "
                           f"does not call")
        if implicit and owner is not None:  # compiler-written: the type's header line stands in for it
            decl = with_opening(Decl("class", "", owner.path, owner.start, owner.header_end,
                                     start_col=owner.start_col, **_opening_of(owner)))
            why += f"; implicit: {implicit}, no source text, the declaring type's header shown"
        else:  # rather than a whole enclosing class: the next rung, precise for this member
            n = file.parsed.errors  # (Procyon's text of a pattern switch is no Java: the parse lost the method)
            unparsed = f" (it is not valid Java: {n} region{'s' * (n != 1)} tree-sitter could not parse)" if n else ""
            raise JdxError(f"{dec.engine}'s text of {format_type(target.type_row['id'])} has no recognisable "
                           f"declaration of {target.ref}{unparsed}")
    if target.row is not None and decl.kind in METHOD_KINDS and undecompiled(file.lines, decl):
        # Procyon's note and a throw stand where the code should be: the next rung has the code
        raise JdxError(f"{dec.engine} {dec.engine_version} could not decompile {target.ref} (its text is the "
                       f"engine's note '{UNDECOMPILED}' and a throw, not the method's code)")
    a, b = _span(decl, opts, len(file.lines))
    assigned = static_value(target, file, decl) if target.is_field else []
    note = f"; {value_note(assigned, decompiled=True)}" if assigned else ""
    header = f"source: decompiled by {dec.engine} {dec.engine_version} from {artifact} ({why}{note})   {RECONSTRUCTED}"
    failed = undecompiled_methods(file, a, b, decl)
    if failed:  # a type's text holding methods the engine could not decompile
        warnings.append(undecompiled_warning(dec.engine, failed, format_type(target.type_row["id"]), artifact))
    engine = {"name": dec.engine, "version": dec.engine_version}
    source = {"label": None, "how": "decompiled", "file": file.rel, "lines": [a, b], "lines_of": "decompiled text"}
    from jdx.engine.src_source import class_file_lines, member_lines

    where = member_lines(target.row) if target.row is not None else class_file_lines(ctx, target.type_row["id"])
    if where is not None:  # what a stack trace names
        source["class_file_lines"] = where
    # what the loader knows to be wrong in the decompiled text and could not correct (DECOMPILED_*)
    warnings += [Warning_(w.code, w.message, artifact) for w in getattr(dec, "warnings", ())]
    result = _result(target, artifact, "decompiled", header, cut(file.lines, decl, a, b), a, source, engine,
                     implicit=implicit if decl.kind == "class" and implicit else None)
    return with_assignments(result, file, assigned)


def _from_javap(ctx: SourceContext, target: Target, artifact: str, why: str) -> dict:
    from jdx.engine.bytecode_view import javap_member, static_value_code

    art = ctx.artifacts[target.type_row["artifact"]]
    name = target.row["name"] if target.row is not None else None  # a field's block too: its flags and constant
    desc = target.row["descriptor"] if name is not None else None
    text = javap_member(ctx.jvm, ctx.cache, art.kind, art.path, target.type_row["id"], name, desc).splitlines()
    code = static_value_code(ctx.jvm, ctx.cache, art.kind, art.path, target.type_row["id"], target.row["name"],
                             target.row["descriptor"]) if static_without_constant(target) else []
    if code:  # javap's lines from the first instruction of the field's value to its putstatic
        where = f"static {{}} instructions {code[0].split(':', 1)[0].strip()}-{code[-1].split(':', 1)[0].strip()}"
        why += f"; its value: {ASSIGNED}, {where}"
        text += ["", f"  // {ASSIGNED}: {where}, from after the previous putstatic through this field's",
                 "  static {};", "    Code:", *code]
    header = f"source: javap -c -p -l of {target.ref if name is not None else format_type(target.type_row['id'])} " \
             f"from {artifact} ({why})   ⚠ bytecode, not source"
    result = _result(target, artifact, "javap", header, text, None, engine={"name": "javap", "version": None})
    return dict(result, assigned_in="static initializer") if code else result


def _signature_only(ctx: SourceContext, target: Target, artifact: str, why: str) -> dict:
    from jdx.engine.cards import declaration, render_member

    if target.row is None:
        text = [declaration(target.type_row)]
    else:
        iface = target.type_row.get("kind") in ("interface", "annotation")
        text = [render_member(target.row, is_field=target.is_field, owner=target.type_row["id"], env={},
                              iface=iface)["text"]]
    header = f"source: signatures only, from the bytecode of {artifact} ({why})   ⚠ no body"
    return _result(target, artifact, "signature", header, text, None)


def parse_error_warning(file: SourceFile, ref: str, artifact: str) -> Warning_:
    """SOURCE_PARSE_ERROR: a source file tree-sitter could not fully parse, and the member was not found in it."""
    n = file.parsed.errors
    return Warning_("SOURCE_PARSE_ERROR", f"{file.root.label} ({file.display}): {n} region{'s' if n != 1 else ''} "
                    f"tree-sitter could not parse; {ref} was not found in what did parse", artifact)


def _default_stub(target: Target) -> bool:
    """Whether the member is a Kotlin class's `name$default`: kotlinc's stub that fills in a function's default
    arguments, the only place a binary-only jar keeps their values."""
    return target.row is not None and target.row["name"].endswith("$default") and bool(target.type_row.get("kotlin"))


def _kotlin_declared(ctx: SourceContext, target: Target) -> bool:
    """Whether a synthetic JVM member is a Kotlin function's or accessor's own (its @kotlin.Metadata says so):
    kotlinc 2 makes a reified inline function's method synthetic, @JvmSynthetic any; the code is hand-written."""
    from jdx.engine.kotlin_view import member_kotlin

    if target.row is None or target.is_field or not target.type_row.get("kotlin"):
        return False
    rows = member_kotlin(ctx.store, [target.row["id"]]).get(target.row["id"]) or ()
    return any(r["role"] in ("method", "getter", "setter") for r in rows)


def _sources_missing_why(ctx: SourceContext, target: Target) -> str:
    source_name = target.type_row.get("source_file") or ""
    if source_name and not source_name.endswith((".java", ".kt")):
        return f"its source file {source_name} is neither Java nor Kotlin (only .java and .kt sources are read)"
    roots = ctx.roots_for(target.type_row.get("artifact") or "")
    # a source directory is given by --src or found in the discovered project (src/main/java): name it as such
    looked = sorted({"the source directories" if r.how == "--src" else r.how for r in roots} - {"embedded"})
    return "no sources" + (f"; looked in {', '.join(looked)}" if looked else "")


def _lacks_why(target: Target, loc: Located) -> str:
    """Why a Java source file has no text of a member: it lacks the member, or the whole named type (a class file a
    rename left behind: `Outer$Entry.class` after `Entry` became `Slot`)."""
    if not sm.numbered(loc.keys) and not any(d.path == loc.keys for d in loc.file.parsed.types()):
        return f"{loc.file.display} declares no {format_type(target.type_row['id'])}"
    return f"{loc.file.root.label} lacks it"


def body(ctx: SourceContext, target: Target, opts: BodyOptions) -> tuple[dict, list[Warning_], list[dict]]:
    """The ladder. Returns (result, warnings, provenance)."""
    check_options(opts)
    artifact = ctx.artifact_name(target.type_row)
    warnings: list[Warning_] = []
    why = f"as asked: --engine {opts.engine}" if opts.engine is not None else "no sources jar"
    synthetic = target.row is not None and (target.row.get("access") or 0) & (sm.ACC_SYNTHETIC | sm.ACC_BRIDGE)
    if synthetic and (_default_stub(target) or _kotlin_declared(ctx, target)):
        synthetic = False  # a default-arguments stub, a reified inline or @JvmSynthetic function: written in Kotlin
    if synthetic and opts.engine is None and is_lambda(target.row):
        found = lambda_body(ctx, target, artifact, opts, warnings)
        if found is not None:
            return _finish(ctx, target, found, warnings, opts)
    if synthetic and opts.engine is None:
        opts = BodyOptions("javap", opts.with_doc, opts.with_signature, opts.context)
        why = "compiler-generated, no source text"
    if opts.engine is None:
        loc = _locate(ctx, target)
        if loc is not None and (loc.decl is not None or loc.implicit):
            warnings += mismatch_warnings(ctx, loc.owner or target.type_row, loc.file, loc.keys)
            drift = line_drift(ctx, loc.owner or target.type_row, None if target.is_field else target.row, loc)
            if drift is not None:
                warnings.append(drift)
            if loc.note:  # Kotlin: found by name, but the line table points elsewhere
                warnings.append(Warning_("SOURCES_VERSION_MISMATCH", f"{artifact} compiled {target.ref} from other "
                                         f"lines than {loc.file.root.label} ({loc.file.display}) has: {loc.note}. "
                                         "Structure shown from bytecode.", artifact))
            parts = clinit_parts(ctx, target, loc)
            result = (_clinit_from_sources(target, loc, artifact, parts) if len(parts) > 1 or
                      (parts and loc.decl is None) else _from_sources(target, loc, artifact, opts))
            result = kotlin_lambda_labelled(ctx, target, result)
            return _finish(ctx, target, result, warnings, opts)
        part = _facade_part(ctx, target) if loc is None else None
        if part is not None:  # a multi-file facade's copy: its part's method has the code
            result, more, provenance = body(ctx, part, opts)
            result["delegated_from"] = target.ref
            return result, more, provenance
        if loc is None:
            warnings.append(Warning_("NO_SOURCES", f"{format_type(target.type_row['id'])}: "
                                     f"{_sources_missing_why(ctx, target)}; reconstructing from bytecode", artifact))
        elif loc.ambiguous:  # the sources have it, but not so that it can be told from its other overloads
            why = f"{loc.file.root.label} ({loc.file.display}): {sm.ambiguous_why(loc.ambiguous, target.ref)}"
        elif loc.file.parsed.errors:  # not found, maybe because of the syntax errors: no mismatch is claimed
            if not loc.file.is_kotlin:
                warnings += stale_source(ctx, target.type_row, loc.file)
            warnings.append(parse_error_warning(loc.file, target.ref, artifact))
            why = f"{loc.file.root.label}: {loc.file.display} did not parse"
        elif loc.file.is_kotlin:
            missing = [dict(target.row, ref=target.ref)] if target.row is not None else []
            notes = {target.row["name"] + target.row["descriptor"]: loc.note} if target.row and loc.note else None
            warnings += mismatch_warnings(ctx, loc.owner or target.type_row, loc.file, loc.keys, missing, notes)
            why = f"{loc.file.root.label} lacks it"
        else:
            missing = [target.row] if target.row is not None and not target.is_field else []
            warnings += mismatch_warnings(ctx, target.type_row, loc.file, loc.keys, missing)
            if target.is_field:
                warnings.append(Warning_("SOURCES_VERSION_MISMATCH",
                                         f"{artifact} declares {target.ref} which is absent from "
                                         f"{loc.file.root.label}. Structure shown from bytecode.", artifact))
            why = _lacks_why(target, loc)
    if opts.engine in (None, "vineflower", "procyon"):
        try:
            return _finish(ctx, target, _from_decompiler(ctx, target, artifact, opts, why, warnings), warnings, opts)
        except JdxError as exc:
            code = getattr(exc, "code", "DECOMPILE_FAILED")
            if code == "DECOMPILER_UNAVAILABLE" and opts.engine is not None:
                # the engine asked for is missing: say so and use the next one that exists
                warnings.append(Warning_("DECOMPILER_UNAVAILABLE", f"--engine {opts.engine}: {opts.engine} is not "
                                         "installed; using the next decompiler that exists", artifact))
                auto = BodyOptions(None, opts.with_doc, opts.with_signature, opts.context)
                try:
                    why = f"{opts.engine} is not installed"
                    return _finish(ctx, target, _from_decompiler(ctx, target, artifact, auto, why, warnings),
                                   warnings, opts)
                except JdxError as again:
                    exc, code = again, getattr(again, "code", "DECOMPILE_FAILED")
            warnings.append(Warning_(code if code.startswith("DECOMPILE") else "DECOMPILE_FAILED",
                                     exc.message + "; falling back to javap", artifact))
            if opts.engine is not None:  # not what was asked: the header says the engine failed, not "as asked"
                said = code if code.startswith("DECOMPILE") else "DECOMPILE_FAILED"
                why = f"--engine {opts.engine} failed ({said} says why)" if code != "DECOMPILER_UNAVAILABLE" \
                    else f"--engine {opts.engine}: no decompiler installed"
    try:
        return _finish(ctx, target, _from_javap(ctx, target, artifact, why), warnings, opts)
    except Exception as exc:  # noqa: BLE001 - javap is a fallback; its failure is a warning, not a crash
        message = getattr(exc, "message", None) or f"{type(exc).__name__}: {exc}"
        warnings.append(Warning_("JAVAP_FAILED", f"{message.splitlines()[0] if message else 'javap failed'}; "
                                 f"signatures only", artifact))
    codes = {w.code for w in warnings}  # what was tried, and how it ended: javap failed by now
    decompiler = ("the decompiler failed" if codes & {"DECOMPILE_FAILED", "DECOMPILE_TIMEOUT"}
                  else "no decompiler installed" if "DECOMPILER_UNAVAILABLE" in codes
                  else "not decompiled (--engine javap)" if opts.engine == "javap" else "not decompiled")
    warnings.append(Warning_("SIGNATURES_ONLY", f"{target.ref}: no sources, {decompiler}, javap failed; "
                             f"the signature from bytecode is all there is", artifact))
    return _finish(ctx, target, _signature_only(ctx, target, artifact, why), warnings, opts)


MULTIFILE_FACADE = 4  # @kotlin.Metadata kind of a multi-file class facade (`BuildersKt` of Builders.common.kt, ...)


def _facade_part(ctx: SourceContext, target: Target) -> Target | None:
    """The part's method a Kotlin multi-file facade's copy delegates to (`BuildersKt#launch` only calls
    `BuildersKt__Builders_commonKt#launch`, of the same name and descriptor): without sources, the copy's decompiled
    text is that one call, and the code an agent asks for is the part's."""
    import json

    if target.row is None or target.is_field or not target.type_row.get("kotlin"):
        return None
    try:
        if json.loads(target.type_row["kotlin"]).get("k") != MULTIFILE_FACADE:
            return None
    except (ValueError, AttributeError):
        return None
    from jdx.engine.relations import rows_by_ids
    from jdx.graph_schema import queries_graph as qg

    own = target.row["name"] + target.row["descriptor"]
    parts = {r["t_id"].partition("#")[0] for r in rows_by_ids(ctx.store, qg.CALLS_FROM, [target.row["id"]])
             if r["t_id"].partition("#")[2] == own and not r["t_external"]}
    if len(parts) != 1:
        return None
    owner = parts.pop()
    return member_target(ctx, {"declaring": owner, "row": {"name": target.row["name"],
                                                         "descriptor": target.row["descriptor"]},
                               "is_field": False, "kind": target.kind})


def _locate(ctx: SourceContext, target: Target) -> Located | None:
    if target.row is None:
        return locate_type(ctx, target.type_row)
    if target.is_field:
        return locate_field(ctx, target.type_row, target.row["name"], target.row)
    return locate_method(ctx, target.type_row, target.row)


def _finish(ctx: SourceContext, target: Target, result: dict, warnings: list[Warning_], opts: BodyOptions):
    if opts.with_signature and target.row is not None:
        from jdx.engine.cards import render_member

        iface = target.type_row.get("kind") in ("interface", "annotation")
        result["signature"] = render_member(target.row, is_field=target.is_field, owner=target.type_row["id"],
                                            env={}, iface=iface)["text"]
    bodiless = _bodiless(target)
    if bodiless:  # the class file holds no Code for it: say so, whatever text stands for the declaration
        result["no_body"] = bodiless
    if bodiless == "annotation_element" and target.row.get("annotation_default") is not None:
        result["annotation_default"] = target.row["annotation_default"]
    result["next"] = next_step(ctx, target, result)
    prov = {"symbol": target.ref, "artifact": result["artifact"], "origin": result["origin"]}
    src = result.get("source")
    if src and src.get("lines"):
        prov["file"] = src["file"]
        prov["lines"] = src["lines"]
        for key in ("lines_of", "class_file_lines"):  # a decompiled text's lines are not the original file's
            if src.get(key):
                prov[key] = src[key]
        if src.get("label"):
            prov["sources"] = src["label"]
    if result.get("engine"):
        prov["engine"] = result["engine"]["name"]
    return result, warnings, [prov]


def _bodiless(target: Target) -> str | None:
    """`native`, `abstract` or `annotation_element` (an abstract method of an `@interface`: no implementations,
    a value where it is used) for a method whose class file has no Code attribute (JVMS §4.7.3), else None."""
    if target.row is None or target.is_field:
        return None
    access = target.row.get("access") or 0
    if access & ACC["abstract"] and target.type_row.get("kind") == "annotation":
        return "annotation_element"
    return "native" if access & ACC["native"] else "abstract" if access & ACC["abstract"] else None


def next_step(ctx: SourceContext, target: Target, result: dict) -> str | None:
    """The `next:` line (spec Appendix A): after a decompiled or bytecode text, the exact bytecode or the
    source; after a method's source, the body of the first method of its own artifact that it calls. A method
    without code has no bytecode to show: its implementations (abstract), or who calls it (native)."""
    import shlex

    ref = shlex.quote(target.ref)
    bodiless = _bodiless(target)
    if bodiless == "abstract":
        return f"jdx overrides {ref}   (its implementations)"
    if bodiless == "annotation_element":
        return f"jdx usages {shlex.quote(format_type(target.type_row['id']))}   (where the annotation is used)"
    if bodiless == "native":
        return f"jdx callers {ref}"
    if result["origin"] == "decompiled":
        return f"jdx body {ref} --engine javap   (exact bytecode)"
    if result["origin"] in ("javap", "signature"):
        return f"jdx doc {ref}"
    if target.row is None or target.is_field or target.row["name"] == "<clinit>":  # nobody calls <clinit>
        return f"jdx outline {shlex.quote(format_type(target.type_row['id']))}"
    from jdx.engine.relations import rows_by_ids
    from jdx.graph_schema import queries_graph as qg

    calls = sorted(rows_by_ids(ctx.store, qg.CALLS_FROM, [target.row["id"]]), key=lambda r: (r["line"] or 0, r["t_id"]))
    for r in calls:
        owner, _, rest = r["t_id"].partition("#")
        name = rest.split("(", 1)[0]
        if (r["t_artifact"] == target.type_row.get("artifact") and not r["t_external"] and r["kind"] != "handle"
                and not name.startswith(("<", "lambda$", "access$")) and not (r["t_access"] or 0) & 0x1000):
            return f"jdx body {shlex.quote(format_member(owner, name, rest[len(name):]))}"
    return f"jdx callers {ref}"


def member_target(ctx: SourceContext, entry: dict) -> Target:
    """A `member_resolve` entry as a body target, with the full graph row (line numbers included)."""
    owner = entry["declaring"]
    type_row = ctx.type_row(owner) or dict(entry.get("type_row") or {}, id=owner)
    row = dict(entry["row"])
    if not entry["is_field"]:
        for r in ctx.store.rows_cached(queries.MEMBERS_OF, {"id": owner}):
            if r["m.name"] == row["name"] and r["m.descriptor"] == row["descriptor"]:
                row = {k[2:]: v for k, v in r.items()}
                break
    else:
        for r in ctx.store.rows_cached(queries.FIELDS_OF, {"id": owner}):
            if r["f.name"] == row["name"] and r["f.descriptor"] == row["descriptor"]:
                row = {k[2:]: v for k, v in r.items()}
                break
    return Target(type_row, entry.get("ref") or format_member(owner, row["name"], row["descriptor"],
                                                              is_field=entry["is_field"]),
                  entry["kind"], row, entry["is_field"])


def resolve_symbol(store, text: str, require_one: bool):
    """("type", Type row) or ("member", member_resolve.Lookup) for a type or member reference. A dotted
    `a.b.C.name` is a type when such a type exists, else a member; a miss names the more useful failure
    (the member reading's when its type part is capitalised like a type, the type's otherwise)."""
    from jdx.engine.member_resolve import lookup
    from jdx.engine.refs import parse_ref
    from jdx.engine.resolve import resolve_type

    ref = parse_ref(text)
    if ref.member is not None and not ref.ambiguous_dot:
        return "member", lookup(store, text, require_one=require_one, include_hidden=True)
    try:
        return "type", resolve_type(store, text)
    except NotFoundError as type_miss:
        readings = ref.alternatives()
        try:  # a bare `launch`: a Kotlin top-level name
            return "member", lookup(store, text, require_one=require_one, include_hidden=True)
        except NotFoundError:
            if len(readings) > 1 and readings[1].type_name.rsplit(".", 1)[-1][:1].isupper():
                raise  # `Type.member` with a typo in either part: the member reading's candidates
            raise type_miss from None  # `pkg.Type`, `Type`: the type's did-you-mean


def type_target(type_row: dict) -> Target:
    return Target(type_row, format_type(type_row["id"]), type_row.get("kind") or "class")
