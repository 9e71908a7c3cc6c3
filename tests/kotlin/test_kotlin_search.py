"""`search` in the Kotlin view over the kotlinc fixtures (spec §12.1): every Kotlin function and property is found
by its name as exactly one hit carrying a JVM reference it compiles to (accessors, facade copies, @JvmStatic and
@JvmOverloads copies folded into it), and no JVM hit of the JVM view is lost."""

from __future__ import annotations

import re
import shutil

import pytest

from tests.kotlin.corpus import fixtures_jar, indexed_store


@pytest.fixture(scope="module")
def store(tmp_path_factory, jdx_home):
    yield from indexed_store(tmp_path_factory, jdx_home, fixtures_jar(), "kts", "kotlin-fixtures.jar")


def _search(store, name: str, view: str) -> list[dict]:
    from jdx.engine.search import SearchOptions, search

    result, truncated = search(store, name, SearchOptions(view=view, limit=1000))
    assert truncated is None
    return result["matches"]


def _plain(ref: str) -> str:
    return ref.replace("...", "[]")


def _link_refs(links: list[str]) -> set[str]:
    from jdx.engine.kotlin_view import member_ref

    return {_plain(member_ref(link.split(":", 1)[1])) for link in links if not link.startswith("type:")}


def test_every_declaration_is_one_hit(store):
    decls = store.rows("MATCH (k:KotlinDecl) WHERE k.kind IN ['function', 'property'] RETURN k.id AS id, "
                       "k.name AS name, k.kind AS kind, k.jvm AS jvm ORDER BY id")
    checked = 0
    for d in decls:
        refs = _link_refs(d["jvm"] or [])
        if not refs:
            continue
        pattern = d["name"] if re.fullmatch(r"\w+", d["name"]) else re.match(r"\w+", d["name"]).group() + "*"
        hits = [m for m in _search(store, pattern, "kotlin")
                if m.get("kotlin", {}).get("name") == d["name"] and _plain(m["ref"]) in refs]
        assert len(hits) == 1, (d["id"], pattern, [m["ref"] for m in hits])
        assert hits[0]["kotlin"]["kind"] == d["kind"]
        checked += 1
    assert checked >= 45  # the fixtures declare 48 functions and properties with JVM members


@pytest.mark.parametrize("pattern", ["*", "*e*", "get*", "title", "area", "name"])
def test_no_jvm_hit_lost(store, pattern):
    """Each hit of the JVM view is in the Kotlin view: as itself, or as one of the JVM members of the Kotlin
    declaration it folded into; a declaration is listed once."""
    jvm = _search(store, pattern, "jvm")
    kotlin = _search(store, pattern, "kotlin")
    assert all("kotlin" not in m and "_key" not in m for m in jvm)
    plain = {_plain(m["ref"]) for m in kotlin if "kotlin" not in m}
    folded = set()
    for m in kotlin:
        if "kotlin" in m:
            folded |= {_plain(link["ref"]) for link in m["kotlin"]["jvm"]} | {_plain(m["ref"])}
    for m in jvm:
        ref = _plain(m["ref"])
        assert ref in plain or ref in folded or any(f.startswith(ref + "(") for f in folded), ref
    keys = [(m["kotlin"]["name"], m["kotlin"]["text"], tuple(x["ref"] for x in m["kotlin"]["jvm"]))
            for m in kotlin if "kotlin" in m]
    assert len(keys) == len(set(keys))
    assert len(kotlin) <= len(jvm) + sum(m.get("overloads", 1) - 1 for m in jvm)


def test_property_accessors_fold(store):
    hits = _search(store, "title", "kotlin")
    assert [(m["ref"], m["kotlin"]["text"]) for m in hits] == [("kx.Canvas#getTitle()", "public var title: String?")]
    assert len(_search(store, "title", "jvm")) == 3  # field, getter, setter


@pytest.mark.parametrize("pattern", ["*", "*e*", "get*", "title", "area", "name"])
def test_a_long_lived_process_answers_the_kotlin_view_like_the_graph(store, monkeypatch, pattern):
    """A process holding the search index in memory also holds the Kotlin links: the same hits as the graph's
    queries, and once loaded no COMPILES_TO scan per search; hits past --limit are left out alike."""
    import jdx.engine.kotlin_index as index_mod
    from jdx.engine.search import SearchOptions, search
    from jdx.engine.search_index import NameIndex

    def answer(limit: int):
        return search(store, pattern, SearchOptions(view="kotlin", limit=limit))

    def use(index) -> None:  # no index: the Kotlin links come from the graph's queries
        monkeypatch.setattr(index_mod, "loaded_index", lambda _store: index)

    use(None)
    from_graph, few_from_graph = answer(1000), answer(3)
    assert few_from_graph[0]["matches"] == from_graph[0]["matches"][:3]
    assert from_graph[0]["total"] == len(from_graph[0]["matches"])
    use(NameIndex(store))
    index_mod._LINKS.pop(store, None)
    assert answer(1000) == from_graph and answer(3) == few_from_graph
    asked = []
    rows = type(store).rows
    monkeypatch.setattr(type(store), "rows", lambda self, cypher, params=None: asked.append(cypher) or
                        rows(self, cypher, params))
    assert answer(1000) == from_graph
    assert not [c for c in asked if "COMPILES_TO" in c or "IN $ids" in c], asked


