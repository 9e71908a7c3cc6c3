"""`ws info` names the source roots answers read (T69: a project's src/main/java was labelled `sources: java` in
answers, and `ws info` listed only class directories and jars): a discovered project's source directory, a jar's
sibling `-sources.jar`, each once with what it serves."""

from __future__ import annotations

import json
import shutil

import pytest

from tests.fixtures import jdktool

POM = ('<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>'
       "<groupId>t</groupId><artifactId>wsi</artifactId><version>1.0</version></project>\n")


def test_ws_info_lists_the_source_roots(run_jdx, tmp_path):
    if shutil.which("javac") is None:
        pytest.skip("javac is not installed")
    (tmp_path / "pom.xml").write_text(POM)
    src = tmp_path / "src/main/java/w"
    src.mkdir(parents=True)
    (src / "W.java").write_text("package w; public class W { }\n")
    jdktool.run(["javac", "-d", str(tmp_path / "target/classes"), str(src / "W.java")], check=True)
    lib = tmp_path / "lib"
    (lib / "src/l").mkdir(parents=True)
    (lib / "src/l/L.java").write_text("package l; public class L { }\n")
    jdktool.run(["javac", "-d", str(lib / "classes"), str(lib / "src/l/L.java")], check=True)
    jdktool.run(["jar", "cf", str(lib / "l-1.0.jar"), "-C", str(lib / "classes"), "."], check=True)
    jdktool.run(["jar", "cf", str(lib / "l-1.0-sources.jar"), "-C", str(lib / "src"), "."], check=True)
    r = run_jdx("--project", str(tmp_path), "--no-jdk", "--jars", str(lib / "l-1.0.jar"), "ws", "info", "--json")
    assert r.code == 0, r.err
    roots = {(s["path"], s["how"]): s["for"] for s in json.loads(r.out)["result"]["sources"]}
    assert roots == {(str((tmp_path / "src/main/java").resolve()), "project"): "all",
                     (str(lib / "l-1.0-sources.jar"), "sibling"): ["l-1.0.jar"]}, roots
    text = run_jdx("--project", str(tmp_path), "--no-jdk", "--jars", str(lib / "l-1.0.jar"), "ws", "info").out
    assert f"  sources {lib / 'l-1.0-sources.jar'}  (sibling; for l-1.0.jar)" in text.splitlines(), text
