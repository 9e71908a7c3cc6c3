"""The Kotlin links held in memory by a process that has searched, beside its search index (jdx.engine.search_index).

The graph answers "which declaration does this JVM member compile from" with a join over every COMPILES_TO
edge (`WHERE m.id IN $ids`: ~10 ms on kotlin-stdlib, several per `search`). A process that holds the search
index (loaded by its first search) loads the edges once instead (one scan, ~15 ms on kotlin-stdlib's 9,400 edges) with the ids of
the Kotlin classes, and keeps each declaration row it has fetched (by primary key, only the ones not seen yet).
Same rows, same order as the graph's queries (tests compare them).
"""

from __future__ import annotations

import weakref

from jdx.engine.search_index import loaded_index
from jdx.graph_schema import queries_kotlin as q
from jdx.graph_schema.store import GraphStore

_LINKS: weakref.WeakKeyDictionary[GraphStore, KotlinLinks] = weakref.WeakKeyDictionary()


def kotlin_links(store: GraphStore) -> KotlinLinks | None:
    """The store's Kotlin links once this process holds its search index (loaded on first use) or its method
    columns (a reader that has answered thousands of rows: `GraphStore.method_columns`); None before (a `members`
    or `body` of a Kotlin class asks the graph). Loaded once (a Maven repository's 24k links: ~0.45 s), they spare
    every later answer its key lookups (`usages` naming 50 callers there: 0.17 s -> 0.015 s)."""
    if loaded_index(store) is None and store.method_columns() is None:
        return None
    found = _LINKS.get(store)
    if found is None:
        found = _LINKS[store] = KotlinLinks(store)
    return found


class KotlinLinks:
    def __init__(self, store: GraphStore):
        self.store = weakref.ref(store)
        self.types = frozenset(r["id"] for r in store.rows(q.KOTLIN_TYPE_IDS))
        edges = store.query(q.KOTLIN_LINKS)
        cols = {c: edges.column(c).to_pylist() for c in edges.column_names}
        links: dict[str, list[tuple]] = {}
        self.access: dict[str, int] = {}
        for member, role, decl, owner, position, access in zip(cols["member"], cols["role"], cols["decl"],
                                                               cols["owner"], cols["position"], cols["access"]):
            links.setdefault(member, []).append((owner, position, decl, role))
            self.access[member] = access
        for rows in links.values():
            rows.sort(key=lambda r: (r[0], r[1]))
        self.links = links
        self._decls: dict[str, dict] = {}
        self._class_names: frozenset[str] | None = None

    def class_names(self) -> frozenset[str]:
        """The names (`fqn`) of the classes that have a Kotlin class header (KOTLIN_HEADERS_BY_FQN's), read once:
        a `hierarchy` naming thousands of Java classes asks the graph for none of them (its `t.fqn IN $fqns` scanned
        every type: ~30 ms an answer on a Maven repository's graph)."""
        if self._class_names is None:
            store = self.store()
            rows = store.rows(q.KOTLIN_CLASS_NAMES) if store is not None else []
            self._class_names = frozenset(r["fqn"] for r in rows)
        return self._class_names

    def _fetch(self, decl_ids) -> None:
        missing = sorted({d for d in decl_ids if d not in self._decls})
        store = self.store()
        if missing and store is not None:
            for row in store.rows(q.KOTLIN_DECLS_BY_ID, {"ids": missing}):
                self._decls[row["id"]] = row

    def _rows(self, member: str) -> list[dict]:
        return [{"member": member, "role": role, **self._decls[decl]} for _o, _p, decl, role in self.links[member]
                if decl in self._decls]

    def member_rows(self, member_ids) -> dict[str, list[dict]]:
        """kotlin_view.member_kotlin's answer: methods, then fields, each by id."""
        wanted = [i for i in set(member_ids) if i in self.links]
        self._fetch(decl for i in wanted for _o, _p, decl, _r in self.links[i])
        ordered = sorted(i for i in wanted if "(" in i) + sorted(i for i in wanted if "(" not in i)
        return {i: rows for i in ordered if (rows := self._rows(i))}

    def type_headers(self, type_ids) -> dict[str, dict]:
        """Type id -> the declaration that compiles to the class itself (role `type`), as KOTLIN_OF_TYPES."""
        heads = {}
        for tid in type_ids:
            first = next((link for link in self.links.get(tid, ()) if link[3] == "type"), None)
            if first is not None:
                heads[tid] = first
        self._fetch(link[2] for link in heads.values())
        return {tid: {"member": tid, "role": "type", **self._decls[link[2]]} for tid, link in heads.items()
                if link[2] in self._decls}
