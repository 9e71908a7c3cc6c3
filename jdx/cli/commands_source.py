"""Sources and bodies (spec §7.1, §11) commands: parse flags, one facade call, render."""

from __future__ import annotations

from typing import Optional

import typer

from jdx.cli import commands, text_source
from jdx.errors import UsageError


def _check_max_lines(max_lines: Optional[int]) -> None:
    if max_lines is not None and max_lines < 1:
        raise UsageError("--max-lines must be at least 1")


@commands.app.command()
def body(
    ref: str = typer.Argument(..., metavar="SYMBOL", help="a member or type, e.g. 'java.util.HashMap#get(Object)'"),
    engine: Optional[str] = typer.Option(None, "--engine", help="javap | vineflower | procyon (default: sources, "
                                                                 "else decompiled, else javap)"),
    with_doc: bool = typer.Option(False, "--with-doc", help="include the javadoc comment above the declaration"),
    with_signature: bool = typer.Option(False, "--with-signature", help="print the signature from bytecode first"),
    context: int = typer.Option(0, "--context", help="N surrounding lines"),
    line_numbers: bool = typer.Option(False, "--line-numbers", help="prefix each line with its line number"),
    max_lines: Optional[int] = typer.Option(None, "--max-lines", help="cap the text lines"),
):
    """The body of a member (or a whole type), labelled with where it came from. Example: jdx body 'java.util.HashMap#get(Object)'"""
    from jdx.engine.src_body import BodyOptions

    _check_max_lines(max_lines)
    opts = BodyOptions(engine=engine.lower() if engine else None, with_doc=with_doc, with_signature=with_signature,
                       context=context)
    answer = commands.service().body(ref, opts)
    answer.truncated = None if commands._G.json else text_source.truncation(answer.result, max_lines)
    commands.out("body", ref, answer, lambda r: text_source.code(r, line_numbers, max_lines))


@commands.app.command()
def source(
    type_ref: str = typer.Argument(..., metavar="TYPE", help="a type reference, e.g. java.util.HashMap"),
    lines: Optional[str] = typer.Option(None, "--lines", help="A:B, e.g. 100:180"),
    around: Optional[str] = typer.Option(None, "--around", help="a member of the type, e.g. 'get(Object)'"),
    context: Optional[int] = typer.Option(None, "--context", help="lines around --around (default 10)"),
    engine: Optional[str] = typer.Option(None, "--engine", help="javap | vineflower | procyon (default: sources, "
                                                                 "else decompiled)"),
    line_numbers: bool = typer.Option(False, "--line-numbers", help="prefix each line with its line number"),
    max_lines: Optional[int] = typer.Option(None, "--max-lines", help="cap the text lines"),
):
    """The source file of a type, whole or a slice; decompiled when no sources exist. Example: jdx source java.util.HashMap --around 'get(Object)'"""
    _check_max_lines(max_lines)
    if context is not None and not around:
        raise UsageError("--context goes with --around <member>")
    answer = commands.service().source(type_ref, lines=lines, around=around, context=context,
                                       engine=engine.lower() if engine else None)
    answer.truncated = None if commands._G.json else text_source.truncation(answer.result, max_lines)
    commands.out("source", type_ref, answer, lambda r: text_source.code(r, line_numbers, max_lines))


@commands.app.command()
def doc(
    ref: str = typer.Argument(..., metavar="SYMBOL", help="a type or member, e.g. 'java.util.ArrayList#add(Object)'"),
    inherited: bool = typer.Option(True, "--inherited/--no-inherited",
                                   help="take javadoc from the nearest documented supertype method (default)"),
    raw: bool = typer.Option(False, "--raw", help="print the comment as written"),
    max_lines: Optional[int] = typer.Option(None, "--max-lines", help="cap the text lines"),
):
    """Javadoc as plain text, inherited from supertypes when the member has none. Example: jdx doc 'java.util.ArrayList#add(Object)'"""
    from jdx.engine.src_doc import DocOptions

    _check_max_lines(max_lines)
    answer = commands.service().doc(ref, DocOptions(inherited=inherited, raw=raw))
    answer.truncated = None if commands._G.json else text_source.doc_truncation(answer.result, raw, max_lines)
    commands.out("doc", ref, answer, lambda r: text_source.doc(r, raw, max_lines))
