"""How many workspace graphs the cache keeps (spec §10.2's `cache gc` and its risk table: eviction by last use).

Every workspace (an ordered set of artifacts) has a graph of its own under `<cache>/graphs/<key>/`; a new
combination of jars costs a copy of the graph it grows from. Ordinary use creates many, so once a graph is
published the least recently used others go while the graphs take more than the cap (`JDX_GRAPH_CACHE_MB`,
default 4096; 0 keeps every graph). Never evicted: the graph just built, graphs used in the last
`RECENT_SECONDS` (a process may be about to open one), and graphs another process is writing (its lock is held).
An evicted workspace is rebuilt from its shards, or grown from a graph still kept, on its next use; a process
that has one open keeps reading it (open files outlive their names).
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

DEFAULT_CAP_MB = 4096
RECENT_SECONDS = 600
USED = ".used"  # a graph root's stamp: its modification time is the last use


def cap_bytes() -> int:
    """The cap on the graphs' bytes; 0: no cap. A value that is not a whole number of MB is ignored."""
    raw = os.environ.get("JDX_GRAPH_CACHE_MB", "").strip()
    try:
        mb = int(raw) if raw else DEFAULT_CAP_MB
    except ValueError:
        mb = DEFAULT_CAP_MB
    return max(mb, 0) << 20


def mark_used(root: Path) -> None:
    """Stamps a workspace graph as used now (a query opened it, or an update grew another one from it), or a shard
    (a diff read it; `cache gc` keeps what was used recently)."""
    stamp = root / USED
    try:
        os.utime(stamp)
    except FileNotFoundError:
        try:
            stamp.touch()
        except OSError:
            pass
    except OSError:  # a read-only cache: the graph is simply never the most recent
        pass


def last_used(root: Path) -> float:
    for path in (root / USED, root):
        try:
            return path.stat().st_mtime
        except OSError:
            continue
    return 0.0


def evict(graphs: Path, keep: Path | None = None, cap: int | None = None, now: float | None = None) -> list[str]:
    """Removes the least recently used graph roots under `graphs` while they take more than `cap` bytes; returns
    the keys removed, oldest first."""
    from jdx.dirs import disk_bytes

    cap = cap_bytes() if cap is None else cap
    if cap <= 0 or not graphs.is_dir():
        return []
    total = disk_bytes(graphs)
    if total <= cap:
        return []
    now = time.time() if now is None else now
    roots = [p for p in graphs.iterdir() if p.is_dir() and not p.name.startswith(".")]
    removed: list[str] = []
    for root in sorted(roots, key=last_used):
        if total <= cap:
            break
        if (keep is not None and root == keep) or now - last_used(root) < RECENT_SECONDS:
            continue
        if remove_unless_written(root, now):
            removed.append(root.name)
            total = disk_bytes(graphs)
    return removed


def remove_unless_written(root: Path, now: float, recent: float = RECENT_SECONDS) -> bool:
    """Removes a graph root unless a writer holds its lock (a build or update of that workspace is running) or it was
    used in the `recent` seconds before `now` (since it was chosen)."""
    try:
        import fcntl
    except ImportError:  # no advisory locks (Windows): leave it
        return False
    try:
        handle = open(root / ".lock", "a")
    except OSError:
        return False
    with handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return False
        try:
            if now - last_used(root) < recent:
                return False
            shutil.rmtree(root, ignore_errors=True)
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
    return not root.exists()
