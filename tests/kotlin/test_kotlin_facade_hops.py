"""A multi-file facade's function (`@file:JvmMultifileClass`) is one node of `callers` and `calls` in the Kotlin view:
its facade's public copy, what callers call, stands for the part's method that holds the code (the entry's `part`),
so the copy's callers are the level after the part's method's callees, with no extra hop; `--view jvm` keeps both
(kotlinx-coroutines' `FlowKt#launchIn` for `FlowKt__CollectKt#launchIn` is one).

The fixture: `a() -> b() -> c()` across three parts of one facade, `b` called from `a` through its `$default`
stub. The oracle is the Kotlin source text: each level's lines are those of the calls written there. Compiled
here by kotlinc (Kotlin 1.3), as tests/kotlin/corpus.py compiles the fixtures."""

from __future__ import annotations

import pytest

HEAD = '@file:JvmName("Chain")\n@file:JvmMultifileClass\npackage kf\n\n'
A = HEAD + "fun a(): Int = b() + 1\n"
B = HEAD + "fun b(times: Int = 2): Int = c() * times\n"
C = HEAD + "fun c(): Int = 3\n\nfun d(): Int = c() + 1\n"
USE = '''package kf.use

import kf.*

class User {
    fun run(): Int = a()
    fun direct(): Int = b(3)
}
'''
FA, FB, FC, FD = "kf.Chain#a()", "kf.Chain#b(int)", "kf.Chain#c()", "kf.Chain#d()"
PA, PB, PC, PD = "kf.Chain__AKt#a()", "kf.Chain__BKt#b(int)", "kf.Chain__CKt#c()", "kf.Chain__CKt#d()"
RUN, DIRECT = "kf.use.User#run()", "kf.use.User#direct()"


@pytest.fixture(scope="module")
def store(tmp_path_factory, jdx_home):
    from tests.kotlin.corpus import indexed_store, kotlinc_jar

    jar = kotlinc_jar("facade-hops", {"A.kt": A, "B.kt": B, "C.kt": C, "Use.kt": USE})
    yield from indexed_store(tmp_path_factory, jdx_home, jar, "ktfh", "facade-hops.jar")


def _line(text: str, call: str) -> int:
    """The source line of the one occurrence of `call`."""
    assert text.count(call) == 1, call
    return text[:text.index(call)].count("\n") + 1


def _tree(store, ref: str, direction: str = "in", **opts) -> dict:
    from jdx.engine.rel_calls import CallOptions, call_tree

    result, truncated = call_tree(store, ref, CallOptions(**opts), direction)
    assert truncated is None
    (root,) = result["roots"]
    return {**root, "notes": result["notes"]}


def _levels(entries: list[dict]) -> dict:
    """method -> (lines, part, via, its children's levels): the tree as the assertions spell it."""
    return {e["method"]: (e["lines"], e.get("part"), e.get("via"), _levels(e.get("children", []))) for e in entries}


def test_callers_fold_the_part_and_its_facade_copy(store):
    root = _tree(store, "kf.Chain#c", depth=3)
    assert root["method"] == FC
    assert _levels(root["tree"]) == {
        FB: ([_line(B, "c()")], PB, None, {
            FA: ([_line(A, "b()")], PA, ["b$default"], {RUN: ([_line(USE, "a()")], None, None, {})}),
            DIRECT: ([_line(USE, "b(3)")], None, None, {})}),
        FD: ([_line(C, "c() + 1")], PD, None, {})}
    assert [n for n in root["notes"] if "multi-file facade" in n] == [
        f"a multi-file facade's function is shown once, as the facade's copy callers call ({FA}); its code, and the "
        f"lines, are its part's method's ({PA}); --view jvm shows the two as separate hops"]


def test_jvm_view_keeps_the_two_hops(store):
    tree = _levels(_tree(store, "kf.Chain#c", depth=3, view="jvm")["tree"])
    assert set(tree) == {PB, PD}
    lines, part, via, below = tree[PB]
    assert lines == [_line(B, "c()")] and part is None
    assert FB in below  # the facade's copy: a hop of its own, its callers one level further
    assert DIRECT in below[FB][3]


def test_callers_of_the_part_s_method_are_the_function_s(store):
    """Naming the part's method asks for the same function: its copy's callers, through the facade class."""
    tree = _levels(_tree(store, PB, depth=1)["tree"])
    assert tree == {FA: ([_line(A, "b()")], PA, ["b$default"], {}),
                    DIRECT: ([_line(USE, "b(3)")], None, ["kf.Chain"], {})}


def test_calls_of_the_facade_copy_are_the_part_s(store):
    root = _tree(store, DIRECT, "out", depth=3)
    tree = _levels(root["tree"])
    assert tree == {FB: ([_line(USE, "b(3)")], PB, None, {FC: ([_line(B, "c()")], PC, None, {})})}
    jvm = _levels(_tree(store, DIRECT, "out", depth=3, view="jvm")["tree"])
    assert list(jvm) == [FB] and list(jvm[FB][3]) == [PB] and list(jvm[FB][3][PB][3]) == [FC]
    root = _tree(store, "kf.Chain#b", "out")
    assert _levels(root["tree"]) == {FC: ([_line(B, "c()")], None, None, {})}  # not expanded: no part read
    assert any(PB in n for n in root["notes"])


def test_resolve_a_bare_name_offers_the_facade_copy_not_its_part(store):
    """`resolve b` names the function once, by the facade callers call (as `search` folds the part behind it); a
    reference or a stack frame naming the part still finds the part's method."""
    from jdx.engine.search_nav import resolve

    result, _ = resolve(store, "b", 20)
    refs = [c["ref"] for c in result["candidates"]]
    assert any(r.startswith("kf.Chain#b") for r in refs), refs
    assert not any(r.startswith("kf.Chain__BKt#") for r in refs), refs
    frame, _ = resolve(store, f"at kf.Chain__BKt.b(B.kt:{_line(B, 'c()')})", 20)
    assert [c["ref"] for c in frame["candidates"]] and all(
        c["ref"].startswith("kf.Chain__BKt#b") for c in frame["candidates"])
    direct, _ = resolve(store, "kf.Chain__BKt#b", 20)
    assert any(c["ref"].startswith("kf.Chain__BKt#b") for c in direct["candidates"])


def test_text_names_the_part_that_holds_the_code(store):
    from jdx.render.graph import _markers

    root = _tree(store, "kf.Chain#c", depth=1)
    (fb,) = [e for e in root["tree"] if e["method"] == FB]
    assert "(code in Chain__BKt)" in _markers(fb)
