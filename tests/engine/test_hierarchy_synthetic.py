"""`hierarchy` (down) and `implementors` list named subtypes, public first, before anonymous and local classes and
kotlinc's `$$inlined$` copies, so `--limit` cuts those first and the truncation counts what it left out (spec §8.3).
An inlined copy carries its original's @Metadata, so its Kotlin label says `inlined copy of` the original.

The fixtures are named so that plain name order would put every anonymous class and copy first. Oracle: the JVM's
own reflection (`Class.isAnonymousClass`, `isLocalClass`, `Modifier.isPublic`) over the compiled classes."""

from __future__ import annotations

import json
import subprocess
import zipfile

import pytest

from tests.kotlin.corpus import kotlinc_jar
from tests.fixtures.javac import javac_jar
from tests.fixtures import jdktool

KOTLIN = {
    "Build.kt": """package hs

interface Source { fun get(): Int }

class Plain : Source { override fun get() = 1 }
class Simple : Source { override fun get() = 2 }
private class Quiet : Source { override fun get() = 3 }

// a captured crossinline lambda makes kotlinc regenerate the object per call site (`CallersKt$one$$inlined$source$1`)
inline fun source(crossinline f: () -> Int): Source = object : Source { override fun get() = f() }
""",
    "Callers.kt": """package hs

fun one(): Source = source { 1 }
fun two(): Source = source { 2 }
fun three(): Source = source { 3 }
""",
}

JAVA = {
    "hj/J.java": "package hj; public interface J {}",
    "hj/Zulu.java": "package hj; public class Zulu implements J {}",
    "hj/Yoke.java": "package hj; class Yoke implements J {}",
    "hj/Xray.java": "package hj; public class Xray extends Zulu {}",
    "hj/Aaa.java": """package hj;
public class Aaa {
    static J one() { return new J() {}; }
    static J two() { return new Zulu() {}; }
    static J three() { class Loc implements J {} return new Loc(); }
}""",
}

ORACLE = """import java.lang.reflect.Modifier;
public class Tiers {
    public static void main(String[] a) throws Exception {
        ClassLoader l = Tiers.class.getClassLoader();
        for (String n : a) {
            Class<?> c = Class.forName(n, false, l);
            int tier = c.isAnonymousClass() || c.isLocalClass() ? 2 : Modifier.isPublic(c.getModifiers()) ? 0 : 1;
            System.out.println(n + "\\t" + tier);
        }
    }
}"""


def _oracle(tmp, classpath: str, names: list[str]) -> dict[str, int]:
    """Reflection's tier of each class: 0 public named, 1 other named, 2 anonymous or local."""
    (tmp / "Tiers.java").write_text(ORACLE)
    jdktool.run(["javac", "-d", str(tmp), str(tmp / "Tiers.java")], check=True)
    out = subprocess.run(["java", "-cp", f"{tmp}:{classpath}", "Tiers", *names], check=True, capture_output=True,
                         text=True).stdout
    return {n: int(t) for n, t in (line.split("\t") for line in out.splitlines())}


@pytest.fixture(scope="module")
def kotlin(tmp_path_factory):
    jar = kotlinc_jar("hierarchy-synthetic", KOTLIN)
    names = sorted(n[:-6].replace("/", ".") for n in zipfile.ZipFile(jar).namelist()
                   if n.startswith("hs/") and n.endswith(".class"))
    subtypes = [n for n in names if n not in ("hs.Source", "hs.BuildKt", "hs.CallersKt")]
    return jar, _oracle(tmp_path_factory.mktemp("hs-oracle"), str(jar), subtypes)


@pytest.fixture(scope="module")
def java(tmp_path_factory):
    root = tmp_path_factory.mktemp("hj")
    jar, classes = javac_jar(root, JAVA, "hj", "hj.jar")
    names = sorted(p.relative_to(classes).with_suffix("").as_posix().replace("/", ".")
                   for p in classes.rglob("*.class"))
    subtypes = [n for n in names if n not in ("hj.J", "hj.Aaa")]
    return jar, _oracle(root, str(classes), subtypes)


def _json(run_jdx, jar, *args) -> dict:
    r = run_jdx("--no-jdk", "--jars", str(jar), *args, "--json")
    assert r.code == 0, r.out + r.err
    return json.loads(r.out)


def _text(run_jdx, jar, *args) -> list[str]:
    r = run_jdx("--no-jdk", "--jars", str(jar), *args)
    assert r.code == 0, r.out + r.err
    return r.out.splitlines()


def _flat(entries: list[dict]) -> list[dict]:
    return [x for e in entries for x in [e, *_flat(e.get("children", []))]]


