"""A coordinate whose POM names a parent the local repository lacks: Maven cannot read that POM, so the
dependencies it declares are unknown. RESOLVE_PROBLEM names the missing POM and says what it costs (those
dependencies are not in the workspace); the artifact itself is still read."""

from __future__ import annotations

import json

import pytest

from tests.fixtures.javac import javac_jar
from tests.maven import fixture as fx


@pytest.fixture(scope="module")
def repo(tmp_path_factory):
    root = tmp_path_factory.mktemp("orphan")
    for artifact, source, pom in (
            ("orphan", "package t.o;\npublic class Orphan {}\n",
             fx._pom("orphan", "1.0", fx.deps(fx.dep("needed", "1.0", group="org.cr")), group="org.cr",
                     parent=("org.cr", "gone", "1.0"))),
            ("needed", "package t.n;\npublic class Needed {}\n", fx._pom("needed", "1.0", group="org.cr"))):
        name = source.split("class ")[1].split(" ")[0]
        jar, _ = javac_jar(root / artifact, {f"t/{artifact[0]}/{name}.java": source}, "t", f"{artifact}.jar")
        folder = root / "repo" / "org" / "cr" / artifact / "1.0"
        folder.mkdir(parents=True)
        (folder / f"{artifact}-1.0.jar").write_bytes(jar.read_bytes())
        (folder / f"{artifact}-1.0.pom").write_text(pom)
    return root


@pytest.mark.soak  # slow: the soak runs it (.ci/run)
def test_a_missing_parent_pom_says_what_it_costs(repo, run_jdx):
    env = {"JDX_MAVEN_REPO": str(repo / "repo"), "JDX_GRADLE_CACHE": str(repo / "no-gradle")}
    r = run_jdx("--no-jdk", "--coord", "org.cr:orphan:1.0", "--json", "show", "t.o.Orphan", env=env)
    out = json.loads(r.out)
    assert r.code == 0, r.out + r.err
    problems = [w["message"] for w in out["warnings"] if w["code"] == "RESOLVE_PROBLEM"]
    assert problems and "org.cr:gone:pom:1.0" in problems[0], out["warnings"]
    # offline, the POM is missing from the local repository, whatever remote the model names (a trial read
    # `https://repo.maven.apache.org/maven2: not found`, naming no artifact)
    assert problems[0].startswith("org.cr:gone:pom:1.0: not in the local repository (resolution is offline)"), problems
    assert "the dependencies declared below that point are unknown, so they are not in the workspace" in problems[0]
    r = run_jdx("--no-jdk", "--coord", "org.cr:orphan:1.0", "--json", "show", "t.n.Needed", env=env)
    assert r.code == 1, r.out  # the POM declares it; without its parent Maven cannot read that
