"""The `ray` executor against the local one (spec §10.2 shards; issue: a whole repository on a cluster).

One local Ray instance (2 CPUs, no dashboard) serves the whole module; every test hands it the same small jars
(gson and commons-lang3 from Debian, and an app jar compiled here that calls gson). The oracle is the local
executor over the same artifacts: the shards a cluster writes must be the same files, the graph built from them
must answer the same, an existing shard is never extracted again, a worker that dies mid-write is replaced and
its task run again without a half-written shard ever being read, and what cannot be extracted is reported as the
local executor reports an unreadable artifact (ARTIFACT_READ_ERROR, exit 5).

Every test that starts Ray runs in the soak (a Ray instance costs ~20 s of the machine's two cores); the default
tier keeps what needs no cluster: local runs never import Ray, and flags that cannot work are usage errors.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from jdx.loaders.ray_executor import ExtractWorker
from tests.conftest import GSON, LANG3, require

from jdx.loaders.ray_executor import NO_SIGNAL_HANDLER  # noqa: E402

from tests.fixtures import jdktool

# this process hosts a JVM (local runs) and a Ray driver (the module's instance): Ray's failure signal handler
# must not take the JVM's SIGSEGVs (jdx sets this itself when it starts Ray; the fixture starts it here)
os.environ.setdefault(NO_SIGNAL_HANDLER, "1")
ray = pytest.importorskip("ray", reason="the ray extra is not installed (pip install 'jdx[ray]')")
from ray._private import ray_constants  # noqa: E402

ray_constants.RAY_DISABLE_FAILURE_SIGNAL_HANDLER = True

APP_SOURCE = """package app;
import com.google.gson.Gson;
public class Main {
    public String render(Object o) { return new Gson().toJson(o); }
    public static void main(String[] args) { System.out.println(new Main().render(args)); }
}
"""
QUERIES = [("members", "com.google.gson.Gson"), ("usages", "com.google.gson.Gson#toJson(Object)"),
           ("hierarchy", "org.apache.commons.lang3.exception.ContextedException"),
           ("callers", "com.google.gson.Gson#toJson(Object)")]


# --- workers that die (Ray actors: this module is importable in the workers, so the classes travel by name) ------

class KilledMidWrite(ExtractWorker):
    """Killed (SIGKILL, no cleanup) once, on `name`, with every table of its shard written and nothing renamed."""

    def __init__(self, cache: str, store_uri: str, threads: int = 1, name: str = "", marker: str = ""):
        super().__init__(cache, store_uri, threads)
        self.store = _DyingStore(self.store, name, marker)


class _DyingStore:
    def __init__(self, store, name: str, marker: str):
        self.store, self.name, self.marker = store, name, marker

    def __getattr__(self, attr):
        return getattr(self.store, attr)

    def write(self, artifact, extracted, before_commit=None):
        import signal

        def die(tmp: str) -> None:
            if before_commit is not None:
                before_commit(tmp)
            if artifact.name == self.name and not os.path.exists(self.marker):
                Path(self.marker).write_text(str(os.getpid()))
                os.kill(os.getpid(), signal.SIGKILL)

        return self.store.write(artifact, extracted, before_commit=die)


class DiesOn(ExtractWorker):
    """Exits whenever it starts on `name` (as a jar that crashes the JVM would make it)."""

    def __init__(self, cache: str, store_uri: str, threads: int = 1, name: str = ""):
        super().__init__(cache, store_uri, threads)
        self.name = name

    def extract(self, artifact, force):
        if artifact.name == self.name:
            os._exit(3)
        return super().extract(artifact, force)


# --- fixtures ------------------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def cluster():
    """One local Ray instance for the module; the executor joins it instead of starting its own."""
    import logging

    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False,
             object_store_memory=128 << 20, logging_level=logging.ERROR)
    yield ray
    ray.shutdown()


@pytest.fixture(scope="module")
def jars(tmp_path_factory) -> list[str]:
    gson, lang3 = require(GSON), require(LANG3)
    if shutil.which("javac") is None:
        pytest.skip("javac is not installed")
    work = tmp_path_factory.mktemp("ray-jars")
    (work / "src" / "app").mkdir(parents=True)
    (work / "src" / "app" / "Main.java").write_text(APP_SOURCE)
    jdktool.run(["javac", "-g", "--release", "11", "-cp", str(gson), "-d", str(work / "classes"),
                    str(work / "src" / "app" / "Main.java")], check=True, capture_output=True)
    app = work / "app.jar"
    with zipfile.ZipFile(app, "w") as z:
        for f in sorted((work / "classes").rglob("*.class")):
            z.write(f, f.relative_to(work / "classes").as_posix())
    return [str(app), str(gson), str(lang3)]


def _session(jars: list[str], cache: Path):
    from jdx.commands.session import Options, Session

    return Session(Options(jars=list(jars), jdk=False, cache_dir=str(cache)))


@pytest.fixture(scope="module")
def local_cache(jars, tmp_path_factory) -> Path:
    """The oracle: the same artifacts indexed by the local executor."""
    cache = tmp_path_factory.mktemp("local-cache")
    s = _session(jars, cache)
    s.index(executor="local")
    s.close()
    return cache


def _answers(jars: list[str], cache: Path) -> dict:
    from jdx.commands.api import Workspace

    with Workspace(_session(jars, cache)) as ws:
        out = {f"{c} {q}": ws.ask(c, q) for c, q in QUERIES}
        schema = ws.schema()
        out["counts"] = {t["name"]: t["rows"] for t in schema["nodes"] + schema["relationships"]}
    return out


def _shard_files(root: Path, key: str) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((root / key).iterdir())}


def _artifacts(jars, cache):
    s = _session(jars, cache)
    try:
        return s.artifacts()
    finally:
        s.close()


def _run_cli(args: list[str], env: dict) -> tuple[int, str, str]:
    """`jdx ARGS` answered in this process (so the executor joins the module's Ray instance)."""
    from jdx.cli.main import main

    out, err = io.StringIO(), io.StringIO()
    saved = dict(os.environ)
    os.environ.update(env)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(args)
    finally:
        os.environ.clear()
        os.environ.update(saved)
    return code, out.getvalue(), err.getvalue()


def _envelope(out: str) -> dict:
    """The JSON envelope. The executor sends Ray's notices to stderr while it runs; the module's Ray instance
    outlives a run, and a late notice (a worker died) may reach stdout after it: those lines are not ours."""
    lines = [ln for ln in out.splitlines() if ln.startswith('{"jdx"')]
    assert len(lines) == 1, out
    return json.loads(lines[0])


# --- tests ---------------------------------------------------------------------------------------------------------

# first, before the module's Ray instance starts: these need none, and two instances would share 2 cores

@pytest.mark.soak  # starts and stops a whole Ray instance (~20 s of two cores)
def test_a_run_starts_its_own_local_cluster_and_stops_it(jars, tmp_path):
    """The real entry point, in a fresh process: `--executor ray` without an address starts a Ray instance for
    the run (progress and the retry/failure lines on stderr) and leaves none behind."""
    env = {**os.environ, "JDX_CACHE_DIR": str(tmp_path / "cache"), "JDX_NO_DAEMON": "1"}
    env.pop("RAY_ADDRESS", None)
    proc = subprocess.run([sys.executable, "-m", "jdx", "index", "--executor", "ray", "--no-jdk",
                           *[f"--jars={j}" for j in jars]], capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "jdx: extracting classes from 3 artifact(s)" in proc.stderr
    workers = min(3, os.cpu_count() or 1)  # one per core of the local instance, at most one per artifact
    assert re.search(rf"ray: {workers} worker\(s\) on 1 node\(s\) \(local\), 3 task\(s\)", proc.stdout), proc.stdout


@pytest.mark.soak
def test_local_runs_never_import_ray(jars, tmp_path):
    """`--executor local` (the default) never imports Ray, in a fresh process."""
    env = {**os.environ, "JDX_CACHE_DIR": str(tmp_path / "local"), "JDX_NO_DAEMON": "1"}
    env.pop("RAY_ADDRESS", None)
    code = ("import sys\nfrom jdx.cli.main import main\n"
            f"rc = main(['index', '-q', '--no-jdk', '--jars={jars[0]}'])\n"
            "assert rc == 0, rc\nassert 'ray' not in sys.modules, 'the local executor imported ray'\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr


def test_flags_that_cannot_work_are_usage_errors(jars, tmp_path, monkeypatch):
    base = ["--no-jdk", "--cache-dir", str(tmp_path), f"--jars={jars[1]}"]
    code, _out, err = _run_cli(["index", "--executor", "spark", *base], {})
    assert code == 3 and "local, ray" in err
    code, _out, err = _run_cli(["index", "--ray-address", "127.0.0.1:6379", *base], {})
    assert code == 3 and "--executor ray" in err
    code, _out, err = _run_cli(["index", *base], {"JDX_EXECUTOR": "dask"})
    assert code == 3 and "JDX_EXECUTOR" in err
    from jdx.loaders import ray_executor

    monkeypatch.setattr(ray_executor, "ray_available", lambda: False)
    code, _out, err = _run_cli(["index", "--executor", "ray", *base], {})
    assert code == 4 and "pip install 'jdx[ray]'" in err


@pytest.fixture(scope="module")
def ray_cache(cluster, jars, tmp_path_factory) -> Path:
    cache = tmp_path_factory.mktemp("ray-cache")
    s = _session(jars, cache)
    answer = s.index(executor="ray")
    s.close()
    ex = answer.result["executor"]
    assert ex["executor"] == "ray" and ex["tasks"] == 3 and ex["workers"] == 2 and ex["failed"] == 0, ex
    return cache


@pytest.mark.soak  # a Ray instance costs ~20 s of the two cores; the default tier keeps the import check and flags
def test_ray_writes_the_same_shards_as_local(ray_cache, local_cache, jars):
    arts = _artifacts(jars, ray_cache)
    assert len(arts) == 3
    for a in arts:
        mine, theirs = _shard_files(ray_cache / "shards", a.key), _shard_files(local_cache / "shards", a.key)
        assert sorted(mine) == sorted(theirs), a.name
        for name in mine:  # the same bytes: the same tables, rows in the same order, the same meta.json
            assert mine[name] == theirs[name], f"{a.name}/{name} differs"


@pytest.mark.soak
def test_ray_graph_answers_as_local(ray_cache, local_cache, jars):
    got, want = _answers(jars, ray_cache), _answers(jars, local_cache)
    assert got["usages com.google.gson.Gson#toJson(Object)"]["total"] >= 1  # the app's call, across artifacts
    assert got == want


@pytest.mark.soak
def test_an_existing_shard_is_never_extracted_again(ray_cache, jars, cluster):
    from jdx.loaders.indexer import ensure_graph
    from jdx.loaders.ray_executor import RayExecutor
    from jdx.loaders.shard_store import open_store

    arts = _artifacts(jars, ray_cache)
    store = open_store(None, ray_cache)
    stamps = {a.key: (ray_cache / "shards" / a.key / "meta.json").stat().st_mtime_ns for a in arts}
    lang3 = next(a for a in arts if a.name == "commons-lang3.jar")
    shutil.rmtree(ray_cache / "shards" / lang3.key)
    shutil.rmtree(ray_cache / "graphs")
    ex = RayExecutor()
    report = ensure_graph(ray_cache, arts, executor=ex, store=store)
    assert report.extracted == 1 and ex.stats["tasks"] == 1 and ex.stats["workers"] == 1
    for a in arts:
        if a.key != lang3.key:
            assert (ray_cache / "shards" / a.key / "meta.json").stat().st_mtime_ns == stamps[a.key], a.name
    # a worker handed an artifact whose shard appeared meanwhile does not extract it either
    gson = next(a for a in arts if a.name == "gson.jar")
    ex = RayExecutor()
    got = list(ex.extract(ray_cache, store, [gson]))
    assert [g.shard.meta["key"] for g in got] == [gson.key] and ex.stats["present"] == 1
    assert (ray_cache / "shards" / gson.key / "meta.json").stat().st_mtime_ns == stamps[gson.key]
    # nothing missing: no executor runs at all
    shutil.rmtree(ray_cache / "graphs")
    ex = RayExecutor()
    report = ensure_graph(ray_cache, arts, executor=ex, store=store)
    assert report.extracted == 0 and ex.stats == {}


@pytest.mark.soak
def test_a_worker_killed_mid_write_is_replaced_and_its_task_run_again(cluster, jars, local_cache, tmp_path):
    from jdx.loaders.indexer import ensure_graph
    from jdx.loaders.ray_executor import RayExecutor
    from jdx.loaders.shard_store import open_store
    from jdx.loaders.shards import sweep_partial_shards

    cache = tmp_path / "cache"
    arts = _artifacts(jars, cache)
    marker = tmp_path / "killed"
    from jdx.commands.diff_artifacts import surface_for_shard

    ex = RayExecutor(worker=KilledMidWrite, worker_options={"name": "gson.jar", "marker": str(marker)})
    report = ensure_graph(cache, arts, executor=ex, store=open_store(None, cache), shard_extra=surface_for_shard)
    assert marker.exists(), "no worker was killed"
    assert ex.stats["retried"] == 1 and ex.stats["failed"] == 0 and report.extracted == 3
    assert not report.failed_artifacts and not [w for w in report.warnings if w.code == "ARTIFACT_READ_ERROR"]
    gson = next(a for a in arts if a.name == "gson.jar")
    assert _shard_files(cache / "shards", gson.key) == _shard_files(local_cache / "shards", gson.key)
    # the killed worker's half-written shard was never renamed into place; it is swept as its writer is gone
    leftovers = sweep_partial_shards(cache)
    assert [n for n in leftovers if gson.key in n and n.startswith(f".writing-{marker.read_text()}-")], leftovers
    assert sorted(p.name for p in (cache / "shards").iterdir()) == sorted(a.key for a in arts)


@pytest.mark.soak  # beside the killed-then-retried case; this one dies every time
def test_an_artifact_that_always_kills_its_worker_is_reported_like_an_unreadable_one(cluster, jars, tmp_path,
                                                                                      monkeypatch):
    from jdx.loaders import executors
    from jdx.loaders.ray_executor import RayExecutor

    cache = tmp_path / "cache"
    made: list = []

    def hooked(self, extractor=None):
        made.append(RayExecutor(fallback=executors.LocalExecutor(extractor), retries=1, worker=DiesOn,
                                worker_options={"name": "app.jar"}))
        return made[-1]

    monkeypatch.setattr(executors.ExecutorConfig, "executor", hooked)
    flags = ["--no-jdk", "--cache-dir", str(cache)] + [f"--jars={j}" for j in jars]
    code, out, err = _run_cli(["index", "--executor", "ray", "--json", *flags], {})
    env = _envelope(out)
    assert code == 5, (out, err)
    assert env["error"]["code"] == "ARTIFACT_READ_ERROR" and "app.jar" in env["error"]["message"]
    warned = [w for w in env["warnings"] if w["code"] == "ARTIFACT_READ_ERROR"]
    assert [w["artifact"] for w in warned] == ["app.jar"], warned
    assert re.fullmatch(r"app\.jar: not extracted: its worker died 2 times, last: [^\n]+", warned[0]["message"]), warned
    assert made[0].stats["retried"] == 1 and made[0].stats["failed"] == 1
    assert env["result"]["artifacts"] == 2  # the graph holds the rest
    # the next run (the worker no longer dies) extracts only what is missing, and the workspace is whole
    monkeypatch.undo()
    code, out, err = _run_cli(["index", "--executor", "ray", "--json", *flags], {})
    result = _envelope(out)["result"]
    assert code == 0 and result["extracted"] == 1 and result["artifacts"] == 3, (out, err)


def _corrupt_jar(path: Path) -> Path:
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("bad/Broken.class", b"\xca\xfe\xba\xbe\x00\x00\x00\x3d\x00\x07garbage")
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])  # and truncated: the central directory is gone
    return path


@pytest.mark.soak  # unreadable jars in the default tier: test_faults.py (local executor)
def test_an_unreadable_jar_gives_the_same_warnings_and_exit_code_on_both_executors(cluster, jars, tmp_path):
    bad = _corrupt_jar(tmp_path / "corrupt.jar")
    outcomes = {}
    for executor in ("local", "ray"):
        flags = ["--no-jdk", "--cache-dir", str(tmp_path / executor), f"--jars={jars[1]}", f"--jars={bad}"]
        code, out, err = _run_cli(["index", "--executor", executor, "--json", *flags], {})
        env = _envelope(out)
        outcomes[executor] = (code, env["error"], env["warnings"], env["result"]["classes"])
    assert outcomes["local"][0] == 5
    assert outcomes["ray"] == outcomes["local"]


@pytest.mark.soak  # test_shard_store.py covers the stores; this is the whole cluster round
def test_a_shard_store_uri_is_written_by_the_cluster_and_reused_by_any_run(cluster, jars, local_cache, tmp_path):
    shards = tmp_path / "shared-shards"
    uri = shards.as_uri()
    first = tmp_path / "node-a"
    code, out, err = _run_cli(["index", "--executor", "ray", "--shards", uri, "--json", "--no-jdk",
                               "--cache-dir", str(first), *[f"--jars={j}" for j in jars]], {})
    result = _envelope(out)["result"]
    assert code == 0 and result["extracted"] == 3 and result["shards"] == uri, (out, err)
    arts = _artifacts(jars, first)
    assert sorted(p.name for p in shards.iterdir()) == sorted(a.key for a in arts)
    assert not (first / "shards").exists() or not any((first / "shards").iterdir())
    for a in arts:
        assert _shard_files(shards, a.key) == _shard_files(local_cache / "shards", a.key), a.name
    # another cache (another machine) with the same store: nothing to extract, the same graph; JDX_SHARDS works too
    for executor, env in (("ray", {}), ("local", {"JDX_SHARDS": uri})):
        other = tmp_path / f"node-{executor}"
        extra = ["--shards", uri] if not env else []
        code, out, err = _run_cli(["index", "--executor", executor, *extra, "--json", "--no-jdk",
                                   "--cache-dir", str(other), *[f"--jars={j}" for j in jars]], env)
        result = _envelope(out)["result"]
        assert code == 0 and result["built"] and result["extracted"] == 0 and "executor" not in result, (out, err)
        assert _answers(jars, other) == _answers(jars, local_cache)


# --- soak: a real corpus ---------------------------------------------------------------------------------------------

SOAK_JARS = 80


def _corpus() -> list[str]:
    """80 distinct Debian jars, spread over /usr/share/java's sorted list (the same on every run)."""
    import glob

    real = sorted({os.path.realpath(p) for p in glob.glob("/usr/share/java/*.jar")})
    step = max(1, len(real) // SOAK_JARS)
    return real[::step][:SOAK_JARS]


@pytest.mark.soak
def test_soak_a_cluster_indexes_80_jars_as_local_does_through_a_killed_worker(cluster, tmp_path):
    """The issue's bar: a 2-worker cluster over 60+ jars builds the graph the local executor builds (row counts
    per table, and the answers of a query set drawn from the graph), though one worker is killed mid-run; every
    shard is there exactly once; a second run recomputes nothing."""
    from jdx.commands.api import Workspace
    from jdx.errors import ArtifactReadError
    from jdx.loaders.indexer import ensure_graph
    from jdx.loaders.ray_executor import RayExecutor
    from jdx.loaders.shard_store import open_store
    from jdx.loaders.shards import sweep_partial_shards

    jars = _corpus()
    if len(jars) < 60:
        pytest.skip(f"only {len(jars)} jars in /usr/share/java (see .ci/run)")
    local, clustered = tmp_path / "local", tmp_path / "ray"
    s = _session(jars, local)
    try:
        want = s.index(executor="local").result
    except ArtifactReadError as exc:  # a Debian jar may be unreadable: both executors must say so alike
        want = exc.result
    s.close()
    arts = _artifacts(jars, clustered)
    victim = max(arts, key=lambda a: a.size)  # the longest task: killed after writing, before its commit
    marker = tmp_path / "killed"
    ex = RayExecutor(worker=KilledMidWrite, worker_options={"name": victim.name, "marker": str(marker)})
    from jdx.commands.diff_artifacts import surface_for_shard

    report = ensure_graph(clustered, arts, executor=ex, store=open_store(None, clustered),
                          shard_extra=surface_for_shard)  # as `jdx index` passes it
    assert marker.exists() and ex.stats["retried"] == 1 and ex.stats["failed"] == 0, ex.stats
    assert (report.classes, report.members, report.edges) == (want["classes"], want["members"], want["edges"])
    assert sweep_partial_shards(clustered)  # the killed writer's directory, never renamed into place
    assert sorted(p.name for p in (clustered / "shards").iterdir()) == sorted({a.key for a in arts})
    for a in arts:
        assert _shard_files(clustered / "shards", a.key) == _shard_files(local / "shards", a.key), a.name

    def answers(cache: Path) -> dict:
        with Workspace(_session(jars, cache)) as ws:
            schema = ws.schema()
            out = {"counts": {t["name"]: t["rows"] for t in schema["nodes"] + schema["relationships"]}}
            types = [r["fqn"] for r in ws.cypher("MATCH (t:Type) WHERE NOT t.external AND t.fqn CONTAINS '.' "
                                                 "RETURN t.fqn AS fqn ORDER BY t.id SKIP 100 LIMIT 15").to_pylist()]
            for fqn in types:
                for command in ("members", "usages", "hierarchy"):
                    try:
                        out[f"{command} {fqn}"] = ws.ask(command, fqn)
                    except Exception as exc:  # noqa: BLE001 - an error is an answer too: it must match
                        out[f"{command} {fqn}"] = repr(exc)
            return out

    got, expected = answers(clustered), answers(local)
    assert len(got) > 40 and got == expected
    shutil.rmtree(clustered / "graphs")
    ex = RayExecutor()
    again = ensure_graph(clustered, arts, executor=ex, store=open_store(None, clustered))
    assert again.extracted == 0 and ex.stats == {} and again.classes == report.classes
