"""The classpath context a build keeps beside its graph is kept in parts labelled with their artifacts
(`jdx.graph_schema.context_files`): an update links its base's parts and writes the joined artifacts' rows only, and
every later update, on any order of the same artifacts, reads them back as if one build had written them."""

from __future__ import annotations

import os

import pyarrow as pa
import pytest

from jdx.graph_schema.context_files import (
    DECLARED,
    TABLES,
    compression_for,
    only_artifacts,
    part_keys,
    parts,
    read_part,
    with_artifact_keys,
)
from jdx.loaders.build_context import load_base_context
from jdx.loaders.indexer import ensure_graph
from tests.loaders.test_graph_build import FakeExtractor, artifact
from tests.loaders.test_incremental_graph import CORPUS, _shard_reads, grown, scratch


def _key(name: str) -> str:
    return artifact(name).key


def _inode(path) -> tuple[int, int]:
    st = os.stat(path)
    return st.st_dev, st.st_ino


def test_an_update_links_its_bases_parts_and_writes_the_joined_artifacts_rows_only(tmp_path):
    """Fails if an update writes its base's rows again: its own parts hold the joined artifact's rows alone (more.jar
    declares no field: its declared-fields part is empty but still names it)."""
    fake = FakeExtractor(CORPUS)
    base, _, _ = grown(tmp_path / "g", ["lib.jar", "base.jar"], fake)
    report, got, _ = grown(tmp_path / "g", ["more.jar", "lib.jar", "base.jar"], fake)
    assert report.incremental
    folder, base_folder = report.graph / "context", base.graph / "context"
    for table in (*TABLES, *DECLARED):
        found = parts(folder, table)
        assert [p.name for p in found][0] == f"{table}.arrow", found
        assert len(found) == 2, found  # the base's, linked, and this update's
        assert _inode(found[0]) == _inode(base_folder / f"{table}.arrow")  # one inode: no byte copied
        assert part_keys(found[0]) == [_key("lib.jar"), _key("base.jar")]
        assert part_keys(found[1]) == [_key("more.jar")]  # the base's rows are never written again
        rows, _ = read_part(found[1])
        if "pos" in rows.column_names:
            assert set(rows["pos"].to_pylist()) <= {0}
        owners = [str(o) for o in rows["owner" if table != "types" and table != "supertypes" else
                                       ("name" if table == "types" else "type")].to_pylist()]
        assert (owners or table == "declared_fields") and all(o.startswith("more/") for o in owners), (table, owners)
    # the next update reads the three artifacts' context from the two parts, in the new classpath's order
    context = load_base_context(report.graph, [_key(n) for n in ("more.jar", "lib.jar", "base.jar")])
    assert context is not None
    names = [t["name"].to_pylist() for t in context.tables["types"]]
    assert names[0] == ["more/Deep", "more/Size"] and "lib/Bag" in names[1] and "java/lang/Object" in names[2]
    # a classpath those parts do not hold exactly (an artifact missing, or one more) is not answered from them
    assert load_base_context(report.graph, [_key(n) for n in ("more.jar", "base.jar")]) is None
    assert load_base_context(report.graph, [_key(n) for n in ("solo.jar", "more.jar", "lib.jar", "base.jar")]) is None


@pytest.mark.soak
def test_a_reordered_workspace_shares_the_parts_and_an_update_grown_from_it_reads_them(tmp_path, monkeypatch):
    fake = FakeExtractor(CORPUS)
    first, _, _ = grown(tmp_path / "g", ["lib.jar", "base.jar"], fake)
    shared, got, _ = grown(tmp_path / "g", ["base.jar", "lib.jar"], fake)
    assert "share" in shared.phases and "update" not in shared.phases  # another order of the same artifacts: no build
    for table in TABLES:
        assert _inode(shared.graph / "context" / f"{table}.arrow") == _inode(first.graph / "context" / f"{table}.arrow")
    assert load_base_context(shared.graph, [_key("base.jar"), _key("lib.jar")]) is not None
    reads = _shard_reads(monkeypatch)
    report, got, warnings = grown(tmp_path / "g", ["solo.jar", "base.jar", "lib.jar"], fake)
    assert report.incremental and {a for a, _ in reads} == {"solo.jar"}, reads
    assert (got, warnings) == scratch(tmp_path / "s", ["solo.jar", "base.jar", "lib.jar"])


@pytest.mark.soak
def test_declared_codes_kept_for_another_order_are_not_read_for_it(tmp_path):
    """Declared codes follow the classpath order they were made for (which copy of a shadowed class wins): parts
    written for [lib, base] stand for that order, not for [base, lib] (an update then codes the members again)."""
    from jdx.loaders.build_context import _read_declared

    fake = FakeExtractor(CORPUS)
    first, _, _ = grown(tmp_path / "g", ["lib.jar", "base.jar"], fake)
    shared, _, _ = grown(tmp_path / "g", ["base.jar", "lib.jar"], fake)
    lib_base, base_lib = [_key("lib.jar"), _key("base.jar")], [_key("base.jar"), _key("lib.jar")]
    methods, fields = _read_declared(first.graph / "context", lib_base)
    assert "java/util/List#size()I" in methods and "lib/Util#size:I" in fields
    assert _read_declared(shared.graph / "context", base_lib) is None
    assert _read_declared(first.graph / "context", lib_base[:1]) is None  # an artifact the codes hold is not wanted
    grown_report, _, _ = grown(tmp_path / "g", ["more.jar", "lib.jar", "base.jar"], fake)
    methods, _ = _read_declared(grown_report.graph / "context", [_key("more.jar"), *lib_base])
    assert "more/Deep#run()V" in methods and "java/util/List#size()I" in methods  # the parts combined