def test_in_memory_kotlin_links_are_the_graphs(store, monkeypatch):
    """Every JVM member's Kotlin declarations, and every class header, as the graph's queries return them."""
    import jdx.engine.kotlin_index as index_mod
    from jdx.engine.kotlin_view import member_kotlin
    from jdx.graph_schema import queries_kotlin as q

    ids = [r["id"] for r in store.rows("MATCH (m:Method) RETURN m.id AS id")]
    ids += [r["id"] for r in store.rows("MATCH (f:Field) RETURN f.id AS id")]
    monkeypatch.setattr(index_mod, "loaded_index", lambda _store: None)
    monkeypatch.setattr(store, "method_columns", lambda: None)  # no links: the graph's queries answer
    from_graph = member_kotlin(store, ids)
    assert len(from_graph) >= 45
    links = index_mod.KotlinLinks(store)
    assert links.member_rows(ids) == from_graph
    assert list(links.member_rows(ids)) == list(from_graph)
    types = [r["id"] for r in store.rows("MATCH (t:Type) RETURN t.id AS id")]
    heads: dict = {}
    for r in store.rows(q.KOTLIN_OF_TYPES, {"ids": types}):
        heads.setdefault(r["member"], r)
    assert links.type_headers(types) == heads and heads
    assert links.types == {r["id"] for r in store.rows(q.KOTLIN_TYPES_AMONG, {"ids": types})}


def test_members_asked_few_or_many_at_a_time_get_the_same_declarations(store, monkeypatch):
    """The graph's two forms (an IN filter up to KOTLIN_IN_UP_TO ids, key lookups past it) return the same rows."""
    import jdx.engine.kotlin_index as index_mod
    from jdx.engine.kotlin_view import member_kotlin
    from jdx.graph_schema import queries_kotlin as q

    monkeypatch.setattr(index_mod, "loaded_index", lambda _store: None)
    ids = [r["id"] for r in store.rows("MATCH (m:Method) RETURN m.id AS id ORDER BY id")]
    ids += [r["id"] for r in store.rows("MATCH (f:Field) RETURN f.id AS id ORDER BY id")]
    asked: list[str] = []
    rows = type(store).rows
    monkeypatch.setattr(type(store), "rows", lambda self, cypher, params=None: asked.append(cypher) or
                        rows(self, cypher, params))
    many = member_kotlin(store, ids)
    assert q.KOTLIN_OF_METHODS_MANY in asked and q.KOTLIN_OF_FIELDS_MANY in asked
    asked.clear()
    few: dict = {}
    step = q.KOTLIN_IN_UP_TO
    for start in range(0, len(ids), step):
        few.update(member_kotlin(store, ids[start:start + step]))
    assert q.KOTLIN_OF_METHODS in asked and q.KOTLIN_OF_METHODS_MANY not in asked
    assert len(many) >= 45 and many == few


def test_a_reader_holding_its_method_columns_answers_from_the_links(tmp_path_factory, jdx_home, monkeypatch):
    """A long-lived reader that loaded its method columns (thousands of rows answered) holds the Kotlin links too,
    before any search; a reader that did neither asks the graph."""
    from jdx.commands.session import Options, Session
    from jdx.engine import kotlin_index
    from jdx.graph_schema import store as store_mod

    jar = tmp_path_factory.mktemp("ktl") / "kotlin-fixtures.jar"
    shutil.copy(fixtures_jar(), jar)
    for after, held in ((1 << 60, False), (0, True)):
        monkeypatch.setattr(store_mod, "METHOD_COLUMNS_AFTER", after)
        session = Session(Options(jars=[str(jar)], jdk=False, cache_dir=str(jdx_home / "cache")))
        try:
            store = session.store()
            assert kotlin_index.loaded_index(store) is None
            links = kotlin_index.kotlin_links(store)
            assert (links is not None) == held
            if held:
                assert len(links.links) >= 45
                _class_headers_from_links_are_the_graphs(store, monkeypatch)
        finally:
            session.close()


def _class_headers_from_links_are_the_graphs(store, monkeypatch):
    """`types_of` through a reader's links (only the names of classes with a Kotlin header are asked for) finds
    every header the graph's query over all the names finds."""
    from jdx.engine import kotlin_hits, kotlin_index

    fqns = [r["fqn"] for r in store.rows("MATCH (t:Type) RETURN t.fqn AS fqn")] + ["java.lang.Object", "no.Such"]
    held = kotlin_hits.types_of(store, fqns)
    assert kotlin_index.kotlin_links(store).class_names() <= set(fqns)
    with monkeypatch.context() as m:
        m.setattr(kotlin_index, "kotlin_links", lambda _store: None)
        asked = kotlin_hits.types_of(store, fqns)
    assert held == asked and len(held) >= 10
