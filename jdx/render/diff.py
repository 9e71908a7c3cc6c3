"""Text of `jdx diff` (spec §7.7, §8.1): header, one line per finding most severe first, what `--limit`, `--grep`
and `--severity` hid and the flag that shows it, the whole-comparison tally, the sources, a `next:` line. A
`--max-lines` cut (spec §8.3) drops finding rows only, never the header or the tally, and is stated by the shared
text path after them (`diff_fitted`), in one line that names what shows every finding."""

from __future__ import annotations

import shlex

SEVERITY_WORDS = {"breaking": "breaking", "suspicious": "suspicious", "info": "info"}


def diff_lines(result: dict, brief: bool = False) -> list[str]:
    """The text answer; `brief` (spec §8, `--brief`): the finding rows (and the `--limit` cut's line) only, no
    header, tally, sources or next."""
    header, rows, limit, footer, extra = _parts(result, brief)
    return header + rows + limit + footer + extra


def diff_fitted(result: dict, brief: bool = False, max_lines: int | None = None) -> tuple[list[str], dict | None]:
    """The text answer within `--max-lines` (spec §8.3), as `members` and `outline` fit theirs: the whole answer
    (header, rows, the `--limit` cut's line, footer and the `source:`/`next:` lines; warnings not) fits, else the
    `source:` and `next:` lines go first, then finding rows from the end (the least severe first); the header and
    the tally stay: what is breaking survives any budget, so the header, the tally and the cut's line are the least
    a cut prints. That cut, counted in findings, names what prints them all: the `--max-lines` for the listed ones
    and, when `--limit` cut some too, the `--limit` and `--max-lines` for every one (its one line then says what the
    `--limit` line did). A `--limit` cut alone is stated among the footer's lines, beside what `--grep` and
    `--severity` hid: the cut returned then has no hint, so the text path adds no line of its own after the
    `next:` line. None when nothing was dropped."""
    header, rows, limit, footer, extra = _parts(result, brief)
    full = header + rows + limit + footer + extra
    listed = len(rows)
    matching = result.get("matching", listed)
    everything = len(full)
    if max_lines is None or everything <= max_lines or not rows:
        return full, {"shown": listed, "total": matching} if limit else None  # (stated above: no hint)
    room = max_lines - len(header) - len(footer) - 1
    kept = max(0, min(listed, room))
    spare = extra[:room - kept] if kept == listed else []  # the rows first, then what room is left
    hint = f"--max-lines {everything} for all"
    if limit:
        every = everything - len(limit) + matching - listed  # every matching row, no cut line left
        hint = f"--max-lines {everything} for all {listed}, --limit {matching} --max-lines {every} for all {matching}"
    return header + rows[:kept] + footer + spare, {"shown": kept, "total": matching, "hint": hint}


def _parts(result: dict, brief: bool) -> tuple[list[str], list[str], list[str], list[str], list[str]]:
    """(header, finding rows, the `--limit` cut's line, footer, extra) of the text answer: the footer is the tally
    and what decides the answer (hidden findings, notes, the gate, the `--out` file), the extra the `source:` and
    `next:` lines a `--max-lines` cut drops first; `brief`: the rows and the `--limit` line only."""
    rows = [_finding_line(f) for f in result["findings"]]
    matching = result.get("matching", len(rows))
    limit = [f"… {len(rows)} of {matching} shown (--limit {matching} for all)"] if matching > len(rows) else []
    if brief:
        return [], rows, limit, [], []
    old, new = result["old"], result["new"]
    surface = "public surface" if result.get("visibility", "public") == "public" else "every declared member"
    if result.get("include_synthetic"):
        surface += ", synthetic included"
    header = [f"api diff {old['name']} -> {new['name']} ({surface})"]
    lines: list[str] = []
    if not result["total"]:
        lines.append("no API differences")
    hidden = result["total"] - result["matching"]
    filters = ([f"--grep {shlex.quote(result['grep'])}"] if "grep" in result else []) + \
        [f"--rule {r}" for r in result.get("rules", ())]
    if hidden and filters:
        lines.append(f"… {hidden} findings hidden by {' '.join(filters)}"
                     + (f" or below --severity {result['severity']}" if result["severity"] != "all" else ""))
    elif hidden:
        lines.append(f"… {hidden} findings below --severity {result['severity']} hidden (--severity all shows them)")
    c = result["counts"]
    lines.append(f"{c['breaking']} breaking · {c['suspicious']} suspicious · {c['info']} informational · "
                 f"{c['types_added']} types added · {c['types_removed']} types removed")
    lines.extend(f"note {n['code']}: {n['message']}" for n in result.get("notes", ()))
    gate = result["gate"]
    if gate["fail_on"] != "none":
        lines.append(f"gate --fail-on {gate['fail_on']}: {'failed' if gate['failed'] else 'passed'}")
    if "out" in result:
        lines.append(f"wrote {result['out']['rows']} findings to {result['out']['path']}")
    extra: list[str] = []
    for side in (old, new):
        names = [side["name"]] if len(side["artifacts"]) == 1 else [a["name"] for a in side["artifacts"]]
        extra.extend(f"source: {name} (bytecode)" for name in names)
    owner = result.get("next")  # report.next_type: chosen before the --limit cut
    if owner and new["artifacts"]:
        jars = new.get("jars")
        extra.append(f"next: jdx members {shlex.quote(owner)}" + (f" --jars {shlex.quote(jars)}" if jars else ""))
    return header, rows, limit, lines, extra


def _finding_line(f: dict) -> str:
    line = f"{f['severity']}  {f['rule']}  {f['symbol']}"
    return line + f": {f['detail']}" if f["detail"] else line
