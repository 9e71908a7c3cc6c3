"""Incremental updates on real bytecode (spec §10.4): a recompiled class, a deleted class file, a jar replaced
in place, a kill mid-update and two writers at once. Class files are compiled with javac at test time; every
workspace is --no-jdk, so only small graphs are built. Each updated graph is compared, table by table, with
the same workspace built from scratch. The jar-replaced and two-writers tests run in the soak tier."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from jdx.loaders.extractor import JPypeExtractor
from jdx.loaders.indexer import ensure_graph, graph_root
from jdx.loaders.roots import resolve_roots
from tests.loaders.test_incremental_graph import snapshot
from tests.fixtures import jdktool

N = 12


def javac(out: Path, sources: dict[str, str], classpath: Path | None = None) -> None:
    src = out.parent / f"{out.name}-src"
    for rel, text in sources.items():
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        (src / rel).write_text(text)
    out.mkdir(parents=True, exist_ok=True)
    cmd = ["javac", "-g", "-d", str(out)] + (["-cp", str(classpath)] if classpath else [])
    jdktool.run(cmd + [str(src / rel) for rel in sources], check=True, capture_output=True)


def app_sources(extra: str = "") -> dict[str, str]:
    out = {"p/Base.java": "package p; public class Base { public int size() { return 0; } }"}
    for i in range(N):
        prev = f"new C{i - 1}().size()" if i else "1"
        body = extra if i == 3 else ""
        out[f"p/C{i}.java"] = (f"package p; public class C{i} extends Base {{ public int run() {{ return {prev} + size(); }}"
                               f" {body} }}")
    return out


def jar(path: Path, sources: dict[str, str]) -> Path:
    classes = path.parent / f"{path.stem}-classes"
    shutil.rmtree(classes, ignore_errors=True)
    javac(classes, sources)
    path.unlink(missing_ok=True)
    jdktool.run(["jar", "cf", str(path), "-C", str(classes), "."], check=True, capture_output=True)
    return path


class Counting:
    """The real extractor, counting the class files it reads."""

    def __init__(self, cache: Path):
        self.inner = JPypeExtractor(cache)
        self.classes = 0

    def extract(self, artifacts):
        for extracted in self.inner.extract(artifacts):
            self.classes += extracted.classes
            yield extracted


def index(cache: Path, roots: list[str]):
    arts = resolve_roots(roots, None, cache).artifacts
    counting = Counting(cache)
    report = ensure_graph(cache, arts, extractor=counting)
    return report, counting.classes


def same_as_scratch(tmp: Path, report, roots: list[str]) -> None:
    fresh = tmp / f"scratch-{time.monotonic_ns()}"
    want = ensure_graph(fresh, resolve_roots(roots, None, fresh).artifacts, force=True)
    assert not want.incremental
    assert snapshot(report.graph) == snapshot(want.graph)


@pytest.fixture()
def project(tmp_path):
    """A class directory and a jar it sits beside on the classpath (the directory's graph grows from the jar's)."""
    classes = tmp_path / "classes"
    javac(classes, app_sources())
    dep = jar(tmp_path / "dep.jar", {"d/Dep.java": "package d; public class Dep { public int size() { return 3; } }"})
    return tmp_path, classes, dep


def test_recompiled_class_rereads_only_that_file_and_equals_a_scratch_build(project):
    tmp, classes, dep = project
    cache = tmp / "cache"
    roots = [str(classes), str(dep)]
    first, read = index(cache, roots)
    assert read == N + 2 and first.incremental  # dep.jar's graph first, then the directory appended
    time.sleep(0.01)
    javac(classes, {"p/C3.java": app_sources("public void added() {}")["p/C3.java"]}, classpath=classes)
    report, read = index(cache, roots)
    assert report.incremental and read == 1
    assert report.graph.parent == first.graph.parent  # the same workspace graph, updated
    assert not first.graph.exists()  # the previous build is swept once the new one is current
    from jdx.graph_schema.store import GraphStore

    with GraphStore(report.graph / "graph.kz") as store:
        assert store.rows("MATCH (m:Method {id: 'p/C3#added()V'}) RETURN m.name AS n") == [{"n": "added"}]
    same_as_scratch(tmp, report, roots)


@pytest.mark.soak  # ~6 s: two builds of a project interrupted between them; CI's soak runs it
def test_a_directory_shard_never_written_leaves_a_state_the_next_run_starts_from(project):
    """A process killed after it saved the directory's new state but before its shard writer put the new shard on
    disk: the next run starts from the shard before it and re-reads only what changed since (not the whole
    directory), and its graph equals a build from scratch."""
    from jdx.loaders.dirshards import _state_file

    tmp, classes, dep = project
    cache = tmp / "cache"
    roots = [str(classes), str(dep)]
    index(cache, roots)
    time.sleep(0.01)
    javac(classes, {"p/C3.java": app_sources("public void added() {}")["p/C3.java"]}, classpath=classes)
    _, read = index(cache, roots)
    assert read == 1
    state = json.loads(_state_file(cache, str(classes)).read_text())
    shutil.rmtree(cache / "shards" / state["key"])  # as if the writer thread never got to it
    time.sleep(0.01)
    javac(classes, {"p/C5.java": "package p; public class C5 extends Base { public int run() { return 5; } }"},
          classpath=classes)
    report, read = index(cache, roots)
    assert report.incremental and read == 2, read  # C3 and C5 changed since the shard on disk
    same_as_scratch(tmp, report, roots)


@pytest.mark.soak
def test_deleted_class_file_leaves_the_graph(project):
    tmp, classes, dep = project
    cache = tmp / "cache"
    roots = [str(classes), str(dep)]
    index(cache, roots)
    (classes / "p" / f"C{N - 1}.class").unlink()
    report, read = index(cache, roots)
    assert report.incremental and read == 0
    from jdx.graph_schema.store import GraphStore

    with GraphStore(report.graph / "graph.kz") as store:
        assert store.rows(f"MATCH (t:Type {{id: 'p/C{N - 1}'}}) RETURN t.id") == []
    same_as_scratch(tmp, report, roots)


@pytest.mark.soak
def test_jar_replaced_in_place_is_read_again(project):
    tmp, classes, _dep = project
    cache = tmp / "cache"
    lib = jar(tmp / "lib.jar", {"q/Lib.java": "package q; public class Lib { public void one() {} }"})
    index(cache, [str(classes), str(lib)])
    time.sleep(0.01)
    jar(lib, {"q/Lib.java": "package q; public class Lib { public void two() {} }"})
    report, read = index(cache, [str(classes), str(lib)])
    assert read == 1 and report.incremental  # the new lib.jar's graph, then the directory appended
    from jdx.graph_schema.store import GraphStore

    with GraphStore(report.graph / "graph.kz") as store:
        got = store.rows("MATCH (m:Method) WHERE m.owner = 'q/Lib' AND m.name <> '<init>' RETURN m.name AS n")
    assert got == [{"n": "two"}]
    same_as_scratch(tmp, report, [str(classes), str(lib)])


def _cli(env: dict, *args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "jdx", "--no-jdk", *args, "--json", "-q"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


@pytest.mark.soak
def test_killed_update_leaves_the_previous_graph_answering(project, jdx_env):
    tmp, classes, dep = project
    cache = tmp / "cache"
    env = {**jdx_env, "JDX_CACHE_DIR": str(cache)}
    roots = [str(classes), str(dep)]
    first, _ = index(cache, roots)
    root = first.graph.parent
    before = snapshot(first.graph)
    javac(classes, {"p/C3.java": app_sources("public void added() {}")["p/C3.java"]}, classpath=classes)
    proc = _cli(env, "--jars", str(classes), "--jars", str(dep), "index")
    started = time.monotonic()
    while proc.poll() is None and not list(root.glob(".building-*")) and time.monotonic() - started < 120:
        time.sleep(0.005)
    killed = proc.poll() is None
    if killed:
        os.kill(proc.pid, signal.SIGKILL)
    proc.communicate()
    if not killed:
        pytest.skip("the update finished before the kill could land")
    assert (root / "current").read_text().strip() == first.graph.name
    assert snapshot(first.graph) == before  # still whole and answering
    report, read = index(cache, roots)  # the next run sweeps the half-build and updates
    assert report.incremental and read <= 1  # the killed run may have stored the re-read class already
    assert not list(root.glob(".building-*"))
    same_as_scratch(tmp, report, roots)


@pytest.mark.soak
def test_two_processes_adding_different_jars_at_once(project, jdx_env):
    tmp, classes, _dep = project
    cache = tmp / "cache"
    env = {**jdx_env, "JDX_CACHE_DIR": str(cache)}
    index(cache, [str(classes)])
    a = jar(tmp / "a.jar", {"qa/A.java": "package qa; public class A { public int size() { return 1; } }"})
    b = jar(tmp / "b.jar", {"qb/B.java": "package qb; public class B { public int size() { return 2; } }"})
    procs = [_cli(env, "--jars", str(classes), "--jars", str(j), "index") for j in (a, b)]
    for proc in procs:
        out, err = proc.communicate(timeout=600)
        assert proc.returncode == 0, (out, err)
        assert json.loads(out)["result"]["built"] is True
    for j in (a, b):
        roots = [str(classes), str(j)]
        graph = ensure_graph(cache, resolve_roots(roots, None, cache).artifacts)
        assert graph.built is False
        same_as_scratch(tmp, graph, roots)
    assert graph_root(cache, resolve_roots([str(classes), str(a)], None, cache).artifacts) != \
        graph_root(cache, resolve_roots([str(classes), str(b)], None, cache).artifacts)
