"""`calls` of a method lists the calls made in the lambdas it writes, marked `in_lambda` with their lines, as `callers`
attributes those sites in reverse (spec §7.3): javac's lambda bodies (`lambda$foo$0`), kotlinc 2's (`foo$lambda$0`,
reproduced with javac as tests/engine/test_kotlin2_lambda_bodies.py does) and, in the Kotlin view, the code of
kotlinc's lambda classes and suspend lambdas (tests/kotlin/test_kotlin_lambda_classes.py's fixture, compiled once and
shared). The classes' plumbing (their constructors, `invoke` bridges, a suspend lambda's `create`/`invoke`) and a
continuation resuming its suspend function are no calls of the method; `--view jvm` keeps the raw hops.

The symmetry is the oracle: for every method X, `foo` is among `callers X` iff X is among `calls foo`, with the same
lines, kinds and marker."""

from __future__ import annotations

import pytest

from tests.engine.test_kotlin2_lambda_bodies import SOURCE as KOTLIN2_SHAPED
from tests.kotlin.test_kotlin_lambda_classes import _jar, _line

JAVA = """package kl;

import java.util.List;
import java.util.function.IntSupplier;
import java.util.function.IntUnaryOperator;

public class J {
    static int ping(int x) {
        return x;
    }

    static int pong(int x) {
        return x + 1;
    }

    public int lambdas(List<Integer> xs) {
        xs.forEach(x -> {
            Runnable nested = () -> ping(x);
            nested.run();
        });
        IntSupplier s = () -> ping(1) + 1;
        IntUnaryOperator op = J::pong;
        return s.getAsInt() + op.applyAsInt(2);
    }
}
"""


def _java_line(needle: str) -> int:
    (n,) = [i for i, line in enumerate(JAVA.splitlines(), 1) if needle in line]
    return n


@pytest.fixture(scope="module")
def kstore(tmp_path_factory, jdx_home):
    """The Kotlin lambda classes fixture (kotlinc, cached by its sources' hash), indexed without the JDK."""
    from tests.kotlin.corpus import indexed_store

    yield from indexed_store(tmp_path_factory, jdx_home, _jar(), "ktcl", "calls-lambda-classes.jar")


@pytest.fixture(scope="module")
def jstore(tmp_path_factory, jdx_home):
    """javac's lambdas and kotlinc 2's lambda body shape in one jar, indexed without the JDK."""
    from tests.fixtures.javac import javac_jar
    from tests.kotlin.corpus import indexed_store

    jar, _ = javac_jar(tmp_path_factory.mktemp("jcl"), {"kl/J.java": JAVA, "kl/K.java": KOTLIN2_SHAPED}, "kl",
                       "calls-lambdas.jar")
    yield from indexed_store(tmp_path_factory, jdx_home, jar, "jcl", "calls-lambdas.jar")


def _tree(store, ref: str, direction: str = "out", view: str = "kotlin", depth: int = 1) -> list[dict]:
    from jdx.engine.rel_calls import CallOptions, call_tree

    result, truncated = call_tree(store, ref, CallOptions(view=view, depth=depth, limit=10_000), direction)
    assert truncated is None
    (root,) = result["roots"]
    return root["tree"]


def _calls(store, ref: str, view: str = "kotlin") -> dict[str, tuple[list[int], bool]]:
    """Callee -> (lines, in lambda) of `calls ref`."""
    return {e["method"]: (e["lines"], bool(e.get("in_lambda"))) for e in _tree(store, ref, view=view)}


def test_javac_lambda_bodies(jstore):
    assert _calls(jstore, "kl.J#lambdas") == {
        "java.lang.Integer#intValue()": ([_java_line("() -> ping(x)")], True),
        "java.util.List#forEach(java.util.function.Consumer)": ([_java_line("xs.forEach")], False),  # no JDK
        "java.lang.Runnable#run()": ([_java_line("nested.run()")], True),
        "java.util.function.IntSupplier#getAsInt()": ([_java_line("return s.getAsInt()")], False),
        "java.util.function.IntUnaryOperator#applyAsInt(int)": ([_java_line("return s.getAsInt()")], False),
        "kl.J#ping(int)": (sorted([_java_line("() -> ping(x)"), _java_line("() -> ping(1)")]), True),
        "kl.J#pong(int)": ([_java_line("J::pong")], False)}  # a method reference: its own call


