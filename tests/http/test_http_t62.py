"""Trial T62 (`jdx serve` over jts-core and RoaringBitmap): which requests a loopback server answers, and what a
diff of a jar that is not there answers.

* A loopback server answered any Host (`curl -H 'Host: evil.example' …/v1/health` was 200): a web page whose name
  was rebound to 127.0.0.1 (DNS rebinding) could read what /v1/diff reads, any jar path. A Host other than
  127.0.0.1, localhost or [::1] (or the bound address), with the server's port, is refused: 421 WRONG_HOST, a
  one-line failure envelope, for every method and path; `--allow-remote` answers any Host.
* `GET /v1/diff?query=<jar>&new=/nonexistent.jar` was 502 with `…: no such file (ARTIFACT_READ_ERROR)`: a jar the
  request itself names is the client's error (404), and the message does not repeat the code that is its own field.

Oracles: the CLI's own `--json` failure for the same diff; the HTTP status table of docs/http.md.
"""

from __future__ import annotations

import http.client
import json
import re
import subprocess
import sys
import threading

import pytest

from tests.serve_support import cli, cli_env, not_found_server

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)


def ask(port: int, method: str, path: str, host: str | list[str] | None, body: bytes | None = None):
    """(status, body, headers) of one request whose Host header is exactly `host` (several: one header each)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        for value in [host] if isinstance(host, str) else host or []:
            conn.putheader("Host", value)
        if body is not None:
            conn.putheader("Content-Length", str(len(body)))
        conn.endheaders(body)
        resp = conn.getresponse()
        return resp.status, resp.read(), resp
    finally:
        conn.close()


@pytest.fixture
def serve(request):
    """A server over a fake Host on 127.0.0.1 (`allow_remote` the test's param, when it has one)."""
    with not_found_server(**({"allow_remote": request.param} if hasattr(request, "param") else {})) as port:
        yield port


@pytest.mark.parametrize("host", ["127.0.0.1:{port}", "localhost:{port}", "LOCALHOST:{port}", "[::1]:{port}",
                                  "localhost", "127.0.0.1", None])
def test_the_loopback_names_are_answered(serve, host):
    status, body, _ = ask(serve, "GET", "/v1/health", host.format(port=serve) if host else None)
    assert status == 200 and json.loads(body)["result"] == {"status": "ok"}


@pytest.mark.parametrize("host", ["evil.example", "evil.example:{port}", "127.0.0.1:1", "localhost.:{port}",
                                  "127.0.0.1.evil.example:{port}", ["127.0.0.1:{port}", "evil.example"]])
@pytest.mark.parametrize("method, path", [("GET", "/v1/health"), ("GET", "/v1/members?query=a.B"),
                                          ("POST", "/v1/batch"), ("OPTIONS", "/v1/members"), ("GET", "/elsewhere")])
def test_another_host_is_refused_421_whatever_it_asks(serve, host, method, path):
    hosts = [h.format(port=serve) for h in ([host] if isinstance(host, str) else host)]
    body = b'{"command":"members","query":"a.B"}\n' if method == "POST" else None
    status, raw, resp = ask(serve, method, path, hosts, body)
    assert status == 421, raw
    assert raw.endswith(b"\n") and raw.count(b"\n") == 1  # one line
    env = json.loads(raw)
    assert env["ok"] is False and env["error"]["code"] == "WRONG_HOST", env
    assert f"port {serve}" in env["error"]["message"] and "--allow-remote" in env["error"]["message"]
    assert resp.getheader("Content-Type").startswith("application/json")


@pytest.mark.parametrize("serve", [True], indirect=True)
def test_allow_remote_answers_any_host(serve):
    assert ask(serve, "GET", "/v1/health", "evil.example")[0] == 200


def test_a_real_jdx_serve_refuses_another_host(jdx_env, tmp_path):
    """The trial's request, to `jdx serve` itself: `Host: evil.example` is 421, `127.0.0.1:PORT` is 200."""
    import os

    env = {**os.environ, **{k: jdx_env[k] for k in ("JDX_CACHE_DIR", "JDX_CONFIG_DIR", "JDX_RUNTIME_DIR")}}
    proc = subprocess.Popen([sys.executable, "-m", "jdx", "serve", "--port", "0", "--no-jdk", "--jars",
                             str(tmp_path)], stderr=subprocess.PIPE, text=True, env=env)
    try:
        port = int(re.search(r"http://127\.0\.0\.1:(\d+)/", proc.stderr.readline()).group(1))
        assert ask(port, "GET", "/v1/health", "evil.example")[0] == 421
        assert ask(port, "GET", "/v1/health", f"127.0.0.1:{port}")[0] == 200
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        proc.stderr.close()


def test_a_diff_of_a_jar_that_is_not_there_is_404_naming_its_code_once(jdx_env, tmp_path):
    from jdx.commands.host import Host, answer_with_workspace
    from jdx.commands.session import Options, Session
    from jdx.http.server import make_server

    missing = str(tmp_path / "nonexistent.jar")
    with cli_env(jdx_env):
        want = json.loads(cli(["diff", missing, missing, "--json"]).out)
        host = Host({}, answer=answer_with_workspace,
                    session_factory=lambda: Session(Options(jars=[], cache_dir=str(tmp_path / "cache"))))
        server = make_server(host.execute, host.commands | {"workspace"}, "127.0.0.1", 0)
        threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
        try:
            port = server.server_address[1]
            status, raw, _ = ask(port, "GET", f"/v1/diff?query={missing}&new={missing}", f"127.0.0.1:{port}")
            line = json.dumps({"command": "diff", "query": missing, "params": {"new": missing}}).encode() + b"\n"
            _, batch, _ = ask(port, "POST", "/v1/batch", f"127.0.0.1:{port}", line)
        finally:
            server.shutdown()
            server.server_close()
            host.close()
    assert want["error"] == {"code": "ARTIFACT_READ_ERROR",
                             "message": f"{missing}: no such file (ARTIFACT_READ_ERROR)"}  # the CLI's, as it was
    got = json.loads(raw)
    assert status == 404, got
    assert got == {**want, "error": {**want["error"], "message": f"{missing}: no such file"}}
    assert json.loads(batch) == got


def test_a_workspace_jar_that_cannot_be_read_stays_502():
    from jdx.http.server import status_of

    def env(command):
        return {"ok": False, "command": command, "error": {"code": "ARTIFACT_READ_ERROR", "message": "x"}}

    assert status_of(env("members")) == 502 and status_of(env("diff")) == 404
