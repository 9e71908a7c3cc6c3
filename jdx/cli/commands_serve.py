"""`jdx mcp` and `jdx serve` (spec §14.2, §14.4): the registry as MCP tools over stdio, and as HTTP/JSON.

Both hold one warm session (jdx.commands.host.Host) for the workspace given by the global flags on their
own command line (`jdx mcp --jars lib/*.jar`), and neither touches the daemon's socket.
"""

from __future__ import annotations

import typer

from jdx.cli import commands as cli


def _host():
    from jdx.commands.host import Host, answer_with_workspace
    from jdx.commands.session import Session

    g = cli._G

    def session():
        return Session(g.options())

    return Host(g.workspace_key(), session_factory=session, answer=answer_with_workspace)


def _timeout() -> tuple[float | None, str]:
    """The global `--timeout` as (seconds, text): each request's cap, as the CLI caps its one command."""
    from jdx.cli.main import parse_duration

    text = cli._G.timeout if cli._G is not None else None
    return (parse_duration(text), text) if text else (None, "")


@cli.app.command("mcp")
def mcp_command():
    """Serve the query commands as MCP tools over stdio (needs pip install 'jdx[mcp]'). Example: jdx mcp --jars lib/gson.jar"""
    import importlib.util

    from jdx.errors import EnvironmentMissing

    if importlib.util.find_spec("mcp") is None:
        raise EnvironmentMissing("jdx mcp needs the MCP SDK: pip install 'jdx[mcp]'")
    from jdx import __version__
    from jdx.mcp.server import run_stdio

    seconds, text = _timeout()
    host = _host()
    try:
        run_stdio(host.execute, __version__, seconds, text)
    finally:
        host.close()
    from jdx.cli.commands_daemon import exit_now

    exit_now()  # a worker thread that started the JVM would hold the interpreter's exit forever


@cli.app.command("serve")
def serve_command(port: int = typer.Option(7070, "--port", help="TCP port (0: any free port, printed on stderr)"),
                  bind: str = typer.Option("127.0.0.1", "--bind", help="address to listen on"),
                  allow_remote: bool = typer.Option(False, "--allow-remote",
                                                    help="allow a --bind address other than loopback"),
                  verbose: bool = typer.Option(False, "--verbose", help="log each request to stderr")):
    """Serve the query commands as HTTP/JSON: GET /v1/<command>?query=..., POST /v1/batch, GET /v1/health. Example: jdx serve --jars lib/gson.jar --port 7070"""
    import sys

    from jdx.errors import UsageError
    from jdx.http.server import is_loopback, make_server, warn_remote

    if not is_loopback(bind) and not allow_remote:
        raise UsageError(f"--bind {bind} is not a loopback address: add --allow-remote to serve other machines")
    seconds, text = _timeout()
    host = _host()
    try:
        # `--verbose` anywhere on the line is also the global flag's spelling, which takes it first
        server = make_server(host.execute, host.commands | {"workspace"}, bind, port,
                             verbose or bool(cli._G and cli._G.verbose), timeout=seconds, timeout_text=text,
                             allow_remote=allow_remote or None)
    except OSError as exc:
        host.close()
        raise UsageError(f"cannot listen on {bind}:{port}: {exc.strerror or exc}") from None
    if not is_loopback(bind):
        warn_remote(bind)  # once bound: a bind that fails warns of nothing
    print(f"jdx serve: {base_url(*server.server_address[:2])} (GET /v1/<command>?query=..., POST /v1/batch); "
          f"Ctrl-C stops", file=sys.stderr, flush=True)
    try:
        server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        host.close()
    from jdx.cli.commands_daemon import exit_now

    exit_now()  # a worker thread that started the JVM would hold the interpreter's exit forever


def base_url(address: str, port: int) -> str:
    """The served base URL; an IPv6 host in brackets (RFC 3986: `http://[::1]:7070/v1/`)."""
    return f"http://{f'[{address}]' if ':' in address else address}:{port}/v1/"
