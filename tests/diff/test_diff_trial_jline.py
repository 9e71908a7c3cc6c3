"""`jdx diff` after the jline 3.22 -> 3.26.3 and commons-collections4 4.4 -> 4.5.0 trial, each judged by javac, javap
or the JVM:

- a minority of classes compiled for a newer Java (jline's optional `org.jline.terminal.impl.ffm`, Java 22) is a
  CLASS_VERSION_RAISED rated suspicious that names their packages: a client of the other classes still runs on the
  old JVM; when most classes are newer, it stays breaking;
- overloads pair by their parameter lists, best match first: a constructor that gained a leading parameter pairs with
  the overload holding its old parameters in order, not with another of its arity;
- a package-private supertype made public is no SUPERTYPE_ADDED (it was there), and package access reads
  `package-private`;
- a parameter type widened by its wildcards on a member nothing outside can override is info; on an overridable
  one (or a static method a subclass can hide) it stays suspicious;
- the `next:` step does not depend on `--limit`, nor on naming the sides by path or by coordinate.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from tests.diff.shim import findings_json, main, run_clients
from tests.fixtures import jdktool
from tests.fixtures.build import write_jar
from tests.fixtures.javac import javap, side_jar

pytestmark = pytest.mark.soak  # a trial's regression family with its own builds: the soak runs it whole (.ci/run)

JDK25 = Path("/usr/lib/jvm/temurin-25-jdk-amd64/bin")

_ITS = "java.util.Collection<java.util.Iterator<? extends E>>"
_WIDE = "java.util.Collection<? extends java.util.Iterator<? extends E>>"
# package -> (old classes, new classes): class name -> body after the package line
LIBRARY = {
    # jline's ExternalTerminal: every constructor gained a leading TerminalProvider
    "ov": ({"Term": "public class Term { public Term(String name, int size) { }"
                    " public Term(String name, int size, boolean raw) { } }"},
           {"Prov": "public interface Prov { }",
            "Term": "public class Term { public Term(Prov p, String name, int size) { }"
                    " public Term(Prov p, String name, int size, boolean raw) { } }"}),
    # commons-collections4's PatriciaTrie: its package-private superclass made public, with a nested class
    "pt": ({"Base": "abstract class Base { public int size() { return 0; } protected static class Entry { } }",
            "Trie": "public class Trie extends Base { public Trie() { } int peek() { return 0; } }"},
           {"Base": "public abstract class Base { public int size() { return 0; } protected static class Entry { } }",
            "Trie": "public class Trie extends Base { public Trie() { } public int peek() { return 0; } }"}),
    # commons-collections4's IteratorUtils#chainedIterator and IteratorChain(Collection)
    "gw": ({"Utils": "public final class Utils { private Utils() { }"
                     f" public static <E> java.util.Iterator<E> chain({_ITS} c) {{ return null; }} }}",
            "Chain": f"public class Chain<E> {{ public Chain({_ITS} c) {{ }} public void add({_ITS} c) {{ }} }}",
            "Open": f"public class Open {{ public Open() {{ }} public static <E> void put({_ITS} c) {{ }} }}"},
           {"Utils": "public final class Utils { private Utils() { }"
                     f" public static <E> java.util.Iterator<E> chain({_WIDE} c) {{ return null; }} }}",
            "Chain": f"public class Chain<E> {{ public Chain({_WIDE} c) {{ }} public void add({_WIDE} c) {{ }} }}",
            "Open": f"public class Open {{ public Open() {{ }} public static <E> void put({_WIDE} c) {{ }} }}"}),
}
# clients compiled against each version: name -> (source after `package c;`, whether javac accepts it against the old
# and against the new version)
IMPORTS = "import java.util.*;\n"
_ARG = "List<Iterator<? extends String>> l = new ArrayList<>();"
CLIENTS = {
    "Calls": (IMPORTS + "public class Calls { static void use() { " + _ARG +
              " gw.Utils.chain(l); new gw.Chain<String>(l).add(l); gw.Open.put(l); } }", (True, True)),
    "Overrides": (IMPORTS + "public class Overrides<E> extends gw.Chain<E> { Overrides() { super(null); }"
                  " public void add(Collection<Iterator<? extends E>> c) { } }", (True, False)),
    "Hides": (IMPORTS + "public class Hides extends gw.Open { public static <E> void put("
              "Collection<Iterator<? extends E>> c) { } }", (True, False)),
    "UsesBase": ("public class UsesBase { pt.Base b = new pt.Trie(); }", (False, True)),
}


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    """(root, old.jar, new.jar, findings of old -> new, javac's verdict per client and side)."""
    if shutil.which("javac") is None:
        pytest.skip("javac is not installed")
    root = tmp_path_factory.mktemp("diff-trial-jline")
    old, new = side_jar(root, LIBRARY, "old"), side_jar(root, LIBRARY, "new")
    verdicts = {}
    for name, (source, _) in CLIENTS.items():
        path = root / "clients" / name / "c" / f"{name}.java"
        path.parent.mkdir(parents=True)
        path.write_text(f"package c;\n{source}\n")
        verdicts[name] = tuple(jdktool.run(["javac", "-nowarn", "-d", str(root / "out" / name / side), "-cp", str(jar),
                                            str(path)], capture_output=True, text=True).returncode == 0
                               for side, jar in (("old", old), ("new", new)))
    return root, old, new, findings_json(root / "cache", old, new), verdicts


def _of(findings: list[dict], symbol: str) -> list[dict]:
    return [f for f in findings if f["symbol"] == symbol]


def _constructors(jar, cls: str) -> list[list[str]]:
    """javap's parameter lists of `cls`'s public constructors."""
    found = re.findall(rf"public {re.escape(cls)}\(([^)]*)\)", javap(jar, cls))
    return [[p.strip() for p in params.split(",") if p.strip()] for params in found]


def test_a_constructor_that_gained_a_leading_parameter_pairs_with_its_overload(lib):
    _, old, new, findings, _ = lib
    # the oracle: each new constructor is an old one with ov.Prov in front
    assert sorted(["ov.Prov", *c] for c in _constructors(old, "ov.Term")) == sorted(_constructors(new, "ov.Term"))
    term = [(f["rule"], f["symbol"], f["detail"]) for f in findings if f["symbol"].startswith("ov.Term#")]
    assert term == [
        ("PARAMETER_TYPE_CHANGED", "ov.Term#<init>(java.lang.String, int)",
         "(java.lang.String, int) -> (ov.Prov, java.lang.String, int); parameter added: ov.Prov"),
        ("PARAMETER_TYPE_CHANGED", "ov.Term#<init>(java.lang.String, int, boolean)",
         "(java.lang.String, int, boolean) -> (ov.Prov, java.lang.String, int, boolean); parameter added: ov.Prov")], \
        term


def test_a_supertype_made_public_is_no_new_supertype(lib):
    _, old, _, findings, verdicts = lib
    assert "public class pt.Trie extends pt.Base" in javap(old, "pt.Trie")  # it was there
    assert verdicts["UsesBase"] == (False, True)  # and only now can a client name it
    assert [(f["rule"], f["detail"]) for f in _of(findings, "pt.Base")] == [("TYPE_ADDED", "was package-private")]
    assert [(f["rule"], f["detail"]) for f in _of(findings, "pt.Base$Entry")] == [
        ("TYPE_ADDED", "enclosing pt.Base was not part of the API")]
    assert not [f for f in findings if f["rule"] == "SUPERTYPE_ADDED"], findings
    assert [(f["rule"], f["detail"]) for f in _of(findings, "pt.Trie#peek()")] == [
        ("MEMBER_ADDED", "was package-private")]


def test_package_access_reads_package_private_when_narrowed(lib):
    root, old, new, _, _ = lib
    narrowed = {f["symbol"]: f["detail"] for f in findings_json(root / "cache", new, old)
                if f["rule"] in ("TYPE_VISIBILITY_NARROWED", "MEMBER_VISIBILITY_NARROWED")}
    assert narrowed == {"pt.Base": "public -> package-private", "pt.Trie#peek()": "public -> package-private",
                        "pt.Base$Entry": "enclosing pt.Base is no longer part of the API"}, narrowed


def test_a_widened_parameter_is_info_only_where_nothing_can_override_it(lib):
    _, _, _, findings, verdicts = lib
    # the oracle: every call compiles against both versions; an override, or a hiding static method, of the old
    # form compiles against the old version only
    assert {n: verdicts[n] for n in ("Calls", "Overrides", "Hides")} == {
        n: CLIENTS[n][1] for n in ("Calls", "Overrides", "Hides")}, verdicts
    rated = {f["symbol"]: f["severity"] for f in findings if f["rule"] == "GENERIC_SIGNATURE_CHANGED"}
    assert rated == {"gw.Utils#chain(java.util.Collection)": "info", "gw.Chain#<init>(java.util.Collection)": "info",
                     "gw.Chain#add(java.util.Collection)": "suspicious",
                     "gw.Open#put(java.util.Collection)": "suspicious"}, rated
    chain = _of(findings, "gw.Chain#<init>(java.util.Collection)")[0]["detail"]
    assert "only parameter types widened" in chain and "(a constructor)" in chain, chain


# the class-file version: package vr's classes and vr.ffm's, compiled for Java 17 and for Java 21
VERSIONED = {"vr/Util.java": "package vr; public class Util { public static int x() { return 1; } }",
             "vr/Core.java": "package vr; public class Core { public int kept() { return 1; } }",
             "vr/ffm/Ffm.java": "package vr.ffm; public class Ffm { public static int x() { return 2; } }"}
GONE = "package vr; public class Core { public int kept() { return 1; } public int gone() { return 2; } }"


def _classes(root: Path, sources: dict[str, str], javac: str, *flags: str) -> dict[str, bytes]:
    src, out = root / "src", root / "classes"
    for name, text in sources.items():
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        (src / name).write_text(text)
    jdktool.run([javac, *flags, "-d", str(out), *map(str, sorted(src.rglob("*.java")))], check=True,
                capture_output=True, text=True)
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*.class"))}


@pytest.fixture(scope="module")
def versions(tmp_path_factory):
    """(root, {jar name: jar}, what a Java 17 JVM makes of clients compiled against the old jar, per new jar): `old`
    all Java 17; `part` vr.ffm for Java 21, the rest 17; `most` vr's classes for Java 21, vr.ffm 17. Both new ones
    lost `Core#gone()`."""
    if not (JDK25 / "javac").exists() or shutil.which("javac") is None:
        pytest.skip("javac 17 and the Temurin 25 JDK are needed")
    root = tmp_path_factory.mktemp("diff-trial-jline-version")
    old = _classes(root / "old", {**VERSIONED, "vr/Core.java": GONE}, "javac")
    new17 = _classes(root / "new17", VERSIONED, "javac")
    new21 = _classes(root / "new21", VERSIONED, str(JDK25 / "javac"), "--release", "21")
    ffm = "vr/ffm/Ffm.class"
    jars = {"old": {**old}, "part": {**new17, ffm: new21[ffm]}, "most": {**new21, ffm: new17[ffm]}}
    for name, entries in jars.items():
        write_jar(root / f"{name}.jar", entries)
    clients = root / "clients" / "c"
    clients.mkdir(parents=True)
    (clients / "UsesUtil.java").write_text("package c; public class UsesUtil { public static void use() { "
                                            "vr.Util.x(); } }")
    (clients / "UsesFfm.java").write_text("package c; public class UsesFfm { public static void use() { "
                                           "vr.ffm.Ffm.x(); } }")
    ran = {}
    for name in ("part", "most"):
        (root / f"run-{name}").mkdir()
        ran[name] = run_clients(root / f"run-{name}", sorted(clients.glob("*.java")), [root / "old.jar"],
                                [root / f"{name}.jar"], ["c.UsesUtil", "c.UsesFfm"])
    return root, {name: root / f"{name}.jar" for name in jars}, ran


def _version_finding(root, old, new) -> dict:
    return next(f for f in findings_json(root / "cache", old, new) if f["rule"] == "CLASS_VERSION_RAISED")


def test_a_minority_of_newer_classes_is_suspicious_and_named_by_package(versions):
    root, jars, ran = versions
    # the oracle: on Java 17, a client of vr.Util runs against `part`, one of vr.ffm does not
    assert ran["part"] == {"c.UsesUtil": "ok", "c.UsesFfm": "java.lang.UnsupportedClassVersionError"}, ran
    found = _version_finding(root, jars["old"], jars["part"])
    assert (found["severity"], found["old"], found["new"]) == ("suspicious", "61", "65"), found
    assert found["detail"] == ("61 (Java 17) -> 65 (Java 21): only 1 of 3 classes are newer than 61: vr.ffm (1 class) "
                               "needs Java 21+; the other 2 still load on Java 17, so only code that uses the newer "
                               "ones fails on an older JVM (UnsupportedClassVersionError) (rated suspicious, not "
                               "breaking)"), found


def test_most_classes_newer_is_breaking(versions):
    root, jars, ran = versions
    assert ran["most"]["c.UsesUtil"] == "java.lang.UnsupportedClassVersionError", ran
    found = _version_finding(root, jars["old"], jars["most"])
    assert found["severity"] == "breaking" and found["detail"].startswith(
        "61 (Java 17) -> 65 (Java 21): needs Java 21+ to load; 2 of 3 classes are newer than 61"), found


def test_the_next_step_is_the_same_whatever_the_limit_and_however_the_sides_are_named(versions):
    root, jars, _ = versions
    cache = root / "cache"
    for version, jar in (("1.0", jars["old"]), ("2.0", jars["most"])):  # a coordinate's jar: fetched into the cache
        target = cache / "m2" / "fx" / "lib" / version / f"lib-{version}.jar"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(jar, target)
    by_path = [str(cache / "m2" / "fx" / "lib" / v / f"lib-{v}.jar") for v in ("1.0", "2.0")]
    nexts = set()
    for sides in (by_path, ["fx:lib:1.0", "fx:lib:2.0"]):
        for limit in ("1", "200"):
            code, text = main([*sides, "--limit", limit, "--cache-dir", str(cache)])
            assert code == 0, text
            if limit == "1":  # the one finding shown is the artifact's class version, which names no type
                assert "CLASS_VERSION_RAISED" in text.splitlines()[1], text
            nexts.add(next((line for line in text.splitlines() if line.startswith("next: ")), None))
    assert nexts == {f"next: jdx members vr.Core --jars {by_path[1]}"}, nexts
    code, text = main([*by_path, "--limit", "1", "--json", "--cache-dir", str(cache)])
    assert json.loads(text)["result"]["next"] == "vr.Core", text
