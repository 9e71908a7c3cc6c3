"""`jdx bench` row for Kotlin (spec §12.1): what decoding `@kotlin.Metadata` adds to the cold index of the
Kotlin standard library (goal ≤ 10%). The stdlib comes from the local Maven repository; absent, the row says so."""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

STDLIB_VERSIONS = ("2.0.21", "1.9.10", "1.8.21")


def stdlib_jar() -> Path | None:
    base = Path.home() / ".m2/repository/org/jetbrains/kotlin/kotlin-stdlib"
    for v in STDLIB_VERSIONS:
        jar = base / v / f"kotlin-stdlib-{v}.jar"
        if jar.exists():
            return jar
    return None


def rows(prepare_cache, iterations: int = 3) -> list[dict]:
    """`prepare_cache(cache)` readies an empty cache the way the cold-index row does (extractor compiled)."""
    jar = stdlib_jar()
    name = "cold index of the Kotlin stdlib jar (--no-jdk): @Metadata decoding share"
    if jar is None:
        return [{"name": name, "value": "skipped: no kotlin-stdlib in ~/.m2", "seconds": 0.0}]
    samples = []
    searches: list[dict] = []
    for i in range(max(1, iterations)):
        cache = Path(tempfile.mkdtemp(prefix="jdx-bench-kotlin-"))
        try:
            prepare_cache(cache)
            env = {**os.environ, "JDX_CACHE_DIR": str(cache)}
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            out = subprocess.run([sys.executable, "-m", "jdx", "index", "--json", "--jars", str(jar), "--no-jdk"],
                                 capture_output=True, text=True, env=env).stdout
            wall = time.perf_counter() - start
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            result = json.loads(out)["result"] if out.strip().startswith("{") else {}
            samples.append((cpu, wall, float(result.get("phases", {}).get("kotlin", 0.0)), result.get("classes", 0)))
            if i == 0 and result:
                searches = search_rows(jar, cache, iterations)
        finally:
            shutil.rmtree(cache, ignore_errors=True)
    samples.sort()
    cpu, wall, kotlin, classes = samples[len(samples) // 2]
    share = kotlin / max(cpu - kotlin, 1e-9)  # CPU against CPU: the share holds on a loaded machine too
    return [{"name": f"{name} ({jar.name})",
             "value": f"{wall:.2f} s wall, {cpu:.2f} s CPU, {classes:,} classes; decoding {kotlin * 1000:.0f} ms CPU "
                      f"= {share * 100:.1f}% of the rest (goal ≤ 10%), median of {len(samples)}",
             "seconds": wall, "cpu_seconds": cpu, "kotlin_seconds": kotlin, "share": share}] + searches


SEARCHES = ("map", "get", "filter")


def search_rows(jar: Path, cache: Path, iterations: int) -> list[dict]:
    """Warm `search` on the stdlib in one process, Kotlin view against JVM view (the search index and the Kotlin
    links in memory)."""
    import statistics

    from jdx.bench.util import ask
    from jdx.commands.session import Options, Session

    session = Session(Options(jars=[str(jar)], jdk=False, cache_dir=str(cache)))
    out = []
    try:
        session.store()
        for pattern in SEARCHES:
            medians = {}
            for view in ("kotlin", "jvm"):
                ask(session, "search", pattern, view=view)
                runs = []
                for _ in range(max(iterations, 15)):
                    start = time.perf_counter()
                    ask(session, "search", pattern, view=view)
                    runs.append(time.perf_counter() - start)
                medians[view] = statistics.median(runs)
            out.append({"name": f"warm `search {pattern}` on {jar.name}: Kotlin view (JVM view)",
                        "value": f"{medians['kotlin'] * 1000:.1f} ms ({medians['jvm'] * 1000:.1f} ms)",
                        "seconds": medians["kotlin"]})
    finally:
        session.close()
    return out
