"""`jdx bench`: the figures of docs/PERFORMANCE.md, measured on this machine (never asserted by tests)."""

from __future__ import annotations

import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from jdx.bench.util import ask, row, warm_median
from jdx.commands.session import Options, Session
from jdx.engine.answer import Answer


def _run_child(args: list[str], env: dict) -> tuple[float, int, str]:
    """Wall seconds, peak RSS (bytes) and stdout of one child process."""
    start = time.perf_counter()
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True)
    out = proc.stdout.read() if proc.stdout else ""
    _pid, _status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(_status)
    return time.perf_counter() - start, usage.ru_maxrss * 1024, out


def _median_seconds(args: list[str], env: dict, iterations: int) -> float:
    return statistics.median(_run_child(args, env)[0] for _ in range(iterations))


def run_bench(service: Session, iterations: int = 3) -> Answer:
    from jdx.loaders import jvm

    rows: list[dict] = []
    java = jvm.find_java_home()
    cache = Path(tempfile.mkdtemp(prefix="jdx-bench-"))
    env = {**os.environ, "JDX_CACHE_DIR": str(cache)}
    jdx = [sys.executable, "-m", "jdx"]
    try:
        asm, _ = jvm.find_asm(cache)
        start = time.perf_counter()
        classes_dir = jvm.compiled_extractor(cache, java, asm)
        rows.append({"name": "extractor compile with javac (once per install, not part of indexing)",
                     "value": f"{time.perf_counter() - start:.2f} s", "seconds": time.perf_counter() - start})
        secs, rss, out = _run_child(jdx + ["index", "--json", *_workspace_args(service)], env)
        import json

        result = json.loads(out)["result"] if out.strip().startswith("{") else {}
        classes = result.get("classes", 0)
        cold_index = secs
        rows.append({"name": "cold index (empty shard cache, JVM start included)",
                     "value": f"{secs:.2f} s, {classes:,} classes, {classes / secs:,.0f} classes/s, "
                              f"peak RSS {rss / 2**20:,.0f} MB; phases {result.get('phases')}",
                     "seconds": secs, "classes": classes, "rss": rss})
        shutil.rmtree(cache / "graphs", ignore_errors=True)
        secs, rss, _ = _run_child(jdx + ["index", "--json", *_workspace_args(service)], env)
        rows.append({"name": "graph rebuild from cached shards (no extraction)",
                     "value": f"{secs:.2f} s, {classes / secs:,.0f} classes/s", "seconds": secs})
        rerun = _median_seconds(jdx + ["index", "--json", *_workspace_args(service)], env, iterations)
        rows.append({"name": "re-run on an unchanged workspace (process start included)",
                     "value": f"{rerun * 1000:.0f} ms median of {iterations}", "seconds": rerun})
        if not service.options.jars and service.options.jdk is not False and not service.options.workspace:
            from jdx.bench import incremental as bench_incremental

            rows.extend(bench_incremental.rows(cache, env, jdx, cold_index))
        java_bin = java.home / "bin" / "java"
        secs, _rss, out = _run_child([str(java_bin), "-cp", f"{asm}:{classes_dir}", "jdx.extract.BareScan"], env)
        count, _, ms = out.strip().partition(" ")
        rows.append({"name": "bare ASM scan of the JDK (separate JVM, baseline)",
                     "value": f"{secs:.2f} s wall ({ms} ms inside the JVM, {count} classes)", "seconds": secs})
        cold = _median_seconds(jdx + ["members", "java.util.HashMap", "--no-daemon", *_workspace_args(service)], env,
                               iterations)
        javap = java.home / "bin" / "javap"
        javap_secs = _median_seconds([str(javap), "-p", "java.util.HashMap"], env, iterations) if javap.exists() \
            else None
        rows.append({"name": "cold one-shot `jdx members java.util.HashMap --no-daemon`",
                     "value": f"{cold * 1000:.0f} ms median"
                              + (f" (javap -p: {javap_secs * 1000:.0f} ms)" if javap_secs else ""),
                     "seconds": cold})
        rows.extend(_daemon_rows(service, cache, env, iterations, javap_secs))
        from jdx.bench.serve import serve_rows

        rows.extend(serve_rows(_workspace_args(service), env, max(iterations * 5, 20)))
        from jdx.bench import diff as bench_diff

        rows.extend(bench_diff.rows(cache, env, iterations))
        from jdx.bench import discovery as bench_discovery

        rows.extend(bench_discovery.rows(cache, env, iterations))
        warm = Session(Options(**{**service.options.__dict__, "cache_dir": str(cache)}))
        ask(warm, "members", "java.util.HashMap")
        samples = []
        for _ in range(max(iterations, 10)):
            start = time.perf_counter()
            ask(warm, "members", "java.util.HashMap")
            samples.append(time.perf_counter() - start)
        rows.append({"name": "warm `members java.util.HashMap` in one process",
                     "value": f"{statistics.median(samples) * 1000:.1f} ms median of {len(samples)}",
                     "seconds": statistics.median(samples)})
        from jdx.bench import decompile as bench_decompile
        from jdx.bench import graph as bench_graph
        from jdx.bench import search as bench_search
        from jdx.bench import source as bench_source

        for mod in (bench_graph, bench_search, bench_source, bench_decompile):
            rows.extend(mod.rows(warm, iterations))
        rows.extend(_samples_rows(warm, iterations))
        warm.close()
        from jdx.bench import kotlin as bench_kotlin

        rows.extend(bench_kotlin.rows(lambda c: jvm.compiled_extractor(c, java, asm), iterations))
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    return Answer({"machine": machine_line(java), "rows": rows})


