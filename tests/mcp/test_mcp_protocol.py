"""`jdx mcp`'s JSON-RPC edges, in process over a fake Host (no graph, no JVM): every malformed line gets an error
reply, the SDK's bare -32602 refusals say what is wrong, the server's `--timeout` answers TIMEOUT and stops the
query, a cancelled call is never answered and stops too; the schemas and hints name arguments, not flags."""

from __future__ import annotations

import json
import time

import anyio
import pytest

pytest.importorskip("mcp", reason="the MCP SDK is the optional extra jdx[mcp]")

from tests.serve_support import FakeSession  # noqa: E402 (after the skip: serve_support needs no MCP, this file does)

INIT = {"jsonrpc": "2.0", "id": "init", "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}


def slow_host(seconds: float, finished: list):
    """A Host whose answer to the query `slow` takes `seconds` of Python work (interruptible); every answer is a
    NOT_FOUND failure (a failure renders without a result)."""
    from jdx.commands.execute import failure
    from jdx.commands.host import Host
    from jdx.errors import NotFoundError

    def answer(session, command, query, params):
        if query == "slow":
            end = time.monotonic() + seconds
            while time.monotonic() < end:
                time.sleep(0.005)
            finished.append(query)
        return failure(command, query, NotFoundError(f"not found: {query}")).envelope

    return Host({}, session_factory=FakeSession, answer=answer, commands=frozenset({"members"}))


def call(rid, query: str) -> dict:
    return {"jsonrpc": "2.0", "id": rid, "method": "tools/call",
            "params": {"name": "jdx_members", "arguments": {"query": query}}}


def converse(server, script: list) -> list[dict]:
    """Feeds `script` (message dicts, raw text lines, or float pauses in seconds) to the server as stdin lines, ends
    the input, and returns every message the server wrote, in order."""
    from jdx.mcp.server import screened, serve_draining

    async def lines():
        for item in script:
            if isinstance(item, float):
                await anyio.sleep(item)
            else:
                yield item if isinstance(item, str) else json.dumps(item)

    async def main():
        send, receive = anyio.create_memory_object_stream(100)
        out: list[dict] = []

        async def collect():
            async with receive:
                async for item in receive:
                    out.append(item.message.model_dump(mode="json", by_alias=True, exclude_unset=True))

        async with anyio.create_task_group() as tg:
            tg.start_soon(collect)
            await serve_draining(server, screened(lines()), send)
        return out

    return anyio.run(main)


@pytest.fixture
def fake():
    finished: list = []
    host = slow_host(4.0, finished)
    yield host, finished
    host.close(wait=5)


@pytest.mark.parametrize("line, code, rid, says", [
    ("{not json", -32700, None, "Parse error"),
    ('[{"jsonrpc":"2.0","id":20,"method":"ping"}]', -32600, None, "batch"),
    ('{"id":30,"method":"ping"}', -32600, 30, '"jsonrpc" must be "2.0"'),
    ('{"jsonrpc":"2.0","id":null,"method":"ping"}', -32600, None, "id must be a string or an integer"),
    ('{"jsonrpc":"2.0","id":1.5,"method":"ping"}', -32600, None, "id must be a string or an integer"),
    ('{"jsonrpc":"2.0","id":true,"method":"ping"}', -32600, None, "id must be a string or an integer"),
    ('{"jsonrpc":"2.0","id":31,"method":5}', -32600, 31, '"method" must be a string'),
    ('{"jsonrpc":"2.0","id":32}', -32600, 32, '"method" is missing'),
    ('"ping"', -32600, None, "a message is a JSON object"),
    ('{"jsonrpc":"2.0","id":33,"method":"ping","params":[1]}', -32602, 33, "params must be an object"),
])
def test_every_malformed_line_gets_an_error_reply(fake, line, code, rid, says):
    from jdx.mcp.server import build_server

    got = converse(build_server(fake[0].execute), [INIT, INITIALIZED, line, {"jsonrpc": "2.0", "id": 9,
                                                                            "method": "ping"}])
    refusal = next(m for m in got if "error" in m)  # written at once, maybe before the initialize answer
    assert sorted(map(str, (m.get("id") for m in got))) == sorted(map(str, ["init", rid, 9])), got
    assert refusal["id"] == rid and refusal["error"]["code"] == code and says in refusal["error"]["message"], refusal
    assert next(m for m in got if m.get("id") == 9)["result"] == {}


def test_refusals_before_initialize_and_of_bad_tool_calls_say_why(fake):
    from jdx.mcp.server import build_server

    got = converse(build_server(fake[0].execute), [
        {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, INIT, INITIALIZED,
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {}},
        {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": 5}}])
    by_id = {m["id"]: m for m in got}
    assert by_id[1]["error"]["code"] == -32602 and "before initialize" in by_id[1]["error"]["message"], by_id[1]
    assert by_id[2]["error"]["code"] == -32602 and "params.name" in by_id[2]["error"]["message"], by_id[2]
    assert "params.name" in by_id[3]["error"]["message"] and "string" in by_id[3]["error"]["message"], by_id[3]


def test_timeout_answers_timeout_and_stops_the_query(fake):
    from jdx.mcp.server import build_server

    host, finished = fake
    started = time.monotonic()
    got = converse(build_server(host.execute, timeout=0.8, timeout_text="800ms"),
                   [INIT, INITIALIZED, call(1, "slow"), 1.1, call(2, "fast")])
    by_id = {m["id"]: m["result"] for m in got if m["id"] != "init"}
    assert by_id[1]["isError"] and by_id[1]["structuredContent"]["error"]["code"] == "TIMEOUT", by_id[1]
    message = by_id[1]["structuredContent"]["error"]["message"]
    assert message == "timed out after --timeout 800ms while answering the query", message
    assert by_id[1]["content"][0]["text"].startswith("TIMEOUT: ")
    assert by_id[2]["structuredContent"]["error"]["code"] == "NOT_FOUND"  # the next call is answered
    assert time.monotonic() - started < 3.5 and not finished  # interrupted, not run to its end


def test_a_call_timed_out_behind_another_says_it_waited_and_never_runs(fake):
    import threading

    from jdx.commands.host import Call, answer_within

    host, finished = fake
    first = Call()
    running = threading.Thread(target=host.execute, args=("members", "slow", {}), kwargs={"call": first})
    running.start()
    while first.phase.startswith("starting"):
        time.sleep(0.01)
    env = answer_within(host.execute, Call(0.3, "300ms"), "members", "fast", {})
    assert env["error"]["message"] == "timed out after --timeout 300ms while waiting for the query before it", env
    first.stop("cancelled")
    running.join(5)
    assert not finished


def test_a_cancelled_call_is_never_answered_and_stops(fake):
    from jdx.mcp.server import build_server

    host, finished = fake
    started = time.monotonic()
    got = converse(build_server(host.execute), [
        INIT, INITIALIZED, call(4, "slow"), 0.3,
        {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 4, "reason": "test"}},
        {"jsonrpc": "2.0", "id": 5, "method": "ping"}, call(6, "fast")])
    assert [m["id"] for m in got] == ["init", 5, 6], got
    assert time.monotonic() - started < 1.8 and not finished


def test_engine_schemas_list_the_engines_the_commands_accept():
    from jdx.commands.source import ENGINES
    from jdx.mcp.tools import tool_specs

    specs = {s.name: s.input_schema for s in tool_specs()}
    for tool in ("jdx_body", "jdx_source"):
        assert tuple(specs[tool]["properties"]["engine"]["enum"]) == ENGINES, specs[tool]["properties"]["engine"]


def test_search_schema_bounds_limit_and_lists_kinds():
    from jdx.engine.search import ALL_KINDS
    from jdx.mcp.tools import tool_specs

    props = {s.name: s.input_schema for s in tool_specs()}["jdx_search"]["properties"]
    assert props["limit"]["minimum"] == 1
    assert set(ALL_KINDS) | {"type"} <= set(props["kind"]["items"]["enum"])


@pytest.mark.parametrize("env, want", [
    ({"command": "search", "ok": True, "truncated": {"shown": 3, "total": 80,
                                                     "hint": "--limit 80, or narrow with --kind, --package or --in"}},
     {"truncated": "limit 80, or narrow with kind, package or include"}),
    ({"command": "members", "ok": False, "error": {"code": "USAGE", "message": "--max-lines must be at least 1"}},
     {"message": "max_lines must be at least 1"}),
    ({"command": "members", "ok": False, "error": {"code": "USAGE", "message": "members: unknown option --workspace"}},
     {"message": "members: unknown argument workspace"}),
    ({"command": "members", "ok": False, "error": {"code": "TIMEOUT", "message": "timed out after --timeout 2s",
                                                   "hint": "use --declared"}},
     {"message": "timed out after --timeout 2s", "hint": "use inherited=false"}),
    ({"command": "diff", "ok": False, "error": {"code": "USAGE", "message": "diff --out: writes files"}},
     {"message": "diff --out: writes files"}),
    ({"command": "show", "ok": False, "error": {"code": "USAGE", "message": "missing TYPE"}},
     {"message": "missing query (TYPE)"}),  # the positional is the `query` argument they send
    ({"command": "members", "ok": False, "error": {"code": "USAGE",
                                                   "message": "members: unknown option --declared (send inherited=false)"}},
     {"message": "members: unknown argument declared (send inherited=false)"}),
])
def test_hints_and_errors_name_arguments(env, want):
    from jdx.commands.host import spelled_as_arguments, spelled_line, spelled_text

    got = spelled_as_arguments(env)
    for key, text in want.items():
        assert (got["truncated"]["hint"] if key == "truncated" else got["error"][key]) == text, got
    assert spelled_line("… 5 of 80 lines shown (--max-lines 80 for all)", "members") == \
        "… 5 of 80 lines shown (max_lines 80 for all)"
    quoting = {"command": "body", "ok": True, "result": {"text": ["    if (x --max-lines) {"]}}
    assert spelled_text("  12      if (x --max-lines) {\n… 1 of 9 lines shown (--max-lines 9 for all)", quoting) == \
        "  12      if (x --max-lines) {\n… 1 of 9 lines shown (max_lines 9 for all)"  # source text is left alone
    assert spelled_line("  + 11 from java.lang.Object (--from java.lang.Object to expand)", "members") == \
        "  + 11 from java.lang.Object (from_type java.lang.Object to expand)"  # a hint in parentheses
    assert spelled_line("    for (--i; i > 0;) {", "members") == "    for (--i; i > 0;) {"  # not a flag of members


def test_a_workspace_argument_says_one_workspace_per_server(fake):
    from jdx.mcp.server import build_server

    got = converse(build_server(fake[0].execute), [INIT, INITIALIZED, {
        "jsonrpc": "2.0", "id": 7, "method": "tools/call",
        "params": {"name": "jdx_members", "arguments": {"query": "x", "workspace": "other"}}}])
    result = got[1]["result"]
    assert result["isError"] and result["structuredContent"]["error"]["code"] == "USAGE"
    assert "one workspace on its own command line" in result["structuredContent"]["error"]["message"], result


def test_tool_schemas_and_texts_name_arguments_not_cli_flags():
    """A property's description names the other arguments as a client sends them (its own CLI flag is given after
    `; CLI`); two switches in a row stay apart (`include_synthetic, access all`)."""
    from jdx.commands.host import Spelling
    from jdx.mcp.tools import tool_specs

    for spec in tool_specs():
        for name, prop in spec.input_schema["properties"].items():
            assert "--" not in prop["description"].split("; CLI")[0], (spec.name, name, prop["description"])
    spell = Spelling("members")
    assert spell("7 hidden (--include-synthetic --access all)") == "7 hidden (include_synthetic, access all)"
    assert spell("narrow with --grep or --from X") == "narrow with grep or from_type X"
