"""The command registry (DESIGN.md §3, STYLE.md principle 9): one object per query command.

A command is data: its name, a frozen request type whose fields carry their flags, defaults, help and
validation, `run(session, request) -> Answer`, a text renderer and an example. Every adapter is a loop over
`REGISTRY` (the CLI's argument parser and help, `batch`, the daemon, `help --agent`), so a command added
here appears everywhere at once and the same question gets the same bytes from each of them.

This module and the request modules it lists import only the standard library at import time: the thin
CLI client parses a command line with them before deciding whether a daemon answers it.
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from jdx.errors import UsageError

KINDS = ("bool", "int", "str", "list")


@dataclass(frozen=True)
class Param:
    """How one request field is spelled on the command line and on the wire."""

    name: str  # the field name, and the wire's params key
    flag: str  # "--kind"; "" for the positional query
    help: str
    kind: str  # bool | int | str | list (repeatable text)
    default: Any
    choices: tuple[str, ...] = ()
    negative: str | None = None  # "--declared" beside "--inherited"
    metavar: str = ""
    required: bool = False  # only the positional query
    minimum: int | None = None
    writes: bool = False  # writes files where the caller says (diff --out): only the local CLI takes it
    accepts: tuple[str, ...] = ()  # the values MCP/HTTP schemas list where the command checks them itself


def option(default, flag: str, help: str, *, kind: str | None = None, choices: tuple[str, ...] = (),
           negative: str | None = None, metavar: str = "", minimum: int | None = None, writes: bool = False,
           accepts: tuple[str, ...] = ()):
    """A request field set by `--flag` (a bool, an int, a text or a repeatable text list); `accepts` lists the values
    a schema offers for a field whose command checks them itself (its own aliases and error text), unlike `choices`."""
    if kind is None:
        kind = ("bool" if isinstance(default, bool) else "int" if isinstance(default, int)
                else "list" if isinstance(default, tuple) else "str")
    assert kind in KINDS, kind
    meta = {"flag": flag, "help": help, "kind": kind, "choices": tuple(choices), "negative": negative,
            "metavar": metavar, "minimum": minimum, "writes": writes, "accepts": tuple(accepts)}
    return field(default=default, metadata={"jdx": meta})


def argument(help: str, metavar: str, *, required: bool = True):
    """The positional query (a type, member, pattern, glob): the request's `query` field."""
    meta = {"flag": "", "help": help, "kind": "str", "choices": (), "negative": None, "metavar": metavar,
            "minimum": None, "required": required}
    return field(default="", metadata={"jdx": meta})


@dataclass(frozen=True)
class Request:
    """Fields every command shares: the text budget of spec §8.3 (applies to text output)."""

    query: str = ""  # the positional operand; a command that takes one redeclares it with `argument`
    max_lines: int | None = option(None, "--max-lines", "cap the text output at N lines; the cut is stated",
                                   kind="int", minimum=1)
    brief: bool = option(False, "--brief", "minimal output: bare rows, no headers, no doc")

    def __post_init__(self) -> None:
        for p in params_of(type(self)):
            value = getattr(self, p.name)
            if p.required and not value:
                raise UsageError(f"missing {p.metavar}")
            if p.minimum is not None and value is not None and value < p.minimum:
                raise UsageError(f"{p.flag} must be at least {p.minimum}")
            if p.choices and value is not None:
                for v in (value if p.kind == "list" else (value,)):
                    if v not in p.choices:
                        raise UsageError(f"{p.flag} {v!r}: use {'|'.join(p.choices)}")
        self.validate()

    def validate(self) -> None:
        """Cross-field rules of a command (e.g. --static and --instance exclude each other)."""

    def asked(self) -> str:
        """What the envelope's `query` says was asked: the positional operand(s)."""
        return self.query


