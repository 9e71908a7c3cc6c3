"""`jdx daemon start|stop|status` (spec §14.3): spawn and wait, stop only our own daemon, sweep stale files.

`stop` never signals a pid it has not proven to be ours: the start lock is free (the daemon is
gone: sweep its socket and pid), or the lock's holder runs `jdx ... daemon run` per
/proc/<pid>/cmdline; then SIGTERM, SIGKILL after a grace, and the sweep.
"""

from __future__ import annotations

import fcntl
import os
import signal
import subprocess
import time
from pathlib import Path

from jdx.commands.wire import WireError, decode_response, encode_request
from jdx.daemon import client
from jdx.daemon.paths import DaemonPaths, daemon_paths
from jdx.daemon.server import STATUS_COMMAND, DaemonRunning, sweep
from jdx.errors import JdxError

STOP_GRACE = 5.0


def status(workspace: dict, timeout: float = 5.0) -> dict | None:
    """The running daemon's status fields, or None when none answers."""
    return _status_at(daemon_paths(workspace), timeout)


def _status_at(paths: DaemonPaths, timeout: float) -> dict | None:
    sock = client.connect(paths)
    if sock is None:
        return None
    with sock:
        line = client.exchange(sock, encode_request(STATUS_COMMAND), timeout)
    if line is None:
        return None
    try:
        env = decode_response(line)
    except WireError:
        return None
    result = env.get("result") if env.get("ok") else None
    if isinstance(result, dict):
        result["socket"] = str(paths.socket)
    return result


def start(workspace: dict, idle: float | None = None, wait: float = client.SPAWN_WAIT) -> dict:
    """Starts a daemon for this workspace (or reports the one running); a concurrent start fails fast."""
    paths = daemon_paths(workspace)
    running = status(workspace)
    if running is not None:
        return {"started": False, "running": True, **running}
    holder = lock_holder(paths)
    if holder is not None:
        raise DaemonRunning(f"a jdx daemon for this workspace is already starting (pid {holder}, lock {paths.lock})",
                            hint="jdx daemon status, or jdx daemon stop")
    proc = client.spawn_daemon(workspace, paths, idle)
    if proc is None:
        raise JdxError("could not start the daemon process", hint=f"see {paths.log}")
    sock = client.wait_for_socket(paths, wait, proc)
    if sock is None:
        holder = lock_holder(paths)
        if proc.poll() is not None and holder is not None and holder != proc.pid:
            raise DaemonRunning(f"another jdx daemon start won the lock (pid {holder}, lock {paths.lock})",
                                hint="jdx daemon status")
        raise JdxError(f"the daemon did not come up within {wait:g} s"
                       + (f" (it exited with status {proc.returncode})" if proc.poll() is not None else ""),
                       hint=f"see {paths.log}")
    sock.close()
    return {"started": True, "running": True, **(status(workspace) or {"pid": proc.pid})}


def stop(workspace: dict, grace: float = STOP_GRACE) -> dict:
    """Stops this workspace's daemon; returns what was done. Never signals a pid that is not our daemon."""
    return stop_paths(daemon_paths(workspace), grace)


def every_daemon(workspace: dict) -> list[DaemonPaths]:
    """The files of every daemon in the runtime directory this workspace's daemon would use (each ad-hoc classpath,
    named workspace and jdx version has its own), by stem: the ones whose start lock is held, i.e. running."""
    folder = daemon_paths(workspace, create=False).dir
    try:
        stems = sorted({p.name[:-len(".lock")] for p in folder.glob("*.lock")})
    except OSError:
        return []
    return [paths for paths in (DaemonPaths(folder, stem) for stem in stems) if lock_holder(paths) is not None]


def stop_all(workspace: dict, grace: float = STOP_GRACE) -> dict:
    """`daemon stop --all`: stops every running daemon of the runtime directory; returns one result per daemon."""
    return {"daemons": [dict(stop_paths(paths, grace), socket=str(paths.socket)) for paths in every_daemon(workspace)]}


