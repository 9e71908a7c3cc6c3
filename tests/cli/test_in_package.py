"""`--in` takes an artifact's name; a package given there is a not-found whose candidates are the artifacts that
declare it (the graph's Type.package), not the artifacts whose names are nearest to the package's text."""

from __future__ import annotations

import json


def test_a_package_given_to_in_names_the_artifact_declaring_it(run_jdx):
    r = run_jdx("usages", "java.util.List", "--in", "java.util.concurrent*", "--json")
    data = json.loads(r.out)
    assert r.code == 1 and data["error"]["code"] == "NOT_FOUND", r.out
    assert "java.util.concurrent is a package, declared in java.base" in data["error"]["message"]
    assert [c["ref"] for c in data["candidates"]] == ["java.base"]
    text = run_jdx("callers", "java.util.List#size()", "--in", "java.util.function")
    assert text.code == 1 and "hint: --in takes an artifact's name: --in java.base" in text.out + text.err


def test_a_misspelt_artifact_still_gets_the_nearest_names(run_jdx):
    r = run_jdx("usages", "java.util.List", "--in", "javabase", "--json")
    data = json.loads(r.out)
    assert r.code == 1 and "package" not in data["error"]["message"]
    assert data["candidates"][0]["ref"] == "java.base"
