"""Classes no source names print as javac names them, as javap and stack traces do: a local class `Areas$1Row` (never
`Areas.1Row`: `1Row` is no name a source uses), `Areas$1Row.Cell` for a member of it, an anonymous `Areas$1`; and an
enum constant's body (javac's anonymous `Op$3`) says which constant it is the body of, in every answer naming it.

Oracle: javap (the binary names; the enum's `<clinit>`, whose `new Op$N` is stored by `putstatic` in the constant)."""

from __future__ import annotations

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
            public double area() { return 1; }
            Row copy(List<Row> others) { return this; }
            class Cell { Row owner; }
        }
        class Wide extends Row { }
        List<Shape> out = new ArrayList<>();
        out.add(new Wide().copy(null));
        out.add(new Shape() { public double area() { return 2; } });
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
    sources = {"ln/Areas.java": AREAS, "ln/Op.java": OP, "ln/Calc.java": CALC}
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
    assert f"ln.{half}  ln.jar  extends ln.Op  (anonymous, in an initializer of Op)" in implementors
    assert "field public static final Op PLAIN\n" in outline and "field public static final Op NEG\n" in outline


def test_sites_in_an_enum_constant_body_name_the_constant(fx, run_jdx):
    body = next(b for b, c in _constants(fx).items() if c == "ADD")
    label = "(body of enum constant Op.ADD)"
    assert f"  ln.{body}#apply(int, int)  line 5  {label}" in _out(run_jdx, fx, "callers", "ln.Calc#add").splitlines()
    assert f"  ln.{body}#apply(int, int)  {label}  call 5" in _out(run_jdx, fx, "usages", "ln.Calc#add").splitlines()
    assert f"  ln.{body}  {label}  (non-public)  impl (extends)" in \
        _out(run_jdx, fx, "usages", "ln.Op", "--kind", "impl").splitlines()
