"""`members` lists an enum's constants in declaration order, their ordinals (a trial on kotlin-scripting: `Severity`
read DEBUG ERROR FATAL INFO WARNING, and code compares severities by ordinal); the other fields and the methods keep
the name order, and `--sort name` sorts the constants by name too. Oracle: `Enum.values()` by reflection."""

from __future__ import annotations

import pytest

from tests.fixtures import jdktool
from tests.fixtures.javac import compiled_jar

pytestmark = pytest.mark.soak  # javac, java and a workspace of its own: the soak runs it (.ci/run)

SOURCES = {
    "eo/Level.java": "package eo; public enum Level { TRACE, DEBUG, INFO, WARN, ERROR, FATAL;"
                     " public static final int COUNT = 6; public static Level ALIAS = WARN;"
                     " public boolean atLeast(Level o) { return compareTo(o) >= 0; } }",
    "Values.java": "public class Values { public static void main(String[] a) {"
                   " for (eo.Level l : eo.Level.values()) System.out.println(l.name()); } }",
}


@pytest.fixture(scope="module")
def jar(tmp_path_factory):
    _, jar, classes = compiled_jar(tmp_path_factory, "enum-order", SOURCES, "eo", "eo.jar")
    return jar, classes


def _ordinals(jar) -> list[str]:
    classes = jar[1]
    out = jdktool.run(["java", "-cp", str(classes), "Values"], capture_output=True, text=True, check=True).stdout
    return out.split()


def test_enum_constants_list_in_ordinal_order(run_jdx, jar):
    ordinals = _ordinals(jar)
    assert ordinals == ["TRACE", "DEBUG", "INFO", "WARN", "ERROR", "FATAL"]  # (not the name order)
    r = run_jdx("members", "eo.Level", "--jars", str(jar[0]), "--declared", "--kind", "field")
    assert r.code == 0, r.err
    fields = [line.split()[-1] for line in r.out.splitlines() if line.startswith("  field ")]
    names = [f.split("=")[0].strip() for f in fields]
    constants = [n for n in fields if n in ordinals]
    assert constants == ordinals, r.out
    others = [line for line in r.out.splitlines() if line.startswith("  field ") and line.split()[-1] not in ordinals]
    assert [o.split(" = ")[0].split()[-1] for o in others] == ["ALIAS", "COUNT"], r.out  # then by name
    assert names[:len(ordinals)] == ordinals, names


def test_sort_name_sorts_the_constants_by_name(run_jdx, jar):
    r = run_jdx("members", "eo.Level", "--jars", str(jar[0]), "--declared", "--kind", "field", "--sort", "name")
    assert r.code == 0, r.err
    names = [line.split(" = ")[0].split()[-1] for line in r.out.splitlines() if line.startswith("  field ")]
    assert names == sorted(names), names
