"""`jdx serve` (spec §14.4): HTTP/JSON over the command registry, standard library only.

    GET  /v1/<command>?query=…&<flag>=…   one answer: the body is `jdx <command> … --json` (flags spelled below)
    GET  /v1/workspace                     what the workspace holds (artifacts, graph row counts)
    GET  /v1/health                        result {"status":"ok"} without touching the graph, even while a query runs
    POST /v1/batch                         wire-contract lines in (spec §14.5), one envelope line out per line
    OPTIONS /v1/…                          204 with `Allow` (every 405 carries one too)

Flags are named by their request field (`max_lines`, `include_synthetic`, `from_type`); dashes are
accepted for underscores (`max-lines`). A repeatable flag is a repeated key (`kind=call&kind=read`). A
boolean flag is `true` or `false`; a bare key (`?inherited`) means true.

Status codes follow the envelope's error code: 200 answers (ok, and also a `doctor` that reports problems),
400 USAGE / BAD_REFERENCE / wire refusals, 404 NOT_FOUND and unknown commands or paths, 405 a wrong method,
409 AMBIGUOUS (the candidates are in the body), 413 a body over the limit, 421 WRONG_HOST, 422 NO_INDEX /
ENVIRONMENT, 502 ARTIFACT_READ_ERROR (404 for a jar the request itself names: diff's) and TOOL_FAILED, 504 TIMEOUT
(the server's `--timeout`, per request), 500 INTERNAL. A loopback server answers only a Host header naming it
(`host_refusal`: DNS rebinding), unless made with `allow_remote`.
Every error body is a failure envelope with a named code; nothing is served outside `/v1`. A body is the
CLI's `--json` bytes, except that jdx's own words name flags as the parameters above (`limit 80`, not
`--limit 80`: jdx.commands.host.spelled_as_arguments) and an error's message does not repeat its code. A blank
batch line answers WIRE_EMPTY in its place.
SIGTERM, like Ctrl-C, stops accepting connections and lets the requests under way be answered (`Server`). One
Host answers, one query at a time (the session is not thread-safe); the threads only parse and write.
"""

from __future__ import annotations

import ipaddress
import sys
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, unquote, urlsplit

from jdx.errors import JdxError, UsageError, exit_code_of

DEFAULT_PORT = 7070
MAX_BODY_BYTES = 4 << 20  # a POST /v1/batch body
MAX_LINES = 10_000  # requests in one batch
MAX_URL_BYTES = 16 << 10
DRAIN_SECONDS = 5.0  # how long a stopping server waits for the requests it is answering

STATUS = {"NOT_FOUND": 404, "AMBIGUOUS": 409, "USAGE": 400, "BAD_REFERENCE": 400, "NO_INDEX": 422,
          "ENVIRONMENT": 422, "ARTIFACT_READ_ERROR": 502, "TOOL_FAILED": 502, "INTERNAL": 500,
          "UNKNOWN_COMMAND": 404, "UNKNOWN_PATH": 404, "METHOD_NOT_ALLOWED": 405, "TOO_LARGE": 413,
          "TIMEOUT": 504, "WRONG_HOST": 421}
QUERY_METHODS = "GET, HEAD, OPTIONS"  # the Allow header of /v1/<command>
BATCH_METHODS = "POST, OPTIONS"  # of /v1/batch


