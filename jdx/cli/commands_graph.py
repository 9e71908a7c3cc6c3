"""The relationship graph (spec §7.3) commands: parse flags, one facade call, render."""

from __future__ import annotations

from typing import List, Optional

import typer

from jdx.cli import commands, text_graph
from jdx.errors import UsageError

_IN = "only artifacts matching this glob (name or path; repeatable)"
_EXCLUDE = "leave out artifacts matching this glob (repeatable)"
_LIMIT = "show at most N entries (default 50); the rest is counted"


def _depth(direct: bool, depth: Optional[int]) -> Optional[int]:
    if direct and depth is not None and depth != 1:
        raise UsageError("--direct and --depth exclude each other")
    return 1 if direct else depth


def _filter(include: List[str], exclude: List[str]):
    from jdx.engine.relations import ArtifactFilter

    return ArtifactFilter(list(include), list(exclude))


@commands.app.command()
def hierarchy(
    type_ref: str = typer.Argument(..., metavar="TYPE", help="a type reference, e.g. java.util.AbstractList"),
    up: bool = typer.Option(False, "--up", help="only supertypes"),
    down: bool = typer.Option(False, "--down", help="only subtypes"),
    direct: bool = typer.Option(False, "--direct", help="one level (same as --depth 1)"),
    depth: Optional[int] = typer.Option(None, "--depth", help="levels to walk (default: all)"),
    include: List[str] = typer.Option([], "--in", help=_IN),
    exclude: List[str] = typer.Option([], "--exclude", help=_EXCLUDE),
    limit: Optional[int] = typer.Option(None, "--limit", help=_LIMIT),
):
    """Supertypes up and subtypes down, as trees. Example: jdx hierarchy java.util.AbstractList --down --direct"""
    from jdx.engine.rel_hierarchy import HierarchyOptions

    both = not up and not down
    opts = HierarchyOptions(up=up or both, down=down or both, depth=_depth(direct, depth),
                            filter=_filter(include, exclude), limit=limit)
    commands.out("hierarchy", type_ref, commands.service().hierarchy(type_ref, opts), text_graph.hierarchy)


@commands.app.command()
def implementors(
    type_ref: str = typer.Argument(..., metavar="TYPE", help="a type reference, e.g. java.util.Map"),
    direct: bool = typer.Option(False, "--direct", help="only direct subtypes"),
    depth: Optional[int] = typer.Option(None, "--depth", help="levels to walk (default: all)"),
    include: List[str] = typer.Option([], "--in", help=_IN),
    exclude: List[str] = typer.Option([], "--exclude", help=_EXCLUDE),
    limit: Optional[int] = typer.Option(None, "--limit", help=_LIMIT),
):
    """Every subtype of a type in the workspace, flat. Example: jdx implementors java.util.Map --in 'gson*'"""
    from jdx.engine.rel_hierarchy import HierarchyOptions

    opts = HierarchyOptions(up=False, down=True, depth=_depth(direct, depth), filter=_filter(include, exclude),
                            limit=limit)
    commands.out("implementors", type_ref, commands.service().implementors(type_ref, opts), text_graph.implementors)


@commands.app.command()
def overrides(
    member_ref: str = typer.Argument(..., metavar="METHOD", help="a method reference, e.g. 'java.util.List#size'"),
    include: List[str] = typer.Option([], "--in", help=_IN),
    exclude: List[str] = typer.Option([], "--exclude", help=_EXCLUDE),
    limit: Optional[int] = typer.Option(None, "--limit", help=_LIMIT),
):
    """What a method overrides, and every method that overrides it. Example: jdx overrides 'java.lang.Object#hashCode'"""
    answer = commands.service().overrides(member_ref, _filter(include, exclude), limit)
    commands.out("overrides", member_ref, answer, text_graph.overrides)


@commands.app.command()
def usages(
    symbol: str = typer.Argument(..., metavar="SYMBOL", help="a type, method, constructor or field reference"),
    kind: List[str] = typer.Option(["all"], "--kind",
                                   help="call|ref|impl|override|read|write|new|throw|annotation|all (repeatable)"),
    include: List[str] = typer.Option([], "--in", help=_IN),
    exclude: List[str] = typer.Option([], "--exclude", help=_EXCLUDE),
    limit: Optional[int] = typer.Option(None, "--limit", help="show at most N sites (default 50); the rest is counted"),
    context: Optional[int] = typer.Option(None, "--context", help="source lines around each site (needs sources)"),
):
    """Every place the workspace uses a symbol, by artifact then method. Example: jdx usages 'java.util.List#size()'"""
    from jdx.engine.rel_usages import UsageOptions

    if context is not None and context < 0:
        raise UsageError("--context must be 0 or more")
    opts = UsageOptions(kinds=tuple(kind), filter=_filter(include, exclude), limit=limit, context=context)
    commands.out("usages", symbol, commands.service().usages(symbol, opts), text_graph.usages)


def _call_options(depth, include, exclude, limit, external_only=False):
    from jdx.engine.rel_calls import CallOptions

    return CallOptions(depth=depth, filter=_filter(include, exclude), limit=limit, external_only=external_only)


@commands.app.command()
def callers(
    member_ref: str = typer.Argument(..., metavar="METHOD", help="a method reference, e.g. 'java.util.List#size()'"),
    depth: Optional[int] = typer.Option(None, "--depth", help="levels of callers (default 1)"),
    include: List[str] = typer.Option([], "--in", help=_IN),
    exclude: List[str] = typer.Option([], "--exclude", help=_EXCLUDE),
    limit: Optional[int] = typer.Option(None, "--limit", help=_LIMIT),
):
    """Who calls a method, as a tree (cycle-safe). Example: jdx callers 'java.util.List#size()' --depth 2"""
    answer = commands.service().callers(member_ref, _call_options(depth, include, exclude, limit))
    commands.out("callers", member_ref, answer, text_graph.call_tree)


@commands.app.command()
def calls(
    member_ref: str = typer.Argument(..., metavar="METHOD", help="a method reference, e.g. 'java.util.HashMap#put'"),
    depth: Optional[int] = typer.Option(None, "--depth", help="levels of callees (default 1)"),
    include: List[str] = typer.Option([], "--in", help=_IN),
    exclude: List[str] = typer.Option([], "--exclude", help=_EXCLUDE),
    external_only: bool = typer.Option(False, "--external-only",
                                       help="only calls leaving the method's own artifact"),
    limit: Optional[int] = typer.Option(None, "--limit", help=_LIMIT),
):
    """What a method calls, as a tree of invoked declarations. Example: jdx calls 'java.util.HashMap#put' --depth 2"""
    answer = commands.service().calls(member_ref, _call_options(depth, include, exclude, limit, external_only))
    commands.out("calls", member_ref, answer, text_graph.call_tree)
