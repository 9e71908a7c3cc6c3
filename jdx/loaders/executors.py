"""Who extracts the artifacts that have no shard yet: this process (`local`, the default: one embedded JVM, every
core) or a Ray cluster (`ray`, `pip install 'jdx[ray]'`: an actor pool, one JVM per actor, see
`jdx.loaders.ray_executor`; Ray is imported only when it is selected).

Either way each artifact's shard ends in the shard store (`jdx.loaders.shard_store`) whole or not at all, an
artifact whose shard exists is never extracted again, and the graph is then built from the shards in this
process. Selected by `jdx index --executor local|ray` or `JDX_EXECUTOR`; the store by `--shards URI` or
`JDX_SHARDS` (default: the cache's `shards/`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from jdx.errors import EnvironmentMissing, UsageError, Warning_
from jdx.loaders.roots import Artifact

if TYPE_CHECKING:
    from jdx.loaders.extractor import BytecodeExtractor, ExtractedArtifact
    from jdx.loaders.shard_store import ShardStore
    from jdx.loaders.shards import Shard

EXECUTORS = ("local", "ray")
INSTALL_RAY = "pip install 'jdx[ray]'"

# progress(stage, done, total, note=""): the note names an artifact that failed or is retried
Progress = Callable[..., None]


@dataclass(frozen=True)
class ExecutorConfig:
    """Which executor, which cluster, which shard store: from the flags of `jdx index`, else the environment."""

    name: str = "local"
    ray_address: str | None = None
    shards: str | None = None  # the shard store's URI; None: the cache's shards/

    @classmethod
    def resolve(cls, executor: str | None = None, ray_address: str | None = None,
                shards: str | None = None) -> ExecutorConfig:
        name = (executor or os.environ.get("JDX_EXECUTOR") or "local").strip().lower()
        if name not in EXECUTORS:
            source = "--executor" if executor else "JDX_EXECUTOR"
            raise UsageError(f"{source} {name!r}: use one of {', '.join(EXECUTORS)}")
        if ray_address and name != "ray":
            raise UsageError("--ray-address joins a Ray cluster: add --executor ray (or set JDX_EXECUTOR=ray)")
        return cls(name, ray_address or None, shards or os.environ.get("JDX_SHARDS") or None)

    def store(self, cache: Path) -> ShardStore:
        from jdx.loaders.shard_store import open_store

        return open_store(self.shards, cache)

    def executor(self, extractor: BytecodeExtractor | None = None) -> Executor:
        local = LocalExecutor(extractor)
        if self.name == "local":
            return local
        try:
            from jdx.loaders.ray_executor import RayExecutor, ray_available
        except ImportError as exc:  # pragma: no cover - the module itself imports nothing optional
            raise EnvironmentMissing(f"the ray executor cannot load: {exc}") from exc
        if not ray_available():
            raise EnvironmentMissing(f"--executor ray needs Ray, which is not installed: {INSTALL_RAY}")
        return RayExecutor(address=self.ray_address, fallback=local)


@dataclass
class Extracted:
    """One artifact done: its shard (in memory or in the store), or the warning saying why there is none."""

    index: int  # into the artifacts the executor was given
    shard: Shard | None
    kotlin_seconds: float = 0.0
    failure: Warning_ | None = None


ShardExtra = Callable[[Artifact, "ExtractedArtifact"], "Callable[[str], None] | None"]


def write_with_extra(store: ShardStore, artifact: Artifact, extracted: ExtractedArtifact,
                     shard_extra: ShardExtra | None) -> Shard:
    """Writes an extracted artifact's shard into the store with what `shard_extra` adds to its directory; the
    extra file is an optimisation, so its failure leaves the shard as it would be without it."""
    extra = None
    if shard_extra is not None:
        try:
            extra = shard_extra(artifact, extracted)
        except Exception:  # noqa: BLE001 - see above
            extra = None
    if extra is None:
        return store.write(artifact, extracted)

    def before_commit(tmp: str) -> None:
        try:
            extra(tmp)
        except Exception:  # noqa: BLE001 - see above
            pass

    return store.write(artifact, extracted, before_commit)


# shards waiting for the writer thread at most: extraction that outruns the writes waits instead of holding every
# extracted artifact's tables (a thousand jars would otherwise pile up in memory)
WRITES_AHEAD = 2


def bounded_submit(pool, writes: list, fn, *args) -> None:
    """Appends a shard write's future to `writes`, first waiting while WRITES_AHEAD of them are unfinished (their
    outcome is still the caller's to collect, as before)."""
    from concurrent.futures import FIRST_COMPLETED
    from concurrent.futures import wait as wait_for

    while True:
        running = [w for w in writes[-WRITES_AHEAD:] if not w.done()]
        if len(running) < WRITES_AHEAD:
            break
        wait_for(running, return_when=FIRST_COMPLETED)
    writes.append(pool.submit(fn, *args))


