"""MCP tools generated from the command registry (spec §14.2), independent of the MCP SDK.

One tool per wire command, named `jdx_<command>`, plus `jdx_workspace`. A tool's input schema comes from
the command's request type: the positional query is `query`, every flag keeps its request field name
(`max_lines`, `include_synthetic`, `from_type`), each with its JSON type, default, choices and help. A
call becomes a wire request (spec §14.5) answered by the same `answer_request` the CLI uses, so the
structured content is the `--json` envelope's result, warnings, truncation and provenance, and the text
content is the CLI's text rendering of the same envelope; wherever jdx's own words name a flag, they name the
argument instead (`--limit 80` reads `limit 80`: jdx.commands.host.Spelling), and `--json` (what the CLI's `--json`
holds in full) reads `structuredContent`. Arguments are checked as HTTP checks its parameters, with the same
messages (jdx.commands.host.check_arguments: names and JSON types, then the wire's values). A source or body text
is cut at 400 lines unless the call says otherwise, in the structured content as in the text (`bounded`). Every
answer is at most 1 MB, text and structured content together (`within_bytes`): past it, a command that takes `limit` is
asked again with a limit that fits, and `truncated` states the bound (spec §8.3: never a silent flood).
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
# the CLI's text says what its `--json` form holds in full (`… 27 more JDK internals (--json lists every candidate)`):
# a tool's structured content holds the same
_STRUCTURED = {"--json": "structuredContent"}


@dataclass(frozen=True)
class ToolSpec:
    name: str  # jdx_<command>
    command: str  # the registry command, or "workspace"
    description: str
    input_schema: dict


# a tool whose answer is a file's or a body's text: a call that names no max_lines gets this many lines, the text and
# the structured result cut alike, the cut stated in `truncated` (a whole class can be 100 KB of text); what shows more
_BOUNDED = {"source": 400, "body": 400}
_MORE = {"source": "max_lines N for all, lines A:B or around a member for a part", "body": "max_lines N for all"}
# a tool whose query is no symbol to resolve: the errors it answers beside USAGE (else NOT_FOUND and AMBIGUOUS)
_ERRORS = {"cypher": "USAGE says why the query cannot run, CYPHER_REFUSED names a clause jdx does not run (a "
                     "write, a file, an extension).",
           "diff": "ARTIFACT_READ_ERROR names a side that cannot be read (no such file, a coordinate not in the "
                   "local Maven repository)."}
_SYMBOL_ERRORS = "NOT_FOUND lists near matches, AMBIGUOUS lists candidates to re-ask with one of them."
# an answer's bound, in bytes of its text and its structured content's JSON together: a client that is a model
# cannot take 157 MB of Cypher rows on one line
MAX_ANSWER_BYTES = 1 << 20
FIT_ASKS = 6  # asks of a command to fit its answer in the bound (`within_bytes`)
WIRE_SLACK = 128  # room the bound leaves in the reply's line for a request's id (up to 64 characters) and the SDK's fields
# the `--limit N` part of a command's hint (`--limit 1868, or narrow with …`): past the bound, a higher limit shows
# no more
_LIMIT_HINT = re.compile(r"^(--)?limit \d+(, or |; |$)")
# a next step the CLI's words give that a call cannot take: diff's `--jars NEW` opens another workspace
_NEXT = {"diff": "members of a changed type, asked of a server on the new side (jdx mcp --jars NEW): a server "
                 "answers for the workspace on its own command line"}


@functools.cache
def tool_specs() -> tuple[ToolSpec, ...]:
    """Every tool, registry order, `jdx_workspace` last (built once: the registry is fixed for a process)."""
    from jdx.commands import workspace_info
    from jdx.commands.registry import params_of, registry

    wired = [c for c in registry() if c.wire]
    tools = {c.name for c in wired} | {WORKSPACE}
    specs = []
    for c in wired:
        asks = any(not p.flag for p in params_of(c.request))
        text = describe(c.summary, c.example, _NEXT.get(c.name, c.next_hint), tools - {c.name},
                        _ERRORS.get(c.name, _SYMBOL_ERRORS) if asks else "")
        if c.name in _BOUNDED:
            text += (f"\nText past {_BOUNDED[c.name]} lines is cut unless max_lines says otherwise, the structured "
                     f"result with it; truncated states the cut and what shows more ({_MORE[c.name]}).")
        if _takes_limit(c.name):
            text += (f"\nAn answer past {_size(MAX_ANSWER_BYTES)} is cut to the limit that fits; truncated states the "
                     f"cut and what shows more.")
        specs.append(ToolSpec(PREFIX + c.name, c.name, text, input_schema(c.request, _BOUNDED.get(c.name))))
    specs.append(ToolSpec(PREFIX + WORKSPACE, WORKSPACE,
                          describe(workspace_info.SUMMARY, workspace_info.EXAMPLE, workspace_info.NEXT,
                                   tools - {WORKSPACE}),
                          {"type": "object", "properties": {}, "additionalProperties": False}))
    return tuple(specs)


def describe(summary: str, example: str, next_hint: str, tools: frozenset[str] | set[str] = frozenset(),
             errors: str = "") -> str:
    """What the tool answers, one example (the CLI line it equals, or the call itself), which tool to call next,
    how errors come back (`errors`: the codes a tool taking a query answers beside USAGE, what they carry). Another
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
    text += "\nErrors come back as tool errors whose text starts with the code" + (f": {errors}" if errors else ".")
    return text


