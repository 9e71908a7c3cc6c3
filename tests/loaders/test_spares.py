"""Spare copies of a base graph (`jdx.graph_schema.spares`): a long-lived process whose workspace holds a class
directory copies the graph the next recompile grows from ahead of time; the update takes it by a rename. A spare
is used only for the very file it copied, never by another process, and never outlives its process."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from jdx.graph_schema import spares
from jdx.graph_schema.store import GRAPH_FILE, new_build


@pytest.fixture()
def enabled(monkeypatch):
    monkeypatch.setattr(spares, "_enabled", True)
    monkeypatch.setattr(spares, "_spares", {})
    monkeypatch.setattr(spares, "_wanted", {})
    yield
    spares.remove_all()


def _spare_dirs(root: Path) -> list[Path]:
    return sorted(root.glob(".building-*-spare-*"))


def _base(tmp_path: Path, content: bytes = b"graph bytes " * 1000) -> Path:
    base = tmp_path / "base" / GRAPH_FILE
    base.parent.mkdir(parents=True, exist_ok=True)
    base.write_bytes(content)
    return base


def test_a_spare_is_taken_once_by_a_rename(tmp_path, enabled):
    base, root = _base(tmp_path), tmp_path / "root"
    assert spares.make(base, root)
    [folder] = _spare_dirs(root)
    assert folder.name.startswith(f".building-{os.getpid()}-spare-")  # swept like a half-build once we are gone
    dst = tmp_path / "dst" / GRAPH_FILE
    dst.parent.mkdir()
    assert spares.take(base, root, dst)
    assert dst.read_bytes() == base.read_bytes() and not _spare_dirs(root)
    assert not spares.take(base, root, dst)  # taken: the next update copies, or takes the next spare


def test_a_spare_of_a_base_changed_since_is_dropped_not_taken(tmp_path, enabled):
    base, root = _base(tmp_path), tmp_path / "root"
    assert spares.make(base, root)
    time.sleep(0.01)
    base.write_bytes(b"rebuilt " * 1000)
    dst = tmp_path / GRAPH_FILE
    assert not spares.take(base, root, dst)
    assert not dst.exists() and not _spare_dirs(root)


def test_one_spare_per_graph_root_and_none_for_another(tmp_path, enabled):
    base, root = _base(tmp_path), tmp_path / "root"
    other = _base(tmp_path / "o", b"other " * 100)
    assert spares.make(base, root)
    assert not spares.make(base, root)  # already there
    assert spares.make(other, root)  # another base for that root replaces it
    assert len(_spare_dirs(root)) == 1
    assert not spares.take(base, tmp_path / "elsewhere", tmp_path / GRAPH_FILE)
    assert spares.take(other, root, tmp_path / GRAPH_FILE)


def test_a_one_shot_process_makes_none(tmp_path, monkeypatch):
    monkeypatch.setattr(spares, "_enabled", False)
    base, root = _base(tmp_path), tmp_path / "root"
    spares.want(base, root)
    assert spares.make_wanted() is None
    assert not spares.make(base, root) and not root.exists()


def test_wanted_copies_are_made_on_a_side_thread(tmp_path, enabled):
    base, root = _base(tmp_path), tmp_path / "root"
    spares.want(base, root)
    thread = spares.make_wanted()
    assert thread is not None
    thread.join(30)
    assert len(_spare_dirs(root)) == 1
    assert spares.make_wanted() is None  # asked once, made once


def test_a_dead_process_spare_is_swept_and_a_living_ones_kept(tmp_path, enabled):
    root = tmp_path / "root"
    dead = root / ".building-999999999-spare-x"
    dead.mkdir(parents=True)
    (dead / GRAPH_FILE).write_bytes(b"x")
    assert spares.make(_base(tmp_path), root)
    new_build(root)
    assert not dead.exists() and len(_spare_dirs(root)) == 1


def test_a_copy_finished_after_close_is_dropped(tmp_path, enabled, monkeypatch):
    base, root = _base(tmp_path), tmp_path / "root"
    real_copy = spares.clone_or_copy

    def copy_then_close(src, dst):
        real_copy(src, dst)
        spares.close()  # the host closes while this copy runs

    monkeypatch.setattr(spares, "clone_or_copy", copy_then_close)
    assert not spares.make(base, root)
    assert not _spare_dirs(root) and spares._spares == {}


def test_spares_are_removed_when_their_process_exits(tmp_path):
    base, root = _base(tmp_path), tmp_path / "root"
    code = ("import sys; from pathlib import Path; from jdx.graph_schema import spares; spares.enable(); "
            f"assert spares.make(Path({str(base)!r}), Path({str(root)!r})); "
            f"assert list(Path({str(root)!r}).glob('.building-*-spare-*'))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert root.exists() and not _spare_dirs(root)


@pytest.mark.soak  # ~8 s: eight recompiles through a host; CI's soak runs it
def test_a_host_over_a_class_directory_grows_each_recompile_from_a_spare(tmp_path, monkeypatch):
    """The real loop: a Host answers over a class directory and a jar; after its first answer it copies the jar's
    graph ahead, each recompile takes that copy (no copy while the agent waits) and the next one is made after the
    answer; every graph equals a build from scratch."""
    from jdx.commands.host import Host
    from jdx.graph_schema import update
    from jdx.loaders.indexer import ensure_graph, fresh_graph
    from jdx.loaders.roots import resolve_roots
    from tests.loaders.test_incremental_faults import app_sources, jar, javac
    from tests.loaders.test_incremental_graph import snapshot

    monkeypatch.setattr(spares, "_enabled", False)  # the host's prewarm turns it on; restored after the test
    monkeypatch.setattr(spares, "_spares", {})
    monkeypatch.setattr(spares, "_wanted", {})
    cache = tmp_path / "cache"
    monkeypatch.setenv("JDX_CACHE_DIR", str(cache))
    classes = tmp_path / "classes"
    javac(classes, app_sources())
    dep = jar(tmp_path / "dep.jar", {"d/Dep.java": "package d; public class Dep { public int size() { return 3; } }"})
    roots = [str(classes), str(dep)]
    copies = []
    real_copy = update.clone_or_copy
    monkeypatch.setattr(update, "clone_or_copy", lambda src, dst: (copies.append(src), real_copy(src, dst)))
    host = Host({"jars": roots, "jdk": False, "src": [], "sources": [], "cache_dir": str(cache)})
    try:
        assert host.execute("members", "p.C3", {})["ok"]
        host.prewarming.join(120)
        graph_roots = [p for p in (cache / "graphs").iterdir() if _spare_dirs(p)]
        assert len(graph_roots) == 1, list((cache / "graphs").iterdir())
        for i in range(2):
            time.sleep(0.01)
            javac(classes, {"p/C3.java": app_sources(f"public void added{i}() {{}}")["p/C3.java"]},
                  classpath=classes)
            before = len(copies)
            answer = host.execute("members", "p.C3", {})
            assert answer["ok"] and f"added{i}()" in str(answer["result"]), answer
            assert len(copies) == before, copies  # the update took the spare: nothing copied while answering
            arts = resolve_roots(roots, None, cache).artifacts
            got = fresh_graph(cache, arts)
            want = ensure_graph(tmp_path / f"scratch{i}", resolve_roots(roots, None, tmp_path / f"scratch{i}").artifacts,
                                force=True)
            assert snapshot(got) == snapshot(want.graph)
            for thread in [t for t in threading.enumerate() if t.name == "jdx-spare"]:
                thread.join(60)
            assert len(_spare_dirs(graph_roots[0])) == 1  # the next one, made after the answer
    finally:
        host.close()  # the daemon's process then ends with os._exit: its host removes the spares, not atexit
    assert not _spare_dirs(graph_roots[0])
    assert not spares.make(dep, tmp_path / "after")  # a closed host keeps none


@pytest.mark.soak  # ~5 s; CI's soak runs it
def test_a_one_shot_update_copies_its_base_while_the_new_jar_is_extracted(tmp_path, monkeypatch):
    """A process (no host, no spares kept) adding a jar to a workspace whose graph is built: the base graph is copied
    on a side thread during the jar's extraction, the update takes that copy (one copy in all), nothing is left
    behind, and the graph equals a build from scratch."""
    from jdx.graph_schema import update
    from jdx.loaders import indexer
    from jdx.loaders.indexer import ensure_graph
    from jdx.loaders.roots import resolve_roots
    from tests.loaders.test_incremental_faults import jar
    from tests.loaders.test_incremental_graph import snapshot

    monkeypatch.setattr(spares, "_enabled", False)
    monkeypatch.setattr(spares, "_spares", {})
    cache = tmp_path / "cache"
    a = jar(tmp_path / "a.jar", {"a/A.java": "package a; public class A { public int size() { return 3; } }"})
    b = jar(tmp_path / "b.jar", {"b/B.java": "package b; public class B extends java.util.AbstractList<String> {"
                                             " public String get(int i) { return null; }"
                                             " public int size() { return 0; } }"})
    ensure_graph(cache, resolve_roots([str(a)], None, cache).artifacts)
    copies, ahead = [], []
    real_update_copy, real_spare_copy = update.clone_or_copy, spares.clone_or_copy
    monkeypatch.setattr(update, "clone_or_copy", lambda src, dst: (copies.append(src), real_update_copy(src, dst)))
    monkeypatch.setattr(spares, "clone_or_copy", lambda src, dst: (ahead.append(src), real_spare_copy(src, dst)))
    started = []
    real_head = indexer._head_start
    monkeypatch.setattr(indexer, "_head_start", lambda *args: started.append(real_head(*args)) or started[-1])
    arts = resolve_roots([str(a), str(b)], None, cache).artifacts
    report = ensure_graph(cache, arts)
    assert report.incremental and len(started) == 1 and started[0] is not None
    assert len(ahead) == 1 and copies == []  # copied once, ahead, and taken
    assert not any(_spare_dirs(p) for p in (cache / "graphs").iterdir())
    scratch = tmp_path / "scratch"
    want = ensure_graph(scratch, resolve_roots([str(a), str(b)], None, scratch).artifacts, force=True)
    assert snapshot(report.graph) == snapshot(want.graph)