def test_kotlin2_lambda_bodies(jstore):
    def line(needle: str) -> int:
        (n,) = [i for i, text in enumerate(KOTLIN2_SHAPED.splitlines(), 1) if needle in text]
        return n

    assert _calls(jstore, "kl.K#lint") == {
        "kl.K#target(java.lang.String)": ([line("return target(s);"), line("return target(s) + 1;")], True)}
    # handing a body over is no call, but asked about a body, its writer is the only way in: the caller, so marked
    for body, handle in (("lint$lambda$1", "return K::lint$lambda$1;"),
                         ("lint$lambda$1$lambda$2", "inner = K::lint$lambda$1$lambda$2;")):
        assert [(e["method"], e["lines"], e.get("lambda_writer")) for e in _tree(jstore, f"kl.K#{body}", "in")] == [
            ("kl.K#lint()", [line(handle)], True)]
    # a public method that only looks like a body is its own caller
    assert _calls(jstore, "kl.K#lint$lambda$named") == {"kl.K#target(java.lang.String)": ([line('target("x")')],
                                                                                          False)}


def test_kotlin_lambda_classes(kstore):
    target = "kl.LibKt#target()"
    got = _calls(kstore, "kl.LibKt#viaLambda")
    assert got[target] == ([_line("{ target() }")], True)
    assert got["kotlin.jvm.functions.Function0#invoke()"] == ([_line("return f()")], False)
    assert _calls(kstore, "kl.LibKt#nested")[target] == ([_line("{ target() + 1 }")], True)
    assert _calls(kstore, "kl.LibKt#viaSam") == {target: ([_line("{ target() + 5 }")], True)}
    assert _calls(kstore, "kl.Holder#<init>")[target] == ([_line("{ target() + 6 }")], True)
    # a suspend lambda: `invokeSuspend` holds its code, its state machine's calls included; nothing in it is not
    suspend = _calls(kstore, "kl.LibKt#viaSuspend")
    assert suspend[target] == ([_line("{ target() + 2 }")], True)
    assert all(in_lambda for _, in_lambda in suspend.values())
    assert "kotlin.ResultKt#throwOnFailure(java.lang.Object)" in suspend
    # an object expression declares a method its source names: it stays the class's own
    assert _calls(kstore, "kl.LibKt#viaObject") == {"kl.LibKt$viaObject$1#<init>()": ([_line("object : Runnable")],
                                                                                       False)}


def test_plumbing_is_no_call(kstore):
    """The lambda classes' constructors (and their super constructors), bridges boxing a result, `create` with its
    Intrinsics check: none is a call the method writes; nor is its continuation calling it back."""
    for fn in ("viaLambda", "nested", "viaSuspend", "viaSam", "resumes"):
        got = _calls(kstore, f"kl.LibKt#{fn}")
        assert not [m for m in got if m.startswith("kl.LibKt$")], fn
        assert not [m for m in got if m.startswith(("kotlin.jvm.internal.", "kotlin.coroutines.jvm.internal.Suspend",
                                                    "kotlin.coroutines.jvm.internal.ContinuationImpl",
                                                    "java.lang.Integer#valueOf"))], fn
    resumes = _calls(kstore, "kl.LibKt#resumes")
    assert not [m for m in resumes if m.startswith("kl.LibKt#resumes")]
    assert resumes["kl.LibKt#suspending(kotlin.coroutines.Continuation)"] == ([_line("return suspending()")], False)
    assert not any(in_lambda for _, in_lambda in resumes.values())  # a continuation is the function's own code


