"""The JSON envelope of spec §8.2 and its text form, shared by every adapter.

Text is always rendered from the JSON-decoded envelope, so an answer printed in process and one received
from a daemon are the same bytes.
"""

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
    return warning_lines_json(_warnings_json(warnings))


# how the workspace's classpath was found (Maven, Gradle, IDE resolution): every answer of the workspace carries
# them, each in the JSON; a query's text folds several into one line (`fold_resolution`), `ws info` prints each
RESOLUTION_CODES = frozenset({
    "DEPENDENCY_MISSING", "POM_MISSING", "POM_INVALID", "POM_ONLY_ARTIFACT", "POM_TOO_LARGE", "RESOLVE_PROBLEM",
    "RESOLVE_FAILED", "RESOLVE_TIMEOUT", "RESOLVER_UNAVAILABLE", "MAVEN_RESOLVER_UNAVAILABLE",
    "MODULE_VERSION_CONFLICT", "GRADLE_DEPENDENCY_UNRESOLVED", "GRADLE_RULE_IGNORED", "BUILD_FILE_INVALID",
    "BUILD_FILE_TOO_LARGE", "IDEA_PATH_VARIABLE", "ARTIFACT_MISSING", "PROJECT_NOT_BUILT",
})


def warning_lines_json(items: list[dict], fold_resolution: bool = False) -> list[str]:
    """Text lines of an envelope's `warnings` (already deduplicated). `fold_resolution`: several warnings on how the
    classpath was found (RESOLUTION_CODES) are one line naming their codes, where the first of them was: a query's
    answer repeated them all after every answer (9 lines, 1.5 KB, for one Maven coordinate)."""
    folded = [w for w in items if w["code"] in RESOLUTION_CODES] if fold_resolution else []
    if len(folded) > 1:
        counts: dict[str, int] = {}
        for w in folded:
            counts[w["code"]] = counts.get(w["code"], 0) + 1
        codes = ", ".join(c + (f" ×{n}" if n > 1 else "") for c, n in counts.items())
        line = {"code": "", "message": f"{len(folded)} warnings on how the classpath was found ({codes}): jdx ws info "
                                       "prints each (with the same workspace flags); --json carries them"}
        first = items.index(folded[0])
        items = [*items[:first], line, *(w for w in items[first:] if w["code"] not in RESOLUTION_CODES)]
    lines = [f"⚠ {w['code']}: {w['message']}" if w["code"] else f"⚠ {w['message']}"
             for w in items[:MAX_TEXT_WARNINGS]]
    if len(items) > MAX_TEXT_WARNINGS:
        lines.append(f"… {len(items) - MAX_TEXT_WARNINGS} more warnings (--json shows all)")
    return lines


CANDIDATE_LINES = 10  # an ambiguity's text lists at most this many candidates, and every usable one up to:
USABLE_LINES = 25  # a name 42 nested classes share (Trove's `HashProcedure`) lists 25, the rest counted
MAX_CANDIDATE_PAD = 60  # candidates align their artifacts to this column at most (a 240-character ref padded all)


def error_lines(env: dict) -> list[str]:
    """Text lines of a failure envelope: the message, candidates, hint and warnings."""
    error = env["error"]
    code = error.get("code")
    lines = [error["message"] if code in ("NOT_FOUND", "AMBIGUOUS") else f"error: {error['message']}"]
    candidates = env.get("candidates") or []
    if candidates:
        lines.append("did you mean:" if code == "NOT_FOUND" else "candidates:")
        # every candidate code outside the JDK can use; the JDK's internals past CANDIDATE_LINES counted, not listed
        usable = sum(1 for c in candidates if not c.get("jdk_internal"))
        shown = candidates if len(candidates) <= CANDIDATE_LINES else \
            [c for i, c in enumerate(candidates) if not c.get("jdk_internal") or i < max(CANDIDATE_LINES, usable)]
        shown = shown[:USABLE_LINES]
        width = min(max(len(c.get("ref", "")) for c in shown), MAX_CANDIDATE_PAD)  # one long ref pads no other
        for c in shown:
            extra = "  ".join(x for x in (c.get("artifact", ""), "(JDK internal)" if c.get("jdk_internal") else "",
                                          "(non-public)" if c.get("public") is False else "",
                                          "[deprecated]" if c.get("deprecated") else "",
                                          f"({c['overloads']} overloads)" if c.get("overloads", 1) > 1 else "") if x)
            lines.append(f"  {c.get('ref', '').ljust(width)}  {extra}".rstrip())
        if len(shown) < len(candidates):
            listed = {id(c) for c in shown}
            more = len(candidates) - len(shown)
            internal = all(c.get("jdk_internal") for c in candidates if id(c) not in listed)
            lines.append(f"  … {more} more{' JDK internal' + 's' * (more != 1) if internal else ''} "
                         "(--json lists every candidate)")
    if error.get("hint"):
        lines.append(f"hint: {error['hint']}")
    return lines + warning_lines_json(env.get("warnings") or [], fold_resolution=True)


def error_stream(env: dict) -> str:
    """Where a failure's text goes: not-found and ambiguous answers are answers (stdout), the rest stderr."""
    return "stdout" if env["error"].get("code") in ("NOT_FOUND", "AMBIGUOUS") else "stderr"


def load(text: str) -> dict:
    return json.loads(text)
