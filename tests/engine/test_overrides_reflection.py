"""Differential: the OVERRIDES edges behind `overrides` and `usages --kind override` equal what Java
reflection says (JLS §8.4.8.1) for every public method of whole jars: for each public, non-bridge,
non-synthetic instance method a class declares, the supertype methods of the same name and erased parameter
types (`Method.getParameterTypes`, whatever the return type) that are not bridges (`Method.isBridge`) and
are accessible from the class (public, protected, or package-private in the same package).

Default tier: gson whole, a sample of java.base, and the `overrides` command on sampled methods (its lists
never hold a bridge). Soak tier: gson, guava, commons-lang3 and java.base whole."""

from __future__ import annotations

import random
import subprocess
from pathlib import Path

import pytest

from jdx.engine import descriptors as d
from jdx.engine.relations import ArtifactFilter
from tests.service import JdxService, Options
from tests.conftest import GSON, GUAVA, LANG3, require

ORACLE = """
import java.lang.reflect.*;
import java.nio.file.*;
import java.util.*;
public class Overrides {
  static String sig(Method m) {
    StringBuilder b = new StringBuilder(m.getName()).append('(');
    Class<?>[] ps = m.getParameterTypes();
    for (int i = 0; i < ps.length; i++) b.append(i > 0 ? "," : "").append(ps[i].getTypeName());
    return b.append(')').toString();
  }
  static boolean real(Method m) {
    int mod = m.getModifiers();
    return !m.isBridge() && !m.isSynthetic() && !Modifier.isStatic(mod) && !Modifier.isPrivate(mod);
  }
  static void supers(Class<?> c, LinkedHashSet<Class<?>> out) {
    Class<?> s = c.getSuperclass();
    if (s == null && c.isInterface()) s = Object.class;  // an interface's class file names Object
    if (s != null && out.add(s)) supers(s, out);
    for (Class<?> i : c.getInterfaces()) if (out.add(i)) supers(i, out);
  }
  public static void main(String[] a) throws Exception {
    ClassLoader l = Overrides.class.getClassLoader();
    for (String n : Files.readAllLines(Paths.get(a[0]))) {
      Class<?> c;
      Method[] own;
      LinkedHashSet<Class<?>> sup = new LinkedHashSet<>();
      try {
        c = Class.forName(n, false, l);
        own = c.getDeclaredMethods();
        supers(c, sup);
      } catch (Throwable t) { System.out.println("SKIP\\t" + n); continue; }
      for (Method m : own) {
        if (!real(m) || !Modifier.isPublic(m.getModifiers()) || m.getDeclaringClass() != c) continue;
        TreeSet<String> over = new TreeSet<>();
        for (Class<?> s : sup) {
          Method[] theirs;
          try { theirs = s.getDeclaredMethods(); } catch (Throwable t) { continue; }
          for (Method t : theirs) {
            if (!real(t) || !t.getName().equals(m.getName())
                || !Arrays.equals(t.getParameterTypes(), m.getParameterTypes())) continue;
            int mod = t.getModifiers();
            boolean visible = Modifier.isPublic(mod) || Modifier.isProtected(mod)
                || s.getPackageName().equals(c.getPackageName());
            if (visible) over.add(s.getName());
          }
        }
        System.out.println("M\\t" + n + "\\t" + sig(m) + "\\t" + String.join(";", over));
      }
    }
  }
}
"""

EDGES = ("MATCH (m:Method)-[:OVERRIDES]->(o:Method) WHERE m.artifact = $a "
         "RETURN m.owner AS owner, m.name AS name, m.descriptor AS descriptor, m.access AS access, o.owner AS target")
TYPES = "MATCH (t:Type) WHERE t.artifact = $a AND NOT t.shadowed RETURN t.fqn AS fqn ORDER BY fqn"


@pytest.fixture(scope="module")
def oracle(tmp_path_factory):
    folder = tmp_path_factory.mktemp("overrides")
    (folder / "Overrides.java").write_text(ORACLE)
    subprocess.run(["javac", "-d", str(folder), str(folder / "Overrides.java")], check=True)

    def run(classes: list[str], classpath: list[Path]) -> tuple[dict[tuple[str, str], set[str]], set[str]]:
        listing = folder / "classes.txt"
        listing.write_text("\n".join(classes) + "\n")
        cp = ":".join([str(folder)] + [str(p) for p in classpath])
        out = subprocess.run(["java", "-cp", cp, "Overrides", str(listing)], capture_output=True, text=True,
                             check=True).stdout
        want, skipped = {}, set()
        for line in out.splitlines():
            tag, *rest = line.split("\t")
            if tag == "SKIP":
                skipped.add(rest[0])
            else:
                want[(rest[0], rest[1])] = set(filter(None, rest[2].split(";")))
        return want, skipped

    return run


