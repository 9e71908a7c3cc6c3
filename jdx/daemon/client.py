"""The thin client (spec §14.1): send one request line to this workspace's daemon, spawning it on first use.

`query()` returns the daemon's response line, or None meaning "answer in-process": no daemon and
none could be started in time, a stale socket, a refused connection, a timeout, a daemon that
dies mid-query (SIGKILL), a line it could not read. A query is never lost: the caller's
in-process path answers it with the same bytes. The one exception is the caller's own `--timeout`
running out while the daemon answers: that raises TimedOut (the answer is a timeout).

This module and everything it imports stay within the standard library, jdx.errors, jdx.dirs,
jdx.commands.wire and jdx.daemon.paths, so a CLI call that goes through a daemon never pays for
kuzu, pyarrow, typer or the engine (tests/daemon/test_client_imports.py checks it).
"""

from __future__ import annotations

import os
import socket
import sys
import time
from typing import TYPE_CHECKING

from jdx.commands.wire import WireError, decode_response
from jdx.daemon.paths import DaemonPaths, daemon_paths, workspace_argv

if TYPE_CHECKING:
    import subprocess
    from collections.abc import Callable
    from pathlib import Path

CONNECT_TIMEOUT = 1.0
QUERY_TIMEOUT = 600.0  # a first query may build the graph; --timeout narrows it
SPAWN_WAIT = 10.0  # python start-up plus the daemon's imports on a loaded machine
_POLL = 0.02
_SPAWNED: list[subprocess.Popen] = []  # kept referenced (and reaped when done) so no child is left a zombie


class TimedOut(Exception):
    """The daemon held the query past the caller's own `--timeout`: the answer is a timeout, not in-process work
    starting the clock again (which would then blame the workspace's opening)."""


def disabled() -> bool:
    """JDX_NO_DAEMON=1 (any value but empty or 0) forces in-process answers."""
    return os.environ.get("JDX_NO_DAEMON", "") not in ("", "0")


def query(workspace: dict, line: str, *, spawn: bool = True, timeout: float | None = None,
          progress: Callable[[str], None] | None = None) -> str | None:
    """The daemon's response line for one request line, or None to answer in-process. `progress`: called with each
    progress line the daemon writes while this request waits (its graph build's phases), as a one-shot process
    prints them.

    Raises UsageError (exit 3) only when the socket path is too long to bind (spec §14.3)."""
    if disabled():
        return None
    try:
        paths = daemon_paths(workspace)
    except OSError:
        return None  # no runtime dir can be made here: in-process still answers
    budget = QUERY_TIMEOUT if timeout is None else timeout
    started = time.monotonic()
    follow = _Follow(paths.progress, progress) if progress is not None else None
    sock = connect(paths)
    if sock is None:
        proc = spawn_daemon(workspace, paths) if spawn else None
        if proc is None:
            return None
        sock = wait_for_socket(paths, min(SPAWN_WAIT, budget), proc)
        if sock is None:
            return None
    with sock:
        left = max(budget - (time.monotonic() - started), 0.001)
        if timeout is None:
            return exchange(sock, line, left, follow=follow)
        try:
            return exchange(sock, line, left, raise_on_timeout=True, follow=follow)
        except socket.timeout:
            raise TimedOut() from None


class _Follow:
    """The new lines of a daemon's progress file since this request began, handed to `say` as they come."""

    EVERY = 0.25  # seconds between looks while the answer is awaited

    def __init__(self, path: Path, say: Callable[[str], None]):
        self.path, self.say = path, say
        try:
            self.offset = path.stat().st_size
        except OSError:
            self.offset = 0

    def __call__(self) -> None:
        try:
            size = self.path.stat().st_size
            if size < self.offset:  # started afresh
                self.offset = 0
            if size == self.offset:
                return
            with open(self.path, "rb") as f:
                f.seek(self.offset)
                data = f.read(size - self.offset)
        except OSError:
            return
        done = data.rfind(b"\n") + 1  # whole lines only
        self.offset += done
        for text in data[:done].decode("utf-8", "replace").splitlines():
            self.say(text)


