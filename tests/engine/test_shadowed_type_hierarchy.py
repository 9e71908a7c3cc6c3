"""`implementors` and `hierarchy` of a shadowed copy of a type (`b.jar/p.I`: an earlier jar provides p.I) say where
its subtypes are: the JVM loads the first copy, so the workspace's classes that implement `p.I` are filed under the
loaded one, and the shadowed copy's answer read "none in workspace" with no word of why (T96: JLine 3.22.0's `Pty`
beside 3.26.3's).

Oracle: javap (b.jar's p.Impl implements p.I) and the loaded copy's own implementors answer."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from tests.fixtures.javac import javac_jar


@pytest.fixture(scope="module")
def jars(tmp_path_factory):
    if shutil.which("javac") is None:
        pytest.skip("javac is not installed")
    root = tmp_path_factory.mktemp("shadowed-type")
    a, _ = javac_jar(root / "a", {"p/I.java": "package p; public interface I { void f(); }"}, "p", "a.jar")
    b, _ = javac_jar(root / "b", {"p/I.java": "package p; public interface I { void f(); }",
                                  "p/Impl.java": "package p; public class Impl implements I { public void f() {} }"},
                     "p", "b.jar")
    return a, b


def test_a_shadowed_copy_says_where_its_subtypes_are(jars, run_jdx):
    a, b = jars
    assert "implements p.I" in subprocess.run(["javap", "-cp", str(b), "p.Impl"], capture_output=True,
                                              text=True).stdout
    flags = ["--no-jdk", "--jars", str(a), "--jars", str(b)]
    loaded = json.loads(run_jdx(*flags, "implementors", "p.I", "--json").out)["result"]
    assert [e["type"] for e in loaded["implementors"]] == ["p.Impl"] and "notes" not in loaded
    note = ("this copy is shadowed (an earlier artifact provides p.I): the workspace's subtypes extend the loaded "
            "copy: jdx implementors 'p.I'")
    for command in ("implementors", "hierarchy"):
        r = run_jdx(*flags, command, "b.jar/p.I", "--json")
        assert r.code == 0, r.out + r.err
        result = json.loads(r.out)["result"]
        assert result["notes"] == [note] and "external" not in result, result
        assert f"  note: {note}" in run_jdx(*flags, command, "b.jar/p.I").out
