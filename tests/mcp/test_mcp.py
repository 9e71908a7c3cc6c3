"""`jdx mcp` (spec §14.2) driven by the MCP SDK's own client: over a real stdio subprocess, and in process.

Every tool is listed with a schema from its request type; each parity case (tests/cli/test_adapter_parity.py)
called as a tool gives structured content equal to the CLI's `--json` envelope (result, truncation,
warnings, provenance) and the CLI's text; not found, ambiguous and usage errors arrive as tool errors
carrying the envelope's code and candidates.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import anyio
import pytest

from tests.cli.test_adapter_parity import CASES
from tests.serve_support import case_id, cli, cli_env, expand, halved, wire_form, workspace_args

pytest.importorskip("mcp", reason="the MCP SDK is the optional extra jdx[mcp]")

from mcp import Client
from mcp.client.stdio import StdioServerParameters

ROOT = Path(__file__).resolve().parents[2]


def arguments_of(command: str, query: str, params: dict) -> dict:
    """A wire request as typed tool arguments (what an agent sends): booleans, integers, lists."""
    from jdx.commands.registry import command as lookup
    from jdx.commands.registry import params_of

    kinds = {p.name: p.kind for p in params_of(lookup(command).request)}
    args: dict = {"query": query} if query else {}
    for name, value in params.items():
        kind = kinds[name]
        args[name] = (value == "true" if kind == "bool" else int(value) if kind == "int"
                      else list(value) if kind == "list" else value)
    return args


def run(coro_fn, *args):
    return anyio.run(coro_fn, *args)


@pytest.fixture(scope="module")
def answers(jdx_env, jdx_home, request):
    """The parity cases this run selects (halved: every other one in the default tier) and the error cases, asked once
    over one stdio subprocess (one server per module)."""
    ws = workspace_args(jdx_home)
    env = {k: v for k, v in jdx_env.items()}
    env["PYTHONPATH"] = str(ROOT)
    calls = []
    every = "not soak" not in request.config.getoption("markexpr", "")  # the soak (or -m "") asks every case
    for case in CASES if every else CASES[::2]:
        form = wire_form(expand(case, jdx_home))
        if form is not None:
            calls.append((case_id(case), "jdx_" + form[0], arguments_of(*form)))
    calls += [("not found", "jdx_members", {"query": "fx.Boxx"}),
              ("ambiguous", "jdx_show", {"query": "Counter"}),
              ("usage", "jdx_members", {"query": "fx.Box", "max_lines": "many"}),
              ("unknown flag", "jdx_members", {"query": "fx.Box", "bogus": True}),
              ("missing query", "jdx_show", {}),
              ("unknown tool", "jdx_frobnicate", {}),
              ("workspace", "jdx_workspace", {}),
              ("writes", "jdx_diff", {"query": "a.jar", "new": "b.jar", "out": str(jdx_home / "mcp-out")})]

    async def main():
        params = StdioServerParameters(command=sys.executable, args=["-m", "jdx", "mcp", *ws], env=env,
                                       cwd=str(ROOT))
        async with Client(params, read_timeout_seconds=300) as client:
            tools = (await client.list_tools()).tools
            out = {}
            from mcp.shared.exceptions import MCPError

            for key, name, args in calls:
                try:
                    out[key] = await client.call_tool(name, args)
                except MCPError as exc:  # a protocol error (an unknown tool)
                    out[key] = exc
            return tools, out

    return run(main)


def test_tools_are_the_wire_commands_plus_workspace(answers):
    from jdx.commands.registry import params_of, registry, served_params

    tools, _ = answers
    wired = [c for c in registry() if c.wire]
    assert [t.name for t in tools] == [f"jdx_{c.name}" for c in wired] + ["jdx_workspace"]
    by_name = {t.name: t for t in tools}
    members = by_name["jdx_members"]
    assert members.input_schema["required"] == ["query"]
    props = members.input_schema["properties"]
    assert props["inherited"]["type"] == "boolean" and props["max_lines"]["type"] == "integer"
    assert props["access"]["type"] == "array" and "enum" in props["access"]["items"]
    assert "jdx members" in members.description and "Next:" in members.description
    for c in wired:
        schema = by_name[f"jdx_{c.name}"].input_schema
        assert set(schema["properties"]) == {p.name for p in served_params(c.request)}, c.name
        assert {p.name for p in params_of(c.request)} - set(schema["properties"]) <= {"out"}, c.name
        assert by_name[f"jdx_{c.name}"].annotations.read_only_hint is True
    assert "out" not in by_name["jdx_diff"].input_schema["properties"]  # it writes files: the CLI's alone


@pytest.mark.parametrize("case", halved(CASES), ids=case_id)
def test_structured_content_is_the_cli_json(answers, case, jdx_env, jdx_home):
    from jdx.commands.registry import command

    _, out = answers
    if case_id(case) not in out:
        pytest.skip("a command line refused before the wire")
    got = out[case_id(case)]
    from jdx.commands.host import spelled_as_arguments, spelled_text

    with cli_env(jdx_env):
        ws = [] if case[0] == "diff" else workspace_args(jdx_home)  # a diff takes no workspace: the server's flags
        # are not the request's
        cli_env_ = json.loads(cli([*ws, *expand(case, jdx_home), "--json"]).out)
        env = spelled_as_arguments(cli_env_)
        text = cli([*ws, *expand(case, jdx_home)])
    text_out = spelled_text("\n".join(_own_step(line) for line in text.out.split("\n")), cli_env_)
    _normalise_cache(env), _normalise_cache(got.structured_content)
    if env["ok"]:
        assert not got.is_error
        assert got.structured_content == {k: env[k] for k in ("result", "truncated", "warnings", "provenance")}
        assert got.content[0].text == text_out.rstrip("\n"), case
    else:
        assert got.is_error
        assert got.structured_content["error"] == env["error"]
        assert got.structured_content["candidates"] == env["candidates"]
        assert got.content[0].text.startswith(env["error"]["code"] + ": ")
    assert command(case[0]) is not None


def _normalise_cache(data):
    """A decompiler's `cached` flag says whether this process had decompiled it before: not an answer fact."""
    if isinstance(data, dict):
        for key, value in data.items():
            if key == "cached":
                data[key] = None
            else:
                _normalise_cache(value)
    elif isinstance(data, list):
        for item in data:
            _normalise_cache(item)


