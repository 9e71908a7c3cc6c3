"""Did-you-mean for member references (spec §16): every suggestion is a symbol that exists. A misspelled owner
offers only the near types that declare or inherit the member (else the near types themselves); a wrong parameter
list ranks the overloads nearest the written types first; a misspelled name offers the corrected name with its
overload count. Oracles: reflection on the compiled fixture, and each suggestion run back through the resolver."""

from __future__ import annotations

import subprocess

import pytest

from jdx.engine.member_resolve import lookup
from jdx.engine.resolve import resolve_type
from jdx.errors import NotFoundError
from tests.service import JdxService, Options
from tests.fixtures.javac import javac_jar

SOURCES = {
    "dm/Base.java": "package dm; public class Base { public int x; }",
    "dm/Note.java": "package dm; public class Note extends Base {}",
    "dm/Nose.java": "package dm; public class Nose { public void x(String s) {} public void x(int a, int b) {} }",
    "dm/Node.java": "package dm; public class Node { public void y2() {} }",
    "dm/Settings.java": "package dm; public class Settings {}",
    "dm/Factory.java": """package dm;
public class Factory {
    public static Object load() { return null; }
    public static Object load(Settings s) { return s; }
    public static Object load(ClassLoader l) { return l; }
    public static Object load(Settings s, ClassLoader l) { return s; }
    public static Object load(String resource) { return resource; }
    public static Object load(ClassLoader l, String resource) { return resource; }
    public static Object load(String resource, Settings s) { return resource; }
    public static Object parseString(String s) { return s; }
}""",
    "Reflect.java": """import java.lang.reflect.*;
public class Reflect {
    public static void main(String[] args) throws Exception {
        for (String name : args) {
            Class<?> c = Class.forName(name);
            for (Field f : c.getFields()) System.out.println(name + " " + f.getName() + " field");
            for (Method m : c.getMethods()) {
                if (m.getDeclaringClass() == Object.class) continue;
                StringBuilder p = new StringBuilder();
                for (Class<?> t : m.getParameterTypes()) p.append(p.length() == 0 ? "" : ",").append(t.getName());
                System.out.println(name + " " + m.getName() + " " + p);
            }
        }
    }
}""",
}
TYPES = ["dm.Base", "dm.Note", "dm.Nose", "dm.Node", "dm.Factory"]


@pytest.fixture(scope="module")
def built(tmp_path_factory, jdx_home):
    """(store, reflection: type -> [(member name, parameter types)]): the fixture jar plus the JDK."""
    root = tmp_path_factory.mktemp("didyoumean")
    jar, classes = javac_jar(root, SOURCES, "dm", "dm.jar")
    lines = subprocess.run(["java", "-cp", str(classes), "Reflect", *TYPES], check=True, capture_output=True,
                           text=True).stdout.splitlines()
    reflection: dict[str, list[tuple[str, str]]] = {t: [] for t in TYPES}
    for line in lines:
        owner, name, params = (line.split(" ") + [""])[:3]
        reflection[owner].append((name, params))
    service = JdxService(Options(jars=[str(jar)], cache_dir=str(jdx_home / "cache")))
    yield service.store(), reflection
    service.close()


def _miss(store, text: str) -> NotFoundError:
    with pytest.raises(NotFoundError) as exc:
        lookup(store, text)
    return exc.value


def _resolves(store, candidate: dict) -> list[dict]:
    """A suggestion run back through the resolver: a member ref finds members, a type ref its type."""
    if "#" in candidate["ref"]:
        return lookup(store, candidate["ref"]).members
    return [resolve_type(store, candidate["ref"])]


def test_misspelled_owner_offers_only_near_types_with_the_member(built):
    """`dm.Nope#x`: of the near types Node, Note and Nose, reflection finds `x` on Note (inherited) and Nose."""
    store, reflection = built
    having = {t for t in ("dm.Node", "dm.Note", "dm.Nose") if any(n == "x" for n, _ in reflection[t])}
    assert having == {"dm.Note", "dm.Nose"}
    got = [c["ref"] for c in _miss(store, "dm.Nope#x").candidates]
    assert set(got[:2]) == {f"{t}#x" for t in having}, got  # the written package first
    assert not any(r.startswith(("dm.Node#", "org.w3c.dom.Node#", "java.util.HashMap$Node#")) for r in got), got
    for c in _miss(store, "dm.Nope#x").candidates:
        assert _resolves(store, c), c


def test_misspelled_owner_with_wrong_parameters_offers_the_nearest_overloads(built):
    store, _ = built
    got = _miss(store, "dm.Nope#x(Strng)").candidates
    assert "dm.Nose#x(java.lang.String)" in [c["ref"] for c in got]
    assert [c["ref"] for c in got if c["ref"].startswith("dm.Nose#")][0] == "dm.Nose#x(java.lang.String)"
    for c in got:
        assert len(lookup(store, c["ref"], require_one=True).members) == 1, c


