"""Search and navigation (spec §7.2) commands: parse flags, one facade call, render."""

from __future__ import annotations

from typing import List, Optional

import typer

from jdx.cli import commands, text_search
from jdx.errors import UsageError


@commands.app.command()
def search(
    pattern: str = typer.Argument(..., help="camel-hump (HMap, gJson), prefix, glob ('*Http*Client') or --regex"),
    kind: List[str] = typer.Option([], "--kind", help="class|interface|enum|record|annotation|method|field|package|"
                                                      "module|type (repeatable or comma list)"),
    regex: bool = typer.Option(False, "--regex", help="the pattern is a regular expression (RE2) over simple names"),
    fuzzy: bool = typer.Option(False, "--fuzzy", help="fall back to edit distance when nothing matches"),
    in_: Optional[str] = typer.Option(None, "--in", help="only artifacts whose name matches this glob"),
    package: Optional[str] = typer.Option(None, "--package", help="only symbols in packages matching this glob"),
    limit: int = typer.Option(50, "--limit", help="at most N results (default 50)"),
):
    """Find types, methods, fields, packages and modules by name, best match first. Example: jdx search HMap --kind class"""
    from jdx.engine.search import SearchOptions, parse_kinds

    opts = SearchOptions(kinds=parse_kinds(kind), regex=regex, fuzzy=fuzzy, artifact_glob=in_,
                         package_glob=package, limit=limit)
    commands.out("search", pattern, commands.service().search(pattern, opts), text_search.search)


@commands.app.command()
def resolve(
    name: str = typer.Argument(..., help="a name, Foo.bar fragment or stack-trace frame 'at a.B.c(B.java:12)'"),
    limit: int = typer.Option(50, "--limit", help="at most N candidates (default 50)"),
):
    """What is this identifier: every candidate with kind and artifact. Example: jdx resolve 'at a.B.c(B.java:12)'"""
    if limit < 1:
        raise UsageError("--limit must be at least 1")
    commands.out("resolve", name, commands.service().resolve_name(name, limit), text_search.resolve)


@commands.app.command()
def imports(type_ref: str = typer.Argument(..., metavar="TYPE", help="a type (Gson, java.util.Map.Entry) or a "
                                                                     "static member (Collections#emptyList)")):
    """The import statement to add for a type or static member. Example: jdx imports Entry"""
    commands.out("imports", type_ref, commands.service().imports(type_ref), text_search.imports)


@commands.app.command()
def ls(
    package_glob: Optional[str] = typer.Argument(None, metavar="[PACKAGE-GLOB]",
                                                 help="a package (java.util) or glob ('java.util.*')"),
    depth: int = typer.Option(1, "--depth", help="levels of subpackages to show (default 1)"),
    counts: bool = typer.Option(False, "--counts", help="show type counts"),
    limit: int = typer.Option(100, "--limit", help="at most N lines (default 100)"),
):
    """Browse packages and their types. Example: jdx ls java.util.function --counts"""
    _check(depth, limit)
    commands.out("ls", package_glob or "", commands.service().ls(package_glob, depth, counts, limit), text_search.ls)


@commands.app.command()
def tree(
    artifact_glob: Optional[str] = typer.Argument(None, metavar="[ARTIFACT-GLOB]",
                                                  help="artifact names to expand ('gson*', 'java.base')"),
    depth: Optional[int] = typer.Option(None, "--depth", help="1 artifacts, 2 +packages, 3 +types "
                                                               "(default 1, or 2 with a glob)"),
    counts: bool = typer.Option(False, "--counts", help="show type counts"),
    limit: int = typer.Option(200, "--limit", help="at most N lines (default 200)"),
):
    """Artifacts, their packages and types as a tree. Example: jdx tree java.sql --depth 3"""
    _check(depth if depth is not None else 1, limit)
    commands.out("tree", artifact_glob or "", commands.service().tree(artifact_glob, depth, counts, limit),
                 text_search.tree)


def _check(depth: int, limit: int) -> None:
    if depth < 1:
        raise UsageError("--depth must be at least 1")
    if limit < 1:
        raise UsageError("--limit must be at least 1")
