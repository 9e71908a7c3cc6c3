"""Defects a trial of `jdx diff` found (qdox 2.0.3 -> 2.2.0, google-java-format 1.22.0 -> 1.28.0, commons-beanutils
1.8.3 -> 1.11.0), each judged by javac and the JVM:

- a package module users could read (an automatic module exports every package) that the new version's module-info
  no longer exports is PACKAGE_UNEXPORTED, suspicious: a modular client compiled against the old version throws
  IllegalAccessError on the new one and no longer compiles, while a classpath client still runs;
- a SUPERTYPE_REMOVED of the artifact's own type never hedges that a supertype the artifact lacks "may still" lead
  to it when that type is gone (google-java-format 1.28's `Java21InputAstVisitor` lost the removed
  `Java17InputAstVisitor`) or when what the artifact lacks is the JDK's (jdk.compiler's `TreePathScanner`): no such
  class extends an artifact's class, and the client compiled against the old version fails on the new one;
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.diff.shim import findings_json
from tests.fixtures import jdktool
from tests.fixtures.build import write_jar

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)


@pytest.fixture(autouse=True, scope="module")
def _javac():
    if shutil.which("javac") is None or shutil.which("java") is None:
        pytest.skip("javac and java are not installed")


def _compile(root: Path, sources: dict[str, str], *flags: str) -> tuple[Path, subprocess.CompletedProcess]:
    """`sources` (path -> text) compiled by javac into `root/classes`: (classes, javac's process)."""
    src, classes = root / "src", root / "classes"
    for name, text in sources.items():
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        (src / name).write_text(text)
    done = jdktool.run(["javac", "-nowarn", "-d", str(classes), *flags, *map(str, sorted(src.rglob("*.java")))],
                       capture_output=True, text=True)
    return classes, done


def _jar(root: Path, sources: dict[str, str], manifest: str = "") -> Path:
    classes, done = _compile(root, sources)
    assert done.returncode == 0, done.stdout + done.stderr
    entries = {str(p.relative_to(classes)): p.read_bytes() for p in sorted(classes.rglob("*.class"))}
    if manifest:
        entries["META-INF/MANIFEST.MF"] = f"Manifest-Version: 1.0\r\n{manifest}\r\n\r\n".encode()
    jar = root.with_suffix(".jar")
    write_jar(jar, entries)
    return jar


# ---- a package no longer exported (qdox 2.0.3, Automatic-Module-Name, -> 2.2.0, a module-info) ----

LIB = {
    "a/api/Api.java": "package a.api; public class Api { public static int two() { return 2; } }",
    "a/lib/Builder.java": "package a.lib; public class Builder { public static int one() { return 1; } }",
    "a/friend/Friend.java": "package a.friend; public class Friend { public static int three() { return 3; } }",
    "a/hidden/Hidden.java": "package a.hidden; public class Hidden { public static int four() { return 4; } }",
}
# a.lib: exported before (automatic), not now; a.friend: only to a named module now; a.api: exported on both sides
NEW_MODULE = "module a.mod { exports a.api; exports a.friend to java.base; }"
MODULAR_CLIENT = {
    "module-info.java": "module client { requires a.mod; }",
    "client/Main.java": "package client; public class Main { public static void main(String[] args) {"
                        " System.out.println(a.api.Api.two() + a.lib.Builder.one()); } }",
}


@pytest.fixture(scope="module")
def unexported(tmp_path_factory):
    root = tmp_path_factory.mktemp("diff-t47-modules")
    old = _jar(root / "old", LIB, "Automatic-Module-Name: a.mod")
    new = _jar(root / "new", {**LIB, "module-info.java": NEW_MODULE})
    return root, old, new


def test_a_modular_client_of_a_package_no_longer_exported_fails(unexported):
    root, old, new = unexported
    classes, done = _compile(root / "client", MODULAR_CLIENT, "--module-path", str(old))
    assert done.returncode == 0, done.stdout + done.stderr
    ran = subprocess.run(["java", "--module-path", os.pathsep.join([str(classes), str(old)]), "-m",
                          "client/client.Main"], capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0 and ran.stdout.strip() == "3", ran.stderr
    ran = subprocess.run(["java", "--module-path", os.pathsep.join([str(classes), str(new)]), "-m",
                          "client/client.Main"], capture_output=True, text=True, timeout=120)
    assert "java.lang.IllegalAccessError" in ran.stderr and "a.lib" in ran.stderr, ran.stderr
    _, again = _compile(root / "client-new", MODULAR_CLIENT, "--module-path", str(new))
    assert again.returncode != 0 and "a.lib" in again.stdout + again.stderr
    # classpath clients are unaffected: the same class, compiled and run on the classpath
    plain = {"client/Main.java": MODULAR_CLIENT["client/Main.java"]}
    classes, done = _compile(root / "plain", plain, "-cp", str(old))
    ran = subprocess.run(["java", "-cp", os.pathsep.join([str(classes), str(new)]), "client.Main"],
                         capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0 and ran.stdout.strip() == "3", ran.stderr


def test_package_unexported_is_one_suspicious_finding_per_package(unexported, jdx_home):
    _, old, new = unexported
    found = findings_json(jdx_home / "cache", old, new)
    assert [(f["rule"], f["severity"], f["symbol"], f["kind"]) for f in found] == [
        ("PACKAGE_UNEXPORTED", "suspicious", "a.friend", "package"),
        ("PACKAGE_UNEXPORTED", "suspicious", "a.hidden", "package"),
        ("PACKAGE_UNEXPORTED", "suspicious", "a.lib", "package")], found
    lib = found[2]
    assert lib["id"] == "a/lib" and lib["new"] == "not exported by module a.mod"
    assert "(a.lib.Builder)" in lib["detail"] and "IllegalAccessError" in lib["detail"]
    assert "classpath clients are unaffected" in lib["detail"]
    # back again: nothing module users could read before is lost, and each package is theirs now (info)
    back = findings_json(jdx_home / "cache", new, old)
    assert [f for f in back if f["rule"] == "PACKAGE_UNEXPORTED"] == []
    granted = [(f["rule"], f["severity"], f["symbol"], f["kind"]) for f in back if f["rule"] == "PACKAGE_EXPORTED"]
    assert granted == [("PACKAGE_EXPORTED", "info", "a.friend", "package"),
                       ("PACKAGE_EXPORTED", "info", "a.hidden", "package"),
                       ("PACKAGE_EXPORTED", "info", "a.lib", "package")], back
    lib = next(f for f in back if f["rule"] == "PACKAGE_EXPORTED" and f["symbol"] == "a.lib")
    assert lib["old"] == "not exported by module a.mod" and "(a.lib.Builder)" in lib["detail"], lib


# ---- SUPERTYPE_REMOVED under a superclass of the JDK's, outside java.base (google-java-format 1.22 -> 1.28) ----

SCANNER = "com.sun.source.util.TreePathScanner<Void, Void>"
VISITORS_OLD = {
    "g/Base.java": f"package g; public abstract class Base extends {SCANNER} {{ }}",
    "g/V17.java": "package g; public class V17 extends Base { }",
    "g/V21.java": "package g; public class V21 extends V17 { }",
    "g/Mid.java": "package g; public class Mid extends Base { }",
    "g/Leaf.java": "package g; public class Leaf extends Mid { }",
}
VISITORS_NEW = {
    "g/Base.java": VISITORS_OLD["g/Base.java"],
    "g/V21.java": "package g; public class V21 extends Base { }",
    "g/Mid.java": VISITORS_OLD["g/Mid.java"],
    "g/Leaf.java": "package g; public class Leaf extends Base { }",
}
VISITOR_CLIENTS = {
    "UsesV17": "static void take(g.V17 v) { } public static void main(String[] a) { take(new g.V21()); }",
    "UsesMid": "static void take(g.Mid m) { } public static void main(String[] a) { take(new g.Leaf()); }",
}


def test_a_removed_supertype_of_the_artifacts_own_is_no_maybe(tmp_path, jdx_home):
    old, new = _jar(tmp_path / "old", VISITORS_OLD), _jar(tmp_path / "new", VISITORS_NEW)
    sources = {f"client/{n}.java": f"package client; public class {n} {{ {body} }}"
               for n, body in VISITOR_CLIENTS.items()}
    classes, done = _compile(tmp_path / "clients", sources, "-cp", str(old))
    assert done.returncode == 0, done.stdout + done.stderr
    for name, error in (("UsesV17", "java.lang.NoClassDefFoundError: g/V17"), ("UsesMid", "java.lang.VerifyError")):
        ran = subprocess.run(["java", "-cp", os.pathsep.join([str(classes), str(old)]), f"client.{name}"],
                             capture_output=True, text=True, timeout=120)
        assert ran.returncode == 0, ran.stderr
        ran = subprocess.run(["java", "-cp", os.pathsep.join([str(classes), str(new)]), f"client.{name}"],
                             capture_output=True, text=True, timeout=120)
        assert error in ran.stderr, ran.stderr
    removed = {f["symbol"]: f for f in findings_json(jdx_home / "cache", old, new) if f["rule"] == "SUPERTYPE_REMOVED"}
    assert {s: f["detail"] for s, f in removed.items()} == {"g.V21": "g.V17", "g.Leaf": "g.Mid"}, removed
    assert all(f["severity"] == "breaking" for f in removed.values())


# ---- raw parameter types made `?` ones (commons-beanutils 1.8.3 -> 1.11.0) ----

RAW_OLD = ("public class W { public void a(Class c) { } public void b(Class[] cs) { }"
           " public void e(java.util.Map.Entry e) { } public void two(Class c, java.util.List l) { }"
           " public java.util.Map r() { return null; } public void m(java.util.Map m) { } }")
RAW_NEW = ("public class W { public void a(Class<?> c) { } public void b(Class<?>[] cs) { }"
           " public void e(java.util.Map.Entry<?, ?> e) { } public void two(Class<?> c, java.util.List<?> l) { }"
           " public java.util.Map<String, Object> r() { return null; }"
           " public void m(java.util.Map<String, ? extends Object> m) { } }")
# client -> (its body, whether javac compiles it against the new version)
RAW_CLIENTS = {
    "Calls": ("static void use(w.W w, Class raw, Class<String> typed, java.util.Map.Entry<String, Integer> entry) {"
              " w.a(raw); w.a(typed); w.b(new Class[] { raw }); w.b(new Class<?>[] { typed });"
              " w.e(entry); w.two(typed, new java.util.ArrayList<Integer>()); }", True),
    "Overrides": ("static class Sub extends w.W { @Override public void a(Class c) { }"
                  " @Override public void b(Class[] cs) { } @Override public void e(java.util.Map.Entry e) { }"
                  " @Override public void two(Class c, java.util.List l) { } }", True),
    "Reads": ("static java.util.Map<Integer, Integer> use(w.W w) { return w.r(); }", False),
    "Passes": ("static void use(w.W w) { w.m(new java.util.HashMap<Integer, Integer>()); }", False),
}


def test_raw_parameters_made_wildcards_are_info(tmp_path, jdx_home):
    old = _jar(tmp_path / "old", {"w/W.java": f"package w; {RAW_OLD}"})
    new = _jar(tmp_path / "new", {"w/W.java": f"package w; {RAW_NEW}"})
    for name, (body, compiles) in RAW_CLIENTS.items():
        sources = {f"client/{name}.java": f"package client; public class {name} {{ {body} }}"}
        _, before = _compile(tmp_path / name / "old", sources, "-cp", str(old))
        assert before.returncode == 0, before.stdout + before.stderr
        _, after = _compile(tmp_path / name / "new", sources, "-cp", str(new))
        assert (after.returncode == 0) == compiles, (name, after.stdout + after.stderr)
    found = {f["symbol"].split("#")[1].split("(")[0]: f for f in findings_json(jdx_home / "cache", old, new)}
    assert {n: (f["rule"], f["severity"]) for n, f in found.items()} == {
        "a": ("GENERIC_SIGNATURE_CHANGED", "info"), "b": ("GENERIC_SIGNATURE_CHANGED", "info"),
        "e": ("GENERIC_SIGNATURE_CHANGED", "info"), "two": ("GENERIC_SIGNATURE_CHANGED", "info"),
        "r": ("GENERIC_SIGNATURE_CHANGED", "suspicious"), "m": ("GENERIC_SIGNATURE_CHANGED", "suspicious")}, found
    assert found["a"]["detail"].endswith("only raw parameter types made their unbounded-wildcard form: every call "
                                         "and override that compiled against the old version still compiles "
                                         "(rated info, not suspicious)")
    assert "rated" not in found["m"]["detail"]


# ---- a return narrowed behind a bridge, in a class no outside class can extend (beanutils' ResultSetIterator) ----

ITERATOR = " public boolean hasNext() { return false; } public void remove() { } }"
NARROWED = {  # class -> (old, new) after `package n;`: a raw Iterator made Iterator<String> (javac's bridge)
    "Closed": ("public class Closed implements java.util.Iterator { Closed() { } public Object next() { return null; }"
               + ITERATOR, "public class Closed implements java.util.Iterator<String> { Closed() { }"
               " public String next() { return null; }" + ITERATOR),
    "Open": ("public class Open implements java.util.Iterator { public Open() { } public Object next() { return null; }"
             + ITERATOR, "public class Open implements java.util.Iterator<String> { public Open() { }"
             " public String next() { return null; }" + ITERATOR),
}
NARROWED_CLIENTS = {  # client -> (body, compiles against the old version, compiles against the new one)
    "SubClosed": ("static class S extends n.Closed { @Override public Object next() { return 1; } }", False, False),
    "SubOpen": ("static class S extends n.Open { @Override public Object next() { return 1; } }", True, False),
}


def test_a_return_narrowed_behind_a_bridge_no_one_can_override_is_info(tmp_path, jdx_home):
    old = _jar(tmp_path / "old", {f"n/{c}.java": f"package n; {o}" for c, (o, _) in NARROWED.items()})
    new = _jar(tmp_path / "new", {f"n/{c}.java": f"package n; {v}" for c, (_, v) in NARROWED.items()})
    for name, (body, on_old, on_new) in NARROWED_CLIENTS.items():
        sources = {f"client/{name}.java": f"package client; public class {name} {{ {body} }}"}
        for jar, compiles in ((old, on_old), (new, on_new)):
            _, done = _compile(tmp_path / name / jar.stem, sources, "-cp", str(jar))
            assert (done.returncode == 0) == compiles, (name, jar, done.stdout + done.stderr)
    found = {f["symbol"]: f for f in findings_json(jdx_home / "cache", old, new)
             if f["rule"] != "GENERIC_SIGNATURE_CHANGED"}
    assert {s: (f["rule"], f["severity"]) for s, f in found.items()} == {
        "n.Closed#next()": ("MEMBER_MADE_SYNTHETIC", "info"), "n.Open#next()": ("MEMBER_MADE_SYNTHETIC", "suspicious")}
    assert found["n.Closed#next()"]["detail"].endswith(
        "no subclass outside the artifact can override it (no class outside the artifact can extend its class): no "
        "client breaks (rated info, not suspicious)")
    assert "a subclass overriding the old signature no longer compiles" in found["n.Open#next()"]["detail"]


# ---- a removed type the new API still names: it moved to a dependency (beanutils 1.11's FastHashMap) ----

FAST = "package dep; public class Fast { public int size() { return 7; } }"
USES_FAST = ("package b; public class Api { public static dep.Fast make() { return new dep.Fast(); }"
             " public static void take(java.util.List<dep.Fast> all) { } }")


def test_a_removed_type_the_new_api_still_names_says_so(tmp_path, jdx_home):
    old = _jar(tmp_path / "old", {"dep/Fast.java": FAST, "b/Api.java": USES_FAST,
                                  "b/Gone.java": "package b; public class Gone { }"})
    dep = _jar(tmp_path / "dep", {"dep/Fast.java": FAST})
    classes, done = _compile(tmp_path / "new", {"b/Api.java": USES_FAST}, "-cp", str(dep))
    assert done.returncode == 0, done.stdout + done.stderr
    new = tmp_path / "new.jar"
    write_jar(new, {str(p.relative_to(classes)): p.read_bytes() for p in sorted(classes.rglob("*.class"))})
    client = {"client/Main.java": "package client; public class Main { public static void main(String[] a) {"
                                  " System.out.println(b.Api.make().size()); } }"}
    compiled, done = _compile(tmp_path / "client", client, "-cp", str(old))
    assert done.returncode == 0, done.stdout + done.stderr
    for path, expect in (([new, dep], "7"), ([new], "java.lang.NoClassDefFoundError: dep/Fast")):
        ran = subprocess.run(["java", "-cp", os.pathsep.join(map(str, [compiled, *path])), "client.Main"],
                             capture_output=True, text=True, timeout=120)
        assert expect in ran.stdout + ran.stderr, ran.stdout + ran.stderr
    removed = {f["symbol"]: f for f in findings_json(jdx_home / "cache", old, new) if f["rule"] == "TYPE_REMOVED"}
    assert removed["b.Gone"]["detail"] == ""
    assert removed["dep.Fast"]["detail"] == (
        "still referenced by the new version's API (2 places, e.g. b.Api#make(), b.Api#take(java.util.List)): it is "
        "expected from another artifact now")


def test_a_member_removed_under_a_jdk_superclass_outside_java_base_is_no_maybe(tmp_path, jdx_home):
    """`Base#extra()` removed, Base extending jdk.compiler's TreePathScanner: the running JDK's TreePathScanner is
    read (its module found from the JDK's module descriptors) and declares no `extra()`, so the removal is plain."""
    old_sources = dict(VISITORS_OLD, **{"g/Base.java": f"package g; public abstract class Base extends {SCANNER} "
                                                      "{ public void extra() { } }"})
    old, new = _jar(tmp_path / "old", old_sources), _jar(tmp_path / "new", VISITORS_NEW)
    removed = [f for f in findings_json(jdx_home / "cache", old, new) if f["rule"] == "MEMBER_REMOVED"]
    assert [f["symbol"] for f in removed] == ["g.Base#extra()"], removed
    assert "may still be inherited" not in (removed[0].get("detail") or ""), removed[0]


def test_a_glob_matching_one_jar_names_the_side_by_that_jar(tmp_path, jdx_home):
    """A side written as a glob that matches one jar is named by the jar, as its path or coordinate names it."""
    import json

    from tests.diff.shim import main

    old = _jar(tmp_path / "old", VISITORS_OLD)
    (tmp_path / "one").mkdir()
    new = shutil.copy(_jar(tmp_path / "new", VISITORS_NEW), tmp_path / "one" / "lib-2.0.jar")
    by_path = json.loads(main([str(old), str(new), "--json", "--cache-dir", str(jdx_home / "cache")])[1])
    by_glob = json.loads(main([str(old), str(tmp_path / "one" / "*.jar"), "--json", "--cache-dir",
                               str(jdx_home / "cache")])[1])
    assert "lib-2.0.jar" in by_path["query"] and "*" not in by_glob["query"].split(" ", 1)[0]
    assert by_glob["result"]["new"]["name"] == by_path["result"]["new"]["name"] == "lib-2.0.jar"
    assert by_glob["result"]["findings"] == by_path["result"]["findings"]


def test_grep_shows_the_findings_of_a_package_and_counts_the_rest(tmp_path, jdx_home):
    """`--grep REGEX` (T47: 267 beanutils findings had no finer filter than --severity): only findings whose symbol
    matches are listed, the tally still counts all, and a line says how many the filter hid."""
    import json

    from tests.diff.shim import main

    old, new = _jar(tmp_path / "old", VISITORS_OLD), _jar(tmp_path / "new", VISITORS_NEW)
    cache = ["--cache-dir", str(jdx_home / "cache")]
    every = json.loads(main([str(old), str(new), "--json", *cache])[1])["result"]
    picked = json.loads(main([str(old), str(new), "--json", "--grep", r"^g\.V", *cache])[1])["result"]
    assert [f["symbol"] for f in picked["findings"]] == [f["symbol"] for f in every["findings"]
                                                        if f["symbol"].startswith("g.V")]
    assert picked["findings"] and len(picked["findings"]) < len(every["findings"])
    assert picked["counts"] == every["counts"] and picked["matching"] == len(picked["findings"])
    code, text = main([str(old), str(new), "--grep", r"^g\.V", *cache])
    hidden = len(every["findings"]) - len(picked["findings"])
    assert code == 0 and f"… {hidden} findings hidden by --grep '^g\\.V'" in text.splitlines(), text
    assert main([str(old), str(new), "--grep", "(", *cache])[0] == 3
