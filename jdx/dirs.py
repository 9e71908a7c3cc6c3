"""Where jdx writes: cache, config and runtime directories (spec §17.1), with JDX_* overrides."""

from __future__ import annotations

import os
from pathlib import Path


def cache_dir(override: str | os.PathLike | None = None) -> Path:
    """The cache root: --cache-dir, then JDX_CACHE_DIR, then XDG_CACHE_HOME/jdx, then ~/.cache/jdx."""
    if override:
        return Path(override).expanduser()
    if os.environ.get("JDX_CACHE_DIR"):
        return Path(os.environ["JDX_CACHE_DIR"]).expanduser()
    if os.environ.get("XDG_CACHE_HOME"):
        return Path(os.environ["XDG_CACHE_HOME"]) / "jdx"
    return Path.home() / ".cache" / "jdx"


def config_dir() -> Path:
    """The config root: JDX_CONFIG_DIR, then XDG_CONFIG_HOME/jdx, then ~/.config/jdx."""
    if os.environ.get("JDX_CONFIG_DIR"):
        return Path(os.environ["JDX_CONFIG_DIR"]).expanduser()
    if os.environ.get("XDG_CONFIG_HOME"):
        return Path(os.environ["XDG_CONFIG_HOME"]) / "jdx"
    return Path.home() / ".config" / "jdx"


def disk_bytes(path: Path) -> int:
    """Bytes the files under `path` take (a cache directory): a file hard-linked into several builds counts once."""
    seen: dict[tuple[int, int], int] = {}
    for root, _dirs, files in os.walk(path):
        for f in files:
            try:
                st = os.lstat(os.path.join(root, f))
            except OSError:
                continue
            seen[(st.st_dev, st.st_ino)] = st.st_size
    return sum(seen.values())


def pid_alive(pid: int) -> bool:
    """Whether a process still exists (a half-written cache entry of a dead one may be swept)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
