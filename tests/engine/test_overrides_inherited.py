"""Differential: the OVERRIDES edges of inherited implementations (JLS §8.4.8.1: a method a class inherits from its
superclass overrides, from that class, a method of the class's superinterfaces) equal what Java reflection says:
for each class C of the fixture and each instance method of a superinterface I of C, `C.getMethod(...)` declared by
a class D other than C and Object that does not implement I itself (the ordinary pass links those), not a bridge,
is one edge D's method -> I's method; every OVERRIDES edge touching the fixture whose method's class does not
implement the overridden method's interface is one of those. On a graph built with one jar and on one grown from
it by a second jar (an incremental update, which must not link a pair its base links already).

One javac and one JVM run for the module: both jars come from one compilation."""

from __future__ import annotations

import subprocess

import pytest

from jdx.engine.rel_usages import UsageOptions
from jdx.engine.relations import ArtifactFilter
from tests.engine.test_overrides_reflection import _java_sig
from tests.service import JdxService, Options
from tests.fixtures import jdktool

pytestmark = pytest.mark.soak  # two JDK graph updates (~7 s); test_overrides_visibility_bridge.py samples the pass by default

SOURCES = {
    "gen/I.java": "public interface I { void m(); }",
    "gen/Base.java": "public class Base { public void m() {} public void run() {} }",
    "gen/C.java": "public class C extends Base implements I {}",
    "gen/Deep1.java": "public class Deep1 extends Base {}",
    "gen/DeepC.java": "public class DeepC extends Deep1 implements I2 {}",
    "gen/I2.java": "public interface I2 extends I {}",
    "gen/J.java": "public interface J extends I { void m(); }",
    "gen/CJ.java": "public class CJ extends Deep1 implements J {}",
    "gen/Has.java": "public class Has implements I { public void m() {} }",
    "gen/HasSub.java": "public class HasSub extends Has implements J {}",
    "gen/K.java": "public class K extends Base implements Runnable {}",
    # a default method: the class's method wins (JLS §8.4.8)
    "gen/Dm.java": "public interface Dm { default void d() {} }",
    "gen/DBase.java": "public class DBase { public void d() {} }",
    "gen/DC.java": "public class DC extends DBase implements Dm {}",
    # an abstract class: an abstract inherited method overrides too; what no class declares stays the interface's
    "gen/Ab.java": "public interface Ab { void a(); void b(); }",
    "gen/AbBase.java": "public abstract class AbBase { public abstract void a(); }",
    "gen/AbC.java": "public abstract class AbC extends AbBase implements Ab {}",
    # a JDK superclass implementing the fixture's interface, and the JDK's interface implemented by a fixture's class
    "gen/HasSize.java": "public interface HasSize { int size(); }",
    "gen/SizedList.java": "public abstract class SizedList extends java.util.AbstractList<String> "
                          "implements HasSize {}",
    # not inherited: package-private in another package, private
    "other/PBase.java": "public class PBase { void p() {} }",
    "gen/P.java": "public interface P { void p(); }",
    "gen/PC.java": "public abstract class PC extends other.PBase implements P {}",
    "gen/SBase.java": "public class SBase { private void s() {} }",
    "gen/S.java": "public interface S { void s(); }",
    "gen/SC.java": "public abstract class SC extends SBase implements S {}",
    # through a generic interface: javac's bridge in GC calls GBase's method; not linked (docs/graph-schema.md)
    "gen/G.java": "public interface G<T> { void put(T t); }",
    "gen/GBase.java": "public class GBase { public void put(String s) {} }",
    "gen/GC.java": "public class GC extends GBase implements G<String> {}",
    # the second jar: a new pair, and a pair the first jar's C links already
    "later/L.java": "public interface L { void m(); }",
    "later/LaterC.java": "public class LaterC extends gen.Base implements L {}",
    "later/LaterDup.java": "public class LaterDup extends gen.Deep1 implements gen.I {}",
}

