"""`jdx mcp` (spec §14.2): an MCP server over stdio, built on the official SDK (`pip install 'jdx[mcp]'`).

The SDK's low-level `Server` is used rather than `MCPServer`'s decorated functions: the tools, their JSON
schemas and their error results are generated from the command registry (jdx.mcp.tools), not from Python
signatures. One Host holds the workspace graph for the server's life, so calls answer warm; queries run
one at a time on a worker thread, off the event loop. This module is imported only by `jdx mcp`.

jdx reads stdin itself (`screened`) rather than through the SDK's reader, which drops a line it cannot
validate without a word: every line that is not one MCP message is answered by a JSON-RPC 2.0 error
(-32700 Parse error, -32600 Invalid Request, id null when the id cannot be read; a batch array too, as
MCP 2025-06-18 removed batching; -32602 Invalid params for params that are not an object). The SDK's bare -32602 refusals (a call before `initialize`, malformed
`tools/call` params) are rewritten to say what is wrong (`explain_refusals`). Each call carries a
jdx.commands.host.Call: the server's `--timeout` answers TIMEOUT as a tool error, and a call the client
cancels is stopped and never answered.
"""

from __future__ import annotations

import contextlib
import functools
import json
import math
import os
import sys
from collections.abc import AsyncIterator, Callable

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError

from jdx.mcp import tools as jtools

INSTRUCTIONS = ("jdx answers questions about JVM code (jars, class dirs, the JDK) from bytecode: members, "
                "signatures, hierarchy, usages, callers, bodies, docs, search. References look like pkg.Type, "
                "pkg.Type#method, pkg.Type#method(ParamType). Start with jdx_workspace or jdx_search; an "
                "AMBIGUOUS error lists candidates to re-ask with; a cut answer names the argument that shows more.")


def build_server(execute: Callable[..., dict], version: str = "", timeout: float | None = None,
                 timeout_text: str = "", max_bytes: int = jtools.MAX_ANSWER_BYTES) -> Server:
    """The MCP server: every registry tool, answered through `execute(command, query, params, call=Call) ->
    envelope` (a Host's); `timeout` (seconds, `timeout_text` as the user wrote it) caps each call, `max_bytes` the
    JSON of each answer (jdx.mcp.tools.within_bytes)."""
    from jdx.commands.execute import served
    from jdx.commands.host import Call

    specs = jtools.tool_specs()
    listed = [types.Tool(name=s.name, description=s.description, input_schema=s.input_schema,
                         annotations=types.ToolAnnotations(read_only_hint=True, destructive_hint=False,
                                                           idempotent_hint=True, open_world_hint=False))
              for s in specs]
    schemas = {s.name: s.input_schema for s in specs}

    async def list_tools(_ctx, _params) -> types.ListToolsResult:
        return types.ListToolsResult(tools=listed)

    async def call_tool(_ctx, params: types.CallToolRequestParams) -> types.CallToolResult:
        if params.name not in schemas:  # a protocol error, as MCP's tools spec has it (not a tool's failure)
            raise MCPError(types.INVALID_PARAMS, f"Unknown tool: {params.name!r}; tools: {', '.join(sorted(schemas))}",
                           data={"tool": params.name})  # (data: not the SDK's bare refusal explain_refusals rewrites)
        call = Call(timeout, timeout_text)
        run = served(functools.partial(execute, call=call))
        answer = None
        try:
            with anyio.move_on_after(timeout if timeout else math.inf):
                answer = await anyio.to_thread.run_sync(jtools.call_tool, run, params.name, params.arguments,
                                                        max_bytes, abandon_on_cancel=True)
        except anyio.get_cancelled_exc_class():
            call.stop("cancelled")  # the SDK drops the answer; the query stops where it can
            raise
        if answer is None:
            call.stop("timeout")
            name = params.name
            answer = jtools.error_answer(call.envelope(name.removeprefix(jtools.PREFIX),
                                                       str((params.arguments or {}).get("query") or "")))
        return result_of(answer)

    server = Server("jdx", version=version, instructions=INSTRUCTIONS, get_tool_input_schema=schemas.get,
                    on_list_tools=list_tools, on_call_tool=call_tool)
    server.middleware.append(explain_refusals)
    return server


def result_of(answer: jtools.ToolAnswer) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=answer.text)],
                                structured_content=answer.structured, is_error=answer.is_error)


