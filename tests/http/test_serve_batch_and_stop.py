"""`jdx serve` over a fake Host (no graph, no JVM): a batch answers each body line in place, a blank one with
WIRE_EMPTY (docs/warnings.md); a batch line with an argument its command lacks gets the GET's message; SIGTERM
stops accepting connections and lets the request under way be answered before the process exits."""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.serve_support import not_found_server

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def port():
    with not_found_server() as served:
        yield served


def post(port: int, body: bytes) -> list[dict]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("POST", "/v1/batch", body=body)
        resp = conn.getresponse()
        assert resp.status == 200
        return [json.loads(line) for line in resp.read().decode().splitlines()]
    finally:
        conn.close()


def test_a_blank_batch_line_answers_wire_empty_in_its_place(port):
    from jdx.commands import wire

    ask = wire.encode_request("members", "a.A")
    body = (ask + "\n" + ask + "   \n" + ask.rstrip("\n") + "\r\n" + "\n").encode()  # 7 lines, 3 of them blank
    got = post(port, body)
    assert [a.get("error", {}).get("code") for a in got] == ["NOT_FOUND", "WIRE_EMPTY", "NOT_FOUND", "WIRE_EMPTY",
                                                             "NOT_FOUND", "WIRE_EMPTY"], got
    assert [a["query"] for a in got if a["error"]["code"] == "NOT_FOUND"] == ["a.A"] * 3
    assert len(post(port, ask.rstrip("\n").encode())) == 1  # no newline at the end: still one line
    assert post(port, b"") == []


def test_a_batch_line_with_an_unknown_argument_gets_the_gets_message(port):
    from jdx.commands import wire

    got = post(port, wire.encode_request("members", "a.A", {"bogus": "1"}).encode())
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", "/v1/members?query=a.A&bogus=1")
    want = json.loads(conn.getresponse().read())
    conn.close()
    assert got[0]["error"] == want["error"] and want["error"]["message"].startswith("unknown argument bogus; "
                                                                                    "arguments: query, access, "), got


SERVER = """
import sys, time
from jdx.commands.execute import failure
from jdx.commands.host import Host
from jdx.errors import NotFoundError
from jdx.http.server import make_server
from tests.serve_support import FakeSession

def answer(session, command, query, params):
    if query == "slow":
        time.sleep(1.5)
    return failure(command, query, NotFoundError(f"not found: {query}")).envelope

host = Host({}, session_factory=FakeSession, answer=answer, commands=frozenset({"members"}))
server = make_server(host.execute, frozenset({"members"}), "127.0.0.1", 0)
print(server.server_address[1], flush=True)
try:  # as jdx.cli.commands_serve runs it
    server.serve_forever(poll_interval=0.2)
except KeyboardInterrupt:
    pass
finally:
    server.server_close()
    host.close()
print("stopped", flush=True)
"""


def test_sigterm_answers_the_request_under_way_then_exits():
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-c", SERVER], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
    try:
        port = int(proc.stdout.readline())
        answers: list = []

        def slow():
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            try:
                conn.request("GET", "/v1/members?query=slow")
                resp = conn.getresponse()
                answers.append((resp.status, json.loads(resp.read())))
            except OSError as exc:  # (an answer dropped: the assertion below says so)
                answers.append((None, repr(exc)))
            finally:
                conn.close()

        asking = threading.Thread(target=slow, daemon=True)
        asking.start()
        time.sleep(0.5)
        proc.send_signal(signal.SIGTERM)
        time.sleep(0.3)
        late = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        with pytest.raises(ConnectionRefusedError):  # no new connection once stopping
            late.connect()
        late.close()
        asking.join(30)
        assert answers and answers[0][0] == 404 and answers[0][1]["query"] == "slow", answers
        assert proc.wait(30) == 0 and proc.stdout.read().strip() == "stopped"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdout.close()
