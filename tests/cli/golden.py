"""What every golden-file module shares: running the CLI in this process, and comparing an output with its
golden file (text byte for byte, JSON as parsed data; nothing machine-specific may reach a golden).
Regenerate with `JDX_UPDATE_GOLDENS=1 pytest <module>`, then review the diff."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import Run

GOLDENS = Path(__file__).resolve().parent.parent / "goldens"
UPDATE = os.environ.get("JDX_UPDATE_GOLDENS") == "1"


@contextlib.contextmanager
def in_process(jdx_env: dict) -> Iterator:
    """A runner of `jdx.cli.main.main(argv)` in this process with the session's cache and config: hundreds of
    cases take seconds instead of half a minute of interpreter start-ups."""
    from jdx.cli.main import main

    def run(argv: list[str]) -> Run:
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv)
        return Run(code, out.getvalue(), err.getvalue())

    with pytest.MonkeyPatch.context() as mp:
        # one-shot answers: the daemon's bytes are the same (tests/cli/test_adapter_parity.py proves it)
        for var in ("JDX_CACHE_DIR", "JDX_CONFIG_DIR", "JDX_RUNTIME_DIR", "JDX_NO_DAEMON"):
            mp.setenv(var, jdx_env[var])
        for var in ("JDX_WORKSPACE", "JDX_GRAPH_BACKEND"):
            mp.delenv(var, raising=False)
        yield run


@contextlib.contextmanager
def jar_runner(run_jdx, jdx_env: dict, jar: Path) -> Iterator:
    """`run(*argv) -> stdout` of queries on `jar` alone (no JDK) in this process, the jar indexed first; every
    answer must exit 0."""
    args = ["--jars", str(jar), "--no-jdk"]
    r = run_jdx("index", *args)
    assert r.code == 0, r.err
    with in_process(jdx_env) as run_here:
        def run(*argv: str) -> str:
            got = run_here([*args, *argv])
            assert got.code == 0, got.out + got.err
            return got.out
        yield run


def check(path: Path, run: Run, code: int, jdx_home: Path) -> None:
    """`run` exited with `code` and printed what `path` holds (stdout, or stderr when stdout is empty)."""
    name = path.name
    assert run.code == code, f"{name}: exit {run.code}, expected {code}\n{run.out}{run.err}"
    text = run.out if run.out else run.err
    text = text.replace(str(jdx_home.parent), "<tmp>")  # a `next:` step repeats the command line's --jars
    assert not re.search(r"/tmp/|/home/|/root/", text), text
    is_json = path.suffix == ".json"
    got = json.loads(text) if is_json else text
    if UPDATE or not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(got, indent=1, ensure_ascii=False) + "\n" if is_json else text)
        if not UPDATE:
            pytest.fail(f"{name} was missing and has been written; review it and re-run")
    want = json.loads(path.read_text()) if is_json else path.read_text()
    assert got == want, f"{name} differs (JDX_UPDATE_GOLDENS=1 to regenerate, then review the diff)"


def no_stale(folder: Path, pattern: str, names: set[str]) -> None:
    """A renamed case must not leave a stale golden behind: every file matching `pattern` is expected."""
    present = {p.name for p in folder.glob(pattern)} if folder.exists() else set()
    assert present <= names, sorted(present - names)