class Executor:
    """Extracts artifacts into shards of a store, yielding each as it completes (in any order)."""

    name = "local"
    # what else goes into a shard's directory before it becomes visible (the diff's API surface of a jar),
    # from the tables already in memory; a failure of it never fails the shard
    shard_extra: ShardExtra | None = None

    def extract(self, cache: Path, store: ShardStore, artifacts: list[Artifact], force: bool = False,
                progress: Progress | None = None) -> Iterator[Extracted]:
        raise NotImplementedError

    def wait(self) -> None:
        """Returns once every shard yielded so far is in the store."""

    def describe(self) -> dict:
        """What ran the extraction, for the index answer."""
        return {"executor": self.name}


RELEASE_HEAP_FROM = 1000  # classes extracted in process before the JVM's heap is handed back (two full GCs, ~40 ms:
# most of nothing after a recompiled class, when an agent's edit-compile-ask loop waits for the answer)


class LocalExecutor(Executor):
    """This process: the embedded JVM reads every artifact (both cores), shards are written on a side thread
    while the graph is built from the tables already in memory."""

    name = "local"

    def __init__(self, extractor: BytecodeExtractor | None = None):
        self.extractor = extractor
        self._pool = None
        self._writes: list = []

    def extract(self, cache, store, artifacts, force=False, progress=None):
        from concurrent.futures import ThreadPoolExecutor

        from jdx.loaders.dirshards import extract_missing
        from jdx.loaders.extractor import JPypeExtractor

        if not artifacts:
            return
        if self.extractor is None:
            from jdx.loaders.extract_child import wants_child

            if wants_child(artifacts):
                yield from self._extract_in_child(cache, store, artifacts, force, progress)
                return
            self.extractor = JPypeExtractor(cache)
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="jdx-shard-write")
        done = classes = 0
        for index, extracted in extract_missing(cache, artifacts, self.extractor, force, store=store):
            classes += int(getattr(extracted, "classes", 0) or 0)
            shard = store.in_memory(artifacts[index], extracted)
            bounded_submit(self._pool, self._writes, self._write, store, artifacts[index], extracted)
            done += 1
            if progress:
                progress("extract", done, len(artifacts))
            yield Extracted(index, shard, getattr(extracted, "kotlin_seconds", 0.0))
        if classes >= RELEASE_HEAP_FROM:
            from jdx.loaders.jvm import release_heap

            release_heap()

    def _extract_in_child(self, cache, store, artifacts, force, progress):
        """A big extraction in a child process (`jdx.loaders.extract_child`); what it could not finish is
        extracted here."""
        from jdx.loaders.extract_child import ChildFailed, extract_in_child
        from jdx.loaders.extractor import JPypeExtractor

        done: set[int] = set()
        try:
            for index, kotlin_seconds in extract_in_child(cache, store, artifacts, force, self.shard_extra):
                shard = store.load(artifacts[index])
                done.add(index)
                if progress:
                    progress("extract", len(done), len(artifacts))
                if shard is None:
                    a = artifacts[index]
                    yield Extracted(index, None, failure=Warning_("ARTIFACT_READ_ERROR",
                                                                  f"{a.name}: its shard could not be read back",
                                                                  a.name))
                else:
                    yield Extracted(index, shard, kotlin_seconds)
        except ChildFailed:
            rest = [i for i in range(len(artifacts)) if i not in done]
            in_process = LocalExecutor()
            in_process.shard_extra = self.shard_extra
            in_process.extractor = JPypeExtractor(cache)
            try:
                for got in in_process.extract(cache, store, [artifacts[i] for i in rest], force, progress):
                    got.index = rest[got.index]
                    yield got
            finally:
                in_process.wait()

    def _write(self, store, artifact, extracted) -> None:
        # the written shard is not kept: it holds the tables, which the graph build lets go of as it reads them
        write_with_extra(store, artifact, extracted, self.shard_extra)

    def wait(self) -> None:
        writes, self._writes = self._writes, []
        try:
            for w in writes:
                w.result()
        finally:
            if self._pool is not None:
                self._pool.shutdown(wait=True)
                self._pool = None
