"""`jdx bench` rows for the relationship graph: warm measurements on an indexed service.

Goals (DESIGN §5): `usages` and `callers --depth 1` of a hot JDK method ≤ 50 ms warm on the whole JDK;
`callers --depth 5` bounded by `--limit` in time and output. Each answer is computed afresh (no
remembered rows for the relationship queries), so the figure is what a daemon pays for a new question.
"""

from __future__ import annotations

import statistics
import time

HOT = "java.util.List#size()"


def _median(fn, iterations: int) -> tuple[float, object]:
    answer = fn()  # the first run prepares the statements
    samples = []
    for _ in range(max(iterations, 10)):
        start = time.perf_counter()
        answer = fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples), answer


def _row(name: str, seconds: float, goal_ms: float | None, extra: str = "") -> dict:
    value = f"{seconds * 1000:.1f} ms median" + (f" (goal ≤ {goal_ms:.0f} ms)" if goal_ms else "") + extra
    return {"name": name, "value": value, "seconds": seconds}


def rows(service, iterations: int) -> list[dict]:
    """Rows of {name, value, seconds} measured on `service` (already indexed, warm)."""
    from jdx.engine.rel_calls import CallOptions
    from jdx.engine.rel_hierarchy import HierarchyOptions
    from jdx.engine.rel_usages import UsageOptions

    if not service.store().rows_cached("MATCH (m:Method {id: $id}) RETURN m.id",
                                       {"id": "java/util/List#size()I"}):
        return [{"name": "relationship graph", "value": "skipped: the workspace has no JDK", "seconds": 0.0}]
    out = []
    secs, answer = _median(lambda: service.usages(HOT, UsageOptions()), iterations)
    out.append(_row(f"warm `usages {HOT}`", secs, 50, f", {answer.result['total']:,} sites, 50 shown"))
    secs, answer = _median(lambda: service.callers(HOT, CallOptions(depth=1)), iterations)
    total = answer.truncated["total"] if answer.truncated else 0
    out.append(_row(f"warm `callers {HOT} --depth 1`", secs, 50, f", {total:,} callers, 50 shown"))
    for limit in (50, 200):
        secs, answer = _median(lambda: service.callers(HOT, CallOptions(depth=5, limit=limit)), iterations)
        shown = answer.truncated["shown"] if answer.truncated else limit
        out.append(_row(f"warm `callers {HOT} --depth 5 --limit {limit}`", secs, None,
                        f", {shown} entries shown (time grows with --limit, not with the tree)"))
    secs, _ = _median(lambda: service.calls("java.util.HashMap#put", CallOptions(depth=3)), iterations)
    out.append(_row("warm `calls java.util.HashMap#put --depth 3`", secs, None))
    secs, _ = _median(lambda: service.hierarchy("java.util.AbstractList", HierarchyOptions()), iterations)
    out.append(_row("warm `hierarchy java.util.AbstractList`", secs, None))
    return out
