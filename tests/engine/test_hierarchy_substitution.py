"""`hierarchy` up the tree shows each supertype in the queried type's terms: the type arguments a level gives carry
to the levels above (`Leaf` sees `Base<String, List<Integer>>` where `Mid<E>` writes `Base<String, List<E>>`); a raw
supertype on the way leaves the rest erased. JSON keeps `as` (as the lower type declares it) and adds `as_seen`.
Oracle: reflection's getGenericSuperclass/getGenericInterfaces, type variables resolved by hand down the chain."""

from __future__ import annotations

import json
import subprocess

import pytest

from tests.fixtures.javac import javac_jar

SOURCES = {
    "hx/Top.java": "package hx; public interface Top<A, B> {}",
    "hx/Base.java": "package hx; public abstract class Base<K, V> implements Top<V, K> {}",
    "hx/Mid.java": """package hx;
public abstract class Mid<E> extends Base<String, java.util.List<E>> implements Comparable<Mid<E>> {}""",
    "hx/Leaf.java": """package hx;
public class Leaf extends Mid<Integer> { public int compareTo(Mid<Integer> o) { return 0; } }""",
    "hx/Gen.java": "package hx; @SuppressWarnings(\"rawtypes\") public abstract class Gen<T> extends Base {}",
    "hx/Side.java": "package hx; public interface Side<S> extends Comparable<S> {}",
    "hx/RawLeaf.java": "package hx; public abstract class RawLeaf extends Gen<String> implements Side<Long> {}",
    "Supers.java": """import java.lang.reflect.*;
import java.util.*;
public class Supers {
    static String render(Type t, Map<String, String> env) {
        if (t instanceof Class) return ((Class<?>) t).getName();
        if (t instanceof TypeVariable) return env.getOrDefault(((TypeVariable<?>) t).getName(), t.getTypeName());
        if (t instanceof WildcardType) {
            WildcardType w = (WildcardType) t;
            if (w.getLowerBounds().length > 0) return "? super " + render(w.getLowerBounds()[0], env);
            Type up = w.getUpperBounds()[0];
            return up == Object.class ? "?" : "? extends " + render(up, env);
        }
        ParameterizedType p = (ParameterizedType) t;
        StringJoiner args = new StringJoiner(", ", "<", ">");
        for (Type a : p.getActualTypeArguments()) args.add(render(a, env));
        return render(p.getRawType(), env) + args;
    }
    // each supertype once (the first path), as the queried type sees it; null env: seen raw, so erased
    static void up(Class<?> c, Map<String, String> env, Map<String, String> out) {
        List<Type> supers = new ArrayList<>();
        if (!c.isInterface() && c.getGenericSuperclass() != null) supers.add(c.getGenericSuperclass());
        supers.addAll(Arrays.asList(c.getGenericInterfaces()));
        for (Type s : supers) {
            Class<?> raw = (Class<?>) (s instanceof ParameterizedType ? ((ParameterizedType) s).getRawType() : s);
            if (out.containsKey(raw.getName())) continue;
            Map<String, String> penv = null;
            if (env != null && s instanceof ParameterizedType) {
                penv = new HashMap<>();
                Type[] args = ((ParameterizedType) s).getActualTypeArguments();
                for (int i = 0; i < args.length; i++)
                    penv.put(raw.getTypeParameters()[i].getName(), render(args[i], env));
            } else if (env != null && raw.getTypeParameters().length == 0) {
                penv = new HashMap<>();
            }
            out.put(raw.getName(), env == null ? raw.getName() : render(s, env));
            up(raw, penv, out);
        }
    }
    public static void main(String[] a) throws Exception {
        for (String n : a) {
            Map<String, String> out = new TreeMap<>();
            up(Class.forName(n), new HashMap<>(), out);
            out.forEach((k, v) -> System.out.println(n + "\\t" + k + "\\t" + v));
        }
    }
}""",
}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("hsub")
    jar, classes = javac_jar(root, SOURCES, "hx", "hsub.jar")
    lines = subprocess.run(["java", "-cp", str(classes), "Supers", "hx.Leaf", "hx.RawLeaf"], check=True,
                           capture_output=True, text=True).stdout.splitlines()
    oracle: dict[str, dict[str, str]] = {}
    for line in lines:
        query, supertype, seen = line.split("\t")
        oracle.setdefault(query, {})[supertype] = seen
    return jar, oracle


def _up(run_jdx, jar, query: str) -> tuple[dict, list[str]]:
    r = run_jdx("--jars", str(jar), "hierarchy", query, "--up", "--json")
    assert r.code == 0, r.out + r.err
    text = run_jdx("--jars", str(jar), "hierarchy", query, "--up")
    assert text.code == 0, text.err
    return json.loads(r.out)["result"], text.out.splitlines()


def _flat(entries: list[dict]) -> list[dict]:
    return [x for e in entries for x in [e, *_flat(e.get("children", []))]]


@pytest.mark.parametrize("query", ["hx.Leaf", "hx.RawLeaf"])
def test_supertypes_are_shown_as_the_queried_type_sees_them(run_jdx, built, query):
    jar, oracle = built
    result, _ = _up(run_jdx, jar, query)
    got = {e["type"]: e["as_seen"] for e in _flat(result["up"]) if not e.get("seen")}
    assert got == oracle[query]


def test_text_tree_and_declared_form(run_jdx, built):
    jar, _ = built
    result, lines = _up(run_jdx, jar, "hx.Leaf")
    assert "      abstract class hx.Base<java.lang.String, java.util.List<java.lang.Integer>>  hsub.jar" in lines
    assert "        interface hx.Top<java.util.List<java.lang.Integer>, java.lang.String>  hsub.jar" in lines
    assert "      interface java.lang.Comparable<hx.Mid<java.lang.Integer>>  java.base" in lines
    declared = {e["type"]: e["as"] for e in _flat(result["up"])}  # `as`: as the lower type declares it
    assert declared["hx.Base"] == "hx.Base<java.lang.String, java.util.List<E>>"
    assert declared["hx.Top"] == "hx.Top<V, K>"
    _, raw = _up(run_jdx, jar, "hx.RawLeaf")
    # Gen<String> names Base raw: Base's supertypes are erased, not guessed; Side<Long> carries its argument up
    assert "      abstract class hx.Base  hsub.jar" in raw
    assert "        interface hx.Top  hsub.jar" in raw
    assert "      interface java.lang.Comparable<java.lang.Long>  java.base" in raw
