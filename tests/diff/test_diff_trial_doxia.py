"""`jdx diff` after the doxia-core 1.12.0 -> 2.0.0, plexus-utils 1.5.8 -> 3.0 and jackson-core trial, each judged by
javac or javap:

- a same-arity reorder of a constructor's parameters pairs with the reordered constructor, not with a shorter
  overload whose parameters the new one holds in order (javac resolves the old call by its arity);
- CLASS_VERSION_RAISED says when the old side's newest classes were already newer than what most of them needed;
- a multi-release jar whose versioned classes find nothing beyond the base comparison is one short warning for both
  sides.
"""

from __future__ import annotations

import json
import re
import shutil
import zipfile

import pytest

from tests.diff.shim import findings_json, main
from tests.fixtures import jdktool
from tests.fixtures.build import write_jar
from tests.fixtures.javac import javap, side_jar

pytestmark = pytest.mark.soak  # a trial's regression family with its own builds: the soak runs it whole (.ci/run)

# doxia-core's ParseException: 2.0.0 dropped (Exception, String, int) and moved the String of the five-parameter one
# to the front
PARSE = {"dx": ({"ParseException": "public class ParseException extends Exception {"
                                   " public ParseException(Exception e, String message, int line) { }"
                                   " public ParseException(Exception e, String message, String file, int line,"
                                   " int column) { } }"},
                {"ParseException": "public class ParseException extends Exception {"
                                   " public ParseException(String message, Exception e, String file, int line,"
                                   " int column) { } }"})}
OLD_CALLS = {"Five": "new dx.ParseException(new Exception(), \"m\", \"f\", 1, 2)",
             "Three": "new dx.ParseException(new Exception(), \"m\", 1)"}


@pytest.fixture(scope="module")
def reordered(tmp_path_factory):
    """(findings of old -> new, javac's error per old call compiled against the new version)."""
    if shutil.which("javac") is None:
        pytest.skip("javac is not installed")
    root = tmp_path_factory.mktemp("diff-trial-doxia")
    old, new = side_jar(root, PARSE, "old"), side_jar(root, PARSE, "new")
    errors = {}
    for name, call in OLD_CALLS.items():
        path = root / "clients" / name / "c" / f"{name}.java"
        path.parent.mkdir(parents=True)
        path.write_text(f"package c;\npublic class {name} {{ Object use() {{ return {call}; }} }}\n")
        for jar, side in ((old, "old"), (new, "new")):
            run = jdktool.run(["javac", "-d", str(root / "out" / name / side), "-cp", str(jar), str(path)],
                              capture_output=True, text=True)
            errors[name, side] = run.stderr if run.returncode else None
    return findings_json(root / "cache", old, new), errors


def test_a_reordered_constructor_pairs_with_its_own_arity(reordered):
    findings, errors = reordered
    # the oracle: both calls compile against the old version; against the new one javac resolves the five-argument
    # call to the reordered constructor (an argument of the wrong type), the three-argument one to nothing (length)
    assert errors["Five", "old"] is None and errors["Three", "old"] is None, errors
    assert "incompatible types: Exception cannot be converted to String" in errors["Five", "new"], errors
    assert "actual and formal argument lists differ in length" in errors["Three", "new"], errors
    rows = [(f["rule"], f["symbol"], f["detail"]) for f in findings if f["symbol"].startswith("dx.ParseException#")]
    assert rows == [
        ("MEMBER_REMOVED", "dx.ParseException#<init>(java.lang.Exception, java.lang.String, int)", ""),
        ("PARAMETER_TYPE_CHANGED",
         "dx.ParseException#<init>(java.lang.Exception, java.lang.String, java.lang.String, int, int)",
         "(java.lang.Exception, java.lang.String, java.lang.String, int, int) -> "
         "(java.lang.String, java.lang.Exception, java.lang.String, int, int); parameters reordered")], rows


# plexus-utils 1.5.8: most classes for Java 1.3, some already for 1.4; 3.0: all for Java 5. Here: 8, 11 and 17.
VERSIONS = {"old": {"vo/A.java": 8, "vo/B.java": 8, "vo/C.java": 8, "vo/D.java": 11},
            "new": {"vo/A.java": 17, "vo/B.java": 17, "vo/C.java": 17, "vo/D.java": 17}}