async def explain_refusals(ctx, call_next):
    """The SDK refuses a request made before `initialize`, and params that fail its model, with a bare -32602
    "Invalid request parameters": the same code, with a message saying what is wrong."""
    from mcp.shared.exceptions import MCPError
    from pydantic import ValidationError

    try:
        return await call_next(ctx)
    except MCPError as exc:
        if ctx.request_id is None or exc.code != types.INVALID_PARAMS or exc.data not in ("", None) \
                or ctx.method == "initialize":
            raise
        raise MCPError(types.INVALID_PARAMS, f"{ctx.method} before initialize: send initialize, then "
                                             "notifications/initialized, first", data={"method": ctx.method}) from None
    except ValidationError as exc:
        if ctx.request_id is None:
            raise
        raise MCPError(types.INVALID_PARAMS, f"invalid {ctx.method} params: {_why(exc)}",
                       data={"method": ctx.method}) from None


def _why(exc, prefix: str = "") -> str:
    """The first problems of a pydantic validation error, as `params.name: Field required`."""
    out = []
    for error in exc.errors()[:3]:
        where = ".".join(str(part) for part in ((prefix,) if prefix else ()) + tuple(error.get("loc", ())))
        out.append(f"{where}: {error.get('msg', 'invalid')}")
    return "; ".join(out) or "invalid"


def screen(line: str) -> "types.JSONRPCError | object | None":
    """One input line as the SDK's SessionMessage, or the JSON-RPC error that answers it, or None (a blank line,
    or a malformed response: a response is never answered, so that is reported on stderr only)."""
    from mcp.shared.message import SessionMessage
    from pydantic import ValidationError

    text = line.strip()
    if not text:
        return None
    try:
        data = json.loads(text)
    except ValueError as exc:
        return _refusal(types.PARSE_ERROR, f"Parse error: not JSON ({getattr(exc, 'msg', exc)} at column "
                                           f"{getattr(exc, 'colno', '?')})", None)
    if isinstance(data, list):
        return _refusal(types.INVALID_REQUEST, "Invalid Request: a batch (JSON array) is not served, MCP "
                                               "2025-06-18 removed batching: send one message per line", None)
    if not isinstance(data, dict):
        return _refusal(types.INVALID_REQUEST, "Invalid Request: a message is a JSON object", None)
    method, rid = data.get("method"), data.get("id")
    if method is None and ("result" in data or "error" in data):
        try:
            return SessionMessage(types.jsonrpc_message_adapter.validate_python(data, by_name=False))
        except ValidationError as exc:
            print(f"jdx mcp: dropped a malformed response: {_why(exc, 'response')}", file=sys.stderr, flush=True)
            return None
    id_ok = isinstance(rid, (str, int)) and not isinstance(rid, bool)
    if "id" in data and not id_ok:
        return _refusal(types.INVALID_REQUEST, f"Invalid Request: id must be a string or an integer, got "
                                               f"{json.dumps(rid)[:40]}", None)
    reply_to = rid if id_ok else None
    if data.get("jsonrpc") != "2.0":
        return _refusal(types.INVALID_REQUEST, 'Invalid Request: "jsonrpc" must be "2.0"', reply_to)
    if not isinstance(method, str):
        what = "is missing" if method is None else "must be a string"
        return _refusal(types.INVALID_REQUEST, f'Invalid Request: "method" {what}', reply_to)
    if data.get("params") is not None and not isinstance(data["params"], dict):  # JSON-RPC allows an array; MCP not
        return _refusal(types.INVALID_PARAMS, "Invalid params: params must be an object (MCP names every parameter)",
                        reply_to)
    model = types.JSONRPCRequest if "id" in data else types.JSONRPCNotification
    try:
        return SessionMessage(model.model_validate(data, by_name=False))
    except ValidationError as exc:
        return _refusal(types.INVALID_REQUEST, f"Invalid Request: {_why(exc, 'message')}", reply_to)


def _refusal(code: int, message: str, rid) -> types.JSONRPCError:
    print(f"jdx mcp: {message}", file=sys.stderr, flush=True)
    return types.JSONRPCError(jsonrpc="2.0", id=rid, error=types.ErrorData(code=code, message=message))


async def screened(lines) -> AsyncIterator:
    """The messages (and refusals) of an async iterable of text lines."""
    async for line in lines:
        item = screen(line)
        if item is not None:
            yield item


