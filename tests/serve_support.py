"""Shared by the MCP and HTTP adapter tests: the parity workspace, the CLI's own --json bytes per case."""

from __future__ import annotations

import contextlib
import io
import shlex

import pytest

from tests.conftest import Run
from tests.fixtures.build import fixtures_jar
from tests.fixtures.build_graph import graph_jar


def workspace_args(jdx_home) -> list[str]:
    return ["--no-jdk", "--jars", str(fixtures_jar(jdx_home)), "--jars", str(graph_jar(jdx_home))]


def expand(case: list[str], jdx_home) -> list[str]:
    jars = {"{fixtures}": str(fixtures_jar(jdx_home)), "{graph}": str(graph_jar(jdx_home))}
    return [jars.get(w, w) for w in case]


@contextlib.contextmanager
def cli_env(jdx_env):
    mp = pytest.MonkeyPatch()
    for var in ("JDX_CACHE_DIR", "JDX_CONFIG_DIR", "JDX_RUNTIME_DIR"):
        mp.setenv(var, jdx_env[var])
    mp.setenv("JDX_NO_DAEMON", "1")
    for var in ("JDX_WORKSPACE", "JDX_GRAPH_BACKEND"):
        mp.delenv(var, raising=False)
    try:
        yield
    finally:
        mp.undo()


@contextlib.contextmanager
def parity_host(jdx_env, jdx_home):
    """(execute, workspace args): one in-process Host on the parity workspace, its `execute` served as MCP and HTTP
    call it (jdx.commands.execute.served)."""
    from jdx.cli.main import split_globals
    from jdx.commands.execute import served
    from jdx.commands.host import Host, answer_with_workspace
    from jdx.commands.session import Options, Session

    ws = workspace_args(jdx_home)
    with cli_env(jdx_env):
        g, _ = split_globals(ws)
        host = Host(g.workspace_key(), answer=answer_with_workspace,
                    session_factory=lambda: Session(Options(jars=g.jars, jdk=g.jdk)))
        try:
            yield served(host.execute), ws
        finally:
            host.close()


def cli(argv: list[str], stdin: str | None = None) -> Run:
    """The one-shot CLI in this process (no daemon)."""
    from jdx.cli.main import main

    out, err = io.StringIO(), io.StringIO()
    with pytest.MonkeyPatch.context() as inner:
        if stdin is not None:
            inner.setattr("sys.stdin", io.StringIO(stdin))
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv)
    return Run(code, out.getvalue(), err.getvalue())


def wire_form(case: list[str]):
    """(command, query, params) of a CLI case, or None when the command line itself is refused."""
    from jdx.commands.argv import parse_words
    from jdx.commands.registry import command

    try:
        query, params = parse_words(command(case[0]), case[1:])
    except Exception:  # noqa: BLE001 - a refused command line has no wire form
        return None
    return case[0], query, params


def case_id(case: list[str]) -> str:
    return " ".join(shlex.quote(w) for w in case)[:60]


def halved(cases: list) -> list:
    """Every other case runs in the default tier, the rest in the soak (the CLI/daemon/batch parity of
    tests/cli/test_adapter_parity.py asks every case; MCP and HTTP add their own transport on top)."""
    import pytest

    return [pytest.param(c, marks=pytest.mark.soak) if i % 2 else c for i, c in enumerate(cases)]


class FakeSession:
    """A Host session that is open and holds nothing: the adapters' tests answer with their own fake `answer`."""

    is_open = True

    def artifacts(self):
        return []

    def close(self):
        pass


@contextlib.contextmanager
def not_found_server(**options):
    """A `jdx serve` server on 127.0.0.1 (a free port) over a Host of fake sessions whose every answer is a
    not-found; yields its port. `options`: make_server's (`allow_remote`)."""
    import threading

    from jdx.commands.execute import failure
    from jdx.commands.host import Host
    from jdx.errors import NotFoundError
    from jdx.http.server import make_server

    def answer(session, command, query, params):
        return failure(command, query, NotFoundError(f"not found: {query}")).envelope

    host = Host({}, session_factory=FakeSession, answer=answer, commands=frozenset({"members"}))
    server = make_server(host.execute, frozenset({"members", "workspace"}), "127.0.0.1", 0, **options)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()
        host.close()