def test_jvm_view_keeps_raw_hops(kstore):
    assert _calls(kstore, "kl.LibKt#viaSuspend", "jvm") == {
        "kl.LibKt$viaSuspend$f$1#<init>(kotlin.coroutines.Continuation)": ([_line("{ target() + 2 }")], False)}
    assert "kl.LibKt$resumes$1#<init>(kotlin.coroutines.Continuation)" in _calls(kstore, "kl.LibKt#resumes", "jvm")
    assert not any(in_lambda for _, in_lambda in _calls(kstore, "kl.LibKt#viaLambda", "jvm").values())
    assert _calls(kstore, "kl.LibKt$viaLambda$f$1#invoke()", "jvm") == {"kl.LibKt#target()": ([_line("{ target() }")],
                                                                                          False)}


def test_depth_walks_on_and_is_deterministic(kstore):
    first = _tree(kstore, "kl.LibKt#nested", depth=3)
    assert first == _tree(kstore, "kl.LibKt#nested", depth=3)
    methods = [e["method"] for e in first]
    assert methods == ["kl.LibKt#target()", "java.lang.Number#intValue()", "kotlin.jvm.functions.Function0#invoke()"]


def _edge(e: dict) -> tuple:
    return tuple(e["lines"]), tuple(e["kinds"]), bool(e.get("in_lambda")), tuple(e.get("via", ()))


def _edges_of(store, mid: str, direction: str, view: str) -> dict[str, tuple]:
    """Callee (or caller) id -> edge of one method, by id: the loaders `call_tree` runs, without resolving a ref (a
    method of a class outside the workspace has none)."""
    from jdx.engine.rel_calls import _CallGraph, _callers_loader, _calls_loader
    from jdx.engine.relations import ArtifactFilter, Artifacts, rows_by_ids
    from jdx.graph_schema import queries_graph as q

    cg = _CallGraph(store, Artifacts.of(store))
    for r in rows_by_ids(store, q.METHODS_BY_IDS, [mid]):
        cg.remember(r, "")
    load = _callers_loader(cg, ArtifactFilter(), view) if direction == "in" else \
        _calls_loader(cg, ArtifactFilter(), False, view)
    load([mid])
    return {c: _edge(cg.entry(mid, c, cg.g.edges[mid, c])) for c in cg.g.successors(mid)} if mid in cg.g else {}


def _attributed(store, view: str) -> set[str]:
    """Methods whose calls `callers` gives to another method: lambda bodies and, in the Kotlin view, the code of
    Kotlin lambda classes."""
    from jdx.engine.rel_kotlin_lambdas import kotlin_lambda_writers
    from jdx.engine.relations import is_lambda, lambda_writers

    rows = store.rows("MATCH (m:Method) WHERE NOT coalesce(m.external, false) RETURN m.id AS id, m.access AS access")
    out = set(lambda_writers(store, [r["id"] for r in rows if is_lambda(r)]))
    return out | (set(kotlin_lambda_writers(store, [r["id"] for r in rows])) if view == "kotlin" else set())


@pytest.mark.parametrize("which, view", [("kstore", "kotlin"), ("kstore", "jvm"), ("jstore", "kotlin")])
def test_callers_and_calls_are_inverse(request, which, view):
    """For every X and every method foo shown as itself: foo in `callers X` iff X in `calls foo`, same edge."""
    from jdx.engine.rel_calls import CallOptions, call_tree
    from jdx.engine.relations import method_ref

    store = request.getfixturevalue(which)
    attributed = _attributed(store, view)
    declared = store.rows("MATCH (m:Method) WHERE NOT coalesce(m.external, false) RETURN m.id AS id, "
                          "m.access AS access ORDER BY id")
    called = store.rows("MATCH (:Method)-[:INVOKES|INVOKES_ADDED]->(m:Method) RETURN DISTINCT m.id AS id ORDER BY id")
    calls = set()
    for r in declared:
        if r["id"] not in attributed:
            got = _edges_of(store, r["id"], "out", view)
            calls |= {(r["id"], callee, edge) for callee, edge in got.items()}
            result, _ = call_tree(store, method_ref(r), CallOptions(view=view, depth=1, limit=10_000), "out")
            for root in (t for t in result["roots"] if t["id"] == r["id"]):  # the command agrees with its loader
                assert {e["id"]: _edge(e) for e in root["tree"]} == got, r["id"]
    callers = {(caller, r["id"], edge) for r in called
               for caller, edge in _edges_of(store, r["id"], "in", view).items()}
    assert calls == callers
    assert not {caller for caller, _, _ in callers} & attributed
    # in the JVM view a Kotlin lambda class keeps its calls (the Kotlin fixture has no other lambdas)
    assert any(edge[2] for _, _, edge in calls) == (view == "kotlin")


