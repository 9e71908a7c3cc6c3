"""`jdx daemon start|stop|status` and the CLI as a thin client, end to end on a small real workspace: answers
through the daemon are the bytes of `--no-daemon`, a changed class dir is noticed, a killed daemon is replaced."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.daemon.conftest import wait_until
from tests.fixtures import jdktool


def _javac() -> str:
    javac = shutil.which("javac")
    if javac is None:
        pytest.skip("javac is not installed: the class-dir workspace cannot be compiled")
    return javac


@pytest.fixture(scope="module")
def compiled_once(tmp_path_factory) -> Path:
    """One class dir with `p.A { one() }` shared by the tests that never change it (indexed once)."""
    out = tmp_path_factory.mktemp("daemon-ws") / "classes"
    out.mkdir()
    compile_a(out, ["one"])
    return out


@pytest.fixture
def classes(request, tmp_path) -> Path:
    """A class directory with one class `p.A`: the shared one, or a fresh one a test recompiles."""
    if "changed" in request.node.name:  # it recompiles: a dir of its own
        out = tmp_path / "classes"
        out.mkdir()
        return out
    return request.getfixturevalue("compiled_once")


def compile_a(classes: Path, methods: list[str]) -> None:
    src = classes.parent / "src" / "p"
    src.mkdir(parents=True, exist_ok=True)
    body = "".join(f"  public int {m}() {{ return 1; }}\n" for m in methods)
    (src / "A.java").write_text(f"package p;\npublic class A {{\n{body}}}\n")
    jdktool.run([_javac(), "--release", "17", "-d", str(classes), str(src / "A.java")], check=True, timeout=120)


@pytest.fixture
def cli(jdx_env, classes, monkeypatch):
    """Runs `python -m jdx` with a private runtime dir on the class-dir workspace; stops its daemon afterwards.
    `run.status()` asks the daemon in this process, keyed exactly as the CLI keys it."""
    from jdx.cli.main import Globals
    from jdx.daemon import control

    runtime = Path(tempfile.mkdtemp(prefix="jdxc-", dir="/tmp"))
    env = {**jdx_env, "JDX_RUNTIME_DIR": str(runtime)}
    env.pop("JDX_NO_DAEMON", None)
    for name in ("JDX_RUNTIME_DIR", "JDX_CACHE_DIR", "JDX_CONFIG_DIR"):
        monkeypatch.setenv(name, env[name])
    monkeypatch.delenv("JDX_WORKSPACE", raising=False)
    flags = ["--no-jdk", "--jars", str(classes)]
    key = Globals(jars=[str(classes)], jdk=False).workspace_key()

    def run(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "jdx", *args, *flags], capture_output=True, text=True,
                              env=env, timeout=timeout)

    run.status = lambda: control.status(key) or {"running": False}
    run.env, run.flags = env, flags
    yield run
    run("daemon", "stop", timeout=60)
    for pid_file in runtime.glob("*.pid"):  # belt and braces: never leave a daemon behind
        try:
            os.kill(int(pid_file.read_text()), signal.SIGKILL)
        except (ValueError, OSError):
            pass
    shutil.rmtree(runtime, ignore_errors=True)


def status(cli) -> dict:
    return cli.status()


def test_first_query_spawns_then_status_parity_and_stop(cli, classes):
    here = cli("members", "p.A", "--json", "--no-daemon")
    assert here.returncode == 0, here.stderr
    assert status(cli) == {"running": False}
    via = cli("members", "p.A", "--json")  # no daemon yet: this one spawns it, and is answered either way
    assert via.returncode == 0 and via.stdout == here.stdout
    assert wait_until(lambda: status(cli).get("pid") is not None, 20)
    again = cli("daemon", "start")
    assert again.returncode == 0 and "already running" in again.stdout
    before = status(cli)
    assert cli("members", "p.A", "--json").stdout == here.stdout
    missing_here, missing_via = cli("members", "p.Nope", "--no-daemon"), cli("members", "p.Nope")
    assert (missing_via.returncode, missing_via.stdout) == (missing_here.returncode, missing_here.stdout) != (0, "")
    after = status(cli)
    assert after["pid"] == before["pid"] and after["queries"] == before["queries"] + 2
    assert after["artifacts"] == 1 and after["memory"] > 0 and after["idle"] == 300
    shown = cli("daemon", "status")
    assert f"pid: {before['pid']}" in shown.stdout and "queries: " in shown.stdout
    assert f"workspace: --jars {classes}; without the JDK" in shown.stdout.splitlines()  # spec §14.3
    stopped = cli("daemon", "stop")
    assert stopped.returncode == 0 and f"stopped daemon pid {before['pid']}" in stopped.stdout
    assert status(cli) == {"running": False}
    assert "no daemon running" in cli("daemon", "status").stdout


@pytest.mark.soak  # two re-indexes of the class dir: slow on a loaded machine
def test_a_changed_class_dir_is_noticed_by_the_daemon(cli, classes):
    compile_a(classes, ["one"])
    first = cli("members", "p.A", "--json")
    assert first.returncode == 0, first.stderr
    assert wait_until(lambda: status(cli).get("pid") is not None, 20)
    pid = status(cli)["pid"]
    time.sleep(0.01)
    compile_a(classes, ["one", "two"])
    second = cli("members", "p.A", "--json")
    names = [m["name"] for m in json.loads(second.stdout)["result"]["members"]]
    assert "two" in names
    assert second.stdout == cli("members", "p.A", "--json", "--no-daemon").stdout
    now = status(cli)
    assert now["pid"] == pid and now["refreshes"] >= 1


@pytest.mark.soak  # slow on a loaded machine; test_faults covers the client side with a fake daemon
def test_a_sigkilled_daemon_is_replaced_and_no_query_is_lost(cli, classes):
    assert cli("daemon", "start").returncode == 0
    pid = status(cli)["pid"]
    os.kill(pid, signal.SIGKILL)
    assert wait_until(lambda: not Path(f"/proc/{pid}").exists() or
                      Path(f"/proc/{pid}/stat").read_text().split()[2] == "Z", 10)
    answer = cli("members", "p.A", "--json")
    assert answer.returncode == 0 and answer.stdout == cli("members", "p.A", "--json", "--no-daemon").stdout
    assert wait_until(lambda: status(cli).get("pid") not in (None, pid), 20)


def test_two_starts_at_once_leave_one_daemon(cli, classes):
    with ThreadPoolExecutor(2) as pool:
        results = list(pool.map(lambda _: cli("daemon", "start", "--idle", "60", "--json"), range(2)))
    for r in results:
        assert r.returncode in (0, 3), r.stderr
        if r.returncode == 3:
            assert "pid" in json.loads(r.stdout)["error"]["message"]
    assert any(r.returncode == 0 for r in results)
    pids = {json.loads(r.stdout)["result"]["pid"] for r in results if r.returncode == 0}
    assert pids == {status(cli)["pid"]} and status(cli)["idle"] == 60


@pytest.mark.soak
def test_a_daemon_running_edited_code_is_replaced_and_never_answers(cli, classes, tmp_path):
    """jdx's own files edited in place with the version unchanged (an editable install, a reinstall of the same
    version): the next query is answered by the edited code, a new daemon serves it, the old one exits."""
    code = tmp_path / "code"
    shutil.copytree(Path(__file__).resolve().parents[2] / "jdx", code / "jdx",
                    ignore=shutil.ignore_patterns("__pycache__"))
    env = {**cli.env, "PYTHONPATH": str(code)}

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "jdx", *args, *cli.flags], capture_output=True, text=True,
                              check=False, env=env, cwd=code, timeout=300)  # `-m` puts the cwd first on sys.path

    def daemon_pid() -> int | None:
        shown = run("--json", "daemon", "status")
        return json.loads(shown.stdout)["result"].get("pid") if shown.returncode == 0 else None

    assert '"edited"' not in run("members", "p.A", "--json").stdout
    assert wait_until(lambda: daemon_pid() is not None, 20)
    old = daemon_pid()
    members = code / "jdx" / "engine" / "members.py"
    text = members.read_text()
    marker = '"deprecated": bool(m.get("deprecated"))}'
    assert marker in text
    members.write_text(text.replace(marker, '"deprecated": bool(m.get("deprecated")), "edited": True}'))
    answer = run("members", "p.A", "--json")
    assert answer.returncode == 0 and '"edited":true' in answer.stdout, answer.stdout + answer.stderr
    assert wait_until(lambda: daemon_pid() not in (None, old), 20)
    assert '"edited":true' in run("members", "p.A", "--json").stdout
    assert wait_until(lambda: not Path(f"/proc/{old}").exists() or
                      Path(f"/proc/{old}/stat").read_text().split()[2] == "Z", 20)  # it noticed and stopped
    run("daemon", "stop")


@pytest.mark.soak  # a daemon, a JVM and two indexes: slow on a loaded machine
def test_a_daemon_whose_jvm_runs_stops_cleanly_when_the_class_dir_changed(cli, classes):
    """The embedded JVM installs its own SIGTERM handler, which ended the daemon at once: no log line, its socket
    and pid files left to the controller, its spare graph copies left on disk. Once its JVM runs the daemon takes
    the signals back, so `daemon stop` is a clean stop."""
    compile_a(classes, ["one"])
    assert cli("members", "p.A", "--json").returncode == 0
    assert wait_until(lambda: status(cli).get("pid") is not None, 20)
    time.sleep(0.01)
    compile_a(classes, ["one", "two"])  # the daemon re-reads the changed class: its JVM starts
    second = cli("members", "p.A", "--json")
    assert "two" in [m["name"] for m in json.loads(second.stdout)["result"]["members"]]
    assert status(cli).get("pid") is not None  # still serving once its JVM runs
    time.sleep(0.5)  # the serving loop takes the signals back between polls (0.1 s)
    stopped = cli("daemon", "stop", "--json")
    result = json.loads(stopped.stdout)["result"]
    assert result["stopped"] and not result["forced"], result
    assert result["swept"] == [], result  # the daemon removed its own socket and pid file
    logs = [p.read_text() for p in Path(cli.env["JDX_RUNTIME_DIR"]).glob("*.log")]
    assert any("jdx daemon stopped: SIGTERM" in text for text in logs), logs

@pytest.mark.soak  # slow: the soak runs it (.ci/run)

def test_a_changed_workspace_built_by_the_daemon_says_its_phases(cli, classes):
    """The daemon builds the graph while the client waits: the client prints the build's phase lines on stderr as a
    one-shot process does (no silent wait), none for a warm answer, none with -q or --json."""
    compile_a(classes, ["one"])
    assert cli("daemon", "start").returncode == 0
    assert wait_until(lambda: status(cli).get("pid") is not None, 20)
    first = cli("members", "p.A")
    assert first.returncode == 0 and "one()" in first.stdout, first.stderr
    assert status(cli)["queries"] == 1  # the daemon answered it, not this process
    phases = [line for line in first.stderr.splitlines() if line.startswith("jdx: ")]
    assert "jdx: building the workspace graph" in phases and phases[-1] == "jdx: workspace graph ready", first.stderr
    warm = cli("members", "p.A")
    assert warm.returncode == 0 and not warm.stderr.strip(), warm.stderr
    compile_a(classes, ["one", "two"])
    quiet = cli("members", "p.A", "-q")
    assert quiet.returncode == 0 and "two()" in quiet.stdout and "jdx: " not in quiet.stderr, quiet.stderr


def test_status_text_says_the_idle_shutdown_in_seconds():
    from jdx.cli.commands_daemon import _lines

    assert "idle shutdown: after 300 s" in _lines({"pid": 1, "idle": 300.0})
    assert "idle shutdown: never" in _lines({"pid": 1, "idle": 0})


def test_status_names_the_default_workspace_a_daemon_answers_for(tmp_path, monkeypatch):
    """A daemon started with no workspace flag under a `ws use` default said `workspace: with the JDK` (T95): its
    status now names the workspace its last answer came from, and how it was picked."""
    from jdx.cli.commands_daemon import _lines
    from jdx.commands.host import _selected
    from jdx.commands.session import Options, Session
    from tests.serve_support import cli as run_cli

    monkeypatch.setenv("JDX_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("JDX_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("JDX_WORKSPACE", raising=False)
    jar = tmp_path / "a.jar"
    jar.write_bytes(b"PK\x05\x06" + b"\0" * 18)
    assert run_cli(["ws", "create", "app", "--jars", str(jar), "--no-jdk"]).code == 0
    assert run_cli(["ws", "use", "app"]).code == 0
    session = Session(Options())
    assert _selected(session) == "app via ws use"
    assert "workspace: ws app via ws use; with the JDK" in _lines({"pid": 1, "workspace": {"jdk": None},
                                                                   "selected": "app via ws use"})
    named = {"pid": 1, "workspace": {"workspace": "app", "jdk": None}, "selected": "app via -w"}
    assert "workspace: ws app; with the JDK" in _lines(named)  # named by its flag already: said once
    assert _selected(Session(Options(jars=[str(jar)], jdk=False))) == "app via flags + ws use"  # flags add to it
    assert run_cli(["ws", "use", "--none"]).code == 0
    assert _selected(Session(Options(jars=[str(jar)], jdk=False))) is None  # ad hoc flags name no workspace


@pytest.mark.soak  # two real daemons spawned and stopped (tests/daemon/test_server.py checks --all on fake ones)
def test_status_and_stop_all_reach_every_daemon(cli, classes, tmp_path):
    """Each classpath has its own daemon: `daemon stop|status` name this workspace's, say how many others run, and
    `--all` reaches every one (an agent that tried three classpaths had four daemons and no way to stop them)."""
    other = tmp_path / "more"
    other.mkdir()
    assert cli("members", "p.A", "--json").returncode == 0  # this workspace's daemon
    assert cli("members", "p.A", "--json", "--jars", str(other)).returncode == 0  # another classpath's
    from jdx.daemon import control

    assert wait_until(lambda: len(control.every_daemon({})) == 2, 30)  # (in the runtime dir the CLI's daemons use)
    listed = json.loads(cli("daemon", "status", "--all", "--json").stdout)["result"]["daemons"]
    pids = sorted(d["pid"] for d in listed)
    assert len(pids) == 2 and all(d["queries"] >= 1 for d in listed), listed
    assert cli("daemon", "stop").returncode == 0  # this workspace's
    assert "no daemon was running (1 other running: jdx daemon stop --all)" in cli("daemon", "stop").stdout
    assert "(1 other running: jdx daemon status --all)" in cli("daemon", "status").stdout
    stopped = cli("daemon", "stop", "--all")
    assert stopped.returncode == 0 and "stopped daemon pid" in stopped.stdout, stopped.stdout
    assert wait_until(lambda: not any(os.path.exists(f"/proc/{p}") for p in pids), 10)
    assert cli("daemon", "stop", "--all").stdout == "no daemon was running\n"


def test_version_and_doctor_start_no_daemon(cli):
    """A command that reads no graph is answered in process: `jdx version` on a fresh cache started a daemon that
    then held a process for five idle minutes."""
    from jdx.daemon import control

    for command in ("version", "doctor"):
        assert cli(command, "--json").returncode == 0, command
    time.sleep(0.5)  # (a spawned daemon takes the lock within this)
    assert control.every_daemon({}) == [] and cli.status() == {"running": False}


def test_a_project_flag_naming_no_project_starts_no_daemon(cli, tmp_path):
    """`--project` naming no directory, or a directory with no project there or above, is a usage error (exit 3)
    answered in process: a trial found a daemon started for each such line, left running (five daemons, over the
    limit of four)."""
    import subprocess as sp

    from jdx.daemon import control

    empty = Path(tempfile.mkdtemp(prefix="jdx-noproj-", dir="/tmp"))  # (not under a project: /tmp has none)
    try:
        for project in (str(tmp_path / "nope"), str(empty)):
            r = sp.run([sys.executable, "-m", "jdx", "--project", project, "members", "java.util.Map"],
                       capture_output=True, text=True, env=cli.env, timeout=300, cwd="/")
            assert r.returncode == 3 and "--project" in r.stderr, r.stderr
        time.sleep(0.5)  # (a spawned daemon takes the lock within this)
        assert control.every_daemon({}) == [], control.every_daemon({})
    finally:
        shutil.rmtree(empty, ignore_errors=True)
