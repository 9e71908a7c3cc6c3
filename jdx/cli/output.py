"""Printing management answers: the JSON envelope with --json, plain text otherwise (colour only on a TTY)."""

from __future__ import annotations

import sys
from collections.abc import Callable

from jdx.render import envelope


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


def progress_printer(enabled: bool):
    """Progress of long work on stderr: a rich progress bar on a TTY; otherwise one line when a phase starts
    and one when it ends, with counts, so a caller without a terminal never waits on silence. A note (an
    artifact a cluster failed on or retries) is printed as a line of its own, with the count so far. -q: none."""
    if not enabled:
        return None
    if not sys.stderr.isatty():
        return _phase_lines()
    from rich.progress import Progress

    bar = Progress(transient=True)
    tasks: dict[str, int] = {}

    def update(stage: str, done: int, total: int, note: str = "") -> None:
        if not bar.live.is_started:
            bar.start()
        if note:
            bar.console.print(f"jdx: [{done}/{total}] {note}", markup=False, highlight=False)
        if stage not in tasks:
            label = {"extract": "extracting classes", "jdk-graph": "building the JDK's graph",
                     "jars-graph": "building the jars' graph"}.get(stage, "building graph")
            tasks[stage] = bar.add_task(label, total=max(total, 1))
        bar.update(tasks[stage], completed=done, total=max(total, 1))
        if stage == "graph" and done >= total:
            bar.stop()

    return update


# a graph phase: (what is built, what is then ready). jdk-graph: the JDK's own graph, the base every workspace over
# that JDK grows from; jars-graph: a project's jars (and JDK) without its class directories, the base its class
# directories are added to (kept for their next change); graph: the asked workspace's
GRAPH_PHASES = {"graph": ("the workspace graph", "workspace graph"),
                "jdk-graph": ("the JDK's graph (other workspaces grow from it)", "JDK graph"),
                "jars-graph": ("the graph of the workspace's jars (its class directories are added next)",
                               "jars' graph")}

PROGRESS_EVERY = 10.0  # seconds between the count lines of a long extraction when no terminal shows a bar


def _to_stderr(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _phase_lines(say: Callable[[str], None] = _to_stderr):
    import time

    started: set[str] = set()
    last = [time.monotonic()]

    def update(stage: str, done: int, total: int, note: str = "") -> None:
        if note:
            say(f"jdx: [{done}/{total}] {note}")
        if stage == "extract":
            if stage in started and 0 < done < total and time.monotonic() - last[0] >= PROGRESS_EVERY:
                last[0] = time.monotonic()
                say(f"jdx: extracted {done}/{total} artifact(s)")
            if stage not in started:
                started.add(stage)
                say(f"jdx: extracting classes from {total} artifact(s)")
            if done >= total:
                say(f"jdx: extracted {total} artifact(s)")
                started.discard(stage)  # a later build (a daemon's) says its own phases again
        elif stage in GRAPH_PHASES:
            what, ready = GRAPH_PHASES[stage]
            if done < total and stage not in started:
                started.add(stage)
                say(f"jdx: building {what}")
            elif done >= total:
                say(f"jdx: {ready} ready")
                started.discard(stage)

    return update


PROGRESS_FILE_BYTES = 1 << 16


def progress_to_file(path) -> Callable:
    """A daemon's progress: the phase lines a one-shot process prints, appended to `path` (DaemonPaths.progress),
    which the clients waiting on an answer print (jdx.daemon.client.exchange). Started afresh past 64 KB."""
    import os

    def say(text: str) -> None:
        try:
            if os.path.getsize(path) > PROGRESS_FILE_BYTES:
                os.truncate(path, 0)
        except OSError:
            pass
        try:
            with open(path, "a", encoding="utf-8") as f:
                f.write(text + "\n")
        except OSError:
            pass

    return _phase_lines(say)
