"""Text renderings of read-path answers (spec §8.1)."""

from __future__ import annotations


def _member_lines(r: dict, brief: bool) -> list[str]:
    lines: list[str] = []
    current = None
    for m in r["members"]:
        if not brief and m["declaring"] != current:
            current = m["declaring"]
            lines.append(f"members of {current}" if current == r["type"] else f"inherited from {current}")
        lines.append(("" if brief else "  ") + f"{m['kind']} {m['text']}" + ("  @Deprecated" if m["deprecated"] else ""))
        if m.get("doc"):
            lines.append(("  " if brief else "    ") + f"// {m['doc']}")
    return lines


def members_truncation(r: dict, brief: bool, max_lines: int | None) -> dict | None:
    if max_lines is None:
        return None
    total = len(_member_lines(r, brief))
    if total <= max_lines:
        return None
    return {"shown": max_lines, "total": total, "hint": "narrow with --grep or --from <supertype>, or raise --max-lines"}


def members(r: dict, brief: bool, max_lines: int | None, grep: str | None) -> list[str]:
    lines = _member_lines(r, brief)
    if max_lines is not None and len(lines) > max_lines:
        lines = lines[:max_lines]
    for owner, count in r["collapsed"].items():
        lines.append(f"+ {count} from {owner} (--from {owner} to expand)")
    if not brief:
        n = len(r["members"])
        extra = f" (filtered by --grep {grep!r})" if grep else ""
        lines.append(f"{n} member{'s' if n != 1 else ''} shown{extra} · {r['kind']} {r['type']} · {r['artifact_name']} (bytecode)")
    return lines