def stop_cache_daemons(cache: Path, grace: float = STOP_GRACE) -> list[dict]:
    """Stops every running daemon that answers from `cache` (`cache clear`: it would go on answering from the removed
    graph's open files), and one that does not say which cache it uses (started by a jdx before DaemonPaths.cache);
    returns one result per daemon. Looks in the runtime dir of every workspace of `cache` alike."""
    target = str(Path(cache).absolute())
    return [dict(stop_paths(paths, grace), socket=str(paths.socket))
            for paths in every_daemon({"cache_dir": target}) if paths.read_cache() in (target, None)]


def status_all(workspace: dict, timeout: float = 5.0) -> dict:
    """`daemon status --all`: the status of every running daemon of the runtime directory (pid only for one that
    does not answer)."""
    out = []
    for paths in every_daemon(workspace):
        result = _status_at(paths, timeout)
        out.append(result if result is not None else {"pid": lock_holder(paths), "socket": str(paths.socket),
                                                     "answering": False})
    return {"daemons": out}


def stop_paths(paths: DaemonPaths, grace: float = STOP_GRACE) -> dict:
    """Stops the daemon whose files are `paths`; returns what was done."""
    holder = lock_holder(paths)
    if holder is None:
        return {"stopped": False, "running": False, "swept": _sweep_unlocked(paths)}
    if not is_jdx_daemon(holder):
        return {"stopped": False, "running": True, "pid": holder, "swept": [],
                "refused": f"pid {holder} holds {paths.lock} but is not a `jdx daemon run`: not signalled"}
    signalled = _signal(holder, signal.SIGTERM)
    forced = False
    if signalled and not _wait_unlocked(paths, grace):
        forced = _signal(holder, signal.SIGKILL)
        _wait_unlocked(paths, grace)
    return {"stopped": signalled, "forced": forced, "pid": holder, "running": lock_holder(paths) is not None,
            "swept": _sweep_unlocked(paths)}


def lock_holder(paths: DaemonPaths) -> int | None:
    """The pid holding the start lock (from the lock file), or None when the lock is free."""
    try:
        fd = os.open(paths.lock, os.O_RDWR | os.O_CLOEXEC)
    except FileNotFoundError:
        return None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
            return int(text) if text.isdigit() else (paths.read_pid() or -1)
        fcntl.flock(fd, fcntl.LOCK_UN)
        return None
    finally:
        os.close(fd)


def is_jdx_daemon(pid: int) -> bool:
    """Whether `pid` runs `jdx ... daemon run` (a reused pid never is)."""
    if pid <= 0:
        return False
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            argv = [a.decode("utf-8", "replace") for a in f.read().split(b"\0") if a]
    except FileNotFoundError:
        return False
    except OSError:
        argv = _ps_argv(pid)
    # `jdx ...` (console script), `python /path/bin/jdx ...` or `python -m jdx ...`
    is_jdx = any(os.path.basename(a) == "jdx" for a in argv[:2]) or argv[1:3] == ["-m", "jdx"]
    pairs = zip(argv, argv[1:])
    return is_jdx and any(a == "daemon" and b == "run" for a, b in pairs)


def _ps_argv(pid: int) -> list[str]:
    try:
        out = subprocess.run(["ps", "-o", "command=", "-p", str(pid)], capture_output=True, text=True, timeout=5)
    except (OSError, subprocess.SubprocessError):
        return []
    return out.stdout.split()


def _signal(pid: int, sig: int) -> bool:
    try:
        os.kill(pid, sig)
    except ProcessLookupError:
        return False
    return True


def _wait_unlocked(paths: DaemonPaths, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if lock_holder(paths) is None:
            return True
        time.sleep(0.02)
    return lock_holder(paths) is None


def _sweep_unlocked(paths: DaemonPaths) -> list[str]:
    """Sweeps stale socket/pid files under the lock, so a daemon starting meanwhile keeps its own."""
    try:
        fd = os.open(paths.lock, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    except OSError:
        return []
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return []
        return sweep(paths)
    finally:
        os.close(fd)
