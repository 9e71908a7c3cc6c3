"""Incremental graph updates (spec §5.2, §10.4): a workspace graph derived from an already-built one.

The base build (a graph of some of the wanted artifacts) is copied into a fresh build directory, the rows of
the artifacts that joined are appended, and the positions of the rest are rewritten where they moved; the
base's search index and classpath context (`context_files`) are hard-linked beside parts for the artifacts that
joined. Rows are never deleted: with Kùzu 0.11.3, DETACH DELETE of a few thousand classes' nodes on such a
copy left stale edges visible and dropped unrelated OVERRIDES edges, so a classpath that lost an artifact
grows from a graph that never held it instead. `commit` swaps the `current` pointer atomically, as a full build does, so a
crash mid-update leaves the previous graph answering and readers never wait for the writer.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc

from jdx.graph_schema import spares
from jdx.graph_schema.context_files import COMPRESSION as CONTEXT_COMPRESSION
from jdx.graph_schema.context_files import DECLARED, KEYS, only_artifacts, part_name
from jdx.graph_schema.context_files import TABLES as CONTEXT_TABLES
from jdx.graph_schema.context_files import link_parts as link_context_parts
from jdx.graph_schema.context_files import parts as context_parts
from jdx.graph_schema.schema import ADDED, ADDED_TWINS, NODE_TABLES
from jdx.graph_schema.store import (
    CONTEXT_DIR,
    GRAPH_FILE,
    ContextParts,
    GraphStore,
    _with_schema_columns,
    build_buffer_mb,
    clone_or_copy,
    link_or_copy,
    new_build,
    publish,
    write_context_table,
)


class UpdateRefused(Exception):
    """The update would not equal a build from scratch; the caller builds from scratch instead."""


def _ids(store: GraphStore, cypher: str, params: dict | None = None) -> set[str]:
    table = store.query(cypher, params)
    return set(table.column(0).to_pylist()) if table.num_rows else set()


class GraphUpdater:
    """A GraphSink that appends to a copy of `base` (a committed build directory) under `root`."""

    def __init__(self, root: Path, base: Path):
        self.root = root
        build_buffer_mb()  # a bad setting is refused before anything is written
        self.build_id, self.tmp = new_build(root)
        if not spares.take(base / GRAPH_FILE, root, self.tmp / GRAPH_FILE):  # a long-lived process made one ahead
            clone_or_copy(base / GRAPH_FILE, self.tmp / GRAPH_FILE)
        from jdx.graph_schema.search_files import link_parts

        link_parts(base, self.tmp)  # the base's search index, shared: only the joined artifacts' part is new
        self.store = GraphStore(self.tmp / GRAPH_FILE, read_only=False)
        self._conn = self.store._conn
        self._types: set[str] | None = None
        self.added_types = 0
        self._writer = None  # the side thread writing context files
        self._side: list = []
        # the base's context parts, hard-linked: this build writes parts for the artifacts that joined only
        self._covered = link_context_parts(base / CONTEXT_DIR, self.tmp / CONTEXT_DIR, [*CONTEXT_TABLES, *DECLARED],
                                           link_or_copy)
        self._context_parts = ContextParts(self.tmp / CONTEXT_DIR, lambda *a: self._side_thread().submit(*a),
                                           self._side, self.build_id, self._new_rows)
        self._conn.execute("BEGIN TRANSACTION")  # one commit for the whole update

    # --- moving artifacts ----------------------------------------------------------------------------
    def place(self, new: dict[str, int], named: dict[str, tuple[str, str]] | None = None) -> None:
        """Classpath positions (key -> position) of the artifacts the graph holds, where they moved (a graph
        shared by another order of its artifacts holds that order's; search ranks follow the positions when
        the index is loaded), and their names and paths (key -> (name, path)) where this workspace has the same
        content under another file (`lib/good.jar`, a copy of the base's `dep.jar`: answers name this one)."""
        table = self.store.query("MATCH (a:Artifact) RETURN a.id AS id, a.position AS p, a.name AS n, a.path AS f")
        ids = table.column("id").to_pylist()
        old = dict(zip(ids, table.column("p").to_pylist()))
        moved = [{"id": k, "p": new[k]} for k in sorted(old) if k in new and old[k] != new[k]]
        if moved:
            self._conn.execute("UNWIND $rows AS r MATCH (a:Artifact {id: r.id}) SET a.position = r.p", {"rows": moved})
        was = dict(zip(ids, zip(table.column("n").to_pylist(), table.column("f").to_pylist())))
        renamed = [{"id": k, "n": named[k][0], "f": named[k][1]} for k in sorted(was)
                   if named and k in named and tuple(named[k]) != was[k]]
        if renamed:
            self._conn.execute("UNWIND $rows AS r MATCH (a:Artifact {id: r.id}) SET a.name = r.n, a.path = r.f",
                               {"rows": renamed})
            for r in renamed:  # the declarations' readable copy of the name (`artifact_name`) follows it
                for label in ("Type", "Method", "Field"):
                    self._conn.execute(f"MATCH (n:{label}) WHERE n.artifact = $id SET n.artifact_name = $n",
                                       {"id": r["id"], "n": r["n"]})

    # --- appending (the GraphSink protocol of the loaders' graph build) -------------------------------
    def nodes(self, label: str, table: pa.Table) -> None:
        if not table.num_rows:
            return
        if label == "Type":
            if self._types is None:
                self._types = _ids(self.store, "MATCH (t:Type) RETURN t.id")
            present = pc.is_in(table["id"], value_set=pa.array(sorted(self._types), pa.string()))
            declared = pc.invert(table["external"])
            if pc.any(pc.and_(present, declared)).as_py():
                raise UpdateRefused("the graph already refers to a class an added artifact declares")
            table = table.filter(pc.invert(present))
            self._types.update(table["id"].to_pylist())
            self.added_types += table.num_rows
        elif label in ("Method", "Field", "Package"):
            where = "" if label == "Package" else " WHERE n.external"
            present = _ids(self.store, f"MATCH (n:{label}){where} RETURN n.id")
            if present:
                table = table.filter(pc.invert(pc.is_in(table["id"], value_set=pa.array(sorted(present), pa.string()))))
        if table.num_rows:
            self.store._copy_node(label, _with_schema_columns(table, NODE_TABLES[label]))

    def rels(self, name: str, src: str, dst: str, table: pa.Table) -> None:
        """Edges of the joined artifacts; the big body edge tables' go to their twins (`schema.ADDED_TWINS`)."""
        if table.num_rows:
            self.store._copy_rel(name, src, dst, table, into=f"{name}{ADDED}" if name in ADDED_TWINS else name)

    def _new_rows(self, name: str, table: pa.Table) -> pa.Table | None:
        """Of a context table of the grown graph, the rows the base's linked parts do not hold (`context_files`)."""
        covered = self._covered.get(name)
        if not covered:
            return table
        keys = json.loads((table.schema.metadata or {}).get(KEYS, b"[]"))
        if "pos" not in table.column_names:  # declared codes: the build hands the joined artifacts' alone, or all
            if covered & set(keys):  # recomputed for the whole classpath: they replace the base's parts
                for path in context_parts(self.tmp / CONTEXT_DIR, name):
                    path.unlink()
                self._covered[name] = set()
            return table
        return only_artifacts(table, {k for k in keys if k not in covered})

    def context(self, name: str, table: pa.Table) -> None:
        """The classpath context of the grown graph for the next update: a part of the rows its base's parts do not
        hold (`context_files`), written on a side thread while the update goes on."""
        rows = self._new_rows(name, table)
        if rows is not None:
            part = part_name(name, self.build_id if self._covered.get(name) else None)
            self._side.append(self._side_thread().submit(write_context_table, self.tmp / CONTEXT_DIR / part, rows,
                                                         CONTEXT_COMPRESSION))

    def context_part(self, name: str, table: pa.Table) -> None:
        """One artifact's part of a context table, appended on the side thread; `context_done` finishes the file."""
        self._context_parts.add(name, table)

    def context_done(self, name: str) -> None:
        self._context_parts.done(name)

    def search(self, names: pa.Table, symbols: pa.Table) -> None:
        """The appended artifacts' part of the search index, beside the base's parts (hard-linked at the start)."""
        from jdx.graph_schema.search_files import write_part

        self._side.append(self._side_thread().submit(write_part, self.tmp, names, symbols))

    def _side_thread(self):
        if self._writer is None:
            from concurrent.futures import ThreadPoolExecutor

            self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="jdx-graph-context")
        return self._writer

    def _finish_side_files(self) -> None:
        self._context_parts.finish()
        if self._writer is not None:
            self._writer.shutdown(wait=True)
            self._writer = None
        side, self._side = self._side, []
        for done in side:
            done.result()  # a context file that could not be written fails the update, never half-written

    # --- finishing -------------------------------------------------------------------------------------
    def commit(self, manifest: dict) -> Path:
        self._conn.execute("COMMIT")
        self._finish_side_files()
        self.store.close()
        return publish(self.root, self.tmp, self.build_id, manifest, later=True)

    def abort(self) -> None:
        try:
            if self._writer is not None:
                self._writer.shutdown(wait=True, cancel_futures=True)
            self.store.close()
        finally:
            shutil.rmtree(self.tmp, ignore_errors=True)
