"""`samples`: parse flags, one facade call, render."""

from __future__ import annotations

from typing import Optional

import typer

from jdx.cli import commands, text_samples


@commands.app.command()
def samples(
    symbol: str = typer.Argument(..., metavar="SYMBOL", help="a method, constructor, field or type reference"),
    limit: Optional[int] = typer.Option(None, "--limit", help="how many samples (default 3)"),
    prefer_sources: bool = typer.Option(False, "--prefer-sources", help="rank sites whose sources exist first"),
):
    """Real call sites as usage examples, the most exemplary first. Example: jdx samples 'java.util.Optional#orElseGet'"""
    from jdx.engine.samples import SampleOptions

    answer = commands.service().samples(symbol, SampleOptions(limit=limit, prefer_sources=prefer_sources))
    commands.out("samples", symbol, answer, text_samples.samples)
