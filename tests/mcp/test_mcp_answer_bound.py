"""Every MCP answer is bounded in bytes (jdx.mcp.tools.within_bytes): `jdx_cypher` with `limit 200000` answered 157 MB
on one line, which no model can take. Past 1 MB (the reply's line: its text and its structured content's JSON together) a tool that takes `limit` is
asked again with a limit that fits, and `truncated` states the cut: rows shown, the total, the bound, what shows more.

Oracles: the CLI's own `--json` answer to the same question, whole (the CLI is not bounded) and at the limit the
bound picked; the JSON-RPC line a real `jdx mcp` subprocess writes.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.serve_support import cli, cli_env, parity_host, workspace_args

pytest.importorskip("mcp", reason="the MCP SDK is the optional extra jdx[mcp]")

ROOT = Path(__file__).resolve().parents[2]
MB = 1 << 20
ROWS = 60_000
BIG = f"UNWIND range(1, {ROWS}) AS i RETURN i, 'row ' + CAST(i AS STRING) AS name ORDER BY i"


@pytest.mark.soak  # a real server subprocess over 60,000 rows (~4 s); the default tier holds the bound in-process
def test_a_real_server_answers_a_huge_cypher_within_one_mb(jdx_env, jdx_home):
    """Over stdio: the CLI answers all rows (its `--json` is whole, over 1 MB); the server's answer line holds the
    CLI's first rows, the cut stated in `truncated` and in the text, both parts together within 1 MB and filling
    most of it (a table's text pads its rows to the widest: a guess from the whole answer under-filled it)."""
    import subprocess

    ws = workspace_args(jdx_home)
    with cli_env(jdx_env):
        whole = json.loads(cli([*ws, "cypher", BIG, "--limit", str(ROWS), "--json"]).out)
    assert whole["result"]["total"] == ROWS and len(whole["result"]["rows"]) == ROWS
    assert len(json.dumps(whole["result"]).encode()) > MB  # the question is past the bound
    lines = [{"jsonrpc": "2.0", "id": 1, "method": "initialize",
              "params": {"protocolVersion": "2024-11-05", "capabilities": {},
                         "clientInfo": {"name": "t", "version": "1"}}},
             {"jsonrpc": "2.0", "method": "notifications/initialized"},
             {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
              "params": {"name": "jdx_cypher", "arguments": {"query": BIG, "limit": ROWS}}}]
    env = dict(jdx_env, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-m", "jdx", "mcp", *ws], env=env, cwd=ROOT, capture_output=True,
                          input="".join(json.dumps(m) + "\n" for m in lines), text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    line = next(ln for ln in done.stdout.splitlines() if json.loads(ln).get("id") == 2)
    # the whole line within the bound, most of it filled (was the whole 60,000 rows twice over; then the text's
    # escaping and the frame were left out of the count: a search answer's line was 152 bytes over)
    assert 0.75 * MB <= len(line.encode()) <= MB, len(line)
    reply = json.loads(line)["result"]
    got, text = reply["structuredContent"], reply["content"][0]["text"]
    assert not reply["isError"]
    cut = got["truncated"]
    shown = len(got["result"]["rows"])
    assert 1000 < shown < ROWS and cut["shown"] == shown and cut["total"] == ROWS == got["result"]["total"]
    assert got["result"]["rows"] == whole["result"]["rows"][:shown]  # whole rows, the CLI's first ones
    assert cut["hint"] == "cut to fit the answer bound of 1 MB: LIMIT/SKIP in the query, or ask the CLI for all"
    assert text.splitlines()[-1] == f"… {shown} of {ROWS} shown ({cut['hint']})"


@pytest.fixture(scope="module")
def ask(jdx_env, jdx_home):
    """`ask(tool, arguments, max_bytes)` over one in-process Host on the parity workspace; `run(argv)` the CLI."""
    from jdx.mcp.tools import call_tool

    with parity_host(jdx_env, jdx_home) as (execute, ws):
        yield (lambda tool, args, limit: call_tool(execute, tool, args, limit),
               lambda argv: json.loads(cli([*ws, *argv, "--json"]).out))


@pytest.mark.parametrize("tool, args, argv, more", [
    ("jdx_search", {"query": "*", "limit": 10_000}, ["search", "*"], "narrow with kind, package or include, or "),
    ("jdx_usages", {"query": "fx.Point", "limit": 10_000}, ["usages", "fx.Point"], "narrow the question, or "),
    ("jdx_cypher", {"query": "MATCH (t:Type) RETURN t.id ORDER BY t.id", "limit": 10_000},
     ["cypher", "MATCH (t:Type) RETURN t.id ORDER BY t.id"], "LIMIT/SKIP in the query, or "),
])
def test_the_bound_is_one_for_every_tool(ask, tool, args, argv, more):
    """One bound for every tool that lists: past it, the answer is the CLI's at the limit that fits (its own cut,
    whole entities), `truncated` names the total and the bound instead of a higher limit (which shows no more)."""
    from jdx.commands.host import spelled_as_arguments

    call, run = ask
    whole = call(tool, args, 1 << 30)
    assert whole.structured["truncated"] is None  # under a bound past its size, the answer is whole
    budget = call(tool, {**args, "limit": 2}, 1 << 30).size + 400  # room for two entries and the longer hint
    got = call(tool, args, budget)
    assert not got.is_error and got.size <= budget, (got.size, budget)
    cut = got.structured["truncated"]
    want = spelled_as_arguments(run([*argv, "--limit", str(cut["shown"])]))  # the CLI's, as a client's words
    assert got.structured["result"] == want["result"]
    assert cut["total"] == want["truncated"]["total"] > cut["shown"]
    assert cut["hint"] == f"cut to fit the answer bound of {budget} bytes: {more}ask the CLI for all"
    assert f"… {cut['shown']} of {cut['total']} shown ({cut['hint']})" in got.text.splitlines()


def test_the_bound_is_stated_in_the_descriptions():
    from jdx.mcp.tools import tool_specs

    specs = {s.name: s for s in tool_specs()}
    assert "1 MB" in specs["jdx_cypher"].description and "1 MB" in specs["jdx_search"].description
    assert "1 MB" not in specs["jdx_workspace"].description


def test_the_size_counts_the_line_the_sdk_writes():
    """`ToolAnswer.size` is at least the JSON-RPC line the MCP SDK writes for the answer (its own serialization, the
    oracle), with a 64-character id: a text of quotes, backslashes and newlines is escaped on the wire, and counting
    its raw bytes let a search answer cut to the bound go 152 bytes over it."""
    import mcp.types as types

    from jdx.mcp.tools import ToolAnswer

    text = "\n".join(f'  "row {i}" \\ é\tend' for i in range(2000))
    env = {"ok": True, "result": {"rows": [[f'"{i}"\n'] for i in range(500)]}, "truncated": None, "warnings": [],
           "provenance": []}
    answer = ToolAnswer(env, text, False)
    result = types.CallToolResult(content=[types.TextContent(type="text", text=text)],
                                  structuredContent=answer.structured, isError=False)
    reply = types.JSONRPCResponse(jsonrpc="2.0", id="i" * 64,
                                  result=result.model_dump(by_alias=True, mode="json", exclude_none=True))
    line = reply.model_dump_json(by_alias=True, exclude_unset=True) + "\n"
    assert len(line.encode()) <= answer.size <= len(line.encode()) + 128, (len(line.encode()), answer.size)
