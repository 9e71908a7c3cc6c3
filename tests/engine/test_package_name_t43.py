"""A package's name given to a command that takes a type (T43): `show java.util.concurrent` and `members
java.util.concurrent` said "not found" with near type names. The miss says it is a package and how to browse it
(`jdx ls`), the package its one candidate; the exit stays 1 (these commands take a type). The oracle is the JDK's
module descriptor (`java --describe-module java.base` exports the package)."""

from __future__ import annotations

import json

import pytest

from tests.fixtures import jdktool

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)


def _exported(module: str) -> set[str]:
    out = jdktool.run(["java", "--describe-module", module], capture_output=True, text=True, check=True).stdout
    return {line.split()[1] for line in out.splitlines() if line.startswith("exports ")}


@pytest.mark.parametrize("command", ["show", "members", "imports"])
def test_a_package_name_is_a_not_found_naming_the_package(run_jdx, command):
    assert "java.util.concurrent" in _exported("java.base")
    r = run_jdx(command, "java.util.concurrent", "--json")
    assert r.code == 1, r.out + r.err
    answer = json.loads(r.out)
    assert answer["error"]["message"] == "not found: java.util.concurrent is a package, not a type"
    assert answer["error"]["hint"] == "jdx ls java.util.concurrent lists its types"
    assert answer["candidates"] == [{"ref": "java.util.concurrent", "kind": "package", "artifact": "java.base"}]


def test_a_name_that_is_no_package_keeps_its_near_type_names(run_jdx):
    assert "java.util.concurren" not in _exported("java.base")
    r = run_jdx("show", "java.util.concurren", "--json")
    answer = json.loads(r.out)
    assert r.code == 1 and answer["error"]["message"] == "not found: java.util.concurren", r.out
    assert answer["candidates"] and all(c["kind"] != "package" for c in answer["candidates"])
