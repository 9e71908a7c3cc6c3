"""jdx's own processes raise the collector's young-generation threshold (`jdx.cli.main.GC_THRESHOLDS`); a program
that imports jdx as a library keeps its own."""

from __future__ import annotations

import gc
import subprocess
import sys

import pytest

from jdx.cli import main as cli_main


@pytest.fixture
def restored_thresholds():
    before = gc.get_threshold()
    yield
    gc.set_threshold(*before)


def test_the_process_entry_raises_the_young_generation_threshold(monkeypatch, restored_thresholds):
    gc.set_threshold(700, 10, 10)
    seen = []
    monkeypatch.setattr(cli_main, "main", lambda argv=None: seen.append(gc.get_threshold()) or 0)
    with pytest.raises(SystemExit) as done:
        cli_main.entry()
    assert done.value.code == 0
    assert seen == [cli_main.GC_THRESHOLDS]  # set before the command runs, so the command's answer gains
    assert cli_main.GC_THRESHOLDS[0] >= 10_000


def test_importing_jdx_as_a_library_leaves_the_collector_alone():
    code = ("import gc; gc.set_threshold(123, 4, 5); import jdx, jdx.cli.main, jdx.commands.session, "
            "jdx.commands.api; print(gc.get_threshold())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "(123, 4, 5)"


def test_python_dash_m_jdx_tunes_it_as_the_daemon_mcp_and_serve_start():
    """The daemon is spawned as `python -m jdx daemon run` (`jdx.daemon.client.spawn_daemon`), `jdx mcp` and `jdx
    serve` are commands of the same entry: the module form reaches `entry`, which tunes the collector."""
    code = ("import gc, runpy, sys; gc.set_threshold(123, 4, 5); import jdx.cli.main as m; "
            "m.main = lambda argv=None: print(gc.get_threshold()) or 0; sys.argv = ['jdx', 'daemon', 'run']; "
            "runpy.run_module('jdx', run_name='__main__')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == str(cli_main.GC_THRESHOLDS)
