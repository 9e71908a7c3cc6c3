"""The relationship graph on fixtures compiled at test time (tests/fixtures/graph): usages of every kind,
lambda attribution, virtual dispatch, cycle-safe call trees, hierarchy with generic arguments and
unresolved supertypes, and the metamorphic relations of spec §18 (callers ⟺ calls, up ⟺ down, run twice)."""

from __future__ import annotations

import json

import pytest

from jdx.engine.rel_calls import CallOptions
from jdx.engine.rel_hierarchy import HierarchyOptions
from jdx.engine.rel_usages import UsageOptions, usage_sites
from jdx.engine.relations import ArtifactFilter, resolve_symbol
from tests.service import JdxService, Options
from jdx.errors import AmbiguousError, NotFoundError, UsageError
from tests.conftest import GSON, require
from tests.fixtures.build_graph import graph_jar


@pytest.fixture(scope="module")
def svc(jdx_home) -> JdxService:
    jar = graph_jar(jdx_home)
    service = JdxService(Options(jars=[str(jar)], cache_dir=str(jdx_home / "cache")))
    yield service
    service.close()


def sites(svc, text, *kinds):
    store = svc.store()
    return usage_sites(store, resolve_symbol(store, text), kinds or ("all",))


def short(rows):
    return sorted((s["kind"], s["caller"], s["line"]) for s in rows)


# --- usages --------------------------------------------------------------------------------------

def test_lambda_body_sites_belong_to_the_method_that_wrote_the_lambda(svc):
    found = sites(svc, "gx.Ping#ping(int)")
    by_caller = {s["caller"]: s for s in found}
    # `() -> Ping.ping(x)` is nested in another lambda in Client#lambdas: reported there, marked
    lam = by_caller["gx.Client#lambdas(java.util.List)"]
    assert lam["in_lambda"] and lam["lambda"].startswith("lambda$lambdas$") and lam["line"] == 25
    assert not by_caller["gx.Pong#pong(int)"]["in_lambda"]
    assert not any("lambda$" in s["caller"] for s in found)


def test_method_reference_is_a_usage(svc):
    ref = [s for s in sites(svc, "gx.Pong#pong") if s["method_ref"]]
    assert [(s["caller"], s["line"], s["kind"]) for s in ref] == [("gx.Client#lambdas(java.util.List)", 28, "call")]


def test_call_through_subtype_counts_for_the_declaration(svc):
    found = sites(svc, "gx.Shape#describe()", "call")
    assert sorted(s["via"] for s in found) == ["gx.Circle", "gx.Named"]
    # AbstractShape#sides() called on a Circle: the declaring member is the target
    assert [(s["caller"], s.get("via")) for s in sites(svc, "gx.AbstractShape#sides", "call")] == \
        [("gx.Client#viaSubclass(gx.Circle, gx.Named)", "gx.Circle")]


def test_field_reads_and_writes(svc):
    assert short(sites(svc, "gx.Counter#count")) == [
        ("read", "gx.Client#lambdas(java.util.List)", 29), ("read", "gx.Counter#get()", 17),
        ("read", "gx.Counter#inc()", 13), ("write", "gx.Counter#inc()", 13)]
    assert short(sites(svc, "gx.Counter#created", "write")) == [
        ("write", "gx.Client#start()", 54), ("write", "gx.Counter#<init>()", 9)]
    # `sides` is declared in AbstractShape, written through Circle and Square constructors
    written = {s["caller"] for s in sites(svc, "gx.AbstractShape#sides", "write")}
    assert written == {"gx.Circle#<init>(double)", "gx.Square#<init>(double)"}


def test_type_usage_kinds(svc):
    found = sites(svc, "gx.GraphException")
    assert {(s["kind"], s["caller"]) for s in found} == {
        ("new", "gx.Client#make()"), ("throw", "gx.Client#make()"), ("ref", "gx.Client#safe()")}
    assert [(s["kind"], s["caller"], s["detail"]) for s in sites(svc, "gx.Marker")] == \
        [("annotation", "gx.Circle", '@gx.Marker(value="round")')]
    assert {(s["kind"], s["caller"]) for s in sites(svc, "gx.Named", "impl")} == {("impl", "gx.AbstractShape")}


def test_constructor_new_versus_super_call(svc):
    # `new Circle(1)` allocates; Circle's constructor calling super() is a call of AbstractShape's
    assert short(sites(svc, "gx.Circle#<init>")) == [("new", "gx.Client#make()", 34)]
    assert {(s["kind"], s["caller"]) for s in sites(svc, "gx.AbstractShape#<init>")} == {
        ("call", "gx.Circle#<init>(double)"), ("call", "gx.Square#<init>(double)")}


