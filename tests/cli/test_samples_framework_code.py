"""`samples` told a test framework's own code from tests by a package part (trial: `samples
'org.junit.jupiter.api.AssertionFailureBuilder#assertionFailure'` marked every site in org.junit.jupiter.api
"(test)" and ranked it last, as a `junit` or `it` package part counted as test code). A package naming a framework
is library code; test code is told by a `test`/`tests` package part, a `*Test` class name or a test artifact (a
`-tests.jar`). Oracle: javap -c of the compiled callers (each calls the method), the jars' names."""

from __future__ import annotations

import json
import shutil

import pytest

from tests.fixtures import jdktool
from tests.fixtures.javac import javac_jar

API = "fw.junit.api.Builder#build()"
CALL = "fw/junit/api/Builder.build:()V"
SOURCES = {
    "fw/junit/api/Builder.java": "package fw.junit.api;\npublic class Builder {\n"
                                 "    public static void build() { }\n}\n",
    "fw/junit/api/Assertions.java": "package fw.junit.api;\npublic class Assertions {\n"
                                    "    public static void fail(String message) {\n"
                                    "        Builder.build();\n    }\n}\n",
    "fw/it/Helper.java": "package fw.it;\npublic class Helper {\n"
                         "    public void help(String message) {\n        fw.junit.api.Builder.build();\n    }\n}\n",
    "fw/test/Checks.java": "package fw.test;\npublic class Checks {\n"
                           "    public void check(String message) {\n        fw.junit.api.Builder.build();\n    }\n}\n",
}
TEST_JAR = {"ft/Usage.java": "package ft;\npublic class Usage {\n"
                             "    public void use(String message) {\n        fw.junit.api.Builder.build();\n    }\n}\n"}


@pytest.fixture(scope="module")
def jars(tmp_path_factory):
    if shutil.which("javac") is None or shutil.which("javap") is None:
        pytest.skip("javac/javap are not installed")
    root = tmp_path_factory.mktemp("samples_fw")
    main, classes = javac_jar(root / "main", SOURCES, "fw", "fw-1.0.jar")
    tests = root / "tests"
    (tests / "src" / "ft").mkdir(parents=True)
    (tests / "src" / "ft" / "Usage.java").write_text(TEST_JAR["ft/Usage.java"])
    jdktool.run(["javac", "-cp", str(main), "-d", str(tests / "classes"), str(tests / "src" / "ft" / "Usage.java")],
                check=True)
    test_jar = root / "fw-1.0-tests.jar"
    jdktool.run(["jar", "cf", str(test_jar), "-C", str(tests / "classes"), "ft"], check=True)
    return main, test_jar, classes, tests / "classes"


def test_a_framework_package_is_library_code_and_a_test_jar_is_tests(run_jdx, jars):
    main, test_jar, classes, test_classes = jars
    callers = {"fw.junit.api.Assertions": classes, "fw.it.Helper": classes, "fw.test.Checks": classes,
               "ft.Usage": test_classes}
    for cls, where in callers.items():  # the oracle: each class calls the method
        assert CALL in jdktool.run(["javap", "-c", "-p", "-cp", f"{where}:{main}", cls], capture_output=True,
                                   text=True, check=True).stdout, cls
    run = run_jdx("--no-jdk", "--jars", f"{main}:{test_jar}", "samples", API, "--limit", "10", "--json")
    assert run.code == 0, run.err
    samples = json.loads(run.out)["result"]["samples"]
    test = {s["caller"].split("#", 1)[0]: s["test"] for s in samples}
    assert test == {"fw.junit.api.Assertions": False, "fw.it.Helper": False, "fw.test.Checks": True,
                    "ft.Usage": True}, samples
    # library code first: the test sites rank after every other
    assert [s["test"] for s in samples] == sorted(s["test"] for s in samples), samples
    text = run_jdx("--no-jdk", "--jars", f"{main}:{test_jar}", "samples", API, "--limit", "10").out
    assert "fw.junit.api.Assertions#fail" in text
    library = [line for line in text.splitlines() if "Assertions#fail" in line or "Helper#help" in line]
    assert library and not any("(test)" in line for line in library), text
