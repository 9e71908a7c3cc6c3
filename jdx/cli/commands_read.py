"""Read-path commands: parse flags, one facade call, render."""

from __future__ import annotations

from typing import List, Optional

import typer

from jdx.cli import commands, text_read
from jdx.errors import UsageError


@commands.app.command()
def members(
    type_ref: str = typer.Argument(..., metavar="TYPE", help="a type reference, e.g. java.util.HashMap"),
    inherited: bool = typer.Option(True, "--inherited/--declared", help="include members of supertypes (default)"),
    kind: str = typer.Option("all", "--kind", help="method | field | ctor | all"),
    static: bool = typer.Option(False, "--static", help="only static members"),
    instance: bool = typer.Option(False, "--instance", help="only instance members"),
    access: List[str] = typer.Option(["public", "protected"], "--access", help="public|protected|package|private|all"),
    from_type: Optional[str] = typer.Option(None, "--from", help="only members inherited from this supertype"),
    grep: Optional[str] = typer.Option(None, "--grep", help="filter member names by regex"),
    brief: bool = typer.Option(False, "--brief", help="bare member rows, no headers"),
    max_lines: Optional[int] = typer.Option(None, "--max-lines", help="cap text lines"),
    sort: str = typer.Option("kind", "--sort", help="kind | name | declaring"),
    include_synthetic: bool = typer.Option(False, "--include-synthetic", help="show bridge/synthetic members"),
    with_doc: bool = typer.Option(False, "--with-doc", help="each member's first javadoc sentence (from sources)"),
):
    """What can I call on this type: members, inherited ones included. Example: jdx members java.util.HashMap"""
    from jdx.engine.members import MemberOptions

    if static and instance:
        raise UsageError("--static and --instance exclude each other")
    if max_lines is not None and max_lines < 1:
        raise UsageError("--max-lines must be at least 1")
    if brief and with_doc:
        raise UsageError("--brief and --with-doc exclude each other")
    if kind not in ("method", "field", "ctor", "constructor", "all"):
        raise UsageError(f"--kind {kind!r}: use method, field, ctor or all")
    opts = MemberOptions(inherited=inherited, kind="ctor" if kind == "constructor" else kind,
                         static=True if static else (False if instance else None),
                         access=tuple(a for x in access for a in x.split(",")), from_type=from_type, grep=grep,
                         sort=sort, include_synthetic=include_synthetic, with_doc=with_doc)
    answer = commands.service().members(type_ref, opts)
    answer.truncated = text_read.members_truncation(answer.result, brief, max_lines) if not commands._G.json else None
    commands.out("members", type_ref, answer, lambda r: text_read.members(r, brief, max_lines, grep))
