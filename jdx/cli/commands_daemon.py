"""`jdx daemon start|stop|status|run` (spec §14.3): typer commands over jdx.daemon."""

from __future__ import annotations

import typer

from jdx.cli import commands as cli
from jdx.engine.answer import Answer

daemon_app = typer.Typer(no_args_is_help=True, help="The resident daemon the CLI answers through (spec §14.3).")
cli.app.add_typer(daemon_app, name="daemon")

IDLE_HELP = "how long without a request before the daemon exits: 300, 90s, 5m, 1h (0: never)"


def idle_seconds(text: str) -> float:
    """`--idle`: a duration as `--timeout` takes it, or 0 to disable the idle shutdown."""
    from jdx.cli.main import parse_duration
    from jdx.errors import UsageError

    if text.strip() in ("0", "0s"):
        return 0.0
    try:
        return parse_duration(text)
    except UsageError:
        raise UsageError(f"--idle {text!r}: use a duration such as 300, 90s or 5m, or 0 for never") from None


def workspace() -> dict:
    """The global workspace flags as the dict a daemon is keyed by (the same one the CLI client sends by)."""
    return cli._G.workspace_key()


def _session(progress_file=None):
    """The session a one-shot command would open for these flags (jdx.cli.main), kept open for the daemon's life;
    its long work says its phases in `progress_file`, which waiting clients print."""
    from jdx.cli.output import progress_to_file
    from jdx.commands.session import Session

    g = cli._G
    return Session(g.options(), progress=progress_to_file(progress_file) if progress_file is not None else None)


def _lines(result: dict) -> list[str]:
    if "refused" in result:
        return [f"not stopped: {result['refused']}"]
    lines = []
    if result.get("started"):
        lines.append(f"started daemon pid {result.get('pid')}")
    elif "started" in result:
        lines.append(f"already running: pid {result.get('pid')}")
    if "stopped" in result:
        if result["stopped"]:
            lines.append(f"stopped daemon pid {result['pid']}" + (" (SIGKILL after the grace)" if result.get("forced")
                                                                 else ""))
        else:
            lines.append("no daemon was running" + _others(result, "stop"))
        lines.extend(f"swept {path}" for path in result.get("swept", []))
        return lines
    if result.get("running") is False:
        return ["no daemon running for this workspace" + _others(result, "status")]
    for key in ("pid", "uptime", "workspace", "queries", "artifacts", "memory", "idle", "version", "code", "socket"):
        if key in result:
            value = result[key]
            if key == "workspace":
                value = _workspace_text(value or {})
                if result.get("selected") and not (result[key] or {}).get("workspace"):  # a default: which one
                    value = f"ws {result['selected']}; {value}"
            elif key == "memory":
                value = f"{value / 2**20:.0f} MB"
            elif key == "uptime":
                value = f"{value:.0f} s"
            elif key == "idle":  # the idle shutdown, in seconds (0: never)
                key, value = "idle shutdown", f"after {value:g} s" if value else "never"
            lines.append(f"{key}: {value}")
    return lines


def _others(result: dict, verb: str) -> str:
    n = result.get("others", 0)
    return f" ({n} other{'s' if n > 1 else ''} running: jdx daemon {verb} --all)" if n else ""


def _workspace_text(ws: dict) -> str:
    """The roots the daemon serves, as they were given: `ws NAME`, the discovered project, `--jars …`, `--src …`,
    `--coord …`, `--tests`, and whether the JDK is in."""
    parts = [f"ws {ws['workspace']}"] if ws.get("workspace") else []
    if ws.get("project"):
        parts.append(f"project {ws['project']}")
    for key, flag in (("jars", "--jars"), ("src", "--src"), ("sources", "--sources"), ("coords", "--coord")):
        roots = ws.get(key) or []
        if roots:
            shown = (", " if key == "coords" else ":").join(roots[:3]) + \
                (f" (+{len(roots) - 3} more)" if len(roots) > 3 else "")
            parts.append(f"{flag} {shown}")
    if ws.get("tests"):  # a flag, not a list of roots
        parts.append("--tests")
    return "; ".join(parts + ["without the JDK" if ws.get("jdk") is False else "with the JDK"])


