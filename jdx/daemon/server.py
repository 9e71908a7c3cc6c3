"""`jdx daemon run` (spec §14.3): a unix-socket server speaking §14.5 JSON lines, many requests per connection.

The server owns the socket lifecycle only; what a request means is an injected executor
(`execute(command, query, params) -> envelope dict`, see jdx.daemon.host), so tests drive it with
a fake. Every line gets exactly one response line: a refused line answers an error envelope with
its WIRE_* code and the connection keeps serving; nothing a client sends stops the server.

Lifecycle: the lock file (flock, held while serving) makes start mutually exclusive; holding it
proves any socket or pid file found is stale, so they are swept before binding. SIGTERM/SIGINT
and the idle timer (reset on each request) stop the server, and so does a change to jdx's own files (its
clients have moved to another socket, see paths.code_fingerprint); socket and pid go on the way out.
"""

from __future__ import annotations

import fcntl
import inspect
import os
import select
import signal
import socket
import socketserver
import sys
import threading
import time
import traceback
from collections.abc import Callable
from pathlib import Path

from jdx.commands.wire import (
    MAX_LINE_BYTES, WireError, decode_request, encode_response, request_names)
from jdx.daemon.paths import DaemonPaths, code_fingerprint
from jdx.dirs import pid_alive
from jdx.errors import JdxError, UsageError

STATUS_COMMAND = "daemon.status"  # answered by the server itself, never by the executor
DEFAULT_IDLE = 300.0
CONNECTION_TIMEOUT = 600.0  # a connection silent this long is closed (every socket op has a timeout)
CODE_CHECK = 2.0  # seconds between looks at the jdx files (under a millisecond each)
# More daemons than this in one runtime dir (one per workspace: each ad-hoc classpath of an agent starts its own,
# 150-450 MB each), and the least recently used of them that has been quiet CROWD_QUIET seconds stops: the next
# query of its workspace starts it again. JDX_MAX_DAEMONS overrides; 0 never stops one for crowding.
MAX_DAEMONS = 4
CROWD_QUIET = 60.0
CROWD_CHECK = 5.0  # seconds between looks at the other daemons' pid files

Execute = Callable[[str, str, dict], dict]


class DaemonRunning(UsageError):
    """Another daemon holds this workspace's lock (exit 3, naming the holder)."""

    code = "DAEMON_RUNNING"


class _Connection(socketserver.StreamRequestHandler):
    timeout = CONNECTION_TIMEOUT

    def handle(self) -> None:
        server: DaemonServer = self.server  # type: ignore[assignment]
        while True:
            try:
                line = self.rfile.readline(MAX_LINE_BYTES + 1)
            except OSError:
                return
            if not line:
                return
            too_long = len(line) > MAX_LINE_BYTES
            if too_long:
                response = server.refusal(WireError("WIRE_TOO_LONG", f"request line over {MAX_LINE_BYTES} bytes"))
            else:
                response = server.answer(line, self.connection)
            try:
                self.wfile.write(response.encode("utf-8", "replace"))
                self.wfile.flush()
            except OSError:
                return
            finally:
                if server.unreadable:
                    server.stop("its workspace cannot be read")
            if too_long:
                return  # the rest of that line cannot be told from the next request


STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
HANGUP_POLL = 0.1  # seconds between looks at a client's connection while its query runs


def _answer_watching(execute: Callable[..., dict], client: socket.socket, command: str, query: str,
                     params: dict) -> dict:
    """execute(..., call=Call) while a watcher looks at the client's connection: a client that hangs up (its
    --timeout ran out, it was killed) stops the query, which would otherwise hold the workspace for every later
    request (jdx.commands.host.Call stops a graph query in Kùzu too)."""
    from jdx.commands.host import Call

    call = Call()
    done = threading.Event()

    def watch() -> None:
        while not done.wait(HANGUP_POLL):
            try:
                readable, _, _ = select.select([client], [], [], 0)
                if readable and client.recv(1, socket.MSG_PEEK) == b"":
                    call.stop("cancelled")
                    return
            except (OSError, ValueError):  # reset, or closed under us: gone
                call.stop("cancelled")
                return

    watcher = threading.Thread(target=watch, name="jdx-hangup", daemon=True)
    watcher.start()
    try:
        return execute(command, query, params, call=call)
    finally:
        done.set()


