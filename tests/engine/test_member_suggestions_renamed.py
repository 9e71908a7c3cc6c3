"""A member reference with parentheses that misses suggests methods only, and the type's own methods taking exactly
the written parameters (T49: after renaming `Order#extend(int)` to `postponeBy(int)`, `callers Order#extend(int)`
suggested the unrelated field `created`). Without parentheses a field is still a suggestion."""

from __future__ import annotations

import json
import shutil

import pytest

from tests.fixtures.javac import javac_jar

ORDER = """package rn;
public class Order {
    public long created;
    public void postponeBy(int days) { }
    public void rename(String to) { }
    public int count() { return 0; }
}"""


@pytest.fixture(scope="module")
def jar(tmp_path_factory):
    if shutil.which("javac") is None:
        pytest.skip("javac is not installed")
    return javac_jar(tmp_path_factory.mktemp("renamed"), {"rn/Order.java": ORDER}, "rn", "renamed.jar")[0]


def _candidates(run_jdx, jar, ref: str) -> list[str]:
    r = run_jdx("--no-jdk", "--jars", str(jar), "callers", ref, "--json")
    assert r.code == 1, r.out
    return [c["ref"] for c in json.loads(r.out)["candidates"]]


def test_a_renamed_method_is_suggested_by_its_parameters(run_jdx, jar):
    got = _candidates(run_jdx, jar, "rn.Order#extend(int)")
    assert got[0] == "rn.Order#postponeBy(int)" and "rn.Order#created" not in got, got


def test_a_name_without_parentheses_may_be_a_field(run_jdx, jar):
    r = run_jdx("--no-jdk", "--jars", str(jar), "usages", "rn.Order#create", "--json")
    assert r.code == 1 and "rn.Order#created" in [c["ref"] for c in json.loads(r.out)["candidates"]], r.out
