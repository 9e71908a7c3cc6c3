"""Record components (the Record attribute, JVMS §4.7.30): stored in declaration order on the type
(`Type.record_components`), printed in the card's header (`public record R(double w, double h, List<String> tags)`),
the canonical constructor and the component accessors marked in `outline` and `members`, and `final` among the
record's modifiers. Oracle: Java reflection (`getRecordComponents`, `getModifiers`) over the same javac output."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from jdx.engine.members import MemberOptions
from jdx.render.cards import outline as render_outline
from tests.fixtures.javac import javac_jar
from tests.service import JdxService, Options

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)

SOURCES = {
    "tr/R.java": "package tr;\nimport java.util.List;\n"
                 "public record R(double w, double h, List<String> tags) {\n"
                 "  public R { }\n"
                 "  public R(int x) { this(x, x, List.of()); }\n"
                 "  public double w() { return Math.abs(w); }\n"
                 "  public static R h(double h) { return null; }\n"  # not an accessor: static, and takes a parameter
                 "}",
    "tr/A.java": "package tr;\nimport java.lang.annotation.*;\n@Retention(RetentionPolicy.RUNTIME) "
                 "@Target(ElementType.RECORD_COMPONENT) public @interface A { }",
    "tr/C.java": "package tr;\npublic record C<T extends Comparable<T>>(@A int v, T[] ts) { }",
}

ORACLE = r"""
import java.lang.reflect.*;
public class Reflect {
  public static void main(String[] a) throws Exception {
    Class<?> c = Class.forName(a[0], false, Reflect.class.getClassLoader());
    System.out.println(Modifier.toString(c.getModifiers()));
    for (RecordComponent r : c.getRecordComponents())
      System.out.println(r.getName() + "\t" + r.getGenericType().getTypeName() + "\t" + r.getAnnotations().length);
  }
}
"""


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    if shutil.which("javac") is None or shutil.which("java") is None:
        pytest.skip("javac/java are not installed")
    root = tmp_path_factory.mktemp("trial_records")
    jar, classes = javac_jar(root, {**SOURCES, "Reflect.java": ORACLE}, "tr", "tr.jar", debug=True)
    oracle = {}
    for name in ("tr.R", "tr.C"):
        out = subprocess.run(["java", "-cp", str(classes), "Reflect", name], capture_output=True, text=True,
                             check=True).stdout.splitlines()
        oracle[name] = (out[0].split(), [tuple(line.split("\t")) for line in out[1:]])
    return jar, oracle


@pytest.fixture(scope="module")
def svc(built, jdx_home):
    service = JdxService(Options(jars=[str(built[0])], jdk=False, cache_dir=str(jdx_home / "cache")))
    yield service
    service.close()


def _simple(type_name: str) -> str:
    """Reflection's `java.util.List<java.lang.String>` in the card's simple names."""
    import re

    return re.sub(r"\b(?:[a-z_][\w]*\.)+([A-Z])", r"\1", type_name)


@pytest.mark.parametrize("name", ["tr.R", "tr.C"])
def test_components_equal_reflection(svc, built, name):
    modifiers, components = built[1][name]
    card = svc.show(name).result
    assert card["modifiers"] == modifiers  # `public final`: a record is final
    got = [(c["name"], c["type"], str(len(c["annotations"]))) for c in card["record_components"]]
    assert got == [(n, _simple(t), k) for n, t, k in components]


def test_the_header_declares_the_components(svc):
    assert svc.show("tr.R").result["declaration"] == "public record R(double w, double h, List<String> tags)"
    assert svc.show("tr.C").result["declaration"] == \
        "public record C<T extends Comparable<T>>(@tr.A int v, T[] ts)"
    assert "record_components" not in svc.show("tr.A").result


def test_canonical_constructor_and_accessors_are_marked(svc):
    result = svc.outline("tr.R").result
    roles = {m["text"]: m.get("record") for m in result["members"]}
    assert roles["public R(double w, double h, List<String> tags)"] == "canonical constructor"
    assert roles["public R(int x)"] is None
    assert roles["public double w()"] == "record component"  # declared explicitly, still the accessor
    assert roles["public double h()"] == roles["public List<String> tags()"] == "record component"
    assert roles["public static R h(double h)"] is None
    assert roles["public final boolean equals(Object o)"] is None
    lines = render_outline(result, brief=False, max_lines=None)
    assert "  method public double w()  [record component]" in lines
    listed = svc.members("tr.R", MemberOptions()).result["members"]
    members = {m["name"] + m["descriptor"]: m.get("record") for m in listed}
    assert members["w()D"] == members["tags()Ljava/util/List;"] == "record component"
    assert members["<init>(DDLjava/util/List;)V"] == "canonical constructor" and members["<init>(I)V"] is None
