"""Sources and bodies (spec §7.1, §11): body, source, doc. Every answer says where its text came from."""

from __future__ import annotations

from dataclasses import dataclass

from jdx.commands.registry import Command, Request, argument, option
from jdx.errors import AmbiguousError, NotFoundError, UsageError

ENGINES = ("javap", "vineflower", "procyon")


@dataclass(frozen=True)
class BodyRequest(Request):
    query: str = argument("a member or type, e.g. 'java.util.HashMap#get(Object)'", "SYMBOL")
    brief: bool = option(False, "--brief", "the text alone: no `source:` line, no headers, no next step")
    engine: str | None = option(None, "--engine", "read it with this engine (default: sources, else "
                                "decompiled, else javap)", kind="str", accepts=ENGINES)
    with_doc: bool = option(False, "--with-doc", "include the javadoc or KDoc comment above the declaration")
    with_signature: bool = option(False, "--with-signature", "print the signature from bytecode first")
    context: int = option(0, "--context", "N surrounding lines", minimum=0)
    line_numbers: bool = option(False, "--line-numbers", "prefix each line with its line number")

    def validate(self) -> None:
        _check_engine(self.engine)


def _check_engine(engine: str | None) -> None:
    if engine is not None and engine.lower() not in ENGINES:
        raise UsageError(f"--engine {engine!r}: use {', '.join(ENGINES)}")


def run_body(session, req: BodyRequest):
    from jdx.engine import src_body

    opts = src_body.BodyOptions(engine=req.engine.lower() if req.engine else None, with_doc=req.with_doc,
                                with_signature=req.with_signature, context=req.context)
    return body_answer(session, req.query, opts)


def body_answer(session, text: str, opts=None):
    """A member's (or a whole type's) text: sources, else decompiled, else javap, else signatures; labelled."""
    from jdx.engine import src_body
    from jdx.engine.answer import Answer

    opts = opts or src_body.BodyOptions()
    src_body.check_options(opts)
    ctx = session.source_context()
    try:
        kind, found = src_body.resolve_symbol(ctx.store, text, require_one=True)
    except AmbiguousError:  # a Kotlin function's @JvmOverloads copies: one declaration, one source text
        from dataclasses import replace

        from jdx.engine.kotlin_view import one_declaration_member

        _, many = src_body.resolve_symbol(ctx.store, text, require_one=False)
        one = one_declaration_member(ctx.store, many.members) if hasattr(many, "members") else None
        if one is None:
            raise
        kind, found = "member", replace(many, members=[one])
    except NotFoundError as exc:
        return _from_source_file(exc, opts.engine, lambda unbuilt: unbuilt.body(ctx, text, opts))
    target = src_body.type_target(found) if kind == "type" else src_body.member_target(ctx, found.members[0])
    result, warnings, provenance = src_body.body(ctx, target, opts)
    result["next"] = _answerable_next(ctx, target, result.get("next"))
    _name_source_dir(session, ctx, result, provenance)
    return Answer(result, warnings, provenance=provenance)


def _source_dir(session, ctx, source: dict | None) -> str | None:
    """Where a file read from a source directory is (`src/main/java`, `app/src/main/java`: relative to the project
    when inside it, else the absolute path), so it can be opened; None for archives (a sources jar, src.zip, named
    by their file name) and for text not read from sources."""
    import os

    from jdx.engine.sources import source_roots

    # doc's sources carry no `how`: a directory root is then told by its label and the file it holds
    if not source or source.get("how", "--src") not in ("--src", "--sources") or not source.get("label"):
        return None
    for root in source_roots("dir", "", "", ctx.explicit, ctx.src_dirs):
        if root.kind == "dir" and root.label == source["label"] and \
                os.path.isfile(os.path.join(root.path, source["file"])):
            project = session.selection().spec.project
            base = os.path.realpath(project) if project else ""
            inside = bool(base) and (root.path == base or root.path.startswith(base.rstrip(os.sep) + os.sep))
            return os.path.relpath(root.path, base).replace(os.sep, "/") if inside else root.path
    return None


def _name_source_dir(session, ctx, result: dict, provenance: list[dict]) -> None:
    """A `body` or `source` answer read from a source directory names the directory (`root`) in its `source:`
    line, its `source` and its provenance, instead of the directory's last name alone."""
    source = result.get("source")
    where = _source_dir(session, ctx, source) if result.get("origin") == "sources" else None
    if where is None:
        return
    label = f"source: {source['label']} ("
    if result["header"].startswith(label):
        result["header"] = f"source: {where} (" + result["header"][len(label):]
    source["root"] = where
    for p in provenance:
        if p.get("origin") == "sources" and p.get("sources") == source["label"] and p.get("file") == source["file"]:
            p["root"] = where


def _answerable_next(ctx, target, step: str | None) -> str | None:
    """`next: jdx doc …` only when the type's source file is found (where its javadoc is); else a step that answers
    from bytecode: every overload's signature with parameter names for a member, the outline for a type."""
    import shlex

    from jdx.engine.refs import format_type
    from jdx.engine.src_locate import locate_type

    if not (step or "").startswith("jdx doc ") or locate_type(ctx, target.type_row) is not None:
        return step
    if target.row is None:
        return f"jdx outline {shlex.quote(format_type(target.type_row['id']))}"
    return f"jdx signature {shlex.quote(target.ref)}"


def _render_code(result: dict, req) -> list[str]:
    from jdx.render import source

    return source.code(result, req.line_numbers, req.max_lines, brief=bool(getattr(req, "brief", False)))


