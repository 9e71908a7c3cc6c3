"""`jdx bench --executors`: the machine's local Maven repository (the newest version of each artifact, no JDK)
indexed cold by the local executor and by the ray executor (a local Ray instance, one worker per core): wall and
CPU time, and what Ray costs (start-up and shutdown once per run, time per artifact outside the tasks).

Each run is a child `jdx index --json` in a throw-away cache with the extractor already compiled, so both
measure extraction and the graph build only. The child's CPU is what the kernel accounts to it and the children
it reaped; the ray rows also give the CPU the workers spent inside their tasks, measured in the workers."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _child(args: list[str], env: dict) -> tuple[float, float, int, dict]:
    """Wall seconds, CPU seconds (user + system), peak RSS bytes and the JSON result of one child."""
    start = time.perf_counter()
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True)
    with proc.stdout:
        out = proc.stdout.read()
    _pid, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here: Popen must not wait for it again
    wall = time.perf_counter() - start
    try:
        envelope = json.loads(out.strip().splitlines()[-1]) if out.strip() else {}
    except ValueError:
        envelope = {}
    result = envelope.get("result") or {}
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024, result


def _skip(reason: str) -> list[dict]:
    return [{"name": "executors: local vs ray over the local Maven repository", "value": f"skipped: {reason}",
             "seconds": 0.0}]


def rows(iterations: int = 1) -> list[dict]:
    from jdx.loaders import jvm
    from jdx.loaders.maven_repo import local_repository
    from jdx.loaders.ray_executor import ray_available
    from jdx.loaders.roots import expand_jar_arg

    repo, how = local_repository()
    if not repo.is_dir():
        return _skip(f"no local Maven repository at {repo} ({how})")
    if not ray_available():
        return _skip("Ray is not installed (pip install 'jdx[ray]')")
    jars, _ = expand_jar_arg(str(repo))
    if not jars:
        return _skip(f"{repo} holds no jars")
    megabytes = sum(p.stat().st_size for p in jars) / 2**20
    java = jvm.find_java_home()
    out: list[dict] = []
    measured: dict[str, dict] = {}
    for executor in ("local", "ray"):
        runs = []
        for _ in range(max(1, iterations)):
            cache = Path(tempfile.mkdtemp(prefix=f"jdx-bench-{executor}-"))
            try:
                asm, _ = jvm.find_asm(cache)
                jvm.compiled_extractor(cache, java, asm)
                env = {**os.environ, "JDX_CACHE_DIR": str(cache), "JDX_NO_DAEMON": "1"}
                env.pop("JDX_EXECUTOR", None)
                runs.append(_child([sys.executable, "-m", "jdx", "index", "--json", "-q", "--no-jdk", "--jars",
                                    str(repo), "--executor", executor], env))
            finally:
                shutil.rmtree(cache, ignore_errors=True)
        wall, cpu, rss, result = min(runs, key=lambda r: r[0])
        measured[executor] = {"wall": wall, "cpu": cpu, "result": result}
        phases = result.get("phases") or {}
        extract = float(phases.get("extract", 0.0))
        value = (f"{wall:.1f} s wall, {cpu:.1f} s CPU (process), peak RSS {rss / 2**20:,.0f} MB; "
                 f"{result.get('artifacts', 0)} jars ({megabytes:,.0f} MB), {result.get('classes', 0):,} classes; "
                 f"extraction {extract:.1f} s = {len(jars) / extract if extract else 0:,.1f} jars/s, "
                 f"{megabytes / extract if extract else 0:,.1f} MB/s; graph {wall - extract:.1f} s")
        ex = result.get("executor") or {}
        if executor == "ray" and ex:
            value += (f"; {ex.get('workers')} workers: start-up {ex.get('startup_seconds', 0):.1f} s, tasks "
                      f"{ex.get('cluster_seconds', 0):.1f} s ({ex.get('task_seconds', 0):.1f} s inside tasks, "
                      f"{ex.get('task_cpu_seconds', 0):.1f} s worker CPU), shutdown "
                      f"{ex.get('shutdown_seconds', 0):.1f} s, {ex.get('overhead_ms_per_task', 0):.1f} ms per "
                      f"artifact outside tasks")
        out.append({"name": f"cold index of {repo} (newest versions, --no-jdk), {executor} executor",
                    "value": value + (f" (best of {len(runs)})" if len(runs) > 1 else ""), "seconds": wall,
                    "cpu": cpu, "rss": rss, "executor": ex})
    ex = measured["ray"]["result"].get("executor") or {}
    local_extract = float((measured["local"]["result"].get("phases") or {}).get("extract", 0.0))
    tasks = float(ex.get("task_seconds", 0.0))
    if ex and tasks and local_extract:
        fixed = float(ex.get("startup_seconds", 0.0)) + float(ex.get("shutdown_seconds", 0.0))
        per = float(ex.get("overhead_ms_per_task", 0.0)) / 1000
        n = len(jars)
        # extraction on k workers: fixed + (tasks + n * per) / k; the graph build stays on one machine
        model = {k: fixed + (tasks + n * per) / k for k in (2, 4, 8, 16)}
        out.append({"name": "ray extraction time by workers (model from the run above: start-up + shutdown + "
                            "(task seconds + artifacts × overhead) / workers)",
                    "value": ", ".join(f"{k} workers {v:.1f} s" for k, v in model.items())
                    + f"; local executor extraction {local_extract:.1f} s on {os.cpu_count()} cores",
                    "seconds": model[2]})
    return out
