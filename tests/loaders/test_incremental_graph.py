"""Incremental graph updates equal builds from scratch (spec §5.2, §10.4): property test on hand-made shards.

Workspaces are grown, reordered and shrunk one step at a time in one cache (each graph derived from the
closest one already built) and compared, table by table and row by row, with the same workspace built from
scratch in a fresh cache. No JVM involved.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from jdx.graph_schema.queries import export_node, export_rel
from jdx.graph_schema.schema import ADDED, ADDED_TWINS, NODE_TABLES, REL_TABLES, expand_rel_labels
from jdx.graph_schema.search_files import read_index
from jdx.graph_schema.store import GraphStore
from jdx.loaders.indexer import ensure_graph
from tests.loaders.test_graph_build import FakeExtractor, artifact, tables

PUB, IFACE, ABSTRACT = 0x1, 0x200 | 0x400, 0x400
BASE = tables(
    types=[("java/lang/Object", "class", PUB, None), ("java/util/List", "interface", PUB | IFACE, "java/lang/Object"),
           ("java/util/AbstractList", "class", PUB | ABSTRACT, "java/lang/Object"),
           ("java/util/ArrayList", "class", PUB, "java/util/AbstractList"), ("java/lang/String", "class", PUB,
                                                                             "java/lang/Object")],
    supers=[("java/util/AbstractList", "java/util/List", 1, 0)],
    methods=[("java/lang/Object", "toString", "()Ljava/lang/String;", PUB), ("java/lang/Object", "<init>", "()V", PUB),
             ("java/util/List", "size", "()I", PUB | ABSTRACT), ("java/util/AbstractList", "size", "()I", PUB),
             ("java/util/ArrayList", "size", "()I", PUB), ("java/util/ArrayList", "<init>", "()V", PUB),
             ("java/lang/String", "length", "()I", PUB)],
    fields=[("java/util/AbstractList", "modCount", "I", PUB)],
    refs=[("java/util/ArrayList#size()I", "getfield", "java/util/ArrayList#modCount:I", 5),
          ("java/lang/Object#toString()Ljava/lang/String;", "new", "java/lang/String", 7),
          ("java/lang/Object#toString()Ljava/lang/String;", "invokestatic", "sun/misc/Hidden#peek()V", 8)],
)
LIB = tables(
    types=[("lib/Bag", "class", PUB, "java/util/ArrayList"), ("lib/Util", "class", PUB, "java/lang/Object")],
    methods=[("lib/Bag", "size", "()I", PUB), ("lib/Bag", "toString", "()Ljava/lang/String;", PUB),
             ("lib/Util", "count", "(Ljava/util/List;)I", PUB | 0x8)],
    fields=[("lib/Util", "size", "I", PUB)],
    refs=[("lib/Util#count(Ljava/util/List;)I", "invokeinterface", "java/util/List#size()I", 3),
          ("lib/Util#count(Ljava/util/List;)I", "invokevirtual", "lib/Bag#toString()Ljava/lang/String;", 4),
          ("lib/Util#count(Ljava/util/List;)I", "invokevirtual", "java/util/ArrayList#toString()Ljava/lang/String;", 5),
          ("lib/Util#count(Ljava/util/List;)I", "getfield", "lib/Bag#modCount:I", 6),
          ("lib/Util#count(Ljava/util/List;)I", "invokestatic", "sun/misc/Hidden#peek()V", 7),
          ("lib/Util#count(Ljava/util/List;)I", "invokestatic", "org/absent/Thing#go()V", 8)],
)
MORE = tables(
    types=[("more/Deep", "class", PUB, "lib/Bag"), ("more/Size", "interface", PUB | IFACE, "java/lang/Object")],
    supers=[("more/Deep", "more/Size", 1, 0)],
    methods=[("more/Deep", "size", "()I", PUB), ("more/Size", "size", "()I", PUB | ABSTRACT),
             ("more/Deep", "run", "()V", PUB)],
    refs=[("more/Deep#run()V", "invokevirtual", "more/Deep#toString()Ljava/lang/String;", 9),
          ("more/Deep#run()V", "invokestatic", "lib/Util#count(Ljava/util/List;)I", 10),
          ("more/Deep#run()V", "getstatic", "lib/Util#size:I", 11)],
)
SOLO = tables(types=[("solo/Alone", "class", PUB, "java/lang/Object")],
              methods=[("solo/Alone", "size", "()I", PUB), ("solo/Alone", "length", "()I", PUB)],
              refs=[("solo/Alone#size()I", "invokevirtual", "java/lang/String#length()I", 2)])
SHADOW = tables(types=[("lib/Util", "class", PUB, "java/lang/Object")], methods=[("lib/Util", "other", "()V", PUB)])
CORPUS = {"base.jar": BASE, "lib.jar": LIB, "more.jar": MORE, "solo.jar": SOLO, "shadow.jar": SHADOW}


def snapshot(graph: Path) -> dict:
    from jdx.graph_schema.store import read_manifest

    manifest = read_manifest(graph)
    counts = manifest["counts"]
    out = {"counts": sorted((k, v) for k, v in counts.items() if k != "types")}
    # answers take classpath positions from the manifest (a graph shared by another order holds that order's)
    order = {a["key"]: i for i, a in enumerate(manifest["artifacts"])}
    with GraphStore(graph / "graph.kz") as store:
        for label in NODE_TABLES:
            rows = store.rows(export_node(label))
            if label == "Artifact":
                rows = [{k: (order[r["id"]] if k == "position" else v) for k, v in r.items()} for r in rows]
            out[label] = sorted(map(repr, rows))
        for name, (pairs, _cols) in REL_TABLES.items():
            for src, dst in pairs:
                out[f"{name}:{src}:{dst}"] = sorted(map(repr, store.rows(export_rel(name, src, dst))))
    # the search index beside the graph: its names and symbols, whatever parts they were written in
    names, symbols = read_index(graph)
    out["search names"] = sorted(map(repr, names.to_pylist()))
    out["search symbols"] = sorted(map(repr, symbols.to_pylist()))
    return out


_SCRATCH: dict = {}


def scratch(tmp: Path, names: list[str]) -> tuple[dict, list]:
    if tuple(names) in _SCRATCH:
        return _SCRATCH[tuple(names)]
    report = ensure_graph(tmp, [artifact(n) for n in names], extractor=FakeExtractor(CORPUS))
    assert not report.incremental
    _SCRATCH[tuple(names)] = snapshot(report.graph), sorted((w.code, w.message) for w in report.warnings)
    return _SCRATCH[tuple(names)]


def grown(cache: Path, names: list[str], fake: FakeExtractor):
    report = ensure_graph(cache, [artifact(n) for n in names], extractor=fake)
    return report, snapshot(report.graph), sorted((w.code, w.message) for w in report.warnings)


@pytest.mark.soak
def test_appending_artifacts_equals_a_build_from_scratch(tmp_path):
    fake = FakeExtractor(CORPUS)
    steps = [["base.jar"], ["lib.jar", "base.jar"], ["more.jar", "lib.jar", "base.jar"],
             ["solo.jar", "more.jar", "lib.jar", "base.jar"]]
    for i, names in enumerate(steps):
        report, got, warnings = grown(tmp_path / "grown", names, fake)
        assert report.incremental == (i > 0), names
        want, want_warnings = scratch(tmp_path / f"scratch{i}", names)
        assert got == want, names
        assert warnings == want_warnings


def _answers(graph: Path) -> dict:
    """What usages, callers and calls answer on a graph, through the engine's own queries."""
    from jdx.engine.rel_calls import CallOptions, call_tree
    from jdx.engine.rel_usages import usage_sites
    from jdx.engine.relations import resolve_symbol

    with GraphStore(graph / "graph.kz") as store:
        return {
            "usages": [usage_sites(store, resolve_symbol(store, ref)) for ref in
                       ("java.util.List#size()", "java.util.AbstractList#modCount", "java.lang.String",
                        "java.lang.Object#toString()")],
            "callers": call_tree(store, "java.util.List#size()", CallOptions(depth=3), "in"),
            "calls": call_tree(store, "lib.Util#count(java.util.List)", CallOptions(depth=2), "out"),
        }


