"""`jdx bench` rows for the relationship graph: warm measurements on an indexed service.

Goals (DESIGN §5): `usages` and `callers --depth 1` of a hot JDK method ≤ 50 ms warm on the whole JDK;
`callers --depth 5` bounded by `--limit` in time and output. Each answer is computed afresh (no
remembered rows for the relationship queries), so the figure is what a daemon pays for a new question.
"""

from __future__ import annotations

import statistics
import time
from functools import partial

from jdx.bench.util import ask, row, slowest, warm_median, warm_runs

HOT = "java.util.List#size()"
_row = partial(row, unit="ms median")


def rows(service, iterations: int) -> list[dict]:
    """Rows of {name, value, seconds} measured on `service` (already indexed, warm)."""

    from jdx.graph_schema import queries_graph as q

    if not service.store().rows_cached(q.METHODS_BY_IDS.one, {"id": "java/util/List#size()I"}):
        return [{"name": "relationship graph", "value": "skipped: the workspace has no JDK", "seconds": 0.0}]
    out = [_primed(service)]
    runs, answer = warm_runs(lambda: ask(service, "usages", HOT), iterations)
    out.append(_row(f"warm `usages {HOT}`", statistics.median(runs), 50,
                    f", {answer.result['total']:,} sites, 50 shown{slowest(runs)}"))
    runs, answer = warm_runs(lambda: ask(service, "callers", HOT, depth=1), iterations)
    total = answer.truncated["total"] if answer.truncated else 0
    out.append(_row(f"warm `callers {HOT} --depth 1`", statistics.median(runs), 50,
                    f", {total:,} callers, 50 shown{slowest(runs)}"))
    for limit in (50, 200):
        secs, answer = warm_median(lambda: ask(service, "callers", HOT, depth=5, limit=limit), iterations)
        shown = answer.truncated["shown"] if answer.truncated else limit
        out.append(_row(f"warm `callers {HOT} --depth 5 --limit {limit}`", secs, None,
                        f", {shown} entries shown (time grows with --limit, not with the tree)"))
    secs, _ = warm_median(lambda: ask(service, "calls", "java.util.HashMap#put", depth=3), iterations)
    out.append(_row("warm `calls java.util.HashMap#put --depth 3`", secs, None))
    secs, _ = warm_median(lambda: ask(service, "hierarchy", "java.util.AbstractList"), iterations)
    out.append(_row("warm `hierarchy java.util.AbstractList`", secs, None))
    runs, _ = warm_runs(lambda: ask(service, "hierarchy", "java.lang.Object"), iterations)
    out.append(_row("warm `hierarchy java.lang.Object` (every class of the workspace)", statistics.median(runs), None,
                    slowest(runs)))
    return out


def _primed(service) -> dict:
    """A long-lived reader's answers read node properties until it has read `METHOD_COLUMNS_AFTER` method rows,
    then it loads every method's columns and what it derives from them (bridge-twin keys, lambda writers) once:
    that answer is timed here, so the warm rows that follow measure the reader as a daemon holds it."""
    store = service.store()
    asked = 0
    while store.method_columns() is None and asked < 20:
        ask(service, "usages", HOT)
        asked += 1
    store.reader_indexes.clear()
    start = time.perf_counter()
    ask(service, "usages", HOT)
    seconds = time.perf_counter() - start
    return row(f"a long-lived reader's `usages {HOT}` deriving its indexes from the method columns (bridge-twin keys, "
               f"lambda writers; the columns were loaded within its first {asked} answers)", seconds, None)