def run_stdio(execute: Callable[..., dict], version: str = "", timeout: float | None = None,
              timeout_text: str = "", max_bytes: int = jtools.MAX_ANSWER_BYTES) -> None:
    """Serves MCP on stdin/stdout until the client closes stdin, and answers every request it read before that:
    a script that writes its requests and closes stdin (`printf ... | jdx mcp`) gets all its answers, where the
    SDK's session alone would cancel the calls still running at end of input."""
    from mcp.server.stdio import stdio_server

    server = build_server(execute, version, timeout, timeout_text, max_bytes)

    async def main() -> None:
        with _claimed_stdin() as wire:
            lines = anyio.wrap_file(wire)
            async with stdio_server(stdin=_NoLines()) as (_unused, write_stream):
                await serve_draining(server, screened(lines), write_stream)

    anyio.run(main)


class _NoLines:
    """The SDK transport's own stdin reader gets nothing: jdx reads stdin itself (`screened`)."""

    def __aiter__(self):
        return self

    async def __anext__(self):
        raise StopAsyncIteration


@contextlib.contextmanager
def _claimed_stdin():
    """The wire on stdin as a text stream for this server alone; fd 0 reads /dev/null meanwhile, so a child
    process (a decompiler, Maven's resolver) cannot eat the client's messages (what the SDK's transport does)."""
    import io

    try:
        import fcntl

        wire_fd = fcntl.fcntl(0, fcntl.F_DUPFD_CLOEXEC, 3)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.close(null)
    except (ImportError, OSError):
        wire_fd = None
    binary = os.fdopen(wire_fd, "rb", closefd=False) if wire_fd is not None else sys.stdin.buffer
    try:
        yield io.TextIOWrapper(binary, encoding="utf-8", errors="replace")
    finally:
        if wire_fd is not None:
            with contextlib.suppress(OSError):
                os.dup2(wire_fd, 0)


def _request_id(item) -> object | None:
    message = getattr(item, "message", None)
    return getattr(message, "id", None) if getattr(message, "method", None) is not None else None


def _cancelled_id(message) -> object | None:
    params = getattr(message, "params", None)
    if isinstance(params, dict):
        return params.get("requestId")
    return getattr(params, "request_id", None)


def _response_id(item) -> object | None:
    message = getattr(item, "message", None)
    return getattr(message, "id", None) if getattr(message, "method", None) is None else None


async def serve_draining(server: Server, read_stream, write_stream) -> None:
    """`server.run` between two relays: the input relay counts the requests it passes on and, at end of input,
    holds the server's input open until the output relay has passed on a response to each; then both end.
    A refusal (`screen`) in the input is written straight out; a cancelled request's answer is never written."""
    from mcp.shared._context_streams import create_context_streams
    from mcp.shared.message import SessionMessage

    to_server, server_in = create_context_streams[SessionMessage | Exception](0)
    server_out, from_server = create_context_streams[SessionMessage](0)
    pending: set = set()
    cancelled: set = set()
    ended = False
    drained = anyio.Event()

    async def relay_in() -> None:
        nonlocal ended
        async with to_server:
            async for item in read_stream:
                if isinstance(item, types.JSONRPCError):
                    await write_stream.send(SessionMessage(item))
                    continue
                if (rid := _request_id(item)) is not None:
                    pending.add(rid)
                    cancelled.discard(rid)
                elif getattr(getattr(item, "message", None), "method", None) == "notifications/cancelled":
                    rid = _cancelled_id(item.message)
                    if rid in pending:
                        pending.discard(rid)  # a cancelled request is never answered
                        cancelled.add(rid)
                        if ended and not pending:
                            drained.set()
                await to_server.send(item)
            ended = True
            if pending:
                await drained.wait()

    async def relay_out() -> None:
        async with write_stream:
            async for item in from_server:
                rid = _response_id(item)
                if rid is not None and rid in cancelled:
                    cancelled.discard(rid)
                    continue
                await write_stream.send(item)
                if rid is not None:
                    pending.discard(rid)
                    if ended and not pending:
                        drained.set()

    try:
        async with anyio.create_task_group() as tg:
            tg.start_soon(relay_in)
            tg.start_soon(relay_out)
            await server.run(server_in, server_out, server.create_initialization_options())
            tg.cancel_scope.cancel()
    finally:
        for stream in (to_server, server_in, server_out, from_server):
            stream.close()
