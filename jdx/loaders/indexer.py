"""Artifacts -> shards (extract what is missing) -> the workspace graph (build when missing or forced)."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from jdx.errors import Warning_
from jdx.graph_schema.schema import SCHEMA_VERSION
from jdx.graph_schema.store import GraphWriter, backend_name, current_build, read_manifest
from jdx.loaders.jvm import extractor_source_hash
from jdx.loaders.roots import Artifact

if TYPE_CHECKING:
    from jdx.loaders.extractor import BytecodeExtractor

SHARD_FORMAT = 2  # 2: the `kotlin` table

Progress = Callable[[str, int, int], None]


@dataclass
class IndexReport:
    graph: Path
    built: bool
    artifacts: int = 0
    extracted: int = 0
    classes: int = 0
    members: int = 0
    edges: int = 0
    seconds: float = 0.0
    warnings: list[Warning_] = field(default_factory=list)
    failed_artifacts: list[str] = field(default_factory=list)
    phases: dict[str, float] = field(default_factory=dict)


def graph_key(artifacts: list[Artifact]) -> str:
    """A workspace graph is a function of its ordered artifacts, the schema and the extractor."""
    digest = hashlib.sha256(f"{SCHEMA_VERSION}:{SHARD_FORMAT}:{extractor_source_hash()}:{backend_name()}".encode())
    for a in artifacts:
        digest.update(f"\n{a.key}:{a.kind}:{a.name}".encode())
    return digest.hexdigest()[:24]


def graph_root(cache: Path, artifacts: list[Artifact]) -> Path:
    return cache / "graphs" / graph_key(artifacts)


def fresh_graph(cache: Path, artifacts: list[Artifact]) -> Path | None:
    """The current graph build for exactly these artifacts, or None (no JVM, no hashing of classes)."""
    return current_build(graph_root(cache, artifacts))


def _shard_warnings(shard) -> list[Warning_]:
    out = []
    for code, entry, message in shard.warnings:
        detail = f"{entry}: {message}" if entry and entry not in message else message
        out.append(Warning_(code, f"{shard.artifact.name}: {detail}", shard.artifact.name))
    return out


def ensure_graph(
    cache: Path,
    artifacts: list[Artifact],
    *,
    force: bool = False,
    extractor: BytecodeExtractor | None = None,
    progress: Progress | None = None,
) -> IndexReport:
    """Makes sure the graph of these artifacts exists; extracts only artifacts without a shard."""
    started = time.perf_counter()
    root = graph_root(cache, artifacts)
    existing = current_build(root)
    if existing is not None and not force:
        manifest = read_manifest(existing)
        warnings = [Warning_(**w) for w in manifest.get("warnings", [])]
        return IndexReport(
            graph=existing, built=False, artifacts=len(artifacts), classes=manifest["counts"]["classes"],
            members=manifest["counts"]["members"], edges=manifest["counts"]["edges"],
            seconds=time.perf_counter() - started, warnings=warnings,
            failed_artifacts=sorted({w.artifact for w in warnings if w.code == "ARTIFACT_READ_ERROR"}),
        )
    from concurrent.futures import ThreadPoolExecutor

    from jdx.loaders.extractor import JPypeExtractor
    from jdx.loaders.shards import load_shard, shard_in_memory, sweep_partial_shards, write_shard

    sweep_partial_shards(cache)
    shards = [None if force else load_shard(cache, a) for a in artifacts]
    missing = [i for i, s in enumerate(shards) if s is None]
    # shards are written on a side thread: the graph is built from the tables already in memory
    writer_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="jdx-shard-write")
    writes = []
    if missing:
        extractor = extractor or JPypeExtractor(cache)
        done = 0
        kotlin_seconds = 0.0
        for extracted in extractor.extract([artifacts[i] for i in missing]):
            index = missing[extracted.index]
            shards[index] = shard_in_memory(cache, artifacts[index], extracted)
            kotlin_seconds += extracted.kotlin_seconds
            writes.append(writer_pool.submit(write_shard, cache, artifacts[index], extracted))
            done += 1
            if progress:
                progress("extract", done, len(missing))
    else:
        kotlin_seconds = 0.0
    if missing:
        from jdx.loaders.jvm import release_heap

        release_heap()
    t_extracted = time.perf_counter()
    ready = [s for s in shards if s is not None]
    if progress:
        progress("graph", 0, 1)
    from jdx.loaders.graph_build import build_graph_tables

    writer = GraphWriter(root)
    try:
        built = build_graph_tables(ready, writer)
        t_tables = time.perf_counter()
        warnings: list[Warning_] = []
        failed = []
        for shard in ready:
            ws = _shard_warnings(shard)
            warnings.extend(ws)
            if any(w.code == "ARTIFACT_READ_ERROR" for w in ws):
                failed.append(shard.artifact.name)
        warnings.extend(built.warnings)
        manifest = {
            "artifacts": [a.to_json() for a in artifacts],
            "counts": built.counts,
            "warnings": [{"code": w.code, "message": w.message, "artifact": w.artifact} for w in warnings],
        }
        for write in writes:
            write.result()
        build = writer.commit(manifest)
    except BaseException:
        writer.abort()
        raise
    finally:
        writer_pool.shutdown(wait=True)
    t_graph = time.perf_counter()
    if progress:
        progress("graph", 1, 1)
    return IndexReport(
        graph=build, built=True, artifacts=len(artifacts), extracted=len(missing),
        classes=built.counts["classes"], members=built.counts["members"], edges=built.counts["edges"],
        seconds=time.perf_counter() - started, warnings=warnings, failed_artifacts=failed,
        phases={"extract": round(t_extracted - started, 3), "kotlin": round(kotlin_seconds, 3),
                "tables": round(t_tables - t_extracted, 3),
                "graph_wait": round(t_graph - t_tables, 3)},
    )
