"""Defects an agent trial found in `jdx diff` (trial D): an inner class constructor's hidden outer-instance parameter
in the parameter-name comparison and in parameter-annotation findings, STATIC_METHOD_MADE_FINAL in a final class,
and MEMBER_MADE_FINAL's missing detail. One javac per side; the outer instance's name difference (woodstox 6.5.1
-> 7.1.0: an older javac wrote no LocalVariableTable name for it, a newer one `this$0`) no javac of today writes,
so that one is checked on the surface's own types."""

from __future__ import annotations

import shutil

import pytest

from jdx.engine.diff.members import compare_member
from jdx.engine.diff.rules import BREAKING
from jdx.engine.diff.surface import Member, Surface, TypeInfo
from tests.diff.shim import findings_json
from tests.fixtures.javac import side_jar

ANN = "@java.lang.annotation.Retention(java.lang.annotation.RetentionPolicy.RUNTIME) public @interface A { }"
# package -> (old classes, new classes): class name -> body after the package line
LIBRARY = {
    "qa": ({"A": ANN, "Out": "public class Out { public class In { public In(int x, String y) { } } }"},
           {"A": ANN, "Out": "public class Out { public class In { public In(int x, @A String y) { } } }"}),
    "qf": ({"Fin": "public final class Fin { public static void y() { } }",
            "P5": "public class P5 { public int f; public void h() { } public static void s() { } }"},
           {"Fin": "public final class Fin { public static final void y() { } }",
            "P5": "public class P5 { public final int f; public P5() { f = 1; } public final void h() { }"
                  " public static final void s() { } }"}),
}


def _compile(root, side: str):
    return side_jar(root, LIBRARY, side, debug=True)


@pytest.fixture(scope="module")
def findings(tmp_path_factory):
    if shutil.which("javac") is None:
        pytest.skip("javac is not installed")
    root = tmp_path_factory.mktemp("diff-trial-d")
    return findings_json(root / "cache", _compile(root, "old"), _compile(root, "new"))


def _of(findings, prefix: str) -> list[tuple[str, str, str, str]]:
    return sorted((f["symbol"], f["rule"], f["severity"], f["detail"]) for f in findings
                  if f["symbol"].startswith(prefix))


def test_a_parameter_annotation_of_an_inner_class_constructor_names_the_source_parameter(findings):
    """javac's RuntimeVisibleParameterAnnotations leave the outer instance out: index 1 is `y`, not `String`'s
    neighbour `int x` of the JVM descriptor `(qa.Out, int, String)`."""
    found = [f for f in _of(findings, "qa.Out$In#<init>") if f[1] == "ANNOTATION_ADDED"]
    assert len(found) == 1, _of(findings, "qa.")
    assert found[0][3].startswith("parameter 1 (y): "), found


def test_a_static_method_made_final_in_a_final_class_is_no_finding(findings):
    assert _of(findings, "qf.Fin") == []


def test_made_final_says_what_fails(findings):
    found = {f[0]: f for f in _of(findings, "qf.P5")}
    assert found["qf.P5#h()"][1:] == ("MEMBER_MADE_FINAL", BREAKING, "a subclass outside the artifact overriding it "
                                                                     "fails to load (IncompatibleClassChangeError)")
    assert found["qf.P5#f"][1:] == ("MEMBER_MADE_FINAL", BREAKING, "compiled writes fail (IllegalAccessError)")
    assert found["qf.P5#s()"][1:3] == ("STATIC_METHOD_MADE_FINAL", "suspicious")


def _inner(param_names: str, owner_access: int = 0x1) -> tuple[Member, TypeInfo]:
    m = Member("p/Out$In", "<init>", "(Lp/Out;Ljava/lang/String;Ljava/lang/String;)V", False, 0x1,
               param_names=param_names)
    t = TypeInfo("p/Out$In", "class", owner_access, None, "java/lang/Object", (), "p/Out", False)
    return m, t


def test_the_outer_instance_name_is_no_parameter_name_change():
    (o, t), (n, _) = _inner(",prefix,uri"), _inner("this$0,prefix,uri")
    sides = (Surface("old", {t.name: t}, []), Surface("new", {t.name: t}, []))
    assert compare_member(o, n, t, sides) == []
    renamed, _ = _inner("this$0,prefix,url")
    assert [(f.rule, f.detail) for f in compare_member(o, renamed, t, sides)] == [
        ("PARAMETER_NAME_CHANGED", "(prefix,uri) -> (prefix,url)")]
    # a class made static (woodstox's XSElementExp): its first parameter is now the source's, named
    made_static, static = _inner("parent,prefix,uri", 0x9)
    made = (sides[0], Surface("new", {static.name: static}, []))
    assert [(f.rule, f.detail) for f in compare_member(o, made_static, t, made)] == [
        ("PARAMETER_NAME_CHANGED", "(,prefix,uri) -> (parent,prefix,uri)")]
    # a static nested class's first parameter is a source parameter
    (o, s), (n, _) = _inner(",prefix,uri", 0x9), _inner("this$0,prefix,uri", 0x9)
    assert [f.rule for f in compare_member(o, n, s, sides)] == ["PARAMETER_NAME_CHANGED"]
