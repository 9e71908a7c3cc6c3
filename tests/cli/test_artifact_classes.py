"""`Artifact.classes` counts the classes an artifact declares, as many as its `Type` nodes (T70: a jar's root
`module-info.class` was counted, a versioned one was not, so the count matched neither `unzip -l` nor the types).
Oracle: the jar's entries (`zipfile`), module descriptors aside."""

from __future__ import annotations

import json
import shutil
import zipfile

import pytest

from tests.fixtures import jdktool

SOURCES = {
    "module-info.java": "module mod.one { exports mo; }\n",
    "mo/A.java": "package mo; public class A { public static class In { } }\n",
    "mo/B.java": "package mo; public interface B { }\n",
}


def test_classes_are_the_types_not_the_module_descriptor(run_jdx, tmp_path):
    if shutil.which("javac") is None:
        pytest.skip("javac is not installed")
    src, classes = tmp_path / "src", tmp_path / "classes"
    for name, text in SOURCES.items():
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        (src / name).write_text(text)
    jdktool.run(["javac", "-d", str(classes), *map(str, sorted(src.rglob("*.java")))], check=True)
    jar = tmp_path / "mod.jar"
    jdktool.run(["jar", "cf", str(jar), "-C", str(classes), "."], check=True)
    entries = [n for n in zipfile.ZipFile(jar).namelist() if n.endswith(".class")]
    assert "module-info.class" in entries and len(entries) == 4
    r = run_jdx("cypher", "MATCH (a:Artifact {name: 'mod.jar'}) OPTIONAL MATCH (a)-[:CONTAINS]->(t:Type) "
                "RETURN a.classes AS classes, count(t) AS types", "--json", "--no-jdk", "--jars", str(jar))
    assert r.code == 0, r.err
    row = json.loads(r.out)["result"]["rows"][0]
    assert row == {"classes": 3, "types": 3}, row  # A, A$In, B: every class file but the module descriptor
