"""Per-artifact Parquet shards under <root>/<content-hash>/: extracted once, shared by every workspace.

The root is `<cache>/shards` unless a shard store says otherwise (`jdx.loaders.shard_store`: a directory every
node of a cluster reaches, or an object store)."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import socket
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pyarrow as pa
import pyarrow.parquet as pq

from jdx.dirs import pid_alive
from jdx.loaders.indexer import SHARD_FORMAT
from jdx.loaders.jvm import asm_identity, extractor_source_hash
from jdx.loaders.roots import Artifact

if TYPE_CHECKING:  # the extractor imports pyarrow.compute (~0.4 s): only writers need it
    from jdx.loaders.extractor import ExtractedArtifact


@dataclass
class Shard:
    artifact: Artifact
    path: Path
    meta: dict
    loaded: dict | None = None  # the tables, when just extracted (saves reading them back)
    fs: object | None = None  # a pyarrow FileSystem when the shard is not on a local disk (`path` is then its path)

    def table(self, name: str, columns: list[str] | None = None) -> pa.Table:
        if self.loaded is not None and name in self.loaded:
            t = self.loaded[name]
            return t.select(columns) if columns else t
        if self.fs is not None:
            return pq.read_table(f"{self.path}/{name}.parquet", columns=columns, filesystem=self.fs)
        return pq.read_table(self.path / f"{name}.parquet", columns=columns, memory_map=True)

    @property
    def warnings(self) -> list[tuple[str, str, str]]:
        return [tuple(w) for w in self.meta.get("warnings", [])]


def shard_dir(cache: Path, artifact: Artifact) -> Path:
    return cache / "shards" / artifact.key


def extractor_version() -> str:
    """What a shard's `meta.json` must name to be read back: the shard format, the extractor's source and the ASM
    it reads class files with (another ASM knows other class-file versions: UNSUPPORTED_CLASS_VERSION read by an
    old one went once JDX_ASM_JAR named a newer one). Each part is computed once per process."""
    return f"{SHARD_FORMAT}:{extractor_source_hash()}:{asm_identity()}"


_extractor_version = extractor_version


def load_shard(cache: Path, artifact: Artifact) -> Shard | None:
    """The artifact's shard in the cache when present and written by this extractor; None means extract again."""
    return load_shard_at(cache / "shards", artifact)


def load_shard_at(root: Path, artifact: Artifact) -> Shard | None:
    """The artifact's shard under `root` when present and written by this extractor."""
    path = root / artifact.key
    try:
        meta = json.loads((path / "meta.json").read_text())
    except (OSError, ValueError):
        return None
    if meta.get("extractor") != _extractor_version():
        return None
    return Shard(artifact, path, meta)


def shard_in_memory(cache: Path, artifact: Artifact, extracted: ExtractedArtifact) -> Shard:
    """The shard of a just-extracted artifact, usable before (and while) it is written."""
    return shard_in_memory_at(cache / "shards", artifact, extracted)


def shard_in_memory_at(root: Path, artifact: Artifact, extracted: ExtractedArtifact) -> Shard:
    """The shard of a just-extracted artifact that will live under `root`."""
    if "kotlin" not in extracted.tables:  # an extractor that does not decode Kotlin metadata itself
        from jdx.loaders.extractor import add_kotlin_table

        seconds, warnings = add_kotlin_table(extracted.tables)
        extracted.kotlin_seconds += seconds
        extracted.warnings.extend(warnings)
    meta = {
        "extractor": _extractor_version(),
        "key": artifact.key,
        "name": artifact.name,
        "kind": artifact.kind,
        "path": artifact.path,
        "classes": extracted.classes,
        "warnings": [list(w) for w in extracted.warnings],
    }
    from jdx.loaders.manifests import types_facts

    # what every answer asks of a graph built from it (manifests.graph_facts), known before the shard is written
    meta["newest"], meta["dollars"] = types_facts(extracted.tables["types"])
    # its own dict: the graph build drops each table once read, while the writer still holds them all
    return Shard(artifact, root / artifact.key, meta, loaded=dict(extracted.tables))


def write_shard(cache: Path, artifact: Artifact, extracted: ExtractedArtifact) -> Shard:
    """Writes into a temporary directory, then renames: a shard is either whole or absent."""
    return write_shard_at(cache / "shards", artifact, extracted)


def host_tag() -> str:
    """This machine in the name of a half-written shard: another machine's writer is never judged by our pids."""
    return hashlib.sha256(socket.gethostname().encode()).hexdigest()[:8]


def write_shard_at(root: Path, artifact: Artifact, extracted: ExtractedArtifact,
                   before_commit: Callable[[Path], None] | None = None) -> Shard:
    """Writes the shard into a temporary directory under `root`, then renames it into place: a shard is either
    whole or absent. `before_commit` runs with the temporary directory written and not yet renamed."""
    from jdx.loaders.extractor import TABLE_NAMES

    shard = shard_in_memory_at(root, artifact, extracted)
    meta = shard.meta
    root.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".writing-{os.getpid()}-{artifact.key}-{host_tag()}-", dir=root))
    try:
        for name in TABLE_NAMES:
            pq.write_table(extracted.tables[name], tmp / f"{name}.parquet", compression="lz4")
        (tmp / "meta.json").write_text(json.dumps(meta, sort_keys=True))
        if before_commit is not None:
            before_commit(tmp)
        target = root / artifact.key
        if target.exists():
            shutil.rmtree(target, ignore_errors=True)
        os.replace(tmp, target)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return shard


STALE_FOREIGN_WRITE = 24 * 3600  # a half-written shard of another machine is swept after a day


def sweep_partial_shards(cache: Path) -> list[str]:
    """Removes shard directories half-written by a process that is gone (a kill mid-write)."""
    return sweep_partial_shards_at(cache / "shards")


def sweep_partial_shards_at(root: Path) -> list[str]:
    """Removes half-written shard directories under `root` whose writer is gone: a process of this machine that
    no longer runs, or (another machine's, whose pids mean nothing here) one untouched for a day."""
    removed: list[str] = []
    if not root.is_dir():
        return removed
    mine = host_tag()
    for child in root.iterdir():
        if not child.name.startswith("."):
            continue
        parts = child.name.split("-")
        writing = len(parts) > 2 and parts[0] == ".writing" and parts[1].isdigit()
        if writing and len(parts) >= 5 and parts[3] != mine:  # .writing-<pid>-<key>-<host>-<random>
            try:
                if time.time() - child.stat().st_mtime < STALE_FOREIGN_WRITE:
                    continue
            except OSError:
                continue
        else:
            pid = int(parts[1]) if writing else -1
            if pid == os.getpid() or (pid > 0 and pid_alive(pid)):
                continue
        shutil.rmtree(child, ignore_errors=True)
        removed.append(child.name)
    return removed
