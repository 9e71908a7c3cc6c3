"""Spare copies of a base graph, made ahead by a long-lived process (the daemon, `jdx mcp`, `jdx serve`) whose
workspace holds class directories.

Every recompile appends the directory's rows to a fresh copy of the graph of the workspace's other artifacts (the
JDK's: ~200 MB, 0.1-0.2 s to copy where the filesystem cannot share blocks, ext4 among them). Such a process asks
for the copy the next update will need once it has answered (`want`, then `make_wanted`), and the update takes it
by a rename (`take`) instead of copying while the agent waits.

A spare is a directory `.building-<pid>-spare-*` in the workspace's graph root, one per graph root: removed when
the host closes or the process exits, and swept like a half-build once its process is gone (`store._sweep`). Only
the process that made it knows it, and it is taken only while its base file is the one it was copied from (path,
inode, size, modification time); a one-shot process never makes one (`enable` is called by long-lived hosts only).
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
import threading
from pathlib import Path

from jdx.graph_schema.store import GRAPH_FILE, clone_or_copy

_lock = threading.Lock()
_enabled = False
_spares: dict[str, tuple[tuple, Path]] = {}  # graph root -> (identity of the base file, spare directory)
_wanted: dict[str, tuple[Path, Path]] = {}  # graph root -> (base file, graph root)
_making: set[str] = set()
_exit_hook = False


def enable() -> None:
    """This process lives on between answers: it keeps spare copies (removed by `close`, else when it exits)."""
    global _enabled, _exit_hook
    with _lock:
        _enabled = True
        if not _exit_hook:
            _exit_hook = True
            atexit.register(remove_all)


def close() -> None:
    """The host is closing: no spare is kept from now on (a copy still being made is dropped when done) and those
    made are removed now (the daemon's process ends without running exit handlers)."""
    global _enabled
    with _lock:
        _enabled = False
    remove_all()


def _identity(path: Path) -> tuple | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return str(path), st.st_ino, st.st_size, st.st_mtime_ns


def take(base_file: Path, root: Path, dst: Path) -> bool:
    """Moves the spare copy of `base_file` made for `root` to `dst`; False when there is none for that very file."""
    ident = _identity(base_file)
    with _lock:
        entry = _spares.pop(str(root), None)
    if entry is None:
        return False
    spare = entry[1]
    if ident is None or entry[0] != ident:  # the base was rebuilt since: that copy is of no use
        shutil.rmtree(spare, ignore_errors=True)
        return False
    try:
        os.replace(spare / GRAPH_FILE, dst)
        return True
    except OSError:
        return False
    finally:
        shutil.rmtree(spare, ignore_errors=True)


def want(base_file: Path, root: Path) -> None:
    """The next update of `root` will grow from `base_file` again: `make_wanted` copies it (a no-op when this
    process keeps no spares)."""
    if _enabled:
        with _lock:
            _wanted[str(root)] = (base_file, root)


def make_wanted() -> threading.Thread | None:
    """Copies what `want` asked for on a side thread (after the answer: the copy never delays one)."""
    with _lock:
        wanted = list(_wanted.values())
        _wanted.clear()
    if not wanted:
        return None
    thread = threading.Thread(target=lambda: [make(b, r) for b, r in wanted], name="jdx-spare", daemon=True)
    thread.start()
    return thread


def make_ahead(base_file: Path, root: Path, then=None) -> threading.Thread:
    """The update of `root` this process is about to make grows from `base_file`: its copy starts now on a side
    thread (a one-shot process too), while the artifacts that join are still being extracted; `then()` runs on that
    thread after the copy. Join the thread before the update, which takes the copy (`take`); one not taken is removed
    at exit."""
    def run() -> None:
        try:
            make(base_file, root, ahead=True)
            if then is not None:
                then()
        except Exception:  # noqa: BLE001 - only a head start: the update does it all itself
            pass

    thread = threading.Thread(target=run, name="jdx-head-start", daemon=True)
    thread.start()
    return thread


def make(base_file: Path, root: Path, *, ahead: bool = False) -> bool:
    """A spare copy of `base_file` for the next update of `root`, replacing an older one; False when not made
    (`ahead`: made for this process's own coming update, whether or not it keeps spares)."""
    global _exit_hook
    ident = _identity(base_file)
    key = str(root)
    with _lock:
        if not (_enabled or ahead) or ident is None or key in _making or (key in _spares and _spares[key][0] == ident):
            return False
        _making.add(key)
        if not _exit_hook:
            _exit_hook = True
            atexit.register(remove_all)
    folder = None
    try:
        root.mkdir(parents=True, exist_ok=True)
        folder = Path(tempfile.mkdtemp(prefix=f".building-{os.getpid()}-spare-", dir=root))
        clone_or_copy(base_file, folder / GRAPH_FILE)
        if _identity(base_file) != ident:  # rebuilt while copied: the copy may be torn
            return False
        with _lock:
            if not (_enabled or ahead):  # closed while copying
                return False
            old = _spares.get(key)
            _spares[key] = (ident, folder)
        folder = None
        if old is not None:
            shutil.rmtree(old[1], ignore_errors=True)
        return True
    except OSError:
        return False
    finally:
        with _lock:
            _making.discard(key)
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)


def remove_all() -> None:
    """Removes every spare this process made (at exit; a killed process's are swept by the next writer)."""
    with _lock:
        spares = [folder for _ident, folder in _spares.values()]
        _spares.clear()
        _wanted.clear()
    for folder in spares:
        shutil.rmtree(folder, ignore_errors=True)
