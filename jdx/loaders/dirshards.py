"""Class directories change constantly (spec §10.4): re-read only the class files that changed.

Each class directory's last extracted state is kept under <cache>/dirs/: its shard key and, per class file,
its stamp (size, mtime, ctime, inode: `roots.file_stamp`) and content hash. A changed directory is compared file
by file (the stamp first, the hash only when it moved), only new or changed class files are read (through a
scratch directory of links to them), and the new shard is the previous one minus the rows of changed or deleted
classes plus the new rows. A directory holding some class twice (DUPLICATE_CLASS: which copy is read depends on
the others) is read whole again when one of its class files changes.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc

from jdx.loaders.extractor import OWNER_COLUMN, TABLE_NAMES, BytecodeExtractor, ExtractedArtifact, owner_of
from jdx.loaders.roots import Artifact, file_stamp

STATE_FORMAT = 2  # 2: the stamp holds ctime and inode (a same-size copy keeping its mtime is seen)
Stamp = tuple[int, int, int, int]


def _state_file(cache: Path, path: str) -> Path:
    return cache / "dirs" / (hashlib.sha256(path.encode()).hexdigest()[:24] + ".json")


def _file_hash(path: str) -> str:
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()[:32]


def _scan(root: str) -> dict[str, Stamp]:
    out = {}
    for base, dirs, files in os.walk(root):
        dirs.sort()
        for name in files:
            if name.endswith(".class"):
                full = os.path.join(base, name)
                out[os.path.relpath(full, root).replace(os.sep, "/")] = file_stamp(os.stat(full))
    return out


def _save_state(cache: Path, artifact: Artifact, files: dict[str, list], previous: dict | None = None) -> None:
    """The directory's state as of the shard `artifact.key`, which is written after this (on the shard writer's
    thread): `previous` keeps the state of the last shard this one was derived from, so a process killed before
    the new shard reached the disk leaves a state the next run can still start from (it re-reads what changed
    since that shard, not the whole directory)."""
    target = _state_file(cache, artifact.path)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_suffix(f".{os.getpid()}.tmp")
    state = {"format": STATE_FORMAT, "key": artifact.key, "path": artifact.path, "files": files}
    if previous is not None and previous.get("key") != artifact.key:
        state["previous"] = {"key": previous["key"], "files": previous["files"]}
    tmp.write_text(json.dumps(state, sort_keys=True))
    os.replace(tmp, target)


def _hashed(root: str, stamps: dict[str, Stamp], previous: dict[str, list]) -> dict[str, list]:
    """stamp and hash per class file (`[*stamp, hash]`); the hash is reused when the stamp did not move."""
    out = {}
    for rel, stamp in stamps.items():
        old = previous.get(rel)
        if old and tuple(old[:-1]) == stamp:
            out[rel] = old
        else:
            out[rel] = [*stamp, _file_hash(os.path.join(root, rel))]
    return out


def _merge(previous, dropped_entries: set[str], fresh: ExtractedArtifact | None) -> tuple[dict, int]:
    types = previous.table("types")
    gone = types.filter(pc.is_in(types["entry"], value_set=pa.array(sorted(dropped_entries), pa.string())))
    gone_names = pa.array(sorted(set(gone["name"].to_pylist())), pa.string())
    tables = {}
    for name in TABLE_NAMES:
        if name == "kotlin":  # derived from the merged annotations by shard_in_memory
            continue
        old = previous.table(name)
        if name == "warnings":
            keep = pc.invert(pc.is_in(old["entry"], value_set=pa.array(sorted(dropped_entries), pa.string())))
        else:
            keep = pc.invert(pc.is_in(owner_of(name, old[OWNER_COLUMN[name]]), value_set=gone_names))
        parts = [old.filter(pc.fill_null(keep, True))]
        if fresh is not None:
            parts.append(fresh.tables[name].select(old.column_names))
        tables[name] = pa.concat_tables(parts)
    classes = int(previous.meta.get("classes", 0)) - gone.num_rows + (fresh.classes if fresh is not None else 0)
    return tables, classes


def _holds_duplicates(shard) -> bool:
    """Whether the shard read one of several class files of some class name (the others' rows are not in it)."""
    return any(code == "DUPLICATE_CLASS" for code, _entry, _message in shard.warnings)


def _shadows_kept(previous, dropped_entries: set[str], fresh: ExtractedArtifact) -> bool:
    """Whether a class file just read names a class another, unchanged class file of the directory holds."""
    types = previous.table("types", ["name", "entry"])
    kept = types.filter(pc.invert(pc.is_in(types["entry"], value_set=pa.array(sorted(dropped_entries), pa.string()))))
    return bool(pc.any(pc.is_in(fresh.tables["types"]["name"], value_set=kept["name"].combine_chunks())).as_py())


def _incremental(cache: Path, artifact: Artifact, extractor: BytecodeExtractor, store=None) -> ExtractedArtifact | None:
    from jdx.loaders.shards import load_shard

    try:
        state = json.loads(_state_file(cache, artifact.path).read_text())
    except (OSError, ValueError):
        return None
    if not isinstance(state, dict) or state.get("path") != artifact.path or state.get("format") != STATE_FORMAT:
        return None
    previous = based_on = None
    # the last state saved, else the one before it (its shard was never written: the process was killed first)
    for candidate in (state, state.get("previous")):
        if not isinstance(candidate, dict) or not isinstance(candidate.get("files"), dict):
            continue
        before = dataclasses.replace(artifact, key=str(candidate.get("key", "")))
        previous = store.load(before) if store is not None else load_shard(cache, before)
        if previous is not None:
            based_on = candidate
            break
    if previous is None:
        return None
    old_files: dict[str, list] = based_on["files"]
    now = _hashed(artifact.path, _scan(artifact.path), old_files)
    changed = sorted(rel for rel, v in now.items() if rel not in old_files or old_files[rel][-1] != v[-1])
    deleted = sorted(set(old_files) - set(now))
    if (changed or deleted) and _holds_duplicates(previous):
        return None
    fresh = None
    if changed:
        scratch = Path(tempfile.mkdtemp(prefix=f".changed-{os.getpid()}-", dir=cache))
        try:
            for rel in changed:
                link = scratch / rel
                link.parent.mkdir(parents=True, exist_ok=True)
                os.symlink(os.path.join(artifact.path, rel), link)
            part = dataclasses.replace(artifact, path=str(scratch), spec=f"dir:{scratch}")
            fresh = next(iter(extractor.extract([part])), None)
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
        if fresh is None:
            return None
        if _shadows_kept(previous, set(changed) | set(deleted), fresh):
            return None
    tables, classes = _merge(previous, set(changed) | set(deleted), fresh)
    _save_state(cache, artifact, now, {"key": based_on.get("key", ""), "files": old_files})
    w = tables["warnings"]
    warnings = list(zip(w["code"].to_pylist(), w["entry"].to_pylist(), w["message"].to_pylist()))
    return ExtractedArtifact(0, tables, classes, warnings)


def extract_missing(cache: Path, artifacts: list[Artifact], extractor: BytecodeExtractor,
                    force: bool = False, store=None) -> Iterator[tuple[int, ExtractedArtifact]]:
    """(index into `artifacts`, tables) for every artifact; class directories seen before re-read only the
    class files that changed since (their previous shard read from `store`, default the cache's)."""
    plain = []
    for i, a in enumerate(artifacts):
        if a.kind == "dir" and not force:
            got = _incremental(cache, a, extractor, store)
            if got is not None:
                got.index = i
                yield i, got
                continue
        plain.append(i)
    if not plain:
        return
    for extracted in extractor.extract([artifacts[i] for i in plain]):
        index = plain[extracted.index]
        a = artifacts[index]
        if a.kind == "dir":
            try:
                _save_state(cache, a, _hashed(a.path, _scan(a.path), {}))
            except OSError:
                pass
        yield index, extracted
