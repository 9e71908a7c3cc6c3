"""Plain-text renderings of foundation answers (spec §8.1: two-space indent, leading kind words, no boxes)."""

from __future__ import annotations


def _human_bytes(n: int) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n} B"


def index(r: dict) -> list[str]:
    state = "built" if r["built"] else "up to date"
    return [
        f"index {state}: {r['artifacts']} artifacts · {r['classes']:,} classes · {r['members']:,} members · "
        f"{r['edges']:,} edges · {r['seconds']:.2f}s",
        f"  extracted {r['extracted']} artifact(s); graph {r['graph']}",
    ] + _executor_lines(r)


def _executor_lines(r: dict) -> list[str]:
    """How a cluster extracted (the local executor adds nothing)."""
    ex = r.get("executor") or {}
    lines = []
    if ex.get("executor") == "ray":
        parts = [f"{ex.get('workers', 0)} worker(s) on {ex.get('nodes', 0)} node(s) ({ex.get('address')})",
                 f"{ex.get('tasks', 0)} task(s)"]
        for key, label in (("retried", "retried"), ("present", "already in the store"), ("failed", "failed"),
                           ("local", "extracted here")):
            if ex.get(key):
                parts.append(f"{ex[key]} {label}")
        lines.append("  ray: " + ", ".join(parts))
    if r.get("shards"):
        lines.append(f"  shards {r['shards']}")
    return lines


