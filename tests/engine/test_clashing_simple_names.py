"""A declaration line that would print two different classes under one simple name, or a class under the simple name
of the declaring class (`okio.FileSystem#get(java.nio.file.FileSystem)`), prints them qualified, in the JVM view
(`members`, `signature`, `outline`) and the Kotlin view; every other name stays simple. Oracle: javap's fully
qualified descriptors; the clash rule itself is checked as a pure function."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest

from jdx.engine.clashing_names import clashing_names
from tests.fixtures.javac import javac_jar
from tests.fixtures import jdktool

SOURCES = {
    "a/List.java": "package a; public class List {}",
    "a/FileSystem.java": """package a;
public class FileSystem {
    public FileSystem(java.nio.file.FileSystem fs) {}
    public static FileSystem get(java.nio.file.FileSystem fs) { return null; }
    public java.util.List<a.List> x() { return null; }
    public java.nio.file.FileSystem nio() { return null; }
    public java.nio.file.FileSystem field;
    public String name(java.util.List<String> names) { return null; }
    public static class Entry {
        public java.util.Map.Entry<String, Entry> e() { return null; }
    }
}""",
}
QUALIFIED = re.compile(r"(?<![\w.$])(?:[a-z_][\w]*\.)+[A-Z][\w$]*")


@pytest.fixture(scope="module")
def jar(tmp_path_factory):
    if shutil.which("javap") is None or shutil.which("javac") is None:
        pytest.skip("javac/javap are not installed")
    out, classes = javac_jar(tmp_path_factory.mktemp("clashing"), SOURCES, "a", "clashing.jar", debug=True)
    javap = jdktool.run(["javap", "-cp", str(classes), "a.FileSystem"], capture_output=True, text=True,
                           check=True).stdout
    return out, javap


def _jdx(run_jdx, jar, *args: str) -> str:
    r = run_jdx("--no-jdk", "--jars", str(jar), *args)
    assert r.code == 0, r.out + r.err
    return r.out


def _line(text: str, needle: str) -> str:
    found = [line for line in text.splitlines() if needle in line]
    assert len(found) == 1, (needle, text)
    return found[0]


def _javap_line(javap: str, needle: str) -> str:
    return _line(javap, needle).strip().rstrip(";")


def test_the_rule():
    nio, okio = "java/nio/file/FileSystem", "okio/FileSystem"
    assert clashing_names([nio, okio, "java/lang/String"]) == {nio, okio}
    assert clashing_names([nio], (okio,)) == {nio}  # once in the line, but the reader takes it for the declaring class
    assert clashing_names([nio], (okio + "$Companion",)) == {nio}  # ... or the class its declaring class is nested in
    assert clashing_names([okio, "java/lang/String"], (okio,)) == frozenset()
    assert clashing_names(["java/util/Map$Entry", "a/Entry"]) == frozenset()  # `Map.Entry` and `Entry` read apart


def test_members_and_signature_print_clashing_names_qualified(run_jdx, jar):
    path, javap = jar
    members = _jdx(run_jdx, path, "members", "a.FileSystem")
    get = _line(members, " get(")
    assert get.strip() == "method public static a.FileSystem get(java.nio.file.FileSystem)"
    # the oracle: javap's return and parameter types, fully qualified, are the ones printed
    assert _javap_line(javap, " get(") == "public static a.FileSystem get(java.nio.file.FileSystem)"
    assert _line(members, " x()").strip() == "method public java.util.List<a.List> x()"
    assert "public java.util.List<a.List> x()" in javap
    assert _line(members, " nio()").strip() == "method public java.nio.file.FileSystem nio()"
    assert _line(members, " field").strip() == "field public java.nio.file.FileSystem field"
    assert _line(members, "constructor").strip() == "constructor public FileSystem(java.nio.file.FileSystem)"
    # no clash in the line, but another line of the answer names a.List: qualified too (a reader compares lines)
    assert _line(members, " name(").strip() == "method public String name(java.util.List<String>)"
    assert "public java.lang.String name(java.util.List<java.lang.String>)" in javap
    # no clash: simple names, java.lang's included
    assert _line(members, " name(").split()[2] == "String"
    signature = _jdx(run_jdx, path, "signature", "a.FileSystem#get")
    assert "public static a.FileSystem get(java.nio.file.FileSystem fs)" in signature
    outline = _jdx(run_jdx, path, "outline", "a.FileSystem")
    assert "public static a.FileSystem get(java.nio.file.FileSystem fs)" in outline
    nested = _jdx(run_jdx, path, "members", "a.FileSystem$Entry")
    assert "public Map.Entry<String, FileSystem.Entry> e()" in nested


def test_printed_names_resolve(run_jdx, jar):
    """Every qualified name a line prints is a class the oracle names (javap's descriptor types)."""
    path, javap = jar
    members = _jdx(run_jdx, path, "members", "a.FileSystem")
    shown = {n for line in members.splitlines() if line.startswith("  ") for n in QUALIFIED.findall(line)}
    assert shown == {"a.FileSystem", "java.nio.file.FileSystem", "java.util.List", "a.List"}
    assert all(n in javap for n in shown)


def test_json_keeps_qualified_descriptors(run_jdx, jar):
    path, _ = jar
    doc = json.loads(_jdx(run_jdx, path, "members", "a.FileSystem", "--json"))
    get = next(m for m in doc["result"]["members"] if m["name"] == "get")
    assert get["descriptor"] == "(Ljava/nio/file/FileSystem;)La/FileSystem;"
    assert get["ref"] == "a.FileSystem#get(java.nio.file.FileSystem)"


OKIO = Path(os.path.expanduser("~/.m2/repository/com/squareup/okio/okio-jvm/3.6.0/okio-jvm-3.6.0.jar"))


@pytest.mark.soak
def test_kotlin_view_qualifies_the_receiver(run_jdx):
    if not OKIO.exists():
        pytest.skip(f"okio-jvm 3.6.0 is not in the local Maven repository ({OKIO})")
    r = run_jdx("--jars", str(OKIO), "signature", "okio.FileSystem#get")
    assert r.code == 0, r.out + r.err
    line = _line(r.out, "asOkioFileSystem")
    assert "public fun java.nio.file.FileSystem.asOkioFileSystem(): okio.FileSystem" in line
    # the receiver's parameter annotation is kotlinc's (javap: RuntimeInvisibleParameterAnnotations, @NotNull)
    receiver = "(@org.jetbrains.annotations.NotNull java.nio.file.FileSystem $this$get)"
    assert "public static final okio.FileSystem get" + receiver in line
    jvm = run_jdx("--jars", str(OKIO), "signature", "okio.FileSystem#get", "--view", "jvm")
    assert "okio.FileSystem get" + receiver in jvm.out
    for ref in ("okio.FileSystem", "okio.FileSystem$Companion"):
        members = run_jdx("--jars", str(OKIO), "members", ref)
        assert members.code == 0, members.out + members.err
        assert "java.nio.file.FileSystem.asOkioFileSystem(): okio.FileSystem" in _line(members.out, "asOkioFileSystem")
    # a declaration with no clash keeps its simple names
    plain = run_jdx("--jars", str(OKIO), "signature", "okio.FileSystem#exists")
    assert "okio." not in _line(plain.out, "fun exists").split("(jvm")[0]
