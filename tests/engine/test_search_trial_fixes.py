"""Search defects from a user trial (spec §7.2: "HMap → HashMap", best match first; docs/kotlin.md):

1. A camel-hump pattern's capitals name words: `HMap` ranks `java.util.HashMap` (and every name whose humps carry
   H…M) before the `headMap` methods, which match only with `H` read as `h`; `LMap` puts `LinkedHashMap` before
   the private JDK field `URLClassPath#lmap`, an exact match only when case is ignored.
2. In the Kotlin view a multi-file part's member (`ArraysKt___ArraysKt#getLastIndex`, a package-private class) is
   named in its facade (`ArraysKt`), public as the facade is.

The JDK alone (the session's indexed graph), and kotlin-stdlib 2.0.21 alone for the facade."""

from __future__ import annotations

import pytest

from jdx.engine.ranking import PUBLIC_MEMBER, internal_packages, is_jdk_internal, reach
from jdx.engine.search import SearchOptions, search
from jdx.engine.search_index import rank_tier
from jdx.engine.search_match import EXACT, HUMP, LOOSE_PREFIX, PREFIX, WORD
from tests.service import JdxService, Options

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)

TIERS = {"exact": EXACT, "prefix": PREFIX, "camel-hump": HUMP, "prefix-any-case": LOOSE_PREFIX,
         "camel-hump-any-case": LOOSE_PREFIX, "word": WORD}


@pytest.fixture(scope="module")
def store(jdx_home):
    service = JdxService(Options(cache_dir=str(jdx_home / "cache")))
    yield service.store()
    service.close()


def find(store, text, **kw) -> list[dict]:
    return search(store, text, SearchOptions(**kw))[0]["matches"]


def test_hmap_ranks_the_h_map_humps_before_head_map(store):
    found = find(store, "HMap", limit=60)
    refs = [m["ref"] for m in found]
    assert refs[0] == "java.util.HashMap"
    heads = [i for i, m in enumerate(found) if m["name"] == "headMap"]
    internal = internal_packages(store)  # the public H-Map types outside the JDK's implementation packages
    humps = [i for i, m in enumerate(found) if m["match"] in ("exact", "prefix", "camel-hump") and m["public"]
             and not is_jdk_internal(m["ref"], internal)]
    assert heads and humps and max(humps) < min(heads), refs
    assert "org.w3c.dom.html.HTMLMapElement" in refs[: min(heads)]
    assert {found[i]["match"] for i in heads} == {"camel-hump-any-case"}


def test_lmap_ranks_a_type_before_the_private_field_lmap(store):
    found = find(store, "LMap", limit=200)
    refs = [m["ref"] for m in found]
    assert found[0]["kind"] in ("class", "interface") and found[0]["public"], refs[:5]
    lmap = refs.index("jdk.internal.loader.URLClassPath#lmap")
    assert refs.index("java.util.LinkedHashMap") < lmap
    assert found[lmap]["match"] == "prefix-any-case"
    assert all(m["match"] not in ("exact", "prefix", "camel-hump") for m in found[lmap:])


@pytest.mark.parametrize("pattern", ["HMap", "LMap", "URLConn"])
def test_results_follow_the_ranking_with_the_case_rule(store, pattern):
    found = find(store, pattern, limit=120)
    internal = internal_packages(store)
    keys = []
    for m in found:
        pkg = m["kind"] in ("package", "module")
        jdk_internal = is_jdk_internal(m["ref"], internal, is_package=pkg)
        as_written = m["match"] == "exact" and m["name"] == pattern and m["kind"] not in ("method", "field", "package",
                                                                                          "module")
        first = reach(m["kind"] not in ("method", "field"), m["public"], jdk_internal)
        if as_written and not jdk_internal:  # a non-public type named as written ranks with the public members
            first = min(first, PUBLIC_MEMBER)
        owner = m["ref"].split("#", 1)[0].split("(", 1)[0]
        keys.append((first, TIERS[m["match"]], jdk_internal, not as_written, not m["public"],
                     ".internal." in f".{owner.rsplit('.', 1)[0]}.", bool(m.get("deprecated")),
                     not m["public"] and m["origin"] == "jdk", len(m["name"])))
    assert keys == sorted(keys), pattern


def test_lower_case_and_single_capital_patterns_keep_case_insensitive_tiers(store):
    first = find(store, "hashmap", limit=5)[0]
    assert (first["ref"], first["match"]) == ("java.util.HashMap", "exact")
    assert rank_tier(EXACT, "version", "Version") == EXACT  # one capital, the first: no case rule
    assert rank_tier(EXACT, "lmap", "LMap") == LOOSE_PREFIX and rank_tier(HUMP, "LinkedMap", "LMap") == HUMP
    assert rank_tier(HUMP, "headMap", "HMap") == LOOSE_PREFIX and rank_tier(WORD, "xHeadMap", "HMap") == WORD
    assert rank_tier(PREFIX, "URLConnection", "URLConn") == PREFIX


# --- 2. a multi-file part's member is named in its facade ------------------------------------------------------
ARRAYS = ("ArraysKt", "ArraysKt__ArraysJVMKt", "ArraysKt__ArraysKt", "ArraysKt___ArraysJvmKt", "ArraysKt___ArraysKt")


@pytest.fixture(scope="module")
def stdlib(tmp_path_factory, jdx_home):
    """kotlin-stdlib's `kotlin.collections.ArraysKt` facade and its parts, copied out of the jar (indexing the whole
    stdlib costs ~7 s): each part extends the next, the facade the last (`-Xmultifile-parts-inherit`)."""
    import zipfile

    from tests.kotlin.corpus import indexed_store, stdlib_jar

    jar = tmp_path_factory.mktemp("arrays-facade") / "arrays.jar"
    with zipfile.ZipFile(stdlib_jar("2.0.21")) as src, zipfile.ZipFile(jar, "w") as out:
        for name in ARRAYS:
            out.writestr(f"kotlin/collections/{name}.class", src.read(f"kotlin/collections/{name}.class"))
    yield from indexed_store(tmp_path_factory, jdx_home, jar, "ktstdlib-facade", "kotlin-stdlib-2.0.21.jar")


@pytest.mark.parametrize("name, facade", [("lastIndex", "kotlin.collections.ArraysKt#getLastIndex("),
                                          ("filterNotNull", "kotlin.collections.ArraysKt#filterNotNull(")])
def test_a_multifile_parts_member_is_named_in_its_facade(stdlib, name, facade):
    found = find(stdlib, name, view="kotlin", limit=20)
    assert found and all("__" not in m["ref"].split("#", 1)[0] for m in found), [m["ref"] for m in found]
    first = found[0]
    assert first["ref"].startswith(facade) and first["public"] and first["kotlin"]["name"] == name
    # the JVM view still names the class file that declares it, package-private
    jvm = find(stdlib, "getLastIndex", view="jvm", limit=20)
    assert any(m["ref"].startswith("kotlin.collections.ArraysKt___ArraysKt#") and not m["public"] for m in jvm)
