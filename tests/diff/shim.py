"""`jdx diff ...` through the real CLI entry point, in process: (exit code, stdout + stderr)."""

from __future__ import annotations

import contextlib
import io

from jdx.cli.main import main as cli_main


def main(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        code = cli_main(["diff", *argv])
    return code, out.getvalue().rstrip("\n")
