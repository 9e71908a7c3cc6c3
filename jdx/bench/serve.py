"""`jdx bench` rows for the agent adapters (spec §14.2, §14.4): a warm MCP tool call over stdio and a warm
HTTP round trip, each against a real `jdx mcp` / `jdx serve` child process for the bench's workspace.

Each child is started here and ended when its rows are measured; the first call (which opens or builds
the graph) is not counted. The MCP row is skipped with its reason when the `mcp` extra is not installed.
"""

from __future__ import annotations

import http.client
import importlib.util
import os
import socket
import statistics
import subprocess
import sys
import time

TOOL, QUERY = "members", "java.util.HashMap"


def serve_rows(workspace_args: list[str], env: dict, iterations: int = 20) -> list[dict]:
    return [_mcp_row(workspace_args, env, iterations), _http_row(workspace_args, env, iterations)]


def _mcp_row(workspace_args: list[str], env: dict, iterations: int) -> dict:
    from jdx.bench.util import row

    name = f"warm MCP tool call `jdx_{TOOL} {QUERY}` over stdio (SDK client, call to result)"
    if importlib.util.find_spec("mcp") is None:
        return {"name": name, "value": "skipped: the mcp extra is not installed (pip install 'jdx[mcp]')",
                "seconds": 0.0}
    import anyio
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    params = StdioServerParameters(command=sys.executable, args=["-m", "jdx", "mcp", *workspace_args],
                                   env={k: v for k, v in env.items() if k != "JDX_NO_DAEMON"})

    async def measure() -> float | str:
        async with Client(params, read_timeout_seconds=600) as client:
            first = await client.call_tool(f"jdx_{TOOL}", {"query": QUERY})
            if first.is_error:
                return first.content[0].text.splitlines()[0]
            samples = []
            for _ in range(max(iterations, 10)):
                start = time.perf_counter()
                await client.call_tool(f"jdx_{TOOL}", {"query": QUERY})
                samples.append(time.perf_counter() - start)
            return statistics.median(samples)

    got = anyio.run(measure)
    if isinstance(got, str):
        return {"name": name, "value": f"skipped: {got}", "seconds": 0.0}
    return row(name, got, goal_ms=10, digits=2, unit="ms median")


def _http_row(workspace_args: list[str], env: dict, iterations: int) -> dict:
    from jdx.bench.util import row

    name = f"warm HTTP round trip `GET /v1/{TOOL}?query={QUERY}` (jdx serve, new connection each)"
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "jdx", "serve", "--port", str(port), *workspace_args],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    path = f"/v1/{TOOL}?query={QUERY}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                status, _ = _get(port, "/v1/health")
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    return {"name": name, "value": "skipped: jdx serve did not start", "seconds": 0.0}
                time.sleep(0.1)
        status, _ = _get(port, path, timeout=600)  # opens or builds the graph: not counted
        if status != 200:
            return {"name": name, "value": f"skipped: HTTP {status}", "seconds": 0.0}
        samples = []
        for _ in range(max(iterations, 10)):
            start = time.perf_counter()
            _get(port, path)
            samples.append(time.perf_counter() - start)
        return row(name, statistics.median(samples), goal_ms=5, digits=2, unit="ms median")
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _get(port: int, path: str, timeout: float = 30) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", path)
        resp = conn.getresponse()
        return resp.status, resp.read()
    finally:
        conn.close()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main() -> None:
    """Only these rows: `python -m jdx.bench.serve [workspace flags]` (the JDK workspace by default)."""
    import json

    rows = serve_rows(sys.argv[1:], dict(os.environ), 30)
    for r in rows:
        print(json.dumps(r, ensure_ascii=False))


if __name__ == "__main__":
    main()
