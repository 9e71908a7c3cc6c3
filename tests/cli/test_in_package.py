"""`--in` takes an artifact's name; a package given there is a not-found whose candidates are the artifacts that
declare it (the graph's Type.package), not the artifacts whose names are nearest to the package's text."""

from __future__ import annotations

import json

import pytest


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


@pytest.mark.soak  # a gson + JDK workspace: the soak runs it (.ci/run)
def test_the_workspaces_own_artifacts_come_before_the_jdks_modules(run_jdx):
    """`--in otel*` over OpenTelemetry's jars offered java.se, jdk.jdi, jdk.jfr… (a trial): a glob matching nothing
    suggests the workspace's own artifacts first; the JDK's modules only after them."""
    from tests.conftest import GSON, require

    require(GSON)
    r = run_jdx("usages", "com.google.gson.Gson", "--in", "otel*", "--jars", str(GSON), "--json")
    data = json.loads(r.out)
    assert r.code == 1 and data["error"]["code"] == "NOT_FOUND", r.out
    assert data["candidates"][0]["ref"] == "gson.jar", data["candidates"]
