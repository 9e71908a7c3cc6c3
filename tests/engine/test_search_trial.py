"""Defects from a user trial on jackson (spec §6, §7.2), on a fixture jar javac builds plus the JDK: `Type#member`
searches as `Type.member` does; a type named exactly as the pattern is written ranks first; a stack frame of a
known type with a missing method suggests only that type's members (and its supertypes'), or none."""

from __future__ import annotations

import pytest

from jdx.engine.ranking import internal_packages, is_jdk_internal
from jdx.engine.search import SearchOptions, search
from jdx.engine.search_nav import resolve
from jdx.errors import NotFoundError, UsageError
from jdx.graph_schema.queries_search import TYPE_KINDS
from tests.fixtures.javac import javac_jar
from tests.service import JdxService, Options

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)

SOURCES = {
    "tr/Version.java": "package tr; public class Version { public String version() { return \"1\"; } }",
    "tr/Alpha.java": """package tr;
public class Alpha {
    public static final String VERSION = "1";
    public String version() { return VERSION; }
}""",
    "tr/Beta.java": """package tr;
public class Beta {
    public static final String VERSION = "2";
    public String version() { return VERSION; }
    public String module() { return "m"; }
}""",
    "tr/Module.java": "package tr; public abstract class Module { public abstract String getModuleName(); }",
    "tr/module/SimpleModule.java": """package tr.module;
public class SimpleModule extends tr.Module { public String getModuleName() { return "simple"; } }""",
    "tr/Codec.java": "package tr; public abstract class Codec { public abstract Object readTree(String s); }",
    "tr/Mapper.java": """package tr;
public class Mapper extends Codec {
    public static final int READ_LIMIT = 10;
    public static class Reader {}
    private final Runnable task = new Runnable() { public void run() {} };
    public Object readValue(String s) { return s; }
    public Object readValue(byte[] b) { return b; }
    public <T> T readValue(String s, Class<T> type) { return null; }
    public Object readValues(String s) { return s; }
    public Object readTree(String s) { return s; }
    public void write(Object o) {}
}""",
}


@pytest.fixture(scope="module")
def store(tmp_path_factory, jdx_home):
    jar, _classes = javac_jar(tmp_path_factory.mktemp("trial"), SOURCES, "tr", "trial.jar")
    service = JdxService(Options(jars=[str(jar)], cache_dir=str(jdx_home / "cache")))
    yield service.store()
    service.close()


def find(store, text, **kw) -> dict:
    return search(store, text, SearchOptions(**kw))[0]


def refs(result: dict) -> list[str]:
    return [m["ref"] for m in result["matches"]]


# --- 1. `Type#member` searches as `Type.member` ---------------------------------------------------------------
@pytest.mark.parametrize("member", ["readValue", "rV", "read*", "*", "READ_LIMIT", "rL", "wri"])
@pytest.mark.parametrize("owner", ["Mapper", pytest.param("tr.Mapper", marks=pytest.mark.soak)])
@pytest.mark.parametrize("sep", ["#", pytest.param("::", marks=pytest.mark.soak)])  # the soak runs every pair
def test_member_separator_finds_what_the_dot_finds(store, owner, member, sep):
    dotted = find(store, f"{owner}.{member}", limit=200)
    hashed = find(store, f"{owner}{sep}{member}", limit=200)
    # `#` names a member (spec §6): a nested type `Mapper.Reader` is the dot's only
    expected = [m for m in dotted["matches"] if m["kind"] in ("method", "field")]
    assert hashed["matches"] == expected and expected
    assert hashed["total"] == len(expected) and hashed["mode"] == dotted["mode"]


def test_member_separator_reads_the_overloads_as_one_hit(store):
    first = find(store, "Mapper#readValue")["matches"][0]
    assert (first["ref"], first["match"], first["overloads"]) == ("tr.Mapper#readValue", "exact", 3)


@pytest.mark.soak
def test_a_type_and_a_bare_separator_lists_every_member(store):
    assert find(store, "Mapper#", limit=200) == {**find(store, "Mapper#*", limit=200), "pattern": "Mapper#"}
    assert "tr.Mapper#READ_LIMIT" in refs(find(store, "Mapper#", limit=200))


