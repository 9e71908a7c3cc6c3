"""`jdx_workspace` (MCP and HTTP) answers what `jdx ws info` does, plus the graph's row counts: a trial through MCP
alone got 70 lines of JDK modules and neither how `--coord` resolved nor which sources exist (so that `doc` would
be empty was not knowable up front). Oracle: `ws info --json` of the same workspace."""

from __future__ import annotations

import json

import pytest

from jdx.commands import workspace_info
from tests.conftest import GSON
from tests.service import JdxService, Options

pytestmark = pytest.mark.soak  # a gson + JDK workspace of its own: the soak runs it (.ci/run)


@pytest.fixture(scope="module")
def answer(jdx_home):
    if not GSON.exists():
        pytest.skip(f"{GSON} is absent (Debian package libgoogle-gson-java, see .ci/run)")
    service = JdxService(Options(cache_dir=str(jdx_home / "cache"), jars=[str(GSON)]))
    try:
        yield workspace_info.run_workspace(service).result
    finally:
        service.close()


def test_the_tool_says_what_ws_info_says(answer, run_jdx):
    info = json.loads(run_jdx("ws", "info", "--jars", str(GSON), "--json").out)["result"]
    for key in ("how", "found", "classpath", "sources", "artifacts"):
        assert answer[key] == info[key], key
    assert answer["indexed"] is True and answer["rows"]["Type"] > 20000


def test_its_text_folds_the_jdk_modules_and_names_the_sources(answer):
    lines = workspace_info.render(answer)
    modules = [a for a in answer["artifacts"] if a["kind"] == "jrt"]
    assert len(modules) > 50 and not any(line.startswith("  jrt java.") for line in lines), lines[:5]
    assert any(line.startswith(f"  jrt {len(modules)} JDK modules") for line in lines), lines
    assert any(line.startswith("  jar gson.jar") for line in lines), lines
    assert any(line.startswith("  sources ") and "for the JDK" in line for line in lines) == \
        any(s["for"] == "jdk" for s in answer["sources"]), lines
    assert lines[-1].startswith("graph rows: Artifact ") and len(lines) < 10, lines
