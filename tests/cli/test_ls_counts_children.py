"""`ls PKG --counts` counts a subpackage's line as it counts the listed package's own line: its own types apart from
its subpackages' when they differ (trial: `ls org.junit.jupiter.api --counts` said `package ...extension (45 types)`,
one of them in extension.support; 44 are in extension itself). Oracle: the jar's class files (unzip -l)."""

from __future__ import annotations

import json
import shutil
import zipfile

import pytest

from tests.fixtures.javac import javac_jar

SOURCES = {"lk/A.java": "package lk;\npublic class A { }",
           "lk/ext/B.java": "package lk.ext;\npublic class B { }",
           "lk/ext/C.java": "package lk.ext;\npublic class C { }",
           "lk/ext/sup/D.java": "package lk.ext.sup;\npublic class D { }",
           "lk/flat/E.java": "package lk.flat;\npublic class E { }"}


@pytest.fixture(scope="module")
def jar(tmp_path_factory):
    if shutil.which("javac") is None:
        pytest.skip("javac is not installed")
    return javac_jar(tmp_path_factory.mktemp("lskids"), SOURCES, "lk", "lskids.jar")[0]


def _classes(jar, package: str, subpackages: bool) -> int:
    names = [n for n in zipfile.ZipFile(jar).namelist() if n.endswith(".class")]
    prefix = package.replace(".", "/") + "/"
    return len([n for n in names if n.startswith(prefix) and (subpackages or "/" not in n[len(prefix):])])


def test_a_subpackage_line_counts_its_own_types_apart(run_jdx, jar):
    here, whole = _classes(jar, "lk.ext", False), _classes(jar, "lk.ext", True)
    assert (here, whole) == (2, 3)
    lines = run_jdx("--no-jdk", "--jars", str(jar), "ls", "lk", "--counts").out.splitlines()
    assert f"  package lk.ext  ({here} types here, {whole} with subpackages)" in lines, lines
    assert "  package lk.flat  (1 type)" in lines, lines  # no subpackages: one number
    own = run_jdx("--no-jdk", "--jars", str(jar), "ls", "lk.ext", "--counts").out.splitlines()
    assert own[0] == f"package lk.ext  ({here} types here, {whole} with subpackages)", own
    entries = json.loads(run_jdx("--no-jdk", "--jars", str(jar), "ls", "lk", "--counts", "--json").out)["result"]
    ext = next(e for e in entries["entries"] if e.get("name") == "lk.ext")
    assert (ext["types_here"], ext["types"]) == (here, whole), ext
    roots = run_jdx("--no-jdk", "--jars", str(jar), "ls", "--counts").out.splitlines()
    assert roots == [f"package lk  ({_classes(jar, 'lk', False)} type here, {_classes(jar, 'lk', True)} with "
                     "subpackages)"], roots
