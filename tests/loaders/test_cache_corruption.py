"""A damaged cache (spec §16, §17): a garbled graph file, a corrupt build manifest, a damaged shard table and an index
cut short by --timeout. jdx notices what it can tell is damaged, says so (CACHE_DAMAGED) and builds it again; it never
crashes, never answers exit 6, and never leaves a half-written graph current.

One small javac jar, indexed once (--no-jdk) into a pristine cache; each test damages its own copy of that cache and
runs jdx as a subprocess on it (a crash of Kùzu must not take the test process with it).
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.fixtures.javac import javac_jar

SOURCES = {
    "p/A.java": "package p; public class A { public int a() { return 1; } public String name() { return \"a\"; } }",
    "p/B.java": "package p; public class B extends A { @Override public int a() { return 2; } }",
}


@dataclass
class Pristine:
    jar: Path
    cache: Path  # indexed once; never damaged


@pytest.fixture(scope="module")
def pristine(tmp_path_factory, jdx_env) -> Pristine:
    root = tmp_path_factory.mktemp("cache-corruption")
    jar, _classes = javac_jar(root, SOURCES, "p", "lib.jar")
    cache = root / "pristine"
    compiled = Path(jdx_env["JDX_CACHE_DIR"]) / "extractor"
    if compiled.is_dir():  # the session's compiled extractor, rather than compiling it again
        shutil.copytree(compiled, cache / "extractor")
    proc = _jdx(jdx_env, cache, "index", "-q", "--jars", str(jar), "--no-jdk")
    assert proc.returncode == 0, proc.stderr
    return Pristine(jar, cache)


@pytest.fixture()
def cache(pristine, tmp_path) -> Path:
    """This test's own copy of the pristine cache (file times kept, as a copied cache keeps them)."""
    own = tmp_path / "cache"
    shutil.copytree(pristine.cache, own, symlinks=True)
    return own


def _jdx(env: dict, cache: Path, *args: str, timeout: int = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "jdx", *args], capture_output=True, text=True, timeout=timeout,
                          env={**env, "JDX_CACHE_DIR": str(cache), "JDX_NO_DAEMON": "1"})


def _envelope(proc: subprocess.CompletedProcess) -> dict:
    assert "Traceback" not in proc.stderr and proc.returncode >= 0, (proc.returncode, proc.stderr)
    return json.loads(proc.stdout)


def _damaged(env: dict) -> list[str]:
    return [w["message"] for w in env.get("warnings", []) if w["code"] == "CACHE_DAMAGED"]


def _build(cache: Path) -> Path:
    (root,) = (cache / "graphs").iterdir()
    return root / (root / "current").read_text().strip()


def _shard(cache: Path) -> Path:
    (shard,) = [p for p in (cache / "shards").iterdir() if (p / "meta.json").exists()]
    return shard


def _garble(path: Path, start: int, length: int) -> None:
    """Overwrites `length` bytes from `start` with fixed pseudo-random bytes, in place (as `dd conv=notrunc`)."""
    noise = random.Random(7).randbytes(length)
    with open(path, "r+b") as f:
        f.seek(start)
        f.write(noise)


def _members(pristine: Pristine, cache: Path, env: dict) -> dict:
    return _envelope(_jdx(env, cache, "members", "p.A", "--json", "--jars", str(pristine.jar), "--no-jdk"))


