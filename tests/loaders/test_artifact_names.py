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
    name = json.loads(show.out)["provenance"][0]["artifact"]
    # the declarations' own copy of the name (cypher's `artifact_name`) is the workspace's name too, not the one
    # of the workspace whose graph this one shares or grew from
    declared = run_jdx("-q", "--no-jdk", *flags, "cypher", "MATCH (t:Type {fqn: 'an.Gadget'})-[:DECLARES]->(m) "
                       "RETURN DISTINCT t.artifact_name AS t, m.artifact_name AS m", "--json", env=env)
    assert json.loads(declared.out)["result"]["rows"] == [{"t": name, "m": name}], declared.out
    return name, json.loads(rows.out)["result"]["rows"]


@pytest.mark.soak  # four graph builds (~15 s); the default tier keeps the keys and the sharing rule below
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


def test_a_copy_shares_no_graph_with_the_file_it_copies():
    """The rule behind the scenario above, without building graphs: a graph's key holds each jar's name and path, and
    a built graph of the same content under other files is no build to share (its rows name the other files)."""
    from jdx.loaders.indexer import _same_artifacts, graph_key
    from jdx.loaders.roots import Artifact

    dep = Artifact("jar", "/a/dep.jar", "dep.jar", "k1", "jar:/a/dep.jar")
    good = Artifact("jar", "/b/good.jar", "good.jar", "k1", "jar:/b/good.jar")
    coord = Artifact("jar", "/a/dep.jar", "g:dep:1", "k1", "jar:/a/dep.jar")
    assert len({graph_key([dep]), graph_key([good]), graph_key([coord])}) == 3
    built = [(1, "build", {"artifacts": [dict(dep.to_json(), classes=1)], "warnings": []})]
    assert _same_artifacts(built, [dep]) == ("build", built[0][2])
    assert _same_artifacts(built, [good]) is None and _same_artifacts(built, [coord]) is None
