"""Classes no source names print as javac names them, as javap and stack traces do: a local class `Areas$1Row` (never
`Areas.1Row`: `1Row` is no name a source uses), `Areas$1Row.Cell` for a member of it, an anonymous `Areas$1`; and an
enum constant's body (javac's anonymous `Op$3`) says which constant it is the body of, in every answer naming it.

Oracle: javap (the binary names; the enum's `<clinit>`, whose `new Op$N` is stored by `putstatic` in the constant)."""

from __future__ import annotations

import json
import re
import shutil

import pytest

from tests.fixtures.javac import javac_jar, javap

AREAS = """package ln;

import java.util.ArrayList;
import java.util.List;

public class Areas {
    interface Shape { double area(); }

    static List<Shape> rows() {
        class Row implements Shape {
            Row next;
            public double area() { return Calc.add(1, 0); }
            Row copy(List<Row> others) { return this; }
            class Cell { Row owner; }
        }
        class Wide extends Row { }
        List<Shape> out = new ArrayList<>();
        out.add(new Wide().copy(null));
        out.add(new Shape() { public double area() { return Calc.add(2, 0); } });
        return out;
    }
}
"""

OP = """package ln;

public enum Op {
    ADD {
        int apply(int a, int b) { return Calc.add(a, b); }
    },
    NEG,
    SUB(2) {
        int apply(int a, int b) { return a - b; }
    },
    ONE { int apply(int a, int b) { return 1; } }, TWO { int apply(int a, int b) { return 2; } },
    HALF { int apply(int a, int b) { return a / 2; } }, PLAIN,
    DIV {
        int apply(int a, int b) { return a / b; }
    };

    Op() { }

    Op(int n) { }

    int apply(int a, int b) { return 0; }
}
"""

MANY = """package ln;

public class Many {
    interface Task { void run(); }

    static Task[] tasks() {
        return new Task[] {""" + ", ".join("new Task() { public void run() { } }" for _ in range(11)) + """};
    }
}
"""

CALC = """package ln;

class Calc {
    static int add(int a, int b) { return a + b; }
}
"""


@pytest.fixture(scope="module")
def fx(tmp_path_factory):
    if shutil.which("javac") is None or shutil.which("javap") is None:
        pytest.skip("javac/javap are not installed")
    root = tmp_path_factory.mktemp("local-names")
    sources = {"ln/Areas.java": AREAS, "ln/Op.java": OP, "ln/Calc.java": CALC, "ln/Many.java": MANY}
    jar, classes = javac_jar(root, sources, "ln", "ln.jar", debug=True)
    return {"args": ["--jars", str(jar), "--no-jdk"], "classes": classes}


def _out(run_jdx, fx, *args: str) -> str:
    r = run_jdx(*args, *fx["args"])
    assert r.code == 0, r.out + r.err
    return r.out


def _javap_name(fx, cls: str) -> str:
    """The class's name as javap prints it, package dropped: `Areas$1Row`."""
    head = re.search(r"^(?:\w+ )*class (\S+)", javap(fx["classes"], cls), re.M).group(1)
    return head.removeprefix("ln.")


