"""`resolve '@TempDir'` reads a pasted annotation as its annotation type (trial: not found, exit 1, while `resolve
TempDir` found it). Oracle: javap of the compiled annotation (an interface extending
java.lang.annotation.Annotation)."""

from __future__ import annotations

import json
import shutil

import pytest

from jdx.engine.refs import annotation_type
from tests.fixtures.javac import javac_jar, javap

SOURCES = {"an/io/TempDir.java": "package an.io;\nimport java.lang.annotation.*;\n"
                                 "@Retention(RetentionPolicy.RUNTIME) public @interface TempDir { }\n",
           "an/io/Files.java": "package an.io;\npublic class Files { @TempDir Object dir; }\n"}


@pytest.fixture(scope="module")
def jar(tmp_path_factory):
    if shutil.which("javac") is None or shutil.which("javap") is None:
        pytest.skip("javac/javap are not installed")
    return javac_jar(tmp_path_factory.mktemp("resolve_at"), SOURCES, "an", "an.jar")[0]


def test_an_annotation_as_written_resolves_to_its_type(run_jdx, jar):
    assert "interface an.io.TempDir extends java.lang.annotation.Annotation" in javap(jar, "an.io.TempDir")
    plain = run_jdx("--no-jdk", "--jars", str(jar), "resolve", "TempDir", "--json")
    assert plain.code == 0, plain.err
    expected = [(c["ref"], c["kind"]) for c in json.loads(plain.out)["result"]["candidates"]]
    assert expected == [("an.io.TempDir", "annotation")], expected
    for written in ("@TempDir", "@an.io.TempDir", " @TempDir "):
        run = run_jdx("--no-jdk", "--jars", str(jar), "resolve", written, "--json")
        assert run.code == 0, (written, run.out, run.err)
        got = [(c["ref"], c["kind"]) for c in json.loads(run.out)["result"]["candidates"]]
        assert got == expected, (written, got)


@pytest.mark.parametrize("text, read", [("@TempDir", "TempDir"), ("@a.b.C", "a.b.C"), ("TempDir", "TempDir"),
                                        ("@Foo(1)", "@Foo(1)"), ("at a.B.c(B.java:3)", "at a.B.c(B.java:3)"),
                                        ("@", "@"), ("a@b", "a@b")])
def test_only_an_annotation_loses_its_at(text, read):
    assert annotation_type(text) == read


@pytest.mark.parametrize("command", ["show", "usages", "hierarchy"])
def test_every_reference_reads_a_pasted_annotation(run_jdx, jar, command):
    """A reference is read as written in code too (`show '@TempDir'` was not found): the same answer as the bare
    name's."""
    args = ("--no-jdk", "--jars", str(jar), command)
    plain, written = run_jdx(*args, "an.io.TempDir", "--json"), run_jdx(*args, "@TempDir", "--json")
    assert plain.code == written.code == 0, written.out + written.err
    assert json.loads(written.out)["result"] == json.loads(plain.out)["result"]
