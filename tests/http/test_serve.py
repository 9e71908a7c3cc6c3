"""`jdx serve` (spec §14.4): every wire command through /v1 answers the bytes of `jdx <command> … --json`;
bad requests get a failure envelope with a named code and a 4xx; 50 parallel clients get correct answers.

One server per module, on a free port, over the parity workspace (tests/cli/test_adapter_parity.py).
"""

from __future__ import annotations

import http.client
import json
import threading
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlencode

import pytest

from tests.cli.test_adapter_parity import CASES
from tests.serve_support import case_id, cli, cli_env, expand, halved, wire_form, workspace_args


@pytest.fixture(scope="module")
def served(jdx_env, jdx_home):
    from jdx.cli.main import split_globals
    from jdx.commands.host import Host, answer_with_workspace
    from jdx.commands.session import Options, Session
    from jdx.http.server import make_server

    ws = workspace_args(jdx_home)
    with cli_env(jdx_env):
        g, _ = split_globals(ws)
        host = Host(g.workspace_key(), answer=answer_with_workspace,
                    session_factory=lambda: Session(Options(jars=g.jars, jdk=g.jdk)))
        server = make_server(host.execute, host.commands | {"workspace"}, "127.0.0.1", 0)
        thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        thread.start()
        try:
            yield server.server_address[1], ws
        finally:
            server.shutdown()
            server.server_close()
            host.close()