class DaemonServer(socketserver.ThreadingUnixStreamServer):
    """Threads per connection; the executor decides how much runs at once (jdx.daemon.host serialises)."""

    daemon_threads = True
    request_queue_size = 128

    def __init__(self, socket_path: Path, execute: Execute, commands: frozenset[str], *,
                 idle: float = DEFAULT_IDLE, describe: Callable[[], dict] | None = None,
                 workspace: dict | None = None, pid_path: Path | None = None):
        self.execute = execute
        try:  # a Host's execute takes a `call` to stop (jdx.commands.host.Call); a test's may not
            self._takes_call = "call" in inspect.signature(execute).parameters
        except (TypeError, ValueError):
            self._takes_call = False
        self.pid_path = pid_path  # its mtime is this daemon's last request (`crowd_leaver`)
        self._stamped = 0.0
        self.commands = frozenset(commands) | {STATUS_COMMAND}
        self.idle = idle
        self.describe = describe or dict
        self.workspace = workspace or {}
        self.started = time.time()
        self.queries = 0
        self.answered = 0  # successful answers
        # its first answers all failed because its workspace cannot be read (a missing --jars path, an unknown
        # --coord): it stops once that answer is sent, rather than holding a daemon slot for nothing
        self.unreadable = False
        self.stop_reason = ""
        self._state = threading.Lock()
        self._active = 0
        self._last = time.monotonic()
        self._stopped = threading.Event()
        self.signal_handler: Callable | None = None  # installed by serve() for SIGTERM/SIGINT/SIGHUP
        self._signals_retaken = False
        super().__init__(str(socket_path), _Connection)
        os.chmod(socket_path, 0o600)

    def service_actions(self) -> None:
        """Once the embedded JVM has started (an update, a decompilation), its own SIGTERM/SIGINT/SIGHUP handlers
        replace the daemon's and end the process at once, skipping the daemon's cleanup (the host's spare graph
        copies, its log line, its own sweep): take them back. serve_forever calls this on the serving thread, the
        main one, between polls."""
        if self.signal_handler is None or self._signals_retaken:
            return
        from jdx.loaders.jvm import jvm_running

        try:
            if not jvm_running():
                return
            self._signals_retaken = True
            for sig in STOP_SIGNALS:
                signal.signal(sig, self.signal_handler)
        except Exception:  # noqa: BLE001 - never lets the serving loop die: the JVM's handlers then stay
            pass

    # --- answering -----------------------------------------------------------------------------
    def answer(self, line: bytes, client: socket.socket | None = None) -> str:
        """One response line for one request line; never raises. `client`: the connection it came on; when the
        client hangs up before the answer (its own --timeout ran out, it was killed), the query is stopped."""
        with self._state:
            self._active += 1
            self._last = time.monotonic()
        try:
            return self._answer(line, client)
        finally:
            with self._state:
                self._active -= 1
                self._last = time.monotonic()
            self._stamp()

    def _stamp(self) -> None:
        """The pid file's mtime follows the last request (at most once a second): other daemons read it."""
        now = time.monotonic()
        if self.pid_path is None or now - self._stamped < 1.0:
            return
        self._stamped = now
        try:
            os.utime(self.pid_path)
        except OSError:
            pass

    def _answer(self, line: bytes, client: socket.socket | None = None) -> str:
        from jdx.render import envelope

        try:
            request = decode_request(line, self.commands)
        except WireError as exc:
            return self.refusal(exc, *request_names(line))
        if request.command == STATUS_COMMAND:
            from jdx.engine.answer import Answer

            return encode_response(envelope.success("daemon", "status", Answer(self.status())))
        with self._state:
            self.queries += 1
        try:
            if client is not None and self._takes_call:
                env = _answer_watching(self.execute, client, request.command, request.query, dict(request.params))
            else:
                env = self.execute(request.command, request.query, dict(request.params))
        except JdxError as exc:
            env = envelope.failure(request.command, request.query, exc)
        except Exception as exc:  # noqa: BLE001 - an executor that failed outside its own error handling
            from jdx.commands.execute import internal_error

            traceback.print_exc(file=sys.stderr)  # to the daemon's log
            env = envelope.failure(request.command, request.query, internal_error(exc))
        self._note_outcome(env)
        try:
            return encode_response(env)
        except Exception as exc:  # noqa: BLE001 - an unserialisable envelope is an internal error, not a crash
            err = JdxError(f"internal error: unserialisable answer: {type(exc).__name__}")
            return encode_response(envelope.failure(request.command, request.query, err))

    def _note_outcome(self, env: dict) -> None:
        """Counts a successful answer; marks the daemon `unreadable` when nothing answered yet and this failure is
        its workspace's own (exit 5 with no artifact resolved)."""
        from jdx.errors import EXIT_ARTIFACT, exit_code_of

        if env.get("ok"):
            with self._state:
                self.answered += 1
            return
        if not self.answered and exit_code_of(env) == EXIT_ARTIFACT:
            try:
                resolved = int(self.describe().get("artifacts", 1))
            except Exception:  # noqa: BLE001 - a describe that fails says nothing: keep serving
                resolved = 1
            self.unreadable = resolved == 0

    def refusal(self, error: WireError, command: str = "", query: str = "") -> str:
        from jdx.render import envelope

        return encode_response(envelope.failure(command, query, error))

    def status(self) -> dict:
        from jdx import __version__

        with self._state:
            queries = self.queries
        return {"pid": os.getpid(), "uptime": round(time.time() - self.started, 3), "workspace": self.workspace,
                "memory": rss_bytes(), "queries": queries, "version": __version__,
                "code": code_fingerprint(), "idle": self.idle,
                **self.describe()}

    # --- stopping --------------------------------------------------------------------------------
    def watch_idle(self) -> None:
        """Stops the server after `idle` seconds without a request (0 disables); resets on every request."""
        if not self.idle or self.idle <= 0:
            return
        tick = min(1.0, max(self.idle / 4, 0.02))
        checked = time.monotonic()
        while not self._stopped.wait(tick):
            with self._state:
                quiet = time.monotonic() - self._last
                busy = self._active
            if not busy and quiet >= self.idle:
                self.stop("idle")
                return
            if not busy and quiet >= CROWD_QUIET and self.pid_path is not None \
                    and time.monotonic() - checked >= CROWD_CHECK:
                checked = time.monotonic()
                crowd = crowd_leaver(self.pid_path, max_daemons())
                if crowd:
                    self.stop(f"{crowd} daemons running (JDX_MAX_DAEMONS {max_daemons()}): this one was the least "
                              f"recently used")
                    return

    def stop(self, reason: str) -> None:
        """Asks serve_forever to return (from any thread but the serving one)."""
        if not self._stopped.is_set():
            self.stop_reason = reason
            self._stopped.set()
            threading.Thread(target=self.shutdown, daemon=True).start()


