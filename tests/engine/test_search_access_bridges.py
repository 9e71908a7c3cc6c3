"""A public method of a package-private class that a public subclass re-exports (javac writes a public synthetic
access bridge of the same name and descriptor into the subclass) is callable from outside the package: search
ranks it as public and says to call it on a public subclass, instead of `(non-public)` below every public match of
the JDK (T94: xz's `BCJOptions#setStartOffset`, re-exported by X86Options and seven more).

Oracle: javap (the bridge in the public subclass, none where no public subclass exists) and javac (a client in
another package compiles `new Pub().setStart(1)` and fails on `Hidden2`'s method)."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from tests.fixtures.javac import javac_jar

SOURCES = {
    "ab/Base.java": "package ab; abstract class Base { int start; public void setStart(int s) { start = s; } "
                    "void packageOnly() {} }",
    "ab/Pub.java": "package ab; public final class Pub extends Base { }",
    "ab/Hidden2.java": "package ab; class Hidden2 { public void setStartHidden(int s) {} }",
}


@pytest.fixture(scope="module")
def jar(tmp_path_factory):
    if shutil.which("javac") is None:
        pytest.skip("javac is not installed")
    root = tmp_path_factory.mktemp("ab")
    built, _ = javac_jar(root, SOURCES, "ab", "ab.jar")
    return root, built


def test_the_oracle(jar):
    root, built = jar
    javap = subprocess.run(["javap", "-p", "-v", "-cp", str(built), "ab.Pub"], capture_output=True, text=True).stdout
    assert "public void setStart(int);" in javap and "ACC_BRIDGE, ACC_SYNTHETIC" in javap, javap
    (root / "use" / "u").mkdir(parents=True)
    (root / "use" / "u" / "U.java").write_text("package u; class U { void f() { new ab.Pub().setStart(1); } }")
    ok = subprocess.run(["javac", "-d", str(root / "use" / "out"), "-cp", str(built), str(root / "use/u/U.java")],
                        capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr


def _hits(run_jdx, built, pattern):
    r = run_jdx("search", pattern, "--jars", str(built), "--no-jdk", "--json")
    assert r.code == 0, r.out + r.err
    return {h["ref"]: h for h in json.loads(r.out)["result"]["matches"]}


def test_a_bridged_method_is_public_through_its_subclass(jar, run_jdx):
    _, built = jar
    hit = _hits(run_jdx, built, "setStart")["ab.Base#setStart(int)"]
    assert hit["public"] is True and hit["through_subclasses"] is True, hit
    text = run_jdx("search", "setStart", "--jars", str(built), "--no-jdk").out
    assert "ab.Base#setStart(int) (its class is not public: call it on a public subclass)" in text, text
    hidden = _hits(run_jdx, built, "setStartHidden")["ab.Hidden2#setStartHidden(int)"]
    assert hidden["public"] is False and "through_subclasses" not in hidden, hidden
    package_only = _hits(run_jdx, built, "packageOnly")["ab.Base#packageOnly()"]
    assert package_only["public"] is False and "through_subclasses" not in package_only
