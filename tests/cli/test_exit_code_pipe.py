"""An answer's exit code survives a reader that closes the pipe early (`jdx … | head -1`, `| true`): with
`pipefail`, a not-found (1) or an ambiguity (2) must never read as success (spec §16), and no traceback or
`Exception ignored` line reaches stderr. The real entry point runs as a subprocess whose stdout is closed at once."""

from __future__ import annotations

import subprocess
import sys

import pytest


def _closed_reader(args: list[str], env: dict, cwd) -> tuple[int, str]:
    proc = subprocess.Popen([sys.executable, "-m", "jdx", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=env, cwd=cwd)
    proc.stdout.close()  # the reader is gone before jdx writes a byte
    with proc.stderr:
        err = proc.stderr.read().decode()
    return proc.wait(timeout=300), err


@pytest.mark.parametrize("args, code", [
    (["members", "java.util.NoSuchTypeAnywhere"], 1),
    (["members", "Entry", "--json"], 2),  # ambiguous: Map.Entry, …
    (["members", "java.util.HashMap"], 0),
])
def test_exit_code_survives_a_closed_pipe(jdx_env, tmp_path, args, code):
    rc, err = _closed_reader(args, jdx_env, tmp_path)
    assert rc == code, err
    assert "Traceback" not in err and "Exception ignored" not in err
