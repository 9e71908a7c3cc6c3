"""A diff's answer (spec §7.7, §8.2): the whole-comparison tally, the `--severity`/`--limit` cut, the
`--fail-on` gate, and the findings as an Arrow table for `--out`."""

from __future__ import annotations

import re

from dataclasses import dataclass
from typing import TYPE_CHECKING

from jdx.engine.diff.findings import Finding
from jdx.engine.diff.rules import BREAKING, DEFAULT_LIMIT, INFO, SEVERITIES, SEVERITY_RANK, SUSPICIOUS

if TYPE_CHECKING:
    import pyarrow as pa

FINDING_COLUMNS = ("rule", "severity", "symbol", "kind", "old", "new", "detail", "id")  # strings; then `unresolved`


@dataclass(frozen=True)
class ReportOptions:
    severity: str = "all"
    fail_on: str = "none"
    limit: int = DEFAULT_LIMIT
    grep: str | None = None  # a regex the shown findings' symbols match, parameters left out (`--grep`)
    rules: tuple[str, ...] = ()  # the rule ids of the shown findings (`--rule`); () for every rule


def tally(findings: list[Finding]) -> dict:
    counts = {s: 0 for s in SEVERITIES}
    for f in findings:
        counts[f.severity] += 1
    counts["types_added"] = sum(1 for f in findings if f.rule == "TYPE_ADDED")
    counts["types_removed"] = sum(1 for f in findings if f.rule == "TYPE_REMOVED")
    return counts


def gate(findings: list[Finding], fail_on: str) -> dict:
    """The `--fail-on` verdict: `failed` true means the process exits 1 (spec §16, the diff gate)."""
    if fail_on == "breaking":
        failed = any(f.severity == BREAKING for f in findings)
    elif fail_on == "any":
        failed = bool(findings)
    else:
        failed = False
    return {"fail_on": fail_on, "failed": failed}


def shown_findings(findings: list[Finding], options: ReportOptions) -> tuple[list[Finding], list[Finding]]:
    """(the findings shown, those that passed the severity filter, `--rule` and `--grep`, before the `--limit` cut)."""
    worst = {"all": SEVERITY_RANK[INFO], "info": SEVERITY_RANK[INFO], "suspicious": SEVERITY_RANK[SUSPICIOUS],
             "breaking": SEVERITY_RANK[BREAKING]}[options.severity]
    kept = [f for f in findings if SEVERITY_RANK[f.severity] <= worst and (not options.rules or f.rule in options.rules)]
    if options.grep is not None:
        pattern = re.compile(options.grep)
        kept = [f for f in kept if pattern.search(f.symbol.split("(", 1)[0])]  # a parameter's type is no match
    return kept[: options.limit], kept


def next_type(findings: list[Finding]) -> str | None:
    """The type whose members the `next:` step lists: that of the first breaking finding naming a type or member
    (a class-version finding names an artifact, a PACKAGE_UNEXPORTED a package), else of the first such finding;
    None when there is none or it is a TYPE_REMOVED (the new side has no such type). Chosen from every finding that
    passed `--severity` and `--grep`, never only those `--limit` shows, so the step does not depend on the cut."""
    typed = [f for f in findings if f.kind not in ("artifact", "package")]
    first = next((f for f in typed if f.severity == BREAKING), None) or (typed[0] if typed else None)
    return None if first is None or first.rule == "TYPE_REMOVED" else first.symbol.split("#", 1)[0]


def result_dict(findings: list[Finding], options: ReportOptions, sides: dict) -> tuple[dict, dict | None]:
    """(the `result` of the envelope, its `truncated` part or None)."""
    shown, kept = shown_findings(findings, options)
    matching = len(kept)
    result = {
        **sides,
        "counts": tally(findings),
        "severity": options.severity,
        **({"grep": options.grep} if options.grep is not None else {}),
        **({"rules": list(options.rules)} if options.rules else {}),
        "gate": gate(findings, options.fail_on),
        "total": len(findings),
        "matching": matching,
        "shown": len(shown),
        "findings": [f.to_json() for f in shown],
        "next": next_type(kept),
    }
    truncated = None
    if len(shown) < matching:
        truncated = {"shown": len(shown), "total": matching, "hint": f"--limit {matching}"}
    return result, truncated


def findings_table(findings: list[Finding]) -> pa.Table:
    """Every finding as one Arrow table (the `--out` Parquet dataset), in report order."""
    import pyarrow as pa

    rows = [f.to_json() for f in findings]
    schema = pa.schema([(c, pa.string()) for c in FINDING_COLUMNS] + [("unresolved", pa.list_(pa.string()))])
    return pa.Table.from_pylist(rows, schema=schema)