def max_daemons() -> int:
    raw = os.environ.get("JDX_MAX_DAEMONS", "").strip()
    try:
        return max(int(raw), 0) if raw else MAX_DAEMONS
    except ValueError:
        return MAX_DAEMONS


def crowd_leaver(pid_path: Path, limit: int) -> int:
    """How many daemons run beside the one whose pid file is `pid_path` (itself included) when they are more than
    `limit` and it is the least recently used of them (its pid file's mtime the oldest); 0 otherwise, or when
    `limit` is 0. Pid files of dead processes are not counted."""
    if limit <= 0:
        return 0
    live: list[tuple[float, str]] = []
    for path in pid_path.parent.glob("*.pid"):
        try:
            pid = int(path.read_text().strip() or 0)
            stamp = path.stat().st_mtime
        except (OSError, ValueError):
            continue
        if pid > 0 and pid_alive(pid):
            live.append((stamp, path.name))
    if len(live) <= limit or pid_path.name not in {name for _, name in live}:
        return 0
    return len(live) if min(live)[1] == pid_path.name else 0


def watch_code(server: DaemonServer, code: str, every: float = CODE_CHECK, cache: Path | None = None) -> None:
    """Stops a daemon whose jdx files changed on disk (an edit in place, a reinstall of the same version): its
    clients now look for another socket (paths.code_fingerprint), so it would only hold memory until idle. Stops
    too when its cache directory was removed (`rm -rf` of the cache, a throw-away cache of a script): the graph it
    holds open is gone for every other process, and what it would write next has nowhere to go."""
    seen = cache is not None and cache.is_dir()  # a cache made by the daemon's first answer counts from then
    while not server._stopped.wait(every):
        if code_fingerprint(fresh=True) != code:
            server.stop("code changed")
            return
        if cache is not None:
            present = cache.is_dir()
            if seen and not present:
                server.stop("cache directory removed")
                return
            seen = seen or present