def _java_sig(name: str, descriptor: str) -> str:
    params, _ = d.parse_method_descriptor(descriptor)
    return f"{name}({','.join(d.descriptor_to_java(p) for p in params)})"


def jdx_overrides(service: JdxService, artifact_id: str, classes: set[str]) -> dict[tuple[str, str], set[str]]:
    """(class, method signature) -> the types whose methods it overrides, for public methods of `classes`."""
    got: dict[tuple[str, str], set[str]] = {}
    for r in service.store().rows(EDGES, {"a": artifact_id}):
        owner = r["owner"].replace("/", ".")
        if owner in classes and r["access"] & 0x0001:
            got.setdefault((owner, _java_sig(r["name"], r["descriptor"])), set()).add(r["target"].replace("/", "."))
    return got


def compare(service: JdxService, oracle, artifact: str, classpath: list[Path], sample: int | None) -> int:
    art = next(a for a in service.store().rows("MATCH (a:Artifact) RETURN a.id AS id, a.name AS name")
               if a["name"] == artifact)
    classes = [r["fqn"] for r in service.store().rows(TYPES, {"a": art["id"]})]
    if sample is not None:
        classes = sorted(random.Random(16).sample(classes, min(sample, len(classes))))
    want, skipped = oracle(classes, classpath)
    loaded = set(classes) - skipped
    got = jdx_overrides(service, art["id"], loaded)
    want = {k: v for k, v in want.items() if v}
    diffs = [f"{c}#{m}: jdx {sorted(got.get((c, m), set()))} reflection {sorted(want.get((c, m), set()))}"
             for c, m in sorted(want.keys() | got.keys()) if got.get((c, m), set()) != want.get((c, m), set())]
    assert len(want) > 50, f"the oracle found only {len(want)} overriding methods"
    assert not diffs, f"{len(diffs)} of {len(want)} differ:\n" + "\n".join(diffs[:15])
    return len(want)


@pytest.fixture(scope="module")
def jdk(jdx_home):
    service = JdxService(Options(cache_dir=str(jdx_home / "cache")))
    yield service
    service.close()


def test_gson_overrides_equal_reflection(jdx_home, oracle):
    jar = require(GSON)
    service = JdxService(Options(jars=[str(jar)], cache_dir=str(jdx_home / "cache")))
    try:
        # a sample of gson's classes; the soak compares the whole jar (test_whole_jar_overrides_equal_reflection)
        compare(service, oracle, service.show("com.google.gson.Gson").result["artifact"], [jar], 100)
    finally:
        service.close()


def test_java_base_sample_overrides_equal_reflection(jdk, oracle):
    compare(jdk, oracle, "java.base", [], 600)


def test_covariant_overrides_and_no_bridges(jdk):
    """The issue's cases: a narrowed return type still overrides; bridges are never listed."""
    up = jdk.overrides("java.util.ArrayDeque#clone()").result["methods"][0]["overrides"]
    assert [e["method"] for e in up] == ["java.lang.Object#clone()"]
    down = jdk.overrides("java.util.Map#keySet()", ArtifactFilter(), 1000).result["methods"][0]["overridden_by"]
    chm = [e["method"] for e in down if e["method"].startswith("java.util.concurrent.ConcurrentHashMap#")]
    assert chm == ["java.util.concurrent.ConcurrentHashMap#keySet():java.util.concurrent.ConcurrentHashMap$KeySetView"]
    up = jdk.overrides("java.lang.StringBuilder#append(String)").result["methods"][0]["overrides"]
    assert "java.lang.AbstractStringBuilder#append(java.lang.String)" in [e["method"] for e in up]


def test_no_override_edge_touches_a_bridge(jdk):
    """Bridges are folded into the method they bridge: no OVERRIDES edge starts or ends at one, in the
    whole JDK graph (ACC_BRIDGE is 0x40)."""
    n = jdk.store().rows("MATCH (m:Method)-[:OVERRIDES]-(:Method) WHERE (m.access / 64) % 2 = 1 "
                         "RETURN count(*) AS n")[0]["n"]
    assert n == 0
    assert jdk.store().rows("MATCH (m:Method)-[:OVERRIDES]->(:Method) RETURN count(*) AS n")[0]["n"] > 10000


@pytest.mark.soak
@pytest.mark.parametrize("jar", [GSON, GUAVA, LANG3], ids=["gson", "guava", "commons-lang3"])
def test_whole_jar_overrides_equal_reflection(jdx_home, oracle, jar):
    require(jar)
    service = JdxService(Options(jars=[str(jar)], cache_dir=str(jdx_home / "cache")))
    try:
        artifact = service.store().rows("MATCH (a:Artifact) WHERE a.kind = 'jar' RETURN a.name AS name")[0]["name"]
        compare(service, oracle, artifact, [jar], None)
    finally:
        service.close()


@pytest.mark.soak
def test_whole_java_base_overrides_equal_reflection(jdk, oracle):
    compare(jdk, oracle, "java.base", [], None)
