"""Printing answers and errors: the JSON envelope with --json, plain text otherwise (colour only on a TTY)."""

from __future__ import annotations

import sys
from collections.abc import Callable

from jdx.engine import envelope
from jdx.errors import JdxError


def emit(command: str, query: str, answer, json_mode: bool, text: Callable[[dict], list[str]]) -> int:
    if json_mode:
        print(envelope.dumps(envelope.success(command, query, answer)))
    else:
        lines = text(answer.result)
        if answer.truncated and answer.truncated.get("hint"):
            t = answer.truncated
            lines.append(f"… {t['shown']} of {t['total']} shown ({t['hint']})")
        lines.extend(envelope.warning_lines(answer.warnings))
        if lines:
            print("\n".join(lines))
    return 0


VALUE_OPTIONS = {"--kind", "--access", "--from", "--grep", "--max-lines", "--sort", "--format", "--limit",
                 "--depth", "--iterations", "--in", "--exclude", "--context", "--engine", "--lines", "--around",
                 "--package"}


def command_and_query(words: list[str]) -> tuple[str, str]:
    """The command word and its first operand, for error envelopes."""
    positional = []
    skip = False
    for w in words:
        if skip:
            skip = False
        elif w.startswith("-"):
            skip = w in VALUE_OPTIONS
        else:
            positional.append(w)
    command = positional[0] if positional else ""
    if command in ("ws", "cache") and len(positional) > 1:
        return command, " ".join(positional[1:3])
    return command, positional[1] if len(positional) > 1 else ""


def emit_error(command: str, error: JdxError, json_mode: bool, query: str = "") -> int:
    if json_mode:
        print(envelope.dumps(envelope.failure(command, query, error)))
    else:
        lines = envelope.error_lines(error)
        stream = sys.stdout if error.code in ("NOT_FOUND", "AMBIGUOUS") else sys.stderr
        print("\n".join(lines), file=stream)
    return error.exit_code


def progress_printer(enabled: bool):
    """A rich progress bar on a TTY (stderr), silence when piped."""
    if not enabled or not sys.stderr.isatty():
        return None
    from rich.progress import Progress

    bar = Progress(transient=True)
    tasks: dict[str, int] = {}

    def update(stage: str, done: int, total: int) -> None:
        if not bar.live.is_started:
            bar.start()
        if stage not in tasks:
            label = "extracting classes" if stage == "extract" else "building graph"
            tasks[stage] = bar.add_task(label, total=max(total, 1))
        bar.update(tasks[stage], completed=done, total=max(total, 1))
        if stage == "graph" and done >= total:
            bar.stop()

    return update
