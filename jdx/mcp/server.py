"""`jdx mcp` (spec §14.2): an MCP server over stdio, built on the official SDK (`pip install 'jdx[mcp]'`).

The SDK's low-level `Server` is used rather than `MCPServer`'s decorated functions: the tools, their JSON
schemas and their error results are generated from the command registry (jdx.mcp.tools), not from Python
signatures. One Host holds the workspace graph for the server's life, so calls answer warm; queries run
one at a time on a worker thread, off the event loop. This module is imported only by `jdx mcp`.
"""

from __future__ import annotations

from collections.abc import Callable

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server

from jdx.mcp import tools as jtools

INSTRUCTIONS = ("jdx answers questions about JVM code (jars, class dirs, the JDK) from bytecode: members, "
                "signatures, hierarchy, usages, callers, bodies, docs, search. References look like pkg.Type, "
                "pkg.Type#method, pkg.Type#method(ParamType). Start with jdx_workspace or jdx_search; an "
                "AMBIGUOUS error lists candidates to re-ask with; a cut answer names the argument that shows more.")


def build_server(execute: Callable[[str, str, dict], dict], version: str = "") -> Server:
    """The MCP server: every registry tool, answered through `execute(command, query, params) -> envelope`."""
    from jdx.commands.execute import served

    execute = served(execute)
    specs = jtools.tool_specs()
    listed = [types.Tool(name=s.name, description=s.description, input_schema=s.input_schema,
                         annotations=types.ToolAnnotations(read_only_hint=True, destructive_hint=False,
                                                           idempotent_hint=True, open_world_hint=False))
              for s in specs]
    schemas = {s.name: s.input_schema for s in specs}

    async def list_tools(_ctx, _params) -> types.ListToolsResult:
        return types.ListToolsResult(tools=listed)

    async def call_tool(_ctx, params: types.CallToolRequestParams) -> types.CallToolResult:
        answer = await anyio.to_thread.run_sync(jtools.call_tool, execute, params.name, params.arguments)
        return result_of(answer)

    return Server("jdx", version=version, instructions=INSTRUCTIONS, get_tool_input_schema=schemas.get,
                  on_list_tools=list_tools, on_call_tool=call_tool)


def result_of(answer: jtools.ToolAnswer) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=answer.text)],
                                structured_content=answer.structured, is_error=answer.is_error)


def run_stdio(execute: Callable[[str, str, dict], dict], version: str = "") -> None:
    """Serves MCP on stdin/stdout until the client closes stdin, and answers every request it read before that:
    a script that writes its requests and closes stdin (`printf ... | jdx mcp`) gets all its answers, where the
    SDK's session alone would cancel the calls still running at end of input."""
    from mcp.server.stdio import stdio_server

    server = build_server(execute, version)

    async def main() -> None:
        async with stdio_server() as (read_stream, write_stream):
            await serve_draining(server, read_stream, write_stream)

    anyio.run(main)


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
    holds the server's input open until the output relay has passed on a response to each; then both end."""
    from mcp.shared._context_streams import create_context_streams
    from mcp.shared.message import SessionMessage

    to_server, server_in = create_context_streams[SessionMessage | Exception](0)
    server_out, from_server = create_context_streams[SessionMessage](0)
    pending: set = set()
    ended = False
    drained = anyio.Event()

    async def relay_in() -> None:
        nonlocal ended
        async with to_server:
            async for item in read_stream:
                if (rid := _request_id(item)) is not None:
                    pending.add(rid)
                elif getattr(getattr(item, "message", None), "method", None) == "notifications/cancelled":
                    pending.discard(_cancelled_id(item.message))  # a cancelled request is never answered
                await to_server.send(item)
            ended = True
            if pending:
                await drained.wait()

    async def relay_out() -> None:
        async with write_stream:
            async for item in from_server:
                await write_stream.send(item)
                if (rid := _response_id(item)) is not None:
                    pending.discard(rid)
                    if ended and not pending:
                        drained.set()

    async with anyio.create_task_group() as tg:
        tg.start_soon(relay_in)
        tg.start_soon(relay_out)
        await server.run(server_in, server_out, server.create_initialization_options())
        tg.cancel_scope.cancel()