@pytest.mark.soak  # ~5 s: two graph builds; CI's soak runs it
def test_a_garbled_graph_file_is_built_again_not_a_crash(pristine, cache, jdx_env):
    """Kùzu crashed the process (SIGSEGV, no output) on a graph file garbled in place; `jdx index` called it up to
    date. The file's size and mtime recorded at publish tell it changed: the workspace is built again."""
    graph = _build(cache) / "graph.kz"
    size = graph.stat().st_size
    _garble(graph, size // 4, min(64 * 4096, size // 2))
    env = _members(pristine, cache, jdx_env)
    assert env["ok"], env
    assert "a()" in json.dumps(env["result"])
    (message,) = _damaged(env)
    assert "graph.kz changed since it was built" in message and "built again" in message

    _garble(_build(cache) / "graph.kz", size // 4, 4096)
    index = _envelope(_jdx(jdx_env, cache, "index", "--json", "--jars", str(pristine.jar), "--no-jdk"))
    assert index["ok"] and index["result"]["built"] is True and _damaged(index), index


def test_a_corrupt_manifest_is_built_again(pristine, cache, jdx_env):
    """`{"artifacts": [` as the build's manifest was exit 6 (JSONDecodeError) on every command, `jdx index` too."""
    (_build(cache) / "manifest.json").write_text('{"artifacts": [')
    env = _envelope(_jdx(jdx_env, cache, "index", "--json", "--jars", str(pristine.jar), "--no-jdk"))
    assert env["ok"] and env["result"]["built"] is True, env
    (message,) = _damaged(env)
    assert "manifest.json cannot be read" in message


@pytest.mark.soak  # slow: the soak runs it (.ci/run)
@pytest.mark.parametrize("damage", ["truncated types.parquet", "garbled members.parquet"])
def test_a_damaged_shard_table_is_extracted_again(pristine, cache, jdx_env, damage):
    """A shard table that Arrow cannot read (no Parquet footer; corrupt Lz4 pages) was exit 6 for every new
    workspace needing the shard: it is extracted again, with a warning naming the file."""
    file = _shard(cache) / damage.split()[1]
    if damage.startswith("truncated"):
        with open(file, "r+b") as f:
            f.truncate(100)
    else:
        _garble(file, 4, file.stat().st_size // 2)
    shutil.rmtree(cache / "graphs")  # a workspace without a graph: its build reads the shard
    env = _members(pristine, cache, jdx_env)
    assert env["ok"], env
    (message,) = _damaged(env)
    assert f"lib.jar: its cached shard's {file.name} cannot be read" in message and "extracted again" in message

@pytest.mark.soak  # slow: the soak runs it (.ci/run)

def test_index_honours_timeout_and_leaves_the_graph_as_it_was(pristine, cache, jdx_env):
    """`jdx index --force --timeout 0.5` ran to the end (exit 0): it stops as a query does (TIMEOUT), and the build
    it cut short is never published: the previous graph stays current and answers."""
    before = _build(cache)
    proc = _jdx(jdx_env, cache, "index", "--force", "--timeout", "0.5", "--json", "--jars", str(pristine.jar),
                "--no-jdk")
    env = _envelope(proc)
    assert proc.returncode == 6 and env["error"]["code"] == "TIMEOUT", env
    assert "--timeout 0.5" in env["error"]["message"] and env["error"]["hint"]
    assert _build(cache) == before
    assert not [p.name for p in before.parent.iterdir() if p.name.startswith(".building-")]
    assert _members(pristine, cache, jdx_env)["ok"]


# imported first by the jdx process below: `import jpype` takes 4 s more, inside JPype's package after its `_core`
# (which registers the exit hook) is loaded, as a loaded machine's slow start stretched it
SLOW_JPYPE = """
import sys, time

class SlowJPype:
    def find_spec(self, name, path=None, target=None):
        if name == "jpype._gui":
            time.sleep(4)
        return None

sys.meta_path.insert(0, SlowJPype())
"""


@pytest.mark.soak  # slow: the soak runs it (.ci/run)
def test_a_timeout_while_the_jvm_starts_is_a_clean_timeout(pristine, cache, jdx_env, tmp_path):
    """--timeout's alarm that fires while JPype is imported is held until the JVM has started: raised inside the
    import, it left JPype half-initialised and its exit hook printed a traceback (`NameError: _jinit`)."""
    hook = tmp_path / "hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(SLOW_JPYPE)
    env = {**jdx_env, "PYTHONPATH": os.pathsep.join(p for p in (str(hook), jdx_env.get("PYTHONPATH")) if p)}
    proc = _jdx(env, cache, "index", "--force", "--timeout", "2", "--json", "--jars", str(pristine.jar), "--no-jdk")
    answer = _envelope(proc)
    assert proc.returncode == 6 and answer["error"]["code"] == "TIMEOUT", answer
    assert proc.stderr.count("\n") <= 1 and "Exception" not in proc.stderr, proc.stderr


def test_a_build_interrupted_while_copying_closes_its_database_only_after_the_copy(tmp_path):
    """An exception raised by a signal handler (--timeout's alarm) in `Thread.join` leaves CPython 3.11 believing the
    thread stopped; the aborted build then closed its database under a running COPY and Kùzu crashed the process
    (SIGSEGV, or an abort in its transaction manager)."""
    from jdx.graph_schema.store import GraphWriter

    class Alarm(Exception):
        pass

    writer = GraphWriter(tmp_path / "graph")
    started, release, finished = threading.Event(), threading.Event(), threading.Event()

    def copy() -> None:  # stands for a COPY statement running on the writer's thread
        started.set()
        release.wait(10)
        finished.set()

    writer._jobs.put(copy)
    assert started.wait(10)
    closed = []
    real_close = writer.store.close

    def close() -> None:
        closed.append(finished.is_set())
        real_close()

    writer.store.close = close

    def alarm(_signum, _frame):
        raise Alarm

    old = signal.signal(signal.SIGALRM, alarm)
    timer = threading.Timer(0.6, release.set)
    timer.start()
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.2)
        with pytest.raises(Alarm):
            try:
                writer.commit({})
            except BaseException:
                writer.abort()
                raise
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
        release.set()
        timer.join()
    assert closed == [True]
    assert not writer.tmp.exists()

@pytest.mark.soak  # slow: the soak runs it (.ci/run)

def test_a_published_graph_file_is_not_written_by_readers(pristine, cache, jdx_env):
    """The damage check trusts that nothing writes a published graph file: a query leaves its size and mtime."""
    graph = _build(cache) / "graph.kz"
    before = os.stat(graph)
    assert _members(pristine, cache, jdx_env)["ok"]
    after = os.stat(graph)
    assert (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns)