def test_one_lambda_body_pattern():
    """The graph build (Method.writer) and the engine (`is_lambda`) read lambda bodies by one pattern."""
    from jdx.engine import relations
    from jdx.graph_schema import schema
    from jdx.loaders import graph_build

    assert graph_build.LAMBDA_BODY is schema.LAMBDA_BODY
    assert relations._LAMBDA_BODY.pattern == schema.LAMBDA_BODY


@pytest.mark.soak
def test_callers_and_calls_are_inverse_on_kotlinx_coroutines(tmp_path_factory, jdx_home):
    """The same symmetry on real kotlinc output (suspend lambdas, SAM-converted `fun interface` lambdas whose suspend
    method has its own continuation, multi-file facades): every 4th method writing a lambda of kotlinx-coroutines-core.
    Calls of a `$default` stub are left out: `callers` folds a stub into its function (a pre-existing asymmetry); so
    are an inline function's sites in the objects kotlinc copied its body into, which `callers` leaves out as the
    function's own code and `calls` still lists."""
    from jdx.engine.kotlin_hits import facade_twins, kotlin_sites
    from jdx.engine.rel_kotlin_lambdas import kotlin_lambda_writers
    from tests.kotlin.corpus import M2, indexed_store, runtime_stdlib

    jars = sorted((M2.parent / "kotlinx/kotlinx-coroutines-core-jvm").glob("*/kotlinx-coroutines-core-jvm-*.jar"))
    if not jars:
        pytest.skip("no kotlinx-coroutines-core-jvm in the local Maven repository")
    stores = indexed_store(tmp_path_factory, jdx_home, jars[-1], "kxc", jars[-1].name, extra=(runtime_stdlib(),))
    store = next(stores)
    rows = store.rows("MATCH (m:Method) WHERE NOT coalesce(m.external, false) AND m.owner STARTS WITH 'kotlinx/' "
                      "RETURN m.id AS id")
    writers = sorted({e.row["c_id"] for e in kotlin_lambda_writers(store, [r["id"] for r in rows]).values()})[::4]
    pairs = facade_twins(store, writers)
    shown = sorted({pairs[w][0] if w in pairs and pairs[w][1] == w else w for w in writers})
    assert len(shown) > 50
    lambdas = 0
    for foo in shown:
        for callee, edge in _edges_of(store, foo, "out", "kotlin").items():
            if "$default(" in callee or "$default(" in foo:
                continue
            sites = kotlin_sites(store, [callee])
            if sites is not None and sites.copied_body(foo, callee):
                continue  # an inline function's own code copied into its objects: callers leaves it out, calls not

            assert _edges_of(store, callee, "in", "kotlin").get(foo) == edge, (foo, callee)
            lambdas += edge[2]
    assert lambdas > 100
    _usages_agree_on_a_sample(store, shown)
    next(stores, None)


