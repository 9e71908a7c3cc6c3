"""`jdx bench` rows for decompilation and the javap engine.

Goals (issue 6, spec §15): first decompilation of a large class ≤ 500 ms beyond JVM start, cached repeat ≤ 20 ms;
the javap engine needs no child process. The fresh-process rows run a child Python so the JVM start and the
engine's class loading are really paid; the in-process rows reuse this process's JVM.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
import time
from functools import partial
from pathlib import Path

from jdx.bench.util import row
from jdx.loaders.jvm_tools import LoaderJvmTools

LARGE = ("jrt", "jrt:/java.base", "java/util/HashMap")
WARM = [("jrt", "jrt:/java.base", "java/util/TreeMap"),
        ("jrt", "jrt:/java.base", "java/util/concurrent/ConcurrentHashMap")]
MEMBER = ("get", "(Ljava/lang/Object;)Ljava/lang/Object;")

_CHILD = """
import json, sys, time
from pathlib import Path
from jdx.loaders import decompile as d, java_tools as jt, jvm
mode, jvm_cache, cache, kind, path, name = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3]), *sys.argv[4:7]
t0 = time.perf_counter()
if mode == "first":
    jt.ensure_jvm(jvm_cache)
t1 = time.perf_counter()
result = d.decompile_class(cache, kind, path, name, [])
t2 = time.perf_counter()
print(json.dumps({"jvm_ms": (t1 - t0) * 1000, "ms": (t2 - t1) * 1000, "cached": result.cached,
                  "jvm_started": jvm.jvm_running()}))
"""
_row = partial(row, digits=0)


def _child(mode: str, jvm_cache: Path, cache: Path) -> dict:
    """One fresh Python process decompiling LARGE: `first` starts the JVM, then times an uncached run (engine
    class loading included, JVM start not); `cached` times a cache hit and reports whether a JVM was started."""
    proc = subprocess.run([sys.executable, "-c", _CHILD, mode, str(jvm_cache), str(cache), *LARGE],
                          capture_output=True, text=True, timeout=300)
    lines = proc.stdout.strip().splitlines()
    return json.loads(lines[-1]) if proc.returncode == 0 and lines else {}


def rows(service, iterations: int) -> list[dict]:
    """Rows of {name, value, seconds}: decompilation first and cached, javap member blocks."""
    from jdx.engine import bytecode_view
    from jdx.loaders import decompile, java_tools

    engines = decompile.available_engines()
    if not engines:
        return [{"name": "decompilation", "value": "skipped: no decompiler installed", "seconds": 0.0}]
    out = []
    with tempfile.TemporaryDirectory(prefix="jdx-bench-decompile-") as tmp:
        work = Path(tmp)
        java_tools.ensure_jvm(service.cache)
        firsts, jvm_starts, cached = [], [], []
        for i in range(max(1, iterations)):
            first = _child("first", service.cache, work / f"fresh-{i}")
            if first and not first["cached"]:
                firsts.append(first["ms"] / 1000)
                jvm_starts.append(first["jvm_ms"] / 1000)
            hit = _child("cached", service.cache, work / f"fresh-{i}")
            if hit and hit["cached"] and not hit["jvm_started"]:
                cached.append(hit["ms"] / 1000)
        name = LARGE[2].replace("/", ".")
        if firsts:
            out.append(_row(f"first decompilation of {name} in a fresh process, beyond JVM start ({engines[0][0]})",
                            statistics.median(firsts), 500,
                            f" median of {len(firsts)}, engine class loading included; JVM start "
                            f"{statistics.median(jvm_starts) * 1000:.0f} ms"))
        if cached:
            out.append(_row(f"cached decompilation of {name} in a fresh process (no JVM started)",
                            statistics.median(cached), 20, f" median of {len(cached)}"))
        decompile.decompile_class(work / "warm", *LARGE, [])  # engine loaded, its hot code compiled
        for other in WARM:
            start = time.perf_counter()
            decompile.decompile_class(work / "warm", *other, [])
            out.append(_row(f"first decompilation of {other[2].replace('/', '.')} with the engine warm in-process",
                            time.perf_counter() - start, 500))
        samples = []
        for _ in range(max(iterations, 10)):
            start = time.perf_counter()
            decompile.decompile_class(work / "warm", *WARM[0], [])
            samples.append(time.perf_counter() - start)
        out.append(_row("cached repeat in-process", statistics.median(samples), 20, f" median of {len(samples)}"))
        bytecode_view._javap_class.cache_clear()
        start = time.perf_counter()
        bytecode_view.javap_member(LoaderJvmTools(), service.cache, *LARGE, *MEMBER)
        out.append(_row(f"javap block of {name}#get(Object) through the in-process ToolProvider, first",
                        time.perf_counter() - start, None))
        samples = []
        for _ in range(max(iterations, 10)):
            bytecode_view._javap_class.cache_clear()
            start = time.perf_counter()
            bytecode_view.javap_member(LoaderJvmTools(), service.cache, *LARGE, *MEMBER)
            samples.append(time.perf_counter() - start)
        out.append(_row("javap member block, fresh javap run each time (no remembered text)",
                        statistics.median(samples), None, f" median of {len(samples)}"))
    return out
