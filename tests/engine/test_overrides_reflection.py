"""Differential: the OVERRIDES edges behind `overrides` and `usages --kind override` equal what Java
reflection says (JLS §8.4.8.1) for every public method of whole jars: for each public, non-bridge,
non-synthetic instance method a class declares, the supertype methods of the same name whose parameter types,
as members of the class's parameterisation of that supertype (the type variables of `Comparator<T>` bound to
`Boolean` for `BooleanComparator implements Comparator<Boolean>`, JLS §4.5.2) and then erased, or else simply
erased (JLS §8.4.2), are the method's own (`Method.getParameterTypes`, whatever the return type), that are not
bridges (`Method.isBridge`) and are accessible from the class (public, protected, or package-private in the same
package).

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
from tests.fixtures import jdktool

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
  // the type variables of c's generic supertypes, bound as c's declaration binds them (transitively)
  static void bind(Type t, Map<TypeVariable<?>, Type> env, Set<Class<?>> seen) {
    Class<?> raw;
    if (t instanceof ParameterizedType) {
      ParameterizedType p = (ParameterizedType) t;
      raw = (Class<?>) p.getRawType();
      TypeVariable<?>[] vars = raw.getTypeParameters();
      Type[] args = p.getActualTypeArguments();
      for (int i = 0; i < vars.length && i < args.length; i++) env.putIfAbsent(vars[i], subst(args[i], env));
    } else if (t instanceof Class) {
      raw = (Class<?>) t;
    } else return;
    if (!seen.add(raw)) return;
    if (raw.getGenericSuperclass() != null) bind(raw.getGenericSuperclass(), env, seen);
    for (Type i : raw.getGenericInterfaces()) bind(i, env, seen);
  }
  static Type subst(Type t, Map<TypeVariable<?>, Type> env) {
    return t instanceof TypeVariable && env.containsKey(t) ? env.get(t) : t;
  }
  static Class<?> erase(Type t, Map<TypeVariable<?>, Type> env, int depth) {
    if (depth > 20) return Object.class;
    t = subst(t, env);
    if (t instanceof Class) return (Class<?>) t;
    if (t instanceof ParameterizedType) return (Class<?>) ((ParameterizedType) t).getRawType();
    if (t instanceof GenericArrayType)
      return java.lang.reflect.Array.newInstance(erase(((GenericArrayType) t).getGenericComponentType(), env,
                                                       depth + 1), 0).getClass();
    if (t instanceof TypeVariable) return erase(((TypeVariable<?>) t).getBounds()[0], env, depth + 1);
    if (t instanceof WildcardType) return erase(((WildcardType) t).getUpperBounds()[0], env, depth + 1);
    return Object.class;
  }
  static boolean sameAsMember(Method t, Method m, Map<TypeVariable<?>, Type> env) {
    if (Arrays.equals(t.getParameterTypes(), m.getParameterTypes())) return true;
    Type[] g = t.getGenericParameterTypes();
    Class<?>[] own = m.getParameterTypes();
    if (g.length != own.length) return false;
    for (int i = 0; i < g.length; i++) if (erase(g[i], env, 0) != own[i]) return false;
    return true;
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
      Map<TypeVariable<?>, Type> env = new HashMap<>();
      try {
        c = Class.forName(n, false, l);
        own = c.getDeclaredMethods();
        supers(c, sup);
        bind(c, env, new HashSet<>());
      } catch (Throwable t) { System.out.println("SKIP\\t" + n); continue; }
      StringBuilder names = new StringBuilder();
      for (Class<?> s : sup) names.append(names.length() > 0 ? ";" : "").append(s.getName());
      System.out.println("S\\t" + n + "\\t" + names);
      for (Method m : own) {
        if (!real(m) || !Modifier.isPublic(m.getModifiers()) || m.getDeclaringClass() != c) continue;
        TreeSet<String> over = new TreeSet<>();
        for (Class<?> s : sup) {
          Method[] theirs;
          try { theirs = s.getDeclaredMethods(); } catch (Throwable t) { continue; }
          for (Method t : theirs) {
            if (!real(t) || !t.getName().equals(m.getName()) || !sameAsMember(t, m, env)) continue;
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
    jdktool.run(["javac", "-d", str(folder), str(folder / "Overrides.java")], check=True)

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
            elif tag == "S":
                supertypes[rest[0]] = set(filter(None, rest[1].split(";")))
            else:
                want[(rest[0], rest[1])] = set(filter(None, rest[2].split(";")))
        return want, skipped

    supertypes: dict[str, set[str]] = {}  # per class run: its supertypes (run fills it)
    run.supertypes = supertypes

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


def compare(service: JdxService, oracle, artifact: str, classpath: list[Path], sample: int | None,
            least: int = 50) -> int:
    art = next(a for a in service.store().rows("MATCH (a:Artifact) RETURN a.id AS id, a.name AS name")
               if a["name"] == artifact)
    classes = [r["fqn"] for r in service.store().rows(TYPES, {"a": art["id"]})]
    if sample is not None:
        classes = sorted(random.Random(16).sample(classes, min(sample, len(classes))))
    want, skipped = oracle(classes, classpath)
    loaded = set(classes) - skipped
    got = jdx_overrides(service, art["id"], loaded)
    # a method a subclass inherits overrides that subclass's interfaces too: test_overrides_inherited.py
    got = {k: {t for t in v if t in oracle.supertypes.get(k[0], v)} for k, v in got.items()}
    want = {k: v for k, v in want.items() if v}
    diffs = [f"{c}#{m}: jdx {sorted(got.get((c, m), set()))} reflection {sorted(want.get((c, m), set()))}"
             for c, m in sorted(want.keys() | got.keys()) if got.get((c, m), set()) != want.get((c, m), set())]
    assert len(want) > least, f"the oracle found only {len(want)} overriding methods"
    assert not diffs, f"{len(diffs)} of {len(want)} differ:\n" + "\n".join(diffs[:15])
    return len(want)


@pytest.fixture(scope="module")
def jdk(jdx_home):
    service = JdxService(Options(cache_dir=str(jdx_home / "cache")))
    yield service
    service.close()


@pytest.mark.soak  # gson whole (~4.5 s): the default tier keeps the fixtures' reflection checks
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


GENERIC = {
    "BoolCmp": "public class BoolCmp implements java.util.Comparator<Boolean> {"
               " public int compare(Boolean a, Boolean b) { return 0; } }",
    "SubCmp": "public class SubCmp extends BoolCmp { public int compare(Boolean a, Boolean b) { return 1; } }",
    "Two": "public class Two implements java.util.Comparator<String>, Comparable<Two> {"
           " public int compare(String a, String b) { return 0; } public int compare(Integer a, Integer b) { return 0; }"
           " public int compareTo(Two o) { return 0; } }",
    "Base": "public abstract class Base<T> { public abstract void take(T t); }",
    "Impl": "public class Impl extends Base<String> { public void take(String s) {} public void take(Integer i) {} }",
    "Fn": "public interface Fn<T> { void apply(T t); }",
    "StrFn": "public interface StrFn extends Fn<String> { void apply(String s); }",
    "StrFnImpl": "public class StrFnImpl implements StrFn { public void apply(String s) {} }",
    "Holder": "public class Holder<T extends Number> { public void put(T t) {} }",
    "IntHolder": "public class IntHolder extends Holder<Integer> { public void put(Integer i) {} }",
    "Ints": "public abstract class Ints implements java.util.function.IntConsumer, java.util.function.Consumer<Integer> {"
            " public void accept(int i) {} public void accept(Integer i) {} }",
}
LATER = {"LaterCmp": "public class LaterCmp extends BoolCmp { public int compare(Boolean a, Boolean b) { return 2; } }"}


def _jar(folder: Path, name: str, sources: dict[str, str], classpath: Path | None = None) -> Path:
    src = folder / f"{name}-src" / "gen"
    src.mkdir(parents=True)
    for cls, text in sources.items():
        (src / f"{cls}.java").write_text("package gen; " + text)
    out = folder / f"{name}-classes"
    cmd = ["javac", "-d", str(out)] + (["-cp", str(classpath)] if classpath else [])
    subprocess.run(cmd + sorted(str(p) for p in src.iterdir()), check=True, capture_output=True)
    jar = folder / f"{name}.jar"
    jdktool.run(["jar", "cf", str(jar), "-C", str(out), "."], check=True)
    return jar


@pytest.mark.soak  # ~6 s: two graph updates; gson's and java.base's bridges are checked above in the default tier
def test_generic_overrides_through_bridges_equal_reflection(jdx_home, oracle, tmp_path):
    """JLS §8.4.8.1 with the supertype's type arguments: `compare(Boolean, Boolean)` of a `Comparator<Boolean>`
    overrides `Comparator#compare(Object, Object)` (javac's bridge says so), a subclass's override overrides it
    too, two overloads of one arity are told apart by the bridge's call; on a graph built with the jar and on one
    grown from it by a second jar (an incremental update that reads the base's bridges)."""
    jar = _jar(tmp_path, "gen", GENERIC)
    later = _jar(tmp_path, "later", LATER, classpath=jar)
    service = JdxService(Options(jars=[str(jar)], cache_dir=str(jdx_home / "cache")))
    try:
        assert compare(service, oracle, "gen.jar", [jar], None, least=9) == 10
        got = service.overrides("gen.SubCmp#compare").result["methods"][0]["overrides"]
        assert [(e["method"], e.get("direct")) for e in got][:1] == [("gen.BoolCmp#compare(java.lang.Boolean, "
                                                                      "java.lang.Boolean)", True)], got
        assert "java.util.Comparator#compare(java.lang.Object, java.lang.Object)" in [e["method"] for e in got]
    finally:
        service.close()
    service = JdxService(Options(jars=[str(jar), str(later)], cache_dir=str(jdx_home / "cache")))
    try:
        assert compare(service, oracle, "later.jar", [jar, later], None, least=0) == 1
    finally:
        service.close()


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
