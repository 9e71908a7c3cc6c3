"""The `jdx` command line: global flags anywhere, one facade call per command, errors mapped to exit codes here only."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field

from jdx.errors import EXIT_INTERNAL, EXIT_USAGE, JdxError

VALUE_FLAGS = {"-w": "workspace", "--workspace": "workspace", "--jars": "jars", "--src": "src",
               "--sources": "sources", "--cache-dir": "cache_dir"}
BOOL_FLAGS = {"--json": ("json", True), "--no-color": ("no_color", True), "--jdk": ("jdk", True),
              "--no-jdk": ("jdk", False), "-q": ("quiet", True), "--quiet": ("quiet", True),
              "-v": ("verbose", True), "--verbose": ("verbose", True)}


@dataclass
class Globals:
    workspace: str | None = None
    jars: list[str] = field(default_factory=list)
    src: list[str] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)
    cache_dir: str | None = None
    jdk: bool | None = None
    json: bool = False
    no_color: bool = False
    quiet: bool = False
    verbose: bool = False


def split_globals(argv: list[str]) -> tuple[Globals, list[str]]:
    """Global flags are accepted before or after the command name (spec §7.6)."""
    g = Globals()
    rest: list[str] = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            rest.extend(argv[i:])
            break
        name, eq, inline = arg.partition("=")
        if name in VALUE_FLAGS:
            if eq:
                value = inline
            elif i + 1 < len(argv):
                i += 1
                value = argv[i]
            else:
                raise _usage(f"{name} needs a value")
            attr = VALUE_FLAGS[name]
            if attr in ("jars", "src", "sources"):
                getattr(g, attr).append(value)
            else:
                setattr(g, attr, value)
        elif arg in BOOL_FLAGS:
            attr, value = BOOL_FLAGS[arg]
            setattr(g, attr, value)
        else:
            rest.append(arg)
        i += 1
    return g, rest


def _usage(message: str) -> JdxError:
    from jdx.errors import UsageError

    return UsageError(message)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    json_mode = "--json" in argv
    from jdx.cli.output import command_and_query

    command, query = command_and_query(argv)
    try:
        g, rest = split_globals(argv)
        command, query = command_and_query(rest)
        from jdx.cli.commands import run

        return run(g, rest)
    except JdxError as exc:
        from jdx.cli.output import emit_error

        return emit_error(command, exc, json_mode, query)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # noqa: BLE001 - the one place an unexpected failure becomes exit 6
        if os.environ.get("JDX_DEBUG"):
            raise
        from jdx.cli.output import emit_error

        err = JdxError(f"internal error: {type(exc).__name__}: {exc}".splitlines()[0],
                       hint="re-run with JDX_DEBUG=1 for a traceback")
        return emit_error(command, err, json_mode, query) or EXIT_INTERNAL


def entry() -> None:
    code = main()
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        pass
    sys.exit(code if code is not None else EXIT_USAGE)
