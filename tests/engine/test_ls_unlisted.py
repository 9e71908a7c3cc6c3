"""`ls PKG` lists a package's public top-level types and never cuts silently: the non-public top-level ones are
named, the nested ones counted with the command that names them. Oracle: javap's access line for each top-level
class file, and the jar's `Outer$Inner` class files for the nested count."""

from __future__ import annotations

import json
import shutil
import zipfile

import pytest

from tests.fixtures.javac import javac_jar
from tests.fixtures import jdktool

SOURCES = {
    "lz/Open.java": "package lz;\npublic class Open { public static class In { } class Hidden { }\n"
                    "  Runnable r = new Runnable() { public void run() { } }; }",
    "lz/Quiet.java": "package lz;\nclass Quiet { static class Deep { } }",
    "lz/Also.java": "package lz;\ninterface Also { }",
    "lz/Face.java": "package lz;\npublic interface Face { }",
    "lz/package-info.java": "@Deprecated\npackage lz;",  # javac writes lz/package-info.class: no type to list
}


@pytest.fixture(scope="module")
def jar(tmp_path_factory):
    if shutil.which("javac") is None or shutil.which("javap") is None:
        pytest.skip("javac/javap are not installed")
    return javac_jar(tmp_path_factory.mktemp("ls_unlisted"), SOURCES, "lz", "lz.jar")[0]


def _oracle(jar) -> tuple[list[str], list[str], int]:
    names = sorted(n[:-6].replace("/", ".") for n in zipfile.ZipFile(jar).namelist() if n.endswith(".class"))
    top = [n for n in names if "$" not in n and not n.endswith(".package-info")]
    first_lines = jdktool.run(["javap", "-cp", str(jar), *top], capture_output=True, text=True,
                                 check=True).stdout.splitlines()
    public = sorted(n.split(".")[-1] for n in top if any(line.startswith("public ") and f" {n}" in line
                                                          for line in first_lines))
    hidden = sorted(n.split(".")[-1] for n in top if n.split(".")[-1] not in public)
    return public, hidden, sum("$" in n for n in names)


def test_ls_names_the_non_public_types_and_counts_the_nested(jar, run_jdx):
    public, hidden, nested = _oracle(jar)
    assert hidden and nested, "the fixture must have non-public and nested types"
    run = run_jdx("--no-jdk", "--jars", str(jar), "ls", "lz", "--json")
    assert run.code == 0, run.err
    entries = json.loads(run.out)["result"]["entries"]
    assert sorted(e["name"] for e in entries if e["kind"] in ("class", "interface")) == public
    assert [(e["types"], e["names"]) for e in entries if e["kind"] == "nonpublic"] == [(len(hidden), hidden)]
    assert [e["types"] for e in entries if e["kind"] == "nested"] == [nested]
    text = run_jdx("--no-jdk", "--jars", str(jar), "ls", "lz").out
    assert f"+ {len(hidden)} not public: {', '.join(hidden)}\n" in text
    assert f"+ {nested} nested in the types above (jdx show <Type> names its nested types)" in text


def test_tree_names_the_non_public_types_too(jar, run_jdx):
    """T91: `tree 'trove4j*' --depth 3` listed the public types and dropped the 9 non-public ones without a word."""
    public, hidden, _nested = _oracle(jar)
    run = run_jdx("--no-jdk", "--jars", str(jar), "tree", "lz.jar", "--depth", "3", "--json")
    assert run.code == 0, run.err
    entries = json.loads(run.out)["result"]["entries"]
    assert sorted(e["name"] for e in entries if e["kind"] in ("class", "interface")) == public
    assert [(e["types"], e["names"]) for e in entries if e["kind"] == "nonpublic"] == [(len(hidden), hidden)]
    text = run_jdx("--no-jdk", "--jars", str(jar), "tree", "lz.jar", "--depth", "3").out
    assert f"    + {len(hidden)} not public: {', '.join(hidden)}\n" in text, text
