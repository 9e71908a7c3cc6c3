"""`hierarchy --depth` and `implementors --depth` say what the depth cut left out (spec §8.1: truncation is always
explicit and says how to see more): the counts are of every supertype or subtype, and the truncation names how many
lie deeper and the `--depth` that shows them. A trial found `hierarchy ... --down --depth 2` saying "subtypes in
workspace (7)", truncated null, where `--depth 6` showed 12. On the JDK alone (the session's indexed graph)."""

from __future__ import annotations

import pytest

from jdx.engine.rel_hierarchy import HierarchyOptions, hierarchy, implementors
from tests.service import JdxService, Options

ROOM = 100_000  # a --limit that cuts nothing: only the depth cuts


@pytest.fixture(scope="module")
def store(jdx_home):
    service = JdxService(Options(cache_dir=str(jdx_home / "cache")))
    yield service.store()
    service.close()


def _down(store, text: str, depth: int | None):
    result, _warnings, truncated = hierarchy(store, text, HierarchyOptions(up=False, depth=depth, limit=ROOM))
    return result, truncated


def _types(entries: list[dict]) -> set[str]:
    return {e["type"] for e in entries} | {t for e in entries for t in _types(e.get("children", []))}


def test_a_depth_cut_down_the_tree_counts_every_subtype_and_says_which_depth_shows_them(store):
    full, untruncated = _down(store, "java.util.AbstractCollection", None)
    everything = full["down_count"]
    assert untruncated is None and everything == len(_types(full["down"])) > 40
    cut, truncated = _down(store, "java.util.AbstractCollection", 1)
    shown = len(_types(cut["down"]))
    assert shown < everything
    assert cut["down_count"] == everything, "the header counts every subtype, not those within --depth"
    assert truncated is not None and (truncated["shown"], truncated["total"]) == (shown, everything)
    deeper, depth = truncated["deeper"], truncated["depth"]
    assert deeper == everything - shown and f"{deeper} deeper than --depth 1: --depth {depth} shows them" in \
        truncated["hint"]
    # the depth it names shows them all, and one less does not
    whole, none = _down(store, "java.util.AbstractCollection", depth)
    assert none is None and len(_types(whole["down"])) == everything
    assert _down(store, "java.util.AbstractCollection", depth - 1)[1]["deeper"] > 0


def test_a_depth_cut_up_the_tree_is_stated_too(store):
    result, _warnings, truncated = hierarchy(store, "java.util.ArrayList", HierarchyOptions(down=False, depth=1,
                                                                                            limit=ROOM))
    full, _w, none = hierarchy(store, "java.util.ArrayList", HierarchyOptions(down=False, limit=ROOM))
    assert none is None and result["up_count"] == full["up_count"] == 9
    assert truncated["deeper"] == 9 - len(_types(result["up"])) > 0 and truncated["depth"] == 3
    assert "--depth 3 shows them" in truncated["hint"]


def test_a_depth_that_cuts_nothing_says_nothing(store):
    result, truncated = _down(store, "java.util.ArrayList", 1)  # its subtypes are all direct ones
    assert truncated is None and result["down_count"] == len(_types(result["down"]))


def test_implementors_depth_cut_counts_every_subtype(store):
    full, _w, none = implementors(store, "java.util.AbstractCollection", HierarchyOptions(limit=ROOM))
    direct, _w, truncated = implementors(store, "java.util.AbstractCollection", HierarchyOptions(depth=1, limit=ROOM))
    assert none is None and direct["count"] == full["count"] > len(direct["implementors"])
    assert truncated["total"] == full["count"] and truncated["deeper"] == full["count"] - len(direct["implementors"])
    assert f"--depth {truncated['depth']} shows them" in truncated["hint"]


def test_a_limit_and_a_depth_cut_are_both_stated(store):
    _result, _warnings, truncated = hierarchy(store, "java.util.AbstractCollection",
                                              HierarchyOptions(up=False, depth=1, limit=2))
    assert truncated["shown"] == 2 and "deeper than --depth 1" in truncated["hint"] and "--limit" in truncated["hint"]
