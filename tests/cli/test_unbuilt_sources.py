"""A checkout that is not built (jdx/engine/unbuilt_sources.py, docs/sources.md "Projects that are not built"):
not-found names the file that declares the type, and `source`/`body`/`doc` read it, labelled SOURCE_ONLY; a built
project still answers from the graph."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.fixtures import jdktool

POM = ('<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>'
       "<groupId>demo</groupId><artifactId>demo</artifactId><version>1.0</version></project>\n")
APP = """package demo;

/** The app. */
public class App {
    /** Greets. */
    public String greet(String name) {
        return "hi " + name;
    }

    /** Greets a number. */
    public String greet(int n) {
        return "hi " + n;
    }

    public static void main(String[] a) {
        System.out.println(new App().greet("x"));
    }
}
"""
TOOLS_KT = """package demo.kt

/** Says hello. */
class Greeter(val prefix: String) {
    /** Greets by name. */
    fun greet(name: String): String = prefix + name
}

object Registry {
    fun all(): List<String> = listOf()
}
"""


@pytest.fixture
def maven(tmp_path) -> Path:
    root = tmp_path / "mvn"
    (root / "src/main/java/demo").mkdir(parents=True)
    (root / "pom.xml").write_text(POM)
    (root / "src/main/java/demo/App.java").write_text(APP)
    return root


@pytest.fixture
def gradle(tmp_path) -> Path:
    root = tmp_path / "gr"
    (root / "src/main/kotlin/demo/kt").mkdir(parents=True)
    (root / "settings.gradle.kts").write_text('rootProject.name = "gr"\n')
    (root / "build.gradle.kts").write_text("")
    (root / "src/main/kotlin/demo/kt/Tools.kt").write_text(TOOLS_KT)  # named unlike its classes
    return root


def _json(run_jdx, root: Path, *args: str) -> tuple[int, dict]:
    r = run_jdx("--project", str(root), *args, "--json")
    return r.code, json.loads(r.out)

@pytest.mark.soak  # slow: the soak runs it (.ci/run)

def test_not_found_names_the_file_without_jdk_noise(run_jdx, maven):
    for args in (("show", "demo.App"), ("members", "demo.App"), ("usages", "demo.App#greet")):
        r = run_jdx("--project", str(maven), *args)
        assert r.code == 1, r
        first = r.out.splitlines()[0]
        assert first.startswith("not found in the graph: demo.App"), first
        assert "is declared in src/main/java/demo/App.java, but its module is not built (mvn compile)" in first
        assert "did you mean" not in r.out and "java.applet" not in r.out
    assert "jdx source demo.App reads the file" in run_jdx("--project", str(maven), "show", "demo.App").out
    code, env = _json(run_jdx, maven, "members", "demo.App")
    assert code == 1 and env["error"]["code"] == "NOT_FOUND" and env["candidates"] == []
    assert env["result"]["declared_in"] == {"type": "demo.App", "file": "src/main/java/demo/App.java",
                                            "language": "java"}


@pytest.mark.soak  # a Maven project build (~3.5 s); the module's other cases stay in the default tier
def test_neither_graph_nor_sources_is_plain_not_found(run_jdx, maven):
    code, env = _json(run_jdx, maven, "source", "demo.Nope")
    assert code == 1 and env["error"]["message"] == "not found: demo.Nope" and "result" not in env
    code, env = _json(run_jdx, maven, "body", "demo.App#nope")
    assert code == 1 and "no member nope" in env["error"]["message"]


def test_source_body_doc_from_the_file(run_jdx, maven):
    r = run_jdx("--project", str(maven), "source", "demo.App")
    assert r.code == 0, r
    lines = r.out.splitlines()
    assert lines[0] == ("source: unbuilt source (src/main/java/demo/App.java:1-18)   ⚠ not compiled: the module is "
                        "not built; matched by name in the source text")
    assert lines[1:19] == APP.splitlines()
    assert "⚠ SOURCE_ONLY: demo.App is not in the graph" in r.out

    code, env = _json(run_jdx, maven, "body", "demo.App#greet(String)")
    assert code == 0, env
    res = env["result"]
    assert res["ref"] == "demo.App#greet(String)" and res["origin"] == "unbuilt_source"
    assert res["text"] == APP.splitlines()[5:8] and res["first_line"] == 6
    assert env["provenance"] == [{"symbol": "demo.App#greet(String)", "artifact": None, "origin": "unbuilt_source",
                                  "file": "src/main/java/demo/App.java", "lines": [6, 8],
                                  "detail": "not compiled: the module is not built; matched by name in the source "
                                            "text"}]
    assert "SOURCE_ONLY" in [w["code"] for w in env["warnings"]]

    r = run_jdx("--project", str(maven), "source", "demo.App", "--around", "greet(int)", "--context", "0")
    assert r.code == 0 and r.out.splitlines()[1:4] == APP.splitlines()[10:13], r.out

    code, env = _json(run_jdx, maven, "doc", "demo.App#greet")  # every overload, as from the graph
    assert code == 0 and [d["text"] for d in env["result"]["docs"]] == [["Greets."], ["Greets a number."]]
    r = run_jdx("--project", str(maven), "doc", "demo.App")
    assert r.code == 0 and r.out.splitlines()[:3] == [
        "class demo.App", "source: unbuilt source (src/main/java/demo/App.java:3-3)", "  The app."], r.out


def test_overloads_without_parameters_are_ambiguous(run_jdx, maven):
    code, env = _json(run_jdx, maven, "body", "demo.App#greet")
    assert code == 2 and env["error"]["code"] == "AMBIGUOUS"
    assert [c["ref"] for c in env["candidates"]] == ["demo.App#greet(String)", "demo.App#greet(int)"]


@pytest.mark.soak  # slow: the soak runs it (.ci/run)
def test_simple_names_find_the_file(run_jdx, maven):
    """`App` (as an agent in the project writes it) finds src/main/java/demo/App.java; two files declaring an `App`
    are an ambiguity that names both, with refs that work."""
    r = run_jdx("--project", str(maven), "show", "App")
    assert r.code == 1 and r.out.splitlines()[0].startswith(
        "not found in the graph: demo.App is declared in src/main/java/demo/App.java"), r.out
    assert "java.applet" not in r.out
    code, env = _json(run_jdx, maven, "body", "App#greet(int)")
    assert code == 0 and env["result"]["ref"] == "demo.App#greet(int)", env
    assert env["result"]["text"] == APP.splitlines()[10:13]
    (maven / "src/main/java/other").mkdir()
    (maven / "src/main/java/other/App.java").write_text(APP.replace("package demo;", "package other;"))
    code, env = _json(run_jdx, maven, "members", "App")
    assert code == 1 and env["result"]["declared_in_files"] == [
        {"type": "demo.App", "file": "src/main/java/demo/App.java", "language": "java"},
        {"type": "other.App", "file": "src/main/java/other/App.java", "language": "java"}], env
    code, env = _json(run_jdx, maven, "body", "App#greet(int)")
    assert code == 2 and [c["ref"] for c in env["candidates"]] == ["demo.App#greet(int)", "other.App#greet(int)"]
    code, env = _json(run_jdx, maven, "body", env["candidates"][1]["ref"])
    assert code == 0 and env["result"]["ref"] == "other.App#greet(int)", env


def test_same_bytes_on_repeat(run_jdx, maven):
    first = run_jdx("--project", str(maven), "body", "demo.App#main", "--json")
    assert first.code == 0 and first.out == run_jdx("--project", str(maven), "body", "demo.App#main", "--json").out


@pytest.mark.soak  # slow: the soak runs it (.ci/run)
def test_kotlin_file_named_otherwise(run_jdx, gradle):
    r = run_jdx("--project", str(gradle), "show", "demo.kt.Greeter")
    assert r.code == 1 and r.out.startswith("not found in the graph: demo.kt.Greeter is declared in "
                                            "src/main/kotlin/demo/kt/Tools.kt, but its module is not built"), r.out
    code, env = _json(run_jdx, gradle, "body", "demo.kt.Greeter#greet")
    assert code == 0, env
    assert env["result"]["text"] == ["    fun greet(name: String): String = prefix + name"]
    code, env = _json(run_jdx, gradle, "doc", "demo.kt.Greeter#greet(String)")
    assert code == 0 and env["result"]["docs"][0]["text"] == ["Greets by name."], env
    code, env = _json(run_jdx, gradle, "body", "demo.kt.Registry")
    assert code == 0 and env["result"]["text"][0] == "object Registry {", env
    r = run_jdx("--project", str(gradle), "show", "Greeter")  # a bare simple name: the Kotlin file is read too
    assert r.code == 1 and r.out.startswith("not found in the graph: demo.kt.Greeter is declared in "
                                            "src/main/kotlin/demo/kt/Tools.kt"), r.out
    code, env = _json(run_jdx, gradle, "body", "Greeter#greet")
    assert code == 0 and env["result"]["ref"] == "demo.kt.Greeter#greet(String)", env


@pytest.mark.soak  # slow: the soak runs it (.ci/run)
@pytest.mark.skipif(shutil.which("javac") is None, reason="javac is not installed")
def test_a_built_project_answers_from_the_graph(run_jdx, maven):
    classes = maven / "target" / "classes"
    jdktool.run(["javac", "-g", "-d", str(classes), str(maven / "src/main/java/demo/App.java")], check=True,
                   capture_output=True, timeout=120)
    r = run_jdx("--project", str(maven), "show", "demo.App")
    assert r.code == 0 and r.out.startswith("class demo.App"), r
    code, env = _json(run_jdx, maven, "body", "demo.App#greet(String)")
    assert code == 0 and env["result"]["origin"] == "sources", env
    assert "SOURCE_ONLY" not in [w["code"] for w in env["warnings"]]


@pytest.mark.soak  # slow: the soak runs it (.ci/run)
@pytest.mark.skipif(shutil.which("javac") is None, reason="javac is not installed")
def test_an_uncompiled_src_dir_is_said_on_every_answer(run_jdx, maven, tmp_path):
    """`--src` over files none of whose classes is compiled: usages of a JDK method cannot count the files' calls, and
    the answer says so (SOURCES_NOT_COMPILED) instead of looking complete; once the classes are on --jars it does
    not."""
    src = str(maven / "src/main/java")
    println = "java.io.PrintStream#println(java.lang.String)"
    for args in (("usages", println, "--limit", "1"), ("members", "java.lang.Object"), ("show", "demo.App")):
        code, env = _json_flags(run_jdx, "--src", src, *args)
        codes = [w["code"] for w in env["warnings"]]
        assert codes.count("SOURCES_NOT_COMPILED") == 1, (args, env["warnings"])
        warning = next(w for w in env["warnings"] if w["code"] == "SOURCES_NOT_COMPILED")
        assert warning["message"].startswith(f"--src {src}: no class its files declare is compiled"), warning
    classes = tmp_path / "classes"
    jdktool.run(["javac", "-g", "-d", str(classes), str(maven / "src/main/java/demo/App.java")], check=True,
                   capture_output=True, timeout=120)
    code, env = _json_flags(run_jdx, "--src", src, "--jars", str(classes), "usages", println, "--in", "classes")
    assert code == 0 and env["result"]["total"] == 1, env
    assert "SOURCES_NOT_COMPILED" not in [w["code"] for w in env["warnings"]]


def _json_flags(run_jdx, *args: str) -> tuple[int, dict]:
    r = run_jdx(*args, "--json")
    return r.code, json.loads(r.out)
