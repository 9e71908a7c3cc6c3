"""`usages --brief` drops the artifact group lines; when the rows come from several artifacts each row names its
own (which jar holds the caller is what an agent opens next), and from one artifact none does."""

from __future__ import annotations

import shutil

import pytest

from tests.fixtures.javac import javac_jar
from tests.fixtures import jdktool


@pytest.fixture(scope="module")
def jars(tmp_path_factory):
    if shutil.which("javac") is None:
        pytest.skip("javac is not installed")
    root = tmp_path_factory.mktemp("brief_artifacts")
    a, classes = javac_jar(root, {"ba/T.java": "package ba;\npublic class T {\n  public static void hit() {}\n"
                                               "  void self() { hit(); }\n}\n",
                                  "bb/U.java": "package bb;\npublic class U {\n  void use() { ba.T.hit(); }\n}\n"},
                           "ba", "a.jar")
    b = root / "b.jar"
    jdktool.run(["jar", "cf", str(b), "-C", str(classes), "bb"], check=True)
    return a, b


def test_brief_rows_of_several_artifacts_name_theirs(run_jdx, jars):
    a, b = jars
    both = run_jdx("usages", "ba.T#hit", "--brief", "--jars", f"{a}:{b}", "--no-jdk")
    assert both.code == 0, both.err
    assert both.out.splitlines() == ["ba.T#self()  call 4  · a.jar", "bb.U#use()  call 3  · b.jar"], both.out
    one = run_jdx("usages", "ba.T#hit", "--brief", "--jars", str(a), "--no-jdk")
    assert one.code == 0 and one.out.splitlines() == ["ba.T#self()  call 4"], one.out