def request(port: int, method: str, path: str, body: bytes | None = None, headers: dict | None = None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        resp = conn.getresponse()
        return resp.status, resp.read(), resp.getheader("Content-Type")
    finally:
        conn.close()


def as_served(cli_json: str) -> str:
    """The CLI's `--json` line as HTTP serves it: flags in messages and hints spelled as parameters."""
    from jdx.commands.host import spelled_as_arguments
    from jdx.render.envelope import dumps

    return dumps(spelled_as_arguments(json.loads(cli_json))) + "\n"


def url_of(command: str, query: str, params: dict) -> str:
    pairs = [("query", query)] if query else []
    for name, value in params.items():
        pairs.extend((name, v) for v in (value if isinstance(value, list) else [value]))
    return f"/v1/{command}" + (f"?{urlencode(pairs)}" if pairs else "")


@pytest.mark.parametrize("case", halved(CASES), ids=case_id)
def test_every_command_answers_the_cli_json_bytes(served, case, jdx_env, jdx_home):
    port, ws = served
    case = expand(case, jdx_home)
    form = wire_form(case)
    if form is None:
        pytest.skip("a command line refused before the wire (covered by the CLI's tests)")
    request(port, "GET", url_of(*form))  # first: a decompiler cache is then warm for both ("cached": true)
    with cli_env(jdx_env):  # a diff takes no workspace: the server's flags are not the request's
        here = cli([*([] if case[0] == "diff" else ws), *case, "--json"])
    status, body, ctype = request(port, "GET", url_of(*form))
    assert body.decode("utf-8") == as_served(here.out), case
    env = json.loads(body)
    assert ctype.startswith("application/json")
    assert (status == 200) == (env["ok"] or env["command"] == "doctor"), (status, env.get("error"))
    if not env["ok"]:
        assert status == {"NOT_FOUND": 404, "AMBIGUOUS": 409, "USAGE": 400}[env["error"]["code"]], env


def test_health_workspace_and_batch(served, jdx_env):
    port, ws = served
    status, body, _ = request(port, "GET", "/v1/health")
    assert status == 200 and json.loads(body)["result"] == {"status": "ok"}
    status, body, _ = request(port, "GET", "/v1/workspace")
    env = json.loads(body)
    assert status == 200 and env["result"]["count"] == 2, env
    assert env["result"]["rows"]["Type"] > 0
    from jdx.commands import wire

    lines = (wire.encode_request("show", "fx.Box") + "not json\n" + wire.encode_request("members", "fx.Nope")
             + '{"command":"frobnicate"}\n').encode()
    status, body, ctype = request(port, "POST", "/v1/batch", lines, {"Content-Type": "application/x-ndjson"})
    answers = [json.loads(x) for x in body.decode().splitlines()]
    assert status == 200 and ctype.startswith("application/x-ndjson")
    assert [a["ok"] for a in answers] == [True, False, False, False]
    assert [a.get("error", {}).get("code") for a in answers[1:]] == ["WIRE_JSON", "NOT_FOUND",
                                                                      "WIRE_UNKNOWN_COMMAND"]
    with cli_env(jdx_env):
        assert body.decode().splitlines()[0] + "\n" == cli([*ws, "show", "fx.Box", "--json"]).out


@pytest.mark.parametrize("method, path, status, code", [
    ("GET", "/v1/frobnicate", 404, "UNKNOWN_COMMAND"),
    ("GET", "/v1/membrs?query=fx.Box", 404, "UNKNOWN_COMMAND"),
    ("GET", "/", 404, "UNKNOWN_PATH"),
    ("GET", "/etc/passwd", 404, "UNKNOWN_PATH"),
    ("GET", "/v1/../etc/passwd", 404, "UNKNOWN_PATH"),
    ("GET", "/v2/show?query=fx.Box", 404, "UNKNOWN_PATH"),
    ("GET", "/v1/show/extra", 404, "UNKNOWN_PATH"),
    ("GET", "/v1/show?query=fx.Box&query=fx.Dog", 400, "USAGE"),
    ("GET", "/v1/show?query=%ff%fe", 400, "USAGE"),
    ("GET", "/v1/show?query=fx.Box&&&=", 400, "USAGE"),
    ("GET", "/v1/show?query", 400, "USAGE"),
    ("GET", "/v1/members?query=fx.Box&bogus=1", 400, "USAGE"),
    ("GET", "/v1/members?query=fx.Box&max_lines=many", 400, "USAGE"),
    ("GET", "/v1/members?query=fx.Box&inherited=maybe", 400, "USAGE"),
    ("GET", "/v1/members?query=fx.Box&kind=nonsense", 400, "USAGE"),
    ("GET", "/v1/members?query=fx.Box&sort=name&sort=kind", 400, "USAGE"),
    ("GET", "/v1/members", 400, "USAGE"),
    ("GET", "/v1/members?query=fx.Nope", 404, "NOT_FOUND"),
    ("GET", "/v1/show?query=Counter", 409, "AMBIGUOUS"),
    ("GET", "/v1/batch", 405, "METHOD_NOT_ALLOWED"),
    ("POST", "/v1/show", 405, "METHOD_NOT_ALLOWED"),
    ("POST", "/v1/members?query=fx.Box", 405, "METHOD_NOT_ALLOWED"),
    ("DELETE", "/v1/show", 405, "METHOD_NOT_ALLOWED"),
    ("GET", "/v1/workspace?x=1", 400, "USAGE"),
    ("GET", "/v1/cypher?query=LOAD%20FROM%20%27x.csv%27%20RETURN%20*", 400, "CYPHER_REFUSED"),
    ("GET", "/v1/show?query=" + "x" * 20000, 413, "TOO_LARGE"),
    ("GET", "/v1/show?query=" + "x" * 70000, 414, "TOO_LARGE"),  # past the standard library's own line limit
    ("BREW", "/v1/show", 501, "METHOD_NOT_ALLOWED"),  # a method no handler exists for
])
def test_bad_requests_get_named_errors(served, method, path, status, code):
    port, _ = served
    got, body, _ = request(port, method, path)
    env = json.loads(body)
    assert (got, env["ok"], env["error"]["code"]) == (status, False, code), env
    assert "Traceback" not in body.decode()
    if "?query=fx.Box" in path and len(path) < 100:  # the refusal's envelope keeps what the client asked (was "")
        assert env["query"].startswith("fx.Box"), env


def test_a_field_that_writes_files_is_refused(served, jdx_home, tmp_path):
    """`diff --out DIR` over HTTP would let any page that reaches the port write files (spec §17): refused, nothing
    written; an unknown option's failure keeps the query, as the CLI's envelope does."""
    port, _ = served
    target = tmp_path / "victim"
    got, body, _ = request(port, "GET", "/v1/diff?" + urlencode({"query": "a.jar", "new": "b.jar", "out": str(target)}))
    env = json.loads(body)
    assert (got, env["error"]["code"]) == (400, "USAGE") and "--out: writes files" in env["error"]["message"], env
    assert env["query"] == "a.jar" and not target.exists()
    got, body, _ = request(port, "GET", "/v1/callers?query=fx.Box%23size&bogus=1")
    env = json.loads(body)
    assert (got, env["query"], env["error"]["code"]) == (400, "fx.Box#size", "USAGE"), env


def test_bools_as_bare_keys_and_dashed_names(served, jdx_env):
    port, ws = served
    with cli_env(jdx_env):
        want = as_served(cli([*ws, "members", "fx.Box", "--declared", "--include-synthetic", "--max-lines", "3",
                              "--json"]).out)
    for path in ("/v1/members?query=fx.Box&include_synthetic&max_lines=3&inherited=false",
                 "/v1/members?query=fx.Box&include-synthetic=true&max-lines=3&inherited=false"):
        assert request(port, "GET", path)[1].decode() == want, path


def test_oversized_and_malformed_bodies(served):
    from jdx.http.server import MAX_BODY_BYTES

    port, _ = served
    status, body, _ = request(port, "POST", "/v1/batch", b"", {"Content-Length": str(MAX_BODY_BYTES + 1)})
    assert (status, json.loads(body)["error"]["code"]) == (413, "TOO_LARGE")
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
    conn.putrequest("POST", "/v1/batch")
    conn.endheaders()  # no Content-Length
    resp = conn.getresponse()
    assert (resp.status, json.loads(resp.read())["error"]["code"]) == (400, "USAGE")
    conn.close()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
    conn.putrequest("POST", "/v1/batch")
    conn.putheader("Content-Length", "-5")
    conn.endheaders()
    resp = conn.getresponse()  # a header that is there but no byte count is named as sent, not as missing
    assert (resp.status, json.loads(resp.read())["error"]["message"]) == (
        400, "POST /v1/batch: invalid Content-Length '-5' (a byte count)")
    conn.close()
    status, body, _ = request(port, "POST", "/v1/batch", b"\xff\xfe{}\n")
    assert status == 200 and json.loads(body)["error"]["code"] == "WIRE_ENCODING"
    status, body, _ = request(port, "POST", "/v1/batch", b"")
    assert status == 200 and body == b""


def test_fifty_parallel_clients(served, jdx_env):
    port, ws = served
    questions = [("/v1/show?query=fx.Box", ["show", "fx.Box"]),
                 ("/v1/members?query=fx.Dog&max_lines=5", ["members", "fx.Dog", "--max-lines", "5"]),
                 ("/v1/hierarchy?query=gx.Shape&down=true", ["hierarchy", "gx.Shape", "--down"]),
                 ("/v1/members?query=fx.Nope", ["members", "fx.Nope"]),
                 ("/v1/nope", None)]
    with cli_env(jdx_env):
        want = {path: as_served(cli([*ws, *argv, "--json"]).out) if argv else None for path, argv in questions}
    paths = [questions[i % len(questions)][0] for i in range(50)]
    with ThreadPoolExecutor(max_workers=50) as pool:
        got = list(pool.map(lambda p: request(port, "GET", p), paths))
    for path, (status, body, _) in zip(paths, got):
        if want[path] is None:
            assert (status, json.loads(body)["error"]["code"]) == (404, "UNKNOWN_COMMAND")
        else:
            assert body.decode() == want[path], path


def test_non_loopback_bind_needs_allow_remote(jdx_env, jdx_home):
    from jdx.http.server import is_loopback

    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.2")
    with cli_env(jdx_env):
        run = cli(["serve", "--bind", "0.0.0.0", "--port", "0", *workspace_args(jdx_home)])
    assert run.code == 3 and "--allow-remote" in run.err, run


def test_verbose_logs_each_request(jdx_env, jdx_home):
    """`jdx serve --verbose` logs every request to stderr: the flag shares its spelling with the global `--verbose`,
    which the command line reads first, and either means it."""
    import os
    import re
    import subprocess
    import sys
    import time

    env = {**os.environ, **{k: jdx_env[k] for k in ("JDX_CACHE_DIR", "JDX_CONFIG_DIR", "JDX_RUNTIME_DIR")}}
    proc = subprocess.Popen([sys.executable, "-m", "jdx", "serve", "--port", "0", "--verbose",
                             *workspace_args(jdx_home)], stderr=subprocess.PIPE, text=True, env=env)
    try:
        first = proc.stderr.readline()
        port = int(re.search(r"http://127\.0\.0\.1:(\d+)/", first).group(1))
        assert request(port, "GET", "/v1/health")[0] == 200
        deadline = time.monotonic() + 30
        logged = ""
        while "GET /v1/health" not in logged and time.monotonic() < deadline:
            logged += proc.stderr.readline()
        assert '"GET /v1/health HTTP/1.1" 200' in logged, logged
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        proc.stderr.close()


def test_the_served_url_brackets_an_ipv6_host():
    from urllib.parse import urlsplit

    from jdx.cli.commands_serve import base_url

    for host, port in (("::1", 7070), ("127.0.0.1", 7070), ("fe80::1", 80)):
        parts = urlsplit(base_url(host, port))  # parses back to the host and port it was made of
        assert (parts.hostname, parts.port, parts.path) == (host, port, "/v1/"), base_url(host, port)
