"""`usages` of a Kotlin property in the Kotlin view lists the properties overriding it (kind `override`, one site per
overriding class, whether it overrides the getter, the setter or both), as `--view jvm` lists the accessors'
overriders (T30: `usages Job#isActive` showed `read 9` and dropped its 5 overrides; `--kind override` said it never
matches). javap -p of the fixture says which classes declare the accessors."""

from __future__ import annotations

import subprocess

import pytest

SOURCE = '''package kpo

interface Job {
    val active: Boolean
    var label: String
}

open class First : Job {
    override val active: Boolean get() = true
    override var label: String = ""
}

class Second : First() {
    override val active: Boolean get() = false
}

fun use(j: Job): Boolean = j.active
'''


@pytest.fixture(scope="module")
def built(tmp_path_factory, jdx_home):
    from tests.kotlin.corpus import indexed_store, kotlinc_jar

    jar = kotlinc_jar("property-overrides", {"P.kt": SOURCE})
    for store in indexed_store(tmp_path_factory, jdx_home, jar, "kpo", "property-overrides.jar"):
        yield store, jar


def _declaring(jar, method: str) -> set[str]:
    """The fixture's classes declaring `method` (javap -p), Job itself left out."""
    out = set()
    for cls in ("kpo.First", "kpo.Second"):
        text = subprocess.run(["javap", "-p", "-cp", str(jar), cls], capture_output=True, text=True, check=True).stdout
        if f" {method}(" in text:
            out.add(cls)
    return out


def _sites(store, text: str, kinds=("all",), view: str = "kotlin") -> list[dict]:
    from jdx.engine.rel_usages import UsageOptions, usages

    result, _warnings, _ = usages(store, text, UsageOptions(kinds=kinds, view=view, limit=100))
    return [{**s, "caller": c["caller"]} for g in result["groups"] for c in g["callers"] for s in c["sites"]]


def test_overriding_properties_are_override_sites(built):
    store, jar = built
    want = _declaring(jar, "getActive")
    assert want == {"kpo.First", "kpo.Second"}
    sites = _sites(store, "kpo.Job#active")
    overrides = {s["caller"].split("#", 1)[0] for s in sites if s["kind"] == "override"}
    assert overrides == want, sites
    assert [s["kind"] for s in sites].count("read") == 1  # use(j): the getter's call
    assert {s["caller"].split("#", 1)[0] for s in _sites(store, "kpo.Job#active", ("override",))} == want


def test_a_var_overridden_in_both_accessors_is_one_site(built):
    store, jar = built
    assert _declaring(jar, "getLabel") == _declaring(jar, "setLabel") == {"kpo.First"}
    overrides = [s for s in _sites(store, "kpo.Job#label") if s["kind"] == "override"]
    assert [s["caller"].split("#", 1)[0] for s in overrides] == ["kpo.First"], overrides
