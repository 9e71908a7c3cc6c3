"""Overloads whose parameter types share a simple name (jsoup's `Element#forEach(java.util.function.Consumer)` beside
`forEach(org.jsoup.helper.Consumer)`) print the types that differ qualified in `signature`, `members` and `outline`
text, so no two lines read alike; everything else, and JSON, is unchanged. Oracle: javap's erased descriptors."""

from __future__ import annotations

import json
import re
import shutil

import pytest

from tests.fixtures import jdktool

SOURCES = {
    "ov/a/Consumer.java": "package ov.a; public interface Consumer<T> { void accept(T t); }",
    "ov/b/Consumer.java": "package ov.b; public interface Consumer<T> { void accept(T t); }",
    "ov/a/Thing.java": "package ov.a; public interface Thing {}",
    "ov/b/Thing.java": "package ov.b; public interface Thing {}",
    "ov/Node.java": """package ov;
public class Node {
    public Node walk(ov.b.Consumer<? super Node> action) { return this; }
}""",
    "ov/Element.java": """package ov;
public class Element extends Node {
    public Element(ov.a.Consumer<String> c, int n) {}
    public Element(ov.b.Consumer<String> c, int n) {}
    public Element forEach(ov.a.Consumer<? super Element> action) { return this; }
    @Deprecated public Element forEach(ov.b.Consumer<? super Element> action) { return this; }
    public Element forEach(int times) { return this; }
    public Element walk(ov.a.Consumer<? super Node> action) { return this; }
    public <T extends ov.a.Thing> void take(T t, String s) {}
    public <T extends ov.b.Thing> void take(T t, String s) {}
}""",
}

A, B = "ov.a.Consumer", "ov.b.Consumer"


@pytest.fixture(scope="module")
def jar(tmp_path_factory):
    if shutil.which("javap") is None:
        pytest.skip("javap is not installed")
    root = tmp_path_factory.mktemp("overloads")
    src, classes = root / "src", root / "classes"
    for name, text in SOURCES.items():
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        (src / name).write_text(text)
    jdktool.run(["javac", "-g", "-d", str(classes), *map(str, sorted(src.rglob("*.java")))], check=True)
    out = root / "overloads.jar"
    jdktool.run(["jar", "cf", str(out), "-C", str(classes), "ov"], check=True)
    javap = jdktool.run(["javap", "-s", "-cp", str(classes), "ov.Element"], capture_output=True, text=True,
                           check=True).stdout
    return out, javap


def _jdx(run_jdx, jar, *args: str) -> str:
    r = run_jdx("--no-jdk", "--jars", str(jar), *args)
    assert r.code == 0, r.out + r.err
    return r.out


def _descriptors(javap: str, name: str) -> set[str]:
    """javap -s: the erased parameter lists of every `name` overload, as `ov.a.Consumer, int`."""
    lines = javap.splitlines()
    out = set()
    for i, line in enumerate(lines):
        if re.search(rf"\b{re.escape(name)}\(", line):
            desc = lines[i + 1].split("descriptor:")[1].strip()
            params = re.findall(r"\[*(?:L[^;]+;|[BCDFIJSZ])", desc[1: desc.index(")")])
            out.add(", ".join({"I": "int"}.get(p, p[1:-1].replace("/", ".")) for p in params))
    return out


def _qualified_in(line: str) -> str | None:
    return next((q for q in (A, B) if q in line), None)


def test_signature_prints_the_differing_types_qualified(run_jdx, jar):
    path, javap = jar
    lines = [x.strip() for x in _jdx(run_jdx, path, "signature", "ov.Element#forEach").splitlines()]
    shown = [x for x in lines if x.startswith("method ")]
    assert shown == ["method public Element forEach(int times)",
                     f"method public Element forEach({A}<? super Element> action)",
                     f"method @java.lang.Deprecated public Element forEach({B}<? super Element> action)"]
    assert len(set(shown)) == len(shown)
    # each qualified type is the one javap's descriptor of some overload names
    assert {_qualified_in(x) for x in shown if "Consumer" in x} == \
        {d for d in _descriptors(javap, "forEach") if "Consumer" in d}
    # JSON keeps the declared text: the refs tell the overloads apart
    r = json.loads(_jdx(run_jdx, path, "signature", "ov.Element#forEach", "--json"))["result"]
    assert sorted((s["ref"], s["text"]) for s in r["signatures"]) == [
        ("ov.Element#forEach(int)", "public Element forEach(int times)"),
        (f"ov.Element#forEach({A})", "public Element forEach(Consumer<? super Element> action)"),
        (f"ov.Element#forEach({B})", "public Element forEach(Consumer<? super Element> action)")]


def test_members_and_outline_print_them_qualified_too(run_jdx, jar):
    path, javap = jar
    members = _jdx(run_jdx, path, "members", "ov.Element", "--grep", "^(forEach|walk|take|<init>)$").splitlines()
    assert f"  method public Element forEach({A}<? super Element>)" in members
    assert f"  method public Element forEach({B}<? super Element>)  @Deprecated" in members
    assert "  method public Element forEach(int)" in members
    # an inherited overload counts: Node#walk(b.Consumer) beside Element#walk(a.Consumer), same rendered parameters
    assert f"  method public Element walk({A}<? super Node>)" in members
    assert f"  method public Node walk({B}<? super Node>)" in members
    assert f"  constructor public Element({A}<String>, int)" in members
    assert f"  constructor public Element({B}<String>, int)" in members
    # a type variable whose bound differs: its erasure stands in for it; two Things in the answer: each qualified
    assert {x for x in members if " take(" in x} == {
        "  method public <T extends ov.a.Thing> void take(ov.a.Thing, String)",
        "  method public <T extends ov.b.Thing> void take(ov.b.Thing, String)"}
    outline = _jdx(run_jdx, path, "outline", "ov.Element").splitlines()
    assert f"  method public Element forEach({A}<? super Element> action)" in outline
    assert f"  method public Element forEach({B}<? super Element> action)  @Deprecated" in outline
    assert "  method public Element walk(Consumer<? super Node> action)" in outline  # alone in its listing
    assert f"  constructor public Element({A}<String> c, int n)" in outline
    member_lines = [x for x in outline if x.startswith("  method ") or x.startswith("  constructor ")]
    assert len(set(member_lines)) == len(member_lines) == 8
    assert {_qualified_in(x) for x in member_lines if "forEach(ov." in x} == \
        {d for d in _descriptors(javap, "forEach") if "Consumer" in d}



@pytest.mark.parametrize("command", ["usages", "samples"])
def test_several_overloads_are_named_by_their_qualified_owner(run_jdx, jar, command):
    """T92: `usages TreeQuery#findByPath` (3 overloads) was headed with the name as typed; the canonical form names
    the owner qualified (spec §6)."""
    path, _ = jar
    r = run_jdx("--no-jdk", "--jars", str(path), command, "Element#forEach", "--json")
    assert r.code == 0, r.out + r.err
    assert json.loads(r.out)["result"]["symbol"] == "ov.Element#forEach", r.out
