"""The typer side of the CLI: management commands, and the help of every registry command generated from it.

Query commands are parsed and answered by `jdx.cli.main` from the registry; the click commands generated
here give them `--help` (flags, defaults, help text, example) from the same request types.
"""

from __future__ import annotations

import sys
from typing import Optional

# typer formats help with rich when it can import it, which costs ~50 ms on every cold command;
# plain help is what agents read anyway, and rich stays importable for progress bars afterwards
_rich = sys.modules.get("rich", False)
sys.modules["rich"] = None  # type: ignore[assignment]
try:
    import typer
finally:
    if _rich is False:
        del sys.modules["rich"]
    else:
        sys.modules["rich"] = _rich

from jdx.cli.output import emit, progress_printer
from jdx.commands.session import Session
from jdx.errors import UsageError
from jdx.render import manage as text

app = typer.Typer(add_completion=False, no_args_is_help=True, help="jdx: an IDE for AI agents over JVM code.",
                  context_settings={"help_option_names": ["-h", "--help"]}, pretty_exceptions_enable=False)
ws_app = typer.Typer(no_args_is_help=True, help="Named workspaces: ordered roots stored as TOML.")
cache_app = typer.Typer(no_args_is_help=True, help="The shard and graph cache.")
app.add_typer(ws_app, name="ws")
app.add_typer(cache_app, name="cache")

_G = None


def service() -> Session:
    g = _G
    opts = g.options()
    return Session(opts, progress=progress_printer(not g.quiet and not g.json))


def out(command: str, query: str, answer, render) -> None:
    code = emit(command, query, answer, _G.json, render)
    if code:
        raise typer.Exit(code)


@app.command()
def index(force: bool = typer.Option(False, "--force", help="re-extract and rebuild even if nothing changed"),
          executor: Optional[str] = typer.Option(None, "--executor", metavar="local|ray",
                                                 help="who extracts artifacts without a shard: this process "
                                                      "(local, default) or a Ray cluster (ray: pip install "
                                                      "'jdx[ray]'); also JDX_EXECUTOR"),
          ray_address: Optional[str] = typer.Option(None, "--ray-address", metavar="ADDRESS",
                                                    help="join this Ray cluster (default: start a local one "
                                                         "for the run)"),
          shards: Optional[str] = typer.Option(None, "--shards", metavar="URI",
                                               help="the shard store every worker writes to: a directory or a "
                                                    "pyarrow filesystem URI (file:///shared/dir, s3://bucket/p); "
                                                    "also JDX_SHARDS; default: the cache")):
    """Build or refresh the workspace graph. Example: jdx index --jars lib/gson.jar"""
    from jdx.cli.main import deadline

    session = service()
    # --timeout caps indexing as it caps a query; a build cut short is never published (the graph stays as it was)
    limit = deadline(_G.timeout)
    try:
        with limit, limit.watching(session):
            answer = session.index(force=force, executor=executor, ray_address=ray_address, shards=shards)
    except Exception:
        if limit.expired:  # the alarm's exception became another one on its way out (raised inside Arrow's C calls)
            raise limit.error() from None
        raise
    if limit.expired:  # the alarm landed where an exception is recovered from, and the build went on
        raise limit.error()
    out("index", "", answer, text.index)


@app.command()
def export(directory: str = typer.Argument(..., help="target directory"),
           format: str = typer.Option("parquet", "--format", help="parquet (default) | arrow (Arrow IPC files)")):
    """Export the workspace graph as an Arrow dataset: one file per node and relationship table (and the search
    index), Parquet or Arrow IPC. Files of an earlier export in DIRECTORY are replaced, and the answer lists them.
    Example: jdx export out/"""
    from jdx.commands import manage

    out("export", directory, manage.export(service(), directory, format), text.export)


@cache_app.command("info")
def cache_info():
    """Sizes of the shard and graph cache. Example: jdx cache info"""
    from jdx.commands import manage

    out("cache", "info", manage.cache_info(service()), text.key_values)


@cache_app.command("gc")
def cache_gc(dry_run: bool = typer.Option(False, "--dry-run", help="list what would go, remove nothing"),
             older_than: float = typer.Option(7.0, "--older-than", metavar="DAYS",
                                              help="keep what was used in the last DAYS days (0: only what a "
                                                   "named workspace uses)")):
    """Remove shards and graphs no named workspace uses and none used in the last 7 days: a summary per kind,
    every entry with -v. Example: jdx cache gc --dry-run -v"""
    from jdx.commands import manage

    out("cache", "gc", manage.cache_gc(service(), dry_run, older_than), lambda r: text.cache_gc(r, _G.verbose))


@cache_app.command("clear")
def cache_clear():
    """Remove every shard, graph and compiled extractor, after stopping the cache's daemons. Example: jdx cache clear"""
    from jdx.commands import manage
    from jdx.daemon import control

    out("cache", "clear", manage.cache_clear(service(), control.stop_cache_daemons), text.key_values)


@ws_app.command("create")
def ws_create(name: str, auto: bool = typer.Option(False, "--auto", help="the project around the current "
                                                                         "directory (or --project), rediscovered "
                                                                         "on every use")):
    """Create a workspace from --jars/--src/--coord/--jdk or --auto. Example: jdx ws create app --jars 'libs/*.jar'"""
    from jdx.commands import manage

    out("ws", f"create {name}", manage.ws_create(service(), name, auto=auto), text.ws_spec)