def rss_bytes() -> int:
    """Resident memory of this process, from /proc (0 where there is no /proc)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def acquire_lock(paths: DaemonPaths) -> int:
    """The start lock, held for the daemon's life; fails fast naming the holder's pid."""
    fd = os.open(paths.lock, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip() or "unknown"
        os.close(fd)
        raise DaemonRunning(f"a jdx daemon for this workspace is already running or starting (pid {holder}, "
                            f"lock {paths.lock})", hint="jdx daemon status, or jdx daemon stop") from None
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    return fd


def sweep(paths: DaemonPaths, pid: int | None = None) -> list[str]:
    """Removes a socket and pid file no live daemon owns (call with the lock held, or with the owner dead)."""
    removed = []
    if pid is not None and paths.read_pid() not in (None, pid):
        return removed  # a newer daemon took over these files
    for path in (paths.socket, paths.pid):
        try:
            path.unlink()
            removed.append(str(path))
        except FileNotFoundError:
            pass
    return removed


def serve(paths: DaemonPaths, execute: Execute, commands: frozenset[str], *, idle: float = DEFAULT_IDLE,
          describe: Callable[[], dict] | None = None, workspace: dict | None = None,
          ready: Callable[[DaemonServer], None] | None = None, cache: Path | None = None) -> str:
    """Runs a daemon until stopped; returns why it stopped ("idle", "SIGTERM", "cache directory removed", ...)."""
    lock_fd = acquire_lock(paths)
    server = None
    try:
        sweep(paths)
        tmp = paths.pid.with_name(f"{paths.pid.name}.{os.getpid()}.tmp")
        tmp.write_text(f"{os.getpid()}\n")
        os.replace(tmp, paths.pid)  # before the socket: whoever can connect can also find the pid
        server = DaemonServer(paths.socket, execute, commands, idle=idle, describe=describe, workspace=workspace,
                              pid_path=paths.pid)
        previous = _install_signals(server)
        if ready:
            ready(server)
        threading.Thread(target=server.watch_idle, name="jdx-idle", daemon=True).start()
        threading.Thread(target=watch_code, args=(server, code_fingerprint()), kwargs={"cache": cache}, name="jdx-code",
                         daemon=True).start()
        try:
            server.serve_forever(poll_interval=0.1)
        finally:
            _restore_signals(previous)
        return server.stop_reason or "stopped"
    finally:
        if server is not None:
            server.server_close()
        sweep(paths, os.getpid())
        os.close(lock_fd)


def _install_signals(server: DaemonServer) -> dict:
    if threading.current_thread() is not threading.main_thread():
        return {}
    previous = {}
    server.signal_handler = lambda num, _frame: server.stop(signal.Signals(num).name)
    for sig in STOP_SIGNALS:
        previous[sig] = signal.signal(sig, server.signal_handler)
    return previous


def _restore_signals(previous: dict) -> None:
    for sig, handler in previous.items():
        signal.signal(sig, handler)
