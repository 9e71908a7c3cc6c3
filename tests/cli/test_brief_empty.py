"""`--brief` of an empty relationship answer prints `(none)` (exit 0): empty stdout would read as lost output."""

from __future__ import annotations

import shutil

import pytest

from tests.fixtures.javac import javac_jar


@pytest.fixture(scope="module")
def jar(tmp_path_factory):
    if shutil.which("javac") is None:
        pytest.skip("javac is not installed")
    return javac_jar(tmp_path_factory.mktemp("brief_empty"),
                     {"be/Lonely.java": "package be;\npublic class Lonely { public void alone() { } }"}, "be",
                     "be.jar")[0]


@pytest.mark.parametrize("args", [["usages", "be.Lonely#alone()"], ["callers", "be.Lonely#alone()"],
                                  ["implementors", "be.Lonely"], ["hierarchy", "be.Lonely", "--down"]])
def test_brief_empty_says_none(jar, run_jdx, args):
    full = run_jdx("--no-jdk", "--jars", str(jar), *args)
    assert full.code == 0 and ("(no" in full.out or "(none" in full.out)
    brief = run_jdx("--no-jdk", "--jars", str(jar), *args, "--brief")
    assert brief.code == 0, brief.err
    assert brief.out == "(none)\n"