def _versioned_jar(root, side: str, releases: dict[str, int]):
    """The classes of `releases` (source -> javac --release), each compiled for its release, jarred as `side.jar`."""
    entries = {}
    for source, release in releases.items():
        name = source.removesuffix(".java").rpartition("/")[2]
        src, out = root / side / "src" / source, root / side / f"out-{name}"
        src.parent.mkdir(parents=True, exist_ok=True)
        src.write_text(f"package vo; public class {name} {{ public int x() {{ return {release}; }} }}\n")
        jdktool.run(["javac", "--release", str(release), "-d", str(out), str(src)], check=True, capture_output=True,
                    text=True)
        entries[f"vo/{name}.class"] = (out / "vo" / f"{name}.class").read_bytes()
    jar = root / f"{side}.jar"
    write_jar(jar, entries)
    return jar


def test_the_version_raised_says_what_the_old_sides_newest_classes_needed(tmp_path):
    if shutil.which("javac") is None:
        pytest.skip("javac is not installed")
    old, new = (_versioned_jar(tmp_path, side, VERSIONS[side]) for side in ("old", "new"))
    # the oracle: javap's major version of each old class
    majors = {c: int(re.search(r"major version: (\d+)", javap(old, f"vo.{c}", "-v")).group(1)) for c in "ABCD"}
    assert majors == {"A": 52, "B": 52, "C": 52, "D": 55}, majors
    raised = next(f for f in findings_json(tmp_path / "cache", old, new) if f["rule"] == "CLASS_VERSION_RAISED")
    assert (raised["old"], raised["new"]) == ("52", "61"), raised
    assert raised["detail"].startswith("52 (Java 8) -> 61 (Java 17): needs Java 17+ to load; 4 of 4 classes are "
                                       "newer than 52"), raised
    assert raised["detail"].endswith("; the old version's newest classes were already 55 (Java 11): 1 of 4"), raised
    # an old side all of one version says nothing of it
    same = next(f for f in findings_json(tmp_path / "cache", new, old) if f["rule"].startswith("CLASS_VERSION_"))
    assert "already" not in same["detail"], same


# jackson-core: both versions multi-release jars whose META-INF/versions/11 classes are the same
MR_BASE = {"old": "public class Version { public int level() { return 8; } }",
           "new": "public class Version { public int level() { return 8; } public void extra() { } }"}
MR_11 = {"old": "public class Version { public int level() { return 11; } }",
         "new": "public class Version { public int level() { return 11; } public void extra() { } }"}


def _multi_release_jar(root, side: str):
    """`mr.Version` for --release 8 at the base and for --release 11 under META-INF/versions/11, as `side.jar`."""
    entries = {"META-INF/MANIFEST.MF": b"Manifest-Version: 1.0\nMulti-Release: true\n"}
    for release, body, prefix in ((8, MR_BASE[side], ""), (11, MR_11[side], "META-INF/versions/11/")):
        src, out = root / side / str(release) / "mr" / "Version.java", root / side / f"out-{release}"
        src.parent.mkdir(parents=True)
        src.write_text(f"package mr;\n{body}\n")
        jdktool.run(["javac", "--release", str(release), "-d", str(out), str(src)], check=True, capture_output=True,
                    text=True)
        entries[f"{prefix}mr/Version.class"] = (out / "mr" / "Version.class").read_bytes()
    jar = root / f"{side}.jar"
    write_jar(jar, entries)
    return jar


def _public_methods(jar, release: int) -> set[str]:
    text = javap(jar, "mr.Version", "--multi-release", str(release))
    return {line.strip() for line in text.splitlines() if line.strip().startswith("public ") and "(" in line}


def test_a_multi_release_jar_with_nothing_more_per_release_is_one_short_warning(tmp_path):
    if shutil.which("javac") is None:
        pytest.skip("javac is not installed")
    old, new = (_multi_release_jar(tmp_path, side) for side in ("old", "new"))
    with zipfile.ZipFile(new) as z:
        assert "META-INF/versions/11/mr/Version.class" in z.namelist()
    # the oracle: javap, reading each jar as a JVM of release 8 and of release 11 does, sees the same change
    changes = {r: _public_methods(new, r) - _public_methods(old, r) for r in (8, 11)}
    assert changes == {8: {"public void extra();"}, 11: {"public void extra();"}}, changes
    code, text = main([str(old), str(new), "--json", "--cache-dir", str(tmp_path / "cache")])
    assert code == 0, text
    env = json.loads(text)
    assert [(f["rule"], f["symbol"], f["detail"]) for f in env["result"]["findings"]] == [
        ("MEMBER_ADDED", "mr.Version#extra()", "")], env["result"]["findings"]
    warnings = [w for w in env["warnings"] if w["code"] == "MULTI_RELEASE_JAR"]
    assert warnings == [{"code": "MULTI_RELEASE_JAR", "message": "old.jar, new.jar: multi-release jars: the classes of "
                         "release 11 under META-INF/versions compared too, as a JVM of that release loads them: no "
                         "further findings"}], warnings
