"""`ws info --json` `classpath` is a classpath: the workspace's jar and class-directory paths in classpath order, what
`javac -cp` / `java -cp` take (the JDK's modules not among them), and how it was found is `found` (trial: `classpath`
held prose, `['--coord g:a:v: Maven Resolver (offline) over ...', '--coord mediation: ...']`). Oracle: javac and java
run with that classpath on a class that uses both roots."""

from __future__ import annotations

import json
import os
import shutil

import pytest

from tests.fixtures import jdktool
from tests.fixtures.javac import javac_jar

LIB = {"wl/Lib.java": "package wl;\npublic class Lib { public static String hello() { return \"hello\"; } }\n"}
APP = "package wa;\npublic class App { public static String run() { return wl.Lib.hello() + \"!\"; } }\n"
USE = "public class Use { public static void main(String[] a) { System.out.println(wa.App.run()); } }\n"


@pytest.fixture(scope="module")
def roots(tmp_path_factory):
    if shutil.which("javac") is None or shutil.which("java") is None:
        pytest.skip("javac/java are not installed")
    root = tmp_path_factory.mktemp("ws_cp")
    lib = javac_jar(root / "lib", LIB, "wl", "lib.jar")[0]
    (root / "app-src" / "wa").mkdir(parents=True)
    (root / "app-src" / "wa" / "App.java").write_text(APP)
    jdktool.run(["javac", "-cp", str(lib), "-d", str(root / "app-classes"), str(root / "app-src" / "wa" / "App.java")],
                check=True)
    return root, root / "app-classes", lib


def test_classpath_is_what_java_cp_takes(run_jdx, roots):
    root, app, lib = roots
    run = run_jdx("--jars", f"{app}{os.pathsep}{lib}", "ws", "info", "--json")
    assert run.code == 0, run.err
    result = json.loads(run.out)["result"]
    real = [os.path.realpath(p) for p in (app, lib)]
    assert result["classpath"] == real, result["classpath"]
    assert [a["path"] for a in result["artifacts"] if a["kind"] != "jrt"] == real
    assert any(a["kind"] == "jrt" for a in result["artifacts"])  # the JDK is in the workspace, not on `classpath`
    assert isinstance(result["found"], list)
    (root / "use").mkdir()
    (root / "use" / "Use.java").write_text(USE)
    cp = os.pathsep.join(result["classpath"])
    jdktool.run(["javac", "-cp", cp, "-d", str(root / "use"), str(root / "use" / "Use.java")], check=True)
    java = jdktool.run(["java", "-cp", os.pathsep.join([str(root / "use"), cp]), "Use"], capture_output=True,
                       text=True, check=True)
    assert java.stdout.strip() == "hello!"


def test_the_text_says_how_it_was_found_from_found():
    from jdx.render.manage import ws_info

    lines = ws_info({"workspace": {"name": "app"}, "how": "flags", "indexed": True, "sources": [],
                     "found": ["--coord g:a:1: Maven Resolver (offline) over /repo"], "classpath": ["/repo/a-1.jar"],
                     "artifacts": [{"kind": "jar", "name": "g:a:1", "path": "/repo/a-1.jar"}]})
    assert lines == ["workspace app  via flags  · indexed",
                     "  found: --coord g:a:1: Maven Resolver (offline) over /repo", "  jar g:a:1  /repo/a-1.jar"], lines