def machine_line(java=None) -> str:
    """The machine a bench ran on, for the answer's first line."""
    if java is None:
        from jdx.loaders import jvm

        java = jvm.find_java_home()
    return f"{platform.machine()}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, " \
           f"Python {platform.python_version()}, JVM {java.home.name}"


def _daemon_rows(service: Session, cache: Path, env: dict, iterations: int, javap_secs: float | None) -> list[dict]:
    """The daemon's rows (jdx.bench.daemon), with the one-shot-through-a-daemon figure set against javap."""
    from jdx.bench.daemon import daemon_rows
    from jdx.daemon.paths import workspace_flags

    o = service.options
    workspace = workspace_flags(o.workspace, o.jars, o.src, o.sources, o.jdk, str(cache))
    rows = daemon_rows(workspace, max(iterations * 5, 20), env)
    for r in rows:
        if javap_secs and r["name"].startswith("one-shot") and r["seconds"]:
            r["value"] += f" = {r['seconds'] / javap_secs:.2f}x javap -p ({javap_secs * 1000:.0f} ms; goal ≤ 0.3x)"
    return rows


def _workspace_args(service: Session) -> list[str]:
    o = service.options
    args: list[str] = []
    if o.workspace:
        args += ["-w", o.workspace]
    for j in o.jars:
        args += ["--jars", j]
    if o.jdk is False:
        args.append("--no-jdk")
    return args


def _samples_rows(service: Session, iterations: int) -> list[dict]:
    """Warm `samples` of a JDK method with hundreds of call sites, ranked and rendered from src.zip."""
    from jdx.errors import JdxError

    ref = "java.util.HashMap#get(Object)"
    try:
        secs, answer = warm_median(lambda: ask(service, "samples", ref), iterations, minimum=5)
    except JdxError as exc:  # a workspace without the JDK has no such method: say so
        return [{"name": f"warm `samples {ref}`", "value": f"skipped: {exc}", "seconds": 0.0}]
    r = answer.result
    return [row(f"warm `samples {ref}` ({r['total']} sites, {r['with_sources']} shown from sources)", secs,
                unit="ms median")]
