"""Candidates and ranking on the JDK (spec §7.2, §9.3, §16): a `Simple#member` reference offers only the
types that have the member; JDK implementation packages rank after the API in search, ambiguity lists and
did-you-mean; did-you-mean shares `search --fuzzy`'s matcher (a property test over random typos)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from jdx.engine.ranking import internal_packages, is_jdk_internal
from jdx.engine.resolve import did_you_mean
from jdx.engine.search import SearchOptions
from tests.service import JdxService, Options
from jdx.errors import AmbiguousError, NotFoundError


@pytest.fixture(scope="module")
def jdk(jdx_home):
    service = JdxService(Options(cache_dir=str(jdx_home / "cache")))
    yield service
    service.close()


# --- Simple#member: only the types that declare or inherit the member ------------------------------------
@pytest.mark.parametrize("command", ["signature", "body", "doc", "usages", "callers", "samples"])
def test_one_type_with_the_member_is_the_answer(jdk, command):
    """`List#add(String)`: of the JDK's types named List only java.awt.List has it."""
    answer = getattr(jdk, command)("List#add(String)")
    assert "java.awt.List" in str(answer.result), command


def test_candidates_are_only_types_with_the_member(jdk):
    with pytest.raises(AmbiguousError) as exc:
        jdk.signature("List#subList")
    refs = [c["ref"] for c in exc.value.candidates]
    assert "java.util.List#subList" in refs and "java.awt.List#subList" not in refs
    assert all(r.endswith("#subList") for r in refs)


def test_no_type_with_the_member_is_not_found(jdk):
    with pytest.raises(NotFoundError) as exc:
        jdk.signature("List#noSuchMember")
    assert "has a member noSuchMember" in exc.value.message


def test_a_wrong_overload_says_the_member_exists_with_other_parameters(jdk):
    """`List#add(boolean)`: java.util.List has add(Object) and add(int, Object); the message read "none of the types
    named List has a member add", as if the method were gone (a trial's renamed-parameter round). (`Map#put(int)`,
    whose other `Map` is a JDK internal, reads Map as java.util.Map: NAME_PICKED, the same miss as the whole name.)"""
    with pytest.raises(NotFoundError) as exc:
        jdk.signature("List#add(boolean)")
    message = exc.value.message
    assert "has add(boolean); java.util.List has add with other parameters" in message
    assert "a member add" not in message
    assert "java.util.List#add(java.lang.Object)" in [c["ref"] for c in exc.value.candidates]
    with pytest.raises(NotFoundError) as picked:
        jdk.signature("Map#put(int)")
    assert "java.util.Map#put(java.lang.Object, java.lang.Object)" in [c["ref"] for c in picked.value.candidates]


def test_an_interface_miss_never_suggests_objects_protected_methods(jdk):
    """`Entry#content()` suggested `java.lang.Object#clone()` first (a trial): an interface has Object's public
    methods only (JLS §9.2), as `members` lists them; `clone` stays a suggestion for a class."""
    for text in ("java.util.Map$Entry#content()", "java.util.Iterator#finalise()"):
        with pytest.raises(NotFoundError) as exc:
            jdk.signature(text)
        refs = [c["ref"] for c in exc.value.candidates]
        assert not [r for r in refs if r.startswith("java.lang.Object#") and ("clone" in r or "finalize" in r)], refs
    with pytest.raises(NotFoundError) as exc:
        jdk.signature("java.util.ArrayList#clon()")
    assert "java.util.ArrayList#clone()" in [c["ref"] for c in exc.value.candidates]


def test_imports_of_a_member_picks_the_type_that_has_it(jdk):
    """`imports List#copyOf`: java.util.List is the only List with a static copyOf."""
    from jdx.engine.imports import imports

    got, _ = imports(jdk.store(), "List#copyOf")
    assert got["imports"][0]["statement"] == "import static java.util.List.copyOf;"


# --- ranking: JDK internals after the API --------------------------------------------------------------------
def test_module_descriptors_say_what_is_internal(jdk):
    """Package.jdk_internal comes from the JDK's module descriptors, not from package names."""
    internal = internal_packages(jdk.store())
    assert internal is not None and len(internal) > 300
    assert {"sun.font", "jdk.internal.misc", "com.sun.tools.javac.util"} <= internal
    assert not {"java.util", "sun.misc", "com.sun.net.httpserver", "javax.swing"} & internal  # sun.misc: jdk.unsupported
    assert is_jdk_internal("com/sun/tools/javac/util/List", internal)
    assert not is_jdk_internal("sun.misc.Unsafe", internal)


