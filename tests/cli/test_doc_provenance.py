"""`doc`'s provenance says where the comment shown came from: a source file (origin `sources`, with the file and
lines), or nothing at all when there are no sources (origin `bytecode`, saying so) — never `sources` beside a
NO_SOURCES warning."""

from __future__ import annotations

import json
import shutil

import pytest

from tests.fixtures.javac import javac_jar

SOURCES = {"dp/Api.java": "package dp;\npublic class Api {\n  /** Greets. */\n  public void greet() { }\n}"}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    if shutil.which("javac") is None:
        pytest.skip("javac is not installed")
    root = tmp_path_factory.mktemp("doc_provenance")
    jar, _ = javac_jar(root, SOURCES, "dp", "dp.jar", debug=True)
    return jar, root / "src"


def test_without_sources_the_origin_is_bytecode(built, run_jdx):
    jar, _ = built
    env = json.loads(run_jdx("--no-jdk", "--jars", str(jar), "doc", "dp.Api#greet()", "--json").out)
    assert [w["code"] for w in env["warnings"]] == ["NO_SOURCES"]
    assert [(p["origin"], p.get("detail")) for p in env["provenance"]] == [("bytecode", "no javadoc: no sources")]


def test_with_sources_the_origin_is_the_file(built, run_jdx):
    jar, src = built
    env = json.loads(run_jdx("--no-jdk", "--jars", str(jar), "--src", str(src), "doc", "dp.Api#greet()",
                             "--json").out)
    (prov,) = env["provenance"]
    assert prov["origin"] == "sources" and prov["file"].endswith("dp/Api.java") and prov["lines"] == [3, 3]
