"""A class file that is not at the path its name gives (`wrong/Foo.class` declaring p.Foo) is one a class path lookup
never finds (javap -cp, like javac and java, is the oracle): jdx still reads it and says so on every answer
(MISPLACED_CLASS), as when a class directory is named one level too deep. A multi-release jar's
`META-INF/versions/N/p/Ok.class` is where it belongs."""

from __future__ import annotations

import json
import shutil
import zipfile

import pytest

from tests.fixtures import jdktool
from tests.fixtures.javac import javac_jar

SOURCES = {"p/Ok.java": "package p; public class Ok {}", "p/Foo.java": "package p; public class Foo {}"}


@pytest.fixture(scope="module")
def roots(tmp_path_factory):
    root = tmp_path_factory.mktemp("misplaced")
    _, classes = javac_jar(root, SOURCES, "p", "p.jar")
    mixed = root / "mixed"
    (mixed / "p").mkdir(parents=True)
    (mixed / "wrong").mkdir()
    shutil.copy(classes / "p" / "Ok.class", mixed / "p" / "Ok.class")
    shutil.copy(classes / "p" / "Foo.class", mixed / "wrong" / "Foo.class")
    release = root / "mr.jar"
    with zipfile.ZipFile(release, "w") as z:
        z.writestr("META-INF/MANIFEST.MF", "Manifest-Version: 1.0\nMulti-Release: true\n")
        z.write(classes / "p" / "Ok.class", "p/Ok.class")
        z.write(classes / "p" / "Ok.class", "META-INF/versions/11/p/Ok.class")
    return classes, mixed, release


def _lookup(classpath, name: str) -> int:
    return jdktool.run(["javap", "-cp", str(classpath), name], capture_output=True, text=True).returncode


def _warnings(run_jdx, root, name: str) -> list[dict]:
    r = run_jdx("--jars", str(root), "--no-jdk", "show", name, "--json")
    assert r.code == 0, r.out + r.err
    return json.loads(r.out)["warnings"]


def test_a_class_file_off_its_path_is_read_and_named(roots, run_jdx):
    _, mixed, _ = roots
    assert _lookup(mixed, "p.Foo") != 0 and _lookup(mixed, "p.Ok") == 0  # the class path lookup misses it
    for name in ("p.Foo", "p.Ok"):  # on the misplaced class's answers and on the others'
        found = [w for w in _warnings(run_jdx, mixed, name) if w["code"] == "MISPLACED_CLASS"]
        assert len(found) == 1 and "wrong/Foo.class: declares p.Foo" in found[0]["message"], found
        assert "p/Foo.class" in found[0]["message"]


@pytest.mark.parametrize("which", ["classes", "release"])
def test_class_files_where_they_belong_are_not_named(roots, run_jdx, which):
    classes, _, release = roots
    root = classes if which == "classes" else release
    assert _lookup(root, "p.Ok") == 0
    assert not [w for w in _warnings(run_jdx, root, "p.Ok") if w["code"] == "MISPLACED_CLASS"]
