"""Camel humps before a member (spec §6, §7.2): `HMap#get`, `CHM.putIfAbsent`, `Mapp#readValue` find the members
of the types the qualifier matches as a camel-hump pattern when, read literally, it matched nothing; a qualifier that
names its type exactly keeps its exact answer, and the member part matches by prefix and humps as before."""

from __future__ import annotations

import pytest

from jdx.errors import NotFoundError
from tests.engine.test_search_trial import find, store  # noqa: F401  (the trial jar + JDK workspace fixture)


def refs(result: dict) -> list[str]:
    return [m["ref"] for m in result["matches"]]


def test_a_hump_type_before_a_hash(store):  # noqa: F811
    result = find(store, "HMap#get")
    assert refs(result)[0] == "java.util.HashMap#get(java.lang.Object)", refs(result)
    assert result["matches"][0]["match"] == "camel-hump"
    assert {m["kind"] for m in result["matches"]} <= {"method", "field"}
    # an exact member name ranks before a prefix of one, whatever the owner
    tiers = [m["name"] == "get" for m in result["matches"]]
    assert tiers == sorted(tiers, reverse=True), refs(result)


def test_a_hump_type_before_a_dot(store):  # noqa: F811
    got = refs(find(store, "CHM.putIfAbsent"))
    assert got[0] == "java.util.concurrent.ConcurrentHashMap#putIfAbsent(java.lang.Object, java.lang.Object)", got


def test_humps_and_prefixes_on_both_sides(store):  # noqa: F811
    put = "java.util.HashMap#putIfAbsent(java.lang.Object, java.lang.Object)"
    assert refs(find(store, "HashMap#putIfAbs"))[0] == put
    assert refs(find(store, "HMap#putIfAbs"))[0] == put
    assert refs(find(store, "Mapp#readVal"))[:2] == ["tr.Mapper#readValue", "tr.Mapper#readValues(java.lang.String)"]
    # `Map` names java.util.Map, which has no readValue: read literally it matches nothing, so the humps are asked
    assert refs(find(store, "Map#readValue"))[0] == "tr.Mapper#readValue"


def test_the_segments_before_a_hump_type_still_filter(store):  # noqa: F811
    assert refs(find(store, "tr.Mapp#readValue"))[0] == "tr.Mapper#readValue"
    assert refs(find(store, "util.HMap#get"))[0] == "java.util.HashMap#get(java.lang.Object)"
    with pytest.raises(NotFoundError):
        find(store, "nosuch.Mapp#readValue")


def test_an_exact_qualifier_keeps_its_exact_answer(store):  # noqa: F811
    got = refs(find(store, "HashMap#get"))
    assert got[0] == "java.util.HashMap#get(java.lang.Object)"
    assert all(r.startswith("java.util.HashMap#") for r in got), got  # no IdentityHashMap, no LinkedHashMap
    assert find(store, "HashMap#get")["matches"][0]["match"] == "exact"
    assert refs(find(store, "Mapper#readValue"))[0] == "tr.Mapper#readValue"
    # a dotted package qualifier is a package, not a hump: java.util's HashMap types, as before
    assert refs(find(store, "java.util.HashMap"))[0] == "java.util.HashMap"


def test_a_hump_qualifier_matching_nothing_is_not_found(store):  # noqa: F811
    with pytest.raises(NotFoundError):
        find(store, "HMap#noSuchMemberAnywhere")
    with pytest.raises(NotFoundError):
        find(store, "Qzxq#get")
