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


def pytest_xdist_auto_num_workers(config) -> int:
    """`-n auto`: one worker per core, at most 4 (each worker indexes the JDK once and holds its graphs)."""
    return max(1, min(4, len(os.sched_getaffinity(0))))


@dataclass
class Run:
    code: int
    out: str
    err: str


@pytest.fixture(scope="session", autouse=True)
def _own_config(tmp_path_factory):
    """The tests that answer in this process read no user's workspaces: `jdx ws use` of whoever runs the tests would
    otherwise become every in-process session's workspace (its jars answering the fixtures' questions)."""
    saved = {k: os.environ.get(k) for k in ("JDX_CONFIG_DIR", "JDX_WORKSPACE")}
    os.environ["JDX_CONFIG_DIR"] = str(tmp_path_factory.mktemp("jdx-config"))
    os.environ.pop("JDX_WORKSPACE", None)
    yield
    for key, value in saved.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value


@pytest.fixture(scope="session")
def jdx_home(tmp_path_factory) -> Path:
    """One cache and config dir for the whole session, so the JDK is indexed once. Under xdist the workers
    share that one index: the first worker builds it in a directory of the run, the others wait for it, and
    each starts from a copy (its cache stays its own)."""
    home = tmp_path_factory.mktemp("jdx-home")
    (home / "config").mkdir()
    run_id = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    if run_id:
        _copy_shared_jdk_cache(tmp_path_factory.getbasetemp().parent / f"jdk-cache-{run_id[:12]}", home / "cache")
    else:
        (home / "cache").mkdir()
    return home


def _copy_shared_jdk_cache(shared: Path, cache: Path) -> None:
    import fcntl
    import shutil

    shared.mkdir(parents=True, exist_ok=True)
    with open(shared.parent / f"{shared.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        done = shared / ".complete"
        if not done.exists():
            env = {k: v for k, v in os.environ.items() if not k.startswith("JDX_")}
            env.update(JDX_CACHE_DIR=str(shared), JDX_CONFIG_DIR=str(shared / "config"), JDX_NO_DAEMON="1")
            proc = subprocess.run([sys.executable, "-m", "jdx", "index", "-q"], capture_output=True, text=True,
                                  env=env, timeout=900, cwd=shared)
            if proc.returncode == 0:
                done.write_text("ok")
    if done.exists():
        shutil.copytree(shared, cache, ignore=shutil.ignore_patterns(".complete", "config"))
    else:  # the shared index failed: this worker indexes on its own, and its tests say why
        cache.mkdir()


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


def _query_command(args: tuple[str, ...]) -> bool:
    """A registry query command line (no --help), what `jdx.cli.main.main` answers without typer, or a local
    `index` (the build a query line does on a new workspace, as its own command)."""
    from jdx.cli.main import split_globals
    from jdx.commands.registry import command

    try:
        _, rest = split_globals(list(args))
    except Exception:  # noqa: BLE001 - a bad global flag line goes to the real process
        return False
    if not rest or any(w in ("-h", "--help") for w in rest):
        return False
    if rest[0] == "index":
        return not any(w.startswith(("--executor", "--ray-address", "--shards")) for w in rest)
    return command(rest[0]) is not None


@pytest.fixture(scope="session")
def run_jdx(jdx_env):
    """Runs `jdx ARGS` and returns exit code, stdout and stderr.

    A plain query command line (no stdin, no extra environment) is answered by `jdx.cli.main.main` inside
    the test process, with the session's environment, as `python -m jdx` would answer it (the same code
    after the interpreter starts; a fresh process per line made the default tier pay an interpreter, a JVM
    and a graph open per line). Everything else, and every line when JDX_TEST_SUBPROCESS=1, runs
    `python -m jdx` as a subprocess. tests/cli/test_cli.py keeps subprocess checks of the real entry point."""

    def run(*args: str, env: dict | None = None, stdin: str | None = None, timeout: int = 600) -> Run:
        if env is None and stdin is None and not os.environ.get("JDX_TEST_SUBPROCESS") and _query_command(args):
            return _in_process(args, jdx_env)
        proc = subprocess.run(
            [sys.executable, "-m", "jdx", *args],
            capture_output=True, text=True, env={**jdx_env, **(env or {})}, input=stdin, timeout=timeout,
        )
        return Run(proc.returncode, proc.stdout, proc.stderr)

    return run


def _in_process(args: tuple[str, ...], env: dict) -> Run:
    import contextlib
    import io

    from jdx.cli.main import main

    out, err = io.StringIO(), io.StringIO()
    saved = dict(os.environ)
    os.environ.clear()
    os.environ.update(env)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(list(args))
    finally:
        os.environ.clear()
        os.environ.update(saved)
    return Run(code, out.getvalue(), err.getvalue())


def require(path: Path) -> Path:
    if not path.exists():
        pytest.skip(f"{path} is not installed (see .ci/run)")
    return path
