"""`jdx batch` (spec §3.7): one query per stdin line, one process, one graph open for every line.

Each line is a command line (`members com.google.gson.Gson --inherited`) or a wire-contract JSON line
(spec §14.5); both are answered by the registry exactly as the one-shot CLI answers them, so the bytes per
line equal the one-shot output. An error names its input line number.
"""

from __future__ import annotations

import dataclasses
import shlex
import sys

from jdx.errors import JdxError, UsageError


def run_batch(outer, session) -> int:
    """Answers every stdin line; the exit code is 0 (each line's own status is printed after it in text)."""
    from jdx.cli.main import _print_failure, run_query, split_globals
    from jdx.commands.registry import command
    from jdx.commands.wire import request_names

    try:
        for number, raw in enumerate(sys.stdin, start=1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            name, query, code = "", "", 0
            try:
                if line.startswith("{"):
                    name, query = request_names(line)  # a failing line's envelope names its command and query
                    name, code = _answer_wire_line(line, outer, session)
                else:
                    try:
                        words = shlex.split(line)
                    except ValueError as exc:
                        raise UsageError(f"unparseable line: {exc}") from None
                    g, words = split_globals(words)
                    if g.has_workspace_flags():
                        raise UsageError("workspace flags belong on the batch command, not on its lines")
                    name = words[0] if words else ""
                    words = words[1:]
                    cmd = command(name)
                    if cmd is None:
                        raise UsageError("batch cannot nest" if name == "batch" else
                                         f"{name!r} is not a query command" if name else "empty command")
                    # the batch's workspace flags: its lines' `next:` steps name them as a command line's do
                    # (a line's own --json answers that line as JSON, as the one-shot command line would)
                    inner = dataclasses.replace(outer, quiet=True, no_daemon=True, timeout=None,
                                                json=outer.json or g.json)
                    code = run_query(inner, cmd, words, session=session, where=f"line {number}: ")
            except JdxError as exc:
                exc.message = f"line {number}: {exc.message}"
                code = _print_failure(name, query, exc, outer.json)
            if not outer.json:
                print(f"(exit {code})" if code else "")
            sys.stdout.flush()
    finally:
        session.close()
    return 0


def _answer_wire_line(line: str, outer, session) -> tuple[str, int]:
    """A wire-contract request line (spec §14.5) answered on the batch's session."""
    from jdx.cli.main import _answer_here, _print, said_ignored
    from jdx.commands import wire
    from jdx.commands.registry import build_request, command, wire_commands

    req = wire.decode_request(line, wire_commands())
    cmd = command(req.command)
    if cmd is None:  # `health`
        from jdx.commands.execute import answer_request

        outcome = answer_request(session, req.command, req.query, dict(req.params))
        _print(outcome.envelope, None, None, outer.json)
        return req.command, outcome.exit_code
    request = build_request(cmd, req.query, dict(req.params))
    env, code = _answer_here(outer, cmd, request, session)
    said_ignored(env, cmd, outer)
    _print(env, cmd, request, outer.json, outer)
    return req.command, code
