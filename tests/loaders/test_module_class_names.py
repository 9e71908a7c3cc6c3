"""A top-level class named with one trailing `$` (Scala's module class of `object Foo`, `Foo$`; a legal Java name)
is indexed and named as it is, with its members and the calls into it; an empty `$` segment inside a name
(`Bad$$Name`) stays UNNAMEABLE_CLASS (tests/loaders/test_faults.py). Oracle: javap -c of the caller."""

from __future__ import annotations

import json
import zipfile

import pytest

from tests.fixtures import jdktool

SOURCES = {
    # what scalac writes for `object Flags { def has(x: Int) = ... }`: the module class and its static forwarder
    "mod/Flags$.java": "package mod; public final class Flags$ { public static final Flags$ MODULE$ = new Flags$();"
                       " private Flags$() {} public boolean has(int x) { return x != 0; } }",
    "mod/Flags.java": "package mod; public final class Flags { public static boolean has(int x) {"
                      " return Flags$.MODULE$.has(x); } }",
    "mod/package$.java": "package mod; public final class package$ { public static final package$ MODULE$ ="
                         " new package$(); public int answer() { return 42; } }",
    "mod/Bad$$Name.java": "package mod; public class Bad$$Name { }",
    # functionaljava's `fj.data.$`: a class named `$` alone, called as `$.constant(x)`
    "mod/$.java": "package mod; public final class $ { public static String constant(String s) { return s; } }",
    "mod/UsesDollar.java": "package mod; public class UsesDollar { String go() { return $.constant(\"x\"); } }",
}


@pytest.fixture(scope="module")
def jar(tmp_path_factory):
    root = tmp_path_factory.mktemp("modnames")
    src, out = root / "src", root / "classes"
    for rel, text in SOURCES.items():
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        (src / rel).write_text(text)
    jdktool.run(["javac", "-d", str(out), *map(str, (src / rel for rel in SOURCES))], check=True)
    path = root / "modnames.jar"
    with zipfile.ZipFile(path, "w") as z:
        for f in sorted(out.rglob("*.class")):
            z.write(f, f.relative_to(out).as_posix())
    return path


def _json(run_jdx, *args):
    r = run_jdx(*args, "--json")
    return r, json.loads(r.out)


def test_trailing_dollar_class_is_indexed(run_jdx, jar):
    r, env = _json(run_jdx, "members", "mod.Flags$", "--jars", str(jar), "--no-jdk")
    assert r.code == 0, r.out + r.err
    assert env["result"]["type"] == "mod.Flags$"
    assert {m["name"] for m in env["result"]["members"]} >= {"has", "MODULE$"}
    assert not [w for w in env["warnings"] if w["code"] == "UNNAMEABLE_CLASS" and "Flags$" in w["message"]]
    r, env = _json(run_jdx, "show", "mod.package$", "--jars", str(jar), "--no-jdk")
    assert r.code == 0, r.out + r.err


def test_calls_into_a_module_class_are_found(run_jdx, jar):
    javap = jdktool.run(["javap", "-c", "-classpath", str(jar), "mod.Flags"], capture_output=True, text=True,
                           check=True).stdout
    assert "Method mod/Flags$.has:(I)Z" in javap  # the oracle: the forwarder calls the module class
    r, env = _json(run_jdx, "callers", "mod.Flags$#has(int)", "--jars", str(jar), "--no-jdk")
    assert r.code == 0, r.out + r.err
    assert "mod.Flags#has(int)" in r.out
    r = run_jdx("search", "Flags$", "--kind", "class", "--jars", str(jar), "--no-jdk")
    assert r.code == 0 and "mod.Flags$" in r.out, r.out


def test_a_class_named_dollar_is_indexed(run_jdx, jar):
    javap = jdktool.run(["javap", "-c", "-classpath", str(jar), "mod.UsesDollar"], capture_output=True, text=True,
                           check=True).stdout
    assert "Method mod/$.constant:(Ljava/lang/String;)Ljava/lang/String;" in javap
    r, env = _json(run_jdx, "callers", "mod.$#constant", "--jars", str(jar), "--no-jdk")
    assert r.code == 0, r.out + r.err
    assert "mod.UsesDollar#go()" in r.out
    assert not [w for w in env["warnings"] if w["code"] == "UNNAMEABLE_CLASS" and "mod/$ " in w["message"] + " "]


def test_empty_segment_inside_stays_unnameable(run_jdx, jar):
    r, env = _json(run_jdx, "members", "mod.Flags", "--jars", str(jar), "--no-jdk")
    assert r.code == 0
    codes = [(w["code"], w["message"]) for w in env["warnings"]]
    assert [m for c, m in codes if c == "UNNAMEABLE_CLASS" and "Bad$$Name" in m], codes
