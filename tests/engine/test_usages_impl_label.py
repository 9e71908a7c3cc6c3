"""`usages <interface>` names a subinterface's edge as its source writes it: `interface B extends A` is `impl (extends)`,
a class's `implements A` is `impl (implements)` (javap prints the same words)."""

from __future__ import annotations

import shutil

import pytest

from tests.fixtures.javac import javac_jar
from tests.fixtures import jdktool

SOURCES = {"il/A.java": "package il;\npublic interface A {}\n",
           "il/B.java": "package il;\npublic interface B extends A {}\n",
           "il/C.java": "package il;\npublic class C implements A {}\n"}


def test_a_subinterface_extends_and_a_class_implements(run_jdx, tmp_path):
    if shutil.which("javac") is None:
        pytest.skip("javac is not installed")
    jar, classes = javac_jar(tmp_path, SOURCES, "il", "il.jar")
    for name, word in (("B", "extends"), ("C", "implements")):  # the oracle: javap's declaration line
        javap = jdktool.run(["javap", "-cp", str(classes), f"il.{name}"], capture_output=True, text=True).stdout
        assert f"{word} il.A" in javap, javap
    r = run_jdx("usages", "il.A", "--jars", str(jar), "--no-jdk")
    assert r.code == 0, r.err
    assert "  il.B  impl (extends)" in r.out.splitlines() and "  il.C  impl (implements)" in r.out.splitlines(), r.out
