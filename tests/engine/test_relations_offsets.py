"""A long-lived reader fills big answers' method columns from its own table by node offset, asks for
many ids through an UNWIND of key lookups, and holds every lambda's writer and every bridge-twin key instead of
querying them per answer: the answers must be exactly those of the plain queries."""

from __future__ import annotations

import dataclasses
import json

import pytest

from jdx.engine.rel_calls import CallOptions
from jdx.engine.relations import rows_by_ids
from jdx.graph_schema import queries_graph as q
from jdx.graph_schema import store as store_mod
from tests.fixtures.build_graph import graph_jar
from tests.service import JdxService, Options

SYMBOLS = ("gx.Ping#ping(int)", "gx.Shape#describe()", "gx.AbstractShape#sides", "gx.Counter#count",
           "gx.Shape#area", "gx.CycleA#a", "gx.Pong#pong", "gx.Shape")
BIG = ("java.util.List#size()", "java.lang.Object#toString()")  # thousands of JDK call sites
# the default tier samples one big target; the soak compares every one
BIG_IDS = ["java/util/List#size()I", "java/lang/Object#toString()Ljava/lang/String;", "java/lang/Object#<init>()V"]
SAMPLES = [pytest.param(1, id="sample"), pytest.param(len(BIG_IDS), id="whole", marks=pytest.mark.soak)]


def _answers(svc: JdxService, big: int) -> str:
    out = []
    for s in SYMBOLS:
        for name, call in (("usages", lambda: svc.usages(s)), ("overrides", lambda: svc.overrides(s)),
                           ("callers", lambda: svc.callers(s, CallOptions(depth=4))),
                           ("calls", lambda: svc.calls(s, CallOptions(depth=4)))):
            try:
                out.append((s, name, call().result))
            except Exception as exc:  # noqa: BLE001 - a refusal must be the same refusal on both paths
                out.append((s, name, f"{type(exc).__name__}: {exc}"))
    for s in BIG[:big]:
        out.append((s, "usages", svc.usages(s).result))
        out.append((s, "callers", svc.callers(s, CallOptions(depth=2, limit=300)).result))
    return json.dumps(out, sort_keys=True, default=str)


@pytest.fixture(scope="module")
def jar(jdx_home):
    return graph_jar(jdx_home)


@pytest.mark.soak
@pytest.mark.parametrize("big", SAMPLES)
def test_answers_from_method_columns_equal_the_property_reads(jdx_home, jar, monkeypatch, big):
    monkeypatch.setattr(store_mod, "METHOD_COLUMNS_AFTER", 1 << 60)
    plain = JdxService(Options(jars=[str(jar)], cache_dir=str(jdx_home / "cache")))
    try:
        assert plain.store().method_columns() is None
        want = _answers(plain, big)
        assert plain.store().method_columns() is None
    finally:
        plain.close()
    monkeypatch.setattr(store_mod, "METHOD_COLUMNS_AFTER", 0)
    warm = JdxService(Options(jars=[str(jar)], cache_dir=str(jdx_home / "cache")))
    try:
        columns = warm.store().method_columns()
        assert columns is not None and "gx/Ping#ping(I)I" in columns[0]
        assert _answers(warm, big) == want
    finally:
        warm.close()


@pytest.mark.soak
@pytest.mark.parametrize("big", SAMPLES)
def test_every_form_of_a_query_returns_the_same_rows(jdx_home, jar, big):
    svc = JdxService(Options(jars=[str(jar)], cache_dir=str(jdx_home / "cache")))
    try:
        store = svc.store()
        ids = sorted(r["id"] for r in store.rows("MATCH (m:Method) WHERE m.id STARTS WITH 'gx/' RETURN m.id AS id"))
        ids += BIG_IDS[:big]  # thousands of call sites each
        key = lambda r: json.dumps(r, sort_keys=True)  # noqa: E731
        for query in (q.CALLS_INTO, q.CALLS_FROM, q.OVERRIDERS_OF, q.SUBTYPES_OF):
            rows = {}
            for form in ("one", "many", "unwind"):
                forced = dataclasses.replace(query, one_by_one=len(ids) if form == "one" else 0,
                                             unwind_from=0 if form == "unwind" else len(ids), by_offset=None)
                targets = ids if query is not q.SUBTYPES_OF else ["gx/Shape", "java/lang/Object"]
                rows[form] = sorted(map(key, rows_by_ids(store, forced, targets)))
            assert rows["one"] and rows["one"] == rows["many"] == rows["unwind"], query.one
    finally:
        svc.close()


def test_a_readers_twin_keys_equal_the_owners_methods_sharing_name_and_parameters(jdx_home, jar, monkeypatch):
    """The long-lived reader's bridge-twin keys (counted by the graph database) against the same count over its
    method columns, and its `twin_ids` against a plain reader's (one query over the rows' owners)."""
    from collections import Counter

    from jdx.engine import relations

    monkeypatch.setattr(store_mod, "METHOD_COLUMNS_AFTER", 0)
    warm = JdxService(Options(jars=[str(jar)], cache_dir=str(jdx_home / "cache")))
    try:
        ids, _access, _artifact, external = warm.store().method_columns()
        counts = Counter(i[: i.index(")") + 1] for i, e in zip(ids, external) if not e)
        want = {k for k, n in counts.items() if n > 1}
        assert len(want) > 100  # the JDK's bridges and their covariant twins
        assert relations._twin_keys(warm.store()) == want
        twins = sorted(i for i, e in zip(ids, external) if not e and i[: i.index(")") + 1] in want)[::40]
        others = sorted(i for i, e in zip(ids, external) if not e and i.startswith("java/util/"))[::40]
        rows = [{"c_id": i} for i in twins + others]
        got = relations.twin_ids(warm.store(), rows, "c_")
        assert got and set(twins) <= got
    finally:
        warm.close()
    monkeypatch.setattr(store_mod, "METHOD_COLUMNS_AFTER", 1 << 60)
    plain = JdxService(Options(jars=[str(jar)], cache_dir=str(jdx_home / "cache")))
    try:
        assert plain.store().method_columns() is None
        assert relations.twin_ids(plain.store(), [dict(r) for r in rows], "c_") == got
    finally:
        plain.close()