@pytest.mark.soak
def test_a_grown_graph_appends_body_edges_to_the_twin_tables_and_answers_read_both(tmp_path):
    fake = FakeExtractor(CORPUS)
    grown(tmp_path / "grown", ["base.jar"], fake)
    report = ensure_graph(tmp_path / "grown", [artifact(n) for n in ("lib.jar", "base.jar")], extractor=fake)
    assert report.incremental
    fresh = ensure_graph(tmp_path / "scratch", [artifact(n) for n in ("lib.jar", "base.jar")],
                         extractor=FakeExtractor(CORPUS))

    def counts(graph: Path) -> dict:
        with GraphStore(graph / "graph.kz") as store:
            return {n: store.rows(f"MATCH ()-[r:{n}]->() RETURN count(r) AS n")[0]["n"]
                    for t in ADDED_TWINS for n in (t, t + ADDED)}

    grew, built = counts(report.graph), counts(fresh.graph)
    # a build from scratch leaves the twins empty; an update appends the joined jar's body edges there only
    assert all(built[t + ADDED] == 0 for t in ADDED_TWINS)
    assert grew["INVOKES_ADDED"] >= 3 and grew["READS_ADDED"] >= 1
    with GraphStore(report.graph / "graph.kz") as store:
        assert store.rows("MATCH (c:Method)-[r:INVOKES]->() WHERE c.artifact_name = 'lib' RETURN count(r) AS n") \
            == [{"n": 0}]
        # a user's Cypher (jdx cypher, notebooks) sees one documented table whichever twin holds the row
        mine = "WHERE c.owner STARTS WITH 'lib/' RETURN label(r) AS l, count(*) AS n ORDER BY l"
        by_label = store.rows(expand_rel_labels(f"MATCH (c:Method)-[r]->(m:Method) {mine}"))
        assert by_label and {r["l"] for r in by_label} <= {"INVOKES", "OVERRIDES"}, by_label
        assert store.rows(expand_rel_labels(f"MATCH (c:Method)-[r:INVOKES]->(m:Method) {mine}")) == \
            [r for r in by_label if r["l"] == "INVOKES"]
    for t in ADDED_TWINS:
        assert grew[t] + grew[t + ADDED] == built[t], t
    assert _answers(report.graph) == _answers(fresh.graph)
    assert any(s["caller"].startswith("lib.Util#count") for s in _answers(report.graph)["usages"][0])