def input_schema(request_type: type, bound: int | None = None) -> dict:
    """The JSON schema of a request type: the query first, then the flags as snake_case properties; `bound`: the
    default max_lines of a tool whose text is cut unasked (`_BOUNDED`)."""
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
        if p.name == "max_lines" and bound:
            prop["default"] = bound
            what += f" (default {bound} here, the structured result cut alike)"
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
    does not take is refused with those it takes, a value of a JSON type the argument never takes is refused
    (jdx.commands.host.check_arguments: `include: expected text or a list of texts, got a number`), values become
    the wire's canonical text (spec §14.5: `5` -> "5", `true` -> "true"), which `build_request` then reads as the CLI
    reads a flag's value, with its messages (`limit takes a whole number, got 'abc'`)."""
    from jdx.commands import wire

    args = dict(arguments or {})
    check_arguments(command, {k: args[k] for k in sorted(args) if k != "query"})
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
    def size(self) -> int:
        """Bytes of the answer's JSON-RPC line on the wire: its text (a JSON string: escaped) and its structured
        content's JSON, both sent, in the reply's frame (WIRE_SLACK: the id and the fields the SDK adds)."""
        reply = {"jsonrpc": "2.0", "id": "", "result": {"content": [{"type": "text", "text": self.text}],
                                                        "structuredContent": self.structured,
                                                        "isError": self.is_error}}
        return len(_dumps(reply).encode("utf-8")) + WIRE_SLACK

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


def call_tool(execute, name: str, arguments: dict[str, Any] | None, max_bytes: int = MAX_ANSWER_BYTES) -> ToolAnswer:
    """Answers one tool call with `execute(command, query, params) -> envelope` (a Host's, warm), within `max_bytes`
    of text and of structured content each (`within_bytes`)."""
    from jdx.commands.execute import failure

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
    answer = _answered(execute, tool, query, params)
    if answer.size <= max_bytes or answer.is_error or not _takes_limit(tool):
        return answer
    return within_bytes(execute, tool, query, params, answer, max_bytes)


def _answered(execute, tool: str, query: str, params: dict) -> ToolAnswer:
    from jdx.commands.registry import build_request, command

    env = json.loads(_dumps(execute(tool, query, params)))  # as a client decodes it: same text as the CLI's
    env = spelled_as_arguments(env)
    cmd = command(tool)
    request = None
    if cmd is not None and env.get("ok"):
        env = bounded(tool, env, params)
        request = build_request(cmd, query, params)
    return _answer(env, cmd, request)


