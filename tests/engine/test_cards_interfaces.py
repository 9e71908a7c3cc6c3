"""`show` names every interface a type has: those it declares (`implements`, an interface's `extends`) and those it has
through its supertypes (`also_implements`: Trove's TObjectIntHashMap is Serializable through THash, which the card
did not say). Reflection is the oracle: `getInterfaces()` of the type, its superclasses and their interfaces."""

from __future__ import annotations

import re

import pytest

from tests.fixtures import jdktool
from tests.service import JdxService, Options

TYPES = ["java.util.LinkedHashMap", "java.util.concurrent.ConcurrentSkipListMap", "java.util.NavigableMap",
         "java.lang.Thread$State", "java.util.ArrayList", "java.lang.Object"]
REFLECT = """
import java.util.*;
public class AllInterfaces {
    static void up(Class<?> c, Set<String> out) {
        for (Class<?> i : c.getInterfaces()) { out.add(i.getName()); up(i, out); }
        if (c.getSuperclass() != null) up(c.getSuperclass(), out);
    }
    public static void main(String[] args) throws Exception {
        for (String name : args) {
            Set<String> out = new TreeSet<>();
            up(Class.forName(name), out);
            System.out.println(name + " " + String.join(",", out));
        }
    }
}
"""


@pytest.fixture(scope="module")
def reflected(tmp_path_factory) -> dict[str, set[str]]:
    root = tmp_path_factory.mktemp("all-interfaces")
    (root / "AllInterfaces.java").write_text(REFLECT)
    jdktool.run(["javac", "-d", str(root), str(root / "AllInterfaces.java")], check=True)
    out = jdktool.run(["java", "-cp", str(root), "AllInterfaces", *TYPES], capture_output=True, text=True,
                      check=True).stdout
    return {line.split(" ")[0]: set(filter(None, line.split(" ")[1].split(","))) for line in out.splitlines()}


@pytest.fixture(scope="module")
def service(jdx_home):
    svc = JdxService(Options(cache_dir=str(jdx_home / "cache")))
    yield svc
    svc.close()


def _erased(shown: str) -> str:
    return re.sub(r"<.*>$", "", shown)


@pytest.mark.parametrize("name", TYPES)
def test_declared_and_inherited_interfaces_are_reflections(service, reflected, name):
    card = service.show(name).result
    declared = card["extends"] if card["kind"] == "interface" else card["implements"]
    shown = [_erased(t) for t in declared + card["also_implements"]]
    assert len(shown) == len(set(shown)), shown  # each once
    assert set(shown) == reflected[name]
    assert not set(card["also_implements"]) & set(declared)


def test_a_superclass_outside_the_workspace_keeps_its_type_arguments(tmp_path_factory, jdx_home):
    """T92: durian-collect alone, `show Maps$BiMapConverter` printed `extends …Converter` without `<A, B>`, which the
    class's own Signature attribute (javap) gives whatever the classpath."""
    from tests.fixtures.javac import javac_jar, javap

    root = tmp_path_factory.mktemp("outside-super")
    jar, classes = javac_jar(root, {"b/Base.java": "package b; public class Base<T> { }",
                                    "s/Sub.java": "package s; public class Sub<A> extends b.Base<A> { }"}, "s", "s.jar")
    assert "public class s.Sub<A> extends b.Base<A>" in javap(str(classes), "s.Sub")
    svc = JdxService(Options(jars=[str(jar)], cache_dir=str(jdx_home / "cache")))
    try:
        card = svc.show("s.Sub")
        assert card.result["extends"] == ["b.Base<A>"], card.result
        assert any(w.code == "UNRESOLVED_SUPERTYPE" for w in card.warnings)
    finally:
        svc.close()
