"""`jdx bench` rows for `jdx diff` (spec §7.7): two versions of a ~2,000-class library from the local Maven
repository, as one-shot processes. Goals (issue 14): ≤ 2 s cold (neither jar extracted yet), ≤ 300 ms with
both already indexed (each jar's surface file beside its shard, found by content hash); plus the first diff of jars
`jdx index` extracted (shards without surface files yet) and the comparison alone, warm, in one process."""

from __future__ import annotations

import json
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from jdx.bench.util import row
from jdx.commands.diff_artifacts import SURFACE_FILE

M2 = Path.home() / ".m2" / "repository"
PAIR = ("com/google/guava/guava", "33.0.0-jre", "33.5.0-jre")


def pair_jars() -> tuple[Path, Path] | None:
    coord, old, new = PAIR
    artifact = coord.rsplit("/", 1)[1]
    jars = tuple(M2 / coord / v / f"{artifact}-{v}.jar" for v in (old, new))
    return jars if all(j.is_file() for j in jars) else None


def _child(args: list[str], env: dict) -> tuple[float, float, dict]:
    """(wall seconds, CPU seconds of the child: user + system, what a loaded machine inflates least, the JSON
    envelope)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(args, capture_output=True, text=True, env=env)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} exited {proc.returncode}: {proc.stderr.strip()[-500:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return seconds, cpu, json.loads(proc.stdout)


def rows(cache: Path, env: dict, iterations: int) -> list[dict]:
    """Rows measured in `cache` (the extractor already compiled there); shards of the pair are removed first."""
    jars = pair_jars()
    name = "`jdx diff` guava {} -> {}".format(*PAIR[1:])
    if jars is None:
        return [{"name": name, "value": f"skipped: {PAIR[0]} {PAIR[1]}/{PAIR[2]} not in {M2}", "seconds": 0.0}]
    args = [sys.executable, "-m", "jdx", "diff", str(jars[0]), str(jars[1]), "--json"]
    cold, cold_cpu = [], []
    for _ in range(iterations):
        shutil.rmtree(cache / "shards", ignore_errors=True)
        (cache / "hashes.json").unlink(missing_ok=True)
        seconds, cpu, env_json = _child(args, env)
        cold.append(seconds)
        cold_cpu.append(cpu)
    result = env_json["result"]
    classes = result["old"]["classes"] + result["new"]["classes"]
    counts = result["counts"]
    what = f", {classes:,} classes, {result['total']:,} findings ({counts['breaking']} breaking)"
    first = []
    for _ in range(max(iterations, 3)):
        for surface in (cache / "shards").glob(f"*/{SURFACE_FILE}"):
            surface.unlink()
        first.append(_child(args, env))
    runs = [_child(args, env) for _ in range(max(iterations, 3))]
    indexed, indexed_cpu = statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)
    out = [row(f"{name}, cold: both jars extracted (process and JVM start included)", statistics.median(cold),
               2000, what + f"; CPU {statistics.median(cold_cpu) * 1000:,.0f} ms", digits=0, unit="ms median"),
           row(f"{name}, both already indexed (surface files read, no pyarrow, no JVM)", indexed, 300,
               f"; CPU {indexed_cpu * 1000:,.0f} ms", digits=0, unit="ms median"),
           row(f"{name}, shards without surface files (written by an older jdx): shards read, surface files written",
               statistics.median(r[0] for r in first),
               extra=f"; CPU {statistics.median(r[1] for r in first) * 1000:,.0f} ms", digits=0, unit="ms median")]
    out.append(_in_process(jars, cache, iterations))
    return out


def _in_process(jars: tuple[Path, Path], cache: Path, iterations: int) -> dict:
    """A diff served by a warm process (the daemon's MCP `jdx_diff` / `GET /v1/diff`): the whole answer through the
    registry, the two surface files read each time; beside it the comparison alone on surfaces already built."""
    from jdx.bench.util import warm_median
    from jdx.commands.diff_artifacts import load_sides, resolve_side
    from jdx.commands.execute import answer_request
    from jdx.commands.session import Options, Session
    from jdx.engine.diff.compare import compare
    from jdx.engine.diff.report import ReportOptions, result_dict
    from jdx.engine.diff.surface import surface_from_compact
    from jdx.engine.diff.visibility import DiffOptions
    from jdx.loaders.roots import HashCache
    from jdx.render import envelope

    session = Session(Options(cache_dir=str(cache)))

    def served():
        return envelope.dumps(answer_request(session, "diff", str(jars[0]), {"new": str(jars[1])}).envelope)

    hashes = HashCache(cache)
    sides = [resolve_side(str(j), hashes) for j in jars]
    load_sides(sides, cache).wait()
    surfaces = [surface_from_compact(s.label, s.surfaces) for s in sides]

    def alone():
        return result_dict(compare(*surfaces, DiffOptions()), ReportOptions(), {})

    cpu_start = time.process_time()
    seconds, _ = warm_median(served, iterations, minimum=5)
    cpu = (time.process_time() - cpu_start) / (max(iterations, 5) + 1)
    alone_seconds, _ = warm_median(alone, iterations, minimum=5)
    return row("`jdx diff` guava served by a warm process (daemon: MCP, HTTP), surface files read each time",
               seconds, extra=f"; CPU {cpu * 1000:,.0f} ms mean; the comparison alone {alone_seconds * 1000:,.0f} ms",
               unit="ms median")
