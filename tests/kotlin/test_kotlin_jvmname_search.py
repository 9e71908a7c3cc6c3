"""Kotlin declarations found by their Kotlin name where the JVM member has another one (docs/search.md, kotlin.md):
a @JvmName function of a companion (with its @JvmStatic copy), of a class and of a file facade, and a property
whose getter is `getX`. `search`, `resolve` and `imports` find each by the name a Kotlin caller writes
(`"...".toLink()`), as okhttp's `String.toHttpUrl()` (`HttpUrl.Companion#get`) must be. The expectations are read
from the declarations' metadata (the graph's KotlinDecl rows) where they can be; kotlinc (Kotlin 1.3) compiles."""

from __future__ import annotations

import json

import pytest

from tests.kotlin.corpus import jar_fixtures

LINK = '''package jn

class Link(val text: String) {
    @JvmName("label")
    fun describe(): String = "link " + text

    val size: Int get() = text.length

    companion object {
        @JvmStatic
        @JvmName("get")
        fun String.toLink(): Link = Link(this)

        @JvmStatic
        @JvmName("get")
        fun Int.toLink(): Link = Link(toString())
    }
}
'''

LINKS = '''@file:JvmName("Links")
package jn

@JvmName("parse")
fun String.asLink(): Link = Link(this)
'''


def _jar():
    from tests.kotlin.corpus import kotlinc_jar

    return kotlinc_jar("jvmname", {"Link.kt": LINK, "Links.kt": LINKS})


store, jar_args = jar_fixtures(_jar, "ktjn", "jn.jar")


def _renamed(store) -> list[dict]:
    """The fixture's declarations whose JVM name the metadata says differs (@JvmName), with their JVM refs."""
    from jdx.engine.kotlin_view import member_ref

    rows = store.rows("MATCH (k:KotlinDecl) WHERE list_contains(k.flags, 'jvm_name') RETURN k.name AS name, "
                      "k.owner AS owner, k.signature AS signature, k.detail AS detail, k.jvm AS jvm ORDER BY k.id")
    for r in rows:
        r["refs"] = {member_ref(link.split(":", 1)[1]) for link in r["jvm"] if not link.startswith("type:")}
        r["jvm_name"] = json.loads(r["detail"])["jvm_name"]
    return rows


def _search(store, pattern: str, view: str = "kotlin") -> list[dict]:
    from jdx.engine.search import SearchOptions, search

    result, truncated = search(store, pattern, SearchOptions(view=view, limit=1000))
    assert truncated is None and result["total"] == len(result["matches"])
    return result["matches"]


def test_the_fixture_renames_what_the_tests_look_for(store):
    found = {(r["name"], r["jvm_name"]) for r in _renamed(store)}
    assert found == {("describe", "label"), ("toLink", "get"), ("asLink", "parse")}


def test_search_finds_each_renamed_declaration_by_its_kotlin_name_once(store):
    for d in _renamed(store):
        assert d["name"] != d["jvm_name"]
        hits = [m for m in _search(store, d["name"]) if m.get("kotlin", {}).get("text") == d["signature"]]
        assert len(hits) == 1, (d["name"], hits)
        assert hits[0]["ref"] in d["refs"] and hits[0]["match"] == "exact"
        assert hits[0]["name"] == d["jvm_name"]
        assert not [x for x in hits[0]["kotlin"]["markers"] if x.startswith("@JvmName")]  # the ref says it


def test_a_companion_function_is_one_hit_by_its_kotlin_name_not_its_jvm_overloads(store):
    hits = _search(store, "toLink")
    assert [(m["kotlin"]["text"], m["ref"]) for m in hits] == [
        ("public fun Int.toLink(): Link", "jn.Link$Companion#get(int)"),
        ("public fun String.toLink(): Link", "jn.Link$Companion#get(java.lang.String)")]
    # the JVM view has no Kotlin names; a prefix and a glob find them as the index finds JVM names
    from jdx.errors import NotFoundError

    with pytest.raises(NotFoundError):
        _search(store, "toLink", view="jvm")
    assert {m["kotlin"]["name"] for m in _search(store, "toL")} == {"toLink"}
    assert {m["kotlin"]["name"] for m in _search(store, "*Link")} >= {"toLink", "asLink"}
    assert [m["kotlin"]["name"] for m in _search(store, "Link.Companion.toLink")] == ["toLink", "toLink"]