def _cell(value) -> str:
    """A value as Cypher writes it: null, true/false, a node `(:Type {fqn: …})` and a relationship `[:INVOKES {…}]`
    with their properties (no internal `_ID`/`_LABEL`, no nulls), lists and maps."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(_cell(v) for v in value) + "]"
    if isinstance(value, dict):
        props = "{" + ", ".join(f"{k}: {_cell(v)}" for k, v in value.items()
                                if not (k.startswith("_") and "_LABEL" in value) and v is not None) + "}"
        if "_LABEL" not in value:
            return props
        label = f":{value['_LABEL']}" + (f" {props}" if props != "{}" else "")
        return f"[{label}]" if "_SRC" in value else f"({label})"
    return str(value).replace("\n", "\\n")


MAX_PAD = 60  # a column is padded to its widest cell up to this; a longer cell runs into the next column


def table(r: dict, brief: bool = False) -> list[str]:
    """The columns' names, the rows aligned, the row count; `brief` (spec §8's `--brief`): the rows alone. A column
    pads to its widest cell, at most MAX_PAD characters: one long id does not pad every row of the answer to it."""
    cols = r["columns"]
    rows = [[_cell(row.get(c)) for c in cols] for row in r["rows"]]
    widths = [min(MAX_PAD, max([0 if brief else len(c)] + [len(row[i]) for row in rows])) for i, c in enumerate(cols)]
    lines = [] if brief else ["  ".join(c.ljust(w) for c, w in zip(cols, widths)).rstrip()]
    for row in rows:
        lines.append("  ".join(v.ljust(w) for v, w in zip(row, widths)).rstrip())
    if not brief:
        lines.append(f"{len(rows)} row{'s' if len(rows) != 1 else ''}")
    return lines


def export(r: dict) -> list[str]:
    lines = [f"exported to {r['directory']} ({r['format']})"]
    for name, rows in r["tables"].items():
        lines.append(f"  table {name}.{r['format']}  {rows:,} rows")
    if r.get("replaced"):
        lines.append(f"replaced {len(r['replaced'])} files of an earlier export in {r['directory']}")
    if r.get("removed"):
        other = r["removed"][0].rsplit(".", 1)[1]
        lines.append(f"removed {len(r['removed'])} {other} files of an earlier export in {r['directory']} "
                     "(a directory holds one export)")
    return lines


def doctor(r: dict) -> list[str]:
    lines = []
    for c in r["checks"]:
        lines.append(f"  {'ok  ' if c['ok'] else 'MISS'} {c['check']}: {c['detail']}")
    lines.insert(0, "doctor: " + ("ready" if r["ok"] else "missing requirements"))
    return lines


def version(r: dict) -> list[str]:
    return [f"jdx {r['jdx']} (python {r['python']}, graph {r['graph_backend']}, schema {r['schema']})"]


def key_values(r: dict) -> list[str]:
    out = []
    for k, v in r.items():
        if k.endswith("bytes") and isinstance(v, int):
            v = _human_bytes(v)
        out.append(f"{k}: {_cell(v)}")
    return out


def cache_gc(r: dict, verbose: bool = False) -> list[str]:
    """A summary per kind (count and bytes); the removed entries themselves with -v."""
    verb = "would remove" if r["dry_run"] else "removed"
    n = len(r["removed"])
    days = r.get("older_than_days", 0)
    kept = f"; kept: used by a named workspace or in the last {days:g} days" if days else \
        "; kept: used by a named workspace"
    lines = [f"cache gc {verb} {n} entr{'y' if n == 1 else 'ies'} ({_human_bytes(r.get('bytes', 0))}){kept}"]
    for s in r.get("summary", []):
        lines.append(f"  {s['kind']}: {s['count']} ({_human_bytes(s['bytes'])})")
    if verbose:
        lines.extend(f"  {x}" for x in r["removed"])
    elif n:
        lines.append("  (-v lists them)")
    return lines


def ws_spec(r: dict) -> list[str]:
    name = r.get("created") or r.get("updated") or r.get("name")
    lines = [f"workspace {name}"]
    kinds = r.get("root_kinds") or {}  # `dir` for a directory (a class directory, or one scanned for jars)
    coords = set(r.get("coords", []))
    # the roots in classpath order (earlier ones shadow later ones), coordinates among the paths
    lines.extend(f"  coord {x}" if x in coords else f"  {kinds.get(x, 'jar')} {x}"
                 for x in r.get("roots", r["jars"] + r.get("coords", [])))
    lines.extend(f"  src {s}" for s in r["src"])
    if r.get("project"):
        lines.append(f"  project {r['project']}{' (with tests)' if r.get('tests') else ''}")
    lines.append(f"  jdk {'yes' if r['jdk'] else 'no'}")
    return lines


def ws_list(r: dict) -> list[str]:
    if not r["workspaces"]:
        return ["no workspaces (create one: jdx ws create <name> --jars <path|glob>)"]
    return [_ws_line(w) for w in r["workspaces"]]


def _ws_line(w: dict) -> str:
    """`workspace app  (current)  3 roots: 1 jar, 1 dir, 1 coord; 1 src · jdk`: one line per workspace, its roots
    counted by kind (`ws info` lists them)."""
    head = f"workspace {w['name']}{'  (current)' if w['current'] else ''}"
    if "unreadable" in w:
        return f"{head}  unreadable: {w['unreadable']}"
    dirs = len(w.get("root_kinds") or {})
    kinds = [(len(w["jars"]) - dirs, "jar"), (dirs, "dir"), (len(w.get("coords", [])), "coord")]
    parts = [f"{len(w['roots'])} {_plural(len(w['roots']), 'root')}: "
             + ", ".join(f"{n} {_plural(n, kind)}" for n, kind in kinds if n)] if w["roots"] else []
    if w["src"]:
        parts.append(f"{len(w['src'])} src")
    if w.get("project"):
        parts.append(f"project {w['project']}{' (with tests)' if w.get('tests') else ''}")
    return f"{head}  {'; '.join(parts) or 'no roots'} · {'jdk' if w['jdk'] else 'no jdk'}"


def _plural(n: int, word: str) -> str:
    return word if n == 1 else word + "s"


def ws_info(r: dict) -> list[str]:
    ws = r["workspace"]
    state = f"cannot be read: {'; '.join(r['unreadable'])} (queries exit 5)" if r.get("unreadable") else \
        "indexed" if r["indexed"] else "not indexed"
    lines = [f"workspace {ws['name'] or '(ad hoc)'}  via {r['how']}  · {state}"]
    lines.extend(f"  found: {how}" for how in r.get("found", []))
    modules = [a for a in r["artifacts"] if a["kind"] == "jrt"]
    for a in r["artifacts"]:
        if a["kind"] != "jrt" or len(modules) < 2:
            lines.append(f"  {a['kind']} {a['name']}  {a['path']}")
        elif a is modules[0]:  # the JDK's modules on one line: the jars are what an agent reads this for
            lines.append(f"  jrt {len(modules)} JDK modules  {a['name']} … {modules[-1]['name']}  (--json lists each)")
    for root in r.get("sources", ()):
        whose = {"all": "every artifact", "jdk": "the JDK"}.get(root["for"]) if isinstance(root["for"], str) else \
            ", ".join(root["for"][:3]) + (f" and {len(root['for']) - 3} more" if len(root["for"]) > 3 else "")
        lines.append(f"  sources {root['path']}  ({root['how']}; for {whose})")
    return lines


def bench(r: dict) -> list[str]:
    lines = [f"bench on {r['machine']}"]
    for row in r["rows"]:
        lines.append(f"  {row['name']}: {row['value']}{(' — ' + row['note']) if row.get('note') else ''}")
    return lines
