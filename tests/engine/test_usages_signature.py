"""`usages --kind signature` (asked by name; `all` leaves it out): the declarations whose types name a type (parameters, return types, field types, type
arguments and bounds of generic signatures), as an IDE's Find Usages lists them beside the bytecode sites. Oracle:
Java reflection over the same javac output (erased and generic parameter, return and field types, a class's generic
supertypes and type parameters), synthetic members (bridges, lambda bodies, `this$0`, `$VALUES`) left out on both
sides."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from jdx.engine.rel_usages import UsageOptions
from tests.fixtures.javac import javac_jar
from tests.service import JdxService, Options

SOURCES = {
    "sg/T.java": "package sg;\npublic class T { }",
    "sg/Box.java": "package sg;\npublic class Box<E extends T> implements Comparable<Box<E>> {\n"
                   "  public int compareTo(Box<E> o) { return 0; }\n}",
    "sg/Holder.java": "package sg;\nimport java.util.*;\n"
                      "public class Holder {\n"
                      "  public T one; T[][] grid; List<T> list; Map<String, List<? extends T>> deep; int plain;\n"
                      "  public Holder(T t) { }\n"
                      "  Holder() { }\n"
                      "  public T make() { return new T(); }\n"
                      "  public T both(T t) { return t; }\n"
                      "  public void arr(int x, T... ts) { }\n"
                      "  public List<T> listed() { return list; }\n"
                      "  public <X extends T> X bounded(X x) { return x; }\n"
                      "  public <X extends Comparable<T>> void bound2(X x) { }\n"
                      "  public Runnable lam(T t) { return () -> System.out.println(t); }\n"
                      "  public void none(String s) { }\n"
                      "  public T both2(T t, List<T> ts) { return t; }\n"
                      "  public static <E extends Comparable<T>> E ranked(Class<E> c) { return null; }\n"
                      "  public class In { public In(T t) { } T back() { return one; } }\n"
                      "  public In inner(List<In> ins) { return null; }\n"
                      "  public static class Nest implements Iterable<T> {\n"
                      "    public Iterator<T> iterator() { return null; }\n  }\n"
                      "}",
    "sg/Cmp.java": "package sg;\npublic class Cmp implements java.util.Comparator<T> {\n"
                   "  public int compare(T a, T b) { return 0; }\n}",
    "sg/Kind.java": "package sg;\npublic enum Kind { A, B; public T t() { return null; } }",
    # an inner class of a generic outer is written `Lsg/Gen<..>.In2;` in signatures: no `Lsg/Gen$In2;` to find
    "sg/Gen.java": "package sg;\npublic class Gen<X> { public class In2 { } }",
    "sg/Gen2.java": "package sg;\npublic class Gen2<X> { public class In2 { } }",
    "sg/GenUse.java": "package sg;\nimport java.util.*;\n"
                      "public class GenUse implements Comparable<Gen<String>.In2> {\n"
                      "  public int compareTo(Gen<String>.In2 o) { return 0; }\n"
                      "  public Gen<String>.In2 one; List<Gen<String>.In2> many; List<Gen2<String>.In2> decoy;\n"
                      "  public List<Gen<String>.In2> all() { return null; }\n"
                      "  public Map<Gen2<String>.In2, String> other() { return null; }\n}",
    "sg/Users.java": "package sg;\npublic interface Users<U extends T> { U first(); default void each(java.util.function.Consumer<? super T> c) { } }",
}

ORACLE = r"""
import java.lang.reflect.*;
import java.util.*;
public class Sig {
  static Class<?> target;
  static boolean erased(Class<?> c) { while (c.isArray()) c = c.getComponentType(); return c == target; }
  static boolean names(Type t, Set<Type> seen) {
    if (t == null || !seen.add(t)) return false;
    if (t instanceof Class) return erased((Class<?>) t);
    if (t instanceof GenericArrayType) return names(((GenericArrayType) t).getGenericComponentType(), seen);
    if (t instanceof WildcardType) {
      for (Type b : ((WildcardType) t).getUpperBounds()) if (names(b, seen)) return true;
      for (Type b : ((WildcardType) t).getLowerBounds()) if (names(b, seen)) return true;
      return false;
    }
    if (t instanceof TypeVariable) return false;  // a use of a type variable names no type; its declaration may
    ParameterizedType p = (ParameterizedType) t;
    if (names(p.getRawType(), seen) || names(p.getOwnerType(), seen)) return true;
    for (Type a : p.getActualTypeArguments()) if (names(a, seen)) return true;
    return false;
  }
  static boolean any(Type[] ts) { for (Type t : ts) if (names(t, new HashSet<>())) return true; return false; }
  static boolean bounds(TypeVariable<?>[] tps) { for (TypeVariable<?> v : tps) if (any(v.getBounds())) return true; return false; }
  static String params(Executable e) {
    StringJoiner j = new StringJoiner(", ", "(", ")");
    Class<?>[] ps = e.getParameterTypes();
    for (int i = 0; i < ps.length; i++)
      j.add(e.isVarArgs() && i == ps.length - 1 ? ps[i].getComponentType().getTypeName() + "..." : ps[i].getTypeName());
    return j.toString();
  }
  static boolean inArgs(Type t) {  // a type's arguments name the target (the type itself left out)
    while (t instanceof GenericArrayType) t = ((GenericArrayType) t).getGenericComponentType();
    if (!(t instanceof ParameterizedType)) return false;
    ParameterizedType p = (ParameterizedType) t;
    return any(p.getActualTypeArguments()) || (p.getOwnerType() != null && inArgs(p.getOwnerType()));
  }
  static void member(String ref, Class<?>[] ps, Class<?> ret, Type[] gps, Type gret, Type[] gexs,
                     TypeVariable<?>[] tps) {
    List<String> where = new ArrayList<>();
    boolean p = false;
    for (Class<?> c : ps) p |= erased(c);
    if (p) where.add("parameter");
    if (ret != null && erased(ret)) where.add("return");
    boolean args = gret != null && inArgs(gret);
    for (Type t : gps) args |= inArgs(t);
    for (Type t : gexs) args |= inArgs(t);
    if (args) where.add("type argument");
    if (bounds(tps)) where.add("bound");
    if (!where.isEmpty()) System.out.println(ref + "\t" + String.join(", ", where));
  }
  public static void main(String[] a) throws Exception {
    target = Class.forName(a[0]);
    for (int i = 1; i < a.length; i++) {
      Class<?> c = Class.forName(a[i]);
      if (c.isSynthetic()) continue;
      String n = c.getName();
      List<Type> args = new ArrayList<>();
      List<Type> sups = new ArrayList<>(Arrays.asList(c.getGenericInterfaces()));
      if (c.getGenericSuperclass() != null) sups.add(c.getGenericSuperclass());
      for (Type s : sups) if (s instanceof ParameterizedType) args.addAll(Arrays.asList(((ParameterizedType) s).getActualTypeArguments()));
      if (any(args.toArray(new Type[0]))) System.out.println(n + "\ttype argument");
      else if (bounds(c.getTypeParameters())) System.out.println(n + "\tbound");
      for (Constructor<?> k : c.getDeclaredConstructors()) if (!k.isSynthetic())
        member(n + "#<init>" + params(k), k.getParameterTypes(), null,
               k.getGenericParameterTypes(), null, k.getGenericExceptionTypes(), k.getTypeParameters());
      for (Method m : c.getDeclaredMethods()) if (!m.isSynthetic())
        member(n + "#" + m.getName() + params(m), m.getParameterTypes(), m.getReturnType(),
               m.getGenericParameterTypes(), m.getGenericReturnType(), m.getGenericExceptionTypes(),
               m.getTypeParameters());
      for (Field f : c.getDeclaredFields()) if (!f.isSynthetic()) {
        List<String> where = new ArrayList<>();
        if (erased(f.getType())) where.add("field");
        if (inArgs(f.getGenericType())) where.add("type argument");
        if (!where.isEmpty()) System.out.println(n + "#" + f.getName() + "\t" + String.join(", ", where));
      }
    }
  }
}
"""

TARGETS = ("sg.T", "sg.Box", "sg.Holder$In", "sg.Gen$In2")


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    if shutil.which("javac") is None or shutil.which("java") is None:
        pytest.skip("javac/java are not installed")
    root = tmp_path_factory.mktemp("usages_signature")
    jar, classes = javac_jar(root, {**SOURCES, "Sig.java": ORACLE}, "sg", "sig.jar")
    names = sorted(str(p.relative_to(classes))[:-6].replace("/", ".") for p in (classes / "sg").glob("*.class"))
    oracle = {}
    for target in TARGETS:
        out = subprocess.run(["java", "-cp", str(classes), "Sig", target, *names], capture_output=True, text=True,
                             check=True).stdout
        oracle[target] = sorted(tuple(line.split("\t")) for line in out.splitlines())
    return jar, oracle


@pytest.fixture(scope="module")
def svc(built, jdx_home):
    service = JdxService(Options(jars=[str(built[0])], jdk=False, cache_dir=str(jdx_home / "cache")))
    yield service
    service.close()


def _signature_sites(svc, target: str) -> list[tuple[str, str]]:
    result = svc.usages(target, UsageOptions(kinds=("signature",), limit=10_000)).result
    return sorted((s["caller"], s["detail"]) for g in result["groups"] for c in g["callers"] for s in c["sites"])


@pytest.mark.parametrize("target", TARGETS)
def test_signature_sites_equal_reflection(svc, built, target):
    want = built[1][target]
    assert want, "the oracle found nothing: the fixture does not exercise the target"
    assert _signature_sites(svc, target) == want


def test_the_oracle_sees_each_place_a_signature_names_a_type(built):
    """The fixture covers every detail, and javac's synthetic members (the lambda body taking a T, the bridge
    `compareTo(Object)`, `this$0`) are none of them."""
    sites = dict(built[1]["sg.T"])
    assert {"parameter", "return", "parameter, return", "field", "type argument", "bound",
            "parameter, return, type argument", "parameter, return, bound"} <= set(sites.values())
    assert sites["sg.Holder#both2(sg.T, java.util.List)"] == "parameter, return, type argument"
    assert sites["sg.Holder#ranked(java.lang.Class)"] == "bound"
    assert "sg.Holder#lam(sg.T)" in sites and not any("lambda$" in k for k in sites)
    assert sites["sg.Users"] == "bound" and sites["sg.Cmp"] == "type argument"


def test_signature_is_asked_by_name_beside_all(svc):
    """`all` (the default) leaves declarations out and says how to ask for them; `--kind all,signature` adds them."""
    default = svc.usages("sg.T", UsageOptions(limit=10_000)).result
    assert "signature" not in default["counts"] and default["counts"]["new"] == 1  # `new T()` in make()
    assert "--kind signature" in default["notes"][0]
    both = svc.usages("sg.T", UsageOptions(kinds=("all", "signature"), limit=10_000)).result
    assert both["counts"] == {**default["counts"], "signature": len(_signature_sites(svc, "sg.T"))}
    assert "--kind signature" not in both["notes"][0]
    method = svc.usages("sg.Holder#make()", UsageOptions(kinds=("signature",))).result
    assert method["total"] == 0  # a method has no signature usages: the kind is the type's
