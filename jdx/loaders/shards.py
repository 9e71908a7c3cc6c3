"""Per-artifact Parquet shards under <cache>/shards/<content-hash>/: extracted once, shared by every workspace."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pyarrow as pa
import pyarrow.parquet as pq

from jdx.dirs import pid_alive
from jdx.loaders.indexer import SHARD_FORMAT
from jdx.loaders.jvm import extractor_source_hash
from jdx.loaders.roots import Artifact

if TYPE_CHECKING:  # the extractor imports pyarrow.compute (~0.4 s): only writers need it
    from jdx.loaders.extractor import ExtractedArtifact


@dataclass
class Shard:
    artifact: Artifact
    path: Path
    meta: dict
    loaded: dict | None = None  # the tables, when just extracted (saves reading them back)

    def table(self, name: str) -> pa.Table:
        if self.loaded is not None and name in self.loaded:
            return self.loaded[name]
        return pq.read_table(self.path / f"{name}.parquet", memory_map=True)

    @property
    def warnings(self) -> list[tuple[str, str, str]]:
        return [tuple(w) for w in self.meta.get("warnings", [])]


def shard_dir(cache: Path, artifact: Artifact) -> Path:
    return cache / "shards" / artifact.key


_EXTRACTOR = {}


def _extractor_version() -> str:
    if "v" not in _EXTRACTOR:
        _EXTRACTOR["v"] = f"{SHARD_FORMAT}:{extractor_source_hash()}"
    return _EXTRACTOR["v"]


def load_shard(cache: Path, artifact: Artifact) -> Shard | None:
    """The artifact's shard when present and written by this extractor; None means extract again."""
    path = shard_dir(cache, artifact)
    try:
        meta = json.loads((path / "meta.json").read_text())
    except (OSError, ValueError):
        return None
    if meta.get("extractor") != _extractor_version():
        return None
    return Shard(artifact, path, meta)


def shard_in_memory(cache: Path, artifact: Artifact, extracted: ExtractedArtifact) -> Shard:
    """The shard of a just-extracted artifact, usable before (and while) it is written."""
    meta = {
        "extractor": _extractor_version(),
        "key": artifact.key,
        "name": artifact.name,
        "kind": artifact.kind,
        "path": artifact.path,
        "classes": extracted.classes,
        "warnings": [list(w) for w in extracted.warnings],
    }
    return Shard(artifact, shard_dir(cache, artifact), meta, loaded=extracted.tables)


def write_shard(cache: Path, artifact: Artifact, extracted: ExtractedArtifact) -> Shard:
    """Writes into a temporary directory, then renames: a shard is either whole or absent."""
    from jdx.loaders.extractor import TABLE_NAMES

    shard = shard_in_memory(cache, artifact, extracted)
    meta = shard.meta
    root = cache / "shards"
    root.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".writing-{os.getpid()}-{artifact.key}-", dir=root))
    try:
        for name in TABLE_NAMES:
            pq.write_table(extracted.tables[name], tmp / f"{name}.parquet", compression="lz4")
        (tmp / "meta.json").write_text(json.dumps(meta, sort_keys=True))
        target = shard_dir(cache, artifact)
        if target.exists():
            shutil.rmtree(target, ignore_errors=True)
        os.replace(tmp, target)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return shard


def sweep_partial_shards(cache: Path) -> list[str]:
    """Removes shard directories half-written by a process that is gone (a kill mid-write)."""
    root = cache / "shards"
    removed = []
    if not root.is_dir():
        return removed
    for child in root.iterdir():
        if not child.name.startswith("."):
            continue
        parts = child.name.split("-")
        pid = int(parts[1]) if len(parts) > 2 and parts[0] == ".writing" and parts[1].isdigit() else -1
        if pid == os.getpid() or (pid > 0 and pid_alive(pid)):
            continue
        shutil.rmtree(child, ignore_errors=True)
        removed.append(child.name)
    return removed