def connect(paths: DaemonPaths, timeout: float = CONNECT_TIMEOUT) -> socket.socket | None:
    """A connection to the daemon, or None when no daemon listens (no socket, stale socket, refused)."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(timeout)
    try:
        sock.connect(str(paths.socket))
    except OSError:
        sock.close()
        return None
    return sock


def exchange(sock: socket.socket, line: str, timeout: float, raise_on_timeout: bool = False,
             follow: "_Follow | None" = None) -> str | None:
    """Sends one request line and reads one response line; None on any failure (never hangs past timeout), or,
    `raise_on_timeout`, socket.timeout when the daemon is still answering at `timeout`. `follow`: looked at
    while waiting (the daemon's progress lines)."""
    if not line.endswith("\n"):
        line += "\n"
    deadline = time.monotonic() + timeout
    try:
        sock.settimeout(max(timeout, 0.001))
        sock.sendall(line.encode("utf-8"))
        buf = bytearray()
        while b"\n" not in buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise socket.timeout()
            sock.settimeout(min(left, follow.EVERY) if follow is not None else left)
            try:
                chunk = sock.recv(1 << 16)
            except socket.timeout:
                if follow is None or time.monotonic() >= deadline:
                    raise
                follow()
                continue
            if not chunk:
                return None  # the daemon closed or died before a whole line: answer in-process
            buf += chunk
        if follow is not None:
            follow()  # the last phase lines, written before the answer
    except socket.timeout:
        if raise_on_timeout:
            raise
        return None
    except (OSError, UnicodeError):
        return None
    response = bytes(buf[:buf.index(b"\n") + 1])
    try:
        env = decode_response(response)
    except WireError:
        return None
    if not env["ok"] and str(env.get("error", {}).get("code", "")).startswith("WIRE_"):
        return None  # the daemon could not read what this client wrote: in-process can
    return response.decode("utf-8")


def wait_for_socket(paths: DaemonPaths, seconds: float, proc: subprocess.Popen | None = None) -> socket.socket | None:
    """Polls until the daemon accepts a connection, the spawned process gives up, or time runs out."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        sock = connect(paths)
        if sock is not None:
            return sock
        if proc is not None and proc.poll() is not None:
            return connect(paths)  # it exited: maybe because another daemon won the lock
        time.sleep(_POLL)
    return None


def _release_spawned() -> None:
    """At exit: a daemon outliving the client that started it is the design, not a leaked child; dropping
    the handles here keeps Python from warning that the subprocess "is still running"."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ResourceWarning)
        _SPAWNED.clear()


def spawn_daemon(workspace: dict, paths: DaemonPaths, idle: float | None = None) -> subprocess.Popen | None:
    """Starts `python -m jdx daemon run` detached with the same workspace flags; its stderr goes to the log."""
    import subprocess  # only when spawning: a query to a running daemon never pays for it
    args = [sys.executable, "-m", "jdx", "daemon", "run", *workspace_argv(workspace)]
    if idle is not None:
        args.append(f"--idle={idle:g}")
    env = dict(os.environ)
    env.pop("JDX_NO_DAEMON", None)
    try:
        log = os.fdopen(os.open(paths.log, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o600), "ab")
    except OSError:
        log = subprocess.DEVNULL  # type: ignore[assignment]
    _SPAWNED[:] = [p for p in _SPAWNED if p.poll() is None]
    try:
        proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log,
                                start_new_session=True, close_fds=True, env=env)
        if not _SPAWNED:
            import atexit

            atexit.register(_release_spawned)
        _SPAWNED.append(proc)
        return proc
    except OSError:
        return None
    finally:
        if log is not subprocess.DEVNULL:
            log.close()