@pytest.mark.parametrize("key, code", [("not found", "NOT_FOUND"), ("ambiguous", "AMBIGUOUS"),
                                       ("usage", "USAGE"), ("unknown flag", "USAGE"), ("missing query", "USAGE")])
def test_errors_are_tool_errors_with_codes(answers, key, code):
    _, out = answers
    got = out[key]
    assert got.is_error, got
    assert got.structured_content["error"]["code"] == code, got.structured_content
    assert got.content[0].text.startswith(f"{code}: ")
    if code in ("NOT_FOUND", "AMBIGUOUS"):
        assert got.structured_content["candidates"], got.structured_content


def test_an_unknown_tool_is_a_protocol_error(answers):
    """MCP's tools spec: an unknown tool is a JSON-RPC error (-32602), not a tool's failure (T31)."""
    import mcp_types as types

    got = answers[1]["unknown tool"]
    assert isinstance(got, Exception) and got.error.code == types.INVALID_PARAMS, got
    assert got.error.message.startswith("Unknown tool: 'jdx_frobnicate'; tools: jdx_body"), got.error.message


def test_a_field_that_writes_files_is_refused(answers, jdx_home):
    """`diff --out DIR` writes where the caller says: an MCP client (or a page reaching a local port) must not make
    jdx write outside its own directories (spec §17)."""
    got = answers[1]["writes"]
    assert got.is_error and got.structured_content["error"]["code"] == "USAGE", got.structured_content
    assert "--out: writes files, which MCP and HTTP do not do" in got.structured_content["error"]["message"]
    assert not (jdx_home / "mcp-out").exists()


