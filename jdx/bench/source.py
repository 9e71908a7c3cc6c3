"""`jdx bench` rows for sources and bodies: warm measurements on an indexed service.

Goals (issue #6): `body` from sources ≤ 50 ms warm after the first parse (on `java.util.HashMap#get(Object)`
with the JDK's src.zip); a decompiled body from the decompiler's cache ≤ 20 ms. The decompiler's own first
and cached decompilation times are rows of its bench (jdx/loaders/decompile.py's owner).
"""

from __future__ import annotations

import time

from jdx.bench.util import ask, row as _row, warm_median

HOT = "java.util.HashMap#get(Object)"
DECOMPILED = "java.util.ArrayList#add(Object)"


def _once(fn) -> tuple[float, object]:
    start = time.perf_counter()
    answer = fn()
    return time.perf_counter() - start, answer


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


def _decompiled_body_row(service, iterations: int) -> dict:
    """`body --engine <engine>` once the class is decompiled and cached: the parse and match on top of the
    decompiler's disk cache (first and cached decompilation themselves are bench rows of the decompiler)."""
    from jdx.loaders import decompile

    engines = decompile.available_engines()
    if not engines:
        return {"name": "decompiled body", "value": "skipped: no decompiler installed", "seconds": 0.0}
    engine = engines[0][0]
    secs, answer = warm_median(lambda: ask(service, "body", DECOMPILED, engine=engine), iterations)
    if answer.result["origin"] != "decompiled":
        codes = ", ".join(w.code for w in answer.warnings)
        return {"name": "decompiled body", "value": f"skipped: fell back to {answer.result['origin']} ({codes})",
                "seconds": 0.0}
    return _row(f"warm `body {DECOMPILED} --engine {engine}` (decompiled text cached), median", secs, 20)


def rows(service, iterations: int) -> list[dict]:
    """Rows of {name, value, seconds} measured on `service` (already indexed, warm)."""
    if "java.base" not in {a.name for a in service.artifacts()}:
        return [{"name": "sources", "value": "skipped: the workspace has no JDK", "seconds": 0.0}]
    first = ask(service, "body", HOT)
    if first.result["origin"] != "sources":
        return [{"name": "sources", "value": "skipped: no JDK lib/src.zip", "seconds": 0.0}]
    out = []
    secs, size = _first_parse(service)
    out.append(_row("first tree-sitter parse of java/util/HashMap.java, no cache", secs, None, f", {size:,} bytes"))
    secs, _ = warm_median(lambda: ask(service, "body", HOT), iterations)
    out.append(_row(f"warm `body {HOT}`, median", secs, 50))
    secs, _ = warm_median(lambda: ask(service, "doc",
                                          "java.util.ArrayList#removeIf(java.util.function.Predicate)"), iterations)
    out.append(_row("warm `doc java.util.ArrayList#removeIf(Predicate)` (inherited from Collection), median",
                    secs, None))
    secs, _ = warm_median(lambda: ask(service, "source", "java.util.HashMap", around="get(Object)", context=5), iterations)
    out.append(_row("warm `source java.util.HashMap --around 'get(Object)'`, median", secs, None))
    out.append(_decompiled_body_row(service, iterations))
    return out
