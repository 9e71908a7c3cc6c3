"""`members` marks what `@Deprecated(forRemoval=true)` deprecates as such (text `@Deprecated(forRemoval=true)`, JSON
`for_removal`): a member about to go is not the same warning as one merely discouraged (T28: Jetty's
`Request.getParametersAsync` showed a bare `@Deprecated`). javap -v of JDK classes is the oracle."""

from __future__ import annotations

import re
import subprocess

import pytest

from jdx.engine.members import MemberOptions, list_members
from tests.service import JdxService, Options


@pytest.fixture(scope="module")
def store(jdx_home):
    service = JdxService(Options(cache_dir=str(jdx_home / "cache")))
    yield service.store()
    service.close()


def _javap_deprecated(cls: str) -> dict[str, bool]:
    """Declared public/protected members -> deprecated for removal?, for the deprecated ones (key: name + '(' for a
    method's name, the field's name otherwise; javap -v's RuntimeVisibleAnnotations under each declaration)."""
    out = subprocess.run(["javap", "-v", "-protected", cls], capture_output=True, text=True, check=True).stdout
    found: dict[str, bool] = {}
    current = None
    for line in out.splitlines():
        if re.match(r"^  (public|protected)\b.*;$", line):
            m = re.search(r"(\w+)(\(|;)", line.split("throws")[0])
            current = (m.group(1) + ("(" if m.group(2) == "(" else "")) if m else None
        elif current and "java.lang.Deprecated" in line:
            found.setdefault(current, False)
        elif current and "forRemoval=true" in line and current in found:
            found[current] = True
    return found


@pytest.mark.parametrize("cls", ["java.lang.Thread", "java.lang.System", "java.lang.ThreadGroup"])
def test_for_removal_is_marked_as_javap_shows(store, cls):
    oracle = _javap_deprecated(cls)
    assert any(oracle.values()), oracle  # the class has members deprecated for removal
    members = list_members(store, cls, MemberOptions(inherited=False))["members"]
    for m in members:
        key = m["name"] + ("(" if m["kind"] == "method" else "")
        if key not in oracle:
            continue
        if sum(x["name"] == m["name"] and x["kind"] == m["kind"] for x in members) > 1:
            continue  # overloads share a key: only the unambiguous ones are compared
        assert m["deprecated"], m
        assert m.get("for_removal", False) == oracle[key], (m["ref"], oracle[key])


def test_the_text_says_for_removal(run_jdx):
    r = run_jdx("members", "java.lang.Thread", "--grep", "^(suspend|stop)$")
    assert r.code == 0, r.err
    lines = {ln.split("(")[0].split()[-1]: ln for ln in r.out.splitlines() if ln.startswith("  method ")}
    oracle = _javap_deprecated("java.lang.Thread")
    for name, line in lines.items():
        want = "@Deprecated(forRemoval=true)" if oracle.get(name + "(") else "@Deprecated"
        assert line.endswith("  " + want), line
