"""A plain project's classpath puts its class directories before its jars (T49: a class the project compiles into
`out/` under a name a `lib/` jar also has was answered from the jar, the project's class "shadowed"). The oracle is
`java -cp out:lib/*`: the class it loads is the project's."""

from __future__ import annotations

import json
import shutil

import pytest

from tests.fixtures import jdktool
from tests.fixtures.javac import javac_jar

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)

SHARED_IN_JAR = "package sh;\npublic class Shared { public void fromJar() { } }"
SHARED_IN_PROJECT = "package sh;\npublic class Shared { public void fromProject() { } }"
REFLECT = """public class Which {
    public static void main(String[] a) throws Exception {
        for (java.lang.reflect.Method m : Class.forName("sh.Shared").getDeclaredMethods()) System.out.println(m.getName());
    }
}"""


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    if shutil.which("javac") is None:
        pytest.skip("javac is not installed")
    root = tmp_path_factory.mktemp("plain_order")
    proj = root / "proj"
    (proj / "lib").mkdir(parents=True)
    jar, _ = javac_jar(root / "libsrc", {"sh/Shared.java": SHARED_IN_JAR}, "sh", "shared-1.0.jar")
    shutil.copy(jar, proj / "lib" / "shared-1.0.jar")
    (proj / "src" / "sh").mkdir(parents=True)
    (proj / "src" / "sh" / "Shared.java").write_text(SHARED_IN_PROJECT)
    (proj / "src" / "Which.java").write_text(REFLECT)
    jdktool.run(["javac", "-d", proj / "out", proj / "src" / "sh" / "Shared.java", proj / "src" / "Which.java"],
                check=True)
    return proj


def test_the_project_class_is_the_one_java_loads(project, run_jdx):
    loaded = jdktool.run(["java", "-cp", f"{project / 'out'}:{project / 'lib'}/*", "Which"], capture_output=True,
                         text=True, check=True).stdout.split()
    assert loaded == ["fromProject"]
    r = run_jdx("--project", str(project), "--no-jdk", "members", "sh.Shared", "--declared", "--json")
    assert r.code == 0, r.err
    answer = json.loads(r.out)
    assert [m["name"] for m in answer["result"]["members"] if m["kind"] == "method"] == loaded
    shadowed = [w for w in answer["warnings"] if w["code"] == "DUPLICATE_CLASS"]
    assert shadowed and "out (loaded)" in shadowed[0]["message"], answer["warnings"]


def test_a_project_named_as_a_class_directory_says_its_jars_are_not_read(project, run_jdx):
    """`--jars proj` (the project, not its `out/`) is a class directory: the jars in `lib/` are not read, and every
    answer says so with the two ways to read them (T49: they were dropped without a word)."""
    r = run_jdx("--no-jdk", "--jars", str(project), "ls", "sh", "--json")
    warned = [w for w in json.loads(r.out)["warnings"] if w["code"] == "JARS_NOT_READ"]
    assert len(warned) == 1 and "lib/shared-1.0.jar" in warned[0]["message"], r.out
    assert f"--project {project}" in warned[0]["message"] and f"{project}/lib/*.jar" in warned[0]["message"]
    out = run_jdx("--no-jdk", "--jars", str(project / "out"), "ls", "sh", "--json").out
    assert "JARS_NOT_READ" not in out
