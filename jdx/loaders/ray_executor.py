"""The `ray` executor (`pip install 'jdx[ray]'`): artifacts extracted by a pool of Ray actors, one task each.

Each actor is one worker process holding one embedded JVM with the extractor (a JVM cannot be restarted inside a
process, so a worker that dies is replaced by a new process, not repaired). Artifacts go out largest first, one
task in flight per actor, so a straggler starts early and an artifact that kills its worker takes nothing else
down with it. A task reads one artifact and writes its shard into the shard store (which every node must reach)
atomically; it returns only a few numbers. A task whose worker died (a crash, an out-of-memory kill, a lost node)
runs again on a fresh worker, up to RETRIES more times; after that the artifact is reported as
ARTIFACT_READ_ERROR, like one the extractor cannot read, and the graph holds the rest. The graph is then built
from the store in this process, as with the local executor.

What stays on this machine: class directories (they change constantly, are re-read incrementally, and live on
this disk), and any artifact a worker cannot reach with the same content (its jar missing or different on that
node, another JDK there): those are extracted by the local executor, after the cluster's share.

`--ray-address ADDRESS` joins a running cluster and ships this jdx package to it (Ray's `py_modules`), so every
node runs the same extractor; without it a local Ray instance is started for the run and shut down after. Ray is
imported only here, and this module only when the executor is selected.
"""

from __future__ import annotations

import contextlib
import os
import socket
import sys
import time
from collections import deque
from pathlib import Path

from jdx.errors import EnvironmentMissing, UsageError, Warning_
from jdx.loaders.executors import Executor, Extracted, LocalExecutor
from jdx.loaders.roots import Artifact

RETRIES = 2  # runs of a task after its worker died, each on a fresh worker
OBJECT_STORE_BYTES = 128 << 20  # tasks return a few numbers: a local instance needs no large object store
NO_SIGNAL_HANDLER = "RAY_DISABLE_FAILURE_SIGNAL_HANDLER"  # see _cluster



def ray_available() -> bool:
    """Whether Ray is installed (without importing it: ~0.4 s)."""
    import importlib.util

    try:
        return importlib.util.find_spec("ray") is not None
    except (ImportError, ValueError):
        return False


def _usable_cache(path: str) -> Path:
    """The driver's cache when this node can write it (a local instance), else this node's own cache (where the
    extractor is compiled once)."""
    from jdx.dirs import cache_dir

    candidate = Path(path)
    try:
        candidate.mkdir(parents=True, exist_ok=True)
        if os.access(candidate, os.W_OK):
            return candidate
    except OSError:
        pass
    return cache_dir()


def _unreachable(artifact: Artifact) -> str | None:
    """Why this node cannot read the artifact the driver means (None: it can, same content)."""
    if artifact.kind == "jar":
        from jdx.loaders.roots import HASH_HEX

        import hashlib

        try:
            if os.path.getsize(artifact.path) != artifact.size:
                return f"{artifact.path} has another size on this node"
            digest = hashlib.sha256()
            with open(artifact.path, "rb") as f:
                for block in iter(lambda: f.read(1 << 20), b""):
                    digest.update(block)
        except OSError as exc:
            return f"{artifact.path}: {exc.strerror or exc} on this node"
        if digest.hexdigest()[:HASH_HEX] != artifact.key:
            return f"{artifact.path} has other content on this node"
        return None
    if artifact.kind == "jrt":
        from jdx.loaders.roots import jdk_artifacts

        home = artifact.spec[len("jrt:"):].rsplit("!", 1)[0]
        if not any(a.key == artifact.key for a in jdk_artifacts(Path(home))):
            return f"the JDK at {home} differs on this node"
        return None
    return "class directories are read on the machine that holds them"