def test_override_kind_lists_overriders(svc):
    assert {s["caller"] for s in sites(svc, "gx.Shape#area", "override")} == {"gx.Circle#area()", "gx.Square#area()"}


def test_usages_groups_by_artifact_then_method_and_truncates_explicitly(svc):
    a = svc.usages("java.util.List#size()", UsageOptions(limit=3))
    assert a.truncated["shown"] == 3 and a.truncated["total"] > 3 and a.truncated["hint"].startswith("--limit ")
    shown = [s for g in a.result["groups"] for c in g["callers"] for s in c["sites"]]
    assert len(shown) == 3
    for g in a.result["groups"]:
        assert all(s["artifact"] == g["artifact"] for c in g["callers"] for s in c["sites"])
        assert g["count"] == sum(len(c["sites"]) for c in g["callers"])
    full = svc.usages("java.util.List#size()", UsageOptions(limit=100000))
    assert full.truncated is None and full.result["total"] == a.truncated["total"]


def test_in_and_exclude_filter_by_artifact(svc):
    all_sites = svc.usages("java.util.List#size()", UsageOptions(limit=100000)).result
    mine = svc.usages("java.util.List#size()", UsageOptions(filter=ArtifactFilter(["graph-*"]), limit=100000)).result
    rest = svc.usages("java.util.List#size()", UsageOptions(filter=ArtifactFilter([], ["graph-*"]), limit=100000)).result
    assert [g["artifact"] for g in mine["groups"]] == ["graph-fixtures.jar"]
    assert "graph-fixtures.jar" not in [g["artifact"] for g in rest["groups"]]
    assert mine["total"] + rest["total"] == all_sites["total"]


def test_bare_overloaded_name_answers_every_overload(svc):
    a = svc.usages("java.util.List#of", UsageOptions(kinds=("call",), limit=5))
    assert len(a.result["targets"]) > 5  # List.of has 12 overloads
    assert all(t.startswith("java.util.List#of(") for t in a.result["targets"])


def test_bad_input(svc):
    with pytest.raises(NotFoundError) as e:
        svc.usages("gx.Ping#pingg")
    assert any(c["ref"] == "gx.Ping#ping(int)" for c in e.value.candidates)
    with pytest.raises(NotFoundError) as e:
        svc.usages("gx.Circel")  # neither a type nor a member of a type `gx`: the type's suggestions
    assert [c["ref"] for c in e.value.candidates][:1] == ["gx.Circle"]
    with pytest.raises(UsageError):
        svc.usages("gx.Shape", UsageOptions(kinds=("calls",)))
    with pytest.raises(UsageError):
        svc.callers("gx.Counter#count")
    with pytest.raises(UsageError):
        svc.callers("gx.Shape")
    with pytest.raises(UsageError):
        svc.callers("gx.Shape#area", CallOptions(limit=0))
    with pytest.raises(UsageError):
        svc.hierarchy("gx.Shape", HierarchyOptions(depth=0))
    with pytest.raises(AmbiguousError):
        svc.hierarchy("Shape")  # gx.Shape and java.awt.Shape


def test_kind_that_cannot_match_is_a_warning(svc):
    a = svc.usages("gx.Counter#count", UsageOptions(kinds=("call",)))
    assert a.result["total"] == 0 and [w.code for w in a.warnings] == ["KIND_NOT_APPLICABLE"]


# --- callers / calls -----------------------------------------------------------------------------

def flatten(entries, depth=1):
    for e in entries:
        yield depth, e
        yield from flatten(e.get("children", []), depth + 1)


@pytest.mark.parametrize("depth", [1, 2, 3, 4, 7, 30])
def test_cycles_render_finitely_at_any_depth(svc, depth):
    for direction in ("callers", "calls"):
        a = getattr(svc, direction)("gx.CycleA#a", CallOptions(depth=depth))
        entries = list(flatten(a.result["roots"][0]["tree"]))
        assert max(d for d, _ in entries) <= min(depth, 3)
        if depth >= 3:  # a -> b -> c -> a: the third level meets the root
            assert [e["method"] for d, e in entries if e.get("cycle")] == ["gx.CycleA#a(int)"]
    mutual = svc.callers("gx.Ping#ping", CallOptions(depth=50)).result["roots"][0]["tree"]
    assert any(e.get("cycle") and e["method"] == "gx.Ping#ping(int)" for _, e in flatten(mutual))
    recursive = svc.calls("gx.CycleA#fact", CallOptions(depth=50)).result["roots"][0]["tree"]
    assert [(e["method"], bool(e.get("cycle"))) for e in recursive] == [("gx.CycleA#fact(int)", True)]


