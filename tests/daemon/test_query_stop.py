"""A query running inside Kùzu takes no Python exception or signal until it returns, so `--timeout`, a server's
per-call deadline and a client that hangs up stop it through Kùzu itself (its query timeout, `interrupt()`): the
process answers TIMEOUT at the deadline, and the workspace is free for the next question at once, not minutes later
(a query over every two-hop path of the JDK graph runs for minutes)."""

from __future__ import annotations

import json
import socket
import tempfile
import threading
import time
from pathlib import Path


from jdx.commands.host import Call, Host
from tests.service import JdxService, Options

HEAVY = "MATCH (a)-[r]->(b)-[s]->(c) RETURN count(*)"
PROMPT = 30.0  # seconds: far less than the heavy query alone takes; a stopped query ends within a second or two


def test_the_cli_timeout_stops_a_graph_query(run_jdx):
    r = run_jdx("--json", "members", "java.util.HashMap")  # the graph is built and cached: the cut lands in the query
    assert r.code == 0, r.err
    began = time.monotonic()
    r = run_jdx("--json", "cypher", HEAVY, "--timeout", "1s")
    elapsed = time.monotonic() - began
    env = json.loads(r.out)
    assert (r.code, env["error"]["code"]) == (6, "TIMEOUT"), r.out
    assert env["error"]["message"] == "timed out after --timeout 1s while answering the query"
    assert elapsed < PROMPT, elapsed


def test_a_stopped_call_interrupts_the_graph_query(jdx_home):
    """A server's deadline (jdx serve --timeout, MCP): Call.stop interrupts the query of the Host's session, and
    the Host answers the next request at once."""
    host = Host({}, session_factory=lambda: JdxService(Options(cache_dir=str(jdx_home / "cache"))))
    try:
        assert host.execute("members", "java.util.HashMap", {})["ok"]  # the session's graph is open
        call = Call(1.0, "1s")
        answers = []
        worker = threading.Thread(target=lambda: answers.append(host.execute("cypher", HEAVY, {}, call=call)))
        began = time.monotonic()
        worker.start()
        time.sleep(1.0)
        call.stop("timeout")
        worker.join(PROMPT)
        assert not worker.is_alive() and time.monotonic() - began < PROMPT
        assert answers[0]["error"]["code"] == "TIMEOUT", answers
        began = time.monotonic()
        assert host.execute("members", "java.util.HashMap", {})["ok"]
        assert time.monotonic() - began < PROMPT
    finally:
        host.close(wait=PROMPT)


def test_a_client_that_hangs_up_stops_its_query():
    """The daemon watches the connection of a query under way: the client's own --timeout ran out (or it was
    killed) and it hung up, so the call is stopped rather than holding the workspace for later requests."""
    from jdx.daemon.server import DaemonServer

    seen = threading.Event()

    def execute(command, query, params, call=None):
        end = time.monotonic() + PROMPT
        while time.monotonic() < end:
            if call is not None and call.stopped:
                seen.set()
                break
            time.sleep(0.01)
        return {"jdx": 1, "ok": True, "command": command, "query": query, "result": {}}

    path = Path(tempfile.mkdtemp(prefix="jdx-hangup-", dir="/tmp")) / "d.sock"
    server = DaemonServer(path, execute, frozenset({"members"}))
    serving = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    serving.start()
    try:
        client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        client.connect(str(path))
        client.sendall(b'{"jdx":1,"command":"members","query":"a.B","params":{}}\n')
        time.sleep(0.3)
        client.close()
        assert seen.wait(5.0), "the query went on after its client hung up"
    finally:
        server.shutdown()
        server.server_close()


def test_time_the_daemon_took_before_failing_counts_against_the_timeout(monkeypatch, jdx_env, capsys):
    """A daemon that fails to answer (killed mid-query) after most of --timeout leaves the in-process answer only
    the rest of it, not a fresh --timeout: the command's cap is wall-clock."""
    from jdx.cli import main as cli

    def slow_failure(*_args, **_kwargs):
        time.sleep(1.2)
        return None, None

    for key, value in jdx_env.items():
        monkeypatch.setenv(key, value)
    monkeypatch.delenv("JDX_NO_DAEMON", raising=False)
    monkeypatch.setattr(cli, "_ask_daemon", slow_failure)
    code = cli.main(["--json", "members", "java.util.HashMap", "--timeout", "1s"])  # alone, well within 1 s
    env = json.loads(capsys.readouterr().out)
    assert (code, env["error"]["code"]) == (6, "TIMEOUT"), env
