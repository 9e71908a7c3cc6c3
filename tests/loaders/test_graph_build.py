"""Graph-build semantics on hand-made shards (a fake extractor): no JVM involved."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pytest

from jdx.graph_schema.store import GraphStore
from jdx.loaders.extractor import REF_KINDS, TYPE_KINDS, ExtractedArtifact
from jdx.loaders.indexer import ensure_graph
from jdx.loaders.roots import Artifact

S = pa.string()
I = pa.int32()


def tables(types, supers=(), methods=(), fields=(), refs=()):
    """types: (name, kind, access, super); methods/fields: (owner, name, desc, access); refs: (from, kind, to, line)."""
    t = pa.table({
        "name": pa.array([x[0] for x in types], S), "kind": pa.array([TYPE_KINDS.index(x[1]) for x in types], I),
        "access": pa.array([x[2] for x in types], I), "signature": pa.array([None] * len(types), S),
        "super": pa.array([x[3] for x in types], S), "outer": pa.array([None] * len(types), S),
        "inner_name": pa.array([None] * len(types), S), "inner_access": pa.array([-1] * len(types), I),
        "outer_method": pa.array([None] * len(types), S), "source_file": pa.array([None] * len(types), S),
        "version": pa.array([61] * len(types), I), "kotlin": pa.array([None] * len(types), S),
        "entry": pa.array([x[0] + ".class" for x in types], S), "permits": pa.array([None] * len(types), S),
    })
    sup_rows = [(x[0], x[3], 0, 0) for x in types if x[3]] + list(supers)
    st = pa.table({"type": pa.array([r[0] for r in sup_rows], S), "super": pa.array([r[1] for r in sup_rows], S),
                   "kind": pa.array([r[2] for r in sup_rows], I), "position": pa.array([r[3] for r in sup_rows], I)})
    mem = [(f"{o}#{n}{d}", o, 0, n, d, a) for o, n, d, a in methods] + \
          [(f"{o}#{n}:{d}", o, 1, n, d, a) for o, n, d, a in fields]
    m = pa.table({
        "id": pa.array([r[0] for r in mem], S), "owner": pa.array([r[1] for r in mem], S),
        "kind": pa.array([r[2] for r in mem], I), "name": pa.array([r[3] for r in mem], S),
        "descriptor": pa.array([r[4] for r in mem], S), "signature": pa.array([None] * len(mem), S),
        "access": pa.array([r[5] for r in mem], I), "exceptions": pa.array([None] * len(mem), S),
        "param_names": pa.array([None] * len(mem), S), "param_source": pa.array([0] * len(mem), I),
        "constant": pa.array([None] * len(mem), S), "annotation_default": pa.array([None] * len(mem), S),
        "first_line": pa.array([-1] * len(mem), I), "last_line": pa.array([-1] * len(mem), I),
        "ordinal": pa.array(range(len(mem)), I),
    })
    def ref_table(rows):
        return pa.table({
            "from": pa.array([x[0] for x in rows], S), "kind": pa.array([REF_KINDS.index(x[1]) for x in rows], I),
            "to": pa.array([x[2] for x in rows], S), "line": pa.array([x[3] for x in rows], I),
        })

    calls = ref_table([x for x in refs if x[1].startswith("invoke") or x[1] == "handle"])
    accesses = ref_table([x for x in refs if x[1] in ("getfield", "getstatic", "putfield", "putstatic")])
    typerefs = ref_table([x for x in refs if "#" not in x[2]])
    empty_ann = pa.table({c: pa.array([], S if c in ("owner", "member_name", "member_desc", "annotation", "text") else I)
                          for c in ("owner_kind", "owner", "member_name", "member_desc", "param", "annotation",
                                    "visible", "text")})
    warn = pa.table({"code": pa.array([], S), "entry": pa.array([], S), "message": pa.array([], S)})
    return {"types": t, "supertypes": st, "members": m, "calls": calls, "accesses": accesses, "typerefs": typerefs,
            "annotations": empty_ann, "warnings": warn}


class FakeExtractor:
    def __init__(self, by_name: dict[str, dict]):
        self.by_name = by_name
        self.calls = 0

    def extract(self, artifacts):
        self.calls += 1
        for i, a in enumerate(artifacts):
            t = self.by_name[a.name]
            yield ExtractedArtifact(i, t, t["types"].num_rows, [])


PUB = 0x1
LIB = tables(
    types=[("lib/Super", "class", PUB, "java/lang/Object"), ("lib/Sub", "class", PUB, "lib/Super"),
           ("lib/Dup", "class", PUB, "java/lang/Object")],
    methods=[("lib/Super", "foo", "()V", PUB), ("lib/Super", "<init>", "()V", PUB), ("lib/Sub", "<init>", "()V", PUB),
             ("lib/Sub", "bar", "()V", PUB)],
    fields=[("lib/Super", "count", "I", PUB)],
    refs=[("lib/Sub#bar()V", "invokevirtual", "lib/Sub#foo()V", 10),
          ("lib/Sub#bar()V", "getfield", "lib/Sub#count:I", 11),
          ("lib/Sub#bar()V", "invokevirtual", "java/lang/String#length()I", 12),
          ("lib/Sub#bar()V", "new", "lib/Super", 13)],
)
APP = tables(types=[("lib/Dup", "class", PUB, "java/lang/Object"), ("app/Main", "class", PUB, "lib/Sub")],
             methods=[("app/Main", "foo", "()V", PUB)])


def artifact(name: str) -> Artifact:
    return Artifact("jar", f"/fake/{name}", name, name.ljust(32, "0")[:32], f"jar:/fake/{name}")


def build(tmp_path: Path, names: list[str]):
    fake = FakeExtractor({"lib.jar": LIB, "app.jar": APP})
    report = ensure_graph(tmp_path, [artifact(n) for n in names], extractor=fake)
    return report, GraphStore(report.graph / "graph.kz"), fake


def test_calls_resolve_to_the_declaring_supertype(tmp_path):
    _, store, _ = build(tmp_path, ["lib.jar"])
    rows = store.rows("MATCH (a:Method)-[r:INVOKES]->(b:Method) RETURN a.id AS a, b.id AS b, r.via AS via, r.line AS line "
                      "ORDER BY line")
    assert rows[0] == {"a": "lib/Sub#bar()V", "b": "lib/Super#foo()V", "via": "lib/Sub", "line": 10}
    assert rows[1]["b"] == "java/lang/String#length()I" and rows[1]["via"] is None
    reads = store.rows("MATCH (a:Method)-[r:READS]->(f:Field) RETURN f.id AS f, r.via AS via")
    assert reads == [{"f": "lib/Super#count:I", "via": "lib/Sub"}]
    external = store.rows("MATCH (t:Type {id: 'java/lang/String'}) RETURN t.external AS e")
    assert external == [{"e": True}]
    refs = store.rows("MATCH (a:Method)-[r:REFERENCES]->(t:Type) RETURN t.id AS t, r.kind AS k")
    assert refs == [{"t": "lib/Super", "k": "new"}]
    store.close()


def test_overrides_and_hierarchy(tmp_path):
    _, store, _ = build(tmp_path, ["app.jar", "lib.jar"])
    rows = store.rows("MATCH (a:Method)-[r:OVERRIDES]->(b:Method) RETURN a.id AS a, b.id AS b, r.direct AS d")
    assert rows == [{"a": "app/Main#foo()V", "b": "lib/Super#foo()V", "d": True}]
    chain = store.rows("MATCH (t:Type {id: 'app/Main'})-[:EXTENDS*1..5]->(s:Type) RETURN s.id AS sid ORDER BY sid")
    assert [r["sid"] for r in chain] == ["java/lang/Object", "lib/Sub", "lib/Super"]
    store.close()


def test_classpath_order_decides_the_loaded_class_and_reports_duplicates(tmp_path):
    report, store, _ = build(tmp_path, ["app.jar", "lib.jar"])
    dup = [w for w in report.warnings if w.code == "DUPLICATE_CLASS"]
    assert len(dup) == 1 and "app.jar" in dup[0].message and "lib.jar" in dup[0].message
    rows = store.rows("MATCH (a:Artifact)-[:CONTAINS]->(t:Type) WHERE t.name = 'lib/Dup' "
                      "RETURN a.name AS an, t.id AS id, t.shadowed AS s ORDER BY an")
    assert rows[0] == {"an": "app.jar", "id": "lib/Dup", "s": False}
    assert rows[1]["an"] == "lib.jar" and rows[1]["s"] is True and rows[1]["id"].startswith("lib/Dup@")
    store.close()


@pytest.mark.soak
def test_shards_are_reused_and_graphs_are_keyed_by_artifacts(tmp_path):
    report, store, fake = build(tmp_path, ["lib.jar"])
    store.close()
    again = ensure_graph(tmp_path, [artifact("lib.jar")], extractor=fake)
    assert again.built is False and fake.calls == 1
    other = ensure_graph(tmp_path, [artifact("app.jar"), artifact("lib.jar")], extractor=fake)
    assert other.built and other.extracted == 1  # lib.jar's shard came from the cache
    assert other.graph != report.graph


def test_a_shadowed_copy_keeps_its_members_and_call_sites_under_its_own_id(tmp_path):
    """Only the shadowed class's rows move under `name@artifact`; its neighbours in the same jar keep their ids."""
    first = tables(types=[("dup/D", "class", PUB, "java/lang/Object")],
                   methods=[("dup/D", "run", "()V", PUB)],
                   refs=[("dup/D#run()V", "invokevirtual", "java/lang/String#length()I", 5)])
    second = tables(types=[("dup/D", "class", PUB, "java/lang/Object"), ("dup/Other", "class", PUB, "java/lang/Object")],
                    methods=[("dup/D", "run", "()V", PUB), ("dup/Other", "go", "()V", PUB)],
                    fields=[("dup/D", "n", "I", PUB)],
                    refs=[("dup/D#run()V", "invokevirtual", "java/lang/String#isEmpty()Z", 7),
                          ("dup/D#run()V", "getfield", "dup/D#n:I", 8),
                          ("dup/Other#go()V", "invokevirtual", "dup/D#run()V", 9)])
    fake = FakeExtractor({"first.jar": first, "second.jar": second})
    report = ensure_graph(tmp_path, [artifact("first.jar"), artifact("second.jar")], extractor=fake)
    store = GraphStore(report.graph / "graph.kz")
    copy = "dup/D@" + artifact("second.jar").key[:16]
    declared = store.rows("MATCH (t:Type)-[:DECLARES]->(m) RETURN t.id AS tid, m.id AS mid ORDER BY tid, mid")
    assert declared == [{"tid": "dup/D", "mid": "dup/D#run()V"}, {"tid": copy, "mid": f"{copy}#n:I"},
                        {"tid": copy, "mid": f"{copy}#run()V"}, {"tid": "dup/Other", "mid": "dup/Other#go()V"}]
    calls = store.rows("MATCH (a:Method)-[r:INVOKES]->(b:Method) RETURN a.id AS a, b.id AS b ORDER BY r.line")
    assert calls == [{"a": "dup/D#run()V", "b": "java/lang/String#length()I"},
                     {"a": f"{copy}#run()V", "b": "java/lang/String#isEmpty()Z"},
                     {"a": "dup/Other#go()V", "b": "dup/D#run()V"}]  # the JVM links the loaded copy
    reads = store.rows("MATCH (a:Method)-[:READS]->(f:Field) RETURN a.id AS a")
    assert reads == [{"a": f"{copy}#run()V"}]
    shadowed = store.rows("MATCH (m:Method) WHERE m.shadowed RETURN m.id AS m")
    assert shadowed == [{"m": f"{copy}#run()V"}]
    store.close()


