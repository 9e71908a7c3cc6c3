"""`jdx bench` rows for the relationship graph: warm measurements on an indexed service.

Goals (DESIGN §5): `usages` and `callers --depth 1` of a hot JDK method ≤ 50 ms warm on the whole JDK;
`callers --depth 5` bounded by `--limit` in time and output. Each answer is computed afresh (no
remembered rows for the relationship queries), so the figure is what a daemon pays for a new question.
"""

from __future__ import annotations

from functools import partial

from jdx.bench.util import ask, row, warm_median

HOT = "java.util.List#size()"
_row = partial(row, unit="ms median")


def rows(service, iterations: int) -> list[dict]:
    """Rows of {name, value, seconds} measured on `service` (already indexed, warm)."""

    from jdx.graph_schema import queries_graph as q

    if not service.store().rows_cached(q.METHODS_BY_IDS.one, {"id": "java/util/List#size()I"}):
        return [{"name": "relationship graph", "value": "skipped: the workspace has no JDK", "seconds": 0.0}]
    out = []
    secs, answer = warm_median(lambda: ask(service, "usages", HOT), iterations)
    out.append(_row(f"warm `usages {HOT}`", secs, 50, f", {answer.result['total']:,} sites, 50 shown"))
    secs, answer = warm_median(lambda: ask(service, "callers", HOT, depth=1), iterations)
    total = answer.truncated["total"] if answer.truncated else 0
    out.append(_row(f"warm `callers {HOT} --depth 1`", secs, 50, f", {total:,} callers, 50 shown"))
    for limit in (50, 200):
        secs, answer = warm_median(lambda: ask(service, "callers", HOT, depth=5, limit=limit), iterations)
        shown = answer.truncated["shown"] if answer.truncated else limit
        out.append(_row(f"warm `callers {HOT} --depth 5 --limit {limit}`", secs, None,
                        f", {shown} entries shown (time grows with --limit, not with the tree)"))
    secs, _ = warm_median(lambda: ask(service, "calls", "java.util.HashMap#put", depth=3), iterations)
    out.append(_row("warm `calls java.util.HashMap#put --depth 3`", secs, None))
    secs, _ = warm_median(lambda: ask(service, "hierarchy", "java.util.AbstractList"), iterations)
    out.append(_row("warm `hierarchy java.util.AbstractList`", secs, None))
    return out
