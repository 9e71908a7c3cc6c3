"""`search --kind module` finds the modules jars declare, not only the JDK's: a module-info.class at the root or
under META-INF/versions/N (a multi-release jar), or a manifest's Automatic-Module-Name; a jar with neither is in
the unnamed module. Oracle: `jar --describe-module` of the JDK's own jar tool."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from jdx.loaders.jdk_modules import jar_module

from tests.fixtures import jdktool


def _sh(*args: str, cwd: Path) -> None:
    subprocess.run(args, cwd=cwd, check=True, capture_output=True, text=True)


@pytest.fixture(scope="module")
def jars(tmp_path_factory) -> dict[str, Path]:
    if shutil.which("javac") is None or shutil.which("jar") is None:
        pytest.skip("javac/jar are not installed")
    root = tmp_path_factory.mktemp("modules")
    for rel, text in {"a/src/module-info.java": "module mod.alpha { exports ma.p; }",
                      "a/src/ma/p/A.java": "package ma.p; public class A { }",
                      "b/p/B.java": "package p; public class B { }",
                      "d/src/module-info.java": "module mod.released { exports q; }",
                      "d/src/q/D.java": "package q; public class D { }",
                      "d/q/D.java": "package q; public class D { }",
                      "man.txt": "Manifest-Version: 1.0\nAutomatic-Module-Name: mod.autom\n atic\n\n"}.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    _sh("javac", "-d", "a/out", "a/src/module-info.java", "a/src/ma/p/A.java", cwd=root)
    _sh("javac", "-d", "b/out", "b/p/B.java", cwd=root)
    _sh("javac", "-d", "d/out", "d/src/module-info.java", "d/src/q/D.java", cwd=root)
    _sh("javac", "-d", "d/base", "d/q/D.java", cwd=root)
    _sh("jar", "cf", "explicit.jar", "-C", "a/out", ".", cwd=root)
    _sh("jar", "cfm", "automatic.jar", "man.txt", "-C", "b/out", ".", cwd=root)
    _sh("jar", "cf", "unnamed.jar", "-C", "b/out", ".", cwd=root)
    _sh("jar", "--create", "--file", "released.jar", "-C", "d/base", ".", "--release", "11", "-C", "d/out", ".",
        cwd=root)
    (root / "broken.jar").write_bytes(b"PK\x03\x04 not a zip")
    return {p.stem: p for p in root.glob("*.jar")}


def _oracle(jar: Path) -> str | None:
    """The module name `jar --describe-module` reports; None for a name it derives from the file name."""
    out = jdktool.run(["jar", "--describe-module", "--file", str(jar), "--release", "11"], capture_output=True,
                         text=True, check=True).stdout
    explicit = re.search(r"^(\S+) jar:file:", out, re.M)
    if explicit:
        return explicit.group(1)
    auto = re.search(r"^(\S+) automatic$", out, re.M)
    return auto.group(1) if auto and jar.stem != auto.group(1) else None


@pytest.mark.parametrize("name", ["explicit", "automatic", "unnamed", "released"])
def test_jar_module_equals_the_jar_tool(jars, name):
    assert jar_module(str(jars[name])) == _oracle(jars[name])


def test_the_fixture_has_each_kind(jars):
    assert [_oracle(jars[n]) for n in ("explicit", "automatic", "unnamed", "released")] == [
        "mod.alpha", "mod.automatic", None, "mod.released"]
    assert jar_module(str(jars["broken"])) is None  # not a zip: no module, no exception

@pytest.mark.soak  # slow: the soak runs it (.ci/run)

def test_search_kind_module_lists_the_jars_modules(jars, run_jdx):
    classpath = ":".join(str(jars[n]) for n in ("explicit", "automatic", "unnamed", "released"))
    run = run_jdx("--no-jdk", "--jars", classpath, "search", "--kind", "module", "mod.*", "--json")
    assert run.code == 0, run.err
    found = {(m["ref"], m["artifact"]) for m in json.loads(run.out)["result"]["matches"]}
    assert found == {("mod.alpha", "explicit.jar"), ("mod.automatic", "automatic.jar"),
                     ("mod.released", "released.jar")}
    rows = run_jdx("--no-jdk", "--jars", classpath, "cypher",
                   "MATCH (a:Artifact) RETURN a.name AS name, a.module AS module ORDER BY name", "--json")
    assert rows.code == 0, rows.err
    got = {r["name"]: r["module"] for r in json.loads(rows.out)["result"]["rows"]}
    assert got == {f"{n}.jar": _oracle(jars[n]) for n in ("explicit", "automatic", "unnamed", "released")}
