"""`jdx bench` rows for search and navigation: warm searches on an indexed service, and cold one-shot
`python -m jdx search` processes (goal, issue #5: any search on the whole JDK <= 50 ms warm, <= 250 ms cold)."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time

from jdx.bench.util import ask
from jdx.errors import NotFoundError

# (label, pattern, options): specific, glob, fuzzy and broad patterns
WARM_CASES = [
    ("camel-hump `search HMap`", "HMap", {}),
    ("camel-hump `search gCL --kind method`", "gCL", {"kind": ("method",)}),
    ("glob `search 'H*Map' --kind class`", "H*Map", {"kind": ("class",)}),
    ("typo `search HashMpa --fuzzy`", "HashMpa", {"fuzzy": True}),
    ("broad `search get`", "get", {}),
    ("regex `search --regex '^get[A-Z]+$'`", "^get[A-Z]+$", {"regex": True}),
]
COLD_CASES = [["search", "HMap"], ["search", "H*Map", "--kind", "class"]]
WARM_GOAL_MS, COLD_GOAL_MS = 50, 250


def _warm(service, pattern: str, options: dict, iterations: int) -> float:
    """Median seconds of one search in a process whose graph is open (its first run not counted)."""
    def once() -> None:
        try:
            ask(service, "search", pattern, **options)
        except NotFoundError:
            pass

    once()
    samples = []
    for _ in range(max(iterations, 5)):
        start = time.perf_counter()
        once()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def _cold(args: list[str], service, iterations: int) -> float:
    """Median wall seconds of `python -m jdx <args>` as a fresh process on the already-built graph."""
    env = dict(os.environ)
    if service.options.cache_dir:
        env["JDX_CACHE_DIR"] = str(service.options.cache_dir)
    extra: list[str] = []
    for jar in service.options.jars:
        extra += ["--jars", jar]
    if service.options.jdk is False:
        extra.append("--no-jdk")
    samples = []
    for _ in range(max(iterations, 3)):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "jdx", *args, *extra], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, env=env, check=False)
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def rows(service, iterations: int) -> list[dict]:
    """Rows of {name, value, seconds} measured on `service` (already indexed, warm): the search index's load
    (once per open graph), then each warm case."""
    from jdx.engine.search_index import NameIndex

    out = []
    store = service.store()
    start = time.perf_counter()
    NameIndex(store)
    load = time.perf_counter() - start
    out.append({"name": "search index load (once per open graph)", "seconds": load,
                "value": f"{load * 1000:.0f} ms"})
    for label, pattern, options in WARM_CASES:
        secs = _warm(service, pattern, options, iterations)
        verdict = "met" if secs * 1000 <= WARM_GOAL_MS else "missed"
        out.append({"name": f"warm {label}", "seconds": secs,
                    "value": f"{secs * 1000:.1f} ms median (goal <= {WARM_GOAL_MS} ms: {verdict})"})
    for args in COLD_CASES:
        secs = _cold(args, service, iterations)
        verdict = "met" if secs * 1000 <= COLD_GOAL_MS else "missed"
        out.append({"name": f"cold one-shot `jdx {' '.join(args)}`", "seconds": secs,
                    "value": f"{secs * 1000:.0f} ms median, process start included (goal <= {COLD_GOAL_MS} ms: "
                             f"{verdict})"})
    return out
