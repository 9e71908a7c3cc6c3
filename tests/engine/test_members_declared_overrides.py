"""`members --declared` says what each of the type's own members overrides, as the inherited listing does: "what
does ConcurrentHistogram override?" is a --declared question, and its answer carried no `overrides` at all (T95).

Oracle: the inherited listing of the same type (every declared member is in it, with the same `overrides`), and
reflection's view of one JDK case by hand: ArrayList#size() overrides AbstractCollection, List and Collection."""

from __future__ import annotations

import pytest

from jdx.engine.members import MemberOptions
from tests.service import JdxService, Options

ALL = ("public", "protected", "package", "private")


@pytest.fixture(scope="module")
def service(jdx_home):
    s = JdxService(Options(cache_dir=str(jdx_home / "cache")))
    yield s
    s.close()


@pytest.mark.parametrize("type_name", ["java.util.ArrayList", "java.util.concurrent.ConcurrentHashMap",
                                       "java.io.BufferedReader", "java.util.TreeMap$KeySet"])
def test_declared_members_say_what_they_override(service, type_name):
    full = service.members(type_name, MemberOptions(access=ALL)).result
    own = service.members(type_name, MemberOptions(access=ALL, inherited=False)).result
    declaring = full["type"]
    expected = {m["ref"]: m.get("overrides") for m in full["members"] if m["declaring"] == declaring}
    got = {m["ref"]: m.get("overrides") for m in own["members"]}
    assert got == expected
    assert any(got.values())  # each of these types overrides something
    assert all(m["declaring"] == declaring for m in own["members"])
    assert not own.get("collapsed") and not own["unresolved_supertypes"]


def test_arraylist_size(service):
    own = service.members("java.util.ArrayList", MemberOptions(inherited=False)).result
    size = next(m for m in own["members"] if m["ref"] == "java.util.ArrayList#size()")
    assert set(size["overrides"]) == {"java.util.AbstractCollection", "java.util.List", "java.util.Collection"}
