"""Shared fixtures: an isolated cache/config per session, the jdx CLI as a subprocess, Debian corpus jars."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

JAVA_DIR = Path("/usr/share/java")
GSON = JAVA_DIR / "gson.jar"
GUAVA = JAVA_DIR / "guava.jar"
LANG3 = JAVA_DIR / "commons-lang3.jar"


@dataclass
class Run:
    code: int
    out: str
    err: str


@pytest.fixture(scope="session")
def jdx_home(tmp_path_factory) -> Path:
    """One cache and config dir for the whole session, so the JDK is indexed once."""
    home = tmp_path_factory.mktemp("jdx-home")
    (home / "cache").mkdir()
    (home / "config").mkdir()
    return home


@pytest.fixture(scope="session")
def jdx_env(jdx_home) -> dict:
    """The session's environment; daemons the CLI spawns live in its own runtime dir and stop with the session."""
    env = dict(os.environ)
    env["JDX_CACHE_DIR"] = str(jdx_home / "cache")
    env["JDX_CONFIG_DIR"] = str(jdx_home / "config")
    env["JDX_RUNTIME_DIR"] = str(jdx_home / "run")
    env.pop("JDX_WORKSPACE", None)
    env.pop("JDX_GRAPH_BACKEND", None)
    env["JDX_NO_DAEMON"] = "1"  # one-shot answers; the daemon tests start their own with JDX_RUNTIME_DIR set
    yield env
    import signal

    for pid_file in (jdx_home / "run").glob("*.pid"):
        try:
            pid = int(pid_file.read_text())
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if b"daemon\0run" in f.read():
                    os.kill(pid, signal.SIGTERM)
        except (ValueError, OSError):
            pass


@pytest.fixture(scope="session")
def run_jdx(jdx_env):
    """Runs `python -m jdx ARGS` and returns exit code, stdout and stderr."""

    def run(*args: str, env: dict | None = None, stdin: str | None = None, timeout: int = 600) -> Run:
        proc = subprocess.run(
            [sys.executable, "-m", "jdx", *args],
            capture_output=True, text=True, env={**jdx_env, **(env or {})}, input=stdin, timeout=timeout,
        )
        return Run(proc.returncode, proc.stdout, proc.stderr)

    return run


def require(path: Path) -> Path:
    if not path.exists():
        pytest.skip(f"{path} is not installed (see .ci/run)")
    return path
