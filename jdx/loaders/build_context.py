"""The classpath context a graph build keeps beside its graph, so the next incremental update reads one file per
table instead of every artifact's shard (spec §10.4: an update costs what changed).

An update appends the rows of the artifacts that joined, but it resolves them against the whole classpath: every
class name (which copy the JVM loads), every supertype (call-site resolution walks them), every member key (what
a call reaches, what a method overrides). Those are projections of the shards' `types`, `supertypes` and
`members` tables. A build writes them in `context/` in its build directory, in parts labelled with the artifacts
their rows belong to (`jdx.graph_schema.context_files`: an update links its base's parts and adds one for the
artifacts that joined); an update grown from that build stands a `ContextShard` in for each artifact it already
holds, which answers those tables from the parts. Missing or unreadable files mean the shards are read as before:
the context is a cache, never the truth.
"""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc

from jdx.graph_schema.context_files import (  # noqa: F401 - KEYS: re-exported
    DECLARED, JDK_INTERNAL, KEYS, TABLES, parts, read_part, with_artifact_keys)
from jdx.graph_schema.store import CONTEXT_DIR

# the columns of each shard table the rest of the classpath contributes to a build (see graph_build)
CONTEXT_COLUMNS: dict[str, list[str]] = {
    "types": ["name", "kind", "access"],
    "supertypes": ["type", "super", "kind", "position"],
    "members": ["id", "owner", "kind", "name", "descriptor", "access"],
}
assert tuple(CONTEXT_COLUMNS) == TABLES
# the build's declared methods and fields as resolution codes (`Declared.to_table`), ids as the build names them
DECLARED_METHODS, DECLARED_FIELDS = DECLARED


class BaseContext:
    """What a base build kept for the next update, read once per process: a daemon following an edit-compile
    loop grows every new graph from the same base (its own class directory's rows change, the rest does not)."""

    def __init__(self, tables: dict[str, list[pa.Table]], jdk_internal: frozenset[str] | None, keys: list[str]):
        self.tables = tables  # table name -> its rows per position of `keys` (the base's artifacts in order)
        self.keys = list(keys)
        self.jdk_internal = jdk_internal
        # the base's method and field ids as a build names them (shadowed copies renamed), once computed: an
        # update never changes them (it is refused when an added artifact shares a class name with the base)
        self.declared: tuple | None = None  # (methods, fields): resolution.Declared


_LOADED: dict[Path, BaseContext] = {}  # the last base read in this process (the JDK's: ~100 MB)


class ContextShard:
    """An artifact's shard as an incremental update reads it: the context tables from its base build's file, the
    rest (never read for an artifact the graph already holds) from the shard itself."""

    def __init__(self, shard, tables: dict[str, pa.Table], context: BaseContext):
        self._shard = shard
        self._tables = tables
        self.context = context
        self.jdk_internal = context.jdk_internal
        self.loaded = None

    def __getattr__(self, name):  # artifact, meta, warnings, path: the shard's own
        return getattr(self._shard, name)

    def table(self, name: str, columns: list[str] | None = None) -> pa.Table:
        t = self._tables.get(name)
        if t is not None and columns is not None and all(c in t.column_names for c in columns):
            return t.select(columns)
        return self._shard.table(name, columns)


def _split_parts(folder: Path, name: str, keys: list[str]) -> list[pa.Table] | None:
    """A context table's rows per classpath position of `keys`, from its parts; None when the parts do not hold
    exactly these artifacts, once each."""
    where = {k: i for i, k in enumerate(keys)}
    out: list[pa.Table | None] = [None] * len(keys)
    for path in parts(folder, name):
        table, part_keys = read_part(path)
        split = _by_position(table, len(part_keys))
        if split is None:
            return None
        for key, rows in zip(part_keys, split):
            at = where.get(key)
            if at is None or out[at] is not None:
                return None  # an artifact this build lacks, or one held twice
            out[at] = rows
    return None if any(t is None for t in out) else out  # type: ignore[return-value]