def test_workspace_tool(answers):
    _, out = answers
    got = out["workspace"]
    assert not got.is_error
    result = got.structured_content["result"]
    assert [a["name"] for a in result["artifacts"]] == ["fixtures.jar", "graph-fixtures.jar"]
    assert result["rows"]["Type"] > 0 and "2 artifacts" in got.content[0].text


def test_in_process_server_answers_like_the_cli(jdx_env, jdx_home):
    """The same server object the subprocess runs, connected in process: warm answers equal the CLI's."""
    from jdx.cli.main import split_globals
    from jdx.commands.host import Host, answer_with_workspace, spelled_as_arguments
    from jdx.commands.session import Options, Session
    from jdx.mcp.server import build_server

    ws = workspace_args(jdx_home)
    with cli_env(jdx_env):
        g, _ = split_globals(ws)
        host = Host(g.workspace_key(), answer=answer_with_workspace,
                    session_factory=lambda: Session(Options(jars=g.jars, jdk=g.jdk)))
        # the CLI's result, its flags named as arguments (`hidden[].show`: `access all`)
        want = spelled_as_arguments(json.loads(cli([*ws, "members", "fx.Dog", "--max-lines", "5", "--json"]).out))

        async def main():
            async with Client(build_server(host.execute)) as client:
                first = await client.call_tool("jdx_members", {"query": "fx.Dog", "max_lines": 5})
                again = await client.call_tool("jdx_members", {"query": "fx.Dog", "max_lines": 5})
                wrong = await client.call_tool("jdx_members", {"query": "fx.Dog", "inherited": "yes"})
                return first, again, wrong

        try:
            first, again, wrong = run(main)
        finally:
            host.close()
    assert first.structured_content == again.structured_content
    assert first.structured_content["result"] == want["result"]
    assert wrong.is_error and wrong.structured_content["error"]["code"] == "USAGE"
    assert "inherited" in wrong.content[0].text


def test_plain_cli_never_imports_the_sdk(jdx_env, jdx_home):
    import subprocess

    code = ("import sys; from jdx.cli.main import main; main(['--no-jdk', 'version', '--json']); "
            "main(['help', '--agent']); print('mcp' in sys.modules, file=sys.stderr)")
    env = dict(jdx_env, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-c", code], check=False, env=env, cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    assert done.stderr.strip().splitlines()[-1] == "False", done.stderr


def test_a_script_that_closes_stdin_gets_every_answer(jdx_env, jdx_home):
    """`printf '<requests>' | jdx mcp`: input ends right after the calls, while they still run; each is answered
    (the SDK's session alone cancels them at end of input), and the server then exits 0."""
    import subprocess

    lines = [{"jsonrpc": "2.0", "id": 1, "method": "initialize",
              "params": {"protocolVersion": "2024-11-05", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}},
             {"jsonrpc": "2.0", "method": "notifications/initialized"},
             {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
              "params": {"name": "jdx_members", "arguments": {"query": "fx.Box"}}},
             {"jsonrpc": "2.0", "id": "three", "method": "tools/call",
              "params": {"name": "jdx_search", "arguments": {"query": "Box"}}},
             {"jsonrpc": "2.0", "id": 4, "method": "tools/list"}]
    env = dict(jdx_env, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-m", "jdx", "mcp", *workspace_args(jdx_home)], env=env, cwd=ROOT,
                          input="".join(json.dumps(m) + "\n" for m in lines), capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    replies = {m["id"]: m for m in map(json.loads, done.stdout.splitlines())}
    assert sorted(map(str, replies)) == ["1", "2", "4", "three"], done.stdout[-2000:]
    assert "fx.Box" in replies[2]["result"]["content"][0]["text"] and not replies[2]["result"]["isError"]
    assert "fx.Box" in replies["three"]["result"]["content"][0]["text"]


def _own_step(line: str) -> str:
    """A CLI `next:` step without the command line's workspace flags the CLI adds to it (a server answers for one
    workspace: its steps name none)."""
    if not line.startswith("next: jdx "):
        return line
    return line.replace("   (with this command's workspace flags)", "").replace("; with this command's workspace flags)",
                                                                                ")")
