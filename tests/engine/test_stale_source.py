"""A project's source file edited after its class file was compiled (not yet recompiled): `body`, `doc` and `source`
show the edited text, which no structural check can tell from the bytecode when the edit stays inside the same
lines; they warn SOURCES_VERSION_MISMATCH naming the file. javap of the class file is the oracle of the difference."""

from __future__ import annotations

import os
import shutil

import pytest

from tests.fixtures import jdktool

CODE = "SOURCES_VERSION_MISMATCH"


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    if shutil.which("javac") is None:
        pytest.skip("javac is not installed")
    root = tmp_path_factory.mktemp("stale")
    src = root / "src" / "st"
    src.mkdir(parents=True)
    java = src / "H.java"
    java.write_text("package st;\npublic class H {\n  /** Trims. */\n  public String sha(String s) { return s.trim(); }\n}\n")
    jdktool.run(["javac", "-g", "-d", str(root / "classes"), str(java)], check=True)
    return root, java, root / "classes" / "st" / "H.class"


def _ask(run_jdx, root, *words):
    r = run_jdx(*words, "--jars", str(root / "classes"), "--src", str(root / "src"), "--no-jdk")
    assert r.code == 0, r.err
    return r.out + r.err


def test_an_edit_not_recompiled_is_said_by_body_doc_and_source(run_jdx, project):
    root, java, klass = project
    compiled = klass.stat().st_mtime
    os.utime(java, (compiled - 60, compiled - 60))  # the source older than its class: a built project
    for words in (("body", "st.H#sha"), ("doc", "st.H#sha"), ("source", "st.H")):
        assert CODE not in _ask(run_jdx, root, *words), words
    java.write_text(java.read_text().replace("s.trim()", "s.strip()"))  # edited inside the same line
    os.utime(java, (compiled + 60, compiled + 60))
    javap = jdktool.run(["javap", "-c", "-cp", str(root / "classes"), "st.H"], capture_output=True, text=True).stdout
    assert "String.trim" in javap and "strip" not in javap  # the bytecode still calls trim()
    body = _ask(run_jdx, root, "body", "st.H#sha")
    assert "s.strip()" in body and f"⚠ {CODE}: st/H.java was modified after H.class was compiled" in body, body
    for words in (("doc", "st.H#sha"), ("source", "st.H")):
        assert f"⚠ {CODE}: st/H.java was modified after H.class was compiled" in _ask(run_jdx, root, *words), words
