"""`implementors`/`hierarchy` of a type whose artifact is missing (an external node the workspace's classes extend or
implement): the workspace's subtypes of it, transitively, with a note that the type itself is external (T28:
`implementors org.eclipse.jetty.jmx.ObjectMBean` said "not found" and `usages` showed only the 3 direct subclasses
of 6). javap's `extends`/`implements` of the client classes is the oracle."""

from __future__ import annotations

import functools
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from jdx.errors import NotFoundError
from tests.fixtures.javac import javac_jar
from tests.service import JdxService, Options

SOURCES = {
    "xl/Base.java": "package xl; public abstract class Base { public abstract int size(); }",
    "xl/Shape.java": "package xl; public interface Shape { double area(); }",
    "xc/Mid.java": "package xc; public abstract class Mid extends xl.Base { public int size() { return 1; } }",
    "xc/Leaf.java": "package xc; public class Leaf extends Mid {}",
    "xc/Deep.java": "package xc; public class Deep extends Leaf {}",
    "xc/Other.java": "package xc; public class Other extends xl.Base { public int size() { return 2; } }",
    "xc/Square.java": "package xc; public class Square implements xl.Shape { public double area() { return 4; } }",
}
CLIENTS = ("Mid", "Leaf", "Deep", "Other", "Square")


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, Path]:
    if shutil.which("javac") is None or shutil.which("javap") is None:
        pytest.skip("javac/javap are not installed")
    # both packages compiled together, only the client's jarred: the library is absent from the workspace
    return javac_jar(tmp_path_factory.mktemp("external_hierarchy"), SOURCES, "xc", "client.jar")


@pytest.fixture(scope="module")
def svc(built, jdx_home):
    service = JdxService(Options(jars=[str(built[0])], jdk=False, cache_dir=str(jdx_home / "cache")))
    yield service
    service.close()


@functools.lru_cache(maxsize=None)
def _javap(classes: Path) -> str:
    return subprocess.run(["javap", "-cp", str(classes), *(f"xc.{n}" for n in CLIENTS)], capture_output=True,
                          text=True, check=True).stdout


def _parents(classes: Path) -> dict[str, set[str]]:
    """Each client class's declared supertypes, from javap (one run for all of them)."""
    parents: dict[str, set[str]] = {}
    out = _javap(classes)
    for name in CLIENTS:
        head = next(line for line in out.splitlines() if f" xc.{name} " in line and "{" in line)
        supers = re.findall(r"(?:extends|implements) ([\w., ]+?)(?= implements| \{)", head)
        parents[f"xc.{name}"] = {s.strip() for group in supers for s in group.split(",")}
    return parents


def _oracle_subtypes(classes: Path, root: str) -> set[str]:
    """The client classes below `root`, transitively."""
    parents = _parents(classes)
    found, todo = set(), [root]
    while todo:
        cur = todo.pop()
        for child, ps in parents.items():
            if cur in ps and child not in found:
                found.add(child)
                todo.append(child)
    return found


@pytest.mark.parametrize("root", ["xl.Base", "xl.Shape"])
def test_implementors_of_an_external_type_are_the_workspaces_subtypes(svc, built, root):
    want = _oracle_subtypes(built[1], root)
    assert want  # the fixture has subtypes of it
    answer = svc.implementors(root)
    result = answer.result
    assert {e["type"] for e in result["implementors"]} == want
    assert result["count"] == len(want) and result["external"] is True
    assert result["notes"][0].startswith(f"{root} is external: no artifact of the workspace declares it")
    direct = {e["type"] for e in result["implementors"] if e["direct"]}
    assert direct == {c for c, ps in _parents(built[1]).items() if root in ps}


def test_hierarchy_down_of_an_external_type(svc, built):
    result = svc.hierarchy("xl.Base").result
    assert result["external"] is True and result["down_count"] == len(_oracle_subtypes(built[1], "xl.Base"))


def test_a_name_neither_declared_nor_referenced_is_still_not_found(svc):
    with pytest.raises(NotFoundError):
        svc.implementors("xl.Nope")
