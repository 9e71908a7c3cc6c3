"""`jdx diff <old> <new>` (spec §7.7): the public-API difference of two artifacts, no workspace needed.

Glue between the loaders (artifacts, shards, extraction) and the comparison engine (`jdx.engine.diff`): resolve
each side, reuse or extract its shards, compare, cut for `--severity`/`--limit`, set the `--fail-on` gate, and
write the findings as Parquet with `--out DIR`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from jdx.engine.answer import Answer
from jdx.engine.diff import (DEFAULT_LIMIT, FAIL_ON, SEVERITY_FILTERS, VISIBILITIES, DiffOptions, ReportOptions,
                             build_surface, compare, findings_table, result_dict)
from jdx.errors import UsageError, Warning_

MAX_DUPLICATE_NAMES = 5


@dataclass(frozen=True)
class DiffRequest:
    old: str
    new: str
    visibility: str = "public"
    include_synthetic: bool = False
    severity: str = "all"
    fail_on: str = "none"
    limit: int = DEFAULT_LIMIT
    out: str | None = None
    cache_dir: str | None = None

    def __post_init__(self):
        if not self.old or not self.new:
            raise UsageError("diff needs two artifacts: jdx diff OLD NEW")
        for flag, value, allowed in (("--visibility", self.visibility, VISIBILITIES),
                                     ("--severity", self.severity, SEVERITY_FILTERS),
                                     ("--fail-on", self.fail_on, FAIL_ON)):
            if value not in allowed:
                raise UsageError(f"{flag} must be one of {', '.join(allowed)}, not {value!r}")
        if not isinstance(self.limit, int) or self.limit < 0:
            raise UsageError(f"--limit must be a number ≥ 0, not {self.limit!r}")
        if self.out is not None and os.path.exists(self.out) and not os.path.isdir(self.out):
            raise UsageError(f"--out {self.out}: exists and is not a directory")


def _cache(session, request: DiffRequest) -> Path:
    from jdx.dirs import cache_dir

    override = request.cache_dir or getattr(getattr(session, "options", None), "cache_dir", None)
    return cache_dir(override)


def run(session, request: DiffRequest) -> Answer:
    """Compares the two sides; the answer's `result.gate.failed` is the `--fail-on` verdict (exit 1)."""
    from jdx.commands.diff_artifacts import load_sides, resolve_side
    from jdx.loaders.roots import HashCache

    cache = _cache(session, request)
    hashes = HashCache(cache)
    old, new = resolve_side(request.old, hashes), resolve_side(request.new, hashes)
    hashes.save()
    load_sides([old, new], cache)
    surfaces = build_surface(old.label, old.tables), build_surface(new.label, new.tables)
    findings = compare(*surfaces, DiffOptions(request.visibility, request.include_synthetic))
    warnings = old.warnings + new.warnings
    for side, surface in zip((old, new), surfaces):
        if surface.duplicates:
            names = ", ".join(surface.duplicates[:MAX_DUPLICATE_NAMES])
            more = len(surface.duplicates) - MAX_DUPLICATE_NAMES
            warnings.append(Warning_("DUPLICATE_CLASS", f"{side.label}: {len(surface.duplicates)} classes held twice, "
                                     f"the first one compared: {names}" + (f" … {more} more" if more > 0 else ""),
                                     side.label))
    if old.artifacts and [a.key for a in old.artifacts] == [a.key for a in new.artifacts]:
        warnings.append(Warning_("SAME_ARTIFACT", f"{request.old} and {request.new} have the same content"))
    report = ReportOptions(request.severity, request.fail_on, request.limit)
    sides = {"old": old.to_json(), "new": new.to_json(), "visibility": request.visibility,
             "include_synthetic": request.include_synthetic}
    result, truncated = result_dict(findings, report, sides)
    if request.out is not None:
        result["out"] = _write_out(request.out, findings)
    provenance = [{"artifact": a.name, "side": label, "origin": "bytecode", "path": a.path}
                  for label, side in (("old", old), ("new", new)) for a in side.artifacts]
    return Answer(result, warnings=warnings, truncated=truncated, provenance=provenance)


def _write_out(directory: str, findings) -> dict:
    """`--out DIR`: every finding (no --severity/--limit cut) as DIR/findings.parquet, written atomically."""
    import pyarrow.parquet as pq

    target = Path(directory)
    target.mkdir(parents=True, exist_ok=True)
    path = target / "findings.parquet"
    tmp = target / f".findings.{os.getpid()}.tmp"
    pq.write_table(findings_table(findings), tmp)
    os.replace(tmp, path)
    return {"path": str(path), "rows": len(findings)}


def render(result: dict, request=None) -> list[str]:
    from jdx.render.diff import diff_lines

    return diff_lines(result)


def exit_status(result: dict) -> int:
    """0 whatever the comparison found; 1 when the `--fail-on` gate trips (spec §16, the one exception)."""
    return 1 if result.get("gate", {}).get("failed") else 0
