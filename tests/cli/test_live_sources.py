"""A long-lived session (the daemon's, MCP's, HTTP's) reads source files afresh for each request: an agent edits a
source between two questions, and `body`/`source` must show the file as it is now, with the warning a one-shot
process gives, never the text it read before (it kept serving a moved method's old lines, a deleted file's text).
Oracle: the source file itself, and a fresh session's answer."""

from __future__ import annotations

import shutil

import pytest

from jdx.commands.execute import answer_request
from jdx.commands.session import Options, Session
from tests.fixtures.javac import javac_jar

BEFORE = """package ls;
public class Live {
    public int area() {
        return 1;
    }
}
"""
AFTER = """package ls;
public class Live {
    /** Added above, not compiled yet. */
    public int perimeter() {
        return 4;
    }

    public int area() {
        return 1;
    }
}
"""


@pytest.fixture
def project(tmp_path):
    if shutil.which("javac") is None:
        pytest.skip("javac is not installed")
    _jar, classes = javac_jar(tmp_path, {"ls/Live.java": BEFORE}, "ls", "live.jar", debug=True)
    return tmp_path / "src", classes


def _ask(session, name: str, query: str) -> dict:
    outcome = answer_request(session, name, query, {})
    assert outcome.exit_code == 0, outcome.envelope
    return outcome.envelope


def _lines(envelope: dict) -> list[int]:
    return envelope["result"]["source"]["lines"]


def test_an_edited_source_is_read_again_by_the_next_request(project, jdx_home):
    src, classes = project
    opts = Options(jars=[str(classes)], src=[str(src)], jdk=False, cache_dir=str(jdx_home / "cache"))
    session = Session(opts)
    try:
        assert _lines(_ask(session, "body", "ls.Live#area()")) == [3, 5]
        (src / "ls" / "Live.java").write_text(AFTER)
        now = _ask(session, "body", "ls.Live#area()")
        start = AFTER.splitlines().index("    public int area() {") + 1
        assert _lines(now) == [start, start + 2]
        assert "SOURCES_VERSION_MISMATCH" in {w["code"] for w in now["warnings"]}
        shown = _ask(session, "show", "ls.Live")  # the card reads the source (its doc): the edit is said there too
        assert any(w["code"] == "SOURCES_VERSION_MISMATCH" and "perimeter()" in w["message"]
                   for w in shown["warnings"]), shown["warnings"]
        fresh = Session(opts)
        try:
            assert _ask(fresh, "body", "ls.Live#area()") == now  # what a one-shot process answers
        finally:
            fresh.close()
        (src / "ls" / "Live.java").unlink()
        gone = _ask(session, "body", "ls.Live#area()")
        assert gone["result"]["origin"] != "sources", gone["result"]
    finally:
        session.close()
