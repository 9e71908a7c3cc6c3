"""show / outline / signature commands: parse flags, one facade call, render."""

from __future__ import annotations

from typing import List, Optional

import typer

from jdx.cli import commands, text_cards
from jdx.errors import UsageError


@commands.app.command()
def show(type_ref: str = typer.Argument(..., metavar="TYPE", help="a type reference, e.g. java.util.HashMap")):
    """The class card: declaration, supertypes, nesting, member counts. Example: jdx show java.util.HashMap"""
    commands.out("show", type_ref, commands.service().show(type_ref), text_cards.show)


@commands.app.command()
def outline(
    type_ref: str = typer.Argument(..., metavar="TYPE", help="a type reference, e.g. java.util.HashMap"),
    kind: str = typer.Option("all", "--kind", help="method | field | ctor | type | all"),
    static: bool = typer.Option(False, "--static", help="only static members"),
    instance: bool = typer.Option(False, "--instance", help="only instance members"),
    access: List[str] = typer.Option(["all"], "--access", help="public|protected|package|private|all (default all)"),
    grep: Optional[str] = typer.Option(None, "--grep", help="filter member names by regex"),
    brief: bool = typer.Option(False, "--brief", help="bare member rows, no header or footer"),
    max_lines: Optional[int] = typer.Option(None, "--max-lines", help="cap member rows"),
    include_synthetic: bool = typer.Option(False, "--include-synthetic", help="show bridge/synthetic members"),
):
    """One dense line per declared member, with parameter names. Example: jdx outline java.util.HashMap --kind method"""
    from jdx.engine.cards import OutlineOptions

    if static and instance:
        raise UsageError("--static and --instance exclude each other")
    if max_lines is not None and max_lines < 1:
        raise UsageError("--max-lines must be at least 1")
    opts = OutlineOptions(kind="ctor" if kind == "constructor" else kind,
                          static=True if static else (False if instance else None),
                          access=tuple(a for x in access for a in x.split(",")), grep=grep,
                          include_synthetic=include_synthetic)
    answer = commands.service().outline(type_ref, opts)
    answer.truncated = None if commands._G.json else text_cards.outline_truncation(answer.result, max_lines)
    commands.out("outline", type_ref, answer, lambda r: text_cards.outline(r, brief, max_lines))


@commands.app.command()
def signature(member_ref: str = typer.Argument(..., metavar="MEMBER",
                                               help="a member reference, e.g. 'java.util.HashMap#put'")):
    """Every overload's signature with parameter names. Example: jdx signature 'java.util.HashMap#put'"""
    commands.out("signature", member_ref, commands.service().signature(member_ref), text_cards.signature)
