"""A thin way to run `jdx diff` (request -> run -> envelope or text -> exit status) from tests, in process or as
`python -m tests.diff.shim OLD NEW [flags]`, until the command registry generates the CLI."""

from __future__ import annotations

import argparse
import sys

from jdx.commands.diff import DiffRequest, exit_status, render, run
from jdx.engine.envelope import dumps, error_lines, failure, success, warning_lines
from jdx.errors import JdxError, UsageError


def main(argv: list[str]) -> tuple[int, str]:
    parser = argparse.ArgumentParser(prog="jdx diff", exit_on_error=False, add_help=False)
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--visibility", default="public")
    parser.add_argument("--include-synthetic", action="store_true")
    parser.add_argument("--severity", default="all")
    parser.add_argument("--fail-on", default="none")
    parser.add_argument("--limit", type=int, default=200)
    parser.add_argument("--out")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--no-color", action="store_true")
    parser.add_argument("--cache-dir")
    query = " ".join(a for a in argv[:2])
    json_mode = "--json" in argv
    try:
        try:
            ns = parser.parse_args(argv)
        except (argparse.ArgumentError, SystemExit) as exc:
            raise UsageError(f"diff: {exc}") from None
        request = DiffRequest(ns.old, ns.new, ns.visibility, ns.include_synthetic, ns.severity, ns.fail_on,
                              ns.limit, ns.out, ns.cache_dir)
        answer = run(None, request)
    except JdxError as exc:
        text = dumps(failure("diff", query, exc)) if json_mode else "\n".join(error_lines(exc))
        return exc.exit_code, text
    if json_mode:
        return exit_status(answer.result), dumps(success("diff", query, answer))
    lines = render(answer.result, request) + warning_lines(answer.warnings)
    return exit_status(answer.result), "\n".join(lines)


if __name__ == "__main__":
    code, text = main(sys.argv[1:])
    print(text)
    sys.exit(code)