class ExtractWorker:
    """The body of one Ray actor: a process with one JVM and the extractor, writing shards into the store."""

    def __init__(self, cache: str, store_uri: str, threads: int = 1):
        from jdx.loaders.extractor import JPypeExtractor
        from jdx.loaders.shard_store import open_store

        self.cache = _usable_cache(cache)
        self.store = open_store(store_uri, self.cache)
        self.extractor = JPypeExtractor(self.cache, threads)
        self.shard_extra = None

    def set_shard_extra(self, shard_extra) -> None:
        """`Executor.shard_extra` of the run (a module-level function, pickled by reference)."""
        self.shard_extra = shard_extra

    def info(self) -> dict:
        from jdx.loaders.shards import extractor_version

        return {"host": socket.gethostname(), "pid": os.getpid(), "extractor": extractor_version()}

    def extract(self, artifact: Artifact, force: bool) -> dict:
        started, cpu = time.perf_counter(), time.process_time()
        out = {"host": socket.gethostname(), "pid": os.getpid()}
        if not force and self.store.load(artifact) is not None:  # written meanwhile (another run, a retry)
            return dict(out, status="present", seconds=time.perf_counter() - started)
        problem = _unreachable(artifact)
        if problem is not None:
            return dict(out, status="unreachable", reason=problem)
        extracted = next(iter(self.extractor.extract([artifact])), None)
        if extracted is None:
            return dict(out, status="failed", reason="the extractor returned no tables")
        from jdx.loaders.executors import write_with_extra

        write_with_extra(self.store, artifact, extracted, self.shard_extra)
        return dict(out, status="done", classes=extracted.classes, kotlin_seconds=extracted.kotlin_seconds,
                    seconds=time.perf_counter() - started, cpu=time.process_time() - cpu)


def _package_dir() -> str:
    """This jdx package's directory (shipped to a joined cluster)."""
    return str(Path(__file__).resolve().parent.parent)