@pytest.mark.soak
def test_a_build_whose_copies_wait_for_its_edges_equals_one_that_copies_at_once(tmp_path, monkeypatch):
    """A build past DEFER_COPIES_FROM members (the whole local Maven repository) holds its COPYs until its edges
    are released: the graph is the same, row for row."""
    from jdx.graph_schema import store as store_module

    def dump(store: GraphStore) -> list:
        out = []
        for label in ("Type", "Method", "Field", "Package", "Artifact"):
            out += sorted(map(str, store.rows(f"MATCH (n:{label}) RETURN n.*")))
        for rel in ("CONTAINS", "DECLARES", "EXTENDS", "IMPLEMENTS", "INVOKES", "READS", "WRITES", "REFERENCES",
                    "OVERRIDES"):
            out += sorted(map(str, store.rows(f"MATCH (a)-[r:{rel}]->(b) RETURN a.id, b.id, r")))
        return out

    _, at_once, _ = build(tmp_path / "a", ["app.jar", "lib.jar"])
    monkeypatch.setattr(store_module, "DEFER_COPIES_FROM", 0)
    _, waited, _ = build(tmp_path / "b", ["app.jar", "lib.jar"])
    try:
        assert dump(at_once) == dump(waited) and len(dump(at_once)) > 20
    finally:
        at_once.close()
        waited.close()