def test_local_classes_print_as_javac_names_them(fx, run_jdx):
    row, cell, wide = _javap_name(fx, "ln.Areas$1Row"), _javap_name(fx, "ln.Areas$1Row$Cell"), \
        _javap_name(fx, "ln.Areas$1Wide")
    assert (row, cell, wide) == ("Areas$1Row", "Areas$1Row$Cell", "Areas$1Wide")
    member = cell.replace("$Cell", ".Cell")  # a member class of a local class: nested as source nests it
    texts = [_out(run_jdx, fx, *a) for a in (
        ("show", "ln.Areas"), ("show", "ln.Areas$1Row"), ("show", "ln.Areas$1Row$Cell"), ("outline", "ln.Areas$1Row"),
        ("outline", "ln.Areas$1Row$Cell"), ("signature", "ln.Areas$1Row#copy"), ("hierarchy", "ln.Areas$1Row"),
        ("implementors", "ln.Areas$Shape"), ("usages", "ln.Areas$1Row", "--kind", "impl"), ("search", "Wide"))]
    everything = "\n".join(texts)
    assert not re.search(r"Areas\.\d", everything), everything
    show_areas, show_row, show_cell, outline_row, outline_cell, signature, hierarchy, implementors, usages, search = \
        texts
    assert f"nested: Areas.Shape, {row} (local), {wide} (local), Areas$1 (anonymous)" in show_areas
    assert f"  nested: {member}" in show_row.splitlines()
    assert f"  class {member}" in show_cell.splitlines()
    assert f"  field {row} next" in outline_row.splitlines()
    assert f"  method {row} copy(List<{row}> others)" in outline_row.splitlines()
    assert f"  field {row} owner" in outline_cell.splitlines()
    assert f"  method {row} copy(List<{row}> others)" in signature.splitlines()
    assert f"ln.{wide}  ln.jar  extends ln.{row}  (local)" in hierarchy
    assert f"ln.{row}  ln.jar  implements ln.Areas$Shape  (local)" in implementors
    assert f"ln.{wide}  (local)" in usages
    assert f"class ln.{wide} (local) (non-public)" in search


def _constants(fx) -> dict[str, str]:
    """Oracle: body class -> constant, from javap's `<clinit>`: `new #n // class ln/Op$3` ... `putstatic #m // Field
    DIV:Lln/Op;`."""
    code = javap(fx["classes"], "ln.Op", "-c")
    clinit = code[code.index("static {}"):]
    out, made = {}, None
    for line in clinit.splitlines():
        if m := re.search(r"\bnew\s+#\d+\s+// class ln/(Op(?:\$\d+)?)$", line):
            made = m.group(1)
        elif (m := re.search(r"putstatic\s+#\d+\s+// Field (\w+):Lln/Op;", line)) and made:
            if made != "Op":
                out[made] = m.group(1)
            made = None
    return out


def test_enum_constant_bodies_name_their_constant(fx, run_jdx):
    bodies = _constants(fx)
    assert sorted(bodies.values()) == ["ADD", "DIV", "HALF", "ONE", "SUB", "TWO"]
    # a line creating a constant without a body beside one with (`HALF { … }, PLAIN`) cannot say which is which
    named = {b: c for b, c in bodies.items() if c != "HALF"}
    show, hierarchy, implementors, outline = (_out(run_jdx, fx, *a) for a in (
        ("show", "ln.Op"), ("hierarchy", "ln.Op"), ("implementors", "ln.Op"), ("outline", "ln.Op")))
    for body, constant in named.items():
        label = f"(body of enum constant Op.{constant})"
        assert f"{body} {label}" in show
        assert f"class ln.{body}  ln.jar  extends ln.Op  {label}" in hierarchy
        assert f"ln.{body}  ln.jar  extends ln.Op  {label}" in implementors
        assert re.search(rf"^  field public static final Op {constant}  \(body: {re.escape(body)}\)$", outline, re.M)
        card = _out(run_jdx, fx, "show", f"ln.{body}")
        assert f"  anonymous class {body} {label}" in card.splitlines()
        assert f"anonymous class {body} {label} · " in _out(run_jdx, fx, "outline", f"ln.{body}")
        assert _out(run_jdx, fx, "members", f"ln.{body}").splitlines()[0] == f"members of ln.{body} {label}"
    half = next(b for b, c in bodies.items() if c == "HALF")
    label = "(body of enum constant Op.HALF or Op.PLAIN)"  # its candidates: the line's constants, in source order
    assert f"{half} {label}" in show
    assert f"ln.{half}  ln.jar  extends ln.Op  {label}" in implementors
    assert f"  anonymous class {half} {label}" in _out(run_jdx, fx, "show", f"ln.{half}").splitlines()
    assert _out(run_jdx, fx, "members", f"ln.{half}").splitlines()[0] == f"members of ln.{half} {label}"
    r = run_jdx("show", f"ln.{half}", "--json", *fx["args"])
    assert r.code == 0 and json.loads(r.out)["result"]["enum_constant_candidates"] == ["ln.Op#HALF", "ln.Op#PLAIN"]
    assert "field public static final Op PLAIN\n" in outline and "field public static final Op NEG\n" in outline


