"""Generic substitution of inherited members (spec §7.1, §9.3), javac the oracle:
- an inherited generic method's own type variable is renamed where a substituted type would capture it
  (`Clash<V> extends Function<String, V>`: `<V1> Function<String, V1> andThen(Function<? super V, ? extends V1>)`),
  and one shadowing a class variable is never substituted by the class's env;
- members inherited through a raw supertype are erased (JLS §4.8), from the raw point up the whole chain, a class
  without a Signature attribute naming a generic superclass being raw; static members keep their generic types;
- `members 'List<String>'` substitutes the arguments given; wrong arity, wildcards, primitives, unknown names and
  a non-generic type are one-line usage errors (exit 3)."""

from __future__ import annotations

import json
import re

import pytest

from jdx.engine import descriptors as d
from jdx.engine.members import MemberOptions
from jdx.errors import NotFoundError, UsageError
from tests.fixtures.javac import javac_jar
from tests.service import JdxService, Options
from tests.fixtures import jdktool

SOURCES = {
    "g/Clash.java": "package g; public interface Clash<V> extends java.util.function.Function<String, V> { }",
    "g/Base.java": "package g; public class Base<T> { public <T> T pick(T t) { return t; } "
                   "public T held() { return null; } }",
    "g/Sub.java": "package g; public class Sub extends Base<String> { }",
    "g/RawList.java": "package g; public class RawList extends java.util.ArrayList { }",
    "g/Mid.java": "package g; public class Mid extends java.util.ArrayList<String> { }",
    "g/Gen.java": "package g; public class Gen<T extends Number> extends Mid { public T num() { return null; } "
                  "public java.util.List<T> nums() { return null; } "
                  "public static <X> java.util.List<X> make(X x) { return null; } }",
    "g/RawGen.java": "package g; public class RawGen extends Gen { }",
    "g/RawCmp.java": "package g; public abstract class RawCmp<T> implements Comparable, "
                     "java.util.function.Supplier<T> { }",
}


@pytest.fixture(scope="module")
def service(tmp_path_factory, jdx_home):
    root = tmp_path_factory.mktemp("generics")
    jar, classes = javac_jar(root, SOURCES, "g", "generics.jar")
    svc = JdxService(Options(jars=[str(jar)], cache_dir=str(jdx_home / "cache")))
    svc.classes = classes
    yield svc
    svc.close()


def _texts(service, type_text: str, name: str) -> list[str]:
    members = service.members(type_text, MemberOptions()).result["members"]
    return sorted(m["text"] for m in members if m["name"] == name)


def _javac_rejects(service, tmp_path, lines: list[str]) -> set[int]:
    """Which of `lines` (statements, one method each, in package u) javac rejects: one javac run."""
    body = "\n".join(f"  void f{i}() {{ {line} }}" for i, line in enumerate(lines))
    src = tmp_path / "u" / "Probe.java"
    src.parent.mkdir(parents=True)
    src.write_text("package u;\nimport java.util.*;\nimport java.util.function.*;\nimport g.*;\n"
                   "abstract class Probe {\n" + body + "\n}\n")
    out = jdktool.run(["javac", "-Xmaxerrs", "1000", "-cp", str(service.classes), "-d", str(tmp_path / "out"),
                          str(src)], capture_output=True, text=True)
    return {int(n) - 6 for n in re.findall(r"Probe\.java:(\d+): error", out.stderr)}


@pytest.mark.soak
def test_a_generic_methods_own_variable_is_renamed_not_captured(service):
    assert _texts(service, "g.Clash", "andThen") == [
        "public default <V1> Function<String, V1> andThen(Function<? super V, ? extends V1>)"]
    assert _texts(service, "g.Clash", "compose") == [
        "public default <V1> Function<V1, V> compose(Function<? super V1, ? extends String>)"]
    assert _texts(service, "g.Clash", "apply") == ["public V apply(String)"]
    # with V bound, nothing is captured and the method keeps its own name
    assert _texts(service, "g.Clash<Integer>", "andThen") == [
        "public default <V> Function<String, V> andThen(Function<? super Integer, ? extends V>)"]


def test_a_shadowing_method_variable_is_not_substituted(service):
    assert _texts(service, "g.Sub", "pick") == ["public <T> T pick(T)"]
    assert _texts(service, "g.Sub", "held") == ["public String held()"]


def test_members_through_a_raw_supertype_are_erased(service):
    assert _texts(service, "g.RawList", "get") == ["public Object get(int)"]
    assert _texts(service, "g.RawList", "add") == ["public boolean add(Object)", "public void add(int, Object)"]
    assert _texts(service, "g.RawList", "iterator") == ["public Iterator iterator()"]
    assert "public Object[] toArray(Object[])" in _texts(service, "g.RawList", "toArray")
    # erasure goes on up the chain past the non-generic Mid (`extends ArrayList<String>`), as javac's does
    assert _texts(service, "g.RawGen", "get") == ["public Object get(int)"]
    assert _texts(service, "g.RawGen", "num") == ["public Number num()"]  # T's bound
    assert _texts(service, "g.RawGen", "nums") == ["public List nums()"]
    assert _texts(service, "g.RawGen", "make") == ["public static <X> List<X> make(X)"]  # static: not erased
    # a raw superinterface beside a parameterized one
    assert _texts(service, "g.RawCmp", "compareTo") == ["public abstract int compareTo(Object)"]  # RawCmp leaves it abstract
    assert _texts(service, "g.RawCmp<String>", "get") == ["public abstract String get()"]


