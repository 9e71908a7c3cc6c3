"""A daemon process serving a fake executor, for fault tests that need a real process to kill.

Usage: python fake_daemon.py WORKSPACE_JSON IDLE
"""

from __future__ import annotations

import json
import sys
import time

from jdx.daemon.paths import daemon_paths
from jdx.daemon.server import serve

COMMANDS = frozenset({"members", "slow", "boom", "missing"})


def execute(command: str, query: str, params: dict) -> dict:
    """Echoes the request as a success envelope; `slow` sleeps `params["seconds"]` first."""
    from jdx.errors import NotFoundError

    if command == "slow":
        time.sleep(float(params.get("seconds", "1")))
    if command == "boom":
        raise RuntimeError("the executor failed")
    if command == "missing":
        raise NotFoundError(f"no type {query}", candidates=[{"ref": "java.util.HashMap"}])
    return {"jdx": 1, "ok": True, "command": command, "query": query,
            "result": {"params": {k: list(v) if isinstance(v, tuple) else v for k, v in sorted(params.items())}},
            "truncated": None, "warnings": [], "provenance": [{"origin": "fake"}]}


if __name__ == "__main__":
    workspace = json.loads(sys.argv[1])
    print(serve(daemon_paths(workspace), execute, COMMANDS, idle=float(sys.argv[2]), workspace=workspace),
          flush=True)
