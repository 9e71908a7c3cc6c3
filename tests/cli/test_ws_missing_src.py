"""A workspace's stored source directory that does not exist fails every query (exit 5, ARTIFACT_READ_ERROR naming
it, a hint to drop it), as a missing jar of the workspace does: before, the queries answered from decompiled text as
if the workspace had no sources, while `ws create` had said they would fail. `ws info` lists it as unreadable.

Oracle: the path on disk (created between the two queries).
"""

from __future__ import annotations

import json

from tests.serve_support import cli


def test_a_missing_workspace_src_fails_queries_until_it_exists(tmp_path, monkeypatch):
    monkeypatch.setenv("JDX_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("JDX_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("JDX_NO_DAEMON", "1")
    monkeypatch.delenv("JDX_WORKSPACE", raising=False)
    jar, src = tmp_path / "a.jar", tmp_path / "src"
    jar.write_bytes(b"PK\x05\x06" + b"\0" * 18)  # an empty zip
    created = cli(["ws", "create", "app", "--jars", str(jar), "--src", str(src), "--no-jdk"])
    assert created.code == 0
    assert f"{src}: no such file or directory (yet): queries of this workspace fail (exit 5)" in created.out

    failed = cli(["ls", "-w", "app", "--json"])
    assert failed.code == 5
    error = json.loads(failed.out)["error"]
    assert error["code"] == "ARTIFACT_READ_ERROR"
    assert error["message"] == f"cannot read src {src}: no such file or directory"
    assert "jdx ws drop app PATH" in error["hint"]
    info = json.loads(cli(["ws", "info", "app", "--json"]).out)["result"]
    assert info["unreadable"] == [f"src {src}: no such file or directory"] and info["indexed"] is False

    src.mkdir()
    answered = cli(["ls", "-w", "app", "--json"])
    assert answered.code != 5 and json.loads(answered.out)["ok"], answered.out
    assert "unreadable" not in json.loads(cli(["ws", "info", "app", "--json"]).out)["result"]
