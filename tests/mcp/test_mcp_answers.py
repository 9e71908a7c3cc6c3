"""What an MCP answer says, beside the CLI's own bytes (tests/mcp/test_mcp.py): jdx's words name the arguments a
client sends in every string of the answer (a result's notes and `hidden[].show`, a header's filter, a renderer's
cut lines), not only in messages and hints; a bad argument gets the message HTTP gives for the same parameter; an
error's text is the CLI's with the code in place of `error: `; tool descriptions name tools and claim only errors
that can happen. The oracle is the one-shot CLI in this process, on the parity workspace."""

from __future__ import annotations

import json
import re
import threading

import pytest

from tests.serve_support import FakeSession, cli, parity_host

pytestmark = pytest.mark.soak  # an in-process host (~15 s); test_mcp.py's parity checks respelled text


@pytest.fixture(scope="module")
def asked(jdx_env, jdx_home):
    """`ask(tool, arguments) -> ToolAnswer` over one in-process Host on the parity workspace; `run(argv)` the CLI."""
    from jdx.mcp.tools import call_tool

    with parity_host(jdx_env, jdx_home) as (execute, ws):
        yield (lambda tool, args: call_tool(execute, tool, args)), (lambda argv: cli([*ws, *argv]))


def flags_of(command: str) -> set[str]:
    from jdx.commands.registry import command as lookup
    from jdx.commands.registry import served_params

    return {f for p in served_params(lookup(command).request) for f in (p.flag, p.negative) if f}


def strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from strings(v)


