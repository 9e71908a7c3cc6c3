"""Where shards are kept: the local cache (the default), a directory every node of a cluster reaches, or an object
store, named by a pyarrow filesystem URI (`file:///shared/shards`, `s3://bucket/jdx-shards`, ...).

A shard is visible only once whole. On a local filesystem it is written into a temporary directory and renamed
into place (`jdx.loaders.shards.write_shard_at`). On any other filesystem, where directories cannot be renamed
atomically, its tables go into a directory of their own (`<key>/<attempt>/`) and the shard's `meta.json`, which
names that directory, is written last through a temporary name: a reader sees the old shard, no shard, or the new
one, never part of one.
"""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from jdx.errors import UsageError
from jdx.loaders.roots import Artifact
from jdx.loaders.shards import (
    Shard, extractor_version, host_tag, load_shard_at, shard_in_memory_at, sweep_partial_shards_at, write_shard_at,
)

if TYPE_CHECKING:
    from jdx.loaders.extractor import ExtractedArtifact


class ShardStore:
    """A directory of shards keyed by artifact content hash."""

    uri: str  # how any process (a cluster's worker too) opens the same store
    local: Path | None  # the directory, when the store is on a local (or mounted) filesystem

    def load(self, artifact: Artifact) -> Shard | None:
        """The artifact's shard when whole and written by this extractor; None means extract it."""
        raise NotImplementedError

    def in_memory(self, artifact: Artifact, extracted: ExtractedArtifact) -> Shard:
        """The shard of a just-extracted artifact, usable before it is written."""
        raise NotImplementedError

    def write(self, artifact: Artifact, extracted: ExtractedArtifact,
              before_commit: Callable[[str], None] | None = None) -> Shard:
        """Writes the shard atomically; `before_commit` runs when every table is written and the shard is not
        visible yet."""
        raise NotImplementedError

    def sweep(self) -> list[str]:
        """Removes what writers that are gone left half-written; the names removed."""
        raise NotImplementedError

    def describe(self) -> str:
        return self.uri


class LocalShardStore(ShardStore):
    def __init__(self, root: Path, uri: str | None = None):
        self.local = root
        self.uri = uri or root.absolute().as_uri()

    def load(self, artifact):
        return load_shard_at(self.local, artifact)

    def in_memory(self, artifact, extracted):
        return shard_in_memory_at(self.local, artifact, extracted)

    def write(self, artifact, extracted, before_commit=None):
        hook = (lambda tmp: before_commit(str(tmp))) if before_commit else None
        return write_shard_at(self.local, artifact, extracted, hook)

    def sweep(self):
        return sweep_partial_shards_at(self.local)

    def describe(self):
        return str(self.local)


class FsShardStore(ShardStore):
    """Shards on any pyarrow filesystem (object stores included): tables under `<key>/<attempt>/`, then
    `<key>/meta.json` naming the attempt, written last."""

    def __init__(self, fs, base: str, uri: str):
        self.fs = fs
        self.base = base.rstrip("/")
        self.uri = uri
        self.local = None

    def _meta_path(self, key: str) -> str:
        return f"{self.base}/{key}/meta.json"

    def _read_meta(self, key: str) -> dict | None:
        try:
            with self.fs.open_input_stream(self._meta_path(key)) as f:
                return json.loads(f.read())
        except (OSError, ValueError):
            return None

    def load(self, artifact):
        meta = self._read_meta(artifact.key)
        if meta is None or meta.get("extractor") != extractor_version() or not meta.get("data"):
            return None
        return Shard(artifact, Path(f"{self.base}/{artifact.key}/{meta['data']}"), meta, fs=self.fs)

    def in_memory(self, artifact, extracted):
        shard = shard_in_memory_at(Path(self.base), artifact, extracted)
        shard.fs = self.fs
        return shard

    def write(self, artifact, extracted, before_commit=None):
        import pyarrow.parquet as pq

        from jdx.loaders.extractor import TABLE_NAMES

        shard = self.in_memory(artifact, extracted)
        attempt = f"{host_tag()}-{os.getpid()}-{uuid.uuid4().hex[:12]}"
        folder = f"{self.base}/{artifact.key}/{attempt}"
        previous = self._read_meta(artifact.key)
        try:
            self.fs.create_dir(folder, recursive=True)
            for name in TABLE_NAMES:
                pq.write_table(extracted.tables[name], f"{folder}/{name}.parquet", compression="lz4",
                               filesystem=self.fs)
            meta = dict(shard.meta, data=attempt)
            if before_commit is not None:
                before_commit(folder)
            tmp = f"{self.base}/{artifact.key}/.meta-{attempt}.json"
            with self.fs.open_output_stream(tmp) as f:
                f.write(json.dumps(meta, sort_keys=True).encode())
            self.fs.move(tmp, self._meta_path(artifact.key))
        except BaseException:
            _delete_quietly(self.fs, folder)
            raise
        if previous and previous.get("data") and previous["data"] != attempt:
            _delete_quietly(self.fs, f"{self.base}/{artifact.key}/{previous['data']}")
        shard.meta = meta
        shard.path = Path(folder)
        return shard

    def sweep(self):
        """Attempts no `meta.json` names, older than a day (their writer may still run on another machine)."""
        import time

        from pyarrow import fs as pafs

        from jdx.loaders.shards import STALE_FOREIGN_WRITE

        removed: list[str] = []
        try:
            keys = self.fs.get_file_info(pafs.FileSelector(self.base, allow_not_found=True))
        except OSError:
            return removed
        now = time.time()
        for key in keys:
            if key.type != pafs.FileType.Directory:
                continue
            name = key.base_name
            meta = self._read_meta(name) or {}
            try:
                entries = self.fs.get_file_info(pafs.FileSelector(key.path))
            except OSError:
                continue
            for entry in entries:
                if entry.type != pafs.FileType.Directory or entry.base_name == meta.get("data"):
                    continue
                mtime = entry.mtime.timestamp() if entry.mtime is not None else now
                if now - mtime >= STALE_FOREIGN_WRITE:
                    _delete_quietly(self.fs, entry.path)
                    removed.append(f"{name}/{entry.base_name}")
        return removed


def _delete_quietly(fs, path: str) -> None:
    try:
        fs.delete_dir(path)
    except OSError:
        pass


def open_store(uri: str | None, cache: Path) -> ShardStore:
    """The shard store a URI names (a plain path means a local directory); None: `<cache>/shards`."""
    if not uri:
        return LocalShardStore(cache / "shards")
    text = uri.strip()
    if "://" not in text:
        path = Path(os.path.expanduser(text)).absolute()
        return LocalShardStore(path)
    from pyarrow import fs as pafs

    try:
        fs, base = pafs.FileSystem.from_uri(text)
    except (ValueError, OSError, TypeError) as exc:
        raise UsageError(f"--shards {uri}: not a filesystem pyarrow can open ({str(exc).splitlines()[0]}); "
                         f"use file:///shared/dir or an object store URI such as s3://bucket/prefix") from None
    if isinstance(fs, pafs.LocalFileSystem):
        return LocalShardStore(Path(base), text)
    return FsShardStore(fs, base, text)
