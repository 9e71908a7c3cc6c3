"""`members` of a class marks the methods it still leaves abstract, its interfaces' included (`public abstract String
getId()` of a HierarchicalTestEngine): what a subclass must implement. An interface's own listing keeps Java's
spelling (no `abstract`). Reflection is the oracle: `Modifier.isAbstract` of each method `Class.getMethods()` gives."""

from __future__ import annotations

import shutil

import pytest

from jdx.engine.members import MemberOptions
from tests.fixtures import jdktool
from tests.fixtures.javac import compiled_jar
from tests.service import JdxService, Options

SOURCES = {
    "ma/I.java": "package ma; public interface I { void a(); default void b() {} String id(); }",
    "ma/J.java": "package ma; public interface J { void e(); }",
    "ma/A.java": "package ma; public abstract class A implements I { public abstract void c(); public void d() {} }",
    "ma/A2.java": "package ma; public abstract class A2 extends A implements J { public void a() {} }",
    "Reflect.java": "public class Reflect { public static void main(String[] args) throws Exception { "
                    "for (java.lang.reflect.Method m : Class.forName(args[0]).getMethods()) "
                    "if (m.getDeclaringClass() != Object.class) System.out.println(m.getName() + ' ' + "
                    "java.lang.reflect.Modifier.isAbstract(m.getModifiers())); } }",
}


@pytest.fixture(scope="module")
def built(tmp_path_factory, jdx_home):
    if shutil.which("java") is None:
        pytest.skip("java is not installed")
    _root, jar, classes = compiled_jar(tmp_path_factory, "abstract-members", SOURCES, "ma", "ma.jar")
    service = JdxService(Options(jars=[str(jar)], cache_dir=str(jdx_home / "cache"), jdk=False))
    yield service, classes
    service.close()


def _reflected(classes, name: str) -> dict[str, bool]:
    out = jdktool.run(["java", "-cp", str(classes), "Reflect", name], capture_output=True, text=True, check=True)
    return {line.split()[0]: line.split()[1] == "true" for line in out.stdout.splitlines()}


@pytest.mark.parametrize("name", ["ma.A", "ma.A2", "ma.I"])
def test_abstract_marks_what_reflection_calls_abstract(built, name):
    service, classes = built
    reflected = _reflected(classes, name)
    assert reflected["id"] and not reflected["b"], reflected  # the oracle's own
    members = [m for m in service.members(name, MemberOptions()).result["members"]
               if m["kind"] == "method" and m["declaring"] != "java.lang.Object"]
    assert {m["name"]: m.get("abstract", False) for m in members} == reflected
    for m in members:  # the text says it where the class leaves it abstract; an interface's as Java writes it
        words = m["text"].split("(", 1)[0].split()
        assert ("abstract" in words) == (m.get("abstract", False) and name != "ma.I"), m["text"]
