"""Kotlin type aliases in `search` and `resolve`, and `show`/`members` of an alias name (spec §7.2, §12.1,
docs/kotlin.md): an alias compiles to no class, only to its file's `@kotlin.Metadata`. `search` lists it as kind
`typealias` with its expansion (the Kotlin view; `--kind type` includes it, `--kind class` does not), `resolve` names
it and the class it expands to, and a command taking a class answers not-found naming that class (exit 1).
The sources are compiled here by kotlinc (Kotlin 1.3) in one call, shared with test_kotlin_inline.py."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

LIB = '''@file:JvmName("Aliases")
package ka

class Registry {
    fun size(): Int = 0
}

typealias Reg = Registry
typealias Handler<T> = (T) -> Unit
internal typealias Count = Int

inline fun twice(block: () -> Unit) {
    block()
    block()
}

inline fun <reified T> typeName(): String = T::class.java.name

fun plain(): Int = 1
'''

USE = '''package ka.use

import ka.*

class Client {
    fun run(): Int {
        twice { plain() }
        return plain() + typeName<Client>().length
    }

    fun registry(): Reg = Registry()
}
'''
RUN = "ka.use.Client#run()"


def kotlin_jar() -> Path:
    """LIB and USE compiled by kotlinc once, cached in the temp dir by the hash of the sources."""
    from tests.kotlin.corpus import kotlinc_jar

    return kotlinc_jar("aliases-inline", {"Lib.kt": LIB, "Use.kt": USE})


@pytest.fixture(scope="module")
def store(tmp_path_factory, jdx_home):
    from tests.kotlin.corpus import indexed_store

    yield from indexed_store(tmp_path_factory, jdx_home, kotlin_jar(), "ktalias", "aliases.jar")


def _search(store, pattern: str, view: str = "kotlin", kinds: tuple = ()) -> list[dict]:
    from jdx.engine.search import SearchOptions, parse_kinds, search

    result, _ = search(store, pattern, SearchOptions(kinds=parse_kinds(list(kinds)), view=view, limit=200))
    return result["matches"]


def test_search_lists_an_alias_with_its_expansion(store):
    hits = [m for m in _search(store, "Handler") if m["kind"] == "typealias"]
    assert len(hits) == 1, hits
    h = hits[0]
    assert h["ref"] == "ka.Handler" and h["name"] == "Handler" and h["artifact"] == "aliases.jar"
    assert h["declaration"] == "typealias ka.Handler<T> = (T) -> kotlin.Unit"
    assert h["expansion"] == "(T) -> kotlin.Unit" and h["expands_to"] is None
    assert h["kotlin"]["kind"] == "typealias" and h["public"] is True
    # the JVM view keeps the JVM's answers: no alias, and `--kind typealias` asks for the Kotlin view
    from jdx.engine.search import SearchOptions, search
    from jdx.errors import NotFoundError, UsageError

    assert not [m for m in _search(store, "*", view="jvm") if m["kind"] == "typealias"]
    with pytest.raises(NotFoundError):
        search(store, "Handler", SearchOptions(view="jvm"))
    with pytest.raises(UsageError, match="Kotlin view"):
        search(store, "Handler", SearchOptions(view="jvm", kinds=("typealias",)))


def test_an_alias_of_a_workspace_class_names_it(store):
    reg = next(m for m in _search(store, "Reg") if m["kind"] == "typealias")
    assert reg["ref"] == "ka.Reg" and reg["expands_to"] == "ka.Registry"
    assert reg["declaration"] == "typealias ka.Reg = ka.Registry"
    count = next(m for m in _search(store, "Count") if m["kind"] == "typealias")
    assert count["declaration"] == "internal typealias ka.Count = kotlin.Int" and count["expands_to"] is None


def test_kind_filters(store):
    def kinds(pattern, *k):
        return {(m["kind"], m["ref"]) for m in _search(store, pattern, kinds=k)}

    assert ("typealias", "ka.Reg") in kinds("Reg*", "type")
    assert ("class", "ka.Registry") in kinds("Reg*", "type")
    assert kinds("Reg*", "class") == {("class", "ka.Registry")}
    assert kinds("Reg*", "typealias") == {("typealias", "ka.Reg")}
    assert kinds("*", "typealias") == {("typealias", "ka.Reg"), ("typealias", "ka.Handler"),
                                       ("typealias", "ka.Count")}


def test_qualified_glob_and_package_filters(store):
    from jdx.engine.search import SearchOptions, search
    from jdx.errors import NotFoundError

    assert [m["ref"] for m in _search(store, "ka.Hand*")] == ["ka.Handler"]
    with pytest.raises(NotFoundError):
        _search(store, "use.Hand*")
    result, _ = search(store, "Handler", SearchOptions(view="kotlin", package_glob="ka"))
    assert [m["ref"] for m in result["matches"]] == ["ka.Handler"]
    with pytest.raises(NotFoundError):
        search(store, "Handler", SearchOptions(view="kotlin", package_glob="ka.use"))


def test_resolve_names_the_alias_and_what_it_expands_to(store):
    from jdx.engine.search_nav import resolve

    result, _ = resolve(store, "ka.Reg", 50)
    assert [(c["kind"], c["ref"]) for c in result["candidates"]] == [("typealias", "ka.Reg")]
    c = result["candidates"][0]
    assert c["expands_to"] == "ka.Registry" and "query ka.Registry" in c["note"]
    assert c["artifact"] == "aliases.jar"
    result, _ = resolve(store, "Handler", 50)
    assert [(c["kind"], c["ref"]) for c in result["candidates"]] == [("typealias", "ka.Handler")]


def test_cli_search_and_resolve_lines(run_jdx, tmp_path):
    jar = tmp_path / "aliases.jar"
    shutil.copy(kotlin_jar(), jar)
    r = run_jdx("search", "Handler", "--jars", str(jar), "--no-jdk")
    assert r.code == 0, r.err
    assert "typealias ka.Handler<T> = (T) -> kotlin.Unit  aliases.jar" in r.out
    r = run_jdx("search", "Handler", "--jars", str(jar), "--no-jdk", "--json")
    env = json.loads(r.out)
    assert env["result"]["matches"][0]["kind"] == "typealias"
    assert env["provenance"] == [{"artifact": "aliases.jar", "origin": "bytecode"}]
    r = run_jdx("resolve", "ka.Reg", "--jars", str(jar), "--no-jdk")
    assert r.code == 0, r.err
    assert "typealias ka.Reg  [typealias for ka.Registry: query ka.Registry]  aliases.jar" in r.out


@pytest.mark.parametrize("command", ["show", "members", "outline", "hierarchy"])
def test_a_class_command_on_an_alias_is_not_found_naming_the_expansion(run_jdx, tmp_path, command):
    jar = tmp_path / "aliases.jar"
    shutil.copy(kotlin_jar(), jar)
    r = run_jdx(command, "ka.Reg", "--jars", str(jar), "--no-jdk", "--json")
    assert r.code == 1, r.out + r.err
    env = json.loads(r.out)
    assert env["error"]["code"] == "NOT_FOUND"
    assert "ka.Reg is a Kotlin type alias, not a class: typealias ka.Reg = ka.Registry" in env["error"]["message"]
    assert [c["ref"] for c in env["candidates"]] == ["ka.Registry"]
    r = run_jdx(command, "ka.Handler", "--jars", str(jar), "--no-jdk")
    assert r.code == 1
    assert "ka.Handler is a Kotlin type alias, not a class: typealias ka.Handler<T> = (T) -> kotlin.Unit" in r.out
    assert "jdx outline ka.Aliases lists the alias" in r.out


@pytest.mark.soak  # indexes a whole stdlib (~6 s); CI's soak runs it
def test_stdlib_collection_aliases(tmp_path_factory, jdx_home):
    """kotlin-stdlib declares `ArrayList`, `HashMap`, ... as aliases of the java.util classes."""
    from tests.kotlin.corpus import M2, STDLIB_VERSIONS, indexed_store

    jar = next((M2 / f"kotlin-stdlib/{v}/kotlin-stdlib-{v}.jar" for v in reversed(STDLIB_VERSIONS)
                if (M2 / f"kotlin-stdlib/{v}/kotlin-stdlib-{v}.jar").exists()), None)
    if jar is None:
        print(f"skipped: no kotlin-stdlib {'/'.join(STDLIB_VERSIONS)} under {M2}")
        pytest.skip(f"no kotlin-stdlib {'/'.join(STDLIB_VERSIONS)} under {M2}")
    gen = indexed_store(tmp_path_factory, jdx_home, jar, "ktstdlib", jar.name)
    stdlib = next(gen)
    try:
        hits = {m["ref"]: m for m in _search(stdlib, "ArrayList", kinds=("typealias",))}
        assert hits["kotlin.collections.ArrayList"]["declaration"] == \
            "typealias kotlin.collections.ArrayList<E> = java.util.ArrayList<E>"
        hits = {m["ref"]: m for m in _search(stdlib, "HashMap", kinds=("type",))}
        assert hits["kotlin.collections.HashMap"]["expansion"] == "java.util.HashMap<K, V>"
        # kotlinc 2's @kotlin.jvm.internal.SourceDebugExtension carries the class's inlining SMAP (kilobytes): the
        # card names it, its value stays in the JSON
        from jdx.engine.cards import show_type
        from jdx.render.cards import show

        card = show_type(stdlib, "kotlin.collections.ArrayDeque", "kotlin")[0]
        smap = [a for a in card["annotations"] if a.startswith("@kotlin.jvm.internal.SourceDebugExtension(")]
        assert smap and "SMAP" in smap[0], card["annotations"]
        text = "\n".join(show({**card, "sources": None}))
        assert "SMAP" not in text and "+ @kotlin.jvm.internal.SourceDebugExtension (compiler-internal" in text, text
    finally:
        gen.close()