def test_calls_show_lambda_calls_and_declarations(svc):
    tree = svc.calls("gx.Client#lambdas").result["roots"][0]["tree"]
    by = {e["method"]: e for e in tree}
    assert by["gx.Counter#inc()"].get("in_lambda") and by["gx.Ping#ping(int)"].get("in_lambda")
    assert by["gx.Pong#pong(int)"].get("method_ref")
    # List.forEach is Iterable's declaration, named through List
    assert by["java.lang.Iterable#forEach(java.util.function.Consumer)"]["via"] == ["java.util.List"]
    assert not any("lambda$" in m for m in by)


def test_calls_external_only(svc):
    tree = svc.calls("gx.Client#lambdas", CallOptions(external_only=True)).result["roots"][0]["tree"]
    assert tree and all(e["artifact"] != "graph-fixtures.jar" for e in tree)


def test_callers_of_interface_method_say_what_dispatch_includes(svc):
    a = svc.callers("gx.Shape#area")
    assert "calls through gx.Shape" in a.result["notes"][0] and "2 overriding method(s) are not" in a.result["notes"][0]
    assert svc.callers("gx.Ping#ping").result["notes"] == []  # static: no dispatch


def test_callers_depth5_bounded_by_limit(svc):
    a = svc.callers("java.util.List#size()", CallOptions(depth=5, limit=20))
    shown = list(flatten(a.result["roots"][0]["tree"]))
    assert len(shown) == 20 == a.truncated["shown"] and a.truncated["total"] > 20
    # the limit is spent on the nearest level: the hint says how to reach depth 5 (it offered only --depth 1)
    assert a.truncated.get("at_least") and max(d for d, _ in flatten(a.result["roots"][0]["tree"])) == 1
    assert f"a higher --limit (--limit {a.truncated['total'] * 4}) reaches depth 5" in a.truncated["hint"]


def _edges(svc, method: str, direction: str) -> set[str]:
    a = getattr(svc, direction)(method, CallOptions(limit=100000))
    return {e["id"] for e in a.result["roots"][0]["tree"]}


@pytest.mark.parametrize("method", ["gx.CycleA#a", "gx.Pong#pong", "gx.Client#lambdas", "gx.Shape#describe",
                                    "gx.Counter#inc"])
def test_callers_and_calls_agree(svc, method):
    """A in callers(B) iff B in calls(A), both ways from a seed method and its neighbours."""
    store = svc.store()
    seed = resolve_symbol(store, method, members_only=True).targets[0].id
    for caller in _edges(svc, method, "callers"):
        assert seed in _edges(svc, caller, "calls"), (caller, seed)
    for callee in _edges(svc, method, "calls"):
        assert seed in _edges(svc, callee, "callers"), (seed, callee)


@pytest.mark.soak  # the same metamorphic check runs on the fixtures in the default tier
def test_callers_and_calls_agree_on_gson(jdx_home):
    jar = require(GSON)
    service = JdxService(Options(jars=[str(jar)], cache_dir=str(jdx_home / "cache")))
    try:
        for method in ("com.google.gson.Gson#toJson(java.lang.Object)", "com.google.gson.JsonParser#parseReader"):
            seeds = {t.id for t in resolve_symbol(service.store(), method, members_only=True).targets}
            for caller in _edges(service, method, "callers"):
                assert seeds & _edges(service, caller, "calls"), caller
            for callee in list(_edges(service, method, "calls"))[:40]:
                assert seeds & _edges(service, callee, "callers"), callee
    finally:
        service.close()


# --- hierarchy -----------------------------------------------------------------------------------

def nodes(tree) -> set[str]:
    return {e["type"] for _, e in flatten(tree)}


def test_hierarchy_up_with_generic_arguments(svc):
    r = svc.hierarchy("gx.TextHolder", HierarchyOptions(down=False)).result
    assert [(e["relation"], e["as"]) for e in r["up"]] == [
        ("extends", "gx.Holder<java.util.List<java.lang.String>>"),
        ("implements", "java.lang.Comparable<gx.TextHolder>")]
    assert r["up_count"] == 3 and "down" not in r