def position_runs(positions) -> list[tuple[int, int, int]] | None:
    """(position, first row, row count) of each run of one classpath position, or None when the rows are not
    grouped by position (tables concatenated artifact by artifact always are)."""
    n = len(positions)
    if n > 1 and not pc.all(pc.greater_equal(positions.slice(1), positions.slice(0, n - 1))).as_py():
        return None
    vc = pc.value_counts(positions)
    out, start = [], 0
    for p, c in sorted(zip(vc.field("values").to_pylist(), vc.field("counts").to_pylist())):
        out.append((p, start, c))
        start += c
    return out


def _by_position(table: pa.Table, n: int) -> list[pa.Table] | None:
    """The rows of each of `n` classpath positions (the `pos` column dropped), or None when a position is out of
    range (a file that does not belong to this build)."""
    pos = table["pos"]
    if table.num_rows and (pc.min(pos).as_py() < 0 or pc.max(pos).as_py() >= n):
        return None
    runs = position_runs(pos)
    if runs is None:
        table = table.take(pc.sort_indices(pos))
        runs = position_runs(table["pos"])
    rest = table.drop_columns(["pos"])
    out = [rest.slice(0, 0)] * n
    for p, start, count in runs:
        out[p] = rest.slice(start, count)
    return out


def load_base_context(base: Path, keys: list[str]) -> BaseContext | None:
    """The context a base build of these artifacts (keys in classpath order) kept, or None when it kept none, it
    cannot be read or it names other artifacts."""
    cached = _LOADED.get(base)
    if cached is not None and cached.keys == keys:
        return cached
    folder = base / CONTEXT_DIR
    tables: dict[str, list[pa.Table]] = {}
    try:
        for name in CONTEXT_COLUMNS:
            split = _split_parts(folder, name, keys)
            if split is None:
                return None
            tables[name] = split
        internal_path = folder / f"{JDK_INTERNAL}.arrow"
        internal = None
        if internal_path.exists():
            table, internal_keys = read_part(internal_path)
            if sorted(internal_keys) != sorted(keys):
                return None
            internal = frozenset(table["name"].to_pylist())
    except (OSError, ValueError, pa.ArrowException, KeyError):
        return None
    context = BaseContext(tables, internal, keys)
    context.declared = _read_declared(folder, keys)
    _LOADED.clear()
    _LOADED[base] = context
    return context


def _read_declared(folder: Path, keys: list[str]) -> tuple | None:
    """The base's declared (methods, fields) codes its build kept, or None (an update codes them from the members).
    Codes depend on which copy of a shadowed class wins: the parts must hold these artifacts in this order."""
    from jdx.loaders.resolution import Declared

    order = {k: i for i, k in enumerate(keys)}
    out = []
    try:
        for name in (DECLARED_METHODS, DECLARED_FIELDS):
            declared, seen = None, []
            for path in parts(folder, name):
                table, part_keys = read_part(path)
                at = [order[k] for k in part_keys]  # KeyError: an artifact this build lacks
                if at != sorted(at):
                    return None
                seen += part_keys
                if declared is None:
                    declared = Declared.from_table(table)
                else:
                    owner, nd = (pc.cast(table[c].combine_chunks(), pa.string()) for c in ("owner", "nd"))
                    declared = declared.plus_parts(owner, nd)
            if declared is None or sorted(seen) != sorted(keys):
                return None
            out.append(declared)
    except (OSError, ValueError, pa.ArrowException, KeyError, AttributeError):
        return None
    return tuple(out)


def context_shards(base: Path, base_keys: list[str], shards: list, focus: set[int]) -> list:
    """`shards` with a ContextShard for each position outside `focus` whose artifact the base build (its artifact
    keys in order: `base_keys`) holds; the shards unchanged when the base kept no (readable) context."""
    context = load_base_context(base, base_keys)
    if context is None:
        return shards
    where = {k: i for i, k in enumerate(base_keys)}
    out = list(shards)
    for i, shard in enumerate(shards):
        if i in focus or shard.artifact.key not in where:
            continue
        b = where[shard.artifact.key]
        out[i] = ContextShard(shard, {name: split[b] for name, split in context.tables.items()}, context)
    return out


def shared_context(shards: list) -> BaseContext | None:
    """The one base context every artifact outside an update's focus is read from, else None."""
    contexts = {id(c): c for c in (getattr(s, "context", None) for s in shards) if c is not None}
    return next(iter(contexts.values())) if len(contexts) == 1 else None
