"""A daemon whose session started the embedded JVM (it indexed a jar) still ends its process when it stops."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest

from jdx.commands.wire import decode_response, encode_request
from jdx.daemon import client
from jdx.daemon.paths import daemon_paths, workspace_flags
from tests.fixtures.build import fixtures_jar


@pytest.mark.soak
def test_idle_daemon_process_exits_after_using_the_jvm(runtime, jdx_home):
    jar = str(fixtures_jar(jdx_home))
    ws = workspace_flags(jars=[jar], jdk=False)
    proc = subprocess.Popen([sys.executable, "-m", "jdx", "daemon", "run", "--idle", "2s", "--no-jdk", "--jars", jar],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=dict(os.environ))
    try:
        sock = client.wait_for_socket(daemon_paths(ws), 60, proc)
        assert sock is not None, proc.stderr.read() if proc.poll() is not None else "no socket"
        sock.close()
        line = client.query(ws, encode_request("show", "fx.Box"), spawn=False, timeout=300)
        assert line is not None and decode_response(line)["ok"], line  # the first query indexes: JVM started
        deadline = time.monotonic() + 60
        while proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.2)
        assert proc.poll() == 0, "the daemon process outlived its idle shutdown"
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.communicate(timeout=30)


@pytest.mark.soak  # ~5 s: spawns and stops a daemon; CI's soak runs it
def test_client_that_spawned_a_daemon_exits_without_resource_warning(runtime, jdx_home):
    """The daemon outlives the client that spawned it by design: the client's exit says nothing about it."""
    jar = str(fixtures_jar(jdx_home))
    ws = workspace_flags(jars=[jar], jdk=False)
    script = ("import json, sys; from jdx.daemon import client; from jdx.commands.wire import encode_request; "
              "line = client.query(json.loads(sys.argv[1]), encode_request('show', 'fx.Box'), timeout=300); "
              "print('answered' if line else 'in-process')")
    proc = subprocess.run([sys.executable, "-W", "always::ResourceWarning", "-c", script, json.dumps(ws)],
                          capture_output=True, text=True, timeout=300, env=dict(os.environ))
    try:
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout.strip() == "answered", proc.stdout + proc.stderr
        assert "ResourceWarning" not in proc.stderr and "still running" not in proc.stderr, proc.stderr
    finally:
        subprocess.run([sys.executable, "-m", "jdx", "daemon", "stop", "--no-jdk", "--jars", jar],
                       capture_output=True, timeout=60, env=dict(os.environ))
