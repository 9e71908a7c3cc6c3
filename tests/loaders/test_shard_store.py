"""Shard stores (`--shards URI`): a directory or any pyarrow filesystem; a shard is whole or invisible, one that
exists is reused by every cache (every machine) that opens the store, and half-written ones are swept only when
their writer is gone. Hand-made shards (a fake extractor): no JVM. The object-store path runs on pyarrow's
in-memory `mock://` filesystem, which, like S3, has no directory rename."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from jdx.errors import UsageError
from jdx.loaders.indexer import ensure_graph
from jdx.loaders.shard_store import FsShardStore, LocalShardStore, open_store
from jdx.loaders.shards import host_tag, sweep_partial_shards_at
from tests.loaders.test_graph_build import APP, LIB, FakeExtractor, artifact

NAMES = ["app.jar", "lib.jar"]


def _index(cache: Path, store, fake=None):
    from jdx.loaders.executors import LocalExecutor

    fake = fake or FakeExtractor({"lib.jar": LIB, "app.jar": APP})
    report = ensure_graph(cache, [artifact(n) for n in NAMES], executor=LocalExecutor(fake), store=store)
    return report, fake


@pytest.mark.soak
def test_an_object_store_holds_whole_shards_that_any_cache_reuses(tmp_path):
    store = open_store("mock:///jdx-shards", tmp_path / "a")
    assert isinstance(store, FsShardStore) and store.local is None
    report, fake = _index(tmp_path / "a", store)
    want, _ = _index(tmp_path / "plain", open_store(None, tmp_path / "plain"))
    assert fake.calls == 1 and report.extracted == 2
    assert (report.classes, report.members, report.edges) == (want.classes, want.members, want.edges)
    for name in NAMES:
        shard = store.load(artifact(name))
        assert shard is not None and shard.loaded is None  # read back through the filesystem
        for table in ("types", "members", "calls"):
            assert shard.table(table).equals(LIB[table] if name == "lib.jar" else APP[table])
    # another cache (another machine) opening the same store extracts nothing
    again, fake = _index(tmp_path / "b", store)
    assert fake.calls == 0 and again.extracted == 0 and again.built
    assert (again.classes, again.edges) == (want.classes, want.edges)


def _extracted(name: str):
    from jdx.loaders.extractor import ExtractedArtifact

    tables = dict(LIB if name == "lib.jar" else APP)
    return ExtractedArtifact(0, tables, tables["types"].num_rows, [])


@pytest.mark.parametrize("uri", ["mock:///s", None])
def test_a_write_that_dies_before_its_commit_leaves_the_previous_shard_visible(tmp_path, uri):
    store = open_store(uri, tmp_path)
    a = artifact("lib.jar")

    def die(_where: str) -> None:
        raise KeyboardInterrupt  # the writer is killed with every table written

    with pytest.raises(KeyboardInterrupt):
        store.write(a, _extracted("lib.jar"), before_commit=die)
    assert store.load(a) is None
    first = store.write(a, _extracted("lib.jar"))
    with pytest.raises(KeyboardInterrupt):
        store.write(a, _extracted("lib.jar"), before_commit=die)
    again = store.load(a)
    assert again is not None and again.meta == first.meta and again.table("types").equals(LIB["types"])
    if isinstance(store, FsShardStore):  # the attempt that died left nothing, the committed one is all there is
        from pyarrow import fs as pafs

        inside = store.fs.get_file_info(pafs.FileSelector(f"s/{a.key}"))
        assert sorted(i.base_name for i in inside) == sorted([first.meta["data"], "meta.json"])


def test_an_object_store_sweeps_attempts_no_meta_names_once_stale(tmp_path, monkeypatch):
    store = open_store("mock:///s", tmp_path)
    a = artifact("lib.jar")
    kept = store.write(a, _extracted("lib.jar"))
    store.fs.create_dir(f"s/{a.key}/orphan-attempt")
    assert store.sweep() == []  # not stale yet: its writer may still run on another machine
    import jdx.loaders.shards as shards

    monkeypatch.setattr(shards, "STALE_FOREIGN_WRITE", 0)
    assert store.sweep() == [f"{a.key}/orphan-attempt"]
    assert store.load(a).meta == kept.meta


def test_a_local_store_sweeps_half_written_shards_of_gone_writers_only(tmp_path):
    root = tmp_path / "shards"
    root.mkdir()
    me = host_tag()
    dead = 2 ** 22 + 7  # above pid_max defaults: no such process
    names = {
        "mine-dead": f".writing-{dead}-{'a' * 32}-{me}-x1",
        "mine-alive": f".writing-{os.getpid()}-{'b' * 32}-{me}-x2",
        "old-format-dead": f".writing-{dead}-{'c' * 32}-x3",
        "foreign-fresh": f".writing-{dead}-{'d' * 32}-0000beef-x4",
        "foreign-stale": f".writing-{dead}-{'e' * 32}-0000beef-x5",
    }
    for n in names.values():
        (root / n).mkdir()
    old = time.time() - 2 * 24 * 3600
    os.utime(root / names["foreign-stale"], (old, old))
    removed = sweep_partial_shards_at(root)
    assert sorted(removed) == sorted([names["mine-dead"], names["old-format-dead"], names["foreign-stale"]])


def test_open_store_names(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    default = open_store(None, tmp_path / "cache")
    assert isinstance(default, LocalShardStore) and default.local == tmp_path / "cache" / "shards"
    plain = open_store("rel/shards", tmp_path / "cache")
    assert plain.local == tmp_path / "rel" / "shards" and plain.uri == (tmp_path / "rel" / "shards").as_uri()
    uri = (tmp_path / "shared").as_uri()
    local = open_store(uri, tmp_path / "cache")
    assert isinstance(local, LocalShardStore) and local.local == tmp_path / "shared" and local.uri == uri
    with pytest.raises(UsageError, match="--shards nosuch://x"):
        open_store("nosuch://x", tmp_path)
