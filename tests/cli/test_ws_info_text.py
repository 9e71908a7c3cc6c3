"""`jdx ws info` in text: the workspace's jars one per line, the JDK's modules on one line that counts them (the
JSON keeps every artifact)."""

from __future__ import annotations

import json

from tests.conftest import GSON


def test_jdk_modules_are_one_line_the_json_lists_each(run_jdx, tmp_path):
    ws = ["--jars", str(GSON)]
    as_json = run_jdx(*ws, "ws", "info", "--json")
    assert as_json.code == 0, as_json.err
    artifacts = json.loads(as_json.out)["result"]["artifacts"]
    modules = [a["name"] for a in artifacts if a["kind"] == "jrt"]
    assert len(modules) > 10 and "java.base" in modules

    text = run_jdx(*ws, "ws", "info")
    assert text.code == 0, text.err
    lines = text.out.splitlines()
    assert [ln for ln in lines if ln.startswith("  jar ")] == [f"  jar gson.jar  {GSON}"]
    (jrt,) = [ln for ln in lines if ln.startswith("  jrt ")]
    assert jrt == f"  jrt {len(modules)} JDK modules  {modules[0]} … {modules[-1]}  (--json lists each)"
    assert len([ln for ln in lines if not ln.startswith("  sources ")]) == 3  # header, the jar, the JDK


def test_a_workspace_without_the_jdk_lists_no_module_line(run_jdx):
    text = run_jdx("--jars", str(GSON), "--no-jdk", "ws", "info")
    assert text.code == 0, text.err
    assert not [ln for ln in text.out.splitlines() if ln.startswith("  jrt ")]