def _render_body(result: dict, req) -> list[str]:
    from jdx.render import source

    return source.body(result, req.line_numbers, req.max_lines, brief=bool(getattr(req, "brief", False)))


def _code_cut(result: dict, req):
    from jdx.render import source

    return source.truncation(result, req.max_lines)


@dataclass(frozen=True)
class SourceRequest(Request):
    query: str = argument("a type reference, e.g. java.util.HashMap", "TYPE")
    brief: bool = option(False, "--brief", "the text alone: no `source:` line, no headers, no next step")
    lines: str | None = option(None, "--lines", "A:B or A-B, e.g. 100:180", kind="str")
    around: str | None = option(None, "--around", "a member of the type, e.g. 'get(Object)'", kind="str")
    context: int | None = option(None, "--context", "lines shown either side of the --around match (default 10)",
                                 kind="int")
    engine: str | None = option(None, "--engine", "read it with this engine (default: sources, else "
                                "decompiled)", kind="str", accepts=ENGINES)
    line_numbers: bool = option(False, "--line-numbers", "prefix each line with its line number")

    def validate(self) -> None:
        if self.context is not None and not self.around:
            raise UsageError("--context goes with --around <member>")
        _check_engine(self.engine)
        if self.lines is not None:
            from jdx.engine.src_source import parse_lines

            parse_lines(self.lines)


def run_source(session, req: SourceRequest):
    return source_answer(session, req.query, req.lines, req.around, req.context,
                         req.engine.lower() if req.engine else None)


def source_answer(session, text: str, lines: str | None = None, around: str | None = None,
                  context: int | None = None, engine: str | None = None):
    """The source file of a type, or a slice of it (`--lines A:B`, `--around <member> --context N`)."""
    from jdx.engine import src_source
    from jdx.engine.answer import Answer
    from jdx.engine.src_source import resolve_source_type

    ctx = session.source_context()
    try:
        type_row = resolve_source_type(ctx.store, text)
    except NotFoundError as exc:
        return _from_source_file(exc, engine, lambda unbuilt: unbuilt.source(ctx, text, lines, around, context))
    result, warnings, provenance = src_source.source(ctx, type_row, lines, around, context, engine)
    _name_source_dir(session, ctx, result, provenance)
    return Answer(result, warnings, provenance=provenance)


@dataclass(frozen=True)
class DocRequest(Request):
    query: str = argument("a type or member, e.g. 'java.util.ArrayList#add(Object)'", "SYMBOL")
    brief: bool = option(False, "--brief", "the text alone: no `source:` line, no headers, no next step")
    inherited: bool = option(True, "--inherited", "take javadoc from the nearest documented supertype method "
                             "(default)", negative="--no-inherited")
    raw: bool = option(False, "--raw", "print the comment as written")


def run_doc(session, req: DocRequest):
    from jdx.engine import src_doc

    return doc_answer(session, req.query, src_doc.DocOptions(inherited=req.inherited, raw=req.raw))


def doc_answer(session, text: str, opts=None):
    """Javadoc or KDoc as plain text; inherited from the nearest documented supertype method, labelled; KDoc
    `[links]` resolved to canonical references."""
    from jdx.engine import src_doc
    from jdx.engine.answer import Answer

    ctx, opts = session.source_context(), opts or src_doc.DocOptions()
    try:
        result, warnings, provenance = src_doc.doc(ctx, text, opts)
    except NotFoundError as exc:
        return _from_source_file(exc, None, lambda unbuilt: unbuilt.doc(ctx, text, opts))
    for it in result["docs"]:
        for key in ("source", "inherited_source"):
            where = _source_dir(session, ctx, it.get(key))
            if where is not None:
                it[key]["root"] = where
                for p in provenance:
                    if p.get("sources") == it[key]["label"] and p.get("file") == it[key]["file"]:
                        p["root"] = where
    return Answer(result, warnings, provenance=provenance)


def _from_source_file(miss: NotFoundError, engine: str | None, read):
    """A type not in the graph that a source directory declares (a module not built): `read(unbuilt_sources)`'s
    answer from that file; any other miss, or an --engine that needs a class file, stays `miss`."""
    from jdx.engine import unbuilt_sources
    from jdx.engine.answer import Answer

    if not unbuilt_sources.explained(miss) or engine is not None:
        raise miss
    result, warnings, provenance = read(unbuilt_sources)
    return Answer(result, warnings, provenance=provenance)


def _render_doc(result: dict, req: DocRequest) -> list[str]:
    from jdx.render import source

    return source.doc(result, req.raw, req.max_lines, brief=bool(getattr(req, "brief", False)))


def _doc_cut(result: dict, req: DocRequest):
    from jdx.render import source

    return source.doc_truncation(result, req.raw, req.max_lines, brief=bool(getattr(req, "brief", False)))


COMMANDS = (
    Command("body", "The body of a member (or a whole type), labelled with where it came from.",
            "jdx body 'java.util.HashMap#get(Object)'", BodyRequest, run_body, _render_body, _code_cut,
            next_hint="doc for its javadoc, calls for what it invokes"),
    Command("source", "The source file of a type, whole or a slice; decompiled when no sources exist.",
            "jdx source java.util.HashMap --around 'get(Object)'", SourceRequest, run_source, _render_code,
            _code_cut, next_hint="body for one member"),
    Command("doc", "Javadoc or KDoc as plain text, inherited from supertypes when the member has none.",
            "jdx doc 'java.util.ArrayList#add(Object)'", DocRequest, run_doc, _render_doc, _doc_cut,
            next_hint="signature for every overload, samples for real uses"),
)
