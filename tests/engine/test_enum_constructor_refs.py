"""An enum's constructor is named as its source writes it (`Op#<init>(String)`, `Op#Op()`): javac prepends the
constant's name and ordinal to the JVM descriptor, as `Inner#<init>()` leaves out an inner class's outer instance.
Oracle: `javap -p`, which prints each constructor with the source's parameters."""

from __future__ import annotations

import re
import shutil

import pytest

from tests.fixtures.javac import javac_jar
from tests.fixtures import jdktool

SOURCES = {"en/Op.java": "package en;\npublic enum Op {\n"
                         "  PLUS(\"+\") { public int apply(int a, int b) { return a + b; } },\n"
                         "  ONE(1, 2L), NONE;\n"
                         "  private final String sym;\n"
                         "  Op(String sym) { this.sym = sym; }\n"
                         "  Op(int x, long y) { this(\"\" + x + y); }\n"
                         "  Op() { this(\"?\"); }\n"
                         "  public int apply(int a, int b) { return 0; }\n}"}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    if shutil.which("javac") is None or shutil.which("javap") is None:
        pytest.skip("javac/javap are not installed")
    jar, classes = javac_jar(tmp_path_factory.mktemp("enum_ctor"), SOURCES, "en", "en.jar", debug=True)
    out = jdktool.run(["javap", "-p", "-cp", str(classes), "en.Op"], capture_output=True, text=True,
                         check=True).stdout
    ctors = re.findall(r"^\s+private en\.Op\(([^)]*)\);$", out, re.M)
    descriptors = jdktool.run(["javap", "-p", "-s", "-cp", str(classes), "en.Op"], capture_output=True,
                                 text=True, check=True).stdout
    return jar, ctors, descriptors


def test_every_constructor_by_its_source_parameters(built, run_jdx):
    jar, ctors, descriptors = built
    assert sorted(ctors) == ["", "int, long", "java.lang.String"], ctors
    assert "(Ljava/lang/String;ILjava/lang/String;)V" in descriptors  # the JVM's: name and ordinal first
    for params in ctors:
        for ref in (f"en.Op#<init>({params})", f"en.Op#Op({params})"):
            run = run_jdx("--no-jdk", "--jars", str(jar), "signature", ref)
            assert run.code == 0, (ref, run.out, run.err)
            line = next(x for x in run.out.splitlines() if x.startswith("  constructor private Op("))
            assert re.sub(r" \w+(?=[,)])", "", line) == f"  constructor private Op({params.replace('java.lang.', '')})"
            assert "overloads" not in run.out  # exactly one
