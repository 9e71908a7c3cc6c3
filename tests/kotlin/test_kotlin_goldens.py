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
    ("kotlin-members-canvas-package", ["members", "kx.Canvas", "--access", "public,protected,package"]),
    ("kotlin-search-all", ["search", "*", "--limit", "200"]),
    ("kotlin-search-all-jvm", ["search", "*", "--limit", "200", "--view", "jvm"]),
    ("kotlin-search-title", ["search", "title"]),
    ("kotlin-search-title-jvm", ["search", "title", "--view", "jvm"]),
    ("kotlin-search-limit", ["search", "*e*", "--limit", "5"]),
    ("kotlin-usages-getx", ["usages", "kx.Point#getX"]),
    ("kotlin-usages-getx-jvm", ["usages", "kx.Point#getX", "--view", "jvm"]),
    ("kotlin-usages-point", ["usages", "kx.Point"]),
    ("kotlin-usages-area", ["usages", "kx.ShapeUtils#area"]),
    ("kotlin-usages-title", ["usages", "kx.Canvas#title"]),
    ("kotlin-callers-area", ["callers", "kx.ShapeUtils#area"]),
    ("kotlin-calls-plus", ["calls", "kx.FunctionsKt#plus"]),
    ("kotlin-calls-plus-jvm", ["calls", "kx.FunctionsKt#plus", "--view", "jvm"]),
    ("kotlin-hierarchy-shape", ["hierarchy", "kx.Shape"]),
    ("kotlin-hierarchy-shape-jvm", ["hierarchy", "kx.Shape", "--view", "jvm"]),
    ("kotlin-implementors-shape", ["implementors", "kx.Shape"]),
    ("kotlin-overrides-name", ["overrides", "kx.Shape#getName"]),
    ("kotlin-overrides-name-jvm", ["overrides", "kx.Shape#getName", "--view", "jvm"]),
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
                 "kotlin-members-canvas-jvm") + JVM_RELATIONS:
        data = json.loads(outputs[(name, "json")].out)["result"]
        assert "view" not in data and "kotlin_members" not in data and "kotlin_target" not in data
        assert all("kotlin" not in m for m in data.get("members", []))
        assert all("kotlin" not in s for s in data.get("signatures", []))
    assert "public final class Point" in outputs[("kotlin-show-point-jvm", "txt")].out
    assert "data class Point" in outputs[("kotlin-show-point", "txt")].out


JVM_RELATIONS = ("kotlin-search-all-jvm", "kotlin-search-title-jvm", "kotlin-usages-getx-jvm", "kotlin-calls-plus-jvm",
                 "kotlin-hierarchy-shape-jvm", "kotlin-overrides-name-jvm")


def test_jvm_view_of_relations_has_no_kotlin(outputs):
    """`--view jvm` on search and the relationship commands: no `kotlin` or `view` key anywhere in the JSON, no
    Kotlin keyword in the text; the Kotlin view of the same question names the declarations."""
    import json

    def keys(node):
        if isinstance(node, dict):
            for k, v in node.items():
                yield k
                yield from keys(v)
        elif isinstance(node, list):
            for v in node:
                yield from keys(v)

    for name in JVM_RELATIONS:
        data = json.loads(outputs[(name, "json")].out)["result"]
        assert not {"kotlin", "view", "_key", "_id", "_target_ids"} & set(keys(data)), name
        text = outputs[(name, "txt")].out
        assert not any(w in text for w in (" fun ", "val ", "var ", "data class")), name
        kotlin = outputs[(name.removesuffix("-jvm"), "json")].out
        assert '"view":"kotlin"' in kotlin.replace(" ", ""), name
    assert "var title: String?  kx.Canvas#getTitle()" in outputs[("kotlin-search-title", "txt")].out
    assert "usages of val x: Int  kx.Point#getX()" in outputs[("kotlin-usages-getx", "txt")].out
