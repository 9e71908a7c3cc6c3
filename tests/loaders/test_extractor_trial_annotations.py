"""Annotations the extractor used to drop: a parameter's (RuntimeVisible/InvisibleParameterAnnotations), a type use's
(RuntimeVisibleTypeAnnotations: `List<@Pos String>`) and those inside another annotation's values (a repeated
annotation's container, `@Tag.List({@Tag("a"), @Tag("b")})`). Each is an ANNOTATED_BY edge from the element carrying
it (`site` says where), so `usages <annotation type>` counts it; a parameter's prints in place in `signature` and
`outline`. Oracles: Java reflection (parameter annotations, repeated annotations unwrapped) and javap -v (type
annotations' targets) over the same javac output."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from jdx.engine.rel_usages import UsageOptions
from tests.fixtures.javac import javac_jar
from tests.service import JdxService, Options
from tests.fixtures import jdktool

RUNTIME = "import java.lang.annotation.*;\n@Retention(RetentionPolicy.RUNTIME) "
SOURCES = {
    "ta/NN.java": "package ta;\n" + RUNTIME + "@Target(ElementType.PARAMETER) public @interface NN {}",
    "ta/Inv.java": "package ta;\nimport java.lang.annotation.*;\n@Retention(RetentionPolicy.CLASS) "
                   "@Target(ElementType.PARAMETER) public @interface Inv {}",
    "ta/Pos.java": "package ta;\n" + RUNTIME + "@Target({ElementType.TYPE_USE, ElementType.FIELD, "
                   "ElementType.METHOD, ElementType.PARAMETER}) public @interface Pos {}",
    "ta/Tag.java": "package ta;\n" + RUNTIME + "@Repeatable(Tag.List.class) public @interface Tag {\n"
                   "  String value();\n  @Retention(RetentionPolicy.RUNTIME) @interface List { Tag[] value(); }\n}",
    "ta/P.java": "package ta;\npublic class P {\n"
                 "  public void m(@NN String x, int y) { }\n"
                 "  public void two(int a, @NN @Inv String b) { }\n"
                 "  public class In { public In(@NN String s) { } }\n"
                 "}",
    "ta/E.java": "package ta;\npublic enum E { A(\"x\"); E(@NN String s) { } }",
    "ta/TU.java": "package ta;\nimport java.util.List;\npublic class TU {\n"
                  "  public List<@Pos String> f;\n"
                  "  public List<@Pos String> r() { return null; }\n"
                  "  public void p(List<@Pos String> x) { }\n"
                  "  @Pos public String both;\n"  # a declaration and a type use at once: one usage
                  "}",
    "ta/G.java": "package ta;\n@Tag(\"a\") @Tag(\"b\") public class G { }",
}

ORACLE = r"""
import java.lang.annotation.Annotation;
import java.lang.reflect.*;
public class Reflect {
  public static void main(String[] a) throws Exception {
    for (int i = 1; i < a.length; i++) {
      Class<?> c = Class.forName(a[i], false, Reflect.class.getClassLoader());
      for (Executable e : c.getDeclaredConstructors()) dump(c, "<init>", e, a[0]);
      for (Executable e : c.getDeclaredMethods()) dump(c, e.getName(), e, a[0]);
      for (Annotation x : c.getAnnotations())
        if (x.annotationType().getName().equals("ta.Tag$List"))
          for (Annotation t : ((ta.Tag.List) x).value())
            System.out.println(c.getName() + "\t" + t.annotationType().getName());
    }
  }
  static void dump(Class<?> c, String name, Executable e, String ann) {
    Annotation[][] ps = e.getParameterAnnotations();
    int shift = e.getParameterCount() - ps.length;  // reflection may leave synthetic leading parameters out
    for (int p = 0; p < ps.length; p++)
      for (Annotation x : ps[p])
        if (x.annotationType().getName().equals(ann)) System.out.println(c.getName() + "#" + name + "\t" + (p + shift));
  }
}
"""


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    if shutil.which("javac") is None or shutil.which("java") is None:
        pytest.skip("javac/java are not installed")
    root = tmp_path_factory.mktemp("trial_annotations")
    jar, classes = javac_jar(root, {**SOURCES, "Reflect.java": ORACLE}, "ta", "ta.jar", debug=True)
    names = sorted(str(p.relative_to(classes))[:-6].replace("/", ".") for p in (classes / "ta").glob("*.class"))
    run = subprocess.run(["java", "-cp", str(classes), "Reflect", "ta.NN", *names], capture_output=True, text=True,
                         check=True).stdout
    return jar, classes, sorted(tuple(line.split("\t")) for line in run.splitlines())


@pytest.fixture(scope="module")
def svc(built, jdx_home):
    service = JdxService(Options(jars=[str(built[0])], jdk=False, cache_dir=str(jdx_home / "cache")))
    yield service
    service.close()


def _edges(svc, annotation: str) -> list[tuple[str, str | None, int | None]]:
    rows = svc.cypher(f"MATCH (x)-[r:ANNOTATED_BY]->(t:Type {{id: '{annotation}'}}) "
                      "RETURN x.id AS id, r.site AS site, r.param AS param ORDER BY id, site").result["rows"]
    return sorted((r["id"], r["site"], r["param"]) for r in rows)


def test_parameter_annotations_print_in_place(svc):
    sig = svc.signature("ta.P#m").result["signatures"][0]
    assert sig["text"] == "public void m(@ta.NN String x, int y)"
    assert sig["params"] == [{"name": "x", "type": "String", "annotations": ["@ta.NN"]}, {"name": "y", "type": "int"}]
    texts = {m["name"]: m["text"] for m in svc.outline("ta.P").result["members"]}
    assert texts["two"] == "public void two(int a, @ta.NN @ta.Inv String b)"  # invisible ones too, in class-file order
    # an inner class's outer instance and an enum's name and ordinal are not the source's parameters
    assert svc.outline("ta.P$In").result["members"][0]["text"] == "public In(@ta.NN String s)"
    ctor = [m for m in svc.outline("ta.E").result["members"] if m["kind"] == "constructor"][0]
    assert ctor["text"] == "private E(@ta.NN String s)"


def test_parameter_annotations_are_usages_as_reflection_sees_them(svc, built):
    oracle = [o for o in built[2] if "#" in o[0]]
    assert len(oracle) == 4, oracle  # m, two, the inner class's and the enum's constructors
    result = svc.usages("ta.NN", UsageOptions(limit=100)).result
    assert result["counts"] == {"annotation": len(oracle)}
    callers = sorted(c["caller"].split("(")[0] for g in result["groups"] for c in g["callers"])
    assert callers == sorted(o[0] for o in oracle)
    edges = _edges(svc, "ta/NN")
    assert sorted((e[0].split("(")[0].replace("/", "."), str(e[2])) for e in edges) == oracle
    assert all(site == f"parameter {param}" for _id, site, param in edges)


def test_type_uses_are_usages_once_each(svc, built):
    javap = jdktool.run(["javap", "-v", "-p", str(built[1] / "ta" / "TU.class")], capture_output=True, text=True,
                           check=True).stdout
    assert "RuntimeVisibleTypeAnnotations" in javap and "FIELD, location=[TYPE_ARGUMENT(0)]" in javap
    assert _edges(svc, "ta/Pos") == [
        ("ta/TU#both:Ljava/lang/String;", None, None),  # its type use repeats the declaration annotation
        ("ta/TU#f:Ljava/util/List;", "type use in field type (type argument 0)", None),
        ("ta/TU#p(Ljava/util/List;)V", "type use in parameter 0 (type argument 0)", None),
        ("ta/TU#r()Ljava/util/List;", "type use in return type (type argument 0)", None),
    ]
    assert svc.usages("ta.Pos", UsageOptions(limit=100)).result["counts"] == {"annotation": 4}


def test_annotations_inside_a_container_are_usages(svc, built):
    assert [o for o in built[2] if o[0] == "ta.G"] == [("ta.G", "ta.Tag")] * 2  # reflection unwraps the container
    assert _edges(svc, "ta/Tag") == [("ta/G", "in @ta.Tag$List", None)] * 2
    assert svc.usages("ta.Tag", UsageOptions(limit=100)).result["counts"] == {"annotation": 2}
    # the type's own annotations are as the class file holds them: the container, once
    assert svc.show("ta.G").result["annotations"] == ['@ta.Tag$List(value={@ta.Tag(value="a"), @ta.Tag(value="b")})']
