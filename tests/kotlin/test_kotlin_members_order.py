"""`members` of a Kotlin class lists declarations by the names a Kotlin caller writes (docs/kotlin.md): a property by
its name, not its getter's, within the groups `--sort` makes (declaring type and kind for `kind`; declaring type
for `declaring`; one list for `name`). The kotlinc fixtures' `data class Point(val x: Int, val y: Int)` is the case:
its getters `getX`/`getY` sort before `hashCode` on the JVM, while `x`/`y` sort after `toString`."""

from __future__ import annotations

import pytest

from tests.kotlin.corpus import fixtures_jar, indexed_store


@pytest.fixture(scope="module")
def store(tmp_path_factory, jdx_home):
    yield from indexed_store(tmp_path_factory, jdx_home, fixtures_jar(), "kmo", "kotlin-fixtures.jar")


def _members(store, fqn: str, sort: str, view: str) -> list[dict]:
    from jdx.engine.kotlin_members import members_view
    from jdx.engine.members import MemberOptions, list_members

    opts = MemberOptions(sort=sort)
    result = list_members(store, fqn, opts)
    if result.pop("kotlin_target", False) and view == "kotlin":
        members_view(store, result, opts.access, opts.sort)
    return result["members"]


def _name(item: dict) -> str:
    return (item.get("kotlin") or {}).get("name") or item["name"]


def _groups(items: list[dict], sort: str) -> list[list[str]]:
    out: list[list[str]] = []
    last = object()
    for item in items:
        key = (None if sort == "name" else item["declaring"], item["kind"] if sort == "kind" else None)
        if key != last:
            out.append([])
            last = key
        out[-1].append(_name(item))
    return out


@pytest.mark.parametrize("sort", ["kind", "name", "declaring"])
def test_kotlin_names_are_in_order_within_each_group(store, sort):
    items = _members(store, "kx.Point", sort, "kotlin")
    names = [_name(i) for i in items]
    assert {"x", "y", "copy", "component1", "hashCode", "toString"} <= set(names)
    for group in _groups(items, sort):
        assert group == sorted(group), group
    assert names.index("toString") < names.index("x") < names.index("y")


def test_the_jvm_view_keeps_the_jvm_names_order(store):
    jvm = [i["name"] for i in _members(store, "kx.Point", "kind", "jvm")]
    assert jvm.index("getX") < jvm.index("hashCode")  # what the Kotlin view reorders
