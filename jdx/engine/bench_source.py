"""`jdx bench` rows for sources and bodies: warm measurements on an indexed service.

Goals (issue #6): `body` from sources ≤ 50 ms warm after the first parse (on `java.util.HashMap#get(Object)`
with the JDK's src.zip); first decompilation of a large class ≤ 500 ms, a cached repeat ≤ 20 ms.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

HOT = "java.util.HashMap#get(Object)"
LARGE = "java/util/concurrent/ConcurrentHashMap"


def _median(fn, iterations: int) -> tuple[float, object]:
    answer = fn()
    samples = []
    for _ in range(max(iterations, 10)):
        start = time.perf_counter()
        answer = fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples), answer


def _once(fn) -> tuple[float, object]:
    start = time.perf_counter()
    answer = fn()
    return time.perf_counter() - start, answer


def _row(name: str, seconds: float, goal_ms: float | None, extra: str = "") -> dict:
    value = f"{seconds * 1000:.1f} ms" + (f" (goal ≤ {goal_ms:.0f} ms)" if goal_ms else "") + extra
    return {"name": name, "value": value, "seconds": seconds}


def _first_parse(service) -> tuple[float, int]:
    """tree-sitter parse of HashMap.java with no cache at all (what the first source-level query pays)."""
    from jdx.engine import java_parse
    from jdx.engine.src_locate import source_file

    ctx = service.source_context()
    found = source_file(ctx, ctx.type_row("java/util/HashMap"))
    data = found[0].data
    java_parse._MEMO.pop(java_parse.content_key(data), None)
    secs, _ = _once(lambda: java_parse.parse_source(data, None))
    return secs, len(data)


def _decompile_rows(service, iterations: int) -> list[dict]:
    from jdx.engine.src_body import BodyOptions
    from jdx.loaders import decompile

    if not decompile.available_engines():
        return [{"name": "decompilation", "value": "skipped: no decompiler installed", "seconds": 0.0}]
    arts = {a.name: a for a in service.artifacts()}
    base = arts.get("java.base")
    classpath = [(a.kind, a.path) for a in service.artifacts()]
    out = []
    with tempfile.TemporaryDirectory(prefix="jdx-bench-decompile-") as tmp:
        decompile.decompile_class(Path(tmp), base.kind, base.path, "java/lang/Void", classpath)  # JVM + engine up
        secs, dec = _once(lambda: decompile.decompile_class(Path(tmp), base.kind, base.path, LARGE, classpath))
        out.append(_row(f"first decompilation of {LARGE.replace('/', '.')} ({dec.engine} {dec.engine_version})",
                        secs, 500, f", {len(dec.text.splitlines()):,} lines"))
        secs, _ = _median(lambda: decompile.decompile_class(Path(tmp), base.kind, base.path, LARGE, classpath),
                          iterations)
        out.append(_row("cached repeat of that decompilation, median", secs, 20))
    opts = BodyOptions(engine=dec.engine)
    secs, _ = _median(lambda: service.body("java.util.concurrent.ConcurrentHashMap#get(Object)", opts), iterations)
    out.append(_row(f"warm `body java.util.concurrent.ConcurrentHashMap#get(Object) --engine {dec.engine}`, median",
                    secs, 20))
    return out


def rows(service, iterations: int) -> list[dict]:
    """Rows of {name, value, seconds} measured on `service` (already indexed, warm)."""
    from jdx.engine.src_doc import DocOptions

    if "java.base" not in {a.name for a in service.artifacts()}:
        return [{"name": "sources", "value": "skipped: the workspace has no JDK", "seconds": 0.0}]
    first = service.body(HOT)
    if first.result["origin"] != "sources":
        return [{"name": "sources", "value": "skipped: no JDK lib/src.zip", "seconds": 0.0}]
    out = []
    secs, size = _first_parse(service)
    out.append(_row("first tree-sitter parse of java/util/HashMap.java, no cache", secs, None, f", {size:,} bytes"))
    secs, _ = _median(lambda: service.body(HOT), iterations)
    out.append(_row(f"warm `body {HOT}`, median", secs, 50))
    secs, _ = _median(lambda: service.doc("java.util.ArrayList#removeIf(java.util.function.Predicate)",
                                          DocOptions()), iterations)
    out.append(_row("warm `doc java.util.ArrayList#removeIf(Predicate)` (inherited from Collection), median",
                    secs, None))
    secs, _ = _median(lambda: service.source("java.util.HashMap", around="get(Object)", context=5), iterations)
    out.append(_row("warm `source java.util.HashMap --around 'get(Object)'`, median", secs, None))
    try:
        out.extend(_decompile_rows(service, iterations))
    except Exception as exc:  # noqa: BLE001 - a bench row reports a failure, it does not abort the bench
        out.append({"name": "decompilation", "value": f"failed: {type(exc).__name__}: {exc}"[:200], "seconds": 0.0})
    return out
