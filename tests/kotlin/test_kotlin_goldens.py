"""Goldens of the Kotlin view (spec §12.1) on the kotlinc fixtures, text and JSON, and the same classes with
`--view jvm` (the JVM projection, unchanged). Regenerate with `JDX_UPDATE_GOLDENS=1`, then review the diff."""

from __future__ import annotations

import shutil

import pytest

from tests.cli import golden
from tests.kotlin.corpus import fixtures_jar

CASES = [
    ("kotlin-show-point", ["show", "kx.Point"]),
    ("kotlin-show-point-jvm", ["show", "kx.Point", "--view", "jvm"]),
    ("kotlin-show-color", ["show", "kx.Color"]),
    ("kotlin-outline-point", ["outline", "kx.Point"]),
    ("kotlin-outline-point-jvm", ["outline", "kx.Point", "--view", "jvm"]),
    ("kotlin-outline-shapeutils", ["outline", "kx.ShapeUtils"]),
    ("kotlin-outline-functions", ["outline", "kx.FunctionsKt"]),
    ("kotlin-outline-canvas", ["outline", "kx.Canvas"]),
    ("kotlin-outline-factory", ["outline", "kx.Canvas$Factory"]),
    ("kotlin-outline-registry", ["outline", "kx.Registry"]),
    ("kotlin-outline-box-methods", ["outline", "kx.Box", "--kind", "method"]),
    ("kotlin-signature-area", ["signature", "kx.ShapeUtils#area"]),
    ("kotlin-signature-fetch", ["signature", "kx.FunctionsKt#fetch"]),
    ("kotlin-signature-fetch-jvm", ["signature", "kx.FunctionsKt#fetch", "--view", "jvm"]),
    ("kotlin-signature-title", ["signature", "kx.Canvas#getTitle"]),
    ("kotlin-signature-jvmname", ["signature", "kx.ShapeUtils#sides"]),
    ("kotlin-signature-property", ["signature", "kx.Shape#name"]),
    ("kotlin-members-canvas", ["members", "kx.Canvas"]),
    ("kotlin-members-canvas-jvm", ["members", "kx.Canvas", "--view", "jvm"]),
    ("kotlin-members-circle", ["members", "kx.Circle"]),
]


@pytest.fixture(scope="module")
def outputs(tmp_path_factory, jdx_env, run_jdx) -> dict:
    jar = tmp_path_factory.mktemp("kt") / "kotlin-fixtures.jar"
    shutil.copy(fixtures_jar(), jar)
    args = ["--jars", str(jar), "--no-jdk"]
    r = run_jdx("index", *args)
    assert r.code == 0, r.err
    found = {}
    with golden.in_process(jdx_env) as run_here:
        for name, argv in CASES:
            found[(name, "txt")] = run_here(args + argv)
            found[(name, "json")] = run_here(args + argv + ["--json"])
    return found


@pytest.mark.parametrize("name", [c[0] for c in CASES])
@pytest.mark.parametrize("ext", ["txt", "json"])
def test_kotlin_golden(outputs, jdx_home, name, ext):
    golden.check(golden.GOLDENS / f"{name}.{ext}", outputs[(name, ext)], 0, jdx_home)


def test_jvm_view_is_the_view_without_kotlin(outputs):
    """`--view jvm` prints what jdx printed before the Kotlin view existed: no Kotlin key in JSON, the JVM
    declaration in text."""
    import json

    for name in ("kotlin-show-point-jvm", "kotlin-outline-point-jvm", "kotlin-signature-fetch-jvm",
                 "kotlin-members-canvas-jvm"):
        data = json.loads(outputs[(name, "json")].out)["result"]
        assert "view" not in data and "kotlin_members" not in data and "kotlin_target" not in data
        assert all("kotlin" not in m for m in data.get("members", []))
        assert all("kotlin" not in s for s in data.get("signatures", []))
    assert "public final class Point" in outputs[("kotlin-show-point-jvm", "txt")].out
    assert "data class Point" in outputs[("kotlin-show-point", "txt")].out
