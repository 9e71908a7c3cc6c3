"""A default method reached on several interface paths (JLS §8.4.8, §9.4.1; spec §9.3 step 5): when a type implements
an interface and its subinterface (`implements I0, I1`, `I1 extends I0`), the subinterface's redeclaration overrides
the superinterface's, whichever order the walk reaches them in, so `members` lists it and a member reference resolves
to it. The oracle is reflection: `Class.getMethod(name).getDeclaringClass()`, what a call dispatches to."""

from __future__ import annotations

import subprocess

import pytest

from jdx.engine.members import MemberOptions
from tests.fixtures.javac import javac_jar
from tests.service import JdxService, Options

SHAPES = {
    "Diamond": "public abstract class Diamond implements I0, I1 {}",
    "DiamondSwapped": "public abstract class DiamondSwapped implements I1, I0 {}",
    "Two": "public abstract class Two implements Left, Right {}",  # neither overrides: I0's, once
    "TwoAndSub": "public interface TwoAndSub extends Left, Right, I1 {}",
    "Three": "public interface Three extends I0, Left, I1 {}",
    "Deeper": "public abstract class Deeper implements I0, Below {}",  # Below extends I1 without redeclaring
    "Reabstracted": "public abstract class Reabstracted implements I0, Abstract {}",  # an abstract redeclaration
    "ViaSuperclass": "public abstract class ViaSuperclass extends Base implements I0 {}",  # Base implements I1
    "ClassWins": "public abstract class ClassWins extends Concrete implements I0, I1 {}",  # a class's method stays
}
# two abstract declarations from unrelated interfaces: one member, which reflection picks either of
UNRELATED = "public abstract class Unrelated implements I0, Other, Abstract {}"
SOURCES = {
    "p/I0.java": "package p; public interface I0 { default String hello() { return \"0\"; } }",
    "p/I1.java": "package p; public interface I1 extends I0 { default String hello() { return \"1\"; } }",
    "p/Left.java": "package p; public interface Left extends I0 {}",
    "p/Right.java": "package p; public interface Right extends I0 {}",
    "p/Below.java": "package p; public interface Below extends I1 {}",
    "p/Abstract.java": "package p; public interface Abstract extends I0 { String hello(); }",
    "p/Other.java": "package p; public interface Other { String hello(); }",
    "p/Base.java": "package p; public abstract class Base implements I1 {}",
    "p/Concrete.java": "package p; public class Concrete { public String hello() { return \"c\"; } }",
    **{f"p/{name}.java": f"package p; {text}" for name, text in SHAPES.items()},
    "p/Unrelated.java": f"package p; {UNRELATED}",
    "Reflect.java": "public class Reflect { public static void main(String[] a) throws Exception {\n"
                    "  for (String n : a) System.out.println(n + \" \" + Class.forName(\"p.\" + n)"
                    ".getMethod(\"hello\").getDeclaringClass().getName()); } }",
}


@pytest.fixture(scope="module")
def shapes(tmp_path_factory, jdx_home):
    root = tmp_path_factory.mktemp("diamond")
    jar, classes = javac_jar(root, SOURCES, "p", "diamond.jar")
    out = subprocess.run(["java", "-cp", str(classes), "Reflect", *SHAPES], capture_output=True, text=True,
                         check=True).stdout
    oracle = dict(line.split() for line in out.splitlines())
    svc = JdxService(Options(jars=[str(jar)], cache_dir=str(jdx_home / "cache"), jdk=False))
    yield svc, oracle
    svc.close()


def test_the_oracle_sees_the_subinterface_win(shapes):
    _svc, oracle = shapes
    assert oracle["Diamond"] == oracle["DiamondSwapped"] == "p.I1"
    assert oracle["Two"] == "p.I0" and oracle["ClassWins"] == "p.Concrete"


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_members_and_signature_name_the_declaration_reflection_finds(shapes, name):
    svc, oracle = shapes
    listed = [m for m in svc.members(f"p.{name}", MemberOptions()).result["members"] if m["name"] == "hello"]
    assert [m["declaring"] for m in listed] == [oracle[name]]
    resolved = svc.signature(f"p.{name}#hello").result
    assert resolved["signatures"][0]["ref"] == f"{oracle[name]}#hello()", resolved


def test_the_overridden_declaration_is_recorded_and_an_unrelated_one_kept(shapes):
    svc, _oracle = shapes
    [diamond] = [m for m in svc.members("p.Diamond", MemberOptions()).result["members"] if m["name"] == "hello"]
    assert diamond["overrides"] == ["p.I0"] and "also_declared_by" not in diamond
    [mixed] = [m for m in svc.members("p.Unrelated", MemberOptions()).result["members"] if m["name"] == "hello"]
    assert mixed["declaring"] == "p.Abstract" and mixed["overrides"] == ["p.I0"]
    assert mixed["also_declared_by"] == ["p.Other"]
