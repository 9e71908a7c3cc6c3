"""`samples` (spec §7.3): real call sites as usage examples, rendered from sources when they exist."""

from __future__ import annotations

from dataclasses import dataclass

from jdx.commands.registry import Command, Request, argument, option


@dataclass(frozen=True)
class SamplesRequest(Request):
    query: str = argument("a method, constructor, field or type reference", "SYMBOL")
    limit: int | None = option(None, "--limit", "how many samples (default 3)", kind="int", minimum=1)
    prefer_sources: bool = option(False, "--prefer-sources", "rank sites whose sources exist first")


def run_samples(session, req: SamplesRequest):
    from jdx.engine.samples import SampleOptions

    return samples_answer(session, req.query, SampleOptions(limit=req.limit, prefer_sources=req.prefer_sources))


def samples_answer(session, text: str, opts=None):
    """The most exemplary call sites of a method, constructor, field or type."""
    from jdx.engine.answer import Answer
    from jdx.engine.samples import SampleOptions, samples

    result, truncated = samples(session.store(), text, opts or SampleOptions(), session.source_window,
                                session.reconstructed_window)
    detail = f"{result['with_sources']} of {len(result['samples'])} shown from sources"
    if result["reconstructed"]:
        detail += f", {result['reconstructed']} reconstructed from decompiled text"
    provenance = [{"symbol": result["symbol"], "artifact": result["artifact"], "origin": "bytecode",
                   "detail": "call sites from the workspace graph; " + detail}]
    return Answer(result, [], truncated, provenance)


def _render(result: dict, _req) -> list[str]:
    from jdx.render import samples

    return samples.samples(result) + [f"note: {n}" for n in result.get("notes", ())]


COMMANDS = (
    Command("samples", "Real call sites as usage examples, the most exemplary first.",
            "jdx samples 'java.util.Optional#orElseGet'", SamplesRequest, run_samples, _render,
            next_hint="usages for every site"),
)
