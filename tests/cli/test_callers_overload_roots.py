"""`callers` of a name with several overloads walks them all: a caller that is itself one of those roots is marked
`(seen above)`/`(seen below)` only when that root's callers print there; a root with no callers (listed after the
trees) is a plain leaf, not a pointer to a place that never prints. Oracle: the fixture's source (javac)."""

from __future__ import annotations

import json
import shutil

import pytest

from tests.fixtures.javac import javac_jar

SOURCE = """package ov;
public class O {
    public void m() { }
    public void m(int x) { m(); }
    public void m(String s) { m(1); }
}
"""


@pytest.fixture(scope="module")
def jar(tmp_path_factory):
    if shutil.which("javac") is None:
        pytest.skip("javac is not installed")
    return javac_jar(tmp_path_factory.mktemp("ov"), {"ov/O.java": SOURCE}, "ov", "ov.jar")[0]


def test_a_caller_that_is_a_root_without_callers_is_a_leaf(jar, run_jdx):
    data = json.loads(run_jdx("--no-jdk", "--jars", str(jar), "callers", "ov.O#m", "--json").out)["result"]
    entries = {(root["method"], e["method"]): e for root in data["roots"] for e in root["tree"]}
    leaf = entries[("ov.O#m(int)", "ov.O#m(java.lang.String)")]  # m(String) has no callers: nothing to point at
    assert "seen" not in leaf, leaf
    pointer = entries[("ov.O#m()", "ov.O#m(int)")]  # m(int)'s own callers print as its root's tree
    assert pointer.get("seen"), pointer
