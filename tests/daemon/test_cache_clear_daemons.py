"""`jdx cache clear` stops the daemons answering from the cache it clears (they went on answering from the removed
graph's open files), and says how many; a daemon of another cache in the same runtime dir keeps running.

Oracles: the daemon processes themselves (their pids alive or gone, their sockets answering), started by
`jdx daemon start` on a class dir javac compiled at test time.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.daemon.conftest import wait_until
from tests.daemon.test_cli_daemon import compile_a


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return not Path(f"/proc/{pid}/status").exists() or "State:\tZ" not in Path(f"/proc/{pid}/status").read_text()


@pytest.fixture
def two_caches(jdx_env, tmp_path, monkeypatch):
    """`start(cache) -> (key, pid)`: a daemon on one class dir, per cache, all in one private runtime dir."""
    from jdx.cli.main import Globals
    from jdx.daemon import control

    classes = tmp_path / "classes"
    classes.mkdir()
    compile_a(classes, ["one"])
    runtime = Path(tempfile.mkdtemp(prefix="jdxcc-", dir="/tmp"))
    base = {**jdx_env, "JDX_RUNTIME_DIR": str(runtime)}
    base.pop("JDX_NO_DAEMON", None)
    monkeypatch.setenv("JDX_RUNTIME_DIR", str(runtime))
    monkeypatch.setenv("JDX_CONFIG_DIR", jdx_env["JDX_CONFIG_DIR"])
    monkeypatch.delenv("JDX_WORKSPACE", raising=False)
    started: list[tuple[dict, str]] = []

    def start(cache: Path) -> tuple[dict, int]:
        env = {**base, "JDX_CACHE_DIR": str(cache)}
        done = subprocess.run([sys.executable, "-m", "jdx", "--no-jdk", "--jars", str(classes), "daemon", "start"],
                              env=env, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        monkeypatch.setenv("JDX_CACHE_DIR", str(cache))
        key = Globals(jars=[str(classes)], jdk=False).workspace_key()
        status = control.status(key)
        assert status is not None and _alive(status["pid"])
        started.append((key, str(cache)))
        return key, status["pid"]

    yield start
    for key, cache in started:
        monkeypatch.setenv("JDX_CACHE_DIR", cache)
        control.stop(key)
    shutil.rmtree(runtime, ignore_errors=True)


def test_cache_clear_stops_the_daemons_of_that_cache_only(two_caches, tmp_path, monkeypatch):
    from jdx.commands import manage
    from jdx.daemon import control

    cleared, other = tmp_path / "cache-a", tmp_path / "cache-b"
    key_a, pid_a = two_caches(cleared)
    key_b, pid_b = two_caches(other)
    assert pid_a != pid_b
    monkeypatch.setenv("JDX_CACHE_DIR", str(cleared))
    done = subprocess.run([sys.executable, "-m", "jdx", "cache", "clear", "--json"], env=dict(os.environ),
                          capture_output=True, text=True, timeout=120)  # the CLI's own wiring
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["result"]["daemons_stopped"] == 1 and answer["result"]["cleared"] == str(cleared)
    assert wait_until(lambda: not _alive(pid_a), 10)
    assert control.status(key_a) is None
    monkeypatch.setenv("JDX_CACHE_DIR", str(other))
    assert _alive(pid_b) and control.status(key_b)["pid"] == pid_b  # another cache's daemon still answers
    again = manage.cache_clear(SimpleNamespace(cache=cleared), control.stop_cache_daemons)
    assert again.result["daemons_stopped"] == 0


def test_a_daemon_names_its_cache_beside_its_socket(tmp_path, monkeypatch):
    from jdx.daemon.paths import daemon_paths

    monkeypatch.setenv("JDX_RUNTIME_DIR", str(tmp_path / "run"))
    monkeypatch.setenv("JDX_CACHE_DIR", str(tmp_path / "c1"))
    one = daemon_paths({"jars": ["/x.jar"]})
    monkeypatch.setenv("JDX_CACHE_DIR", str(tmp_path / "c2"))
    two = daemon_paths({"jars": ["/x.jar"]})
    assert one.stem != two.stem
    assert (one.read_cache(), two.read_cache()) == (str(tmp_path / "c1"), str(tmp_path / "c2"))
    assert daemon_paths({"jars": ["/y.jar"]}, create=False).read_cache() is None  # only a daemon's own files
