"""Differential: `members --inherited --access public --kind method` equals Java reflection's getMethods()."""

from __future__ import annotations

import subprocess
import zipfile
from pathlib import Path

import pytest

from jdx.engine import descriptors as d
from jdx.engine.members import MemberOptions
from tests.service import JdxService, Options
from jdx.errors import AmbiguousError, NotFoundError
from tests.conftest import GSON, GUAVA, LANG3, require
from tests.fixtures import jdktool

REFLECT = """
import java.lang.reflect.*;
import java.util.*;
public class Reflect {
  // javac's public bridge to a public method of a package-private superclass: the method is callable
  static boolean accessBridge(Method m) {
    for (Class<?> s = m.getDeclaringClass().getSuperclass(); s != null; s = s.getSuperclass()) {
      try {
        Method t = s.getDeclaredMethod(m.getName(), m.getParameterTypes());
        return !t.isBridge() && !Modifier.isPublic(s.getModifiers()) && Modifier.isPublic(t.getModifiers());
      } catch (NoSuchMethodException e) { }
    }
    return false;
  }
  public static void main(String[] a) throws Exception {
    ClassLoader l = Reflect.class.getClassLoader();
    for (String n : a) {
      Class<?> c;
      try { c = Class.forName(n, false, l); } catch (Throwable t) { System.out.println(n + "\\t!"); continue; }
      TreeSet<String> out = new TreeSet<>();
      for (Method m : c.getMethods()) {
        if (m.getDeclaringClass() == Object.class) continue;
        if ((m.isBridge() || m.isSynthetic()) && !accessBridge(m)) continue;
        StringBuilder b = new StringBuilder(m.getName()).append('(');
        Class<?>[] ps = m.getParameterTypes();
        for (int i = 0; i < ps.length; i++) b.append(i > 0 ? "," : "").append(ps[i].getTypeName());
        out.add(b.append(')').toString());
      }
      System.out.println(n + "\\t" + String.join(";", out));
    }
  }
}
"""

JDK_CLASSES = ["java.util.HashMap", "java.util.ArrayList", "java.lang.String", "java.lang.StringBuilder",
               "java.util.concurrent.ConcurrentHashMap", "java.lang.Thread", "java.io.ByteArrayOutputStream",
               "java.util.stream.Stream", "java.util.Map$Entry", "java.util.TreeMap", "java.util.LinkedList",
               "java.lang.Integer", "java.util.Optional", "java.nio.ByteBuffer", "java.util.Collections"]


@pytest.fixture(scope="module")
def reflect(tmp_path_factory):
    folder = tmp_path_factory.mktemp("reflect")
    (folder / "Reflect.java").write_text(REFLECT)
    jdktool.run(["javac", "-d", str(folder), str(folder / "Reflect.java")], check=True)

    def run(classes: list[str], classpath: list[Path]) -> dict[str, set[str] | None]:
        cp = ":".join([str(folder)] + [str(p) for p in classpath])
        out = subprocess.run(["java", "-cp", cp, "Reflect", *classes], capture_output=True, text=True, check=True)
        result = {}
        for line in out.stdout.splitlines():
            name, _, methods = line.partition("\t")
            result[name] = None if methods == "!" else set(filter(None, methods.split(";")))
        return result

    return run


def jdx_methods(service: JdxService, name: str) -> set[str]:
    r = service.members(name, MemberOptions(access=("public",), kind="method")).result
    out = set()
    for m in r["members"]:
        params, _ret = d.parse_method_descriptor(m["descriptor"])
        out.add(f"{m['name']}({','.join(d.descriptor_to_java(p) for p in params)})")
    return out


def public_classes(jar: Path) -> list[str]:
    with zipfile.ZipFile(jar) as z:
        names = [n[:-6].replace("/", ".") for n in z.namelist()
                 if n.endswith(".class") and "META-INF" not in n and not n.endswith("module-info.class")]
    return sorted(n for n in names if "$" not in n)


def compare(service, reflect, classes, classpath):
    expected = reflect(classes, classpath)
    failures = []
    checked = 0
    for name in classes:
        want = expected.get(name)
        if want is None:
            continue  # not loadable without its optional dependencies
        try:
            got = jdx_methods(service, name)
        except (NotFoundError, AmbiguousError) as exc:
            failures.append(f"{name}: {exc.message}")
            continue
        checked += 1
        if got != want:
            failures.append(f"{name}: missing {sorted(want - got)[:4]} extra {sorted(got - want)[:4]}")
    return checked, failures


def test_jdk_members_equal_reflection(jdx_home, reflect):
    service = JdxService(Options(cache_dir=str(jdx_home / "cache")))
    checked, failures = compare(service, reflect, JDK_CLASSES, [])
    assert checked == len(JDK_CLASSES)
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("jar,every", [pytest.param(GSON, 5, id="gson-every-5th"),
                                       pytest.param(GSON, 1, id="gson", marks=pytest.mark.soak),
                                       pytest.param(LANG3, 1, id="commons-lang3", marks=pytest.mark.soak)])
def test_library_members_equal_reflection(jdx_home, reflect, jar, every):
    require(jar)
    service = JdxService(Options(jars=[str(jar)], cache_dir=str(jdx_home / "cache")))
    classes = public_classes(jar)[::every]
    checked, failures = compare(service, reflect, classes, [jar])
    assert checked > 60 // every
    assert not failures, f"{len(failures)} of {checked} differ:\n" + "\n".join(failures[:15])


def test_comparator_detects_a_difference(jdx_home, reflect):
    """The oracle comparison must be able to fail."""
    service = JdxService(Options(cache_dir=str(jdx_home / "cache")))
    want = reflect(["java.util.HashMap"], [])["java.util.HashMap"]
    got = jdx_methods(service, "java.util.HashMap")
    assert got == want
    assert got - {"get(java.lang.Object)"} != want


def test_inherited_is_a_superset_of_declared(jdx_home):
    service = JdxService(Options(cache_dir=str(jdx_home / "cache")))
    for name in JDK_CLASSES:
        full = {m["ref"] for m in service.members(name, MemberOptions()).result["members"]}
        declared = {m["ref"] for m in service.members(name, MemberOptions(inherited=False)).result["members"]}
        assert declared <= full, name


@pytest.mark.soak  # the default tier samples gson and java.base
def test_guava_sample_members_equal_reflection(jdx_home, reflect):
    require(GUAVA)
    service = JdxService(Options(jars=[str(GUAVA)], cache_dir=str(jdx_home / "cache")))
    classes = public_classes(GUAVA)[::10]
    checked, failures = compare(service, reflect, classes, [GUAVA])
    assert checked > 50
    assert not failures, f"{len(failures)} of {checked} differ:\n" + "\n".join(failures[:15])

@pytest.mark.soak  # slow: the soak runs it (.ci/run)

def test_java_base_sample_members_equal_reflection(jdx_home, reflect):
    service = JdxService(Options(cache_dir=str(jdx_home / "cache")))
    rows = service.store().rows(
        "MATCH (a:Artifact {name: 'java.base'})-[:CONTAINS]->(t:Type) "
        "WHERE t.access % 2 = 1 AND t.outer IS NULL AND NOT t.fqn CONTAINS '$' "
        "AND (t.package STARTS WITH 'java.' OR t.package STARTS WITH 'javax.') RETURN t.fqn AS fqn ORDER BY fqn")
    classes = [r["fqn"] for r in rows][::7]
    checked, failures = compare(service, reflect, classes, [])
    assert checked > 150
    assert not failures, f"{len(failures)} of {checked} differ:\n" + "\n".join(failures[:15])