class RayExecutor(Executor):
    """Extraction on a Ray cluster (joined with `address`, else a local instance started for the run)."""

    name = "ray"

    def __init__(self, address: str | None = None, fallback: LocalExecutor | None = None,
                 workers: int | None = None, cpus: int | None = None, retries: int = RETRIES,
                 worker: type = ExtractWorker, worker_options: dict | None = None):
        self.address = address
        self.fallback = fallback or LocalExecutor()
        self.workers = workers  # actors; default: one per CPU of the cluster
        self.cpus = cpus  # CPUs of a local instance; default: this machine's
        self.worker = worker  # the actor's class (a subclass of ExtractWorker), with its extra keyword arguments
        self.worker_options = worker_options or {}
        self.retries = retries
        self.stats: dict = {}

    def describe(self) -> dict:
        return {"executor": "ray", **self.stats}

    def wait(self) -> None:
        self.fallback.wait()

    # --- the run ---------------------------------------------------------------------------------------------
    def extract(self, cache, store, artifacts, force=False, progress=None):
        total = len(artifacts)
        counter = {"done": 0}

        def tick(note: str = "") -> None:
            if progress:
                if note:
                    progress("extract", counter["done"], total, note=note)
                else:
                    progress("extract", counter["done"], total)

        here = [i for i, a in enumerate(artifacts) if a.kind == "dir"]
        there = [i for i, a in enumerate(artifacts) if a.kind != "dir"]
        self.stats = {"address": self.address or "local", "workers": 0, "tasks": 0, "retried": 0, "present": 0,
                      "failed": 0, "local": 0}
        if there:
            unreachable: list[int] = []
            for got in self._cluster(cache, store, artifacts, there, force, counter, tick, unreachable):
                yield got
            here += unreachable
        if here:
            self.stats["local"] = len(here)
            self.fallback.shard_extra = self.shard_extra
            for got in self.fallback.extract(cache, store, [artifacts[i] for i in here], force):
                got.index = here[got.index]
                counter["done"] += 1
                tick()
                yield got

    def _init(self, ray) -> bool:
        """Connects to the cluster or starts a local instance; True when this run started it."""
        import logging

        if ray.is_initialized():
            return False
        quiet = {"log_to_driver": False, "logging_level": logging.ERROR}
        if self.address:
            _probe(self.address)
            try:
                ray.init(address=self.address, runtime_env={"py_modules": [_package_dir()],
                                                           "excludes": ["__pycache__", "*.pyc"],
                                                           "env_vars": {NO_SIGNAL_HANDLER: "1"}}, **quiet)
            except (ConnectionError, RuntimeError, ValueError) as exc:
                raise UsageError(f"--ray-address {self.address}: cannot join the cluster "
                                 f"({str(exc).splitlines()[0] if str(exc) else type(exc).__name__})",
                                 hint=JOIN_HINT) from None
            return True
        ray.init(address="local", num_cpus=self.cpus or os.cpu_count() or 1, include_dashboard=False,
                 object_store_memory=OBJECT_STORE_BYTES, **quiet)
        return True

    def _check_store_is_shared(self, ray, store, cache: Path) -> None:
        """A joined cluster with nodes on other machines cannot write into this machine's cache."""
        if not self.address or store.local is None or store.local != cache / "shards":
            return
        from ray.util import get_node_ip_address

        others = {n.get("NodeManagerAddress") for n in ray.nodes() if n.get("Alive")} - {get_node_ip_address()}
        if others:
            raise UsageError(f"the cluster at {self.address} has nodes on other machines ({', '.join(sorted(others))})"
                             f" but the shard store is this machine's cache ({store.describe()})",
                             hint="pass --shards with a location every node reaches: a shared directory "
                                  "(file:///shared/jdx-shards) or an object store (s3://bucket/prefix)")

    def _cluster(self, cache, store, artifacts, there, force, counter, tick, unreachable):
        # Ray's C++ failure signal handler takes SIGSEGV from the JVM, which uses it for its own null checks and
        # safepoints: with both in one process (this driver extracting class dirs, every worker's extractor)
        # the first such signal kills the process. Read by Ray when a core worker starts, here and on workers.
        os.environ.setdefault(NO_SIGNAL_HANDLER, "1")
        try:
            import ray
            from ray import exceptions as rex
            from ray._private import ray_constants
        except ImportError:
            raise EnvironmentMissing("--executor ray needs Ray, which is not installed: pip install 'jdx[ray]'") \
                from None
        if os.environ[NO_SIGNAL_HANDLER] not in ("0", "false", "False"):
            ray_constants.RAY_DISABLE_FAILURE_SIGNAL_HANDLER = True  # when ray was imported before the env was set
        _compile_extractor(cache)
        t0 = time.perf_counter()
        # Ray's driver prints cluster notices (a worker died, ...) on stdout, which carries jdx's answer: while
        # the cluster runs, stdout is stderr (the failures also come back as task errors, reported below)
        quiet = contextlib.redirect_stdout(sys.stderr)
        quiet.__enter__()
        started = False
        actors: list = []
        try:
            started = self._init(ray)
            self._check_store_is_shared(ray, store, cache)
            cpus = int(ray.cluster_resources().get("CPU", 1)) or 1
            count = max(1, min(self.workers or cpus, len(there)))
            # a worker that dies is replaced by a new actor (a new process, a new JVM), never restarted in place:
            # a task sent to an actor while Ray restarts it could fail again through no fault of its artifact
            remote = ray.remote(num_cpus=1, max_restarts=0, max_task_retries=0)(self.worker)

            def spawn():
                actors.append(remote.remote(str(cache), store.uri, 1, **self.worker_options))
                if self.shard_extra is not None:
                    actors[-1].set_shard_extra.remote(self.shard_extra)
                return actors[-1]

            for _ in range(count):
                spawn()
            infos = ray.get([a.info.remote() for a in actors])
            _check_versions(infos)
            self.stats.update(workers=count, nodes=len({i["host"] for i in infos}),
                              startup_seconds=round(time.perf_counter() - t0, 3))
            t1 = time.perf_counter()
            task_seconds = task_cpu = 0.0
            queue = deque(sorted(there, key=lambda i: (-_weight(artifacts[i]), artifacts[i].name)))
            attempts: dict[int, int] = {}
            free = list(actors)
            running: dict = {}
            while queue or running:
                while free and queue:
                    actor, i = free.pop(), queue.popleft()
                    attempts[i] = attempts.get(i, 0) + 1
                    running[actor.extract.remote(artifacts[i], force)] = (actor, i)
                    self.stats["tasks"] += 1
                done_refs, _ = ray.wait(list(running), num_returns=1)
                for ref in done_refs:
                    actor, i = running.pop(ref)
                    a = artifacts[i]
                    try:
                        out = ray.get(ref)
                    except (rex.RayActorError, rex.WorkerCrashedError, rex.NodeDiedError, rex.ObjectLostError,
                            rex.OutOfMemoryError) as exc:
                        _kill(ray, actor)
                        free.append(spawn())
                        if attempts[i] <= self.retries:
                            self.stats["retried"] += 1
                            queue.appendleft(i)
                            tick(f"retrying {a.name}: its worker died ({_reason(exc)})")
                            continue
                        yield self._failed(i, a, f"its worker died {attempts[i]} times, last: {_reason(exc)}",
                                           counter, tick)
                        continue
                    except rex.RayTaskError as exc:  # a Python exception in the task: another run fails alike
                        free.append(actor)
                        yield self._failed(i, a, _reason(exc), counter, tick)
                        continue
                    free.append(actor)
                    status = out.get("status")
                    if status == "unreachable":
                        unreachable.append(i)
                        tick(f"{a.name} is extracted here: {out.get('reason')}")
                        continue
                    if status == "failed":
                        yield self._failed(i, a, str(out.get("reason")), counter, tick)
                        continue
                    if status == "present":
                        self.stats["present"] += 1
                    task_seconds += float(out.get("seconds", 0.0))
                    task_cpu += float(out.get("cpu", 0.0))
                    shard = store.load(a)
                    if shard is None:
                        raise UsageError(f"{a.name}: its shard was written on {out.get('host')} into "
                                         f"{store.describe()}, which this machine does not see",
                                         hint="pass --shards with a location every node reaches: a shared "
                                              "directory (file:///shared/jdx-shards) or an object store")
                    counter["done"] += 1
                    tick()
                    yield Extracted(i, shard, float(out.get("kotlin_seconds", 0.0)))
            wall = time.perf_counter() - t1
            # the pool's time outside tasks (dispatch, results, scheduling), per task: Ray's cost per artifact
            idle = max(0.0, wall * count - task_seconds) / max(1, self.stats["tasks"])
            self.stats.update(cluster_seconds=round(wall, 3), task_seconds=round(task_seconds, 3),
                              task_cpu_seconds=round(task_cpu, 3), overhead_ms_per_task=round(idle * 1000, 1))
        finally:
            t2 = time.perf_counter()
            for actor in actors:
                _kill(ray, actor)
            if started:
                ray.shutdown()
            self.stats["shutdown_seconds"] = round(time.perf_counter() - t2, 3)
            quiet.__exit__(None, None, None)

    def _failed(self, i: int, a: Artifact, why: str, counter: dict, tick) -> Extracted:
        self.stats["failed"] += 1
        counter["done"] += 1
        tick(f"failed: {a.name}: {why}")
        return Extracted(i, None, failure=Warning_("ARTIFACT_READ_ERROR", f"{a.name}: not extracted: {why}", a.name))


