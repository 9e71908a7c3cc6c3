"""Text rendering of `jdx schema`: one block per table, a property per line, then example queries."""

from __future__ import annotations

import shlex


def schema(r: dict, brief: bool = False) -> list[str]:
    lines = ["node tables"]
    for n in r["nodes"]:
        lines.append(f"  {n['name']}  ({n['rows']:,} rows; key {n['key']})  {n['meaning']}")
        if not brief:
            width = max(len(p["name"]) for p in n["properties"])
            lines += [f"    {p['name'].ljust(width)}  {p['type']:<9} {p['meaning']}" for p in n["properties"]]
    lines.append("relationship tables")
    for t in r["relationships"]:
        ends = ", ".join(f"({e['from']})-[:{t['name']}]->({e['to']})" for e in t["ends"])
        lines.append(f"  {t['name']}  ({t['rows']:,} rows)  {t['meaning']}")
        if not brief:
            lines.append(f"    {ends}")
            lines += [f"    {p['name']}  {p['type']:<9} {p['meaning']}" for p in t["properties"]]
    lines.append("examples")
    for e in r["examples"]:
        lines.append(f"  # {e['title']}")
        q = e["query"]
        lines.append(f'  jdx cypher "{q}"' if not any(c in q for c in '"$`\\!') else f"  jdx cypher {shlex.quote(q)}")
    return lines