@pytest.mark.soak
def test_a_part_naming_an_artifact_twice_or_a_stray_artifact_is_not_trusted(tmp_path):
    fake = FakeExtractor(CORPUS)
    report, _, _ = grown(tmp_path / "g", ["lib.jar", "base.jar"], fake)
    folder = report.graph / "context"
    keys = [_key("lib.jar"), _key("base.jar")]
    assert load_base_context(report.graph, keys) is not None
    rows, found = read_part(folder / "types.arrow")
    stray = folder / "types.20990101T000000-0000.arrow"  # a later part holding lib.jar's rows again
    with pa.OSFile(str(stray), "wb") as sink, pa.ipc.new_file(sink, rows.schema) as writer:
        writer.write_table(only_artifacts(rows, {_key("lib.jar")}))
    from jdx.loaders import build_context

    build_context._LOADED.clear()
    assert load_base_context(report.graph, keys) is None
    stray.unlink()
    build_context._LOADED.clear()
    assert load_base_context(report.graph, keys) is not None


def test_only_artifacts_relabels_positions():
    table = with_artifact_keys(pa.table({"name": ["a", "b", "c", "d"], "pos": pa.array([0, 1, 1, 2], pa.int32())}),
                               ["k0", "k1", "k2"])
    kept = only_artifacts(table, {"k2", "k1"})
    assert kept["name"].to_pylist() == ["b", "c", "d"] and kept["pos"].to_pylist() == [0, 0, 1]
    assert part_keys_of(kept) == ["k1", "k2"]
    assert only_artifacts(table, {"k9"}) is None
    assert only_artifacts(table, {"k0", "k1", "k2"}) is table


def part_keys_of(table: pa.Table) -> list[str]:
    import json

    from jdx.graph_schema.context_files import KEYS

    return json.loads(table.schema.metadata[KEYS])


@pytest.mark.soak
@pytest.mark.parametrize("classes,compressed", [(1_000, False), (250_000, True)])
def test_a_big_build_compresses_its_context_and_updates_read_either(tmp_path, monkeypatch, classes, compressed):
    """Parts are mapped raw where the build is small (the JDK's) and lz4-compressed where it is big (a Maven
    repository's); an update grown from either reads them."""
    from jdx.graph_schema import context_files

    assert (compression_for(classes) == "lz4") == compressed
    monkeypatch.setattr(context_files, "BIG_BUILD_CLASSES", 3 if compressed else 10**9)
    fake = FakeExtractor(CORPUS)
    base = ensure_graph(tmp_path / "g", [artifact(n) for n in ("lib.jar", "base.jar")], extractor=fake)
    for table in TABLES:  # an uncompressed part is mapped, not copied: reading it allocates (almost) nothing
        before = pa.total_allocated_bytes()
        rows, _ = read_part(base.graph / "context" / f"{table}.arrow")
        allocated = pa.total_allocated_bytes() - before
        assert rows.num_rows > 0
        assert (allocated >= rows.nbytes // 2) == compressed, (table, allocated, rows.nbytes)
        del rows
    report, got, _ = grown(tmp_path / "g", ["more.jar", "lib.jar", "base.jar"], fake)
    assert report.incremental
    assert got == scratch(tmp_path / "s", ["more.jar", "lib.jar", "base.jar"])[0]


@pytest.mark.soak
@pytest.mark.parametrize("table", ["members", pytest.param("declared_methods", marks=pytest.mark.soak)])
def test_a_damaged_update_part_is_not_trusted_and_the_next_update_still_equals_scratch(tmp_path, monkeypatch, table):
    """An update's own part damaged on disk (not an Arrow file): the next update grown from that build reads the
    shards it needs instead (the member context) or codes the members again (the declared codes), and its answers
    equal a build from scratch."""
    fake = FakeExtractor(CORPUS)
    grown(tmp_path / "g", ["lib.jar", "base.jar"], fake)
    middle, _, _ = grown(tmp_path / "g", ["more.jar", "lib.jar", "base.jar"], fake)
    own = parts(middle.graph / "context", table)[-1]
    assert own.name != f"{table}.arrow"
    own.write_bytes(b"not an arrow file")
    if table == "members":
        assert load_base_context(middle.graph, [_key(n) for n in ("more.jar", "lib.jar", "base.jar")]) is None
    reads = _shard_reads(monkeypatch)
    report, got, warnings = grown(tmp_path / "g", ["solo.jar", "more.jar", "lib.jar", "base.jar"], fake)
    assert report.incremental
    if table == "members":
        assert {"more.jar", "lib.jar", "base.jar"} <= {a for a, _ in reads}, reads
    assert (got, warnings) == scratch(tmp_path / "s", ["solo.jar", "more.jar", "lib.jar", "base.jar"])
