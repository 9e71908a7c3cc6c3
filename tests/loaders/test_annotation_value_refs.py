"""A class literal or enum constant in an annotation's values names a type: `usages <Type> --kind ref` lists the
annotated class, method (a parameter's annotation: its method; an annotation type's element: its default value) or
field, detail `annotation value` (agent trial T35: `@Test(expected = ShapeException.class)` was no usage of
ShapeException, so a rename on that answer broke the test's compile). Arrays name their element type, primitives
nothing; a CLASS-retention annotation (RuntimeInvisible*) counts like a RUNTIME one. Oracle: `javap -v` of every
class, its Runtime(In)Visible(Parameter)Annotations and AnnotationDefault attributes, as (element, type) pairs."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from jdx.engine.rel_usages import UsageOptions
from tests.fixtures import jdktool
from tests.fixtures.javac import javac_jar
from tests.service import JdxService, Options

SOURCES = {"av/All.java": """package av;
import java.lang.annotation.*;
@Retention(RetentionPolicy.RUNTIME) @interface Ref {
    Class<?> value() default Object.class;
    Class<?>[] more() default {};
    Level level() default Level.LOW;
}
@Retention(RetentionPolicy.CLASS) @interface Mark { Class<?> value(); }
@Retention(RetentionPolicy.RUNTIME) @interface Holder { Ref[] value(); }
@Retention(RetentionPolicy.RUNTIME) @interface Test {
    Class<? extends Throwable> expected() default None.class;
    class None extends Throwable {}
}
enum Level { LOW, HIGH }
class A {}
class B {}
class C {}
class D {}
class Quiet {}
class Outer { static class Inner {} }
class ShapeEx extends RuntimeException {}
@Ref(value = A.class, more = {B.class, int.class}, level = Level.HIGH)
@Mark(C[].class)
class User {
    @Ref(Outer.Inner.class) int field;
    @Mark(Level.class) static String other;
    @Ref(value = D.class, more = {int[].class, A[][].class})
    void method(@Mark(B.class) String s, @Ref(level = Level.LOW) int x) {}
    @Holder({@Ref(D.class), @Ref(more = C.class)}) void nested() {}
    @Ref void defaults() {}
    @Test(expected = ShapeEx.class) void throwsShape() {}
    void plain(Quiet q) {}
    class Inner { Inner(@Mark(A.class) int x) {} }
}
"""}
SECTIONS = {"RuntimeVisibleAnnotations:", "RuntimeInvisibleAnnotations:", "RuntimeVisibleParameterAnnotations:",
            "RuntimeInvisibleParameterAnnotations:", "AnnotationDefault:"}
HEADER = re.compile(r"^  (\S.*);$")  # a member's header in javap -v (two spaces in)
ATTRIBUTE = re.compile(r"^\s*[A-Z]\w*:")  # an attribute's name line
CLASS_LITERAL = re.compile(r"\bclass \[*L([\w/$]+);")  # javap's `class Lav/A;`, `class [[Lav/A;` (primitive: none)
ENUM_CONSTANT = re.compile(r"(?<![\w\[/$])L([\w/$]+);\.\w+")  # javap's `Lav/Level;.HIGH`


def _oracle_pairs(classes: Path) -> set[tuple[str, str]]:
    """(graph id of the annotated element, internal name of a type a class literal or enum constant names)."""
    pairs = set()
    for path in sorted(classes.rglob("*.class")):
        name = path.relative_to(classes).with_suffix("").as_posix()
        out = jdktool.run(["javap", "-v", "-p", "-cp", str(classes), name.replace("/", ".")],
                          capture_output=True, text=True, check=True).stdout
        element, header, in_members, in_section = None, None, False, False
        for line in out.splitlines():
            if line == "{":
                in_members = True
                continue
            if line == "}":
                in_members, element, in_section = False, name, False
                continue
            if in_members and (m := HEADER.match(line)):
                header, element, in_section = m.group(1), None, False
                continue
            if header is not None and line.strip().startswith("descriptor: "):
                desc = line.strip()[len("descriptor: "):]
                head = header.split("(", 1)[0].split()
                if "(" in header:
                    mname = head[-1]
                    mname = "<init>" if mname == name.replace("/", ".") else mname
                    element = f"{name}#{mname}{desc}"
                elif header.startswith("static {}"):
                    element = f"{name}#<clinit>{desc}"
                else:
                    element = f"{name}#{head[-1]}:{desc}"
                header = None
                continue
            if line.strip() in SECTIONS:
                in_section = True
                continue
            if ATTRIBUTE.match(line) and not line.strip().startswith("parameter "):
                in_section = False
                continue
            if in_section and element is not None:
                for typ in CLASS_LITERAL.findall(line) + ENUM_CONSTANT.findall(line):
                    pairs.add((element, typ))
    return pairs


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, Path]:
    if shutil.which("javac") is None or shutil.which("javap") is None:
        pytest.skip("javac/javap are not installed")
    return javac_jar(tmp_path_factory.mktemp("annotation_values"), SOURCES, "av", "av.jar")


@pytest.fixture(scope="module")
def oracle(built) -> set[tuple[str, str]]:
    return _oracle_pairs(built[1])


@pytest.fixture(scope="module")
def svc(built, jdx_home):
    service = JdxService(Options(jars=[str(built[0])], jdk=False, cache_dir=str(jdx_home / "cache")))
    yield service
    service.close()


def _value_sites(svc, type_id: str) -> list[dict]:
    result = svc.usages(type_id.replace("/", ".").replace("$", "."), UsageOptions(kinds=("ref",), limit=1000)).result
    return [s for g in result["groups"] for c in g["callers"] for s in c["sites"] if s["detail"] == "annotation value"]


def test_the_oracle_sees_every_shape(oracle):
    """javap shows a class, a field, a method, a parameter (RUNTIME and CLASS retention), a nested annotation, an
    array's element type, an enum constant, a default value and an inner class constructor's parameter."""
    assert {
        ("av/User", "av/A"), ("av/User", "av/B"), ("av/User", "av/Level"), ("av/User", "av/C"),
        ("av/User#field:I", "av/Outer$Inner"), ("av/User#other:Ljava/lang/String;", "av/Level"),
        ("av/User#method(Ljava/lang/String;I)V", "av/D"), ("av/User#method(Ljava/lang/String;I)V", "av/A"),
        ("av/User#method(Ljava/lang/String;I)V", "av/B"), ("av/User#method(Ljava/lang/String;I)V", "av/Level"),
        ("av/User#nested()V", "av/D"), ("av/User#nested()V", "av/C"), ("av/User#throwsShape()V", "av/ShapeEx"),
        ("av/Ref#value()Ljava/lang/Class;", "java/lang/Object"), ("av/Ref#level()Lav/Level;", "av/Level"),
        ("av/User$Inner#<init>(Lav/User;I)V", "av/A"),
    } <= oracle
    assert not any(t == "av/Quiet" or e.startswith("av/User#defaults") for e, t in oracle)


def test_usages_list_every_element_an_annotation_value_names(svc, oracle, built):
    named = sorted({t for _e, t in oracle if t.startswith("av/")}
                   | {p.relative_to(built[1]).with_suffix("").as_posix() for p in built[1].rglob("*.class")})
    got = {(s["caller_id"], t) for t in named for s in _value_sites(svc, t)}
    assert got == {(e, t) for e, t in oracle if t.startswith("av/")}


@pytest.mark.parametrize("type_id", ["java/lang/Object", "java/lang/annotation/RetentionPolicy"])
def test_outside_types_too(svc, oracle, type_id):
    """Types no artifact declares (the JDK left out) have their annotation-value usages all the same."""
    want = {e for e, t in oracle if t == type_id}
    assert want
    assert {s["caller_id"] for s in _value_sites(svc, type_id)} == want


def test_the_trial_shape(svc):
    """`usages ShapeEx --kind ref` lists the test method, as `ref (annotation value)`, under its canonical ref; an
    annotation's value is not an annotation of the element (`--kind annotation` lists only @Test)."""
    sites = _value_sites(svc, "av/ShapeEx")
    assert [(s["caller"], s["kind"], s["line"]) for s in sites] == [("av.User#throwsShape()", "ref", -1)]
    test = svc.usages("av.Test", UsageOptions(kinds=("annotation",))).result
    assert [c["caller"] for g in test["groups"] for c in g["callers"]] == ["av.User#throwsShape()"]
    shape = svc.usages("av.ShapeEx", UsageOptions(kinds=("annotation",))).result
    assert shape["total"] == 0