def test_unresolved_supertype_is_named_with_a_warning(svc):
    a = svc.hierarchy("gx.Orphan")
    assert a.result["up"][0]["type"] == "gx.Missing" and a.result["up"][0]["unresolved"]
    assert [w.code for w in a.warnings] == ["UNRESOLVED_SUPERTYPE"] and "gx.Missing" in a.warnings[0].message


def test_hierarchy_down_and_direct(svc):
    r = svc.hierarchy("gx.Shape", HierarchyOptions(up=False)).result
    assert nodes(r["down"]) == {"gx.Named", "gx.AbstractShape", "gx.Circle", "gx.Square"}
    direct = svc.hierarchy("gx.Shape", HierarchyOptions(up=False, depth=1)).result
    assert nodes(direct["down"]) == {"gx.Named"}
    impl = svc.implementors("gx.Shape").result
    assert impl["count"] == 4 and [e["type"] for e in impl["implementors"] if e["direct"]] == ["gx.Named"]


def test_hierarchy_in_filter_bypasses_other_artifacts(svc):
    r = svc.hierarchy("java.lang.Comparable", HierarchyOptions(up=False, filter=ArtifactFilter(["graph-*"]),
                                                                limit=1000)).result
    assert nodes(r["down"]) == {"gx.Square", "gx.TextHolder"}


@pytest.mark.parametrize("name", ["gx.Circle", "gx.Square", "gx.TextHolder", "gx.Named"])
def test_up_and_down_agree(svc, name):
    """T is in up(S) iff S is in down(T)."""
    up = nodes(svc.hierarchy(name, HierarchyOptions(down=False)).result["up"])
    for sup in up - {"java.lang.Object"}:  # down(Object) is the whole workspace
        down = svc.hierarchy(sup, HierarchyOptions(up=False, limit=100000)).result["down"]
        assert name in nodes(down), (sup, name)
    for sub in nodes(svc.hierarchy(name, HierarchyOptions(up=False)).result["down"]):
        assert name in nodes(svc.hierarchy(sub, HierarchyOptions(down=False)).result["up"])


def test_answers_are_identical_across_runs(jdx_home, svc):
    other = JdxService(Options(jars=[str(graph_jar(jdx_home))], cache_dir=str(jdx_home / "cache")))
    try:
        for call in (lambda s: s.usages("java.util.List#size()", UsageOptions(limit=40)),
                     lambda s: s.callers("gx.CycleA#a", CallOptions(depth=4)),
                     lambda s: s.calls("gx.Client#make", CallOptions(depth=2)),
                     lambda s: s.hierarchy("java.util.AbstractList"),
                     lambda s: s.overrides("java.lang.Object#toString", limit=30)):
            first, second = call(svc), call(other)
            assert json.dumps(first.result, sort_keys=True) == json.dumps(second.result, sort_keys=True)
            assert first.truncated == second.truncated
    finally:
        other.close()


def test_context_shows_source_lines_around_each_site(svc):
    a = svc.usages("java.util.HashMap#hash", UsageOptions(limit=2, context=1))
    shown = [s for g in a.result["groups"] for c in g["callers"] for s in c["sites"]]
    if any(w.code == "CONTEXT_UNAVAILABLE" for w in a.warnings):
        pytest.skip("no JDK sources (lib/src.zip) on this machine")
    assert len(shown) == 2
    for s in shown:
        ctx = s["context"]
        assert ctx["focus"] == s["line"] and ctx["lines"] == [s["line"] - 1, s["line"] + 1]
        assert "hash(" in ctx["text"][1]
    # fixture classes have no sources: their sites come from the decompiled text, labelled; without a decompiler
    # the warning names them, never silent
    from jdx.loaders.decompile import available_engines

    b = svc.usages("gx.Ping#ping", UsageOptions(context=2))
    sites = [s for g in b.result["groups"] for c in g["callers"] for s in c["sites"] if s["line"] > 0]
    if available_engines():
        assert sites and all(s["context"]["reconstructed"] for s in sites)
        assert all("ping(" in s["context"]["text"][s["context"]["focus"] - s["context"]["first_line"]] for s in sites)
    else:
        assert [w.code for w in b.warnings] == ["CONTEXT_UNAVAILABLE"]


def test_calls_of_an_abstract_method_say_where_the_code_is(svc):
    a = svc.calls("gx.Shape#area")
    assert a.result["roots"][0]["tree"] == []
    assert a.result["notes"][0].startswith("gx.Shape#area() is abstract") and "jdx overrides" in a.result["notes"][0]