def test_user_cypher_over_a_twinned_table_matches_its_twin_too():
    assert expand_rel_labels("MATCH (c)-[r:INVOKES]->(m)") == "MATCH (c)-[r:INVOKES|INVOKES_ADDED]->(m)"
    assert expand_rel_labels("MATCH ()-[:READS|WRITES*1..2]->()") == \
        "MATCH ()-[:READS|READS_ADDED|WRITES|WRITES_ADDED*1..2]->()"
    assert expand_rel_labels("MATCH ()-[r:REFERENCES {kind: 'new'}]->()") == \
        "MATCH ()-[r:REFERENCES|REFERENCES_ADDED {kind: 'new'}]->()"
    for untouched in ("MATCH ()-[:EXTENDS|IMPLEMENTS]->()", "MATCH ()-[r:INVOKES_ADDED]->()",
                      "RETURN [x IN l WHERE x:INVOKES]", "RETURN l[1:2]", "MATCH (n:INVOKES) RETURN n"):
        assert expand_rel_labels(untouched) == untouched


def test_every_engine_query_over_a_twinned_table_matches_its_twin():
    from jdx.graph_schema import queries, queries_graph, queries_samples

    texts = []
    for module in (queries, queries_graph, queries_samples):
        for value in vars(module).values():
            if isinstance(value, str):
                texts.append(value)
            elif isinstance(value, queries_graph.ByIds):
                texts.extend(v for v in vars(value).values() if isinstance(v, str))
                texts.extend(v for b in [value.by_offset] if b for v in vars(b).values() if isinstance(v, str))
    checked = [t for t in texts if any(f":{n}" in t for n in ADDED_TWINS)]
    assert len(checked) >= 6
    for text in checked:
        assert expand_rel_labels(text) == text, text


@pytest.mark.soak  # the default tier keeps the appending case
def test_reordering_and_removing_equal_builds_from_scratch(tmp_path):
    fake = FakeExtractor(CORPUS)
    grown(tmp_path / "grown", ["solo.jar", "more.jar", "lib.jar", "base.jar"], fake)
    for i, names in enumerate([["lib.jar", "more.jar", "solo.jar", "base.jar"], ["more.jar", "lib.jar", "base.jar"],
                               ["solo.jar", "base.jar"]]):
        report, got, _ = grown(tmp_path / "grown", names, fake)
        want, _ = scratch(tmp_path / f"scratch{i}", names)
        assert got == want, names
        # a reorder only moves rows; a classpath that lost an artifact grows from a graph that never held it
        assert report.incremental == (i == 0) or names == ["solo.jar", "base.jar"], names
    report, got, _ = grown(tmp_path / "grown", ["base.jar"], fake)
    report, got, _ = grown(tmp_path / "grown", ["solo.jar", "base.jar"], fake)
    assert not report.built  # built before
    report, got, _ = grown(tmp_path / "grown", ["more.jar", "base.jar"], fake)
    assert report.incremental and got == scratch(tmp_path / "s-more", ["more.jar", "base.jar"])[0]


@pytest.mark.soak
def test_updates_that_would_differ_fall_back_to_a_full_build(tmp_path):
    fake = FakeExtractor(CORPUS)
    grown(tmp_path / "grown", ["lib.jar", "base.jar"], fake)
    report, got, warnings = grown(tmp_path / "grown", ["shadow.jar", "lib.jar", "base.jar"], fake)
    assert not report.incremental  # shadow.jar shadows lib/Util
    want, want_warnings = scratch(tmp_path / "s1", ["shadow.jar", "lib.jar", "base.jar"])
    assert got == want and warnings == want_warnings and any(c == "DUPLICATE_CLASS" for c, _ in warnings)
    grown(tmp_path / "g2", ["more.jar", "base.jar"], fake)  # more.jar refers to lib.jar's classes
    report, got, _ = grown(tmp_path / "g2", ["more.jar", "lib.jar", "base.jar"], fake)
    assert not report.incremental  # adding lib.jar would turn external nodes into declared ones
    assert got == scratch(tmp_path / "s2", ["more.jar", "lib.jar", "base.jar"])[0]


@pytest.mark.parametrize("seed,steps", [pytest.param(1, 3, marks=pytest.mark.soak), pytest.param(2, 4, marks=pytest.mark.soak)])
def test_random_walks_over_workspaces_equal_builds_from_scratch(tmp_path, seed, steps):
    rng = random.Random(seed)
    fake = FakeExtractor(CORPUS)
    pool = ["solo.jar", "more.jar", "lib.jar", "shadow.jar"]
    for step in range(steps):
        chosen = rng.sample(pool, rng.randint(0, len(pool)))
        names = chosen + ["base.jar"]
        _, got, warnings = grown(tmp_path / "grown", names, fake)
        want, want_warnings = scratch(tmp_path / f"scratch{step}", names)
        assert got == want, names
        assert warnings == want_warnings, names