def within_bytes(execute, tool: str, query: str, params: dict, whole: ToolAnswer, max_bytes: int) -> ToolAnswer:
    """`whole`, an answer over `max_bytes` (its text and its structured content's JSON together) of a tool that takes
    `limit`, asked again with a limit that fits: the command's own cut (whole entities, its own counts, spec §8.3),
    with `truncated` stating the bound and what shows more. Entries are not alike (a table's text pads every row to
    its widest): each ask guesses the limit from the last answer's bytes per entry, up to FIT_ASKS asks, and keeps the
    largest that fits once it fills most of the bound."""
    from jdx.commands.registry import build_request, command

    total = _entries(whole.envelope, params)

    def cut(shown: int) -> ToolAnswer:  # the answer at `shown` entries as it is sent: its `truncated` the bound's
        fitted = {**params, "limit": str(shown)}
        answer = _answered(execute, tool, query, fitted)
        if answer.is_error or shown >= total:
            return answer
        env = {**answer.envelope, "truncated": _byte_cut(answer.envelope, whole.envelope, shown, max_bytes)}
        return _answer(env, command(tool), build_request(command(tool), query, fitted))

    low, high = 0, total  # the most entries known to fit, the fewest known not to
    best: ToolAnswer | None = None
    shown, answer = total, whole
    for _ in range(FIT_ASKS):
        guess = int(shown * max_bytes * 0.9 / max(answer.size, 1))
        shown = guess if low < guess < high else (low + high) // 2
        if shown <= low:
            break
        answer = cut(shown)
        if answer.is_error:
            return answer
        if answer.size > max_bytes:
            high = shown
            continue
        low, best = shown, answer
        if answer.size >= max_bytes * 0.75:
            break
    return best if best is not None else cut(1)  # not even one entry fits: the first one, whole


def _takes_limit(command: str) -> bool:
    from jdx.commands.registry import command as lookup
    from jdx.commands.registry import params_of

    cmd = lookup(command)
    return cmd is not None and any(p.name == "limit" for p in params_of(cmd.request))


def _entries(env: dict, params: dict) -> int:
    """How many entries an answer holds, as its command's `limit` counts them (0: not known)."""
    cut, result = env.get("truncated") or {}, env.get("result") or {}
    shown = cut.get("shown") or (result.get("total") if isinstance(result, dict) else None) or params.get("limit")
    return int(shown) if str(shown or "").isdigit() else 0


def _byte_cut(env: dict, whole: dict, shown: int, max_bytes: int) -> dict:
    """The `truncated` of an answer cut to `max_bytes`: the entries shown, the total, the bound, and what shows more
    (the command's own hint past its `--limit N`, which the bound overrides: LIMIT/SKIP, narrowing)."""
    cut, was = env.get("truncated") or {}, whole.get("truncated") or {}
    total = was.get("total") or cut.get("total") or (whole.get("result") or {}).get("total") or shown
    rest = _LIMIT_HINT.sub("", cut.get("hint") or was.get("hint") or "")
    more = f"{rest}, or" if rest else "narrow the question, or"
    return {"shown": cut.get("shown", shown), "total": total,
            "hint": f"cut to fit the answer bound of {_size(max_bytes)}: {more} ask the CLI for all"}


def _size(n: int) -> str:
    return f"{n >> 20} MB" if n % (1 << 20) == 0 else f"{n >> 10} KB" if n % (1 << 10) == 0 else f"{n} bytes"


def bounded(command: str, env: dict, params: dict) -> dict:
    """A source or body answer (`_BOUNDED`) cut at the call's max_lines, else at the tool's default, in the result as
    in the text: `result.text` holds the lines shown, `truncated` states the cut and what shows more (the CLI's
    `--max-lines` cuts its text only; its `--json` result is whole)."""
    result = env.get("result")
    if command not in _BOUNDED or not isinstance(result, dict) or not isinstance(result.get("text"), list):
        return env
    keep, total = int(params.get("max_lines") or _BOUNDED[command]), len(result["text"])
    if total <= keep:
        return env
    hint = f"max_lines {total} for all"
    first = result.get("first_line")
    if command == "source":
        rest = f"lines {first + keep}:{first + total - 1}" if isinstance(first, int) else "lines A:B"
        hint += f"; {rest} for the rest, or around a member"
    return {**env, "result": {**result, "text": result["text"][:keep]},
            "truncated": {"shown": keep, "total": total, "hint": hint}}


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
        text = spelled_text(text_of(env, cmd, request)[0], env, _STRUCTURED)
    if not env.get("ok"):  # the code in place of the CLI's `error: ` (a not-found or ambiguous answer has none)
        code = (env.get("error") or {}).get("code", "INTERNAL")
        text = f"{code}: {text.removeprefix('error: ')}"  # named once, in front (never in the message)
    return ToolAnswer(env, text, not env.get("ok"))


def _dumps(env: dict) -> str:
    from jdx.render.envelope import dumps

    return dumps(env)