@ws_app.command("list")
def ws_list():
    """List workspaces. Example: jdx ws list"""
    from jdx.commands import manage

    out("ws", "list", manage.ws_list(service()), text.ws_list)


@ws_app.command("info")
def ws_info(name: Optional[str] = typer.Argument(None)):
    """Roots, artifacts and index state of a workspace. Example: jdx ws info app"""
    from jdx.commands import manage

    if name:
        _G.workspace = name
    out("ws", f"info {name or ''}".strip(), manage.ws_info(service(), named=bool(name)), text.ws_info)


@ws_app.command("remove")
def ws_remove(name: str):
    """Delete a workspace definition (its cached shards stay until cache gc). Example: jdx ws remove app"""
    from jdx.commands import manage

    out("ws", f"remove {name}", manage.ws_remove(service(), name), text.key_values)


@ws_app.command("add")
def ws_add(name: str, root: str):
    """Append a jar, glob, class directory or g:a:v coordinate after a workspace's roots (earlier roots shadow later
    ones). Example: jdx ws add app lib/x.jar"""
    from jdx.commands import manage

    out("ws", f"add {name}", manage.ws_add(service(), name, root), text.ws_spec)


@ws_app.command("drop")
def ws_drop(name: str, root: str):
    """Remove one root (a path as added, a g:a:v coordinate, a source directory) from a workspace.
    Example: jdx ws drop app org.jline:jline:3.26.3"""
    from jdx.commands import manage

    out("ws", f"drop {name}", manage.ws_drop(service(), name, root), text.ws_spec)


@ws_app.command("use")
def ws_use(name: Optional[str] = typer.Argument(None),
           none: bool = typer.Option(False, "--none", help="forget the default: commands without -w discover the "
                                                           "project around the current directory again")):
    """Make a workspace the default for later commands (--none: no default). Example: jdx ws use app"""
    from jdx.commands import manage

    out("ws", f"use {name or '--none'}", manage.ws_use(service(), name, none), text.key_values)


@app.command()
def batch():
    """Answer one query per stdin line from one process and one graph open: each line one answer, in order (an
    error names its line number); blank lines and # comments get none. Example: jdx batch --json < queries.txt"""
    from jdx.cli.batch import run_batch

    raise typer.Exit(run_batch(_G, service()))


@app.command()
def bench(iterations: Optional[int] = typer.Option(None, "--iterations", help="repetitions of each warm "
                                                                               "measurement (default 3; with "
                                                                               "--executors: runs per executor, "
                                                                               "default 1)"),
          executors: bool = typer.Option(False, "--executors", help="only the executor rows: the local Maven "
                                                                    "repository indexed cold by the local and "
                                                                    "the ray executor (minutes)"),
          scale: bool = typer.Option(False, "--scale", help="only the scale rows: every jar of the local Maven "
                                                            "repository plus the JDK in one workspace, indexed "
                                                            "cold, then warm usages and hierarchy on it "
                                                            "(minutes)")):
    """Measure indexing and query speed on this machine. Example: jdx bench --json"""
    if scale:
        from jdx.bench.run import machine_line
        from jdx.bench.scale import rows as scale_rows
        from jdx.engine.answer import Answer

        out("bench", "scale", Answer({"machine": machine_line(), "rows": scale_rows(iterations or 3)}), text.bench)
        return
    if executors:
        from jdx.bench.cluster import rows
        from jdx.bench.run import machine_line
        from jdx.engine.answer import Answer

        out("bench", "executors", Answer({"machine": machine_line(), "rows": rows(iterations or 1)}), text.bench)
        return
    from jdx.bench.run import run_bench

    out("bench", "", run_bench(service(), iterations or 3), text.bench)


def _click_exceptions():
    """Typer may vendor click (typer._click) or use the click package; handle whichever it raises."""
    try:
        from typer._click import exceptions  # type: ignore[attr-defined]
    except ImportError:
        from click import exceptions
    return exceptions


def click_group():
    """The click group of the whole CLI: typer's management commands plus one generated per registry command."""
    from jdx.cli import commands_daemon  # noqa: F401 - registers `jdx daemon`
    from jdx.cli import commands_serve  # noqa: F401 - registers `jdx mcp` and `jdx serve`
    from jdx.cli.generated import add_registry_commands

    from jdx.cli.generated import global_epilog

    group = typer.main.get_command(app)
    _with_global_epilog(group, global_epilog())
    group.epilog = global_epilog() + "\n\nAgents: jdx help --agent prints a cheat sheet to paste into a prompt."
    add_registry_commands(group)
    return group


def _with_global_epilog(command, epilog: str) -> None:
    """Every management command's `--help` lists the global flags too, as the query commands' does."""
    for sub in getattr(command, "commands", {}).values():
        sub.epilog = sub.epilog or epilog
        _with_global_epilog(sub, epilog)


def run(g, rest: list[str]) -> int:
    """Runs one management command line, or the help of any command (globals already split off)."""
    global _G
    _G = g
    exc_mod = _click_exceptions()
    try:
        result = click_group().main(args=rest, prog_name="jdx", standalone_mode=False)
    except typer.Exit as exc:
        return exc.exit_code
    except exc_mod.Exit as exc:
        return exc.exit_code
    except exc_mod.NoArgsIsHelpError as exc:
        print(exc.ctx.get_help() if getattr(exc, "ctx", None) else str(exc))
        return 0
    except exc_mod.UsageError as exc:
        raise UsageError(exc.format_message().splitlines()[0]) from exc
    except (typer.Abort, exc_mod.Abort):
        return 130
    return result if isinstance(result, int) else 0