def test_member_separator_excludes_nested_types(store):
    assert "tr.Mapper$Reader" in refs(find(store, "Mapper.*", limit=200))
    assert "tr.Mapper$Reader" not in refs(find(store, "Mapper#*", limit=200))


def test_member_separator_with_a_type_kind_is_a_usage_error(store):
    with pytest.raises(UsageError):
        find(store, "Mapper#readValue", kinds=("class",))


def test_a_typo_after_the_separator_suggests_the_types_members(store):
    with pytest.raises(NotFoundError) as exc:
        find(store, "Mapper#readVlue")
    assert exc.value.candidates and all(c["ref"].startswith("tr.Mapper#") for c in exc.value.candidates)


# --- 2. a type named as written ranks first -------------------------------------------------------------------
def _as_written_first(store, result: dict, written: str) -> None:
    """Every public-API type named exactly `written` precedes everything else that matched (a non-public one ranks
    with the public members: no code outside its package can name it)."""
    internal = internal_packages(store)
    flags = [m["kind"] in TYPE_KINDS and m["name"] == written and m["public"] for m in result["matches"]
             if not is_jdk_internal(m["ref"], internal, is_package=m["kind"] in ("package", "module"))]
    assert flags[0] and flags == sorted(flags, reverse=True), [m["ref"] for m in result["matches"]]


def test_exact_case_type_ranks_before_same_named_members(store):
    result = find(store, "Version", limit=100)
    assert refs(result)[0] == "tr.Version"
    assert {"tr.Alpha#VERSION", "tr.Beta#version()"} <= set(refs(result))
    _as_written_first(store, result, "Version")


def test_exact_case_type_ranks_before_packages(store):
    result = find(store, "Module", limit=100)
    assert refs(result)[0] == "tr.Module"
    found = refs(result)
    assert found.index("java.lang.Module") < min(found.index("tr.module"), found.index("java.lang.module"))
    _as_written_first(store, result, "Module")


def test_other_case_keeps_the_documented_order(store):
    """`version`: no type is named so, case and all; the exact tier keeps its order within public types, then public
    members (the fields' `VERSION` by name), and the rule never lifts a prefix or camel-hump match."""
    result = find(store, "version", limit=100, kinds=("class", "method", "field"))
    mine = [r for r in refs(result) if r.startswith("tr.")]
    assert mine[:3] == ["tr.Version", "tr.Alpha#VERSION", "tr.Beta#VERSION"]
    tiers = [m["match"] for m in find(store, "Modul", limit=100)["matches"]]
    assert "exact" not in tiers


def test_ranking_is_deterministic(store):
    assert find(store, "Version", limit=100) == find(store, "Version", limit=100)


# --- 3. did-you-mean of a frame of a known type ---------------------------------------------------------------
def test_frame_of_an_anonymous_class_with_a_missing_method_suggests_nothing_unrelated(store):
    with pytest.raises(NotFoundError) as exc:
        resolve(store, "at tr.Mapper$1.foo(Mapper.java:10)", 10)
    assert exc.value.message == "not found: tr.Mapper$1 has no method foo"
    # its own members and java.lang.Runnable's and Object's: none near `foo`, so no suggestion at all
    assert exc.value.candidates == []


def test_frame_typo_suggests_the_types_members_and_its_supertypes(store):
    with pytest.raises(NotFoundError) as exc:
        resolve(store, "at tr.Mapper.readTee(Mapper.java:10)", 10)
    found = [c["ref"] for c in exc.value.candidates]
    assert found and found[0] == "tr.Mapper#readTree"
    assert {r.split("#")[0] for r in found} <= {"tr.Mapper", "tr.Codec", "java.lang.Object"}
    assert all(c["kind"] == "method" for c in exc.value.candidates)


def test_member_fragment_of_a_known_type_stays_in_the_type(store):
    with pytest.raises(NotFoundError) as exc:
        resolve(store, "tr.Mapper#readVal", 10)
    assert exc.value.message == "not found: tr.Mapper has no member readVal"
    assert [c["ref"] for c in exc.value.candidates] == ["tr.Mapper#readValue", "tr.Mapper#readValues"]