JOIN_HINT = ("`ray status` on the head node prints its address; a cluster with token authentication also needs "
             "RAY_AUTH_MODE=token (and its token) in this environment, as any Ray driver does")
PROBE_SECONDS = 5.0


def _probe(address: str) -> None:
    """A `host:port` that nothing answers on fails now, not after Ray's minutes of retries."""
    import socket as sock

    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit() or "://" in address:
        return  # `auto`, `ray://...`: Ray resolves those itself
    try:
        with sock.create_connection((host.strip("[]"), int(port)), timeout=PROBE_SECONDS):
            pass
    except OSError as exc:
        raise UsageError(f"--ray-address {address}: nothing answers there ({exc.strerror or exc})",
                         hint=JOIN_HINT) from None


def _kill(ray, actor) -> None:
    try:
        ray.kill(actor)
    except Exception:  # noqa: BLE001 - an actor already gone
        pass


def _weight(artifact: Artifact) -> int:
    """Bytes to read, for largest-first scheduling: a jar's size; a JDK module's packaged size when the JDK has
    jmods (else 0: modules go last)."""
    if artifact.size:
        return artifact.size
    if artifact.kind == "jrt":
        home, _, module = artifact.spec[len("jrt:"):].rpartition("!")
        try:
            return os.path.getsize(os.path.join(home, "jmods", f"{module}.jmod"))
        except OSError:
            return 0
    return 0


def _reason(exc: BaseException) -> str:
    """One line about a Ray failure: the cause's own message when there is one."""
    cause = getattr(exc, "cause", None)
    text = str(cause) if cause is not None else str(exc)
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    meaningful = [ln for ln in lines if not ln.startswith(("Traceback", "File ", "ray::", "^"))]
    first = (meaningful or lines or [type(exc).__name__])[-1 if cause is not None else 0]
    fields = dict(ln.split(": ", 1) for ln in lines if ln.startswith(("pid: ", "ip: ")))
    if "pid" in fields:  # which worker, so its log (ray's session logs/worker-*-<pid>.*) can be found
        first = f"{first.rstrip('.')} (pid {fields['pid']}" + (f" on {fields['ip']})" if "ip" in fields else ")")
    return first[:300]


def _check_versions(infos: list[dict]) -> None:
    from jdx.loaders.shards import extractor_version

    mine = extractor_version()
    for info in infos:
        if info.get("extractor") != mine:
            raise EnvironmentMissing(f"jdx on {info.get('host')} extracts with {info.get('extractor')}, this one "
                                     f"with {mine}: the same jdx must run on every node")


def _compile_extractor(cache: Path) -> None:
    """Compiles the extractor once here, so the workers of a local instance do not all compile it at once."""
    from jdx.loaders import jvm

    try:
        jvm.compiled_extractor(cache, jvm.find_java_home(), jvm.find_asm(cache)[0])
    except EnvironmentMissing:
        pass  # the workers report it (their nodes may have what this one lacks)
