"""`overrides` lists named overriders before anonymous and local classes' (as `hierarchy` and `implementors` rank
subtypes), so `--limit` drops the classes no source can name first, and the cut counts what it left out. Java
reflection (`Class.isAnonymousClass`, `isLocalClass`) is the oracle of which overriders are anonymous or local."""

from __future__ import annotations

import json
import subprocess

import pytest

from tests.fixtures.javac import javac_jar

# anonymous and local classes in `a.AHolder` sort before the named `a.Zeta*` classes by name
SOURCES = {
    "a/F.java": "package a; public interface F { int value(); }",
    "a/AHolder.java": "package a; public class AHolder {"
                      " public static final F ONE = new F() { public int value() { return 1; } };"
                      " public static final F TWO = new F() { public int value() { return 2; } };"
                      " public static F local() { class Loc implements F { public int value() { return 3; } }"
                      " return new Loc(); } }",
    "a/ZetaOne.java": "package a; public class ZetaOne implements F { public int value() { return 4; } }",
    "a/ZetaTwo.java": "package a; class ZetaTwo implements F { public int value() { return 5; } }",
    "Reflect.java": "public class Reflect { public static void main(String[] a) throws Exception {"
                    " for (String n : a) { Class<?> c = Class.forName(n);"
                    " System.out.println(n + \" \" + (c.isAnonymousClass() || c.isLocalClass())); } } }",
}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("overrides_ranking")
    jar, classes = javac_jar(root, SOURCES, "a", "a.jar")
    names = sorted(p.relative_to(classes).with_suffix("").as_posix().replace("/", ".")
                   for p in (classes / "a").glob("*.class") if p.stem != "F")
    out = subprocess.run(["java", "-cp", str(classes), "Reflect", *names], capture_output=True, text=True,
                         check=True).stdout
    unnamed = {line.split()[0] for line in out.splitlines() if line.split()[1] == "true"}
    return jar, set(names) - {"a.AHolder"}, unnamed


def test_named_overriders_come_first_and_the_cut_counts_the_rest(built, run_jdx):
    jar, overriders, unnamed = built
    named = overriders - unnamed
    assert len(named) == 2 and len(unnamed) == 3, (named, unnamed)
    r = run_jdx("--no-jdk", "--jars", str(jar), "--json", "overrides", "a.F#value()", "--limit", str(len(named)))
    env = json.loads(r.out)
    assert r.code == 0, r.out
    (method,) = env["result"]["methods"]
    shown = [e["method"].split("#")[0] for e in method["overridden_by"]]
    assert sorted(shown) == sorted(named), shown  # javac's names sort AHolder$1, $2, $1Loc before ZetaOne
    assert method["overridden_by_count"] == len(overriders)
    assert env["truncated"]["left_out"] == {"anonymous": len(unnamed)}, env["truncated"]
    assert env["truncated"]["hint"] == f"left out: {len(unnamed)} anonymous or local; --limit {len(overriders)}"
    r = run_jdx("--no-jdk", "--jars", str(jar), "--json", "overrides", "a.F#value()")
    every = [e["method"].split("#")[0] for e in json.loads(r.out)["result"]["methods"][0]["overridden_by"]]
    assert set(every) == overriders and set(every[:len(named)]) == named, every
