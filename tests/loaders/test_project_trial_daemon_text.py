"""`jdx daemon status` text (spec §14.3): the workspace line of a discovered project, with and without --tests."""

from __future__ import annotations

from jdx.cli.commands_daemon import _lines


def test_status_text_names_the_project_and_tests_flag():
    workspace = {"workspace": None, "jars": [], "src": [], "sources": [], "jdk": True, "project": "/p/app",
                 "tests": True}
    lines = _lines({"pid": 7, "workspace": workspace})
    assert "workspace: project /p/app; --tests; with the JDK" in lines


def test_status_text_of_coordinates():
    lines = _lines({"pid": 7, "workspace": {"coords": ["a:b:1", "c:d:2"], "jdk": False}})
    assert "workspace: --coord a:b:1, c:d:2; without the JDK" in lines
