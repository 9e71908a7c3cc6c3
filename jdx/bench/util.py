"""What the `jdx bench` row modules share: a warm median, the row format, the size of a cache directory."""

from __future__ import annotations

import statistics
import time
from pathlib import Path


def warm_runs(fn, iterations: int, minimum: int = 10) -> tuple[list[float], object]:
    """(seconds of each run, last answer) of `fn()`, its first run not counted (it prepares statements)."""
    answer = fn()
    samples = []
    for _ in range(max(iterations, minimum)):
        start = time.perf_counter()
        answer = fn()
        samples.append(time.perf_counter() - start)
    return samples, answer


def warm_median(fn, iterations: int, minimum: int = 10) -> tuple[float, object]:
    """(median seconds, last answer) of `fn()`, its first run not counted (it prepares statements)."""
    samples, answer = warm_runs(fn, iterations, minimum)
    return statistics.median(samples), answer


def slowest(samples: list[float]) -> str:
    """The tail of warm runs, for a row: a slow run among fast ones is a pause (the collector's, a page fault)."""
    return f", slowest {max(samples) * 1000:,.1f} ms of {len(samples)}"


def row(name: str, seconds: float, goal_ms: float | None = None, extra: str = "", digits: int = 1,
        unit: str = "ms") -> dict:
    """One `jdx bench` row: `{name, value, seconds}`, the value naming the goal when there is one."""
    value = f"{seconds * 1000:.{digits}f} {unit}" + (f" (goal ≤ {goal_ms:.0f} ms)" if goal_ms else "") + extra
    return {"name": name, "value": value, "seconds": seconds}


def ask(session, name: str, query: str = "", **fields):
    """The Answer of registry command `name` on `session` (the same path every adapter takes)."""
    from jdx.commands.registry import command

    cmd = command(name)
    return cmd.run(session, cmd.request(query=query, **fields))


def disk_usage(path: Path) -> int:
    """Bytes of the files under `path` (what a cache directory takes; jdx.dirs.disk_bytes)."""
    from jdx.dirs import disk_bytes

    return disk_bytes(path)
