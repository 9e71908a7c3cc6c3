"""An artifact is named by the file this workspace holds, whatever the cache saw first (spec §3.9: same input, same
bytes out). A byte-identical copy of a jar under another name or path (`lib/good.jar`, a copy of `dep.jar`) shares
its shard, but its graph names `good.jar` and its path: shared or grown from the graph of the copy, never the copy's
name, and a fresh cache answers the same bytes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.fixtures.javac import javac_jar

SOURCES = {
    "an/Gadget.java": "package an; public class Gadget { public int size() { return 1; } }",
    "an2/Other.java": "package an2; public class Other { public int use(an.Gadget g) { return g.size(); } }",
}


@pytest.fixture(scope="module")
def jars(tmp_path_factory) -> tuple[Path, Path, Path]:
    if shutil.which("javac") is None:
        pytest.skip("javac is not installed")
    root = tmp_path_factory.mktemp("artifact_names")
    dep, _ = javac_jar(root, {k: v for k, v in SOURCES.items() if k.startswith("an/")}, "an", "dep.jar")
    (root / "copy").mkdir()
    good = root / "copy" / "good.jar"
    shutil.copyfile(dep, good)
    other, _ = javac_jar(root / "o", SOURCES, "an2", "other.jar")
    return dep, good, other


def _answers(run_jdx, env: dict, *jars: Path) -> tuple[str, list]:
    flags = [w for j in jars for w in ("--jars", str(j))]
    show = run_jdx("-q", "--no-jdk", *flags, "show", "an.Gadget", "--json", env=env)
    assert show.code == 0, show.err
    rows = run_jdx("-q", "--no-jdk", *flags, "cypher", "MATCH (a:Artifact) RETURN a.name AS n, a.path AS p "
                   "ORDER BY n", "--json", env=env)
    assert rows.code == 0, rows.err
    return json.loads(show.out)["provenance"][0]["artifact"], json.loads(rows.out)["result"]["rows"]


def test_a_copy_of_a_jar_is_named_by_its_own_file(run_jdx, jars, tmp_path):
    dep, good, other = jars
    env = {"JDX_CACHE_DIR": str(tmp_path / "cache")}
    assert _answers(run_jdx, env, dep)[0] == "dep.jar"
    name, rows = _answers(run_jdx, env, good)  # the same content: its shard and graph rows are dep.jar's
    assert name == "good.jar" and [r["p"] for r in rows] == [str(good)], rows
    name, rows = _answers(run_jdx, env, other, good)  # grown from a graph holding the copy
    assert name == "good.jar" and sorted(r["p"] for r in rows) == sorted([str(good), str(other)]), rows
    assert _answers(run_jdx, env, dep)[0] == "dep.jar"
    fresh = {"JDX_CACHE_DIR": str(tmp_path / "fresh")}
    assert _answers(run_jdx, fresh, other, good) == _answers(run_jdx, env, other, good)
