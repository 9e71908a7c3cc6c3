"""A query's text folds the warnings on how the classpath was found into one line (a trial on palantir-java-format:
9 lines, 1.5 KB, after every answer of one `--coord` workspace: DEPENDENCY_MISSING, RESOLVE_PROBLEM, 7 POM_MISSING):
the line names their codes and counts and where each is printed (`ws info`); `--json` keeps every one, and `ws info`
prints each. A single such warning stays as written; other warnings are never folded."""

from __future__ import annotations

import json

import pytest

from jdx.render.envelope import warning_lines_json
from tests.fixtures.javac import javac_jar
from tests.maven import fixture as fx


def test_several_resolution_warnings_are_one_line_where_the_first_was():
    items = [{"code": "NO_SOURCES", "message": "a"}, {"code": "DEPENDENCY_MISSING", "message": "2 artifacts …"},
             {"code": "POM_MISSING", "message": "x"}, {"code": "DUPLICATE_CLASS", "message": "d"},
             {"code": "POM_MISSING", "message": "y"}]
    lines = warning_lines_json(items, fold_resolution=True)
    assert lines == ["⚠ NO_SOURCES: a",
                     "⚠ 3 warnings on how the classpath was found (DEPENDENCY_MISSING, POM_MISSING ×2): jdx ws info "
                     "prints each (with the same workspace flags); --json carries them",
                     "⚠ DUPLICATE_CLASS: d"], lines
    assert warning_lines_json(items) == [f"⚠ {w['code']}: {w['message']}" for w in items]  # ws info, index
    one = [{"code": "POM_MISSING", "message": "x"}, {"code": "NO_SOURCES", "message": "a"}]
    assert warning_lines_json(one, fold_resolution=True) == ["⚠ POM_MISSING: x", "⚠ NO_SOURCES: a"]


@pytest.fixture(scope="module")
def repo(tmp_path_factory):
    root = tmp_path_factory.mktemp("folded")
    # gone-a and gone-b are absent (DEPENDENCY_MISSING), nopom's jar is there without its POM (POM_MISSING)
    missing = fx.deps(fx.dep("gone-a", "1.0", group="org.fw"), fx.dep("gone-b", "2.0", group="org.fw"),
                      fx.dep("nopom", "1.0", group="org.fw"))
    pom = fx._pom("app", "1.0", missing, group="org.fw")
    jar, _ = javac_jar(root / "app", {"f/a/App.java": "package f.a;\npublic class App {}\n"}, "f", "app.jar")
    folder = root / "repo" / "org" / "fw" / "app" / "1.0"
    folder.mkdir(parents=True)
    (folder / "app-1.0.jar").write_bytes(jar.read_bytes())
    (folder / "app-1.0.pom").write_text(pom)
    lone = root / "repo" / "org" / "fw" / "nopom" / "1.0"
    lone.mkdir(parents=True)
    other, _ = javac_jar(root / "nopom", {"f/n/N.java": "package f.n;\npublic class N {}\n"}, "f", "nopom.jar")
    (lone / "nopom-1.0.jar").write_bytes(other.read_bytes())
    return root


@pytest.mark.soak  # Maven's resolver starts a JVM helper (~10 s): the soak runs it (.ci/run)
def test_a_query_folds_them_and_json_and_ws_info_keep_each(repo, run_jdx):
    env = {"JDX_MAVEN_REPO": str(repo / "repo"), "JDX_GRADLE_CACHE": str(repo / "no-gradle")}
    flags = ("--no-jdk", "--coord", "org.fw:app:1.0")
    r = run_jdx(*flags, "--json", "show", "f.a.App", env=env)
    assert r.code == 0, r.out + r.err
    found = [w for w in json.loads(r.out)["warnings"] if w["code"] in ("DEPENDENCY_MISSING", "POM_MISSING")]
    assert len(found) >= 2 and any("gone-a" in w["message"] for w in found), found
    text = run_jdx(*flags, "show", "f.a.App", env=env)
    marks = [line for line in text.out.splitlines() if line.startswith("⚠")]
    assert len(marks) == 1 and "warnings on how the classpath was found" in marks[0], text.out
    assert "DEPENDENCY_MISSING" in marks[0] and "jdx ws info prints each" in marks[0], marks
    info = run_jdx(*flags, "ws", "info", env=env)
    printed = [line for line in info.out.splitlines() + info.err.splitlines() if line.startswith("⚠")]
    assert len(printed) == len(found) and any("gone-a" in line for line in printed), info.out + info.err