def _shard_reads(monkeypatch) -> list[tuple[str, str]]:
    from jdx.loaders import shards

    reads: list[tuple[str, str]] = []
    original = shards.Shard.table

    def table(self, name, columns=None):
        reads.append((self.artifact.name, name))
        return original(self, name, columns)

    monkeypatch.setattr(shards.Shard, "table", table)
    return reads


@pytest.mark.soak
def test_an_update_reads_the_rest_of_the_classpath_from_its_base_builds_context(tmp_path, monkeypatch):
    """Growing a graph reads the shards of the artifacts that joined only; what the base already holds comes from
    the base build's context files, and the grown graph equals a build from scratch (and keeps a context too)."""
    fake = FakeExtractor(CORPUS)
    first, _, _ = grown(tmp_path / "grown", ["lib.jar", "base.jar"], fake)
    assert sorted(p.name for p in (first.graph / "context").iterdir()) == [
        "declared_fields.arrow", "declared_methods.arrow", "members.arrow", "supertypes.arrow", "types.arrow"]
    reads = _shard_reads(monkeypatch)
    report, got, warnings = grown(tmp_path / "grown", ["more.jar", "lib.jar", "base.jar"], fake)
    assert report.incremental and report.added == 1
    assert {a for a, _ in reads} == {"more.jar"}, reads
    want, want_warnings = scratch(tmp_path / "scratch", ["more.jar", "lib.jar", "base.jar"])
    assert got == want and warnings == want_warnings
    reads.clear()
    report, got, _ = grown(tmp_path / "grown", ["solo.jar", "more.jar", "lib.jar", "base.jar"], fake)
    assert report.incremental and {a for a, _ in reads} == {"solo.jar"}, reads  # grown from the grown graph
    assert got == scratch(tmp_path / "scratch2", ["solo.jar", "more.jar", "lib.jar", "base.jar"])[0]


@pytest.mark.soak
@pytest.mark.parametrize("damaged", [False, True])
def test_an_update_reads_its_bases_declared_members_as_codes_the_build_kept(tmp_path, monkeypatch, damaged):
    """A build keeps its declared members as resolution codes; an update grown from it codes only the members of
    the artifacts that joined (a damaged file: it codes the base's again), and equals a build from scratch."""
    from jdx.loaders import build_context, resolution

    fake = FakeExtractor(CORPUS)
    first, _, _ = grown(tmp_path / "grown", ["lib.jar", "base.jar"], fake)
    if damaged:
        (first.graph / "context" / "declared_methods.arrow").write_bytes(b"not an arrow file")
    build_context._LOADED.clear()  # a fresh process
    coded: list[int] = []
    original = resolution.Declared.of.__func__

    def of(cls, ids):
        coded.append(len(ids))
        return original(cls, ids)

    monkeypatch.setattr(resolution.Declared, "of", classmethod(of))
    report, got, warnings = grown(tmp_path / "grown", ["more.jar", "lib.jar", "base.jar"], fake)
    assert report.incremental
    assert coded == ([10, 2] if damaged else []), coded  # the base's 10 methods and 2 fields, only when damaged
    assert (got, warnings) == scratch(tmp_path / "scratch", ["more.jar", "lib.jar", "base.jar"])


@pytest.mark.soak
def test_a_base_build_without_its_context_is_grown_from_the_shards(tmp_path, monkeypatch):
    """The context is a cache: a base build without it (written by an older jdx, or damaged) reads the shards."""
    fake = FakeExtractor(CORPUS)
    first, _, _ = grown(tmp_path / "grown", ["lib.jar", "base.jar"], fake)
    (first.graph / "context" / "members.arrow").write_bytes(b"not an arrow file")
    reads = _shard_reads(monkeypatch)
    report, got, warnings = grown(tmp_path / "grown", ["more.jar", "lib.jar", "base.jar"], fake)
    assert report.incremental and {"lib.jar", "base.jar"} <= {a for a, _ in reads}
    want, want_warnings = scratch(tmp_path / "scratch", ["more.jar", "lib.jar", "base.jar"])
    assert got == want and warnings == want_warnings


def _with_kotlin(t: dict, decls: list[tuple[str, str, str, list[str]]]) -> dict:
    """A fake artifact's tables with a `kotlin` table: (owner, kind, name, jvm links) per declaration."""
    import pyarrow as pa

    from jdx.loaders.kotlin_shard import SCHEMA

    rows = {c: [] for c in SCHEMA.names}
    for i, (owner, kind, name, jvm) in enumerate(decls):
        for c, v in (("id", f"{owner}#kotlin:{kind}:{name}:{i}"), ("owner", owner), ("kind", kind), ("name", name),
                     ("position", i), ("visibility", "public"), ("modality", "final"), ("flags", []),
                     ("signature", f"fun {name}(): Int"), ("detail", None), ("jvm", jvm), ("facade", None)):
            rows[c].append(v)
    return dict(t, kotlin=pa.table(rows, schema=SCHEMA))