@dataclass(frozen=True)
class Command:
    name: str
    summary: str  # one line: what it answers
    example: str  # a complete command line, `jdx ...`
    request: type  # a frozen Request subclass
    run: Callable[[Any, Any], Any]  # (session, request) -> Answer
    render: Callable[[dict, Any], list[str]]  # (JSON-decoded result, request) -> text lines
    truncation: Callable[[dict, Any], dict | None] | None = None  # text-only cut (--max-lines) of the renderer
    next_hint: str = ""  # which command to call next (MCP tool descriptions, help --agent)
    wire: bool = True  # read-only: served by the daemon, MCP and HTTP
    needs_workspace: bool = True
    forwarded: bool = True  # a one-shot CLI call goes to a running daemon (diff: no, spec §7.7; nor a command that
    # reads no graph, version and doctor: starting a daemon for them holds a process for nothing)
    comment: str = ""  # the text is code to paste (imports: Java): its warning lines are comments (`// `)


def renderer(module: str, function: str, brief: bool = False) -> Callable[[dict, Any], list[str]]:
    """A text renderer `jdx.render.<module>.<function>(result)`, imported on first use (the thin client never pays
    for renderers it does not print); `brief`: it also takes the request's `--brief` (bare rows)."""

    def render(result: dict, request) -> list[str]:
        fn = getattr(importlib.import_module(f"jdx.render.{module}"), function)
        return fn(result, brief=bool(getattr(request, "brief", False))) if brief else fn(result)

    return render


def params_of(request_type: type) -> tuple[Param, ...]:
    """The request's fields as Params, the positional query first."""
    cached = _PARAMS.get(request_type)
    if cached is not None:
        return cached
    out = []
    for f in dataclasses.fields(request_type):
        meta = f.metadata.get("jdx")
        if meta is None:
            continue
        out.append(Param(name=f.name, flag=meta["flag"], help=meta["help"], kind=meta["kind"], default=f.default,
                         choices=meta["choices"], negative=meta["negative"], metavar=meta["metavar"],
                         required=meta.get("required", False), minimum=meta["minimum"],
                         writes=meta.get("writes", False), accepts=meta.get("accepts", ())))
    out.sort(key=lambda p: p.flag != "")
    _PARAMS[request_type] = tuple(out)
    return _PARAMS[request_type]


_PARAMS: dict[type, tuple[Param, ...]] = {}


def served_params(request_type: type) -> tuple[Param, ...]:
    """The fields MCP and HTTP take: every one but those that write files where the caller says (spec §17: jdx
    writes only inside its own directories; a local server must not write for whoever reaches its port)."""
    return tuple(p for p in params_of(request_type) if not p.writes)


def refuse_writes(cmd: "Command", names) -> None:
    """A usage error when a served request names a field that writes files (`diff --out`)."""
    writing = sorted(p.flag for p in params_of(cmd.request) if p.writes and p.name in names)
    if writing:
        raise UsageError(f"{cmd.name} {writing[0]}: writes files, which MCP and HTTP do not do; run "
                         f"jdx {cmd.name} {writing[0]} on the command line")

# one module per area; each defines COMMANDS, a tuple of Command
MODULES = ("jdx.commands.cards", "jdx.commands.graph", "jdx.commands.search", "jdx.commands.source",
           "jdx.commands.samples", "jdx.commands.diff", "jdx.commands.foundation", "jdx.commands.schema")


def registry() -> tuple[Command, ...]:
    """Every registered command, in help order."""
    global _REGISTRY
    if _REGISTRY is None:
        found: list[Command] = []
        for name in MODULES:
            found.extend(importlib.import_module(name).COMMANDS)
        names = [c.name for c in found]
        assert len(names) == len(set(names)), names
        _REGISTRY = tuple(found)
    return _REGISTRY


_REGISTRY: tuple[Command, ...] | None = None


