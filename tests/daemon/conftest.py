"""Daemon fixtures: a private short runtime dir per test, daemons in a thread or a process, always stopped."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest

from jdx.daemon import client
from jdx.daemon.paths import daemon_paths, workspace_flags

HERE = Path(__file__).parent


@pytest.fixture
def runtime(monkeypatch) -> Path:
    """JDX_RUNTIME_DIR (plus cache and config) in a short private tmp dir, so sockets fit sun_path."""
    root = Path(tempfile.mkdtemp(prefix="jdxd-", dir="/tmp"))
    monkeypatch.setenv("JDX_RUNTIME_DIR", str(root / "run"))
    monkeypatch.setenv("JDX_CACHE_DIR", str(root / "cache"))
    monkeypatch.setenv("JDX_CONFIG_DIR", str(root / "config"))
    monkeypatch.delenv("JDX_NO_DAEMON", raising=False)
    monkeypatch.delenv("JDX_WORKSPACE", raising=False)
    yield root / "run"
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def ws(runtime) -> dict:
    return workspace_flags(jars=["/nonexistent/app.jar"], jdk=False)


@pytest.fixture
def thread_daemon(runtime):
    """Starts `serve()` with the fake executor in a thread; returns (server, paths)."""
    from jdx.daemon.server import serve
    from tests.daemon.fake_daemon import COMMANDS, execute

    running = []

    def start(workspace: dict, idle: float = 0, execute=execute, commands=COMMANDS, describe=None):
        ready = threading.Event()
        box: dict = {}

        def run():
            try:
                box["reason"] = serve(daemon_paths(workspace), execute, commands, idle=idle, describe=describe,
                                      workspace=workspace, ready=lambda s: (box.update(server=s), ready.set()))
            except BaseException as exc:  # noqa: BLE001 - handed to the test
                box["error"] = exc
                ready.set()

        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        assert ready.wait(10), "daemon thread did not start"
        if "error" in box:
            raise box["error"]
        running.append((box["server"], thread))
        box["thread"] = thread
        return box

    yield start
    for server, thread in running:
        server.stop("test over")
        thread.join(10)
        assert not thread.is_alive(), "daemon thread did not stop"


@pytest.fixture
def process_daemon(runtime):
    """Starts tests/daemon/fake_daemon.py as a process; returns the Popen once its socket answers."""
    procs: list[subprocess.Popen] = []

    def start(workspace: dict, idle: float = 0) -> subprocess.Popen:
        env = {**os.environ, "PYTHONPATH": str(HERE.parent.parent)}
        proc = subprocess.Popen([sys.executable, str(HERE / "fake_daemon.py"), json.dumps(workspace), str(idle)],
                                env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        procs.append(proc)
        sock = client.wait_for_socket(daemon_paths(workspace), 15, proc)
        assert sock is not None, f"fake daemon did not come up: {proc.poll()} {proc.stderr.read() if proc.poll() is not None else ''}"
        sock.close()
        return proc

    yield start
    for proc in procs:
        if proc.poll() is None:
            proc.kill()
        proc.communicate(timeout=10)


def wait_until(predicate, seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.02)
    return predicate()
