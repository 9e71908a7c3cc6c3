"""`jdx bench` rows for the daemon (DESIGN.md §5): a warm round trip, the transport alone (`health`, no graph
work), and a whole thin-client process.

Both go through a real `jdx daemon run` for the bench's workspace, started here when none runs and
stopped again afterwards, so a bench leaves no daemon behind.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time

from jdx.commands.wire import decode_response, encode_request
from jdx.daemon import client, control
from jdx.errors import JdxError

QUERY = ("members", "java.util.HashMap")


def daemon_rows(workspace: dict, iterations: int = 20, env: dict | None = None) -> list[dict]:
    """Warm daemon round trip (median of `iterations`, first request not counted) and a thin-client process."""
    from jdx.bench.util import row

    saved = dict(os.environ)
    os.environ.update(env or {})
    os.environ.pop("JDX_NO_DAEMON", None)
    started = False
    try:
        started = bool(control.start(workspace, idle=120).get("started"))
        line = encode_request(*QUERY)
        first = client.query(workspace, line, spawn=False)  # opens the graph (or builds it): not counted
        if first is None or not decode_response(first)["ok"]:
            reason = decode_response(first)["error"]["message"] if first else "no answer from the daemon"
            return [{"name": f"warm daemon round trip `{' '.join(QUERY)}`", "value": f"skipped: {reason}",
                     "seconds": 0.0}]
        warm = statistics.median(_round_trip(workspace, line) for _ in range(max(iterations, 10)))
        health = encode_request("health")
        transport = statistics.median(_round_trip(workspace, health) for _ in range(max(iterations, 10)))
        runs = max(iterations // 4, 3)
        process = statistics.median(_client_process(workspace, line) for _ in range(runs))
        one_shot = statistics.median(_cli_process(workspace) for _ in range(runs))
        return [row(f"warm daemon round trip `{' '.join(QUERY)}` (connect, send, read one envelope)", warm,
                    goal_ms=5, digits=2, unit="ms median"),
                row("daemon transport alone: `health` round trip (no graph work)", transport, digits=2,
                    unit="ms median"),
                row(f"thin-client process: python start, client import, round trip `{' '.join(QUERY)}`", process,
                    digits=0, unit="ms median"),
                row(f"one-shot `jdx {' '.join(QUERY)}` through a running daemon (whole CLI process)", one_shot,
                    digits=0, unit="ms median")]
    except JdxError as exc:
        return [{"name": f"warm daemon round trip `{' '.join(QUERY)}`", "value": f"skipped: {exc.message}",
                 "seconds": 0.0}]
    finally:
        if started:
            control.stop(workspace)
        os.environ.clear()
        os.environ.update(saved)


def _round_trip(workspace: dict, line: str) -> float:
    start = time.perf_counter()
    answer = client.query(workspace, line, spawn=False)
    seconds = time.perf_counter() - start
    if answer is None:
        raise JdxError("the daemon stopped answering during the bench")
    return seconds


_CLIENT_PROCESS = ("import json, sys\n"
                   "from jdx.daemon.client import query\n"
                   "line = query(json.loads(sys.argv[1]), sys.argv[2], spawn=False)\n"
                   "sys.stdout.write(line or '')\n")


def _cli_process(workspace: dict) -> float:
    from jdx.daemon.paths import workspace_argv

    before = (control.status(workspace) or {}).get("queries", 0)
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "jdx", *QUERY, *workspace_argv(workspace)], capture_output=True,
                         text=True, timeout=120)
    seconds = time.perf_counter() - start
    if out.returncode != 0 or (control.status(workspace) or {}).get("queries", 0) <= before:
        raise JdxError(f"the CLI did not answer through the daemon: {out.stderr.strip()[:200]}")
    return seconds


def _client_process(workspace: dict, line: str) -> float:
    import json

    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", _CLIENT_PROCESS, json.dumps(workspace), line],
                         capture_output=True, text=True, timeout=60)
    seconds = time.perf_counter() - start
    if not out.stdout.strip():
        raise JdxError(f"the thin client got no answer: {out.stderr.strip()[:200]}")
    return seconds
