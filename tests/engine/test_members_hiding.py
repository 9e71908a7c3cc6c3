"""Hiding (JLS §8.3, §8.4.8): a field hides every supertype field of its name whatever the types, a static method
every supertype method of its name and parameters whatever they return. Differential: for each public field name and
method signature of a class, `members` lists one entry, declared where reflection's getField/getMethod finds it."""

from __future__ import annotations

import subprocess

import pytest

from jdx.engine.members import MemberOptions
from tests.service import JdxService, Options
from tests.fixtures.javac import javac_jar

SOURCES = {
    "h/A.java": """package h;
public class A {
    public static final A INSTANCE = new A();
    public Object value;
    public int count;
    public static A make(int n) { return new A(); }
    public static Object convert(String s) { return s; }
    public A self() { return this; }
}""",
    "h/B.java": """package h;
public class B extends A implements I {
    public static final B INSTANCE = new B();
    public String value;
    public static B make(int n) { return new B(); }
    public static String convert(String s) { return s; }
    public B self() { return this; }
}""",
    "h/I.java": """package h;
public interface I { long count = 3; Number LIMIT = 1; }""",
    "h/C.java": """package h;
public class C extends B { public static final long LIMIT = 2; }""",
    "Reflect.java": """import java.lang.reflect.*;
import java.util.*;
public class Reflect {
    public static void main(String[] args) throws Exception {
        for (String name : args) {
            Class<?> c = Class.forName(name);
            SortedSet<String> out = new TreeSet<>();
            // JLS §8.3: a public field of a supertype T is a member unless a subtype of T on the way declares
            // one of its name (two that survive on different paths are both members: naming one is ambiguous)
            Set<Class<?>> sup = new LinkedHashSet<>();
            Deque<Class<?>> todo = new ArrayDeque<>(List.of(c));
            while (!todo.isEmpty()) {
                Class<?> t = todo.pop();
                if (t == null || !sup.add(t)) continue;
                todo.push(t.getSuperclass() == null ? Object.class : t.getSuperclass());
                todo.addAll(Arrays.asList(t.getInterfaces()));
            }
            for (Class<?> t : sup)
                for (Field f : t.getDeclaredFields()) {
                    if (!Modifier.isPublic(f.getModifiers())) continue;
                    boolean hidden = false;
                    for (Class<?> s : sup)
                        if (s != t && t.isAssignableFrom(s)
                                && Arrays.stream(s.getDeclaredFields()).anyMatch(g -> g.getName().equals(f.getName())))
                            hidden = true;
                    if (!hidden) out.add("F " + f.getName() + " " + t.getName());
                }
            for (Method m : c.getMethods()) {
                if (m.getDeclaringClass() == Object.class) continue;
                Method r = c.getMethod(m.getName(), m.getParameterTypes());
                StringJoiner params = new StringJoiner(",", "(", ")");
                for (Class<?> p : m.getParameterTypes()) params.add(p.getName());
                out.add("M " + m.getName() + params + " "
                        + r.getDeclaringClass().getName() + " " + r.getReturnType().getName());
            }
            for (String line : out) System.out.println(name + " " + line);
        }
    }
}""",
}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("hiding")
    jar, classes = javac_jar(root, SOURCES, "h", "hiding.jar")
    oracle = subprocess.run(["java", "-cp", str(classes), "Reflect", "h.B", "h.C"], check=True, capture_output=True,
                            text=True).stdout.splitlines()
    return jar, oracle


def test_members_list_what_hides_not_what_is_hidden(built, tmp_path):
    jar, oracle = built
    service = JdxService(Options(jars=[str(jar)], jdk=False, cache_dir=str(tmp_path / "cache")))
    for cls in ("h.B", "h.C"):
        members = service.members(cls, MemberOptions(access=("public",))).result["members"]
        got = {}
        for m in members:
            if m["declaring"] == "java.lang.Object" or m["kind"] == "constructor":
                continue
            if m["kind"] == "field":
                got.setdefault(("F", m["name"]), []).append(m["declaring"])
            else:
                params = m["descriptor"][: m["descriptor"].index(")") + 1]
                got.setdefault(("M", m["name"] + params), []).append(m["declaring"])
        want_fields = sorted((line.split()[2], line.split()[3]) for line in oracle if line.startswith(cls + " F "))
        assert sorted((k[1], x) for k, v in got.items() if k[0] == "F" for x in v) == want_fields, cls
        want_methods = sorted((line.split()[2].split("(")[0], line.split()[3]) for line in oracle
                              if line.startswith(cls + " M "))
        assert sorted((k[1].split("(")[0], v[0]) for k, v in got.items() if k[0] == "M") == want_methods, cls
        assert all(len(v) == 1 for k, v in got.items() if k[0] == "M"), got  # one entry per signature
    assert "h.C F count h.A" in oracle and "h.C F count h.I" in oracle  # the fixture holds an ambiguous name
