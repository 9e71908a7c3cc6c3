"""`jdx bench --scale`: every jar of the machine's local Maven repository (all versions) plus the JDK indexed
cold into one workspace: classes/s, peak RSS of the index process tree (goal ≤ 1.5 GB however many jars), the
cache it leaves, and warm `usages`/`hierarchy` on that graph (spec §10.4; DESIGN.md §5).

The index runs as a child `jdx index --json` in a throw-away cache with the extractor already compiled; the warm
rows then ask that graph from this process. Skipped, with the reason, where there is no local repository."""

from __future__ import annotations

import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from jdx.bench.cluster import _child
from jdx.bench.util import ask, disk_usage, row, slowest, warm_runs

NAME = "scale: the local Maven repository (every version) + the JDK, one workspace"
RSS_GOAL = 1.5 * 2**30


def rows(iterations: int = 3) -> list[dict]:
    from jdx.commands.session import Options, Session
    from jdx.loaders import jvm
    from jdx.loaders.maven_repo import local_repository
    from jdx.loaders.roots import expand_jar_arg

    repo, how = local_repository()
    if not repo.is_dir():
        return [{"name": NAME, "value": f"skipped: no local Maven repository at {repo} ({how})", "seconds": 0.0}]
    jars, _ = expand_jar_arg(str(repo), all_versions=True)
    if not jars:
        return [{"name": NAME, "value": f"skipped: {repo} holds no jars", "seconds": 0.0}]
    megabytes = sum(p.stat().st_size for p in jars) / 2**20
    cache = Path(tempfile.mkdtemp(prefix="jdx-bench-scale-"))
    out: list[dict] = []
    try:
        java = jvm.find_java_home()
        asm, _ = jvm.find_asm(cache)
        jvm.compiled_extractor(cache, java, asm)
        env = {**os.environ, "JDX_CACHE_DIR": str(cache), "JDX_NO_DAEMON": "1"}
        env.pop("JDX_EXECUTOR", None)
        wall, cpu, rss, result = _child([sys.executable, "-m", "jdx", "index", "--json", "-q", "--jars", str(repo),
                                         "--all-versions"], env)
        if not result.get("classes"):
            return [{"name": NAME, "value": "failed: the index answered no classes", "seconds": wall}]
        classes = int(result["classes"])
        shards = disk_usage(cache / "shards")
        graphs = disk_usage(cache / "graphs")
        out.append({"name": NAME,
                    "value": f"{wall:.1f} s wall ({cpu:.1f} s CPU), {result.get('artifacts', 0):,} artifacts "
                             f"({len(jars):,} jars, {megabytes:,.0f} MB), {classes:,} classes, "
                             f"{classes / wall:,.0f} classes/s; peak RSS {rss / 2**20:,.0f} MB (goal ≤ "
                             f"{RSS_GOAL / 2**20:,.0f} MB: {'met' if rss <= RSS_GOAL else 'missed'}); cache "
                             f"{(shards + graphs) / 2**20:,.0f} MB (shards {shards / 2**20:,.0f} MB, graph "
                             f"{graphs / 2**20:,.0f} MB); phases {result.get('phases')}",
                    "seconds": wall, "classes": classes, "rss": rss, "cache_bytes": shards + graphs})
        service = Session(Options(jars=[str(repo)], all_versions=True, cache_dir=str(cache)))
        try:
            service.index()
            start = time.perf_counter()
            ask(service, "usages", "java.util.List#size()")
            out.append(row("scale: first `usages java.util.List#size()` on that graph (opening it, the reader's "
                           "method columns and Kotlin links loaded)", time.perf_counter() - start, None))
            for label, name, query in (("usages", "usages", "java.util.List#size()"),
                                       ("hierarchy", "hierarchy", "java.util.AbstractList"),
                                       ("hierarchy", "hierarchy", "java.util.Collection")):
                runs, answer = warm_runs(lambda: ask(service, name, query), iterations)
                size = answer.result.get("total") if isinstance(answer.result, dict) else None
                out.append(row(f"scale: warm `{label} {query}` on that graph", statistics.median(runs), None,
                               " median" + (f", {size:,} sites" if isinstance(size, int) else "") + slowest(runs)))
        finally:
            service.close()
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    return out