def test_a_property_found_by_its_getter_and_its_kotlin_name_is_one_hit(store):
    hits = [m for m in _search(store, "size") if "kotlin" in m]
    assert [(m["kotlin"]["text"], m["ref"], m["match"]) for m in hits] == [
        ("public val size: Int", "jn.Link#getSize()", "exact")]


def test_resolve_finds_each_by_its_kotlin_name(store):
    from jdx.engine.search_nav import resolve

    for d in _renamed(store):
        result, _ = resolve(store, d["name"], 50)
        found = [c for c in result["candidates"] if c.get("note", "").startswith("Kotlin ")]
        assert len(found) == 1, (d["name"], result["candidates"])
        c, text = found[0], f"Kotlin {d['signature'].removeprefix('public ')}"
        if c.get("overloads", 1) == 1:
            assert c["ref"] in d["refs"] and c["note"] == text
        else:  # Kotlin overloads of one JVM name: one candidate, as the JVM overloads of a name are
            assert any(r.startswith(c["ref"] + "(") for r in d["refs"])
            assert c["note"] == f"{text} and {c['overloads'] - 1} more" or c["note"].endswith(" more")
    result, _ = resolve(store, "jn.Link.Companion.toLink", 50)
    assert [(c["ref"], c["overloads"]) for c in result["candidates"]] == [("jn.Link$Companion#get", 2)]
    result, _ = resolve(store, "jn.Link.describe", 50)
    assert [(c["ref"], c["note"]) for c in result["candidates"]] == [
        ("jn.Link#label()", "Kotlin fun describe(): String")]


def _imports(store, text: str) -> list[tuple]:
    from jdx.engine.imports import imports

    result, _ = imports(store, text)
    return [(e.get("language"), e["statement"], e.get("note")) for e in result["imports"]]


def test_imports_of_a_companion_extension_gives_the_kotlin_and_the_java_static_import(store, run_jdx, jar_args):
    both = [("java", "import static jn.Link.get;", "imports all 2 static overloads"),
            ("kotlin", "import jn.Link.Companion.toLink", None)]
    assert _imports(store, "toLink") == both
    assert _imports(store, "jn.Link.Companion.toLink") == both
    assert _imports(store, "jn.Link$Companion#toLink") == both
    r = run_jdx("imports", "toLink", *jar_args)
    assert r.code == 0, r.err
    assert r.out.splitlines() == ["Java: import static jn.Link.get;  // imports all 2 static overloads",
                                  "Kotlin: import jn.Link.Companion.toLink", "  // from jn.jar"]


def test_imports_of_a_renamed_top_level_function_and_class_member(store):
    assert _imports(store, "asLink") == [
        ("kotlin", "import jn.asLink",
         "extension: Java calls it as the static method jn.Links#parse(java.lang.String)")]
    assert _imports(store, "describe") == [
        ("kotlin", "import jn.Link", "a member of jn.Link: called on an instance, so import its class")]


def test_the_cli_prints_kotlin_name_hits_like_other_kotlin_hits(run_jdx, jar_args):
    r = run_jdx("search", "toLink", *jar_args)
    assert r.code == 0, r.err
    assert r.out.splitlines() == [
        "fun Int.toLink(): Link  jn.Link$Companion#get(int)  [@JvmStatic]  jn.jar",
        "fun String.toLink(): Link  jn.Link$Companion#get(java.lang.String)  [@JvmStatic]  jn.jar",
        "2 matches for 'toLink' (hump)"]
    r = run_jdx("resolve", "asLink", *jar_args)
    assert r.code == 0, r.err
    assert r.out.splitlines()[0] == (
        "method jn.Links#parse(java.lang.String)  [Kotlin fun String.asLink(): Link]  jn.jar")
