"""Search ranks what an agent can use first (spec §7.2, ranking.symbol_key): within one match tier the workspace's
types, public or not, and the JDK's exported public ones come before the JDK's non-public types and its
implementation packages. An okio trial listed 25 `java.util.stream.ReduceOps$NReducingSink` above okio's own
`BlackholeSink` for `*Sink`. The fixture is test_search_trial's jar plus a few `*Sink` types, with the JDK."""

from __future__ import annotations

import pytest

from jdx.engine.ranking import PUBLIC_MEMBER, internal_packages, is_jdk_internal, reach
from jdx.engine.search import SearchOptions, search
from tests.engine.test_search_trial import SOURCES
from tests.fixtures.javac import javac_jar
from tests.service import JdxService, Options

SINKS = {
    "tr/PipeSink.java": "package tr; public class PipeSink {}",
    "tr/QuietSink.java": "package tr; class QuietSink {}",
    "tr/Pipes.java": "package tr; public class Pipes { private static class NullSink {} }",
    # a prefix match of the JDK's FindOps$FindSink: public, it comes before that non-public exact match
    "tr/FindSinkPlus.java": "package tr; public class FindSinkPlus {}",
}
TIERS = {"exact": 0, "prefix": 1, "prefix-any-case": 2, "camel-hump": 3, "word": 4, "glob": 3, "regex": 3}


@pytest.fixture(scope="module")
def store(tmp_path_factory, jdx_home):
    jar, _classes = javac_jar(tmp_path_factory.mktemp("rank-internals"), {**SOURCES, **SINKS}, "tr", "sinks.jar")
    service = JdxService(Options(jars=[str(jar)], cache_dir=str(jdx_home / "cache")))
    yield service.store()
    service.close()


def find(store, text, **kw) -> list[dict]:
    return search(store, text, SearchOptions(**kw))[0]["matches"]


def test_the_workspace_types_come_before_the_jdk_non_public_ones(store):
    matches = find(store, "*Sink", kinds=("class",), limit=100)
    refs = [m["ref"] for m in matches]
    mine = [r for r in refs if r.startswith("tr.")]
    assert mine == ["tr.PipeSink", "tr.Pipes$NullSink", "tr.QuietSink"], refs  # shorter names first
    assert refs[:3] == mine, refs
    jdk = [m for m in matches if m["origin"] == "jdk"]
    assert jdk and all(not m["public"] for m in jdk), refs  # java.util.stream's sinks: none is public
    assert any(r.startswith("java.util.stream.ReduceOps$") for r in refs), refs


@pytest.mark.parametrize("pattern", ["*Sink", "*Entry", "*Reader", "Mapper*", "Map"])
def test_within_a_tier_usable_types_come_first(store, pattern):
    """The key after the tier: JDK implementation package, non-public, non-public and the JDK's; sorted."""
    internal = internal_packages(store)
    keys = []
    for m in find(store, pattern, kinds=("class", "interface"), limit=300):
        jdk_internal = is_jdk_internal(m["ref"], internal)
        as_written = m["match"] == "exact" and m["name"] == pattern
        first = reach(True, m["public"], jdk_internal)
        if as_written and not jdk_internal:  # a non-public type named as written: after the public types
            first = min(first, PUBLIC_MEMBER)
        keys.append((first, TIERS[m["match"]], jdk_internal, not m["public"], not m["public"] and m["origin"] == "jdk"))
    assert keys == sorted(keys), pattern
    # the JDK's exported public types are among the first ones whenever they match
    assert any(k[2:] == (False, False, False) for k in keys) or pattern == "*Sink", pattern


def test_an_exact_match_still_comes_first(store):
    """Named as written, the JDK's non-public FindOps$FindSink comes right after the public types (a trial's `Pair`
    listed four JDK-private nested `Pair`s before java.security.KeyPair), before the other non-public ones."""
    refs = [m["ref"] for m in find(store, "FindSink", kinds=("class",), limit=20)]
    assert refs[:2] == ["tr.FindSinkPlus", "java.util.stream.FindOps$FindSink"], refs


def test_the_ranking_is_deterministic(store):
    first = find(store, "*Sink", kinds=("class",), limit=100)
    assert find(store, "*Sink", kinds=("class",), limit=100) == first
    assert [m["ref"] for m in find(store, "*Sink", kinds=("class",), limit=5)] == [m["ref"] for m in first[:5]]
