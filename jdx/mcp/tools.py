"""MCP tools generated from the command registry (spec §14.2), independent of the MCP SDK.

One tool per wire command, named `jdx_<command>`, plus `jdx_workspace`. A tool's input schema comes from
the command's request type: the positional query is `query`, every flag keeps its request field name
(`max_lines`, `include_synthetic`, `from_type`), each with its JSON type, default, choices and help. A
call becomes a wire request (spec §14.5) answered by the same `answer_request` the CLI uses, so the
structured content is the `--json` envelope's result, warnings, truncation and provenance, and the text
content is the CLI's text rendering of the same envelope; wherever jdx's own words name a flag, they name the
argument instead (`--limit 80` reads `limit 80`: jdx.commands.host.Spelling). Arguments are checked as HTTP
checks its parameters, with the same messages (jdx.commands.host.check_arguments, then the wire's values).
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from typing import Any

from jdx.commands.host import ONE_WORKSPACE, WORKSPACE, check_arguments, spelled_as_arguments
from jdx.errors import UsageError

PREFIX = "jdx_"
_JSON_TYPES = {"bool": "boolean", "int": "integer", "str": "string"}
_CLI_COMMAND = re.compile(r"\bjdx ([a-z]+)\b")


@dataclass(frozen=True)
class ToolSpec:
    name: str  # jdx_<command>
    command: str  # the registry command, or "workspace"
    description: str
    input_schema: dict


@functools.cache
def tool_specs() -> tuple[ToolSpec, ...]:
    """Every tool, registry order, `jdx_workspace` last (built once: the registry is fixed for a process)."""
    from jdx.commands import workspace_info
    from jdx.commands.registry import params_of, registry

    wired = [c for c in registry() if c.wire]
    tools = {c.name for c in wired} | {WORKSPACE}
    specs = [ToolSpec(PREFIX + c.name, c.name, describe(c.summary, c.example, c.next_hint, tools - {c.name},
                                                        asks=any(not p.flag for p in params_of(c.request))),
                      input_schema(c.request)) for c in wired]
    specs.append(ToolSpec(PREFIX + WORKSPACE, WORKSPACE,
                          describe(workspace_info.SUMMARY, workspace_info.EXAMPLE, workspace_info.NEXT,
                                   tools - {WORKSPACE}),
                          {"type": "object", "properties": {}, "additionalProperties": False}))
    return tuple(specs)


def describe(summary: str, example: str, next_hint: str, tools: frozenset[str] | set[str] = frozenset(),
             asks: bool = False) -> str:
    """What the tool answers, one example (the CLI line it equals, or the call itself), which tool to call next,
    how errors come back (near matches and candidates only where the tool takes a query to resolve). Another
    command of `tools` that the summary or next step names as a CLI command (`jdx schema`) is named as its tool
    (`jdx_schema`)."""
    def as_tools(text: str) -> str:
        return _CLI_COMMAND.sub(lambda m: PREFIX + m.group(1) if m.group(1) in tools else m.group(0), text)

    text = as_tools(summary)
    if example:
        cli = example.startswith("jdx ")
        text += f"\nExample{' (the same question on the CLI)' if cli else ''}: {example}"
    if next_hint:
        text += f"\nNext: {as_tools(next_hint)}"
    text += "\nErrors come back as tool errors whose text starts with the code" + (
        ": NOT_FOUND lists near matches, AMBIGUOUS lists candidates to re-ask with one of them." if asks else ".")
    return text


def input_schema(request_type: type) -> dict:
    """The JSON schema of a request type: the query first, then the flags as snake_case properties."""
    from jdx.commands.host import Spelling
    from jdx.commands.registry import served_params

    spell = Spelling(None, request_type)
    props: dict[str, dict] = {}
    required: list[str] = []
    for p in served_params(request_type):
        prop: dict[str, Any] = {}
        if p.kind == "list":
            item: dict[str, Any] = {"type": "string"}
            if p.choices or p.accepts:
                item["enum"] = list(p.choices or p.accepts)
            prop = {"type": "array", "items": item}
            if p.default:
                prop["default"] = list(p.default)
        else:
            prop = {"type": _JSON_TYPES[p.kind]}
            if p.choices or p.accepts:
                prop["enum"] = list(p.choices or p.accepts)
            if p.default is not None and not (p.kind == "str" and p.default == "" and not p.flag):
                prop["default"] = p.default
            if p.minimum is not None:
                prop["minimum"] = p.minimum
        what = spell(p.help + (f" ({p.metavar})" if p.metavar and not p.flag else ""))  # its arguments' names
        prop["description"] = what + (f"; CLI {p.flag}" if p.flag else "")
        props[p.name] = prop
        if p.required:
            required.append(p.name)
    schema: dict[str, Any] = {"type": "object", "properties": props, "additionalProperties": False}
    if required:
        schema["required"] = required
    return schema


def wire_params(command: str, arguments: dict[str, Any] | None) -> tuple[str, dict[str, Any]]:
    """Tool arguments as a wire request's (query, params), through the path HTTP takes: an argument the command
    does not take is refused with those it takes (jdx.commands.host.check_arguments), values become the wire's
    canonical text (spec §14.5: `5` -> "5", `true` -> "true"), which `build_request` then reads as the CLI reads a
    flag's value, with its messages (`limit takes a whole number, got 'abc'`)."""
    from jdx.commands import wire

    args = dict(arguments or {})
    check_arguments(command, sorted(k for k in args if k != "query"))
    try:
        request = wire.decode_request(json.dumps({"command": command, "query": args.pop("query", None),
                                                  "params": args}), frozenset({command}))
    except wire.WireError as exc:  # a tool call is no wire line: its refusal is a usage error
        raise UsageError(exc.message) from None
    return request.query, dict(request.params)


