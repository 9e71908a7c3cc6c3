"""A first build of a project (its jars and a class directory) says which graph each phase builds (t54): the jars'
graph its class directories are added to, then the workspace's; never `building the workspace graph` twice."""

from __future__ import annotations

import pytest

from jdx.cli.output import _phase_lines
from jdx.loaders.indexer import ensure_graph
from jdx.loaders.roots import Artifact
from tests.loaders.test_graph_build import FakeExtractor, artifact
from tests.loaders.test_incremental_graph import CORPUS

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)


def test_a_projects_first_build_names_each_graph_it_builds(tmp_path):
    classes = Artifact("dir", "/fake/classes", "solo.jar", "classes".ljust(32, "0"), "dir:/fake/classes")
    stages: list[tuple[str, int]] = []
    said: list[str] = []
    lines = _phase_lines(said.append)

    def progress(stage: str, done: int, total: int, note: str = "") -> None:
        stages.append((stage, done))
        lines(stage, done, total, note)

    report = ensure_graph(tmp_path / "cache", [classes, artifact("base.jar"), artifact("lib.jar")],
                          extractor=FakeExtractor(CORPUS), progress=progress)
    assert report.incremental, report  # grown from the jars' graph, which a class directory's next change reuses
    assert [s for s in stages if s[0] != "extract"] == [("jars-graph", 0), ("jars-graph", 1), ("graph", 0),
                                                        ("graph", 1)], stages
    built = [line for line in said if "graph" in line]
    assert built == ["jdx: building the graph of the workspace's jars (its class directories are added next)",
                     "jdx: jars' graph ready", "jdx: building the workspace graph", "jdx: workspace graph ready"], said