ORACLE = """
import java.lang.reflect.*;
import java.nio.file.*;
import java.util.*;
public class Inherited {
  static String sig(Method m) {
    StringBuilder b = new StringBuilder(m.getName()).append('(');
    Class<?>[] ps = m.getParameterTypes();
    for (int i = 0; i < ps.length; i++) b.append(i > 0 ? "," : "").append(ps[i].getTypeName());
    return b.append(')').toString();
  }
  static void interfaces(Class<?> c, Set<Class<?>> out) {
    for (; c != null; c = c.getSuperclass())
      for (Class<?> i : c.getInterfaces()) if (out.add(i)) interfaces(i, out);
  }
  public static void main(String[] a) throws Exception {
    ClassLoader l = Inherited.class.getClassLoader();
    for (String n : Files.readAllLines(Paths.get(a[0]))) {
      Class<?> c = Class.forName(n, false, l);
      if (c.isInterface()) continue;
      Set<Class<?>> all = new LinkedHashSet<>();
      interfaces(c, all);
      for (Class<?> i : all)
        for (Method mi : i.getDeclaredMethods()) {
          int mod = mi.getModifiers();
          if (Modifier.isStatic(mod) || Modifier.isPrivate(mod) || mi.isSynthetic()) continue;
          Method m;
          try { m = c.getMethod(mi.getName(), mi.getParameterTypes()); } catch (NoSuchMethodException e) { continue; }
          Class<?> d = m.getDeclaringClass();
          if (d.isInterface() || d == c || d == Object.class || m.isBridge() || i.isAssignableFrom(d)) continue;
          System.out.println("E\\t" + n + "\\t" + d.getName() + "\\t" + sig(m) + "\\t" + i.getName());
        }
    }
    for (String p : Files.readAllLines(Paths.get(a[1]))) {  // which of jdx's (class, interface) pairs are subtypes
      String[] t = p.split("\\t");
      if (Class.forName(t[1], false, l).isAssignableFrom(Class.forName(t[0], false, l)))
        System.out.println("A\\t" + t[0] + "\\t" + t[1]);
    }
  }
}
"""

EDGES = ("MATCH (m:Method)-[:OVERRIDES]->(o:Method) WHERE m.artifact IN $a OR o.artifact IN $a "
         "RETURN m.owner AS owner, m.name AS name, m.descriptor AS descriptor, o.owner AS target")


def _edges(service: JdxService) -> list[tuple[str, str, str]]:
    ids = [a["id"] for a in service.store().rows("MATCH (a:Artifact) WHERE a.kind = 'jar' RETURN a.id AS id")]
    return [(r["owner"].replace("/", "."), _java_sig(r["name"], r["descriptor"]), r["target"].replace("/", "."))
            for r in service.store().rows(EDGES, {"a": ids})]


@pytest.fixture(scope="module")
def world(jdx_home, tmp_path_factory):
    """(edges of the one-jar graph, of the grown two-jar graph, reflection's edges for each, the two services)."""
    folder = tmp_path_factory.mktemp("inherited")
    src = folder / "src"
    for path, text in SOURCES.items():
        (src / path).parent.mkdir(parents=True, exist_ok=True)
        package = path.split("/")[0]
        (src / path).write_text(f"package {package}; " + text)
    (folder / "Inherited.java").write_text(ORACLE)
    classes = folder / "classes"
    jdktool.run(["javac", "-d", str(classes), str(folder / "Inherited.java")]
                   + sorted(str(p) for p in src.rglob("*.java")), check=True, capture_output=True)
    first, second = folder / "gen.jar", folder / "later.jar"
    jdktool.run(["jar", "cf", str(first), "-C", str(classes), "gen", "-C", str(classes), "other"], check=True)
    jdktool.run(["jar", "cf", str(second), "-C", str(classes), "later"], check=True)
    cache = str(jdx_home / "cache")
    one = JdxService(Options(jars=[str(first)], cache_dir=cache))
    one_edges = _edges(one)
    one.close()
    two = JdxService(Options(jars=[str(first), str(second)], cache_dir=cache))
    two_edges = _edges(two)
    names = [p[: -len(".java")].replace("/", ".") for p in SOURCES]
    (folder / "classes.txt").write_text("\n".join(names) + "\n")
    (folder / "pairs.txt").write_text("".join(f"{d}\t{i}\n" for d, _, i in sorted(set(one_edges + two_edges))))
    out = subprocess.run(["java", "-cp", str(classes), "Inherited", str(folder / "classes.txt"),
                          str(folder / "pairs.txt")], capture_output=True, text=True, check=True).stdout
    want: dict[tuple[str, str, str], set[str]] = {}  # reflection's edge -> the classes that give it
    subtype = set()
    for line in out.splitlines():
        tag, *rest = line.split("\t")
        if tag == "E":
            want.setdefault(tuple(rest[1:]), set()).add(rest[0])
        else:
            subtype.add(tuple(rest))
    yield {"one": one_edges, "two": two_edges, "want": want, "subtype": subtype, "service": two}
    two.close()