@dataclass
class ToolAnswer:
    """One tool call's answer: the envelope, its text rendering, and whether it is a tool error."""

    envelope: dict
    text: str
    is_error: bool

    @property
    def structured(self) -> dict:
        """Structured content: the result with warnings, truncation and provenance, or the error with candidates."""
        env = self.envelope
        if env.get("ok"):
            return {"result": env.get("result"), "truncated": env.get("truncated"),
                    "warnings": env.get("warnings") or [], "provenance": env.get("provenance") or []}
        out = {"error": env.get("error"), "candidates": env.get("candidates") or [],
               "warnings": env.get("warnings") or []}
        if "result" in env:
            out["result"] = env["result"]
        return out


def call_tool(execute, name: str, arguments: dict[str, Any] | None) -> ToolAnswer:
    """Answers one tool call with `execute(command, query, params) -> envelope` (a Host's, warm)."""
    from jdx.commands.execute import failure
    from jdx.commands.registry import build_request, command

    tool = name[len(PREFIX):] if name.startswith(PREFIX) else ""
    specs = _tool_names()
    if name not in specs:
        env = failure(tool or name, "", UsageError(f"unknown tool {name!r}; tools: {', '.join(sorted(specs))}"))
        return _answer(env.envelope, None, None)
    try:
        if isinstance(arguments, dict) and WORKSPACE in arguments:
            raise UsageError(ONE_WORKSPACE)
        if tool == WORKSPACE and arguments:
            raise UsageError(f"{name} takes no arguments (got {', '.join(sorted(arguments))})")
        query, params = wire_params(tool, arguments)
    except UsageError as exc:
        return _answer(failure(tool, "", exc).envelope, None, None)
    env = json.loads(_dumps(execute(tool, query, params)))  # as a client decodes it: same text as the CLI's
    env = spelled_as_arguments(env)
    cmd = command(tool)
    request = None
    if cmd is not None and env.get("ok"):
        request = build_request(cmd, query, params)
    return _answer(env, cmd, request)


@functools.cache
def _tool_names() -> frozenset[str]:
    return frozenset(s.name for s in tool_specs())


def error_answer(env: dict) -> ToolAnswer:
    """A failure envelope the server made itself (a call past the server's `--timeout`) as a tool error."""
    return _answer(spelled_as_arguments(env), None, None)


def _answer(env: dict, cmd, request) -> ToolAnswer:
    from jdx.commands import workspace_info
    from jdx.commands.execute import text_of
    from jdx.commands.host import spelled_text

    if env.get("ok") and env.get("command") == WORKSPACE:
        text = "\n".join(workspace_info.render(env["result"]))
    else:
        text = spelled_text(text_of(env, cmd, request)[0], env)
    if not env.get("ok"):  # the code in place of the CLI's `error: ` (a not-found or ambiguous answer has none)
        code = (env.get("error") or {}).get("code", "INTERNAL")
        text = f"{code}: {text.removeprefix('error: ').replace(f' ({code})', '', 1)}"  # named once, in front
    return ToolAnswer(env, text, not env.get("ok"))


def _dumps(env: dict) -> str:
    from jdx.render.envelope import dumps

    return dumps(env)