def test_kotlin_fixture_has_inlined_copies(kotlin):
    _, tiers = kotlin
    copies = [n for n in tiers if "$$inlined$" in n]
    assert len(copies) == 3 and all(tiers[n] == 2 for n in copies)  # reflection: anonymous classes
    assert tiers["hs.Plain"] == tiers["hs.Simple"] == 0 and tiers["hs.Quiet"] == 1


@pytest.mark.parametrize("command", ["hierarchy", "implementors"])
def test_kotlin_limit_keeps_named_subtypes_and_counts_the_rest(run_jdx, kotlin, command):
    jar, tiers = kotlin
    extra = ("--down",) if command == "hierarchy" else ()
    answer = _json(run_jdx, jar, command, "hs.Source", *extra, "--limit", "3")
    result, truncated = answer["result"], answer["truncated"]
    shown = [e["type"] for e in (_flat(result["down"]) if command == "hierarchy" else result["implementors"])]
    assert shown == ["hs.Plain", "hs.Simple", "hs.Quiet"]  # public, then non-public, by name
    assert [tiers[t] for t in shown] == [0, 0, 1]
    assert truncated["shown"] == 3 and truncated["total"] == len(tiers) == 7
    assert truncated["left_out"] == {"anonymous": 1, "inlined": 3}  # the original object and its 3 copies
    assert "left out: 1 anonymous or local, 3 inlined copies; --limit 7" in truncated["hint"]
    text = _text(run_jdx, jar, command, "hs.Source", *extra, "--limit", "3")
    assert text[-1].startswith("… 3 of 7 shown (") and "left out: 1 anonymous or local, 3 inlined copies" in text[-1]


@pytest.mark.parametrize("command", ["hierarchy", "implementors"])
def test_kotlin_inlined_copies_are_labelled_as_copies(run_jdx, kotlin, command):
    jar, tiers = kotlin
    extra = ("--down",) if command == "hierarchy" else ()
    answer = _json(run_jdx, jar, command, "hs.Source", *extra)
    entries = _flat(answer["result"]["down"]) if command == "hierarchy" else answer["result"]["implementors"]
    assert answer["truncated"] is None
    copies = {n for n in tiers if "$$inlined$" in n}
    lines = _text(run_jdx, jar, command, "hs.Source", *extra)
    for copy in copies:
        (line,) = [x for x in lines if f"  {copy}  " in x]
        # the copy's metadata names the original object: the label says it is a copy, then names the copy
        assert line.strip().startswith("inlined copy of local class `BuildKt$source$1`"), line
    (original,) = [x for x in lines if "  hs.BuildKt$source$1  " in x]
    assert original.strip().startswith("local class `BuildKt$source$1`"), original
    assert {e["type"] for e in entries if e.get("inlined_copy")} == copies
    assert all(e.get("anonymous") for e in entries if tiers[e["type"]] == 2)
    assert not any(e.get("anonymous") for e in entries if tiers[e["type"]] < 2)
    shown = [e["type"] for e in entries]
    assert [tiers[t] for t in shown] == sorted(tiers[t] for t in shown)  # no anonymous class before a named one


@pytest.mark.parametrize("command", ["hierarchy", "implementors"])
def test_java_anonymous_and_local_classes_come_after_named_ones(run_jdx, java, command):
    jar, tiers = java
    extra = ("--down",) if command == "hierarchy" else ()
    answer = _json(run_jdx, jar, command, "hj.J", *extra, "--limit", "3")
    entries = _flat(answer["result"]["down"]) if command == "hierarchy" else answer["result"]["implementors"]
    shown = [e["type"] for e in entries]
    # hierarchy: Xray under Zulu; an anonymous `new Zulu() {}` under Zulu is cut before the package-private Yoke
    assert shown == ["hj.Zulu", "hj.Xray", "hj.Yoke"]  # implementors too: nearest first (Zulu direct, Xray under it)
    assert all(tiers[t] < 2 for t in shown)
    assert answer["truncated"]["left_out"] == {"anonymous": 3}
    assert sum(1 for t in tiers.values() if t == 2) == 3  # reflection agrees: Aaa$1, Aaa$2, Aaa$1Loc
    full = _json(run_jdx, jar, command, "hj.J", *extra)
    entries = _flat(full["result"]["down"]) if command == "hierarchy" else full["result"]["implementors"]
    assert {e["type"] for e in entries if e.get("anonymous")} == {t for t, v in tiers.items() if v == 2}
    if command == "implementors":
        assert [tiers[e["type"]] for e in entries] == sorted(tiers[e["type"]] for e in entries)
