"""A discovered project's usages or callers that find nothing, while its compiled test classes (left out without
--tests) hold the calls: the answer says test classes are not in the workspace, so "none" does not read as dead
code. javap -c of the test class is the oracle that the call is there."""

from __future__ import annotations

import json

import pytest

from tests.fixtures import jdktool

POM = ('<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>'
       "<groupId>t</groupId><artifactId>lone</artifactId><version>1.0</version></project>\n")


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    root = tmp_path_factory.mktemp("lone")
    (root / "pom.xml").write_text(POM)
    main, test = root / "src/main/java/a", root / "src/test/java/a"
    main.mkdir(parents=True)
    test.mkdir(parents=True)
    (main / "Lib.java").write_text("package a; public class Lib { public int only() { return 1; } }")
    (test / "LibTest.java").write_text("package a; public class LibTest { int t() { return new Lib().only(); } }")
    classes, tests = root / "target/classes", root / "target/test-classes"
    jdktool.run(["javac", "-d", str(classes), str(main / "Lib.java")], check=True)
    jdktool.run(["javac", "-cp", str(classes), "-d", str(tests), str(test / "LibTest.java")], check=True)
    code = jdktool.run(["javap", "-c", "-cp", str(tests), "a.LibTest"], capture_output=True, text=True,
                       check=True).stdout
    assert "Method a/Lib.only:()I" in code
    return root


@pytest.mark.parametrize("command", ["usages", "callers"])
def test_an_empty_answer_says_test_classes_were_left_out(run_jdx, project, command):
    r = run_jdx("--project", str(project), "--no-jdk", "--json", command, "a.Lib#only()")
    result = json.loads(r.out)["result"]
    assert r.code == 0, r.out
    assert result["notes"][-1] == "test classes are not in the workspace (target/test-classes): --tests adds them"
    r = run_jdx("--project", str(project), "--no-jdk", "--tests", "--json", command, "a.Lib#only()")
    result = json.loads(r.out)["result"]
    assert "a.LibTest#t()" in r.out and not any("test classes" in n for n in result["notes"]), result
