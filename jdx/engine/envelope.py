"""The JSON envelope of spec §8.2 and the text rendering shared by every adapter."""

from __future__ import annotations

import json

from jdx.errors import JdxError, Warning_

MAX_TEXT_WARNINGS = 10


def _warnings_json(warnings: list[Warning_]) -> list[dict]:
    seen, out = set(), []
    for w in warnings:
        key = (w.code, w.message)
        if key not in seen:
            seen.add(key)
            out.append(w.to_json())
    return out


def success(command: str, query: str, answer) -> dict:
    return {
        "jdx": 1,
        "ok": True,
        "command": command,
        "query": query,
        "result": answer.result,
        "truncated": answer.truncated,
        "warnings": _warnings_json(answer.warnings),
        "provenance": answer.provenance,
    }


def failure(command: str, query: str, error: JdxError) -> dict:
    err = error.to_json()
    env = {
        "jdx": 1,
        "ok": False,
        "command": command,
        "query": query,
        "error": err,
        "candidates": error.candidates,
        "warnings": _warnings_json(error.warnings),
    }
    if error.result is not None:
        env["result"] = error.result
    return env


def dumps(envelope: dict) -> str:
    """Deterministic JSON: same input, same bytes."""
    return json.dumps(envelope, ensure_ascii=False, separators=(",", ":"), default=str)


def warning_lines(warnings: list[Warning_]) -> list[str]:
    items = _warnings_json(warnings)
    lines = [f"⚠ {w['code']}: {w['message']}" for w in items[:MAX_TEXT_WARNINGS]]
    if len(items) > MAX_TEXT_WARNINGS:
        lines.append(f"… {len(items) - MAX_TEXT_WARNINGS} more warnings (--json shows all)")
    return lines


def error_lines(error: JdxError) -> list[str]:
    lines = [_error_head(error)]
    if error.candidates:
        lines.append("did you mean:" if error.code == "NOT_FOUND" else "candidates:")
        width = max(len(c.get("ref", "")) for c in error.candidates)
        for c in error.candidates:
            extra = c.get("artifact", "")
            lines.append(f"  {c.get('ref', '').ljust(width)}  {extra}".rstrip())
    if error.hint:
        lines.append(f"hint: {error.hint}")
    return lines + warning_lines(error.warnings)


def _error_head(error: JdxError) -> str:
    if error.code in ("NOT_FOUND", "AMBIGUOUS"):
        return error.message
    return f"error: {error.message}"