class HttpError(UsageError):
    """A request refused before it reaches a command; `code` names why and picks the status."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


def status_of(env: dict) -> int:
    if env.get("ok"):
        return 200
    code = (env.get("error") or {}).get("code", "INTERNAL")
    if code.startswith("WIRE_"):
        return 413 if code == "WIRE_TOO_LONG" else 404 if code == "WIRE_UNKNOWN_COMMAND" else 400
    if code == "ARTIFACT_READ_ERROR" and _names_its_artifacts(env.get("command")):
        return 404  # a jar the request itself names (diff's OLD and NEW) that is not there: the client's error
    if code in STATUS:
        return STATUS[code]
    # a code of its own (CYPHER_REFUSED): the status of its exit code's class
    return {1: 404, 2: 409, 3: 400, 4: 422, 5: 502}.get(exit_code_of(env), 500)


def _names_its_artifacts(name) -> bool:
    """A command that reads no workspace but the artifacts its request names (diff): the server's own jars are not
    what it fails to read."""
    from jdx.commands.registry import command

    cmd = command(name) if isinstance(name, str) and name else None
    return cmd is not None and not cmd.needs_workspace


LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "[::1]"})


def host_refusal(given: list[str], hosts: frozenset[str] | None, port: int) -> HttpError | None:
    """The refusal (421) of a request whose Host header names another server than this loopback one: a web page whose
    name was rebound to 127.0.0.1 (DNS rebinding) sends its own name, and would read what /v1/diff reads. `hosts`:
    the names this server answers to (None: any, `--allow-remote`); each may carry the server's port. A request
    without Host (HTTP/1.0) names nothing to refuse."""
    if hosts is None or not given:
        return None
    name = given[0].strip().lower()
    bare, _colon, at = name.rpartition(":") if not name.endswith("]") else (name, "", "")
    if len(given) == 1 and (name in hosts or (bare in hosts and at == str(port))):
        return None
    shown = ", ".join(repr(g[:80]) for g in given[:2])
    return HttpError("WRONG_HOST", f"Host {shown} is not this server: it answers Host "
                     f"{' or '.join(sorted(hosts))} (with its port {port}); jdx serve --bind ADDRESS "
                     f"--allow-remote serves other names")


def is_loopback(bind: str) -> bool:
    if bind == "localhost":
        return True
    try:
        return ipaddress.ip_address(bind).is_loopback
    except ValueError:
        return False


def query_params(raw: str, fields: dict[str, str], command: str = "") -> tuple[str, dict]:
    """(query, wire params) of a URL query string; `fields` maps each field name of `command` to its kind."""
    try:
        pairs = parse_qsl(raw, keep_blank_values=True, errors="strict",
                          max_num_fields=256)
    except (ValueError, UnicodeDecodeError) as exc:
        raise HttpError("USAGE", f"malformed query string: {str(exc).splitlines()[0][:120]}") from None
    query: str | None = next((v for k, v in pairs if k == "query"), None)
    try:
        return _params(pairs, fields, command)
    except JdxError as exc:
        exc.query = query or ""  # the failure envelope names the question, as the CLI's does
        raise


def _params(pairs: list[tuple[str, str]], fields: dict[str, str], command: str) -> tuple[str, dict]:
    from jdx.commands.host import check_arguments

    query: str | None = None
    params: dict[str, list[str]] = {}
    for key, value in pairs:
        name = key.replace("-", "_")
        if not name:
            raise HttpError("USAGE", "malformed query string: a parameter without a name")
        if name == "query":
            if query is not None:
                raise HttpError("USAGE", "query is given twice" + _more_queries(command))
            query = value
            continue
        check_arguments(command, (name,))  # MCP's refusal: the arguments the command takes
        kind = fields[name]
        if kind == "bool" and value == "":
            value = "true"
        params.setdefault(name, []).append(value)
    wire = {k: (v if fields[k] == "list" else v[0] if len(v) == 1 else v) for k, v in params.items()}
    return query or "", wire


def _more_queries(command: str) -> str:
    """Where a command takes more than its one query (`imports`' positional `names`): said by a second `query`."""
    from jdx.commands.registry import command as command_named, params_of

    cmd = command_named(command) if command else None
    rest = [p.name for p in params_of(cmd.request) if p.kind == "list" and not p.flag] if cmd is not None else []
    return f": `{command}` takes one query; give the others as repeated {rest[0]}=" if rest else ""


class Handler(BaseHTTPRequestHandler):
    def version_string(self) -> str:
        from jdx import __version__

        return f"jdx/{__version__}"

    protocol_version = "HTTP/1.1"
    timeout = 30  # an idle or stalled connection is dropped, never a hung thread

    # set by make_server
    execute: Callable[..., dict]
    commands: frozenset[str] = frozenset()
    timeout_seconds: float | None = None  # the server's --timeout, per request (not `timeout`: the socket's)
    timeout_text: str = ""

    def parse_request(self) -> bool:
        """A request line was read: the request is under way until `handle_one_request` has answered it. One whose
        Host names another server is refused here, whatever its method and path (`host_refusal`)."""
        if not self._counted:
            self._counted = True
            self.server.request_began()
        if not super().parse_request():
            return False
        refusal = host_refusal(self.headers.get_all("Host") or [], self.server.hosts, self.server.server_address[1])
        if refusal is None:
            return True
        self.close_connection = True
        self._refuse("", refusal)
        return False

    def handle_one_request(self) -> None:
        self._counted = False
        try:
            super().handle_one_request()
        finally:
            if self._counted:
                self.server.request_ended()

    def log_message(self, format, *args):
        if getattr(self.server, "verbose", False):
            super().log_message(format, *args)

    def _send(self, status: int, body: bytes, content_type: str = "application/json", allow: str = "") -> None:
        self.send_response(status)
        if allow:
            self.send_header("Allow", allow)
        if status != 204:
            self.send_header("Content-Type", f"{content_type}; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """The standard library's own refusals (a request line over 64 KiB, a malformed one, headers too large, a
        method it has no handler for) as failure envelopes like every other error, never its HTML page."""
        from http import HTTPStatus

        from jdx.commands.execute import failure
        from jdx.render.envelope import dumps

        try:
            phrase = HTTPStatus(code).phrase
        except ValueError:
            phrase = "error"
        codes = {414: "TOO_LARGE", 431: "TOO_LARGE", 501: "METHOD_NOT_ALLOWED"}
        error = HttpError(codes.get(code, "USAGE" if 400 <= code < 500 else "INTERNAL"),
                          f"{message or phrase} (HTTP {code})")
        body = (dumps(failure("", "", error).envelope) + "\n").encode("utf-8")
        self.close_connection = True
        self.send_response(code, message)
        self.send_header("Connection", "close")
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD" and code >= 200 and code not in (204, 304):
            self.wfile.write(body)

    def _envelope(self, env: dict, allow: str = "") -> None:
        from jdx.commands.host import spelled_as_arguments
        from jdx.render.envelope import dumps

        self._send(status_of(env), (dumps(spelled_as_arguments(env)) + "\n").encode("utf-8"), allow=allow)

    def _refuse(self, name: str, exc: JdxError) -> None:
        from jdx.commands.execute import failure

        allow = getattr(exc, "allow", "")
        self._envelope(failure(name, getattr(exc, "query", "") or self._asked_query(), exc).envelope, allow)

    def _asked_query(self) -> str:
        """The `query` parameter of the request's URL, for a refusal's envelope (an unknown command, a wrong
        method): the client sees what it sent, as an answer's envelope says it; "" when there is none."""
        from urllib.parse import parse_qs

        if len(self.path) > MAX_URL_BYTES:
            return ""
        try:
            return parse_qs(urlsplit(self.path).query).get("query", [""])[0]
        except ValueError:
            return ""

    def _run(self, name: str, query: str, params: dict) -> dict:
        """One request's envelope from the Host, within the server's `--timeout`."""
        from jdx.commands.host import Call, answer_within

        return answer_within(self.execute, Call(self.timeout_seconds, self.timeout_text), name, query, params)

    def _route(self) -> tuple[str, str]:
        if len(self.path) > MAX_URL_BYTES:
            raise HttpError("TOO_LARGE", f"URL over {MAX_URL_BYTES} bytes")
        url = urlsplit(self.path)
        path = unquote(url.path)
        if not path.startswith("/v1/") or path.count("/") != 2 or path == "/v1/":
            raise HttpError("UNKNOWN_PATH", f"nothing is served at {path[:80]!r}: use /v1/<command>, "
                                            f"/v1/batch or /v1/health")
        return path[len("/v1/"):], url.query

    def do_GET(self) -> None:
        name = ""
        try:
            name, raw = self._route()
            if name == "batch":
                raise _not_allowed("batch takes POST: wire-contract lines in the body", BATCH_METHODS)
            self._answer(name, raw)
        except JdxError as exc:
            self._refuse(name, exc)
        except Exception as exc:  # noqa: BLE001 - never a traceback on the wire
            from jdx.commands.execute import internal_error

            self._refuse(name, internal_error(exc))

    do_HEAD = do_GET

    def _answer(self, name: str, raw: str) -> None:
        from jdx.commands import workspace_info
        from jdx.commands.registry import command, params_of

        if name == "health":  # never behind the Host's lock: a running query does not make the server look down
            from jdx.commands.execute import answer_request

            return self._envelope(answer_request(None, "health", "", {}).envelope)
        if name == workspace_info.NAME:
            if raw:
                raise UsageError("/v1/workspace takes no parameters")
            return self._envelope(self._run(name, "", {}))
        cmd = command(name) if name in self.commands else None
        if cmd is None:
            import difflib

            close = difflib.get_close_matches(name[:40], sorted(self.commands), n=3)
            raise HttpError("UNKNOWN_COMMAND", f"unknown command {name[:40]!r}"
                            + (f"; did you mean {', '.join(close)}?" if close else ""))
        fields = {p.name: p.kind for p in params_of(cmd.request) if p.flag or p.name != "query"}
        query, params = query_params(raw, fields, name)
        self._envelope(self._run(name, query, params))

    def do_POST(self) -> None:
        name = ""
        try:
            name, _raw = self._route()
            if name != "batch":
                raise _not_allowed(f"POST is for /v1/batch; ask /v1/{name[:40]} with GET", QUERY_METHODS)
            self._batch()
        except JdxError as exc:
            self.close_connection = True
            self._refuse(name, exc)
        except Exception as exc:  # noqa: BLE001
            from jdx.commands.execute import internal_error

            self.close_connection = True
            self._refuse(name, internal_error(exc))

    def _batch(self) -> None:
        from jdx.commands import wire
        from jdx.commands.execute import failure
        from jdx.commands.host import check_arguments, spelled_as_arguments
        from jdx.render.envelope import dumps

        length = self.headers.get("Content-Length")
        if self.headers.get("Transfer-Encoding"):
            raise HttpError("USAGE", "send the batch with a Content-Length, not chunked")
        if length is None:
            raise HttpError("USAGE", "POST /v1/batch needs a Content-Length")
        size = int(length) if length.strip().isdigit() else -1
        if size < 0:
            raise HttpError("USAGE", f"POST /v1/batch: invalid Content-Length {length[:40]!r} (a byte count)")
        if size > MAX_BODY_BYTES:
            raise HttpError("TOO_LARGE", f"batch body of {size} bytes is over the {MAX_BODY_BYTES}-byte limit")
        body = self.rfile.read(size)
        lines = body.removesuffix(b"\n").split(b"\n") if body else []  # a blank line answers WIRE_EMPTY in its place
        if len(lines) > MAX_LINES:
            raise HttpError("TOO_LARGE", f"{len(lines)} requests in one batch; at most {MAX_LINES}")
        out = []
        for line in lines:
            if len(line) > wire.MAX_LINE_BYTES:
                env = failure("", "", wire.WireError("WIRE_TOO_LONG", "request line over "
                                                     f"{wire.MAX_LINE_BYTES} bytes")).envelope
            else:
                try:
                    req = wire.decode_request(line, self.commands)
                    check_arguments(req.command, req.sent)  # names and JSON types, as MCP's
                    env = self._run(req.command, req.query, dict(req.params))
                except UsageError as exc:  # a line refused by the wire contract, or an argument its command lacks
                    cmd, query = wire.request_names(line)
                    env = failure(cmd, query, exc).envelope
            out.append(dumps(spelled_as_arguments(env)) + "\n")
        self._send(200, "".join(out).encode("utf-8"), "application/x-ndjson")

    def do_PUT(self) -> None:
        self._wrong_method()

    do_DELETE = do_PATCH = do_PUT

    def do_OPTIONS(self) -> None:
        """What a path answers to: 204 with `Allow` (no body), or the path's failure envelope."""
        try:
            name, _raw = self._route()
            self._send(204, b"", allow=BATCH_METHODS if name == "batch" else QUERY_METHODS)
        except JdxError as exc:
            self._refuse("", exc)

    def _wrong_method(self) -> None:
        self.close_connection = True
        name = ""
        try:
            name = self._route()[0]
        except JdxError:
            pass
        self._refuse("", _not_allowed(f"{self.command} is not served: GET /v1/<command>, POST /v1/batch",
                                      BATCH_METHODS if name == "batch" else QUERY_METHODS))


def _not_allowed(message: str, allow: str) -> HttpError:
    """A 405 refusal; its response carries `Allow`."""
    exc = HttpError("METHOD_NOT_ALLOWED", message)
    exc.allow = allow
    return exc


class Server(ThreadingHTTPServer):
    """The listening server. SIGTERM stops it as Ctrl-C does, and neither drops a request under way: `serve_forever`
    returns (no connection is accepted after), then `server_close` waits up to DRAIN_SECONDS for the requests being
    answered to be sent."""

    daemon_threads = True
    hosts: frozenset[str] | None = None  # the Host names it answers to (None: any; make_server)
    block_on_close = False  # server_close waits for requests under way itself, bounded (not for idle connections)
    verbose = False
    request_queue_size = 64  # the listen backlog: socketserver's 5 stalls a burst of clients for a second

    def __init__(self, *args, **kwargs):
        self._busy = 0  # requests read and not yet answered
        self._answered = threading.Condition()
        self._on_term = None  # the SIGTERM handler serve_forever installed, while it runs
        self._retaken = False
        super().__init__(*args, **kwargs)

    def serve_forever(self, poll_interval: float = 0.5) -> None:
        """Serves until `shutdown()`, Ctrl-C, or (when run on the main thread) SIGTERM."""
        import signal

        def on_term(_signum, _frame) -> None:
            threading.Thread(target=self.shutdown, name="jdx-serve-stop", daemon=True).start()

        try:
            previous = signal.signal(signal.SIGTERM, on_term)
        except ValueError:  # not the main thread: signals are the caller's business
            return super().serve_forever(poll_interval)
        self._on_term = on_term
        try:
            super().serve_forever(poll_interval)
        finally:
            self._on_term = None
            signal.signal(signal.SIGTERM, previous)

    def service_actions(self) -> None:
        """Once the embedded JVM has started (a decompilation), its own SIGTERM handler replaces this server's and
        ends the process at once, mid-answer: take it back (as the daemon does, jdx.daemon.server)."""
        if self._on_term is None or self._retaken:
            return
        import signal

        from jdx.loaders.jvm import jvm_running

        try:
            if jvm_running():
                self._retaken = True
                signal.signal(signal.SIGTERM, self._on_term)
        except Exception:  # noqa: BLE001 - never lets the serving loop die: the JVM's handler then stays
            pass

    def request_began(self) -> None:
        with self._answered:
            self._busy += 1

    def request_ended(self) -> None:
        with self._answered:
            self._busy -= 1
            self._answered.notify_all()

    def server_close(self) -> None:
        """Closes the listening socket, then lets the requests under way finish (DRAIN_SECONDS at most)."""
        super().server_close()
        deadline = time.monotonic() + DRAIN_SECONDS
        with self._answered:
            while self._busy > 0 and (left := deadline - time.monotonic()) > 0:
                self._answered.wait(left)

    def handle_error(self, request, client_address) -> None:
        """A client that hangs up mid-answer is its own business; anything else is one line, no traceback."""
        exc = sys.exc_info()[1]
        if isinstance(exc, (ConnectionError, TimeoutError)):
            return
        print(f"jdx serve: {client_address[0]}: {type(exc).__name__}: {exc}".splitlines()[0], file=sys.stderr,
              flush=True)


def make_server(execute: Callable[..., dict], commands: frozenset[str], bind: str = "127.0.0.1",
                port: int = DEFAULT_PORT, verbose: bool = False, timeout: float | None = None,
                timeout_text: str = "", allow_remote: bool | None = None) -> Server:
    """A bound server (port 0 picks a free one: `server.server_address`); `serve_forever()` runs it.
    `execute(command, query, params, call=Call)` answers (a Host's); `timeout` caps each request. Unless
    `allow_remote` (by default: a bind address that is not loopback, which `jdx serve` allows only with
    `--allow-remote`), a request must name this loopback server in its Host header (`host_refusal`)."""
    import functools

    from jdx.commands.execute import served

    def run(name: str, query: str, params: dict, call=None) -> dict:
        return served(functools.partial(execute, call=call))(name, query, params)

    handler = type("JdxHandler", (Handler,), {"execute": staticmethod(run), "commands": commands,
                                              "timeout_seconds": timeout, "timeout_text": timeout_text})
    if ":" in bind:
        server_type = type("Server6", (Server,), {"address_family": __import__("socket").AF_INET6})
    else:
        server_type = Server
    server = server_type((bind, port), handler)
    server.verbose = verbose
    if not (allow_remote if allow_remote is not None else not is_loopback(bind)):
        server.hosts = LOOPBACK_HOSTS | {f"[{bind}]" if ":" in bind else bind.lower()}
    return server


def warn_remote(bind: str) -> None:
    print(f"warning: jdx serve is listening on {bind}, reachable from other machines; it answers questions "
          f"about every jar in this workspace, with no authentication", file=sys.stderr, flush=True)
