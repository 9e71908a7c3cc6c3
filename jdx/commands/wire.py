"""The wire contract of spec §14.5, written and read in this one module.

A request is one newline-terminated JSON line with keys in fixed order and sorted params, values
as canonical text, so equal requests are byte-equal:

    {"jdx":1,"command":"members","query":"com.google.gson.Gson","params":{"inherited":"true"}}

A response is the `--json` envelope of spec §8.2 verbatim, one per line.

Decoding is generous where that is safe (surrounding whitespace, a trailing CR LF, a UTF-8 BOM,
absent `jdx`/`query`/`params`, null for an absent value, unknown keys, JSON numbers and booleans
from typed clients) and strict where a guess would be dangerous. Every refusal is a `WireError`
(a `UsageError`, exit 3) with a named code; decoding raises nothing else, on any input:

    WIRE_EMPTY            nothing but whitespace
    WIRE_ENCODING         bytes that are not UTF-8, or a lone surrogate in a string
    WIRE_JSON             not JSON (NaN and Infinity included)
    WIRE_TRUNCATED        JSON cut off before its end
    WIRE_TRAILING         content after the request object (two requests on one line)
    WIRE_DUPLICATE_KEY    a key given twice in one object
    WIRE_TYPE             a field of the wrong type (the request itself not an object)
    WIRE_VERSION          a `jdx` version this decoder does not speak
    WIRE_MISSING_COMMAND  no `command`
    WIRE_UNKNOWN_COMMAND  a command that is not on the wire
    WIRE_PARAM            a parameter name that no flag can have
    WIRE_TOO_LONG         a line over MAX_LINE_BYTES (enforced by the reading adapter)

This module imports only the standard library and `jdx.errors`: the thin client loads it on every
CLI call (see jdx.daemon.client).
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field

from jdx.errors import UsageError

WIRE_VERSION = 1
MAX_LINE_BYTES = 1 << 20
PARAM_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,63}$")
_JSON_SPACE = " \t\r\n"

ParamValue = str | tuple[str, ...]


class WireError(UsageError):
    """A request or response line refused by the wire contract; `code` names why (exit 3)."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class WireRequest:
    """A decoded request: params sorted by name, every value canonical text (a tuple when repeated); `sent`, the same
    params as the line typed them (`5`, `true`, a list), for an adapter that checks their JSON types
    (jdx.commands.host.check_arguments); equal requests are equal whatever types they came in."""

    command: str
    query: str = ""
    params: dict[str, ParamValue] = field(default_factory=dict)
    sent: dict[str, object] = field(default_factory=dict, compare=False, repr=False)


# --- canonical values ----------------------------------------------------------------------------

def _scalar_text(name: str, value: object) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise WireError("WIRE_TYPE", f"param {name!r}: the number is out of range")
        return str(int(value)) if value.is_integer() and abs(value) < 2**53 else repr(value)
    raise WireError("WIRE_TYPE", f"param {name!r}: expected text, a number or a boolean, got {kind_of(value)}")


def _canonical(name: str, value: object) -> ParamValue | None:
    """Canonical text of one param value; None means absent."""
    if value is None:
        return None
    if isinstance(value, (list, tuple)):
        return tuple(_scalar_text(name, item) for item in value)
    return _scalar_text(name, value)


def kind_of(value: object) -> str:
    """A JSON value's type as messages name it: `text`, `a number`, `a list`."""
    return {dict: "an object", list: "a list", tuple: "a list", type(None): "null", str: "text",
            bool: "a boolean", int: "a number", float: "a number"}.get(type(value), type(value).__name__)


def _canonical_params(params: dict) -> dict[str, ParamValue]:
    out: dict[str, ParamValue] = {}
    for name in sorted(params):
        if not isinstance(name, str) or not PARAM_NAME.match(name):
            raise WireError("WIRE_PARAM", f"bad param name {name!r}: a flag name without dashes, "
                                          f"e.g. 'inherited'")
        value = _canonical(name, params[name])
        if value is not None:
            out[name] = value
    return out