@pytest.mark.soak
def test_a_graph_holding_kotlin_declarations_grows_without_a_full_build(tmp_path):
    """An update appends the Kotlin declarations of the artifacts that joined only (the base's are in the graph)."""
    kt = _with_kotlin(tables(types=[("kt/Box", "class", PUB, "java/lang/Object")],
                             methods=[("kt/Box", "get", "()I", PUB)]),
                      [("kt/Box", "function", "get", ["function:kt/Box#get()I"])])
    corpus = dict(CORPUS, **{"kt.jar": kt})
    fake = FakeExtractor(corpus)
    grown(tmp_path / "grown", ["kt.jar", "base.jar"], fake)
    report, got, warnings = grown(tmp_path / "grown", ["lib.jar", "kt.jar", "base.jar"], fake)
    assert report.incremental and report.added == 1
    want = ensure_graph(tmp_path / "scratch", [artifact(n) for n in ["lib.jar", "kt.jar", "base.jar"]],
                        extractor=FakeExtractor(corpus))
    assert got == snapshot(want.graph)
    assert any("kt/Box#kotlin:function:get" in row for row in got["KotlinDecl"])


@pytest.mark.soak
def test_updates_from_one_base_in_one_process_reuse_its_member_keys(tmp_path):
    """A long-lived process (a daemon following edits) grows each new graph from the same base: the second update
    reuses the base's context and member keys read by the first, and both equal builds from scratch."""
    from jdx.loaders import build_context

    fake = FakeExtractor(CORPUS)
    base, _, _ = grown(tmp_path / "grown", ["lib.jar", "base.jar"], fake)
    first, got, _ = grown(tmp_path / "grown", ["more.jar", "lib.jar", "base.jar"], fake)
    assert first.incremental and got == scratch(tmp_path / "s1", ["more.jar", "lib.jar", "base.jar"])[0]
    kept = build_context._LOADED.get(base.graph)
    assert kept is not None and kept.declared is not None
    assert "java/util/List#size()I" in kept.declared[0] and "lib/Util#size:I" in kept.declared[1]
    assert "lib/Util#size:I" not in kept.declared[0] and "java/util/List#size()I" not in kept.declared[1]
    assert not any(o.startswith("more/") for o in kept.declared[0].owners)  # the update's own keys stay its own
    second, got, _ = grown(tmp_path / "grown", ["solo.jar", "lib.jar", "base.jar"], fake)
    assert second.incremental and build_context._LOADED.get(base.graph) is kept
    assert got == scratch(tmp_path / "s2", ["solo.jar", "lib.jar", "base.jar"])[0]


@pytest.mark.soak
def test_a_context_written_for_other_artifacts_is_not_trusted(tmp_path, monkeypatch):
    """Context files name the artifacts their positions stand for: one that names others (a build directory
    assembled by hand, a file copied between builds) is ignored and the shards are read."""
    import shutil

    fake = FakeExtractor(CORPUS)
    first, _, _ = grown(tmp_path / "grown", ["lib.jar", "base.jar"], fake)
    other, _, _ = grown(tmp_path / "other", ["solo.jar", "base.jar"], fake)
    shutil.copyfile(other.graph / "context" / "types.arrow", first.graph / "context" / "types.arrow")
    reads = _shard_reads(monkeypatch)
    report, got, _ = grown(tmp_path / "grown", ["more.jar", "lib.jar", "base.jar"], fake)
    assert report.incremental and {"lib.jar", "base.jar"} <= {a for a, _ in reads}
    assert got == scratch(tmp_path / "scratch", ["more.jar", "lib.jar", "base.jar"])[0]


@pytest.mark.soak
def test_a_superseded_build_is_removed_after_the_update_answers(tmp_path):
    """A changed class directory's graph replaces the build it superseded: renamed aside at once, deleted on a side
    thread; what a killed process left aside goes with the next build's sweep."""
    import threading

    from jdx.loaders.roots import Artifact

    def classes(key: str) -> Artifact:
        return Artifact("dir", "/fake/classes", "solo.jar", key.ljust(32, "0")[:32], "dir:/fake/classes")

    def settle() -> None:
        for t in threading.enumerate():
            if t.name == "jdx-graph-sweep":
                t.join(timeout=60)

    fake = FakeExtractor(CORPUS)
    cache = tmp_path / "cache"
    first = ensure_graph(cache, [classes("one"), artifact("base.jar")], extractor=fake)
    root = first.graph.parent
    second = ensure_graph(cache, [classes("two"), artifact("base.jar")], extractor=fake)
    assert second.incremental and second.graph.parent == root
    settle()
    assert sorted(p.name for p in root.iterdir() if p.name not in (".lock", ".used")) == sorted(
        ["current", second.graph.name])
    (root / ".superseded-b0-999999").mkdir()  # left by a process killed before its side thread ended
    third = ensure_graph(cache, [classes("three"), artifact("base.jar")], extractor=fake)
    settle()
    assert sorted(p.name for p in root.iterdir() if p.name not in (".lock", ".used")) == sorted(
        ["current", third.graph.name])


