"""`ls PKG --counts` heads the listing with the package's own types apart from its subpackages' (T46: `ls
org.apache.commons.math3.fitting --counts` said `(55 types)`: 25 in the package, 30 in fitting.leastsquares), and
says `1 type`, not `1 types` (T49). The oracle is the jar's class files."""

from __future__ import annotations

import shutil
import zipfile

import pytest

from tests.fixtures.javac import javac_jar

SOURCES = {"lc/A.java": "package lc;\npublic class A { }", "lc/B.java": "package lc;\npublic class B { }",
           "lc/sub/C.java": "package lc.sub;\npublic class C { }"}


@pytest.fixture(scope="module")
def jar(tmp_path_factory):
    if shutil.which("javac") is None:
        pytest.skip("javac is not installed")
    return javac_jar(tmp_path_factory.mktemp("lscounts"), SOURCES, "lc", "lscounts.jar")[0]


def test_the_package_line_counts_its_own_types_apart(run_jdx, jar):
    classes = [n for n in zipfile.ZipFile(jar).namelist() if n.endswith(".class")]
    here = len([n for n in classes if n.count("/") == 1])
    assert (here, len(classes)) == (2, 3)
    lines = run_jdx("--no-jdk", "--jars", str(jar), "ls", "lc", "--counts").out.splitlines()
    assert lines[0] == f"package lc  ({here} types here, {len(classes)} with subpackages)", lines
    assert "  package lc.sub  (1 type)" in lines, lines
    assert run_jdx("--no-jdk", "--jars", str(jar), "ls", "lc.sub", "--counts").out.splitlines()[0] == \
        "package lc.sub  (1 type)"
