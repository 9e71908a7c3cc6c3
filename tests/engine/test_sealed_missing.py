"""`hierarchy --down` of a sealed type whose permitted subclass the workspace lacks warns SEALED_SUBTYPE_MISSING
naming it (its class file was left out of the jar); with every permitted subclass present, no warning. Oracle:
javap -v's PermittedSubclasses attribute and the jar's entries."""

from __future__ import annotations

import json
import re
import shutil
import zipfile

import pytest

from tests.fixtures.javac import javac_jar
from tests.fixtures import jdktool

SOURCES = {"sl/Shape.java": "package sl;\npublic sealed interface Shape permits Circle, Hex, Tri, Group { }",
           "sl/Circle.java": "package sl;\npublic final class Circle implements Shape { }",
           "sl/Hex.java": "package sl;\npublic final class Hex implements Shape { }",
           "sl/Tri.java": "package sl;\npublic non-sealed class Tri implements Shape { }",
           # a sealed type below the root (T73: only the root's permits were checked)
           "sl/Group.java": "package sl;\npublic sealed interface Group extends Shape permits Layer, Stack { }",
           "sl/Layer.java": "package sl;\npublic final class Layer implements Group { }",
           "sl/Stack.java": "package sl;\npublic final class Stack implements Group { }"}
LEFT_OUT = ("sl/Hex.class", "sl/Layer.class")


@pytest.fixture(scope="module")
def jars(tmp_path_factory):
    if shutil.which("javac") is None or shutil.which("javap") is None:
        pytest.skip("javac/javap are not installed")
    root = tmp_path_factory.mktemp("sealed_missing")
    whole, classes = javac_jar(root, SOURCES, "sl", "whole.jar")
    partial = root / "partial.jar"
    with zipfile.ZipFile(whole) as src, zipfile.ZipFile(partial, "w") as dst:
        for info in src.infolist():
            if info.filename not in LEFT_OUT:
                dst.writestr(info, src.read(info))
    verbose = jdktool.run(["javap", "-v", "-cp", str(classes), "sl.Shape"], capture_output=True, text=True,
                             check=True).stdout
    permitted = re.search(r"PermittedSubclasses:\n((?:\s+sl/\w+\n)+)", verbose).group(1).split()
    return whole, partial, permitted


def _missing(run) -> list[str]:
    return [w["message"] for w in json.loads(run.out)["warnings"] if w["code"] == "SEALED_SUBTYPE_MISSING"]


def test_a_missing_permitted_subclass_is_warned(jars, run_jdx):
    whole, partial, permitted = jars
    assert permitted == ["sl/Circle", "sl/Hex", "sl/Tri", "sl/Group"]
    absent = [p for p in permitted if f"{p}.class" not in zipfile.ZipFile(partial).namelist()]
    run = run_jdx("--no-jdk", "--jars", str(partial), "hierarchy", "sl.Shape", "--down", "--json")
    assert run.code == 0, run.err
    assert _missing(run) == [f"sl.Shape permits {p.replace('/', '.')}, which the workspace lacks: the subtypes "
                             "below it are unknown" for p in absent] + [
        "sl.Group permits sl.Layer, which the workspace lacks: the subtypes below it are unknown"]
    full = run_jdx("--no-jdk", "--jars", str(whole), "hierarchy", "sl.Shape", "--down", "--json")
    assert full.code == 0 and _missing(full) == []


def test_implementors_of_a_sealed_type_say_what_they_lack(jars, run_jdx):
    """T73: the flat list an agent checks a switch's cases against was silently incomplete."""
    whole, partial, _permitted = jars
    run = run_jdx("--no-jdk", "--jars", str(partial), "implementors", "sl.Shape", "--json")
    assert run.code == 0, run.err
    assert _missing(run) == [
        "sl.Shape permits sl.Hex, which the workspace lacks: it and the subtypes below it are not listed",
        "sl.Group permits sl.Layer, which the workspace lacks: it and the subtypes below it are not listed"]
    full = run_jdx("--no-jdk", "--jars", str(whole), "implementors", "sl.Shape", "--json")
    assert full.code == 0 and _missing(full) == []


def test_usages_of_a_permitted_subclass_name_the_permits_clause(jars, run_jdx):
    """T73: renaming or removing a permitted subclass means editing its sealed parent's `permits`: `usages` of it
    lists that parent (its PermittedSubclasses attribute, javap -v), as a reference."""
    whole, _partial, permitted = jars
    assert "sl/Circle" in permitted
    run = run_jdx("--no-jdk", "--jars", str(whole), "usages", "sl.Layer", "--json")
    assert run.code == 0, run.err
    sites = [(s["caller"], s["kind"], s["detail"]) for g in json.loads(run.out)["result"]["groups"]
             for c in g["callers"] for s in c["sites"]]
    assert ("sl.Group", "ref", "permits") in sites, sites
    circle = run_jdx("--no-jdk", "--jars", str(whole), "usages", "sl.Circle", "--kind", "ref", "--json")
    sites = [(s["caller"], s["detail"]) for g in json.loads(circle.out)["result"]["groups"]
             for c in g["callers"] for s in c["sites"]]
    assert sites == [("sl.Shape", "permits")], sites