def loose_flags(text: str, command: str) -> list[str]:
    """The command's flags a text names outside a command line it suggests (`jdx usages 'X#<name>'; …`)."""
    prose = re.sub(r"\bjdx [a-z]+[^;)]*", "", text)
    return [f for f in re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", prose) if f in flags_of(command)]


@pytest.mark.parametrize("argv, tool, args", [
    (["members", "fx.Box"], "jdx_members", {"query": "fx.Box"}),
    (["usages", "gx.Shape"], "jdx_usages", {"query": "gx.Shape"}),
    (["usages", "gx.Shape", "--in", "graph*", "--limit", "1"], "jdx_usages",
     {"query": "gx.Shape", "include": "graph*", "limit": 1}),
])
def test_every_string_jdx_wrote_names_arguments(asked, argv, tool, args):
    """The CLI names its flags in result fields and text lines (members' `hidden[].show`, usages' note and `[--in …]`
    header, `past --limit`); the MCP answer to the same question names none of them, anywhere."""
    ask, run = asked
    want = json.loads(run([*argv, "--json"]).out)
    text = run(argv).out
    command = argv[0]
    assert any(loose_flags(s, command) for s in strings(want["result"])), want["result"]  # the oracle names flags
    assert any(loose_flags(line, command) for line in text.splitlines()), text
    got = ask(tool, args)
    assert not got.is_error, got.text
    assert [s for s in strings(got.structured) if loose_flags(s, command)] == []
    assert [line for line in got.text.splitlines() if loose_flags(line, command)] == []
    assert len(got.text.splitlines()) == len(text.rstrip("\n").splitlines())


def test_members_hidden_names_the_access_argument(asked):
    ask, run = asked
    want = json.loads(run(["members", "fx.Box", "--json"]).out)["result"]["hidden"]
    got = ask("jdx_members", {"query": "fx.Box"}).structured["result"]["hidden"]
    assert any("--access all" in h["show"] for h in want), want
    spelled = [{**h, "show": h["show"].replace("--access", "access")
                .replace("--include-synthetic", "include_synthetic")} for h in want]
    assert got == spelled


def test_a_suggested_command_line_and_quoted_code_keep_their_flags():
    """`next: jdx callers X --depth 3` is a CLI line: its flags stay; a source line quoting `--lines` stays too."""
    from jdx.commands.host import spelled_as_arguments, spelled_text

    env = {"command": "source", "ok": True,
           "result": {"text": ['    String opt = "--lines";'],
                      "notes": ["run jdx source a.B --lines 3:9; --lines 3:9 here"]}}
    got = spelled_as_arguments(env)["result"]
    assert got == {"text": ['    String opt = "--lines";'], "notes": ["run jdx source a.B --lines 3:9; lines 3:9 here"]}
    text = '  4      String opt = "--lines";\nnote: run jdx source a.B --lines 3:9; --lines 3:9 here'
    assert spelled_text(text, env) == '  4      String opt = "--lines";\nnote: run jdx source a.B --lines 3:9; ' \
                                      'lines 3:9 here'


@pytest.fixture
def both():
    """An MCP `call_tool` and an HTTP server over one fake Host whose answer runs the registry's own checks."""
    from jdx.commands import registry
    from jdx.commands.execute import failure, served
    from jdx.commands.host import Host
    from jdx.errors import JdxError, NotFoundError
    from jdx.http.server import make_server
    from jdx.mcp.tools import call_tool

    def answer(session, command, query, params):
        try:
            registry.build_request(registry.command(command), query, params)
        except JdxError as exc:
            return failure(command, query, exc).envelope
        return failure(command, query, NotFoundError(f"not found: {query}")).envelope

    host = Host({}, session_factory=FakeSession, answer=answer, commands=frozenset({"members", "diff"}))
    server = make_server(host.execute, frozenset({"members", "diff", "workspace"}), "127.0.0.1", 0)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    try:
        yield (lambda tool, args: call_tool(served(host.execute), tool, args)), server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()
        host.close()


@pytest.mark.parametrize("args, query_string", [
    ({"query": "x", "limit": "abc"}, "query=x&limit=abc"),
    ({"query": "x", "limit": 2.5}, "query=x&limit=2.5"),
    ({"query": "x", "inherited": "yes"}, "query=x&inherited=yes"),
    ({"query": "x", "max_lines": 0}, "query=x&max_lines=0"),
    ({"query": "x", "bogus": 1}, "query=x&bogus=1"),
    ({"query": "x", "declared": True}, "query=x&declared"),
    ({"query": "x", "workspace": "other"}, "query=x&workspace=other"),
    ({"query": "x", "kind": "nonsense"}, "query=x&kind=nonsense"),
])
def test_a_bad_argument_gets_the_message_http_gives(both, args, query_string):
    import http.client

    ask, port = both
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", f"/v1/members?{query_string}")
    want = json.loads(conn.getresponse().read())["error"]
    conn.close()
    got = ask("jdx_members", args)
    assert got.is_error and got.structured["error"] == want, (got.structured["error"], want)
    assert got.text == f"USAGE: {want['message']}"
    if "bogus" in args:
        assert want["message"].startswith("unknown argument bogus; arguments: query, access, brief, from_type, "), want


def test_error_text_is_the_clis_with_the_code_for_error(asked):
    """`USAGE: missing query (TYPE)`, not `USAGE: error: …`; the lines after it (hint, warnings) as the CLI prints
    them (a diff of an unreadable jar: the error once, no warning restating it)."""
    ask, run = asked
    got = ask("jdx_members", {})
    assert got.text == "USAGE: missing query (TYPE)", got.text
    err = cli(["diff", "/nope/a.jar", "/nope/b.jar"]).err  # (no workspace flags: a diff takes none)
    got = ask("jdx_diff", {"query": "/nope/a.jar", "new": "/nope/b.jar"})
    assert err.startswith("error: ") and got.text == "ARTIFACT_READ_ERROR: " + err.removeprefix(
        "error: ").rstrip("\n").removesuffix(" (ARTIFACT_READ_ERROR)")  # the code named once, in front
    assert got.structured["warnings"] == [] and got.structured["error"]["code"] == "ARTIFACT_READ_ERROR"
    got = ask("jdx_members", {"query": "fx.Boxx"})
    assert got.text.startswith("NOT_FOUND: ") and "error:" not in got.text.splitlines()[0]


def test_a_timeout_text_says_timeout_once():
    from jdx.commands.host import Call
    from jdx.mcp.tools import error_answer

    call = Call(0.5, "500ms")
    call.stop("timeout")
    got = error_answer(call.envelope("members", "x"))
    assert got.text.startswith("TIMEOUT: timed out after --timeout 500ms while "), got.text


def test_descriptions_name_tools_and_only_errors_that_can_happen():
    from jdx.commands.registry import params_of, registry
    from jdx.mcp.tools import tool_specs

    specs = {s.name: s.description for s in tool_specs()}
    assert "Example: jdx_workspace {}" in specs["jdx_workspace"]
    assert "on the CLI): jdx_workspace" not in specs["jdx_workspace"]
    assert "(tables and properties: jdx_schema)" in specs["jdx_cypher"]
    assert specs["jdx_version"].startswith("The jdx version,")  # its own name is no cross-reference
    takes_query = {f"jdx_{c.name}" for c in registry() if c.wire and any(not p.flag for p in params_of(c.request))}
    for name, text in specs.items():
        assert ("NOT_FOUND lists near matches" in text) == (name in takes_query - {"jdx_cypher", "jdx_diff"}), name
        assert "Errors come back as tool errors whose text starts with the code" in text, name
    assert {"jdx_version", "jdx_doctor", "jdx_schema", "jdx_workspace"}.isdisjoint(takes_query)


def test_a_workspace_flag_hint_says_the_server_takes_it():
    """NO_SOURCES said "(pass --sources <jar> or --src <dir>)" to an MCP client, which no argument can do: the
    server's own command line sets the workspace."""
    from jdx.commands.host import spelled_as_arguments

    env = {"ok": True, "command": "doc", "result": {}, "warnings": [
        {"code": "NO_SOURCES", "message": "a.B: no sources (pass --sources <jar> or --src <dir>)", "artifact": "b.jar"}]}
    said = spelled_as_arguments(env)["warnings"][0]["message"]
    assert said == "a.B: no sources (start the server with --sources <jar> or --src <dir>)", said
