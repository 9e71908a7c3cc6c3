"""`samples` (spec §7.3): real call sites as usage examples, rendered from sources when they exist."""

from __future__ import annotations

from dataclasses import dataclass

from jdx.commands.registry import Command, Request, argument, option


@dataclass(frozen=True)
class SamplesRequest(Request):
    query: str = argument("a method, constructor, field or type reference", "SYMBOL")
    limit: int | None = option(None, "--limit", "how many samples (default 3)", kind="int", minimum=1)
    prefer_sources: bool = option(False, "--prefer-sources", "rank sites whose sources exist first")
    include: tuple = option((), "--in", "only sites in artifacts matching this glob (name or path; repeatable)")
    exclude: tuple = option((), "--exclude", "leave out sites in artifacts matching this glob (repeatable)")


def run_samples(session, req: SamplesRequest):
    from jdx.engine.relations import ArtifactFilter, Artifacts
    from jdx.engine.samples import SampleOptions

    found = ArtifactFilter(list(req.include), list(req.exclude))
    if found.include:  # an `--in` naming no artifact is a not-found, never "no call sites" (as `usages --in`)
        found.check(Artifacts.of(session.store()), session.store())
    return samples_answer(session, req.query, SampleOptions(limit=req.limit, prefer_sources=req.prefer_sources,
                                                            filter=found))


def samples_answer(session, text: str, opts=None):
    """The most exemplary call sites of a method, constructor, field or type."""
    from jdx.engine.answer import Answer
    from jdx.engine.samples import SampleOptions, samples
    from jdx.engine.src_locate import window_mismatches

    result, truncated = samples(session.store(), text, opts or SampleOptions(), session.source_window,
                                session.reconstructed_window)
    detail = f"{result['with_sources']} of {len(result['samples'])} shown from sources"
    if result["reconstructed"]:
        detail += f", {result['reconstructed']} reconstructed from decompiled text"
    provenance = [{"symbol": result["symbol"], "artifact": result["artifact"], "origin": "bytecode",
                   "detail": "call sites from the workspace graph; " + detail}]
    # a window whose lines the class file's line table puts in another method, or whose file was edited since
    warnings = window_mismatches([(s.get("source"), s.get("artifact")) for s in result["samples"]])
    return Answer(result, warnings + _undecompiled(result["samples"]), truncated, provenance)


def _undecompiled(shown: list[dict]) -> list:
    """One warning (the decompiler's code) per way decompiling failed for samples that have no sources."""
    from jdx.errors import Warning_

    failed: dict[str, list[dict]] = {}
    for s in shown:
        if s.get("unavailable"):
            failed.setdefault(s["unavailable"]["code"], []).append(s)
    return [Warning_(code, f"{len(group)} sample(s) show no lines: {group[0]['unavailable']['message']}",
                     group[0]["artifact"]) for code, group in sorted(failed.items())]


def _render(result: dict, req) -> list[str]:
    from jdx.render import samples

    brief = bool(getattr(req, "brief", False))  # bare rows: no notes either (as usages --brief)
    notes = [] if brief else [f"note: {n}" for n in result.get("notes", ())]
    return samples.samples(result, getattr(req, "max_lines", None), brief) + notes


def _truncation(result: dict, req) -> dict | None:
    """`--max-lines` keeps whole samples (spec §8.3) and says so; else the answer's `--limit` cut is stated."""
    from jdx.render import samples

    return samples.truncation(result, getattr(req, "max_lines", None), bool(getattr(req, "brief", False)))


COMMANDS = (
    Command("samples", "Real call sites as usage examples, the most exemplary first.",
            "jdx samples 'java.util.Optional#orElseGet'", SamplesRequest, run_samples, _render,
            truncation=_truncation, next_hint="usages for every site"),
)
