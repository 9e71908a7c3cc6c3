"""STALE_CLASS_FILE: a class file an earlier build left in a project's class directory (T69). javac never deletes a
class file: after renaming a nested class (`Outer.Entry` -> `Outer.Slot`), replacing an anonymous class by a lambda
or deleting a source file and recompiling, the old class files stay and the graph read them as live code with no
word. The fixture is that very sequence: javac builds the project, time passes (the class files' times are set back
an hour, as the earlier build's), the sources change and javac builds again into the same directory; `javap -v` of
the new outer class is the oracle that it no longer names the old nested classes."""

from __future__ import annotations

import json
import os
import time

import pytest

from tests.fixtures import jdktool

POM = ('<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>'
       "<groupId>t</groupId><artifactId>stale</artifactId><version>1.0</version></project>\n")
OUTER_BEFORE = """package s;
public class Outer {
    static class Entry { int token() { return 1; } }
    public java.util.Iterator<String> names() {
        return new java.util.Iterator<String>() {
            public boolean hasNext() { return false; }
            public String next() { return null; }
        };
    }
}
"""
OUTER_AFTER = """package s;
public class Outer {
    static class Slot { int token() { return 2; } }
    public java.util.Iterator<String> names() {
        return java.util.List.<String>of().iterator();
    }
}
"""
OLD = "package s; public class Old { public int gone() { return 3; } }\n"
KEPT = "package s; public class Kept { public int here() { return 4; } }\n"


def _javac(root, *files):
    jdktool.run(["javac", "-d", str(root / "target/classes"), *map(str, files)], check=True)


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    root = tmp_path_factory.mktemp("stale")
    (root / "pom.xml").write_text(POM)
    src = root / "src/main/java/s"
    src.mkdir(parents=True)
    for name, text in (("Outer.java", OUTER_BEFORE), ("Old.java", OLD), ("Kept.java", KEPT)):
        (src / name).write_text(text)
    _javac(root, *sorted(src.glob("*.java")))
    an_hour_ago = time.time() - 3600
    for f in (root / "target/classes/s").iterdir():
        os.utime(f, (an_hour_ago, an_hour_ago))
    (src / "Outer.java").write_text(OUTER_AFTER)
    (src / "Old.java").unlink()
    _javac(root, src / "Outer.java", src / "Kept.java")
    names = sorted(f.name for f in (root / "target/classes/s").iterdir())
    assert names == ["Kept.class", "Old.class", "Outer$1.class", "Outer$Entry.class", "Outer$Slot.class",
                     "Outer.class"], names
    outer = jdktool.run(["javap", "-v", "-cp", str(root / "target/classes"), "s.Outer"], capture_output=True,
                        text=True, check=True).stdout
    assert "Outer$Slot" in outer and "Outer$Entry" not in outer and "Outer$1" not in outer
    return root


def _warnings(run_jdx, project, *args) -> list[dict]:
    r = run_jdx("--project", str(project), "--no-jdk", "--json", *args)
    assert r.code == 0, r.out + r.err
    return [w for w in json.loads(r.out)["warnings"] if w["code"] == "STALE_CLASS_FILE"]


@pytest.mark.parametrize("args, says", [
    (("show", "s.Outer.Entry"), "its outer class's file was written 60 min after it"),
    (("body", "s.Outer$1#hasNext()"), "its outer class's file was written 60 min after it"),
    (("members", "s.Old"), "its source file s/Old.java is in none of its source roots"),
])
def test_a_class_an_earlier_build_left_is_named_stale(run_jdx, project, args, says):
    found = _warnings(run_jdx, project, *args)
    assert len(found) == 1 and says in found[0]["message"], found
    assert "mvn clean compile" in found[0]["message"]


@pytest.mark.parametrize("args", [("show", "s.Outer.Slot"), ("members", "s.Kept"), ("body", "s.Outer.Slot#token()")])
def test_the_classes_the_build_wrote_are_not(run_jdx, project, args):
    assert _warnings(run_jdx, project, *args) == []


def test_show_of_the_outer_class_marks_the_nested_classes_left_behind(run_jdx, project):
    """`show s.Outer` lists its nested classes: the two an earlier build left (`Outer$Entry`, `Outer$1`) are marked
    and counted in one warning, the one the build wrote (`Slot`) is not (test_stale_class_rows.py: every listing)."""
    found = _warnings(run_jdx, project, "show", "s.Outer")
    assert len(found) == 1 and found[0]["message"].startswith("2 rows listed are class files an earlier build"), found
