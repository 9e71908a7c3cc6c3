"""Incremental graph updates (spec §5.2, §10.4): a workspace graph derived from an already-built one.

The base build is copied into a fresh build directory, the rows of artifacts that left the classpath are
deleted, the rows of the artifacts that joined are appended, and positions and search ranks of the rest are
rewritten where they moved. `commit` swaps the `current` pointer atomically, as a full build does, so a
crash mid-update leaves the previous graph answering and readers never wait for the writer.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
import uuid
from collections import defaultdict
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc

from jdx.graph_schema.schema import NODE_TABLES, REL_TABLES, SCHEMA_VERSION, SYMBOL_KINDS
from jdx.graph_schema.store import (
    CURRENT, GRAPH_FILE, MANIFEST, GraphStore, _sweep, _with_schema_columns, backend_name,
)


class UpdateRefused(Exception):
    """The update would not equal a build from scratch; the caller builds from scratch instead."""


_COUNT_COLS = [f"n_{k}" for k in SYMBOL_KINDS]


def _ids(store: GraphStore, cypher: str, params: dict | None = None) -> set[str]:
    table = store.query(cypher, params)
    return set(table.column(0).to_pylist()) if table.num_rows else set()


class GraphUpdater:
    """A GraphSink that appends to a copy of `base` (a committed build directory) under `root`."""

    def __init__(self, root: Path, base: Path):
        root.mkdir(parents=True, exist_ok=True)
        _sweep(root)
        self.root = root
        self.build_id = f"b{time.strftime('%Y%m%d%H%M%S')}-{uuid.uuid4().hex[:8]}"
        self.tmp = Path(tempfile.mkdtemp(prefix=f".building-{os.getpid()}-", dir=root))
        shutil.copyfile(base / GRAPH_FILE, self.tmp / GRAPH_FILE)
        self.store = GraphStore(self.tmp / GRAPH_FILE, read_only=False)
        self._conn = self.store._conn
        self._types: set[str] | None = None
        self.added_types = 0
        self._conn.execute("BEGIN TRANSACTION")  # one commit for the whole update

    # --- removing artifacts ------------------------------------------------------------------------
    def remove(self, keys: list[str]) -> None:
        """Deletes every row of these artifacts; refused when a remaining artifact refers to one of them."""
        if not keys:
            return
        q, p = self.store.query, {"rm": keys}
        checks = (
            "MATCH (x:Type)-[r:EXTENDS|IMPLEMENTS|DECLARES]->(y:Type) WHERE y.artifact IN $rm "
            "AND NOT x.artifact IN $rm RETURN count(r)",
            "MATCH (x:Method)-[r:REFERENCES]->(y:Type) WHERE y.artifact IN $rm AND NOT x.artifact IN $rm "
            "RETURN count(r)",
            "MATCH (x:Method)-[r:INVOKES|OVERRIDES]->(y:Method) WHERE y.artifact IN $rm AND NOT x.artifact IN $rm "
            "RETURN count(r)",
            "MATCH (x:Method)-[r:READS|WRITES]->(y:Field) WHERE y.artifact IN $rm AND NOT x.artifact IN $rm "
            "RETURN count(r)",
            "MATCH (x)-[r:ANNOTATED_BY]->(y:Type) WHERE y.artifact IN $rm AND NOT x.artifact IN $rm "
            "RETURN count(r)",
        )
        for cypher in checks:
            if q(cypher, p).column(0)[0].as_py():
                raise UpdateRefused("other artifacts refer to the classes of an artifact that changed")
        removed_types = _ids(self.store, "MATCH (t:Type) WHERE t.artifact IN $rm RETURN t.id", p)
        removed_names = _ids(self.store, "MATCH (t:Type) WHERE t.artifact IN $rm RETURN t.name", p)
        if removed_names and q("MATCH (u:Type) WHERE u.name IN $names AND NOT u.external AND NOT u.artifact IN $rm "
                               "RETURN count(u)", {"names": sorted(removed_names), "rm": keys}).column(0)[0].as_py():
            raise UpdateRefused("an artifact that changed shares class names with another artifact")
        ext_owners = _ids(self.store, "MATCH (m:Method) WHERE m.external RETURN DISTINCT m.owner")
        ext_owners |= _ids(self.store, "MATCH (f:Field) WHERE f.external RETURN DISTINCT f.owner")
        if ext_owners & removed_types:
            raise UpdateRefused("other artifacts refer to members missing from an artifact that changed")
        # search counts: one per (kind, owner, name) group, carried by the group's `first` row
        groups = q("MATCH (s:Symbol) WHERE s.artifact IN $rm AND s.first RETURN s.name AS name, s.kind AS kind, "
                   "count(*) AS c", p).to_pylist()
        delta: dict[str, dict[str, int]] = defaultdict(lambda: dict.fromkeys(_COUNT_COLS, 0))
        for g in groups:
            delta[g["name"]][f"n_{g['kind']}"] -= g["c"]
        packages = _ids(self.store, "MATCH (p:Package)-[:CONTAINS]->(t:Type) WHERE t.artifact IN $rm "
                                    "RETURN DISTINCT p.id", p)
        for label in ("Symbol", "Method", "Field", "Type"):
            self._conn.execute(f"MATCH (n:{label}) WHERE n.artifact IN $rm DETACH DELETE n", p)
        self._conn.execute("MATCH (a:Artifact) WHERE a.id IN $rm DETACH DELETE a", p)
        self._add_counts(delta)
        names = sorted(delta)
        if names:
            zero = " AND ".join(f"n.{c} = 0" for c in _COUNT_COLS)
            self._conn.execute(f"UNWIND $ids AS i MATCH (n:Name {{id: i}}) WHERE {zero} DETACH DELETE n",
                               {"ids": names})
        if packages:
            self._conn.execute("UNWIND $ids AS i MATCH (p:Package {id: i}) "
                               "WHERE NOT EXISTS { MATCH (p)-[:CONTAINS]->(:Type) } DELETE p", {"ids": sorted(packages)})
        # external nodes only the removed artifacts referred to
        for label in ("Method", "Field"):
            self._conn.execute(f"MATCH (m:{label}) WHERE m.external AND NOT EXISTS {{ MATCH (:Method)-[]->(m) }} "
                               "DELETE m")
        owners = _ids(self.store, "MATCH (m:Method) WHERE m.external RETURN DISTINCT m.owner")
        owners |= _ids(self.store, "MATCH (f:Field) WHERE f.external RETURN DISTINCT f.owner")
        orphans = _ids(self.store, "MATCH (t:Type) WHERE t.external AND NOT EXISTS { MATCH ()-[]->(t) } "
                                   "RETURN t.id") - owners
        if orphans:
            self._conn.execute("UNWIND $ids AS i MATCH (t:Type {id: i}) DETACH DELETE t", {"ids": sorted(orphans)})

    def _add_counts(self, delta: dict[str, dict[str, int]]) -> None:
        if not delta:
            return
        rows = [{"id": k, **v} for k, v in sorted(delta.items())]
        sets = ", ".join(f"n.{c} = n.{c} + r.{c}" for c in _COUNT_COLS)
        self._conn.execute(f"UNWIND $rows AS r MATCH (n:Name {{id: r.id}}) SET {sets}", {"rows": rows})

    # --- moving artifacts ----------------------------------------------------------------------------
    def place(self, old: dict[str, tuple[int, int]], new: dict[str, tuple[int, int]]) -> None:
        """Classpath positions and search ranks (key -> (position, rank)) of artifacts that stay, where they moved."""
        moved = [{"id": k, "p": new[k][0]} for k in sorted(old) if k in new and old[k][0] != new[k][0]]
        if moved:
            self._conn.execute("UNWIND $rows AS r MATCH (a:Artifact {id: r.id}) SET a.position = r.p", {"rows": moved})
        for k in sorted(old):
            if k in new and old[k][1] != new[k][1]:
                self._conn.execute("MATCH (s:Symbol) WHERE s.artifact = $a SET s.rank = $r", {"a": k, "r": new[k][1]})

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
        elif label == "Name":
            present = _ids(self.store, "UNWIND $ids AS i MATCH (n:Name {id: i}) RETURN n.id",
                           {"ids": table["id"].to_pylist()})
            if present:
                mask = pc.is_in(table["id"], value_set=pa.array(sorted(present), pa.string()))
                old = table.filter(mask)
                self._add_counts({r["id"]: {c: r[c] for c in _COUNT_COLS} for r in old.to_pylist()})
                table = table.filter(pc.invert(mask))
        if table.num_rows:
            self.store._copy_node(label, _with_schema_columns(table, NODE_TABLES[label]))

    def rels(self, name: str, src: str, dst: str, table: pa.Table) -> None:
        if table.num_rows:
            self.store._copy_rel(name, src, dst, table)

    # --- finishing -------------------------------------------------------------------------------------
    def counts(self) -> dict[str, int]:
        one = lambda cypher: int(self.store.query(cypher).column(0)[0].as_py())  # noqa: E731
        methods = one("MATCH (m:Method) WHERE NOT m.external RETURN count(m)")
        fields = one("MATCH (f:Field) WHERE NOT f.external RETURN count(f)")
        edges = sum(one(f"MATCH ()-[r:{name}]->() RETURN count(r)") for name in REL_TABLES if name != "NAMES")
        return {
            "artifacts": one("MATCH (a:Artifact) RETURN count(a)"),
            "classes": one("MATCH (t:Type) WHERE NOT t.external AND NOT t.shadowed RETURN count(t)"),
            "types": one("MATCH (t:Type) RETURN count(t)"), "methods": methods, "fields": fields,
            "members": methods + fields, "calls": one("MATCH ()-[r:INVOKES]->() RETURN count(r)"), "edges": edges,
        }

    def commit(self, manifest: dict) -> Path:
        self._conn.execute("COMMIT")
        self.store.close()
        manifest = dict(manifest, schema=SCHEMA_VERSION, backend=backend_name(), build=self.build_id)
        (self.tmp / MANIFEST).write_text(json.dumps(manifest, sort_keys=True, indent=1))
        os.replace(self.tmp, self.root / self.build_id)
        pointer = self.root / f".{CURRENT}-{os.getpid()}"
        pointer.write_text(self.build_id)
        os.replace(pointer, self.root / CURRENT)
        _sweep(self.root)
        return self.root / self.build_id

    def abort(self) -> None:
        try:
            self.store.close()
        finally:
            shutil.rmtree(self.tmp, ignore_errors=True)
