"""STALE_CLASS_FILE in listing answers: class files an earlier build left in a class directory are marked where an
answer lists them (show's nested list, outline's member types, implementors, usages, callers, search), not only when
one is the answer's subject. The fixture is an agent's edit: javac builds `Outer` into `out/`, time passes (the
class files' times set back an hour, as the earlier build's), `Outer.Nested` is renamed `Renamed`, the method
holding the anonymous `Outer$3` is deleted and the local class `Row` renamed `Line`, and javac builds again into the
same directory, leaving `Outer$Nested`, `Outer$3` and `Outer$1Row` there. `javap -v` of the new `Outer.class` is
the oracle: its InnerClasses attribute names every nested class the source still declares, and none of the stale
ones."""

from __future__ import annotations

import json
import os
import re
import time

import pytest

from tests.fixtures import jdktool

# its own javac builds and graph (~70 s): the soak runs it whole; test_stale_class_files.py keeps show's case
pytestmark = pytest.mark.soak

BEFORE = """package p;
public class Outer {
    public static class Nested { public int a() { return 1; } }
    public static class InnerC { }
    public Runnable r() { return new Runnable() { public void run() { } }; }
    public Object s() { return new Object() { }; }
    public java.util.Comparator<String> cmp() {
        return new java.util.Comparator<String>() { public int compare(String a, String b) { return 0; } };
    }
    public Object loc() { class Row { } return new Row(); }
}
"""
AFTER = """package p;
public class Outer {
    public static class Renamed { public int a() { return 1; } }
    public static class InnerC { }
    public Runnable r() { return new Runnable() { public void run() { } }; }
    public Object s() { return new Object() { }; }
    public Object loc() { class Line { } return new Line(); }
}
"""
STALE = {"p.Outer$Nested", "p.Outer$3", "p.Outer$1Row"}


@pytest.fixture(scope="module")
def ws(tmp_path_factory):
    root = tmp_path_factory.mktemp("stale_rows")
    src, out = root / "src", root / "out"
    (src / "p").mkdir(parents=True)
    (src / "p/Outer.java").write_text(BEFORE)
    jdktool.run(["javac", "-d", str(out), str(src / "p/Outer.java")], check=True)
    an_hour_ago = time.time() - 3600
    for f in (out / "p").iterdir():
        os.utime(f, (an_hour_ago, an_hour_ago))
    (src / "p/Outer.java").write_text(AFTER)
    jdktool.run(["javac", "-d", str(out), str(src / "p/Outer.java")], check=True)
    files = {"p." + f.name.removesuffix(".class") for f in (out / "p").iterdir()}
    javap = jdktool.run(["javap", "-v", "-cp", str(out), "p.Outer"], capture_output=True, text=True,
                        check=True).stdout
    inner_classes = javap.rpartition("\nInnerClasses:\n")[2]  # the attribute's entries, one a line
    listed = {"p." + n for n in re.findall(r"class p/(Outer\$\w+)", inner_classes)}
    assert STALE <= files and listed and STALE.isdisjoint(listed) and files - {"p.Outer"} == listed | STALE, javap
    return root, listed


def _answer(run_jdx, ws, *args) -> dict:
    r = run_jdx("--jars", str(ws[0] / "out"), "--src", str(ws[0] / "src"), "--no-jdk", "--json", *args)
    assert r.code == 0, r.out + r.err
    return json.loads(r.out)


def _one_warning(answer: dict, count: int) -> str:
    found = [w["message"] for w in answer["warnings"] if w["code"] == "STALE_CLASS_FILE"]
    assert len(found) == 1, answer["warnings"]
    assert found[0].startswith(f"{count} row" if count > 1 else "1 row listed is") and "mvn clean compile" in found[0]
    return found[0]


def test_show_marks_the_nested_classes_the_outer_class_file_no_longer_lists(run_jdx, ws):
    answer = _answer(run_jdx, ws, "show", "p.Outer")
    nested = answer["result"]["nested"]
    assert {n["ref"] for n in nested if n.get("stale")} == STALE
    assert {n["ref"] for n in nested if not n.get("stale")} == ws[1]
    _one_warning(answer, 3)


def test_show_text_says_it_on_the_row(run_jdx, ws):
    r = run_jdx("--jars", str(ws[0] / "out"), "--no-jdk", "show", "p.Outer")
    line = next(x for x in r.out.splitlines() if x.strip().startswith("nested:"))
    assert "Outer.Nested (stale class file: an earlier build left it)" in line
    assert "Outer.Renamed (" not in line and "STALE_CLASS_FILE" in r.out + r.err


def test_outline_marks_a_stale_member_type(run_jdx, ws):
    answer = _answer(run_jdx, ws, "outline", "p.Outer", "--kind", "type")
    assert {m["ref"]: bool(m.get("stale")) for m in answer["result"]["members"]} == {
        "p.Outer$InnerC": False, "p.Outer$Nested": True, "p.Outer$Renamed": False}
    assert "p.Outer$Nested" in _one_warning(answer, 1)


def test_a_class_the_build_wrote_is_not_marked(run_jdx, ws):
    answer = _answer(run_jdx, ws, "outline", "p.Outer$Renamed")
    assert not [w for w in answer["warnings"] if w["code"] == "STALE_CLASS_FILE"]


# the rows below are marked by the listing commands (rel_hierarchy, rel_usages, rel_calls, commands/search)

def test_implementors_marks_the_anonymous_class_of_a_deleted_method(run_jdx, ws):
    answer = _answer(run_jdx, ws, "implementors", "java.util.Comparator", "--in", "out")
    assert [(e["type"], e.get("stale")) for e in answer["result"]["implementors"]] == [("p.Outer$3", True)]
    _one_warning(answer, 1)


def test_usages_marks_the_stale_subtypes(run_jdx, ws):
    answer = _answer(run_jdx, ws, "usages", "java.lang.Object")
    rows = {c["caller"]: bool(c.get("stale")) for g in answer["result"]["groups"] for c in g["callers"]}
    assert {r for r, stale in rows.items() if stale} == STALE
    _one_warning(answer, 3)


def test_search_marks_a_stale_match(run_jdx, ws):
    answer = _answer(run_jdx, ws, "search", "Nested")
    assert [(m["ref"], m.get("stale")) for m in answer["result"]["matches"]] == [("p.Outer$Nested", True)]
    _one_warning(answer, 1)
