"""Fault injection (spec §14.3, §18): killed daemons, stale files, a socket path too long, a pid that is not ours.
Every case ends in a named error or a None that sends the caller in-process; nothing hangs."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time

import pytest

from jdx.commands.wire import encode_request
from jdx.daemon import client, control
from jdx.daemon.paths import SUN_PATH_MAX, daemon_paths
from jdx.errors import EXIT_USAGE, UsageError
from tests.daemon.conftest import wait_until


def test_sigkill_mid_query_sends_the_client_in_process(process_daemon, ws):
    proc = process_daemon(ws)
    box: dict = {}

    def ask():
        start = time.monotonic()
        box["answer"] = client.query(ws, encode_request("slow", "x", {"seconds": 30}), spawn=False, timeout=60)
        box["seconds"] = time.monotonic() - start

    thread = threading.Thread(target=ask)
    thread.start()
    assert wait_until(lambda: control.status(ws) is not None and control.status(ws)["queries"] >= 1)
    proc.send_signal(signal.SIGKILL)
    thread.join(20)
    assert not thread.is_alive()
    assert box["answer"] is None and box["seconds"] < 15
    # what the killed daemon left behind: a socket nobody listens on and its pid file
    paths = daemon_paths(ws)
    proc.wait(10)
    assert paths.socket.exists() and paths.read_pid() == proc.pid
    assert client.query(ws, encode_request("members", "a.B"), spawn=False) is None
    assert control.status(ws) is None


def test_stale_socket_and_pid_are_swept_and_a_new_daemon_starts_clean(process_daemon, ws):
    proc = process_daemon(ws)
    proc.kill()
    proc.wait(10)
    paths = daemon_paths(ws)
    assert paths.socket.exists() and paths.pid.exists()
    report = control.stop(ws)
    assert report["stopped"] is False and report["running"] is False
    assert sorted(report["swept"]) == sorted([str(paths.socket), str(paths.pid)])
    assert not paths.socket.exists() and not paths.pid.exists()
    # and without a stop in between, a new daemon sweeps them itself
    proc = process_daemon(ws)
    proc.kill()
    proc.wait(10)
    proc = process_daemon(ws)
    assert paths.read_pid() == proc.pid
    assert json.loads(client.query(ws, encode_request("members", "a.B"), spawn=False, timeout=10))["ok"]


def test_stale_socket_from_a_dead_binder_is_refused_fast(ws):
    paths = daemon_paths(ws)
    dead = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    dead.bind(str(paths.socket))
    dead.close()  # the file stays, nobody listens: ECONNREFUSED
    paths.pid.write_text("999999999\n")
    start = time.monotonic()
    assert client.query(ws, encode_request("members", "a.B"), spawn=False) is None
    assert time.monotonic() - start < 2
    assert control.stop(ws)["swept"]


def test_stop_never_signals_a_pid_that_is_not_our_daemon(ws):
    paths = daemon_paths(ws)
    holder = subprocess.Popen([sys.executable, "-c", (
        "import fcntl, os, sys, time\n"
        f"fd = os.open({str(paths.lock)!r}, os.O_RDWR | os.O_CREAT)\n"
        "fcntl.flock(fd, fcntl.LOCK_EX)\n"
        "os.pwrite(fd, f'{os.getpid()}\\n'.encode(), 0)\n"
        "print('locked', flush=True)\n"
        "time.sleep(60)\n")], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "locked"
        paths.pid.write_text(f"{holder.pid}\n")
        report = control.stop(ws, grace=0.5)
        assert report["stopped"] is False and "not a `jdx daemon run`" in report["refused"]
        assert holder.poll() is None
    finally:
        holder.kill()
        holder.communicate(timeout=10)


def test_is_jdx_daemon_reads_the_command_line():
    assert control.is_jdx_daemon(os.getpid()) is False
    assert control.is_jdx_daemon(999_999_999) is False
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)", "-m", "jdx", "daemon", "status"])
    try:
        assert control.is_jdx_daemon(proc.pid) is False  # `daemon status`, not `daemon run`
    finally:
        proc.kill()
        proc.wait(10)


def test_socket_path_too_long_is_exit_3_naming_the_dir_and_the_override(monkeypatch, tmp_path):
    long_dir = "/tmp/" + "d" * (SUN_PATH_MAX - 20)
    monkeypatch.setenv("JDX_RUNTIME_DIR", long_dir)
    try:
        with pytest.raises(UsageError) as info:
            client.query({"jars": ["/x.jar"]}, encode_request("members", "a.B"))
        assert info.value.exit_code == EXIT_USAGE
        assert long_dir in info.value.message and "JDX_RUNTIME_DIR" in info.value.hint
        proc = subprocess.run([sys.executable, "-m", "jdx", "daemon", "start", "--jars", "/x.jar"],
                              capture_output=True, text=True, timeout=60,
                              env={**os.environ, "JDX_CACHE_DIR": str(tmp_path), "JDX_CONFIG_DIR": str(tmp_path)})
        assert proc.returncode == EXIT_USAGE and "JDX_RUNTIME_DIR" in proc.stderr, proc.stderr
        assert "Traceback" not in proc.stderr
    finally:
        os.rmdir(long_dir) if os.path.isdir(long_dir) else None


def test_no_daemon_env_answers_in_process_without_trying(thread_daemon, ws, monkeypatch):
    thread_daemon(ws)
    monkeypatch.setenv("JDX_NO_DAEMON", "1")
    assert client.query(ws, encode_request("members", "a.B")) is None
    monkeypatch.setenv("JDX_NO_DAEMON", "0")
    assert client.query(ws, encode_request("members", "a.B"), spawn=False, timeout=10) is not None


def test_a_daemon_that_accepts_but_never_answers_times_out(ws):
    """A daemon still answering when the caller's --timeout runs out is a timeout (TimedOut: the CLI answers
    TIMEOUT, saying the daemon was answering), never in-process work that would start the clock again."""
    paths = daemon_paths(ws)
    hung = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    hung.bind(str(paths.socket))
    hung.listen(1)
    try:
        start = time.monotonic()
        with pytest.raises(client.TimedOut):
            client.query(ws, encode_request("members", "a.B"), spawn=False, timeout=0.3)
        assert time.monotonic() - start < 2
    finally:
        hung.close()


def test_a_daemon_that_answers_half_a_line_is_not_believed(ws):
    paths = daemon_paths(ws)
    half = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    half.bind(str(paths.socket))
    half.listen(1)

    def serve_half():
        conn, _ = half.accept()
        with conn:
            conn.recv(4096)
            conn.sendall(b'{"jdx":1,"ok":true,"command":"mem')

    thread = threading.Thread(target=serve_half)
    thread.start()
    try:
        assert client.query(ws, encode_request("members", "a.B"), spawn=False, timeout=5) is None
    finally:
        thread.join(5)
        half.close()


def test_stop_escalates_to_sigkill_when_sigterm_is_ignored(ws, tmp_path):
    """A daemon stuck past the grace is killed; its files are swept."""
    paths = daemon_paths(ws)
    script = tmp_path / "jdx"  # run as `python <dir>/jdx daemon run`: the shape of a console-script daemon
    script.write_text(
        "import fcntl, os, signal, sys, time\n"
        "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
        f"fd = os.open({str(paths.lock)!r}, os.O_RDWR | os.O_CREAT)\n"
        "fcntl.flock(fd, fcntl.LOCK_EX)\n"
        "os.pwrite(fd, f'{os.getpid()}\\n'.encode(), 0)\n"
        f"open({str(paths.pid)!r}, 'w').write(f'{{os.getpid()}}\\n')\n"
        "print('locked', flush=True)\n"
        "time.sleep(60)\n")
    stuck = subprocess.Popen([sys.executable, str(script), "daemon", "run"], stdout=subprocess.PIPE, text=True)
    try:
        assert stuck.stdout.readline().strip() == "locked"
        assert control.is_jdx_daemon(stuck.pid)
        report = control.stop(ws, grace=0.5)
        assert report["stopped"] and report["forced"] and report["running"] is False
        assert str(paths.pid) in report["swept"]
        assert stuck.wait(10) == -signal.SIGKILL
    finally:
        if stuck.poll() is None:
            stuck.kill()
        stuck.communicate(timeout=10)
