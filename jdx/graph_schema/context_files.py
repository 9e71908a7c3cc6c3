"""The files of a build's classpath context (`context/` beside its graph; read by jdx.loaders.build_context).

A context table is kept in parts. Each part is an Arrow IPC file labelled with the artifact keys its rows belong to
(schema metadata `jdx.artifacts`; a `pos` column, where the table has one, indexes that list): a full build writes
one part per table, `<table>.arrow`; an update hard-links its base's parts and writes one more,
`<table>.<build id>.arrow`, holding only the artifacts that joined. So a workspace grown from the JDK's graph adds
the context of its own jars, not another copy of the JDK's, and a reordered classpath reads the same parts.

Parts are written uncompressed: a reader maps them into memory instead of decompressing them (the JDK's context:
79 MB on disk against 19 MB with lz4, read in ~0.035 s against 0.13-0.14 s in a fresh process, the first read of
an update grown from it). A build of more than BIG_BUILD_CLASSES classes compresses them (lz4) instead: there the
raw bytes would cost more disk than the read saves.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pyarrow as pa

TABLES = ("types", "supertypes", "members")  # shard projections, rows per artifact
DECLARED = ("declared_methods", "declared_fields")  # the build's declared members as resolution codes
JDK_INTERNAL = "jdk_internal"  # one column `name`: the JDK's packages exported to no one (absent: no JDK); one part
KEYS = b"jdx.artifacts"  # schema metadata: the artifact keys of a part's rows (its `pos` indexes them), in order
COMPRESSION = None  # uncompressed: read by mapping the file (see the module's docstring)
# a build of more classes than this compresses its parts (lz4): a Maven repository's member context is ~540 MB raw
# against ~130 MB, and a graph that big is rarely a base of quick updates (readers take either)
BIG_BUILD_CLASSES = 100_000
SUFFIX = ".arrow"


def compression_for(classes: int) -> str | None:
    """The compression of a build's context parts, by the number of classes it holds."""
    return "lz4" if classes > BIG_BUILD_CLASSES else COMPRESSION


def with_artifact_keys(table: "pa.Table", keys: list[str]) -> "pa.Table":
    """The table labelled with the artifact keys its `pos` column indexes (checked when it is read back)."""
    return table.replace_schema_metadata({KEYS: json.dumps(keys).encode()})


def part_name(table: str, build_id: str | None = None) -> str:
    """A full build's part of `table`, or the part an update `build_id` adds."""
    return f"{table}{SUFFIX}" if build_id is None else f"{table}.{build_id}{SUFFIX}"


def parts(folder: Path, table: str) -> list[Path]:
    """The part files of `table` in `folder`: the full build's first, then the updates' in the order they were made
    (build ids sort by time)."""
    first = folder / part_name(table)
    rest = sorted(p for p in folder.glob(f"{table}.*{SUFFIX}") if p.name != first.name)
    return ([first] if first.exists() else []) + rest


def read_part(path: Path) -> tuple["pa.Table", list[str]]:
    """A part's rows (mapped, not copied, where it is uncompressed) and the artifact keys they belong to (KeyError
    when the file names none)."""
    import pyarrow as pa

    with pa.memory_map(str(path)) as source:
        table = pa.ipc.open_file(source).read_all()
    return table, _keys(table.schema, path)


def part_keys(path: Path) -> list[str]:
    """The artifact keys of a part, from its schema alone."""
    import pyarrow as pa

    with pa.memory_map(str(path)) as source:
        return _keys(pa.ipc.open_file(source).schema, path)


def _keys(schema: "pa.Schema", path: Path) -> list[str]:
    meta = schema.metadata or {}
    if KEYS not in meta:
        raise KeyError(f"{path.name} names no artifacts")
    return json.loads(meta[KEYS])


def only_artifacts(table: "pa.Table", keep: set[str]) -> "pa.Table | None":
    """The rows of `table` (a part with a `pos` column) whose artifact is in `keep`, relabelled with just those
    artifacts; None when there are none."""
    import pyarrow as pa
    import pyarrow.compute as pc

    keys = json.loads((table.schema.metadata or {})[KEYS])
    kept = [i for i, k in enumerate(keys) if k in keep]
    if not kept:
        return None
    if len(kept) == len(keys):
        return table
    remap = pa.array([kept.index(i) if i in kept else None for i in range(len(keys))], pa.int32())
    rows = table.filter(pc.is_in(table["pos"], value_set=pa.array(kept, pa.int32())))
    at = rows.schema.get_field_index("pos")
    rows = rows.set_column(at, "pos", pc.take(remap, rows["pos"]))
    return with_artifact_keys(rows, [keys[i] for i in kept])


def link_parts(base: Path, build: Path, tables: list[str], link) -> dict[str, set[str]]:
    """The base build's context parts of `tables` linked into `build` (`link(src, dst)`); per table, the artifact
    keys they cover (a part that cannot be read is left out: the update then writes those artifacts' rows itself)."""
    covered: dict[str, set[str]] = {}
    for table in tables:
        keys: set[str] = set()
        for path in parts(base, table):
            try:
                found = part_keys(path)
            except (OSError, ValueError, KeyError):
                continue
            if keys & set(found):
                continue  # (never written so; a part naming an artifact twice is not trusted)
            build.mkdir(parents=True, exist_ok=True)
            link(path, build / path.name)
            keys.update(found)
        covered[table] = keys
    return covered
