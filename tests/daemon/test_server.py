"""The daemon server over its socket (spec §14.3, §14.5) with a fake executor: one response per line, bad
lines answered with named errors, concurrency, idle shutdown, the start lock and status."""

from __future__ import annotations

import json
import os
import socket
import threading
import time

import pytest

from jdx.commands.wire import MAX_LINE_BYTES, decode_response, encode_request, encode_response
from jdx.daemon import client
from jdx.daemon.paths import daemon_paths, workspace_flags
from jdx.daemon.server import DaemonRunning, serve
from jdx.errors import EXIT_USAGE
from tests.daemon.conftest import wait_until
from tests.daemon.fake_daemon import COMMANDS, execute


def lines_over(paths, payload: bytes, count: int, shut: bool = False) -> list[dict]:
    """Sends raw bytes on one connection and reads `count` response lines (with a timeout)."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(10)
        sock.connect(str(paths.socket))
        sock.sendall(payload)
        if shut:
            sock.shutdown(socket.SHUT_WR)
        buf = b""
        while buf.count(b"\n") < count:
            chunk = sock.recv(65536)
            if not chunk:
                break
            buf += chunk
    return [decode_response(line) for line in buf.splitlines()]


def test_round_trip_is_the_executor_envelope_verbatim(thread_daemon, ws):
    thread_daemon(ws)
    line = encode_request("members", "java.util.HashMap", {"inherited": True, "kind": ["method"]})
    answer = client.query(ws, line, spawn=False, timeout=10)
    assert answer == encode_response(execute("members", "java.util.HashMap",
                                             {"inherited": "true", "kind": ("method",)}))


def test_many_requests_per_connection_in_order(thread_daemon, ws):
    box = thread_daemon(ws)
    payload = "".join(encode_request("members", f"a.T{i}") for i in range(5)).encode()
    answers = lines_over(daemon_paths(ws), payload, 5)
    assert [a["query"] for a in answers] == [f"a.T{i}" for i in range(5)]
    assert box["server"].queries == 5


@pytest.mark.parametrize("bad, code", [
    (b"garbage\n", "WIRE_JSON"),
    (b'{"jdx":1,"command":"mem\n', "WIRE_TRUNCATED"),
    (b"\xff\xfe\n", "WIRE_ENCODING"),
    (b'{"jdx":2,"command":"members"}\n', "WIRE_VERSION"),
    (b'{"command":"ws","query":"create x"}\n', "WIRE_UNKNOWN_COMMAND"),
    (b'{"command":"members"}{"command":"members"}\n', "WIRE_TRAILING"),
    (b"\n", "WIRE_EMPTY"),
])
def test_bad_lines_get_a_named_error_and_the_server_keeps_serving(thread_daemon, ws, bad, code):
    thread_daemon(ws)
    paths = daemon_paths(ws)
    first, second = lines_over(paths, bad + encode_request("members", "after").encode(), 2)
    assert first["ok"] is False and first["error"]["code"] == code and first["jdx"] == 1
    assert second["ok"] is True and second["query"] == "after"
    assert lines_over(paths, encode_request("members", "next").encode(), 1)[0]["query"] == "next"


def test_unknown_command_error_names_it(thread_daemon, ws):
    thread_daemon(ws)
    (answer,) = lines_over(daemon_paths(ws), b'{"command":"member","query":"a.B"}\n', 1)
    assert answer["command"] == "member" and answer["query"] == "a.B"
    assert "did you mean members" in answer["error"]["message"]


def test_line_cut_by_a_closed_connection_is_truncated(thread_daemon, ws):
    thread_daemon(ws)
    (answer,) = lines_over(daemon_paths(ws), b'{"jdx":1,"command":"members","query":"a.', 1, shut=True)
    assert answer["error"]["code"] == "WIRE_TRUNCATED"
    # a whole request without its newline is still one request
    (answer,) = lines_over(daemon_paths(ws), encode_request("members", "a.B").rstrip("\n").encode(), 1, shut=True)
    assert answer["ok"] and answer["query"] == "a.B"


def test_too_long_line_is_refused_and_the_server_lives(thread_daemon, ws):
    thread_daemon(ws)
    paths = daemon_paths(ws)
    (answer,) = lines_over(paths, b"x" * (MAX_LINE_BYTES + 10) + b"\n", 1)
    assert answer["error"]["code"] == "WIRE_TOO_LONG"
    assert lines_over(paths, encode_request("members", "ok").encode(), 1)[0]["ok"]


def test_executor_failures_become_envelopes(thread_daemon, ws):
    thread_daemon(ws)
    boom, missing = lines_over(daemon_paths(ws), (encode_request("boom", "x") + encode_request("missing", "a.B"))
                               .encode(), 2)
    assert boom["error"]["code"] == "INTERNAL" and "RuntimeError" in boom["error"]["message"]
    assert missing["error"]["code"] == "NOT_FOUND" and missing["candidates"] == [{"ref": "java.util.HashMap"}]


def test_client_falls_back_when_the_daemon_cannot_read_its_line(thread_daemon, ws):
    thread_daemon(ws)
    assert client.query(ws, '{"jdx":2,"command":"members"}', spawn=False, timeout=10) is None


def test_twenty_concurrent_clients_all_answered_correctly(thread_daemon, ws):
    box = thread_daemon(ws)
    results: dict[int, str | None] = {}

    def ask(i: int) -> None:
        for j in range(5):
            line = encode_request("members", f"q{i}.{j}", {"n": i * 100 + j})
            results[i * 100 + j] = client.query(ws, line, spawn=False, timeout=20)

    threads = [threading.Thread(target=ask, args=(i,)) for i in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert len(results) == 100
    for key, line in results.items():
        env = json.loads(line)
        assert env["query"] == f"q{key // 100}.{key % 100}" and env["result"]["params"] == {"n": str(key)}
    assert box["server"].queries == 100


def test_status_fields(thread_daemon, ws):
    from jdx.daemon import control

    thread_daemon(ws, describe=lambda: {"artifacts": 3})
    client.query(ws, encode_request("members", "a.B"), spawn=False, timeout=10)
    status = control.status(ws)
    assert status["pid"] == os.getpid() and status["workspace"] == ws and status["artifacts"] == 3
    assert status["queries"] == 1 and status["memory"] > 10 * 2**20 and status["uptime"] >= 0
    assert status["version"] and status["socket"] == str(daemon_paths(ws).socket)


def test_idle_shutdown_removes_socket_and_pid(thread_daemon, ws):
    box = thread_daemon(ws, idle=0.3)
    paths = daemon_paths(ws)
    assert paths.socket.exists() and paths.read_pid() == os.getpid()
    box["thread"].join(10)
    assert box["reason"] == "idle"
    assert not paths.socket.exists() and not paths.pid.exists()
    assert client.query(ws, encode_request("members", "a.B"), spawn=False) is None

@pytest.mark.soak  # slow: the soak runs it (.ci/run)

def test_each_request_resets_the_idle_timer(thread_daemon, ws):
    box = thread_daemon(ws, idle=1.0)
    for _ in range(5):
        assert client.query(ws, encode_request("members", "a.B"), spawn=False, timeout=10) is not None
        time.sleep(0.25)
    assert box["thread"].is_alive()
    box["thread"].join(10)
    assert box["reason"] == "idle"


def test_idle_never_interrupts_a_running_request(thread_daemon, ws):
    box = thread_daemon(ws, idle=0.2)
    answer = client.query(ws, encode_request("slow", "x", {"seconds": "0.6"}), spawn=False, timeout=10)
    assert answer is not None and json.loads(answer)["ok"]
    box["thread"].join(10)
    assert box["reason"] == "idle"


def test_a_second_daemon_for_the_same_workspace_fails_fast_naming_the_holder(thread_daemon, ws):
    thread_daemon(ws)
    start = time.monotonic()
    with pytest.raises(DaemonRunning) as info:
        serve(daemon_paths(ws), execute, COMMANDS, idle=0)
    assert time.monotonic() - start < 2
    assert info.value.exit_code == EXIT_USAGE and f"pid {os.getpid()}" in info.value.message
    # the loser touched nothing: the first daemon still answers
    assert client.query(ws, encode_request("members", "a.B"), spawn=False, timeout=10) is not None


def test_other_workspaces_get_their_own_daemon(thread_daemon, ws):
    other = workspace_flags(jars=["/nonexistent/other.jar"], jdk=False)
    thread_daemon(ws)
    assert daemon_paths(other).socket != daemon_paths(ws).socket
    assert client.query(other, encode_request("members", "a.B"), spawn=False) is None
    thread_daemon(other)
    assert client.query(other, encode_request("members", "a.B"), spawn=False, timeout=10) is not None


def test_every_daemon_of_the_runtime_dir_is_listed_for_status_and_stop_all(thread_daemon, ws):
    """`daemon status --all` / `stop --all` reach the daemon of every workspace, not only the flags' one; one that is
    not a `jdx daemon run` process (here a thread of this test) is still never signalled."""
    from jdx.daemon import control

    other = workspace_flags(jars=["/nonexistent/other.jar"], jdk=False)
    assert control.every_daemon(ws) == []
    thread_daemon(ws)
    thread_daemon(other)
    sockets = sorted(str(daemon_paths(w).socket) for w in (ws, other))
    assert sorted(str(p.socket) for p in control.every_daemon(ws)) == sockets
    listed = control.status_all(other)["daemons"]
    assert sorted(d["socket"] for d in listed) == sockets and all(d["pid"] == os.getpid() for d in listed)
    stopped = control.stop_all(ws)["daemons"]
    assert len(stopped) == 2 and all("is not a `jdx daemon run`" in d["refused"] for d in stopped), stopped


def test_old_version_client_never_talks_to_a_new_daemon(thread_daemon, ws, monkeypatch):
    import functools

    thread_daemon(ws)
    old = daemon_paths(ws, version="0.0.1")
    assert old.socket != daemon_paths(ws).socket and old.socket.parent == daemon_paths(ws).socket.parent
    monkeypatch.setattr(client, "daemon_paths", functools.partial(daemon_paths, version="0.0.1"))
    assert client.query(ws, encode_request("members", "a.B"), spawn=False) is None


def test_status_answers_while_a_query_runs(thread_daemon, ws):
    from jdx.daemon import control

    thread_daemon(ws)
    slow = threading.Thread(target=client.query, args=(ws, encode_request("slow", "x", {"seconds": "1.5"})),
                            kwargs={"spawn": False, "timeout": 10})
    slow.start()
    try:
        assert wait_until(lambda: (control.status(ws) or {}).get("queries") == 1, 5)
        start = time.monotonic()
        assert control.status(ws)["queries"] == 1 and time.monotonic() - start < 1
    finally:
        slow.join(10)


class _Watched:
    """What `watch_code` needs of a server: the stop event and `stop`."""

    def __init__(self):
        self._stopped = threading.Event()
        self.reason = None

    def stop(self, reason: str) -> None:
        self.reason = reason
        self._stopped.set()


def test_a_daemon_stops_when_its_cache_directory_is_removed(tmp_path):
    from jdx.daemon.paths import code_fingerprint
    from jdx.daemon.server import watch_code

    cache = tmp_path / "cache"
    server = _Watched()
    watcher = threading.Thread(target=watch_code, args=(server, code_fingerprint()),
                               kwargs={"every": 0.02, "cache": cache}, daemon=True)
    watcher.start()
    time.sleep(0.1)
    assert server.reason is None  # no cache yet (the daemon's first answer makes it): nothing to miss
    cache.mkdir()
    time.sleep(0.1)
    assert server.reason is None
    cache.rmdir()
    watcher.join(5)
    assert server.reason == "cache directory removed"


def test_the_least_recently_used_of_too_many_daemons_leaves(tmp_path):
    """More live daemons than the limit: only the one whose pid file (stamped on each request) is oldest leaves;
    dead daemons' pid files do not count."""
    import subprocess
    import sys

    from jdx.daemon.server import crowd_leaver

    procs = [subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"]) for _ in range(3)]
    try:
        files = []
        for i, proc in enumerate(procs):
            path = tmp_path / f"ws{i}-v1.pid"
            path.write_text(f"{proc.pid}\n")
            os.utime(path, (1000 + i, 1000 + i))  # ws0 least recently used
            files.append(path)
        dead = tmp_path / "gone-v1.pid"
        dead.write_text("999999999\n")
        os.utime(dead, (1, 1))  # older than all, but no process
        assert crowd_leaver(files[0], 2) == 3
        assert crowd_leaver(files[1], 2) == 0 and crowd_leaver(files[2], 2) == 0
        assert crowd_leaver(files[0], 3) == 0  # not more than the limit
        assert crowd_leaver(files[0], 0) == 0  # 0: never
    finally:
        for proc in procs:
            proc.kill()
            proc.wait()


def _artifact_error(command, query, params):
    from jdx.errors import ArtifactReadError
    from jdx.render import envelope

    if query == "ok":
        return envelope.success(command, query, __import__("jdx.engine.answer", fromlist=["Answer"]).Answer({}))
    return envelope.failure(command, query, ArtifactReadError("--jars /nowhere/a.jar: no such file"))


@pytest.mark.parametrize("artifacts, first, stops", [(0, "bad", True), (3, "bad", False), (0, "ok", False)])
def test_a_daemon_whose_workspace_cannot_be_read_stops_after_answering(thread_daemon, ws, artifacts, first, stops):
    """A command whose workspace cannot be read (exit 5, nothing resolved) still started a daemon, which then held
    one of the JDX_MAX_DAEMONS slots until idle and evicted a working one (T32, T35). It answers, then stops; an
    exit-5 answer of a workspace that resolved (a `diff` side missing) or after a good answer keeps it serving."""
    box = thread_daemon(ws, execute=_artifact_error, describe=lambda: {"artifacts": artifacts})
    answers = lines_over(daemon_paths(ws), (encode_request("members", first) + encode_request("members", "bad"))
                         .encode(), 2 if not stops else 1)
    assert answers[-1]["error"]["code"] == "ARTIFACT_READ_ERROR"
    box["thread"].join(5 if stops else 0.5)
    assert box["thread"].is_alive() is not stops, box.get("reason")
    if stops:
        assert box["reason"] == "its workspace cannot be read"
        assert not daemon_paths(ws).socket.exists()