def test_an_update_shares_its_bases_search_index_and_adds_one_part(tmp_path):
    """The base's search parts are hard-linked into the grown build (no byte copied), the joined artifacts
    get a part of their own, and search ranks follow the new classpath order."""
    from jdx.engine.search_index import NameIndex

    cache = tmp_path / "cache"
    fake = FakeExtractor(CORPUS)
    base = ensure_graph(cache, [artifact("base.jar")], extractor=fake).graph
    grown = ensure_graph(cache, [artifact("lib.jar"), artifact("base.jar")], extractor=fake)
    assert grown.incremental
    parts = sorted(p.name for p in (grown.graph / "search").iterdir())
    assert parts == ["part-000.names.arrow", "part-000.symbols.arrow", "part-001.names.arrow",
                     "part-001.symbols.arrow"]
    for name in parts[:2]:
        assert (grown.graph / "search" / name).stat().st_ino == (base / "search" / name).stat().st_ino
    with GraphStore(grown.graph / "graph.kz") as store:
        index = NameIndex(store)
        rows = index.named("size")
        assert [(r["owner"], r["kind"]) for r in rows][:1] == [("lib/Bag", "method")]  # the jar first
        assert {r["rank"] for r in rows if r["owner"].startswith("java/")} == {(1 << 20) + 1}  # base.jar: the second jar


@pytest.mark.parametrize("damage", ["missing", "truncated"])
def test_a_missing_or_damaged_search_index_is_no_index_with_the_way_out(tmp_path, damage):
    from jdx.engine.search_index import NameIndex
    from jdx.errors import NoIndexError

    graph = ensure_graph(tmp_path / "cache", [artifact("base.jar")], extractor=FakeExtractor(CORPUS)).graph
    part = graph / "search" / "part-000.symbols.arrow"
    if damage == "missing":
        for p in (graph / "search").iterdir():
            p.unlink()
    else:
        part.write_bytes(part.read_bytes()[:100])
    with GraphStore(graph / "graph.kz") as store, pytest.raises(NoIndexError) as caught:
        NameIndex(store)
    assert "jdx index --force" in str(caught.value) and "\n" not in str(caught.value)


@pytest.mark.soak
def test_the_same_jars_in_another_order_share_one_graph(tmp_path):
    """A reordered classpath without shadowed classes builds nothing: its build hard-links the graph file and
    search index of the other order's, only its manifest is its own, and answers (positions, search ranks,
    every table as the manifest orders it) equal a build from scratch of that order."""
    from jdx.engine.relations import Artifacts
    from jdx.engine.search import artifact_table

    cache = tmp_path / "cache"
    fake = FakeExtractor(CORPUS)
    first = ensure_graph(cache, [artifact(n) for n in ("lib.jar", "more.jar", "base.jar")], extractor=fake).graph
    names = ["more.jar", "base.jar", "lib.jar"]
    report, got, warnings = grown(cache, names, fake)
    assert report.incremental and report.phases.get("share") is not None and "update" not in report.phases
    assert (report.graph / "graph.kz").stat().st_ino == (first / "graph.kz").stat().st_ino
    assert (report.graph / "search" / "part-000.symbols.arrow").stat().st_ino == \
        (first / "search" / "part-000.symbols.arrow").stat().st_ino
    want, want_warnings = scratch(tmp_path / "scratch", names)
    assert got == want and warnings == want_warnings
    keys = [artifact(n).key for n in names]
    with GraphStore(report.graph / "graph.kz") as store:
        assert [Artifacts.of(store).position(k) for k in keys] == [0, 1, 2]
        assert [a["id"] for a in sorted(artifact_table(store), key=lambda a: a["rank"])] == keys
    # a graph grown from the shared build rewrites the positions its graph file holds
    more = ensure_graph(cache, [artifact(n) for n in ("solo.jar", *names)], extractor=fake)
    assert more.incremental and "update" in more.phases
    assert snapshot(more.graph) == scratch(tmp_path / "scratch-solo", ["solo.jar", *names])[0]
    with GraphStore(more.graph / "graph.kz") as store:
        assert sorted((r["a.position"], r["a.id"]) for r in store.rows("MATCH (a:Artifact) RETURN a.position, a.id")) \
            == [(i, artifact(n).key) for i, n in enumerate(["solo.jar", *names])]


@pytest.mark.soak
def test_a_reorder_with_shadowed_classes_is_not_shared(tmp_path):
    fake = FakeExtractor(CORPUS)
    cache = tmp_path / "cache"
    ensure_graph(cache, [artifact(n) for n in ("lib.jar", "shadow.jar", "base.jar")], extractor=fake)
    report, got, _ = grown(cache, ["shadow.jar", "lib.jar", "base.jar"], fake)
    assert "share" not in report.phases
    assert got == scratch(tmp_path / "scratch", ["shadow.jar", "lib.jar", "base.jar"])[0]


@pytest.mark.soak
def test_a_shared_build_that_cannot_be_linked_grows_a_graph_instead(tmp_path, monkeypatch):
    """The other order's build vanishing between choosing and linking it (a newer build swept it) is no error:
    the reordered workspace grows its own graph, equal to a build from scratch."""
    import jdx.graph_schema.store as store_mod

    fake = FakeExtractor(CORPUS)
    cache = tmp_path / "cache"
    ensure_graph(cache, [artifact(n) for n in ("lib.jar", "more.jar", "base.jar")], extractor=fake)

    def vanished(*_args, **_kw):
        raise FileNotFoundError("graph.kz")

    monkeypatch.setattr(store_mod, "share_build", vanished)
    names = ["base.jar", "more.jar", "lib.jar"]
    report, got, _ = grown(cache, names, fake)
    assert "share" not in report.phases and report.built
    assert got == scratch(tmp_path / "scratch", names)[0]


