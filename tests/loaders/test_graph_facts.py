"""What every answer asks of a graph is recorded by its build (`manifests.graph_facts`): each artifact's newest
class-file version (CLASS_NEWER_THAN_JDK) and the top-level classes whose name holds a literal `$`. A one-shot
query reads them from the manifest instead of asking the graph; on every way a graph comes to be (a build from
scratch, an update appending a jar, a reorder sharing a build) they must equal what the graph itself answers.
No JVM involved."""

from __future__ import annotations

import pyarrow as pa

from jdx.graph_schema.queries_graph import LITERAL_DOLLAR_NAMES
from jdx.graph_schema.queries_search import ARTIFACT_VERSIONS
from jdx.graph_schema.store import GraphStore, read_manifest
from jdx.loaders.indexer import ensure_graph
from jdx.loaders.manifests import graph_facts
from tests.loaders.test_graph_build import FakeExtractor, artifact, tables
from tests.loaders.test_incremental_graph import CORPUS

PUB = 0x1


def _with(t: dict, column: str, values: list) -> dict:
    types = t["types"]
    i = types.schema.get_field_index(column)
    return dict(t, types=types.set_column(i, types.schema.field(i), pa.array(values, types.schema.field(i).type)))


ODD = tables(types=[("odd/Odd$Name", "class", PUB, "java/lang/Object"),  # a `$` javac allows in a name
                    ("odd/Host", "class", PUB, "java/lang/Object"),
                    ("odd/Host$Inner", "class", PUB, "java/lang/Object")],  # nested: its `$` nests
             methods=[("odd/Host", "run", "()V", PUB)])
ODD = _with(ODD, "outer", [None, None, "odd/Host"])
ODD = _with(ODD, "version", [65, 61, 61])  # one class file for Java 21
FAKE = {**CORPUS, "odd.jar": ODD}


def _graph_answers(graph) -> dict:
    with GraphStore(graph / "graph.kz") as store:
        dollars = sorted(r["name"] for r in store.rows(LITERAL_DOLLAR_NAMES))
        versions = {r["name"]: r["version"] for r in store.rows(ARTIFACT_VERSIONS)}
    return {"literal_dollars": dollars, "newest": versions}


def _recorded(graph) -> dict:
    facts = graph_facts(read_manifest(graph))
    assert facts is not None
    return {"literal_dollars": facts["literal_dollars"], "newest": {n: v for n, _k, v in facts["newest"] if v}}


def test_the_recorded_facts_equal_the_graphs_answers_however_the_graph_was_made(tmp_path):
    fake = FakeExtractor(FAKE)
    cache = tmp_path / "cache"
    steps = [(["base.jar"], False), (["odd.jar", "base.jar"], True), (["lib.jar", "odd.jar", "base.jar"], True),
             (["odd.jar", "lib.jar", "base.jar"], True)]  # scratch, two updates, a reorder sharing a build
    seen = []
    for names, grown in steps:
        report = ensure_graph(cache, [artifact(n) for n in names], extractor=fake)
        assert report.incremental == grown, names
        recorded = _recorded(report.graph)
        assert recorded == _graph_answers(report.graph), names
        seen.append(recorded)
        again = ensure_graph(cache, [artifact(n) for n in names], extractor=fake)  # the up-to-date path's report
        assert not again.built and again.facts == graph_facts(read_manifest(report.graph))
    assert seen[1] == {"literal_dollars": ["odd/Odd$Name"], "newest": {"odd.jar": 65, "base.jar": 61}}


def test_a_manifest_written_before_the_facts_were_kept_asks_the_graph():
    assert graph_facts({"artifacts": [{"name": "a.jar", "kind": "jar"}], "counts": {}}) is None
    assert graph_facts({"artifacts": [{"name": "a.jar", "kind": "jar", "newest": 61}], "counts": {}}) is None
    assert graph_facts({"artifacts": [{"name": "a.jar", "kind": "jar", "newest": 61, "dollars": ["x/A$B"]},
                                      {"name": "b.jar", "kind": "jar", "newest": 52, "dollars": ["x/A$B", "w/C$"]}]}) \
        == {"newest": [("a.jar", "jar", 61), ("b.jar", "jar", 52)], "literal_dollars": ["w/C$", "x/A$B"]}


def test_a_shard_knows_its_facts_from_its_extraction_and_an_older_one_is_read(tmp_path):
    """The facts ride in each shard's meta from its extraction: a graph build reads no shard table for them, even
    while a shard store (an object store) is still writing the shard; a shard written before has its table read."""
    import json

    from jdx.loaders.manifests import shard_facts
    from jdx.loaders.shards import Shard

    report = ensure_graph(tmp_path / "cache", [artifact(n) for n in ("odd.jar", "base.jar")],
                          extractor=FakeExtractor(FAKE))
    assert report.built
    for meta_file in sorted((tmp_path / "cache" / "shards").glob("*/meta.json")):
        meta = json.loads(meta_file.read_text())
        old = {k: v for k, v in meta.items() if k not in ("newest", "dollars")}
        read = shard_facts(Shard(None, meta_file.parent, old))
        assert (meta["newest"], meta["dollars"]) == read, meta["name"]
    odd = next(json.loads(m.read_text()) for m in (tmp_path / "cache" / "shards").glob("*/meta.json")
               if json.loads(m.read_text())["name"] == "odd.jar")
    assert (odd["newest"], odd["dollars"]) == (65, ["odd/Odd$Name"])
