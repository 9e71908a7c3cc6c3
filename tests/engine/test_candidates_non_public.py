"""An ambiguity's candidates say which ones code outside their package cannot name (T46: `imports Solver` listed
seven private nested classes of commons-math3 as if any could be imported): `public: false` in JSON, `(non-public)`
in text, as `implementors` and `search` mark them. The oracle is javap's class declaration line."""

from __future__ import annotations

import json
import shutil

import pytest

from tests.fixtures import jdktool
from tests.fixtures.javac import javac_jar

SOURCES = {
    "cn/a/Lu.java": "package cn.a;\npublic class Lu { private static class Solver { } private static class Tool { } }",
    "cn/b/Solver.java": "package cn.b;\npublic class Solver { }",
    "cn/c/Solver.java": "package cn.c;\nclass Solver { }",
    "cn/c/Tool.java": "package cn.c;\nclass Tool { }",
}


@pytest.fixture(scope="module")
def jar(tmp_path_factory):
    if shutil.which("javac") is None:
        pytest.skip("javac is not installed")
    return javac_jar(tmp_path_factory.mktemp("cand"), SOURCES, "cn", "cand.jar")[0]


def _public(jar, name: str) -> bool:
    out = jdktool.run(["javap", "-p", "-cp", jar, name], capture_output=True, text=True, check=True).stdout
    return next(line for line in out.splitlines() if " class " in f" {line}").startswith("public ")


@pytest.mark.parametrize("command, name", [("show", "Solver"), ("imports", "Tool")])
def test_non_public_candidates_are_marked(run_jdx, jar, command, name):
    expected = {f"cn.{p}": _public(jar, f"cn.{p}") for p in ("a.Lu$Solver", "b.Solver", "c.Solver", "a.Lu$Tool",
                                                             "c.Tool") if p.endswith(name)}
    r = run_jdx("--no-jdk", "--jars", str(jar), command, name, "--json")
    assert r.code == 2, r.out
    assert {c["ref"]: c.get("public", True) for c in json.loads(r.out)["candidates"]} == expected
    text = run_jdx("--no-jdk", "--jars", str(jar), command, name).out.splitlines()
    marked = sorted(line.split()[0] for line in text if line.endswith("(non-public)"))
    assert marked == sorted(ref for ref, public in expected.items() if not public), text