def test_misspelled_owner_without_the_member_offers_the_near_types(built):
    """No near type has `zz`: the suggestions are those types, not `Type#zz` refs that name nothing."""
    store, _ = built
    exc = _miss(store, "dm.Nope#zz")
    assert "none named like it has a member zz" in exc.message
    refs = [c["ref"] for c in exc.candidates]
    assert refs and all("#" not in r for r in refs), refs
    assert {"dm.Node", "dm.Note", "dm.Nose"} <= set(refs), refs
    for c in exc.candidates:
        assert _resolves(store, c), c


def test_misspelled_owner_prefers_the_workspace_over_the_jdk(built):
    """`Factry#parseString`: dm.Factory has it; no JDK type near `Factry` is offered with a member it lacks."""
    store, _ = built
    got = _miss(store, "Factry#parseString").candidates
    assert got[0]["ref"] == "dm.Factory#parseString", got
    for c in got:
        assert _resolves(store, c), c


def test_wrong_parameters_rank_overloads_taking_the_written_types_first(built):
    """`load(Strin)`: the overloads reflection shows taking a String come first, the exact one leading."""
    store, reflection = built
    with_string = sum(1 for n, p in reflection["dm.Factory"] if n == "load" and "java.lang.String" in p.split(","))
    exc = _miss(store, "dm.Factory#load(Strin)")
    refs = [c["ref"] for c in exc.candidates]
    assert refs[0] == "dm.Factory#load(java.lang.String)", refs
    assert all("java.lang.String" in r for r in refs[:with_string]), refs
    overloads = sum(1 for n, _ in reflection["dm.Factory"] if n == "load")
    assert f"load has {overloads} overloads, the 5 nearest shown" in exc.message
    for c in exc.candidates:
        assert len(lookup(store, c["ref"], require_one=True).members) == 1, c


def test_misspelled_name_offers_the_corrected_name_with_its_overloads(built):
    """`#lod`: one ref naming every `load` overload (reflection's count), not just the first of them."""
    store, reflection = built
    overloads = sum(1 for n, _ in reflection["dm.Factory"] if n == "load")
    exc = _miss(store, "dm.Factory#lod")
    assert [(c["ref"], c.get("overloads")) for c in exc.candidates] == [("dm.Factory#load", overloads)]
    assert len(lookup(store, "dm.Factory#load").members) == overloads
    # the count goes with its candidate (T28: `(createCommit has 2 overloads)` read as if about the query)
    assert "overloads" not in exc.message, exc.message
    from jdx.render.envelope import error_lines

    text = error_lines({"error": {"code": "NOT_FOUND", "message": exc.message}, "candidates": exc.candidates})
    assert text[2] == f"  dm.Factory#load  ({overloads} overloads)", text


def test_a_misspelled_member_of_a_simple_name_of_several_types_offers_near_members(built):
    """`ArrayList#addAl` (java.util.ArrayList and Arrays$ArrayList): the near members of the types, the first type's
    first, each resolving; not the two types (T28: `RevWalk#parseCommmit`)."""
    store, _ = built
    exc = _miss(store, "ArrayList#addAl")
    refs = [c["ref"] for c in exc.candidates]
    assert refs[:2] == ["java.util.ArrayList#addAll(int, java.util.Collection)",
                        "java.util.ArrayList#addAll(java.util.Collection)"], refs
    for c in exc.candidates:
        assert _resolves(store, c), c
    # several usable types of the name and no near member: the types (ArrayList's other namesake,
    # Arrays$ArrayList, is a JDK internal: `ArrayList` reads as java.util.ArrayList, NAME_PICKED)
    assert [c["ref"] for c in _miss(store, "List#zzzqq").candidates] == ["java.util.List", "java.awt.List",
                                                                          "com.sun.tools.javac.util.List"]


def test_misspelled_name_with_parameters_offers_the_matching_overload(built):
    store, _ = built
    got = [c["ref"] for c in _miss(store, "dm.Factory#lod(Strin)").candidates]
    assert got[0] == "dm.Factory#load(java.lang.String)", got
    got = [c["ref"] for c in _miss(store, "dm.Factory#lod(String)").candidates]
    assert got[0] == "dm.Factory#load(java.lang.String)", got


@pytest.mark.parametrize("text", [
    "Nope#x", "dm.Nope#x(int, int)", "java.util.HashMpa#put", "java.lang.Strin#charAt(it)", "java.util.Lst#sise",
    "java.lang.String#indexOff(Strin)", "java.util.HashMap#gett", "java.util.Nope#Nope", "Nose#x(Strng)",
    "java.lang.StringBuilder#apend(cha)",
])
def test_every_suggestion_resolves(built, text):
    store, _ = built
    exc = _miss(store, text)
    assert exc.candidates, text
    for c in exc.candidates:
        assert _resolves(store, c), (text, c)