def _internal_before_api(rows: list[dict], internal, tier_field: str = "match") -> list[str]:
    """Pairs where an internal candidate precedes an API one of the same match quality."""
    bad = []
    for a, b in zip(rows, rows[1:]):
        ia = is_jdk_internal(a["ref"], internal, is_package=a["kind"] in ("package", "module"))
        ib = is_jdk_internal(b["ref"], internal, is_package=b["kind"] in ("package", "module"))
        if a.get(tier_field) == b.get(tier_field) and ia and not ib:
            bad.append(f"{a['ref']} before {b['ref']}")
    return bad


@pytest.mark.parametrize("pattern", ["XMap", "Entry", "Parser", "OIDMap", "Provider"])
def test_search_ranks_internals_after_the_api(jdk, pattern):
    matches = jdk.search(pattern, SearchOptions(limit=400)).result["matches"]
    assert matches
    assert not _internal_before_api(matches, internal_packages(jdk.store())), pattern


def test_ambiguity_lists_rank_internals_last(jdk):
    with pytest.raises(AmbiguousError) as exc:
        jdk.show("Entry")
    refs = [c["ref"] for c in exc.value.candidates]
    flags = [is_jdk_internal(r, internal_packages(jdk.store())) for r in refs]
    assert flags == sorted(flags), refs[:10]
    assert "java.util.Map$Entry" in refs[:10]


def test_internals_stay_findable(jdk):
    """An explicit package brings internals up."""
    matches = jdk.search("XMap", SearchOptions(package_glob="sun.font", limit=5)).result["matches"]
    assert matches[0]["ref"] == "sun.font.XMap"


def test_did_you_mean_ranks_the_api_first(jdk):
    """Near names of a typo: internal ones after the exported ones."""
    refs = [c["ref"] for c in did_you_mean(jdk.store(), "OIDMaps")]
    flags = [is_jdk_internal(r, internal_packages(jdk.store())) for r in refs]
    assert flags == sorted(flags), refs


# --- did-you-mean: one matcher with search --fuzzy -------------------------------------------------------------
def _typo(rng: random.Random, name: str) -> str:
    i = rng.randrange(len(name))
    op = rng.choice("dsic")
    if op == "d":
        return name[:i] + name[i + 1:]
    if op == "s":
        return name[:i] + rng.choice("abcdefghijklmnopqrstuvwxyz") + name[i + 1:]
    if op == "i":
        return name[:i] + rng.choice("abcdefghijklmnopqrstuvwxyz") + name[i:]
    return name[:i] + name[i].swapcase() + name[i + 1:]


def did_you_mean_property(service: JdxService, samples: int, seed: int) -> tuple[int, list]:
    """Random public, exported JDK types whose simple name is unique (so "the original" is one type), each
    with one random edit that is no type's name: how often is the original suggested first?"""
    store = service.store()
    internal = internal_packages(store)
    counts = Counter(r["s"] for r in store.rows(
        "MATCH (t:Type) WHERE NOT t.external AND NOT t.shadowed RETURN t.simple_name AS s"))
    types = [r for r in store.rows("MATCH (t:Type) WHERE NOT t.external AND NOT t.shadowed AND t.access % 2 = 1 "
                                   "AND t.outer IS NULL RETURN t.id AS id, t.simple_name AS s ORDER BY id")
             if not is_jdk_internal(r["id"], internal) and len(r["s"]) >= 4 and counts[r["s"]] == 1]
    rng = random.Random(seed)
    hits, misses, tried = 0, [], 0
    while tried < samples:
        t = rng.choice(types)
        typo = _typo(rng, t["s"])
        if typo in counts:
            continue
        tried += 1
        got = did_you_mean(store, typo)
        if got and got[0]["ref"] == t["id"].replace("/", "."):
            hits += 1
        else:
            misses.append((typo, t["id"], [g["ref"] for g in got[:3]]))
    return hits, misses


@pytest.mark.soak
def test_did_you_mean_suggests_the_original_first(jdk):
    hits, misses = did_you_mean_property(jdk, 20, seed=16)
    assert hits >= 19, misses


def test_case_slip_and_dropped_letter(jdk):
    assert did_you_mean(jdk.store(), "Arraylist")[0]["ref"] == "java.util.ArrayList"
    assert did_you_mean(jdk.store(), "ConcurentHashMap")[0]["ref"] == "java.util.concurrent.ConcurrentHashMap"
    fuzzy = jdk.search("Arraylst", SearchOptions(fuzzy=True, limit=1)).result["matches"]
    assert fuzzy[0]["ref"] == did_you_mean(jdk.store(), "Arraylst")[0]["ref"]


@pytest.mark.soak
def test_did_you_mean_property_over_many_types(jdk):
    hits, misses = did_you_mean_property(jdk, 400, seed=1616)
    assert hits >= 0.95 * 400, f"{hits}/400; first misses: {misses[:10]}"
