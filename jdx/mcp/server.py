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
    """Serves MCP on stdin/stdout until the client closes stdin."""
    from mcp.server.stdio import stdio_server

    server = build_server(execute, version)

    async def main() -> None:
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    anyio.run(main)
