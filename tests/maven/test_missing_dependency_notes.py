"""What a coordinate's missing dependencies say (a trial on palantir-java-format 2.81.0, whose spi 2.81.0,
functionaljava 4.8 and jackson 2.20.0 the local repository lacks while it holds other versions of each):

- DEPENDENCY_MISSING names, beside each missing artifact, the versions the local repository has (the nearest below
  and above and the newest), as the error of a missing top-level `--coord` does;
- an artifact missing whole gets no POM_MISSING of its own (DEPENDENCY_MISSING says its dependencies are unknown);
- a version mediation left out (not on the classpath) gets no POM_MISSING;
- `ws add` of a coordinate reports what the workspace's coordinates, resolved together, lack: the coordinate
  resolved alone reported a version another coordinate's nearer one replaces.

Oracle: the fixture repository's own layout (which versions it holds), and `ws info` of the same workspace."""

from __future__ import annotations

import json

import pytest

from tests.fixtures.javac import javac_jar
from tests.maven import fixture as fx

pytestmark = pytest.mark.soak  # Maven's resolver starts a JVM helper (~10 s a resolution): the soak runs it

G = "org.md"


def _put(root, artifact: str, version: str, body: str = "", jar: bool = True) -> None:
    folder = root / "repo" / "org" / "md" / artifact / version
    folder.mkdir(parents=True)
    (folder / f"{artifact}-{version}.pom").write_text(fx._pom(artifact, version, body, group=G))
    if jar:
        name = artifact.capitalize() + version.replace(".", "")
        built, _ = javac_jar(root / f"{artifact}-{version}",
                             {f"m/{artifact}/{name}.java": f"package m.{artifact};\npublic class {name} {{}}\n"},
                             "m", f"{artifact}.jar")
        (folder / f"{artifact}-{version}.jar").write_bytes(built.read_bytes())


@pytest.fixture(scope="module")
def repo(tmp_path_factory):
    root = tmp_path_factory.mktemp("missing-notes")
    _put(root, "app", "1.0", fx.deps(fx.dep("lib", "1.0", group=G), fx.dep("gone", "2.0", group=G)))
    _put(root, "mid", "1.0", fx.deps(fx.dep("lib", "0.9", group=G)))  # lib 0.9: absent, and app's 1.0 is nearer
    _put(root, "lib", "1.0")
    for version in ("1.5", "3.0", "4.0"):  # gone 2.0 is absent; these are not
        _put(root, "gone", version)
    return root


def _env(root) -> dict:
    return {"JDX_MAVEN_REPO": str(root / "repo"), "JDX_GRADLE_CACHE": str(root / "no-gradle")}


def _warnings(run_jdx, env, *args) -> list[dict]:
    r = run_jdx("--no-jdk", *args, "--json", "ws", "info", env=env)
    assert r.code == 0, r.out + r.err
    return json.loads(r.out)["warnings"]


def test_a_missing_dependency_names_the_local_versions_and_no_pom_missing(repo, run_jdx):
    found = _warnings(run_jdx, _env(repo), "--coord", f"{G}:app:1.0")
    missing = [w["message"] for w in found if w["code"] == "DEPENDENCY_MISSING"]
    assert missing and f"{G}:gone:jar:2.0 (the local repository has 1.5, 3.0, 4.0)" in missing[0], found
    assert "their own dependencies are unknown too (no POM)" in missing[0], missing
    assert not [w for w in found if w["code"] == "POM_MISSING" and "gone" in w["message"]], found


def test_a_mediation_loser_gets_no_pom_missing(repo, run_jdx):
    found = _warnings(run_jdx, _env(repo), "--coord", f"{G}:app:1.0", "--coord", f"{G}:mid:1.0")
    assert not [w for w in found if "lib:jar:0.9" in w["message"] or "lib:0.9" in w["message"]], found
    alone = _warnings(run_jdx, _env(repo), "--coord", f"{G}:mid:1.0")  # (mid alone does need lib 0.9)
    assert any(w["code"] == "DEPENDENCY_MISSING" and f"{G}:lib:jar:0.9" in w["message"] for w in alone), alone


def test_ws_add_reports_what_the_whole_workspace_lacks(repo, run_jdx):
    env = _env(repo)
    assert run_jdx("--no-jdk", "ws", "create", "mdnotes", "--coord", f"{G}:app:1.0", env=env).code == 0
    try:
        added = run_jdx("ws", "add", "mdnotes", f"{G}:mid:1.0", "--json", env=env)
        assert added.code == 0, added.out + added.err
        said = json.loads(added.out)["warnings"]
        assert not [w for w in said if "lib:jar:0.9" in w["message"]], said  # app's lib 1.0 is nearer
        assert any(w["code"] == "DEPENDENCY_MISSING" and f"{G}:gone:jar:2.0" in w["message"] for w in said), said
        info = json.loads(run_jdx("-w", "mdnotes", "ws", "info", "--json", env=env).out)["warnings"]
        assert [w["message"] for w in said if w["code"] == "DEPENDENCY_MISSING"] == \
            [w["message"] for w in info if w["code"] == "DEPENDENCY_MISSING"], (said, info)
    finally:
        run_jdx("ws", "remove", "mdnotes", env=env)