# which module defines each command: `command(name)` imports that one module, not all of them (the thin client's
# path to a running daemon; ~30 request dataclasses made ~10 ms of every such CLI call).
# tests/cli/test_registry.py holds it equal to the registry.
HOMES = {
    "show": "cards", "members": "cards", "outline": "cards", "signature": "cards",
    "hierarchy": "graph", "implementors": "graph", "overrides": "graph", "usages": "graph", "callers": "graph",
    "calls": "graph", "search": "search", "resolve": "search", "imports": "search", "ls": "search", "tree": "search",
    "body": "source", "source": "source", "doc": "source", "samples": "samples", "diff": "diff",
    "cypher": "foundation", "version": "foundation", "doctor": "foundation", "schema": "schema",
}


def command(name: str) -> Command | None:
    home = HOMES.get(name)
    if home is not None and _REGISTRY is None:
        found = next((c for c in importlib.import_module(f"jdx.commands.{home}").COMMANDS if c.name == name), None)
        if found is not None:
            return found
    return next((c for c in registry() if c.name == name), None)


def wire_commands() -> frozenset[str]:
    """The commands a daemon, MCP or HTTP client may send (spec §14.5: read-only queries, plus health)."""
    return frozenset(c.name for c in registry() if c.wire) | {"health"}


def build_request(cmd: Command, query: str, params: dict[str, Any]):
    """The typed request from wire params (canonical text values, lists for repeatable flags).

    Unknown params and malformed values are usage errors naming the flag; nothing is guessed.
    """
    by_name = {p.name: p for p in params_of(cmd.request)}
    values: dict[str, Any] = {}
    query_param = next((p for p in by_name.values() if not p.flag), None)
    if query_param is not None:
        values["query"] = query or ""
    elif query:
        raise UsageError(f"{cmd.name} takes no argument (got {query!r})")
    for key, raw in params.items():
        p = by_name.get(key)
        if p is None or p is query_param:
            # a negative flag's name (`declared` of --inherited/--declared) is the field's false
            negated = next((q for q in by_name.values() if q.negative == _flag_of(key)), None)
            raise UsageError(f"{cmd.name}: unknown option {_flag_of(key)}"
                             + (f" (send {negated.name}=false)" if negated is not None else ""))
        values[key] = convert(p, raw)
    return cmd.request(**values)


def _flag_of(key: str) -> str:
    return "--" + key.replace("_", "-")


def convert(p: Param, raw: Any) -> Any:
    """One wire value (text, or a list of texts for repeatable flags) as the field's Python value."""
    if p.kind == "list":
        items = raw if isinstance(raw, (list, tuple)) else [raw]
        out: list[str] = []
        for item in items:
            if not isinstance(item, str):
                raise UsageError(f"{p.flag} takes text values")
            out.extend(x for x in item.split(",") if x) if p.choices else out.append(item)
        return tuple(out)
    if isinstance(raw, (list, tuple)):
        if len(raw) != 1:
            raise UsageError(f"{p.flag} takes one value")
        raw = raw[0]
    if not isinstance(raw, str):
        raise UsageError(f"{p.flag} takes a text value")
    if p.kind == "bool":
        if raw in ("true", "false"):
            return raw == "true"
        raise UsageError(f"{p.flag}: expected true or false, got {raw!r}")
    if p.kind == "int":
        try:
            return int(raw)
        except ValueError:
            raise UsageError(f"{p.flag} takes a whole number, got {raw!r}") from None
    return raw


def canonical_params(request) -> dict[str, Any]:
    """The wire params of a request: fields that differ from their defaults, as canonical text."""
    out: dict[str, Any] = {}
    for p in params_of(type(request)):
        if p.name == "query" and not p.flag:
            continue
        value = getattr(request, p.name)
        if value == p.default:
            continue
        if p.kind == "list":
            out[p.name] = list(value)
        elif p.kind == "bool":
            out[p.name] = "true" if value else "false"
        elif value is not None:
            out[p.name] = str(value)
    return dict(sorted(out.items()))