def _usages_agree_on_a_sample(store, shown: list[str]) -> None:
    """`usages X --kind call` and `callers X` attribute the sites inside lambda classes alike (state machines nested
    in lambdas included) for the methods called in lambdas of a sample of `shown`."""
    from jdx.engine.kotlin_hits import facade_twins
    from jdx.engine.rel_usages import UsageOptions, usages
    from jdx.engine.relations import method_ref, rows_by_ids
    from jdx.graph_schema import queries_graph as q

    callees = sorted({c for foo in shown[::3] for c, edge in _edges_of(store, foo, "out", "kotlin").items()
                      if edge[2] and "#<init>" not in c and "$default(" not in c and c.startswith("kotlinx/")})
    rows = rows_by_ids(store, q.METHODS_BY_IDS, callees[::2])
    assert len(rows) > 10
    for r in rows:
        by_callers = {caller: (set(edge[0]), edge[2]) for caller, edge in _edges_of(store, r["id"], "in", "kotlin").items()
                      if "$default(" not in caller}
        result, _, _ = usages(store, method_ref(r), UsageOptions(kinds=("call",), limit=100_000))
        sites = [(c["caller_id"], s["line"], bool(s.get("in_lambda"))) for g in result["groups"]
                 for c in g["callers"] for s in c["sites"] if "$default(" not in c["caller_id"]]
        # `usages` names a multi-file part's method where its code is; `callers` the facade's copy callers call
        pairs = facade_twins(store, {caller for caller, _, _ in sites})
        fold = {m: pair[0] for m, pair in pairs.items() if pair[1] == m}
        # one `in lambda` mark per callers edge (any of its sites), one per site in `usages`
        by_usages: dict[str, tuple[set, bool]] = {}
        for caller, line, marked in sites:
            lines, any_marked = by_usages.setdefault(fold.get(caller, caller), (set(), False))
            by_usages[fold.get(caller, caller)] = (lines | {line}, any_marked or marked)
        assert by_usages == by_callers, r["id"]


def test_usages_agree_with_callers_in_lambda_classes(kstore):
    """`usages X --kind call` names the same calling methods as `callers X`, with the same lines and `in lambda`
    marks, for every fixture method called from Kotlin lambda classes and suspend functions' state machines (a state
    machine resuming its function is neither a caller nor a usage). Constructors aside: `callers` leaves out a method
    constructing its lambda class (no code of the lambda runs), `usages` keeps it as the `new` site it is."""
    from jdx.engine.rel_usages import UsageOptions, usages
    from jdx.engine.relations import method_ref

    called = kstore.rows("MATCH (:Method)-[:INVOKES]->(m:Method) WHERE NOT coalesce(m.external, false) "
                         "AND NOT m.id CONTAINS '#<init>' RETURN DISTINCT m.id AS id, m.access AS access ORDER BY id")
    checked = 0
    for r in called:
        by_callers = {(caller, line, edge[2]) for caller, edge in _edges_of(kstore, r["id"], "in", "kotlin").items()
                      for line in edge[0]}
        result, _, _ = usages(kstore, method_ref(r), UsageOptions(kinds=("call",), limit=10_000))
        by_usages = {(c["caller_id"], s["line"], bool(s.get("in_lambda")))
                     for g in result["groups"] for c in g["callers"] for s in c["sites"]}
        assert by_usages == by_callers, r["id"]
        checked += bool(by_callers)
    assert checked >= 3


def test_a_callee_called_directly_and_in_a_lambda_says_which_lines(kstore):
    """`nested` calls Function0#invoke itself (`outer()`) and in its lambda (`inner()`): one entry, both lines, and
    `lambda_lines` naming the one in the lambda; the text marks `(in lambda: line N)`, not the whole entry."""
    from jdx.render.graph import call_tree as render

    (invoke,) = [e for e in _tree(kstore, "kl.LibKt#nested") if e["method"] == "kotlin.jvm.functions.Function0#invoke()"]
    inner, outer = _line("val inner = { target() + 1 }; inner()"), _line("return outer()")
    assert invoke["lines"] == sorted([inner, outer]) and invoke["in_lambda"] is True
    assert invoke["lambda_lines"] == [inner]
    # the reverse side keeps one mark per edge, with the same lines
    assert _edges_of(kstore, "kotlin/jvm/functions/Function0#invoke()Ljava/lang/Object;", "in", "kotlin")[
        "kl/LibKt#nested()I"][0] == tuple(sorted([inner, outer]))
    from jdx.engine.rel_calls import CallOptions, call_tree

    result, _ = call_tree(kstore, "kl.LibKt#nested", CallOptions(view="kotlin", depth=1), "out")
    (line,) = [x for x in render(result) if "Function0#invoke()" in x]
    assert f"line {min(inner, outer)}, {max(inner, outer)}  (in lambda: line {inner})" in line, line
    # every line in lambdas: the plain mark, no `lambda_lines`
    (target,) = [e for e in _tree(kstore, "kl.LibKt#nested") if e["method"] == "kl.LibKt#target()"]
    assert target["in_lambda"] is True and "lambda_lines" not in target
