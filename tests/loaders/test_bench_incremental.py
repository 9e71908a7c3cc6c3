"""`jdx.bench.incremental`'s class-directory rows: the fresh-process row runs without a daemon and the daemon rows
through the workspace's daemon, whatever the caller's environment says about daemons."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("caller", [{}, {"JDX_NO_DAEMON": "1"}])
def test_the_daemon_rows_use_the_daemon_even_when_the_caller_turned_daemons_off(monkeypatch, caller):
    from jdx.bench import incremental

    runs: list[tuple[list[str], dict]] = []

    def fake_run(args: list[str], env: dict):
        runs.append((args, env))
        return 0.5, {"ok": True, "result": {}}

    monkeypatch.setattr(incremental, "_run", fake_run)
    monkeypatch.setattr(incremental, "_javac", lambda out, sources, classpath=None: None)
    rows = incremental._class_dir_rows({"JDX_CACHE_DIR": "/nowhere", **caller}, ["jdx"], 10.0)
    assert len(rows) == 3 and "a new process, no daemon" in rows[0]["name"]
    members = [env for args, env in runs if "members" in args]
    assert len(members) == 4  # the fresh process, the daemon's first answer, two recompiles through it
    assert members[0].get("JDX_NO_DAEMON") == "1"
    assert all("JDX_NO_DAEMON" not in env for env in members[1:])
    assert all(env["JDX_CACHE_DIR"] == "/nowhere" for _args, env in runs)
