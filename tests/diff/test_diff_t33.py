"""Defects a trial of `jdx diff` found (snakeyaml 2.2 -> 2.5, commons-compress 1.26.0 -> 1.28.0), each judged by javac
and the JVM:

- a multi-release jar whose module-info.class sits only under META-INF/versions/9 (snakeyaml: Java 8 base classes)
  is no module on its base release: a classpath client compiled against the old version gets NoClassDefFoundError
  for a type removed from a package that descriptor does not export, so TYPE_REMOVED stays breaking; a jar with a
  module-info at its root keeps the downgrade (suspicious: module users could not reach the package);
- an exception added to `throws` that is a subclass of one the old clause declared (`throws Exception` ->
  `throws java.io.IOException`, or the artifact's own hierarchy) is no CHECKED_EXCEPTION_ADDED: a caller handling
  or declaring the old one handles it, javac compiles it against both versions; the THROWS_REMOVED of the old one
  says it was narrowed.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from tests.diff.shim import findings_json, main, run_clients, version_jars
from tests.fixtures import jdktool
from tests.fixtures.build import write_jar

M2 = Path.home() / ".m2" / "repository"
MANIFEST = b"Manifest-Version: 1.0\r\nMulti-Release: true\r\n\r\n"
MODULE_INFO = "module a.lib { exports a.api; }\n"
API = "package a.api; public class Api { public static int two() { return 2; } }\n"
HELPER = "package a.internal; public class Helper { public static int one() { return 1; } }\n"
OTHER = "package a.internal; public class Other { public static int three() { return 3; } }\n"
CLIENT = "package client; public class UsesHelper { public static void use() { a.internal.Helper.one(); } }\n"


@pytest.fixture(autouse=True, scope="module")
def _javac():
    if shutil.which("javac") is None or shutil.which("java") is None:
        pytest.skip("javac and java are not installed")


def _compile(root: Path, sources: dict[str, str], release: int) -> Path:
    src, classes = root / "src", root / "classes"
    for name, text in sources.items():
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        (src / name).write_text(text)
    jdktool.run(["javac", "-nowarn", "-Xlint:-options", "--release", str(release), "-d", str(classes),
                 *map(str, sorted(src.rglob("*.java")))], check=True, capture_output=True, text=True)
    return classes


def _library(root: Path, internal: dict[str, str], layout: str) -> Path:
    """A jar of a.api (exported) and a.internal (`internal`: its classes). `layout`: "versioned" - Java 8 base
    classes, module-info only under META-INF/versions/9, Multi-Release manifest (snakeyaml's layout); "root" - a
    module-info at the jar's root."""
    sources = {"a/api/Api.java": API, **{f"a/internal/{n}.java": t for n, t in internal.items()}}
    entries: dict[str, bytes] = {}
    if layout == "versioned":
        base = _compile(root / "base", sources, 8)
        module = _compile(root / "v9", {**sources, "module-info.java": MODULE_INFO}, 9)
        entries["META-INF/MANIFEST.MF"] = MANIFEST
        entries["META-INF/versions/9/module-info.class"] = (module / "module-info.class").read_bytes()
    else:
        base = _compile(root / "base", {**sources, "module-info.java": MODULE_INFO}, 9)
    entries.update({str(p.relative_to(base)): p.read_bytes() for p in sorted(base.rglob("*.class"))})
    jar = root / "lib.jar"
    write_jar(jar, entries)
    return jar


@pytest.fixture(scope="module")
def modular(tmp_path_factory):
    root = tmp_path_factory.mktemp("diff-t33-modules")
    return {layout: (_library(root / layout / "old", {"Helper": HELPER, "Other": OTHER}, layout),
                     _library(root / layout / "new", {"Other": OTHER}, layout))
            for layout in ("versioned", "root")}


def _type_removed(jdx_home, old, new) -> dict:
    removed = [f for f in findings_json(jdx_home / "cache", old, new) if f["rule"] == "TYPE_REMOVED"]
    assert [f["symbol"] for f in removed] == ["a.internal.Helper"], removed
    return removed[0]


def test_a_module_only_under_meta_inf_versions_is_no_module_of_the_base_release(jdx_home, modular, tmp_path):
    old, new = modular["versioned"]
    # the layout is snakeyaml's: base classes of Java 8 (major 52), the descriptor only in release 9
    assert "major version: 52" in jdktool.run(["javap", "-v", "-cp", str(old), "a.internal.Helper"],
                                              capture_output=True, text=True, check=True).stdout
    # the oracle: a classpath client compiled against the old jar fails to link on the new one
    (tmp_path / "client").mkdir()
    (tmp_path / "client" / "UsesHelper.java").write_text(CLIENT)
    ran = run_clients(tmp_path, [tmp_path / "client" / "UsesHelper.java"], [old], [new], ["client.UsesHelper"])
    assert ran == {"client.UsesHelper": "java.lang.NoClassDefFoundError"}
    removed = _type_removed(jdx_home, old, new)
    assert removed["severity"] == "breaking" and "not exported" not in removed["detail"], removed


def test_a_root_module_info_still_rates_an_unexported_removal_lower(jdx_home, modular, tmp_path):
    old, new = modular["root"]
    # the oracle of the downgrade: a module client cannot even compile against the old jar's a.internal
    src = tmp_path / "src"
    (src / "client").mkdir(parents=True)
    (src / "module-info.java").write_text("module client { requires a.lib; }\n")
    (src / "client" / "UsesHelper.java").write_text(CLIENT)
    compiled = jdktool.run(["javac", "--module-path", str(old), "-d", str(tmp_path / "out"),
                            str(src / "module-info.java"), str(src / "client" / "UsesHelper.java")],
                           capture_output=True, text=True)
    assert compiled.returncode != 0 and "a.internal" in compiled.stdout + compiled.stderr
    removed = _type_removed(jdx_home, old, new)
    assert removed["severity"] == "suspicious", removed
    assert "package a.internal is not exported by module a.lib in the old version" in removed["detail"], removed


THROWS_OLD = {
    "t/BaseException.java": "package t; public class BaseException extends Exception {}",
    "t/SubException.java": "package t; public class SubException extends BaseException {}",
    "t/OtherException.java": "package t; public class OtherException extends Exception {}",
    "t/S.java": "package t; public class S {"
                " public static void main(String[] a) throws Exception {}"
                " public static void own() throws BaseException {}"
                " public static void kept() throws BaseException {}"
                " public static void io() throws java.io.IOException {}"
                " public static void nio() throws java.io.IOException {}"
                " public static void unrelated() throws java.io.IOException {} }",
}
THROWS_NEW = {
    **THROWS_OLD,
    "t/S.java": "package t; public class S {"
                " public static void main(String[] a) throws java.io.IOException {}"
                " public static void own() throws SubException {}"
                " public static void kept() throws BaseException, SubException {}"
                " public static void io() throws java.io.FileNotFoundException {}"
                # NoSuchFileException extends FileSystemException extends IOException: decided in the JDK
                " public static void nio() throws java.nio.file.NoSuchFileException {}"
                " public static void unrelated() throws OtherException {} }",
}
# javac's question per method: a caller that handles the old clause (catches it, or declares it)
THROWS_CLIENTS = {
    "Main": "static void use() throws Exception { t.S.main(null); }",
    "Own": "static void use() { try { t.S.own(); } catch (t.BaseException e) { } }",
    "OwnDeclared": "static void use() throws t.BaseException { t.S.own(); }",
    "Kept": "static void use() { try { t.S.kept(); } catch (t.BaseException e) { } }",
    "Io": "static void use() { try { t.S.io(); } catch (java.io.IOException e) { } }",
    "Nio": "static void use() throws java.io.IOException { t.S.nio(); }",
    "Unrelated": "static void use() throws java.io.IOException { t.S.unrelated(); }",
}


@pytest.fixture(scope="module")
def throwing(tmp_path_factory):
    return version_jars(tmp_path_factory.mktemp("diff-t33-throws"), THROWS_OLD, THROWS_NEW, "t")


def _failing_clients(root: Path, jar: Path) -> set[str]:
    src = root / "clients"
    src.mkdir(exist_ok=True)
    for name, body in THROWS_CLIENTS.items():
        (src / f"{name}.java").write_text(f"public class {name} {{ {body} }}")
    run = jdktool.run(["javac", "-Xmaxerrs", "1000", "-d", str(root / f"out-{jar.parent.name}"), "-cp", str(jar),
                       *sorted(str(p) for p in src.glob("*.java"))], capture_output=True, text=True)
    return set(re.findall(r"(\w+)\.java:\d+: error", run.stdout + run.stderr))


def test_an_added_subclass_of_a_declared_exception_is_no_checked_exception_added(jdx_home, throwing):
    root, old, new = throwing
    found = sorted((f["rule"], f["symbol"], f["severity"], f["detail"])
                   for f in findings_json(jdx_home / "cache", old, new)
                   if f["rule"] in ("CHECKED_EXCEPTION_ADDED", "THROWS_REMOVED"))
    assert found == [
        ("CHECKED_EXCEPTION_ADDED", "t.S#unrelated()", "suspicious", "t.OtherException"),
        ("THROWS_REMOVED", "t.S#io()", "info", "java.io.IOException (narrowed to its subclass "
                                               "java.io.FileNotFoundException)"),
        ("THROWS_REMOVED", "t.S#main(java.lang.String[])", "info",
         "java.lang.Exception (narrowed to its subclass java.io.IOException)"),
        ("THROWS_REMOVED", "t.S#nio()", "info",
         "java.io.IOException (narrowed to its subclass java.nio.file.NoSuchFileException)"),
        ("THROWS_REMOVED", "t.S#own()", "info", "t.BaseException (narrowed to its subclass t.SubException)"),
        ("THROWS_REMOVED", "t.S#unrelated()", "suspicious", "java.io.IOException (checked): a caller's `catch "
         "(java.io.IOException e)` around it no longer compiles (never thrown); compiled clients still link and run "
         "(rated suspicious, not info)"),
    ], found
    # the oracle: every caller compiles against the old jar, and against the new one exactly those of a method
    # with a CHECKED_EXCEPTION_ADDED fail
    assert _failing_clients(root, old) == set()
    assert _failing_clients(root, new) == {"Unrelated"}


def test_an_unknown_hierarchy_keeps_the_finding():
    """No side, no JDK list and no platform knows `x.Unknown`'s superclass: it stays CHECKED_EXCEPTION_ADDED; the
    JDK's own throwables jdx lists are walked without a platform (`EOFException` -> `IOException` -> `Exception`)."""
    from jdx.engine.diff.throws import declared_superclass
    from jdx.engine.diff.surface import Surface, TypeInfo

    side = Surface("s", {"x/Mine": TypeInfo("x/Mine", "class", 1, None, "x/Unknown", (), None, False)})
    assert declared_superclass("x/Mine", {"java/lang/Exception"}, (side,)) is None
    assert declared_superclass("x/Mine", {"x/Unknown"}, (side,)) == "x/Unknown"
    assert declared_superclass("java/io/EOFException", {"java/lang/Exception"}, (side,)) == "java/lang/Exception"
    assert declared_superclass("java/lang/Exception", {"java/io/IOException"}, (side,)) is None


# the trial's artifacts, from ~/.m2 (the soak runs them)
SNAKEYAML = [M2 / "org/yaml/snakeyaml" / v / f"snakeyaml-{v}.jar" for v in ("2.2", "2.5")]
COMPRESS = [M2 / "org/apache/commons/commons-compress" / v / f"commons-compress-{v}.jar" for v in ("1.26.0", "1.28.0")]


def _jars(jars: list[Path]) -> list[Path]:
    absent = [str(j) for j in jars if not j.is_file()]
    if absent:
        print(f"skipped: {', '.join(absent)} not in ~/.m2")
        pytest.skip(f"{', '.join(absent)} not in ~/.m2")
    return jars


def _findings(jdx_home, jars) -> list[dict]:
    code, text = main([*map(str, jars), "--json", "--limit", "5000", "--cache-dir", str(jdx_home / "cache")])
    assert code == 0, text
    return json.loads(text)["result"]["findings"]


@pytest.mark.soak
def test_snakeyaml_base64coder_removal_is_breaking(jdx_home):
    found = [f for f in _findings(jdx_home, _jars(SNAKEYAML)) if f["rule"] == "TYPE_REMOVED"]
    assert [(f["symbol"], f["severity"]) for f in found] == [
        ("org.yaml.snakeyaml.external.biz.base64Coder.Base64Coder", "breaking")], found
    assert not any("not exported" in f["detail"] for f in found)


@pytest.mark.soak
def test_commons_compress_cli_main_narrowed_throws(jdx_home):
    found = [(f["rule"], f["detail"]) for f in _findings(jdx_home, _jars(COMPRESS))
             if f["symbol"] == "org.apache.commons.compress.archivers.sevenz.CLI#main(java.lang.String[])"]
    assert found == [("THROWS_REMOVED", "java.lang.Exception (narrowed to its subclass java.io.IOException)")], found
