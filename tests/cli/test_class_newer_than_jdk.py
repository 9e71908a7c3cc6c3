"""CLASS_NEWER_THAN_JDK: a jar of Java 21+ class files over the workspace's JDK 17 (T73): the newer JDK's classes it
uses (`java.lang.MatchException`, thrown by a pattern switch) were "external: its artifact is not in the workspace",
with nothing saying the workspace's JDK is too old or how to pick another. Oracle: the class file's major version
(`javap -v`) and the JDK's own (java.base's classes)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.fixtures import jdktool

pytestmark = pytest.mark.soak  # a trial's regression family with its own builds: the soak runs it whole (.ci/run)

NEWER = Path("/usr/lib/jvm/temurin-25-jdk-amd64/bin")
SOURCE = """package nw;
public class Switches {
    sealed interface Shape permits Sq, Ci {}
    record Sq(int side) implements Shape {}
    record Ci(int r) implements Shape {}
    public static int area(Shape s) {
        return switch (s) { case Sq q -> q.side() * q.side(); case Ci c -> 3 * c.r() * c.r(); };
    }
}
"""


@pytest.fixture(scope="module")
def jar(tmp_path_factory):
    if not (NEWER / "javac").is_file():
        pytest.skip(f"no newer JDK at {NEWER}")
    root = tmp_path_factory.mktemp("newer")
    (root / "src/nw").mkdir(parents=True)
    (root / "src/nw/Switches.java").write_text(SOURCE)
    jdktool.run([str(NEWER / "javac"), "--release", "21", "-d", str(root / "classes"),
                 str(root / "src/nw/Switches.java")], check=True)
    out = root / "nw.jar"
    jdktool.run(["jar", "cf", str(out), "-C", str(root / "classes"), "."], check=True)
    verbose = jdktool.run(["javap", "-v", "-cp", str(out), "nw.Switches"], capture_output=True, text=True).stdout
    assert "major version: 65" in verbose and "java/lang/MatchException" in verbose
    return out


def test_an_artifact_newer_than_the_jdk_is_said_on_every_answer(run_jdx, jar):
    if shutil.which("javap") is None:
        pytest.skip("javap is not installed")
    r = run_jdx("--jars", str(jar), "show", "java.lang.MatchException", "--json")
    assert r.code == 1, r.out  # the JDK 17 workspace has no MatchException (Java 21)
    found = [w for w in json.loads(r.out)["warnings"] if w["code"] == "CLASS_NEWER_THAN_JDK"]
    assert len(found) == 1 and "nw.jar has class files for Java 21 (major 65)" in found[0]["message"], found
    assert "workspace's JDK (Java 17)" in found[0]["message"] and "JAVA_HOME" in found[0]["message"]
    ok = run_jdx("--jars", str(jar), "members", "nw.Switches", "--json")
    assert ok.code == 0 and any(w["code"] == "CLASS_NEWER_THAN_JDK" for w in json.loads(ok.out)["warnings"])
    plain = run_jdx("--jars", "/usr/share/java/gson.jar", "show", "com.google.gson.Gson", "--json")
    assert not any(w["code"] == "CLASS_NEWER_THAN_JDK" for w in json.loads(plain.out)["warnings"])
