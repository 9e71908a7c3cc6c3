"""`usages`, `callers` and `samples` of an `inline` Kotlin function (spec §16, docs/kotlin.md): kotlinc copies the
function's body into each Kotlin caller, so no call of it is left in the bytecode. Every such answer carries the
named warning INLINE_CALL_SITES_INVISIBLE, an empty one too (it must not read as "no callers"), in both views; a
function that is not inline gets none. The sources are test_kotlin_typealias.py's (one kotlinc call)."""

from __future__ import annotations

import json
import shutil

import pytest

from tests.kotlin.test_kotlin_typealias import RUN, kotlin_jar

CODE = "INLINE_CALL_SITES_INVISIBLE"


@pytest.fixture(scope="module")
def store(tmp_path_factory, jdx_home):
    from tests.kotlin.corpus import indexed_store

    yield from indexed_store(tmp_path_factory, jdx_home, kotlin_jar(), "ktinline", "aliases.jar")


@pytest.fixture(scope="module")
def jar(tmp_path_factory):
    path = tmp_path_factory.mktemp("ktinline-cli") / "aliases.jar"
    shutil.copy(kotlin_jar(), path)
    return str(path)


@pytest.mark.parametrize("view", ["kotlin", "jvm"])
def test_usages_of_an_inline_function_warn_even_when_empty(store, view):
    from jdx.engine.rel_usages import UsageOptions, usages

    result, warnings, _ = usages(store, "ka.Aliases#twice", UsageOptions(view=view))
    assert result["total"] == 0  # Client#run calls twice { } in the source: the call was inlined
    assert [w.code for w in warnings] == [CODE]
    assert "ka.Aliases#twice(kotlin.jvm.functions.Function0) is an inline Kotlin function" in warnings[0].message
    assert "cannot be listed" in warnings[0].message
    # a function that is not inline: its sites are listed, nothing to warn of
    result, warnings, _ = usages(store, "ka.Aliases#plain", UsageOptions(view=view))
    assert result["total"] >= 2 and {c["caller"] for g in result["groups"] for c in g["callers"]} == {RUN}
    assert warnings == []
    # kinds that are not calls claim nothing about calls
    _, warnings, _ = usages(store, "ka.Aliases#twice", UsageOptions(kinds=("override",), view=view))
    assert CODE not in [w.code for w in warnings]


@pytest.mark.parametrize("args", [["usages", "ka.Aliases#twice"], ["callers", "ka.Aliases#twice"],
                                  ["samples", "ka.Aliases#twice"], ["callers", "ka.Aliases#typeName"],
                                  ["usages", "ka.Aliases#typeName", "--view", "jvm"]])
def test_cli_answers_carry_the_warning(run_jdx, jar, args):
    r = run_jdx(*args, "--jars", jar, "--no-jdk")
    assert r.code == 0, r.out + r.err
    assert f"⚠ {CODE}: " in r.out + r.err
    r = run_jdx(*args, "--jars", jar, "--no-jdk", "--json")
    env = json.loads(r.out)
    assert [w["code"] for w in env["warnings"] if w["code"] == CODE] == [CODE]
    # the same command about a function that is not inline does not warn
    plain = [a.replace("#twice", "#plain").replace("#typeName", "#plain") for a in args]
    r = run_jdx(*plain, "--jars", jar, "--no-jdk", "--json")
    assert r.code == 0 and CODE not in r.out, r.out + r.err
    if args[0] == "callers":  # nor does `calls` of the method the inline function was compiled into (docs/kotlin.md)
        r = run_jdx("calls", RUN, "--jars", jar, "--no-jdk", "--json")
        assert r.code == 0 and CODE not in r.out, r.out + r.err