# --- requests --------------------------------------------------------------------------------------

def encode_request(command: str, query: str = "", params: dict | None = None) -> str:
    """One canonical request line, newline-terminated: equal requests give equal bytes."""
    if not isinstance(command, str) or not command:
        raise WireError("WIRE_MISSING_COMMAND", "a request needs a command")
    if not isinstance(query, str):
        raise WireError("WIRE_TYPE", f"query: expected text, got {kind_of(query)}")
    body = {"jdx": WIRE_VERSION, "command": command, "query": query,
            "params": {k: list(v) if isinstance(v, tuple) else v
                       for k, v in _canonical_params(dict(params or {})).items()}}
    return _dumps(body) + "\n"


def decode_request(line: str | bytes, commands: frozenset[str]) -> WireRequest:
    """Parses one request line; raises WireError (and nothing else) when it must be refused."""
    try:
        return _decode_request(line, commands)
    except WireError:
        raise
    except RecursionError:
        raise WireError("WIRE_JSON", "request nested too deeply") from None
    except Exception as exc:  # noqa: BLE001 - the contract: decoding never throws anything but WireError
        raise WireError("WIRE_JSON", f"unreadable request: {_first_line(exc)}") from None


def _decode_request(line: str | bytes, commands: frozenset[str]) -> WireRequest:
    data = _parse_object(line, "request")
    version = data.get("jdx", WIRE_VERSION)
    if version is None:
        version = WIRE_VERSION
    if type(version) is not int:
        raise WireError("WIRE_TYPE", f"jdx: expected the number {WIRE_VERSION}, got {kind_of(version)}")
    if version != WIRE_VERSION:
        raise WireError("WIRE_VERSION", f"wire version {version} is not spoken here (this jdx speaks "
                                        f"{WIRE_VERSION}); upgrade the older side")
    command = data.get("command")
    if command is None or command == "":
        raise WireError("WIRE_MISSING_COMMAND", "a request needs a command")
    if not isinstance(command, str):
        raise WireError("WIRE_TYPE", f"command: expected text, got {kind_of(command)}")
    if command not in commands:
        raise WireError("WIRE_UNKNOWN_COMMAND", _unknown_command(command, commands))
    query = data.get("query")
    if query is None:
        query = ""
    if not isinstance(query, str):
        raise WireError("WIRE_TYPE", f"query: expected text, got {kind_of(query)}")
    params = data.get("params")
    if params is None:
        params = {}
    if not isinstance(params, dict):
        raise WireError("WIRE_TYPE", f"params: expected an object, got {kind_of(params)}")
    for name, value in params.items():
        if isinstance(value, (list, tuple)) and any(isinstance(v, (list, tuple, dict)) or v is None
                                                    for v in value):
            raise WireError("WIRE_TYPE", f"param {name!r}: a list holds text, numbers or booleans only")
    canonical = _canonical_params(params)
    return WireRequest(command, query, canonical, {name: params[name] for name in canonical})


def _first_line(exc: Exception) -> str:
    text = f"{type(exc).__name__}: {exc}".splitlines()[0]
    return text if len(text) <= 120 else text[:120] + "…"


def _unknown_command(command: str, commands: frozenset[str]) -> str:
    import difflib

    shown = command if len(command) <= 40 else command[:40] + "…"
    close = difflib.get_close_matches(command, sorted(commands), n=3) if len(command) <= 40 else []
    hint = f"; did you mean {', '.join(close)}?" if close else f"; on the wire: {', '.join(sorted(commands))}"
    return f"unknown command {shown!r}{hint}"


def request_names(line: str | bytes) -> tuple[str, str]:
    """Best-effort (command, query) of a line that may be refused, for its error envelope; never raises."""
    try:
        data = json.loads(line)
    except Exception:  # noqa: BLE001 - a refused line may be anything
        return "", ""
    if not isinstance(data, dict):
        return "", ""
    def clean(value: object, size: int) -> str:
        return value[:size].encode("utf-8", "replace").decode("utf-8") if isinstance(value, str) else ""

    return clean(data.get("command"), 64), clean(data.get("query"), 256)


