"""`jdx serve` under load and at its edges, over a fake Host (no graph, no JVM): health answers while a query runs,
the server's `--timeout` answers 504 TIMEOUT and stops the query, a burst of clients is not held by the listen
backlog, OPTIONS and every 405 name the allowed methods, errors name parameters, and a failed bind warns of nothing."""

from __future__ import annotations

import http.client
import json
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.serve_support import FakeSession, cli, cli_env, workspace_args


@pytest.fixture
def serve():
    """`serve(timeout=None)`: a server over a Host whose query `slow` takes 2 s of Python work; (port, finished)."""
    from jdx.commands.execute import failure
    from jdx.commands.host import Host
    from jdx.errors import NotFoundError
    from jdx.http.server import make_server

    started = []

    def start(timeout: float | None = None, text: str = ""):
        finished: list = []

        def answer(session, command, query, params):
            from jdx.commands import registry
            from jdx.errors import JdxError

            try:
                registry.build_request(registry.command(command), query, params)  # the request's own checks
            except JdxError as exc:
                return failure(command, query, exc).envelope
            if query == "slow":
                end = time.monotonic() + 2.0
                while time.monotonic() < end:
                    time.sleep(0.005)
                finished.append(query)
            return failure(command, query, NotFoundError(f"not found: {query}")).envelope

        host = Host({}, session_factory=FakeSession, answer=answer, commands=frozenset({"members", "search"}))
        server = make_server(host.execute, frozenset({"members", "search", "workspace"}), "127.0.0.1", 0,
                             timeout=timeout, timeout_text=text)
        thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        thread.start()
        started.append((server, host))
        return server.server_address[1], finished

    yield start
    for server, host in started:
        server.shutdown()
        server.server_close()
        host.close(wait=5)


def request(port: int, method: str, path: str, timeout: float = 30):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request(method, path)
        resp = conn.getresponse()
        return resp.status, resp.read(), dict(resp.getheaders())
    finally:
        conn.close()


@pytest.mark.soak
def test_health_does_not_wait_for_a_running_query(serve):
    port, _ = serve()
    slow = threading.Thread(target=request, args=(port, "GET", "/v1/members?query=slow"), daemon=True)
    slow.start()
    time.sleep(0.2)
    began = time.monotonic()
    status, body, _ = request(port, "GET", "/v1/health")
    assert status == 200 and json.loads(body)["result"] == {"status": "ok"}
    assert time.monotonic() - began < 1.0
    slow.join(10)


def test_timeout_is_504_timeout_and_stops_the_query(serve):
    port, finished = serve(0.8, "800ms")
    began = time.monotonic()
    status, body, _ = request(port, "GET", "/v1/members?query=slow")
    env = json.loads(body)
    assert (status, env["error"]["code"]) == (504, "TIMEOUT"), env
    assert env["error"]["message"] == "timed out after --timeout 800ms while answering the query"
    assert time.monotonic() - began < 1.8
    time.sleep(0.3)
    status, body, _ = request(port, "GET", "/v1/members?query=fast")  # the host is free again
    assert (status, json.loads(body)["error"]["code"]) == (404, "NOT_FOUND")
    assert not finished


def test_a_burst_of_clients_is_not_held_by_the_listen_backlog(serve):
    from jdx.http.server import Server

    assert Server.request_queue_size >= 64
    port, _ = serve()
    began = time.monotonic()
    with ThreadPoolExecutor(max_workers=40) as pool:
        got = list(pool.map(lambda _: request(port, "GET", "/v1/health")[0], range(40)))
    assert got == [200] * 40 and time.monotonic() - began < 0.9


@pytest.mark.parametrize("method, path, status, allow", [
    ("OPTIONS", "/v1/members", 204, "GET, HEAD, OPTIONS"),
    ("OPTIONS", "/v1/batch", 204, "POST, OPTIONS"),
    ("POST", "/v1/members", 405, "GET, HEAD, OPTIONS"),
    ("GET", "/v1/batch", 405, "POST, OPTIONS"),
    ("DELETE", "/v1/members", 405, "GET, HEAD, OPTIONS"),
    ("PUT", "/v1/batch", 405, "POST, OPTIONS"),
])
def test_options_and_405_name_the_allowed_methods(serve, method, path, status, allow):
    port, _ = serve()
    got, body, headers = request(port, method, path)
    assert (got, headers.get("Allow")) == (status, allow), (got, headers, body)
    if status == 405:
        assert headers["Content-Type"].startswith("application/json") and \
            json.loads(body)["error"]["code"] == "METHOD_NOT_ALLOWED"
    else:
        assert body == b""


def test_errors_name_parameters_not_flags(serve):
    port, _ = serve()
    status, body, _ = request(port, "GET", "/v1/members?query=x&max_lines=0")
    assert (status, json.loads(body)["error"]["message"]) == (400, "max_lines must be at least 1"), body
    status, body, _ = request(port, "GET", "/v1/members?query=x&workspace=other")
    message = json.loads(body)["error"]["message"]
    assert status == 400 and message.startswith("unknown argument workspace: ") and "one workspace" in message
    status, body, _ = request(port, "GET", "/v1/members?query=x&bogus_flag=1")
    assert json.loads(body)["error"]["message"].startswith("unknown argument bogus_flag; arguments: "), body
    status, body, _ = request(port, "GET", "/v1/members?query=x&query=y")
    assert (status, json.loads(body)["error"]["message"]) == (400, "query is given twice"), body


def test_a_second_query_names_the_parameter_that_takes_more():
    """T93: `imports?query=A&query=B` said only "query is given twice"; `names` takes the others."""
    from jdx.commands.registry import command, params_of
    from jdx.http.server import HttpError, query_params

    cmd = command("imports")
    fields = {p.name: p.kind for p in params_of(cmd.request) if p.flag or p.name != "query"}
    assert query_params("query=PGConnection&names=LargeObject", fields, "imports") == (
        "PGConnection", {"names": ["LargeObject"]})
    with pytest.raises(HttpError) as raised:
        query_params("query=PGConnection&query=LargeObject", fields, "imports")
    assert raised.value.message == ("query is given twice: `imports` takes one query; give the others as repeated "
                                    "names=")


@pytest.mark.soak
def test_a_bind_that_fails_warns_of_nothing(jdx_env, jdx_home):
    with cli_env(jdx_env):
        run = cli(["serve", "--bind", "10.1.2.3", "--allow-remote", "--port", "0", *workspace_args(jdx_home)])
    assert run.code == 3 and "cannot listen on 10.1.2.3" in run.err, run
    assert "warning" not in run.err and "listening on" not in run.err, run.err
