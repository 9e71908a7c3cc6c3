"""The releases of a multi-release jar (JEP 238) in a diff (spec §7.7): a JVM of release N loads each class from
`META-INF/versions/M/`, M the highest release at most N holding it, else from the base. The base classes are compared
first; then, for each release either side's jars have classes for, both sides as a JVM of that release sees them,
and what that comparison finds beyond the base one is reported with its detail prefixed `release N: `."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from jdx.engine.diff.findings import Finding
from jdx.engine.diff.surface import Entry, Surface, surface_from_compact

# a side as the release comparison needs it: (label, base artifacts' entries, release -> versioned entries)
ReleaseSide = tuple[str, list[list[Entry]], dict[int, list[Entry]]]


def release_view(base: list[list[Entry]], releases: dict[int, list[Entry]], release: int) -> list[list[Entry]]:
    """The artifacts' entries a JVM of `release` loads: each class's newest versioned entry at most `release` first
    (the first class of a name wins), then the base."""
    chosen: dict[str, Entry] = {}
    for r in sorted(r for r in releases if r <= release):
        for entry in releases[r]:
            chosen[entry[0][0]] = entry
    return [list(chosen.values()), *base] if chosen else base


def release_findings(old: ReleaseSide, new: ReleaseSide, base: list[Finding],
                     compare: Callable[[Surface, Surface], list[Finding]]) -> list[Finding]:
    """The findings of each release view of the two sides that the base comparison (`base`) lacks, labelled with
    the release. A class-file version finding is never one: a JVM older than the release loads the base classes."""
    said = {(f.rule, f.id, f.symbol, f.detail) for f in base}
    out: list[Finding] = []
    for release in sorted(set(old[2]) | set(new[2])):
        views = [surface_from_compact(label, release_view(entries, releases, release))
                 for label, entries, releases in (old, new)]
        for f in compare(*views):
            if f.rule.startswith("CLASS_VERSION_") or (f.rule, f.id, f.symbol, f.detail) in said:
                continue
            out.append(replace(f, detail=f"release {release}: {f.detail}" if f.detail else f"release {release}"))
    return out