# --- responses -------------------------------------------------------------------------------------

def encode_response(envelope: dict) -> str:
    """The `--json` envelope verbatim, newline-terminated (the same bytes `--json` prints)."""
    from jdx.render.envelope import dumps

    return dumps(envelope) + "\n"


def decode_response(line: str | bytes) -> dict:
    """A response line back to its envelope; raises WireError (and nothing else) when it is not one."""
    try:
        data = _parse_object(line, "response")
    except WireError:
        raise
    except RecursionError:
        raise WireError("WIRE_JSON", "response nested too deeply") from None
    except Exception as exc:  # noqa: BLE001 - same contract as decode_request
        raise WireError("WIRE_JSON", f"unreadable response: {_first_line(exc)}") from None
    if type(data.get("jdx")) is not int or not isinstance(data.get("ok"), bool):
        raise WireError("WIRE_TYPE", "a response is a jdx envelope with 'jdx' and 'ok'")
    if data["jdx"] != WIRE_VERSION:
        raise WireError("WIRE_VERSION", f"response envelope version {data['jdx']} is not {WIRE_VERSION}")
    return data


# --- one JSON object per line --------------------------------------------------------------------

def _reject_constant(name: str):
    raise WireError("WIRE_JSON", f"{name} is not JSON")


def _unique_keys(pairs: list[tuple[str, object]]) -> dict:
    data = dict(pairs)
    if len(data) != len(pairs):
        seen: set[str] = set()
        dup = next(k for k, _ in pairs if k in seen or seen.add(k))
        raise WireError("WIRE_DUPLICATE_KEY", f"key {dup[:40]!r} is given twice")
    return data


_DECODER = json.JSONDecoder(object_pairs_hook=_unique_keys, parse_constant=_reject_constant)


def _parse_object(line: str | bytes, what: str) -> dict:
    if isinstance(line, (bytes, bytearray, memoryview)):
        try:
            text = bytes(line).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise WireError("WIRE_ENCODING", f"{what} is not UTF-8 (byte {exc.start})") from None
    elif isinstance(line, str):
        text = line
    else:
        raise WireError("WIRE_TYPE", f"a {what} line is text or bytes, got {type(line).__name__}")
    text = text.removeprefix("\ufeff").strip(_JSON_SPACE)
    if not text:
        raise WireError("WIRE_EMPTY", f"empty {what} line")
    try:
        data, end = _DECODER.raw_decode(text)
    except json.JSONDecodeError as exc:
        if _truncated(text, exc):
            raise WireError("WIRE_TRUNCATED", f"{what} line ends before its JSON does (at character "
                                              f"{len(text)})") from None
        raise WireError("WIRE_JSON", f"{what} is not JSON: {exc.msg} at character {exc.pos}") from None
    if end != len(text):
        raise WireError("WIRE_TRAILING", f"content after the {what} object at character {end}: one "
                                         f"{what} per line")
    if not isinstance(data, dict):
        raise WireError("WIRE_TYPE", f"a {what} is a JSON object, got {kind_of(data)}")
    _check_text(data)
    return data


def _truncated(text: str, exc: json.JSONDecodeError) -> bool:
    """A line cut short: an open string, or nothing (or half a literal) where more JSON must follow."""
    if exc.msg.startswith("Unterminated string"):
        return True
    if not exc.msg.startswith("Expecting"):
        return False
    rest = text[exc.pos:]
    return not rest or any(len(rest) < len(word) and word.startswith(rest) for word in ("true", "false", "null"))


def _check_text(value: object) -> None:
    """Lone surrogates decode from JSON escapes but cannot be written back as UTF-8: refuse them here."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                raise WireError("WIRE_ENCODING", "a string holds a lone surrogate (\\ud800-\\udfff)") from None
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def _dumps(data: dict) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))