def test_sites_in_an_enum_constant_body_name_the_constant(fx, run_jdx):
    body = next(b for b, c in _constants(fx).items() if c == "ADD")
    label = "(body of enum constant Op.ADD)"
    assert f"  ln.{body}#apply(int, int)  line 5  {label}" in _out(run_jdx, fx, "callers", "ln.Calc#add").splitlines()
    assert f"  ln.{body}#apply(int, int)  {label}  call 5" in _out(run_jdx, fx, "usages", "ln.Calc#add").splitlines()
    assert f"  ln.{body}  {label}  (non-public)  impl (extends)" in \
        _out(run_jdx, fx, "usages", "ln.Op", "--kind", "impl").splitlines()


def test_every_answer_naming_a_class_no_source_names_says_what_it_is(fx, run_jdx):
    bodies = {c: b for b, c in _constants(fx).items()}
    row, anonymous = _javap_name(fx, "ln.Areas$1Row"), _javap_name(fx, "ln.Areas$1")
    overrides = _out(run_jdx, fx, "overrides", "ln.Op#apply").splitlines()
    assert f"    ln.{bodies['ADD']}#apply(int, int)  ln.jar  (body of enum constant Op.ADD)" in overrides
    assert f"    ln.{bodies['HALF']}#apply(int, int)  ln.jar  (body of enum constant Op.HALF or Op.PLAIN)" in overrides
    area = _out(run_jdx, fx, "overrides", "ln.Areas$Shape#area").splitlines()
    assert f"    ln.{row}#area()  ln.jar  (local)" in area
    assert f"    ln.{anonymous}#area()  ln.jar  (anonymous, in Areas#rows)" in area
    callers = _out(run_jdx, fx, "callers", "ln.Calc#add").splitlines()
    assert any(re.fullmatch(rf"  ln\.{re.escape(row)}#area\(\)  line \d+  \(local\)", c) for c in callers), callers
    assert any(re.fullmatch(rf"  ln\.{re.escape(anonymous)}#area\(\)  line \d+  \(anonymous, in Areas#rows\)", c)
               for c in callers), callers
    assert f"class ln.{bodies['DIV']} (body of enum constant Op.DIV) (non-public)  ln.jar" in \
        _out(run_jdx, fx, "resolve", f"ln.{bodies['DIV']}").splitlines()
    assert f"class ln.{row} (local) (non-public)  ln.jar" in _out(run_jdx, fx, "resolve", "Row").splitlines()


def test_classes_no_source_names_are_found_by_their_short_binary_names(fx, run_jdx):
    row, div = _javap_name(fx, "ln.Areas$1Row"), next(b for b, c in _constants(fx).items() if c == "DIV")
    assert f"class ln.{row} (local) (non-public)  ln.jar" in _out(run_jdx, fx, "resolve", row).splitlines()
    assert f"class ln.{div} (body of enum constant Op.DIV) (non-public)  ln.jar" in \
        _out(run_jdx, fx, "resolve", div).splitlines()
    assert _out(run_jdx, fx, "show", row).splitlines()[0] == f"class ln.{row}"
    assert f"class ln.{row} (local) (non-public)  ln.jar" in _out(run_jdx, fx, "search", row).splitlines()
    r = run_jdx("imports", row, *fx["args"])  # found: a local class no import names (not "not found", exit 1)
    assert r.code != 1 and f"ln.{row} is a local class" in r.out + r.err, r.out + r.err


def test_anonymous_subtypes_are_listed_by_their_number(fx, run_jdx):
    names = [_javap_name(fx, f"ln.Many${n}") for n in range(1, 12)]  # javac's numbers, in javac's order
    assert names == [f"Many${n}" for n in range(1, 12)]
    listed = re.findall(r"class ln\.(Many\$\d+)  ", _out(run_jdx, fx, "implementors", "ln.Many$Task"))
    assert listed == names
    listed = re.findall(r"class ln\.(Many\$\d+)  ", _out(run_jdx, fx, "hierarchy", "ln.Many$Task"))
    assert listed == names