def test_type_arguments_given_are_substituted(service):
    answer = service.members("java.util.List<String>", MemberOptions()).result
    texts = {m["text"] for m in answer["members"] if m["name"] in ("add", "get")}
    assert {"public boolean add(String)", "public String get(int)"} <= texts
    assert answer["type"] == "java.util.List" and answer["type_arguments"] == {"E": "java.lang.String"}
    from jdx.render.read import members as render

    lines = render(dict(answer, artifact_name="java.base"), False, None, None)
    footer = lines[-1]
    assert lines[0] == "members of java.util.List<java.lang.String>", lines[0]  # the header names it as asked
    assert " · interface java.util.List<java.lang.String> · java.base (bytecode)" in footer, footer
    assert _texts(service, "java.util.Map<String, java.util.List<Integer>>", "put") == [
        "public List<Integer> put(String, List<Integer>)"]


@pytest.mark.parametrize("text, message", [
    ("java.util.List<String, Integer>", "takes 1 type argument <E>, given 2"),
    ("java.lang.String<Integer>", "java.lang.String is not generic"),
    ("java.util.List<? extends>", "wildcard"),
    ("java.util.List<int>", "primitive"),
    ("java.util.List<String", "unbalanced"),
])
def test_bad_type_arguments_are_usage_errors(service, text, message):
    with pytest.raises(UsageError, match=re.escape(message)):
        service.members(text, MemberOptions())


def test_a_type_argument_no_type_of_the_workspace_has_is_not_found(run_jdx, service):
    with pytest.raises(NotFoundError, match=re.escape("'NoSuchTypeAnywhere' is not a type in the workspace")):
        service.members("java.util.List<NoSuchTypeAnywhere>", MemberOptions())
    r = run_jdx("members", "java.util.List<Strin>", "--jars", service.options.jars[0], "--json")
    assert r.code == 1 and "java.lang.String" in [c["ref"] for c in json.loads(r.out)["candidates"]], r.out


def test_bad_type_arguments_exit_3(run_jdx, service):
    r = run_jdx("members", "java.util.List<String, Integer>", "--jars", service.options.jars[0])
    assert r.code == 3 and len(r.err.strip().splitlines()) == 1, r.err


def test_javac_agrees(service, tmp_path):
    accepted = [
        "Clash<Integer> c = null; Function<String, Long> f = c.andThen((Integer i) -> 1L);",
        "Clash<Integer> c = null; Function<Long, Integer> f = c.compose((Long l) -> \"x\");",
        "Integer i = new Sub().pick(1); String s = new Sub().held();",
        "Object o = new RawList().get(0); Object[] a = new RawList().toArray(new String[0]);",
        "Number n = new RawGen().num(); List<String> l = RawGen.make(\"a\");",
        "int x = ((RawCmp<String>) null).compareTo(1); String s = ((RawCmp<String>) null).get();",
    ]
    rejected = [
        "String s = new RawList().get(0);",
        "String[] a = new RawList().toArray(new String[0]);",
        "String s = new RawGen().get(0);",
        "Integer n = new RawGen().num();",
    ]
    assert _javac_rejects(service, tmp_path, accepted + rejected) == set(
        range(len(accepted), len(accepted) + len(rejected)))


def test_substitute_renames_only_what_would_be_captured():
    sig = d.parse_method_signature("<V:Ljava/lang/Object;>(TV;TT;)TV;")
    assert d.format_signature(d.substitute(sig, {"T": d.TypeVar("V")})) == "<V1:Ljava/lang/Object;>(TV1;TV;)TV1;"
    assert d.substitute(sig, {"T": d.ClassTypeSig("java/lang/String")}) == d.MethodSignature(
        sig.type_params, (d.TypeVar("V"), d.ClassTypeSig("java/lang/String")), d.TypeVar("V"))
    # an env entry the method does not use renames nothing; a bound takes the renaming too
    bounded = d.parse_method_signature("<V:Ljava/lang/Comparable<TV;>;>(TV;)TV;")
    assert d.substitute(bounded, {"T": d.TypeVar("V")}) == bounded
    both = d.parse_method_signature("<V:Ljava/lang/Comparable<TV;>;>(TV;TT;)V")
    assert d.format_signature(d.substitute(both, {"T": d.TypeVar("V")})) == \
        "<V1:Ljava/lang/Comparable<TV1;>;>(TV1;TV;)V"
