"""`tree NAME` finds an artifact by the names an agent has for it: the file name, without `.jar`, without its
version (the artifact id), or by its module; a near miss suggests it first."""

from __future__ import annotations

import json
import shutil

import pytest

from tests.fixtures.javac import javac_jar


@pytest.fixture(scope="module")
def jar(tmp_path_factory):
    if shutil.which("javac") is None:
        pytest.skip("javac is not installed")
    root = tmp_path_factory.mktemp("tree_names")
    javac_jar(root / "other", {"tm/B.java": "package tm;\npublic class B { }"}, "tm", "tres-1.0.jar")
    return javac_jar(root, {"tn/A.java": "package tn;\npublic class A { }"}, "tn", "tree-names-1.2.3.jar")[0]


@pytest.mark.parametrize("name", ["tree-names-1.2.3.jar", "tree-names-1.2.3", "tree-names", "tree-*"])
def test_tree_finds_the_artifact(jar, run_jdx, name):
    run = run_jdx("--no-jdk", "--jars", str(jar), "tree", name, "--json")
    assert run.code == 0, run.err
    entries = json.loads(run.out)["result"]["entries"]
    assert [e["name"] for e in entries if e["kind"] == "artifact"] == ["tree-names-1.2.3.jar"]
    assert {"kind": "package", "name": "tn", "level": 1} in entries


def test_a_near_miss_suggests_it_first(jar, run_jdx):
    other = jar.parent / "other" / "tres-1.0.jar"  # nearer by edit distance (`tres` vs `tree`), no prefix match
    run = run_jdx("--no-jdk", "--jars", f"{other}:{jar}", "tree", "tree", "--json")
    assert run.code == 1
    assert json.loads(run.out)["candidates"][0]["ref"] == "tree-names-1.2.3.jar"


def test_a_package_points_at_ls(jar, run_jdx):
    """`tree tn` (a package, not an artifact) says so and names `jdx ls`, instead of offering unrelated artifacts."""
    run = run_jdx("--no-jdk", "--jars", str(jar), "tree", "tn", "--json")
    assert run.code == 1
    answer = json.loads(run.out)
    assert answer["error"]["hint"] == "tn is a package: jdx ls tn lists its types" and not answer.get("candidates")
    assert run_jdx("--no-jdk", "--jars", str(jar), "ls", "tn").code == 0
