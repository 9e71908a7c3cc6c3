"""Defects an agent trial found in `jdx diff`, judged by the JVM and javac: a sealed type's permitted subtypes
changing (an exhaustive switch over it no longer compiles, and one compiled against the old version throws
MatchException), the class-file version going up (an older JVM refuses the classes), and a class becoming a record
or a record a class (compiled callers still link), and a multi-release jar's versioned classes (javac compiles
against them for their release). Java 21 constructs need the Temurin 25 JDK (`--release 21`)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

from jdx.engine.diff.rules import BREAKING, INFO, RULES, SUSPICIOUS
from tests.diff.shim import RUNNER, findings_json, main
from tests.fixtures.build import write_jar
from tests.fixtures import jdktool

# JVM and javac oracles over Java 17/21/25 builds (Temurin 25): the soak; tests/diff/cases.py holds each rule's case
pytestmark = pytest.mark.soak

JDK25 = Path("/usr/lib/jvm/temurin-25-jdk-amd64/bin")

# package -> (old classes, new classes): class name -> body after the package line
SEALED = {
    "sa": ({"Shape": "public sealed interface Shape permits Circle, Rect { }",
            "Circle": "public final class Circle implements Shape { }",
            "Rect": "public final class Rect implements Shape { }"},
           {"Shape": "public sealed interface Shape permits Circle, Rect, Hex { }",
            "Circle": "public final class Circle implements Shape { }",
            "Rect": "public final class Rect implements Shape { }",
            "Hex": "public final class Hex implements Shape { }"}),
    # Rect left the hierarchy: permits shrank
    "sr": ({"Shape": "public sealed interface Shape permits Circle, Rect { }",
            "Circle": "public final class Circle implements Shape { }",
            "Rect": "public final class Rect implements Shape { }"},
           {"Shape": "public sealed interface Shape permits Circle { }",
            "Circle": "public final class Circle implements Shape { }",
            "Rect": "public final class Rect { }"}),
    # no longer sealed: a subtype nobody knew may now exist
    "su": ({"Shape": "public sealed interface Shape permits Circle { }",
            "Circle": "public final class Circle implements Shape { }"},
           {"Shape": "public interface Shape { }",
            "Circle": "public final class Circle implements Shape { }"}),
}
_POINT = ("private final int x; public {n}(int x) {{ this.x = x; }} public int x() {{ return x; }}"
          " public boolean equals(Object o) {{ return o instanceof {n} p && p.x == x; }}"
          " public int hashCode() {{ return x; }} public String toString() {{ return \"{n}[x=\" + x + \"]\"; }}")
RECORDS = {
    "rc": ({"Point": "public final class Point { " + _POINT.format(n="Point") + " }",
            "Open": "public class Open { " + _POINT.format(n="Open") + " }",
            "Rec": "public record Rec(int x) { }"},
           {"Point": "public record Point(int x) { }",
            "Open": "public record Open(int x) { }",
            "Rec": "public final class Rec { " + _POINT.format(n="Rec") + " }"}),
}
CLIENTS = {
    # exhaustive over the old permits, no default: javac accepts it only while Shape permits exactly these
    "client/Switches.java": "package client;\npublic class Switches {\n"
                            " static int of(sa.Shape s) { return switch (s) { case sa.Circle c -> 1;"
                            " case sa.Rect r -> 2; }; }\n"
                            " public static void use() throws Exception {"
                            " of((sa.Shape) Class.forName(\"sa.Hex\").getConstructor().newInstance()); } }\n",
    "client/UsesRecords.java": "package client;\npublic class UsesRecords { public static void use() {"
                               " rc.Point p = new rc.Point(1); if (p.x() != 1 || !p.equals(new rc.Point(1))) throw new"
                               " AssertionError(); p.toString(); p.hashCode(); rc.Rec r = new rc.Rec(2); r.x();"
                               " new rc.Open(3).x(); } }\n",
}


def _jar(root: Path, library: dict, side: str, javac: str, release: int) -> Path:
    src, classes = root / f"src-{side}", root / f"classes-{side}"
    for pkg, sides in library.items():
        for name, body in sides[0 if side == "old" else 1].items():
            (src / pkg).mkdir(parents=True, exist_ok=True)
            (src / pkg / f"{name}.java").write_text(f"package {pkg};\n{body}\n")
    jdktool.run([javac, "--release", str(release), "-nowarn", "-d", str(classes),
                    *map(str, sorted(src.rglob("*.java")))], check=True, capture_output=True, text=True)
    jar = root / f"{side}.jar"
    write_jar(jar, {str(p.relative_to(classes)): p.read_bytes() for p in sorted(classes.rglob("*.class"))})
    return jar


@pytest.fixture(scope="module")
def trial(tmp_path_factory):
    """(the JVM's verdict per client, javac's errors against the new library, the findings, the jars, the cache):
    the library compiled for Java 21, clients compiled against the old one and run on Java 25 against the new one."""
    if not (JDK25 / "javac").exists():
        pytest.skip("the Temurin 25 JDK is not installed")
    root = tmp_path_factory.mktemp("diff-trial-f")
    javac = str(JDK25 / "javac")
    library = {**SEALED, **RECORDS}
    old, new = _jar(root, library, "old", javac, 21), _jar(root, library, "new", javac, 21)
    sources = []
    for name, text in CLIENTS.items():
        path = root / "clients" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        sources.append(path)
    (root / "Runner.java").write_text(RUNNER)
    out = root / "linked"
    jdktool.run([javac, "--release", "21", "-d", str(out), "-cp", str(old), *map(str, sources),
                    str(root / "Runner.java")], check=True, capture_output=True, text=True)
    run = subprocess.run([str(JDK25 / "java"), "-cp", os.pathsep.join([str(out), str(new)]), "Runner",
                          "client.Switches", "client.UsesRecords"], capture_output=True, text=True, check=True,
                         timeout=120)
    verdicts = dict(line.split(" ", 1) for line in run.stdout.splitlines())
    recompiled = jdktool.run([javac, "--release", "21", "-d", str(root / "recompiled"), "-cp", str(new),
                                 str(sources[0])], capture_output=True, text=True)
    return verdicts, recompiled, findings_json(root / "cache", old, new), (old, new, root)


def _of(findings: list[dict], prefix: str) -> list[tuple[str, str, str]]:
    return sorted((f["symbol"], f["rule"], f["severity"]) for f in findings if f["symbol"].startswith(prefix))


def test_an_old_exhaustive_switch_throws_on_a_new_permitted_subtype_and_no_longer_compiles(trial):
    verdicts, recompiled = trial[0], trial[1]
    assert verdicts["client.Switches"] == "java.lang.MatchException", verdicts
    assert recompiled.returncode != 0 and "does not cover all possible input values" in recompiled.stderr, \
        recompiled.stderr


def test_a_permitted_subtype_added_is_suspicious(trial):
    assert _of(trial[2], "sa.") == [("sa.Hex", "TYPE_ADDED", INFO),
                                    ("sa.Shape", "SEALED_PERMITS_ADDED", SUSPICIOUS)]
    detail = next(f["detail"] for f in trial[2] if f["rule"] == "SEALED_PERMITS_ADDED")
    assert detail.startswith("now also permits sa.Hex: a switch exhaustive over sa.Shape no longer compiles"), detail
    assert "MatchException" in detail, detail


def test_a_permitted_subtype_removed_and_unsealing_are_named(trial):
    assert _of(trial[2], "sr.") == [("sr.Rect", "SUPERTYPE_REMOVED", BREAKING),
                                    ("sr.Shape", "SEALED_PERMITS_REMOVED", SUSPICIOUS)]
    assert _of(trial[2], "su.") == [("su.Shape", "TYPE_NO_LONGER_SEALED", SUSPICIOUS)]


def test_old_clients_of_classes_made_records_still_link(trial):
    assert trial[0]["client.UsesRecords"] == "ok", trial[0]


def test_a_class_that_became_a_record_is_no_kind_change(trial):
    # Point: final, every member kept; Open: was extendable, and records are final; Rec: java.lang.Record is gone
    # (a caller using it as a Record fails to link: tests/diff/cases.py's type_no_longer_record)
    found = [f for f in _of(trial[2], "rc.") if f[1] not in ("FINAL_REMOVED", "PARAMETER_NAMES_LOST")]
    assert found == [
        ("rc.Open", "TYPE_BECAME_RECORD", INFO), ("rc.Open", "TYPE_MADE_FINAL", BREAKING),
        ("rc.Open#equals(java.lang.Object)", "MEMBER_MADE_FINAL", BREAKING),
        ("rc.Open#hashCode()", "MEMBER_MADE_FINAL", BREAKING), ("rc.Open#toString()", "MEMBER_MADE_FINAL", BREAKING),
        ("rc.Point", "TYPE_BECAME_RECORD", INFO),
        ("rc.Rec", "TYPE_NO_LONGER_RECORD", BREAKING)], found
    assert not [f for f in trial[2] if f["rule"] in ("TYPE_KIND_CHANGED", "SUPERTYPE_ADDED", "SUPERTYPE_REMOVED")
                and f["symbol"].startswith("rc.")], trial[2]


# the class-file version: the same source compiled for Java 17 (the default JDK) and for Java 21
VERSIONED = {"cv": ({"A": "public class A { public int m() { return 1; } }"},
                    {"A": "public class A { public int m() { return 1; } }"})}


@pytest.fixture(scope="module")
def versions(tmp_path_factory):
    """(old jar for Java 17, new jar for Java 21, what a Java 17 JVM makes of a client run against the new jar)."""
    if not (JDK25 / "javac").exists() or shutil.which("javac") is None:
        pytest.skip("javac 17 and the Temurin 25 JDK are needed")
    root = tmp_path_factory.mktemp("diff-trial-f-version")
    old = _jar(root, VERSIONED, "old", "javac", 17)
    new = _jar(root, VERSIONED, "new", str(JDK25 / "javac"), 21)
    client = root / "client" / "UsesA.java"
    client.parent.mkdir(parents=True)
    client.write_text("package client;\npublic class UsesA { public static void use() { new cv.A().m(); } }\n")
    (root / "Runner.java").write_text(RUNNER)
    jdktool.run(["javac", "-d", str(root / "linked"), "-cp", str(old), str(client), str(root / "Runner.java")],
                   check=True, capture_output=True, text=True)
    run = subprocess.run(["java", "-cp", os.pathsep.join([str(root / "linked"), str(new)]), "Runner",
                          "client.UsesA"], capture_output=True, text=True, timeout=120)
    return old, new, run.stdout + run.stderr, root


def test_a_java_17_jvm_refuses_the_new_classes(versions):
    assert "UnsupportedClassVersionError" in versions[2], versions[2]


def test_a_raised_class_file_version_is_breaking_and_a_lowered_one_info(versions):
    old, new, _, root = versions
    raised = findings_json(root / "cache", old, new)
    assert [(f["rule"], f["severity"], f["symbol"], f["kind"]) for f in raised] == [
        ("CLASS_VERSION_RAISED", BREAKING, "new.jar", "artifact")], raised
    assert raised[0]["detail"] == ("61 (Java 17) -> 65 (Java 21): needs Java 21+ to load; 1 of 1 classes are newer "
                                   "than 61, which a JVM older than Java 21 refuses (UnsupportedClassVersionError): "
                                   "cv.A")
    lowered = findings_json(root / "cache", new, old)
    assert [(f["rule"], f["severity"], f["detail"]) for f in lowered] == [
        ("CLASS_VERSION_LOWERED", INFO, "65 (Java 21) -> 61 (Java 17): loads on Java 17+")]
    assert RULES["CLASS_VERSION_RAISED"] == BREAKING


def test_a_version_finding_suggests_no_members_query(versions):
    old, new, _, root = versions
    code, text = main([str(old), str(new), "--fail-on", "breaking", "--cache-dir", str(root / "cache")])
    assert code == 1, text
    assert "breaking  CLASS_VERSION_RAISED  new.jar: 61 (Java 17) -> 65 (Java 21)" in text, text
    assert "next:" not in text, text


@pytest.fixture(scope="module")
def multi_release(tmp_path_factory):
    """(a plain jar of `mr.Version`, a multi-release jar whose META-INF/versions/21 copy adds `extra()`, javac's
    verdict on a client calling `extra()` against the latter for --release 17 and 21, the root)."""
    if not (JDK25 / "javac").exists():
        pytest.skip("the Temurin 25 JDK is not installed")
    root = tmp_path_factory.mktemp("diff-trial-f-mr")
    javac = str(JDK25 / "javac")
    base = {"mr": ({"Version": "public class Version { public int level() { return 17; } }"},
                   {"Version": "public class Version { public int level() { return 21; } public void extra() { } }"})}
    plain = _jar(root, base, "old", javac, 17)
    versioned = _jar(root, base, "new", javac, 21)
    with zipfile.ZipFile(plain) as p, zipfile.ZipFile(versioned) as v:
        entries = {n: p.read(n) for n in p.namelist() if n.endswith(".class")}
        entries |= {f"META-INF/versions/21/{n}": v.read(n) for n in v.namelist() if n.endswith(".class")}
    entries["META-INF/MANIFEST.MF"] = b"Manifest-Version: 1.0\nMulti-Release: true\n"
    mr = root / "mr.jar"
    write_jar(mr, entries)
    client = root / "client" / "Calls.java"
    client.parent.mkdir(parents=True)
    client.write_text("package client;\npublic class Calls { void use() { new mr.Version().extra(); } }\n")
    verdicts = {release: jdktool.run([javac, "--release", release, "-d", str(root / f"c{release}"), "-cp", str(mr),
                                         str(client)], capture_output=True, text=True).returncode
                for release in ("17", "21")}
    return plain, mr, verdicts, root


def test_javac_sees_the_versioned_class_for_its_release(multi_release):
    assert multi_release[2] == {"17": 1, "21": 0}


def test_a_multi_release_jar_compares_its_versioned_classes_per_release(multi_release):
    plain, mr, _, root = multi_release
    cache = str(root / "cache")
    code, text = main([str(plain), str(mr), "--json", "--cache-dir", cache])
    assert code == 0, text
    env = json.loads(text)
    assert [(f["rule"], f["symbol"], f["detail"]) for f in env["result"]["findings"]] == [
        ("MEMBER_ADDED", "mr.Version#extra()", "release 21")], env["result"]["findings"]
    warning = next(w["message"] for w in env["warnings"] if w["code"] == "MULTI_RELEASE_JAR")
    assert warning == ("mr.jar: multi-release jar: base classes compared, then the classes of release 21 (1 class) "
                       "under META-INF/versions as a JVM of that release loads them; their findings' details start "
                       "`release 21:`"), warning
    removed = findings_json(root / "cache", mr, plain)
    assert [(f["rule"], f["severity"], f["detail"]) for f in removed] == [("MEMBER_REMOVED", BREAKING, "release 21")]
