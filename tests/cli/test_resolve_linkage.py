"""`resolve` of a linkage error's line looks up what its message names (spec §7.2): the class a NoClassDefFoundError
or ClassNotFoundException could not load, the method a NoSuchMethodError could not link. The traces are the JVM's own:
a program compiled against version 1 of a library runs without it, or against version 2, which dropped a method."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from tests.fixtures.javac import javac_jar

V1 = {"lk/Api.java": "package lk; public class Api { public String name(int n) { return \"v\" + n; } "
                     "public static Api make() { return new Api(); } }"}
V2 = {"lk/Api.java": "package lk; public class Api { public String name(long n) { return \"w\" + n; } "
                     "public static Api make() { return new Api(); } }"}
MAIN = {"app/Main.java": "package app; public class Main { public static void main(String[] a) { "
                         "System.out.println(lk.Api.make().name(3)); } }"}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    if shutil.which("java") is None:
        pytest.skip("java is not installed")
    root = tmp_path_factory.mktemp("linkage")
    v1, _ = javac_jar(root / "v1", {**V1, **MAIN}, "lk", "lk-1.jar")
    v2, _ = javac_jar(root / "v2", V2, "lk", "lk-2.jar")
    app = root / "v1" / "classes"  # app.Main, compiled against v1

    def trace(classpath: str) -> str:
        run = subprocess.run(["java", "-cp", classpath, "app.Main"], capture_output=True, text=True, timeout=120)
        assert run.returncode != 0, run.stdout
        return run.stderr

    shutil.rmtree(app / "lk")  # the program's own classes alone: the library comes from the jar on the classpath
    return {"v1": v1, "v2": v2, "missing": trace(str(app)), "changed": trace(f"{app}:{v2}")}


def _linkage(run_jdx, jar, text: str) -> list[dict]:
    r = run_jdx("--jars", str(jar), "resolve", text, "--json")
    assert r.code == 0, r.out + r.err
    return [e["linkage"] for e in json.loads(r.out)["result"]["trace"] if "linkage" in e]


def test_a_class_the_program_ran_without_is_found_in_the_workspace(run_jdx, built):
    assert "NoClassDefFoundError: lk/Api" in built["missing"]  # the JVM's message names it in internal form
    named = _linkage(run_jdx, built["v1"], built["missing"])
    assert named[0] == {"kind": "class", "names": "lk.Api", "found": True, "artifact": "lk-1.jar"}
    text = run_jdx("--jars", str(built["v1"]), "resolve", built["missing"]).out
    assert "the class it names, lk.Api, is in lk-1.jar of this workspace" in text, text


def test_a_method_the_new_version_dropped_is_said_to_be_missing_from_it(run_jdx, built):
    assert "NoSuchMethodError" in built["changed"] and "lk.Api.name(int)" in built["changed"]
    named = _linkage(run_jdx, built["v2"], built["changed"])
    assert named[0] == {"kind": "method", "names": "lk.Api#name(int)", "found": False, "artifact": "lk-2.jar"}
    text = run_jdx("--jars", str(built["v2"]), "resolve", built["changed"]).out
    assert "lk.Api in lk-2.jar of this workspace has no name(int): the caller was compiled against another version" \
        in text, text
    # the workspace of the version the caller was compiled against has it: the program ran with another one
    assert _linkage(run_jdx, built["v1"], built["changed"])[0]["found"] is True


@pytest.mark.parametrize("line,names,found", [
    ("java.lang.NoSuchMethodError: java.util.HashMap.get(Ljava/lang/Object;)Ljava/lang/Object;",
     "java.util.HashMap#get(Object)", True),  # JDK 8's form of the message
    ("java.lang.NoSuchMethodError: 'java.lang.String java.util.HashMap.get(java.lang.Object)'",
     "java.util.HashMap#get(Object)", False),  # another return type: compiled against another version
    ("Caused by: java.lang.ClassNotFoundException: com.example.Gone", "com.example.Gone", False),
    ("java.lang.NoClassDefFoundError: Could not initialize class java.util.HashMap", "java.util.HashMap", True),
])
def test_jdk_messages(run_jdx, line, names, found):
    r = run_jdx("resolve", line, "--json")
    assert r.code == 0, r.out + r.err
    named = json.loads(r.out)["result"]["linkage"]
    assert (named["names"], named["found"]) == (names, found)