@daemon_app.command("start")
def start(idle: str = typer.Option("5m", "--idle", help=IDLE_HELP)):
    """Start this workspace's daemon in the background (the CLI also does on first use). Example: jdx daemon start"""
    from jdx.daemon import control

    cli.out("daemon", "start", Answer(control.start(workspace(), idle_seconds(idle))), _lines)


ALL_HELP = ("every running daemon of the runtime directory this workspace's daemon uses (each classpath, workspace "
            "and jdx version has its own; the cache's run/ unless JDX_RUNTIME_DIR, XDG_RUNTIME_DIR or TMPDIR is set)")


@daemon_app.command("stop")
def stop(every: bool = typer.Option(False, "--all", help=ALL_HELP)):
    """Stop this workspace's daemon and sweep stale socket/pid files. Example: jdx daemon stop --all"""
    from jdx.daemon import control

    if every:
        cli.out("daemon", "stop", Answer(control.stop_all(workspace())), _each(_lines, "no daemon was running"))
        return
    result = control.stop(workspace())
    if not result["stopped"] and "refused" not in result:
        result["others"] = len(control.every_daemon(workspace()))
    cli.out("daemon", "stop", Answer(result), _lines)


@daemon_app.command("status")
def status(every: bool = typer.Option(False, "--all", help=ALL_HELP)):
    """Pid, uptime, workspace, memory, artifacts and query count of this workspace's daemon (--all: of every one).
    Example: jdx daemon status --json"""
    from jdx.daemon import control

    if every:
        cli.out("daemon", "status", Answer(control.status_all(workspace())), _each(_lines, "no daemon running"))
        return
    result = control.status(workspace())
    if result is None:
        result = {"running": False, "others": len(control.every_daemon(workspace()))}
    cli.out("daemon", "status", Answer(result), _lines)


def _each(lines, none: str):
    """The text of an `--all` answer: each daemon's lines, a blank line between daemons; `none` when there is none."""
    def render(result: dict) -> list[str]:
        out: list[str] = []
        for one in result["daemons"]:
            if out:
                out.append("")
            out.extend(lines(one) if one.get("answering", True) else [f"pid {one['pid']}: not answering",
                                                                        f"socket: {one['socket']}"])
        return out or [none]
    return render


@daemon_app.command("run")
def run(idle: str = typer.Option("5m", "--idle", help=IDLE_HELP)):
    """Serve this workspace in the foreground until idle or stopped. Example: jdx daemon run --idle 0"""
    from jdx.daemon.host import Host
    from jdx.daemon.paths import daemon_paths
    from jdx.daemon.server import serve

    ws = workspace()
    paths = daemon_paths(ws)
    host = Host(ws, session_factory=lambda: _session(paths.progress))
    seconds = idle_seconds(idle)

    def ready(_server) -> None:
        import os
        import sys
        import time

        stamp = time.strftime("%Y-%m-%dT%H:%M:%S")
        print(f"{stamp} jdx daemon pid {os.getpid()} serving {paths.socket}; "
              + (f"idle shutdown after {seconds:g} s" if seconds else "no idle shutdown"), file=sys.stderr, flush=True)

    try:
        from jdx.dirs import cache_dir

        reason = serve(paths, host.execute, host.commands, idle=seconds, describe=host.describe, workspace=ws,
                       ready=ready, cache=cache_dir(ws.get("cache_dir")).absolute())
        import sys

        print(f"jdx daemon stopped: {reason}", file=sys.stderr, flush=True)
    finally:
        host.close()
        exit_now()


def exit_now() -> None:
    """A server process (the daemon, `jdx mcp`, `jdx serve`) ends here: an embedded JVM (started by an index or a
    decompilation, perhaps on a worker thread still attached to it) would otherwise keep the interpreter from exiting
    after the server stopped, leaving an idle process holding its memory."""
    import os
    import sys

    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(0)