def _inherited(edges, subtype) -> list[tuple[str, str, str]]:
    return sorted(e for e in edges if (e[0], e[2]) not in subtype)


FIXTURE = ("gen.", "other.", "later.")


def _ours(edge) -> bool:
    """An edge with an end in the fixture (the JDK's own: test_jdk_pairs_reflection_names_are_in_the_graph)."""
    return edge[0].startswith(FIXTURE) or edge[2].startswith(FIXTURE)


def test_inherited_implementations_equal_reflection(world):
    want_one = sorted(e for e, by in world["want"].items() if any(not c.startswith("later.") for c in by) and _ours(e))
    assert _inherited(world["one"], world["subtype"]) == want_one
    assert ("gen.Base", "m()", "gen.I") in want_one and ("gen.Base", "m()", "gen.J") in want_one
    assert ("gen.DBase", "d()", "gen.Dm") in want_one and ("gen.AbBase", "a()", "gen.Ab") in want_one
    assert ("gen.Base", "run()", "java.lang.Runnable") in want_one
    assert ("java.util.AbstractCollection", "size()", "gen.HasSize") in want_one
    assert not [e for e in want_one if e[0] in ("other.PBase", "gen.SBase", "gen.GBase")]


def test_a_grown_graph_links_the_new_pairs_once(world):
    got = _inherited(world["two"], world["subtype"])
    assert got == sorted(e for e in world["want"] if _ours(e))
    assert len(got) == len(set(got))
    assert ("gen.Base", "m()", "later.L") in got


def test_overrides_lists_the_inherited_implementation(world):
    service = world["service"]
    down = service.overrides("gen.I#m()", ArtifactFilter(), 50).result["methods"][0]["overridden_by"]
    base = [e for e in down if e["method"] == "gen.Base#m()"]
    assert len(base) == 1 and base[0].get("inherited"), down
    up = service.overrides("gen.Base#m()").result["methods"][0]["overrides"]
    assert {e["method"] for e in up} == {"gen.I#m()", "gen.J#m()", "later.L#m()"}
    assert all(e.get("inherited") for e in up)
    usages = service.usages("gen.I#m()", UsageOptions(kinds=("override",))).result
    assert usages["counts"] == {"override": 3}, usages  # Base#m, Has#m, and no duplicate


def test_jdk_pairs_reflection_names_are_in_the_graph(world):
    """`SizedList extends AbstractList<String>`: what `AbstractList` inherits from `AbstractCollection` implements
    `List` there (`contains`, `size`, ...): the JDK's own pairs, linked when the JDK's graph was built."""
    jdk = sorted(e for e in world["want"] if not _ours(e))
    assert ("java.util.AbstractCollection", "contains(java.lang.Object)", "java.util.List") in jdk
    rows = world["service"].store().rows(
        "MATCH (m:Method)-[:OVERRIDES]->(o:Method) WHERE m.owner STARTS WITH 'java/util/' "
        "RETURN m.owner AS owner, m.name AS name, m.descriptor AS descriptor, o.owner AS target")
    got = {(r["owner"].replace("/", "."), _java_sig(r["name"], r["descriptor"]), r["target"].replace("/", "."))
           for r in rows}
    assert [e for e in jdk if e not in got] == []