@pytest.mark.soak
def test_a_reader_searches_its_build_after_a_newer_build_swept_it(tmp_path):
    """A reader opens a build; before its first search a newer build of the workspace sweeps the old one: the
    reader still searches the build it opened (its index files are held open with the graph)."""
    import shutil

    from jdx.engine.search_index import NameIndex

    graph = ensure_graph(tmp_path / "cache", [artifact("base.jar")], extractor=FakeExtractor(CORPUS)).graph
    with GraphStore(graph / "graph.kz") as store:
        shutil.rmtree(graph / "search")
        assert [r["owner"] for r in NameIndex(store).named("size")] == ["java/util/AbstractList",
                                                                         "java/util/ArrayList", "java/util/List"]


@pytest.mark.soak
def test_a_build_writes_the_member_context_artifact_by_artifact_and_it_equals_the_whole(tmp_path):
    """The members' context is written one artifact's part at a time as the members are read (the build never
    holds the classpath's), and the file holds exactly the rows of the shards in classpath order, labelled with
    the artifact keys."""
    import pyarrow as pa

    from jdx.loaders.build_context import CONTEXT_COLUMNS, KEYS
    from jdx.loaders.graph_build import build_graph_tables
    from jdx.loaders.shards import load_shard

    names = ["more.jar", "lib.jar", "base.jar"]
    report = ensure_graph(tmp_path / "cache", [artifact(n) for n in names], extractor=FakeExtractor(CORPUS))
    shards = [load_shard(tmp_path / "cache", artifact(n)) for n in names]
    keys = [s.artifact.key for s in shards]
    want = pa.concat_tables([
        s.table("members", CONTEXT_COLUMNS["members"]).append_column(
            "pos", pa.array([pos] * s.table("members").num_rows, pa.int32()))
        for pos, s in enumerate(shards)])
    with pa.memory_map(str(report.graph / "context" / "members.arrow")) as source:
        got = pa.ipc.open_file(source).read_all()
    assert got.select(want.column_names).to_pylist() == want.to_pylist()
    assert json.loads(got.schema.metadata[KEYS]) == keys

    class Recording:  # a sink that keeps the context part by part
        def __init__(self):
            self.calls: list[tuple] = []

        def nodes(self, label, table):
            self.calls.append(("nodes", label))

        def rels(self, name, src, dst, table):
            pass

        def context(self, name, table):
            self.calls.append(("context", name))

        def context_part(self, name, table):
            self.calls.append(("part", name, sorted(set(table["pos"].to_pylist()))))

        def context_done(self, name):
            self.calls.append(("done", name))

    sink = Recording()
    build_graph_tables([load_shard(tmp_path / "cache", artifact(n)) for n in names], sink)
    parts = [c for c in sink.calls if c[:2] == ("part", "members")]
    assert [c[2] for c in parts] == [[0], [1], [2]]  # one part per artifact, in classpath order
    members_done = sink.calls.index(("done", "members"))
    assert sink.calls.index(parts[-1]) < members_done < sink.calls.index(("nodes", "Method"))
    assert ("context", "members") not in sink.calls


def test_a_context_file_that_cannot_be_written_whole_fails_instead_of_half_written(tmp_path):
    import pyarrow as pa

    from jdx.graph_schema.store import ContextAppender

    path = tmp_path / "context" / "members.arrow"
    appender = ContextAppender(path)
    appender.add(pa.table({"id": ["a"], "pos": pa.array([0], pa.int32())}))
    appender.add(pa.table({"other": [1.5]}))  # a part that does not fit the file's columns
    appender.add(pa.table({"id": ["b"], "pos": pa.array([1], pa.int32())}))
    with pytest.raises(Exception):
        appender.close()
    with pytest.raises(ValueError):
        ContextAppender(tmp_path / "none.arrow").close()  # no part at all: nothing to stand for the table
    fine = ContextAppender(tmp_path / "fine.arrow")
    for pos in range(3):
        fine.add(pa.table({"id": pa.array([f"x{pos}"] * pos, pa.string()), "pos": pa.array([pos] * pos, pa.int32())}))
    fine.close()
    with pa.memory_map(str(tmp_path / "fine.arrow")) as source:
        assert pa.ipc.open_file(source).read_all()["id"].to_pylist() == ["x1", "x2", "x2"]


