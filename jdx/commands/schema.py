"""`jdx schema` (spec §7.4): what the graph behind `jdx cypher` holds, with this workspace's row counts."""

from __future__ import annotations

from dataclasses import dataclass

from jdx.commands.registry import Command, Request


@dataclass(frozen=True)
class SchemaRequest(Request):
    query: str = ""  # no argument: the envelope's query stays empty


def run_schema(session, _req: SchemaRequest):
    from jdx.engine.answer import Answer
    from jdx.engine.schema_info import describe

    return Answer(describe(session.store()), [],
                  provenance=[{"symbol": "schema", "origin": "bytecode",
                               "detail": "the workspace graph's tables and row counts"}])


def _render(result: dict, req: SchemaRequest) -> list[str]:
    from jdx.render import schema

    return schema.schema(result, req.brief)


COMMANDS = (
    Command("schema", "The graph's node and relationship tables, properties, row counts and example queries.",
            "jdx schema", SchemaRequest, run_schema, _render, next_hint="cypher with one of the example queries"),
)
