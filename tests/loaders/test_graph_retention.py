"""The cache keeps workspace graphs up to a cap, evicting the least recently used (spec §10.2 `cache gc`, eviction by
last use): never the graph just built, one used in the last minutes, or one a writer holds; an evicted workspace is
rebuilt, equal, on its next use."""

from __future__ import annotations

import fcntl
import os
import time
from pathlib import Path

import pytest

from jdx.graph_schema import retention
from jdx.loaders.indexer import ensure_graph, graph_root
from tests.loaders.test_graph_build import FakeExtractor, artifact
from tests.loaders.test_incremental_graph import CORPUS, scratch, snapshot

MB = 1 << 20


def _root(graphs: Path, name: str, size: int, used_ago: float) -> Path:
    root = graphs / name
    (root / "b1").mkdir(parents=True)
    (root / "b1" / "graph.kz").write_bytes(b"\0" * size)
    (root / ".lock").touch()
    retention.mark_used(root)
    stamp = time.time() - used_ago
    os.utime(root / retention.USED, (stamp, stamp))
    return root


def test_the_least_recently_used_graphs_go_until_the_rest_fit(tmp_path):
    graphs = tmp_path / "graphs"
    oldest = _root(graphs, "a", MB, used_ago=5000)
    older = _root(graphs, "b", MB, used_ago=4000)
    old = _root(graphs, "c", MB, used_ago=3000)
    new = _root(graphs, "d", MB, used_ago=0)
    assert retention.evict(graphs, keep=new, cap=2 * MB + 4096) == ["a", "b"]
    assert not oldest.exists() and not older.exists() and old.exists() and new.exists()
    assert retention.evict(graphs, keep=new, cap=2 * MB + 4096) == []  # under the cap: nothing more goes


def test_the_kept_graph_recent_graphs_and_written_graphs_stay(tmp_path):
    graphs = tmp_path / "graphs"
    kept = _root(graphs, "kept", MB, used_ago=9000)
    recent = _root(graphs, "recent", MB, used_ago=retention.RECENT_SECONDS / 2)
    written = _root(graphs, "written", MB, used_ago=8000)
    idle = _root(graphs, "idle", MB, used_ago=7000)
    with open(written / ".lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # a build of that workspace is running
        assert retention.evict(graphs, keep=kept, cap=1) == ["idle"]
    assert kept.exists() and recent.exists() and written.exists() and not idle.exists()


def test_no_cap_keeps_everything(tmp_path, monkeypatch):
    graphs = tmp_path / "graphs"
    _root(graphs, "a", MB, used_ago=9000)
    monkeypatch.setenv("JDX_GRAPH_CACHE_MB", "0")
    assert retention.cap_bytes() == 0 and retention.evict(graphs) == []
    monkeypatch.setenv("JDX_GRAPH_CACHE_MB", "not a number")
    assert retention.cap_bytes() == retention.DEFAULT_CAP_MB * MB


@pytest.mark.soak
def test_an_evicted_workspace_is_rebuilt_equal_and_answers_stamp_their_graph(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    fake = FakeExtractor(CORPUS)
    first = [artifact(n) for n in ["solo.jar", "base.jar"]]
    report = ensure_graph(cache, first, extractor=fake)
    root = graph_root(cache, first)
    stamp = time.time() - 10 * retention.RECENT_SECONDS
    os.utime(root / retention.USED, (stamp, stamp))
    ensure_graph(cache, first, extractor=fake)  # up to date: answering from it is a use
    assert (root / retention.USED).stat().st_mtime > stamp + retention.RECENT_SECONDS
    want = snapshot(report.graph)

    os.utime(root / retention.USED, (stamp, stamp))
    size = sum(p.stat().st_size for p in root.rglob("*") if p.is_file())
    monkeypatch.setattr(retention, "cap_bytes", lambda: size + size // 2)  # room for one graph of this corpus
    other = [artifact(n) for n in ["more.jar", "lib.jar", "base.jar"]]
    ensure_graph(cache, other, extractor=fake)
    assert not root.exists(), "the least recently used graph should have made room"
    assert graph_root(cache, other).exists()

    again = ensure_graph(cache, first, extractor=fake)
    assert snapshot(again.graph) == want == scratch(tmp_path / "scratch", ["solo.jar", "base.jar"])[0]


@pytest.mark.parametrize("missing", [True, False])
def test_mark_used_creates_or_refreshes_the_stamp(tmp_path, missing):
    root = tmp_path / "g"
    root.mkdir()
    if not missing:
        (root / retention.USED).touch()
        os.utime(root / retention.USED, (1, 1))
    retention.mark_used(root)
    assert retention.last_used(root) > time.time() - 60


@pytest.mark.soak
def test_a_graph_evicted_between_its_check_and_its_open_is_built_again(tmp_path, monkeypatch):
    """A query that found its graph up to date, then lost it to another process's eviction before opening it,
    builds it again instead of failing."""
    import shutil

    from jdx.commands.session import Options, Session
    from jdx.loaders import indexer
    from tests.conftest import GSON, require

    require(GSON)
    real = indexer.ensure_graph
    calls = []

    def evicted_after_the_check(*args, **kwargs):
        report = real(*args, **kwargs)
        calls.append(report.graph)
        if len(calls) == 1:
            shutil.rmtree(report.graph.parent)  # what `retention.evict` in another process does
        return report

    monkeypatch.setattr(indexer, "ensure_graph", evicted_after_the_check)
    session = Session(Options(jars=[str(GSON)], jdk=False, cache_dir=str(tmp_path / "cache")))
    try:
        store = session.store()
        assert len(calls) == 2 and (calls[1] / "graph.kz").exists()
        assert store.rows("MATCH (t:Type) WHERE t.fqn = 'com.google.gson.Gson' RETURN count(t) AS n")[0]["n"] == 1
    finally:
        session.close()