def test_member_nodes_are_handed_over_artifact_by_artifact_and_equal_the_whole(tmp_path):
    """A sink that takes node tables in parts gets each artifact's methods and fields as it is read (the build never
    holds the classpath's member nodes), and the rows equal those a sink taking whole tables gets."""
    from jdx.loaders.graph_build import build_graph_tables
    from jdx.loaders.shards import load_shard

    names = ["more.jar", "lib.jar", "base.jar"]
    ensure_graph(tmp_path / "cache", [artifact(n) for n in names], extractor=FakeExtractor(CORPUS))

    class Whole:
        def __init__(self):
            self.nodes_seen: dict[str, list] = {}

        def nodes(self, label, table):
            self.nodes_seen.setdefault(label, []).extend(table.to_pylist())

        def rels(self, name, src, dst, table):
            pass

    class Parts(Whole):
        def __init__(self):
            super().__init__()
            self.calls: list[tuple] = []

        def nodes_part(self, label, table):
            self.calls.append(("part", label, sorted(set(table["artifact"].to_pylist()))))
            self.nodes_seen.setdefault(label, []).extend(table.to_pylist())

        def nodes_done(self, label):
            self.calls.append(("done", label))

    def shards():
        return [load_shard(tmp_path / "cache", artifact(n)) for n in names]

    whole, parts = Whole(), Parts()
    build_graph_tables(shards(), whole)
    build_graph_tables(shards(), parts)
    keys = [s.artifact.key for s in shards()]
    methods = [c[2] for c in parts.calls if c[:2] == ("part", "Method")]
    assert methods == [[k] for k in keys]  # one part per artifact, in classpath order
    assert parts.calls.count(("done", "Method")) == 1 and parts.calls.count(("done", "Field")) == 1
    for label in ("Method", "Field"):
        assert sorted(map(repr, whole.nodes_seen[label])) == sorted(map(repr, parts.nodes_seen[label]))


@pytest.mark.soak
def test_node_tables_copied_in_several_statements_equal_one_copy(tmp_path, monkeypatch):
    """A node table spooled in parts goes to the database in statements of NODE_COPY_ROWS rows (Kùzu holds a node
    COPY in memory); the graph, and a graph grown from it, equal builds copying each table at once."""
    from jdx.graph_schema import store

    names = ["more.jar", "lib.jar", "base.jar"]
    want, _ = scratch(tmp_path / "whole", names)
    grown_want, _ = scratch(tmp_path / "whole-grown", ["solo.jar", *names])
    copies: list[tuple[str, int]] = []
    copy_file = store.GraphStore._copy_file

    def recording(self, name, path, src=None, dst=None):
        if src is None:
            import pyarrow.parquet as pq

            copies.append((name, pq.ParquetFile(path).metadata.num_rows))
        return copy_file(self, name, path, src, dst)

    monkeypatch.setattr(store, "SPOOL_ROW_GROUP", 2)
    monkeypatch.setattr(store, "NODE_COPY_ROWS", 4)
    monkeypatch.setattr(store.GraphStore, "_copy_file", recording)
    fake = FakeExtractor(CORPUS)
    report, got, _ = grown(tmp_path / "split", names, fake)
    assert not report.incremental and got == want
    methods = [rows for name, rows in copies if name == "Method"]
    assert len(methods) > 1 and all(rows <= 4 for rows in methods), copies
    assert sum(methods) == len(want["Method"])  # (the external methods in one more statement)
    report, got, _ = grown(tmp_path / "split", ["solo.jar", *names], fake)
    assert report.incremental and got == grown_want


def _module(name: str):
    """A JDK module (`jrt`) of the hand-made corpus."""
    from jdx.loaders.roots import Artifact

    return Artifact("jrt", f"jrt:/{name}", name, f"jrt-{name}".ljust(32, "0")[:32], f"jrt:{name}")


@pytest.mark.soak  # two JDK-sized builds (~4 s)
def test_a_first_workspace_over_the_jdk_keeps_the_jdks_graph_for_the_next(tmp_path):
    """Nearly every workspace holds the JDK: the first one built keeps the JDK's own graph and grows from it, so a
    second workspace over the same JDK appends its jar instead of rebuilding the JDK's rows. Both equal builds
    from scratch; a workspace whose jars outweigh the JDK is built from scratch as before."""
    from jdx.loaders.indexer import fresh_graph

    fake = FakeExtractor({"base": BASE, **CORPUS})
    jdk = _module("base")
    cache = tmp_path / "grown"
    for names in (["lib.jar"], ["solo.jar"]):
        wanted = [artifact(n) for n in names] + [jdk]
        phases: list[tuple[str, int]] = []
        report = ensure_graph(cache, wanted, extractor=fake, progress=lambda stage, done, total, note="":
                              phases.append((stage, done)))
        assert report.incremental and report.added == 1, names
        graphs = [p for p in phases if p[0] != "extract"]  # the JDK's graph says its own phase (built once)
        assert graphs == ([("jdk-graph", 0), ("jdk-graph", 1)] if names == ["lib.jar"] else []) \
            + [("graph", 0), ("graph", 1)], phases
        assert fresh_graph(cache, [jdk]) is not None
        want = ensure_graph(tmp_path / f"scratch-{names[0]}", wanted, extractor=fake, force=True)
        assert not want.incremental
        assert snapshot(report.graph) == snapshot(want.graph)
    assert len([p for p in (cache / "graphs").iterdir() if not p.name.startswith(".")]) == 3

    heavy = tmp_path / "heavy"  # these jars hold more classes (6) than this JDK (5): no JDK graph of its own
    jars = [artifact(n) for n in ("lib.jar", "more.jar", "solo.jar", "shadow.jar")]
    report = ensure_graph(heavy, jars + [jdk], extractor=fake)
    assert not report.incremental and fresh_graph(heavy, [jdk]) is None
