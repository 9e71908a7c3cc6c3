"""`overrides Type#name` without a parameter list answers the overloads that take part in overriding: a static or
private method neither overrides nor is overridden (JLS §8.4.8), so a bare name leaves them out when an instance
overload exists (T28: `RevCommit#toString` printed a block for the static `ObjectId#toString(ObjectId)`). javap -p of
the JDK's classes is the oracle."""

from __future__ import annotations

import re
import subprocess

import pytest

from tests.service import JdxService, Options


@pytest.fixture(scope="module")
def svc(jdx_home) -> JdxService:
    service = JdxService(Options(cache_dir=str(jdx_home / "cache")))
    yield service
    service.close()


def _javap_static(cls: str, name: str) -> dict[str, bool]:
    """Declared methods named `name` of `cls` -> static?, keyed by their parameter list as javap prints it."""
    out = subprocess.run(["javap", "-p", cls], capture_output=True, text=True, check=True).stdout
    found = {}
    for line in out.splitlines():
        m = re.search(rf"\s{re.escape(name)}\(([^)]*)\)", line)
        if m:
            found[m.group(1).replace(" ", "")] = " static " in f" {line.strip()} "
    return found


@pytest.mark.parametrize("cls,name", [("java.lang.Integer", "toString"), ("java.lang.Long", "hashCode"),
                                      ("java.lang.Boolean", "toString")])
def test_a_bare_name_leaves_static_overloads_out(svc, cls, name):
    declared = _javap_static(cls, name)
    assert any(declared.values()) and not all(declared.values())  # the oracle has both kinds
    result = svc.overrides(f"{cls}#{name}").result
    shown = [m["method"] for m in result["methods"]]
    params = [re.search(r"\(([^)]*)\)", ref).group(1).replace(" ", "") for ref in shown]
    assert params and all(p in declared and not declared[p] for p in params), (shown, declared)
    assert set(params) == {p for p, static in declared.items() if not static}


def test_a_parameter_list_still_names_the_static_one(svc):
    declared = _javap_static("java.lang.Integer", "toString")
    static = sorted(p for p, s in declared.items() if s)[0]
    result = svc.overrides(f"java.lang.Integer#toString({static})").result
    (only,) = result["methods"]
    assert only["overrides"] == [] and only["overridden_by"] == []


def test_only_static_overloads_are_all_answered(svc):
    declared = _javap_static("java.util.Collections", "sort")
    assert declared and all(declared.values())
    result = svc.overrides("java.util.Collections#sort").result
    assert len(result["methods"]) == len(declared)
