"""Typer commands: each parses its arguments, makes one facade call and hands the answer to output."""

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

from jdx.cli import text
from jdx.cli.output import emit, progress_printer
from jdx.engine.service import JdxService, Options
from jdx.errors import UsageError

app = typer.Typer(add_completion=False, no_args_is_help=True, help="jdx: an IDE for AI agents over JVM code.",
                  context_settings={"help_option_names": ["-h", "--help"]}, pretty_exceptions_enable=False)
ws_app = typer.Typer(no_args_is_help=True, help="Named workspaces: ordered roots stored as TOML.")
cache_app = typer.Typer(no_args_is_help=True, help="The shard and graph cache.")
app.add_typer(ws_app, name="ws")
app.add_typer(cache_app, name="cache")

_G = None
_SHARED: JdxService | None = None  # batch: one process, one graph open for every line


def service() -> JdxService:
    if _SHARED is not None:
        return _SHARED
    g = _G
    opts = Options(workspace=g.workspace, jars=g.jars, src=g.src, sources=g.sources, jdk=g.jdk,
                   cache_dir=g.cache_dir)
    return JdxService(opts, progress=progress_printer(not g.quiet and not g.json))


def out(command: str, query: str, answer, render) -> None:
    code = emit(command, query, answer, _G.json, render)
    if code:
        raise typer.Exit(code)


@app.command()
def index(force: bool = typer.Option(False, "--force", help="re-extract and rebuild even if nothing changed")):
    """Build or refresh the workspace graph. Example: jdx index --jars lib/gson.jar"""
    out("index", "", service().index(force=force), text.index)


@app.command()
def cypher(query: str = typer.Argument(..., help="a read-only Cypher query")):
    """Run a read-only Cypher query on the workspace graph. Example: jdx cypher "MATCH (t:Type) RETURN count(t)" """
    out("cypher", query, service().cypher(query), text.table)


@app.command()
def export(directory: str = typer.Argument(..., help="target directory"),
           format: str = typer.Option("parquet", "--format", help="parquet")):
    """Export the workspace graph as an Arrow dataset, one table per node and relationship type. Example: jdx export out/"""
    out("export", directory, service().export(directory, format), text.export)


@app.command()
def doctor():
    """Diagnose the environment: JVM, ASM, javac, graph backend, directories. Example: jdx doctor"""
    answer = service().doctor()
    out("doctor", "", answer, text.doctor)
    if not answer.result["ok"]:
        raise typer.Exit(4)


@app.command()
def version():
    """Print the jdx version. Example: jdx version --json"""
    out("version", "", service().version(), text.version)


@cache_app.command("info")
def cache_info():
    """Sizes of the shard and graph cache. Example: jdx cache info"""
    out("cache", "info", service().cache_info(), text.key_values)


@cache_app.command("gc")
def cache_gc(dry_run: bool = typer.Option(False, "--dry-run", help="list what would go, remove nothing")):
    """Remove shards and graphs no workspace uses. Example: jdx cache gc --dry-run"""
    out("cache", "gc", service().cache_gc(dry_run), text.cache_gc)


@cache_app.command("clear")
def cache_clear():
    """Remove every shard, graph and compiled extractor. Example: jdx cache clear"""
    out("cache", "clear", service().cache_clear(), text.key_values)


@ws_app.command("create")
def ws_create(name: str):
    """Create a workspace from --jars/--src/--jdk. Example: jdx ws create app --jars 'libs/*.jar'"""
    out("ws", f"create {name}", service().ws_create(name), text.ws_spec)


@ws_app.command("list")
def ws_list():
    """List workspaces. Example: jdx ws list"""
    out("ws", "list", service().ws_list(), text.ws_list)


@ws_app.command("info")
def ws_info(name: Optional[str] = typer.Argument(None)):
    """Roots, artifacts and index state of a workspace. Example: jdx ws info app"""
    if name:
        _G.workspace = name
    out("ws", f"info {name or ''}".strip(), service().ws_info(), text.ws_info)


@ws_app.command("remove")
def ws_remove(name: str):
    """Delete a workspace definition (its cached shards stay until cache gc). Example: jdx ws remove app"""
    out("ws", f"remove {name}", service().ws_remove(name), text.key_values)


@ws_app.command("add")
def ws_add(name: str, root: str):
    """Append a jar, glob or class directory to a workspace. Example: jdx ws add app build/classes/java/main"""
    out("ws", f"add {name}", service().ws_add(name, root), text.ws_spec)


@ws_app.command("use")
def ws_use(name: str):
    """Make a workspace the default for later commands. Example: jdx ws use app"""
    out("ws", f"use {name}", service().ws_use(name), text.key_values)


@app.command()
def batch():
    """Answer one query per stdin line from one process and one graph open. Example: jdx batch --json < queries.txt"""
    import shlex
    import sys

    from jdx.cli.main import split_globals
    from jdx.cli.output import command_and_query, emit_error
    from jdx.errors import JdxError

    global _SHARED, _G
    outer = _G
    _SHARED = service()
    try:
        for raw in sys.stdin:
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            try:
                words = shlex.split(line)
            except ValueError as exc:
                emit_error("batch", UsageError(f"unparseable line: {exc}"), outer.json)
                continue
            command, query = command_and_query(words)
            try:
                g, rest = split_globals(words)
                if g.workspace or g.jars or g.src or g.sources or g.jdk is not None or g.cache_dir:
                    raise UsageError("workspace flags belong on the batch command, not on its lines")
                if command == "batch":
                    raise UsageError("batch cannot nest")
                g.json = outer.json
                g.quiet = True
                _G = g
                code = run(g, rest, nested=True)
            except JdxError as exc:
                emit_error(command, exc, outer.json, query)
                code = exc.exit_code
            finally:
                _G = outer
            if not outer.json:
                print(f"(exit {code})" if code else "")
            sys.stdout.flush()
    finally:
        _SHARED = None


@app.command()
def bench(iterations: int = typer.Option(3, "--iterations", help="repetitions of each warm measurement")):
    """Measure indexing and query speed on this machine. Example: jdx bench --json"""
    from jdx.engine.bench import run_bench

    out("bench", "", run_bench(service(), iterations), text.bench)


def _click_exceptions():
    """Typer may vendor click (typer._click) or use the click package; handle whichever it raises."""
    try:
        from typer._click import exceptions  # type: ignore[attr-defined]
    except ImportError:
        from click import exceptions
    return exceptions


def run(g, rest: list[str], nested: bool = False) -> int:
    """Runs one command line (globals already split off); returns the exit code."""
    global _G
    _G = g
    from jdx.cli import (  # noqa: F401 - registers the commands
        commands_cards, commands_daemon, commands_graph, commands_read, commands_samples, commands_search, commands_source)

    exc_mod = _click_exceptions()
    try:
        result = app(args=rest, prog_name="jdx", standalone_mode=False)
    except typer.Exit as exc:
        return exc.exit_code
    except exc_mod.NoArgsIsHelpError as exc:
        print(exc.ctx.get_help() if getattr(exc, "ctx", None) else str(exc))
        return 0
    except exc_mod.UsageError as exc:
        raise UsageError(exc.format_message().splitlines()[0]) from exc
    except typer.Abort:
        return 130
    return result if isinstance(result, int) else 0
