"""A workspace's coordinates resolve as Maven resolves one POM's dependencies, its roots keep the order given,
coordinates are checked when added, `--project` wins over a `ws use` default, `ws use --none` forgets it (spec §13),
against the repository tests/maven/fixture.py builds (`util:1.0` wants `core:2.0`; `core` has 1.0 and 2.0)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from jdx.loaders import maven_resolver as mr
from tests.maven import fixture as fx
from tests.maven.conftest import jdx

pytestmark = pytest.mark.soak  # a trial's regression family with its own builds: the soak runs it whole (.ci/run)


@pytest.fixture
def env(world_env, tmp_path) -> dict:
    """The world's environment with a config dir of the test's own (workspaces, the `ws use` default)."""
    return {**world_env, "JDX_CONFIG_DIR": str(tmp_path / "config")}


def _json(proc) -> dict:
    return json.loads(proc.stdout)


def _names(cp) -> list[str]:
    return [cp.names[r] for r in cp.roots]


def test_coordinates_resolve_as_the_dependencies_of_one_pom(world, monkeypatch, tmp_path):
    """Maven's own resolution of a POM declaring util then core 1.0 is the oracle: core 1.0, asked for directly,
    beats the 2.0 util wants (nearest wins), and the version left out is said."""
    from jdx.loaders.classpath import coordinate_roots

    monkeypatch.setenv("JDX_MAVEN_REPO", str(world.repo))
    pom = tmp_path / "p" / "pom.xml"
    pom.parent.mkdir()
    pom.write_text(fx._pom("p", "1", fx.deps(fx.dep("util", "1.0"), fx.dep("core", "1.0")), group="x"))
    maven = mr.resolve(world.cache, mr.ResolveRequest(repo=world.repo, modules=(("x:p:1", str(pom), ""),),
                                                      projects=(str(pom),)))
    oracle = [d.display for d in maven.dependencies]
    assert oracle == ["org.fix:util:1.0", "org.fix:managed:1.0", "org.fix:core:1.0"], oracle

    cp = coordinate_roots(world.cache, ["org.fix:util:1.0", "org.fix:core:1.0"])
    assert _names(cp) == oracle, cp.how
    assert "--coord mediation: org.fix:core:2.0 (wanted by org.fix:util:1.0) omitted for 1.0" in cp.how, cp.how
    assert cp.by_coord == {"org.fix:util:1.0": cp.roots[:2], "org.fix:core:1.0": cp.roots[2:]}

    # a library asked for explicitly in two versions keeps both, the first shadowing the second
    both = coordinate_roots(world.cache, ["org.fix:core:1.0", "org.fix:util:1.0", "org.fix:core:2.0"])
    assert _names(both) == ["org.fix:core:1.0", "org.fix:util:1.0", "org.fix:managed:1.0", "org.fix:core:2.0"]
    assert [Path(p).name for p in both.by_coord["org.fix:core:2.0"]] == ["core-2.0.jar"]


def test_coordinate_messages_list_the_local_versions(world, monkeypatch):
    """No version, a version range: a usage error naming the versions present; an absent version: the same list."""
    from jdx.errors import UsageError
    from jdx.loaders.classpath import coordinate_roots
    from jdx.loaders.maven_repo import Coordinate

    monkeypatch.setenv("JDX_MAVEN_REPO", str(world.repo))
    with pytest.raises(UsageError, match=r"has no version.*org\.fix:core in the local repository: 1\.0, 2\.0$"):
        Coordinate.parse("org.fix:core")
    with pytest.raises(UsageError, match=r"version ranges are not supported.*: 1\.0, 2\.0$"):
        Coordinate.parse("org.fix:core:[1.0,2.0)")
    cp = coordinate_roots(world.cache, ["org.fix:core:9.9"])
    assert [w.message for w in cp.unreadable] == [
        f"--coord org.fix:core:9.9: not in the local repository {world.repo} (--fetch to download it; versions of "
        "org.fix:core in the local repository: 1.0, 2.0)"]


def test_workspace_roots_keep_their_order(world, env, tmp_path):
    """`ws add` appends after the coordinate, `ws create` keeps its flags' order, and a file of the old form (jars,
    then coords) still reads in that order."""
    old = tmp_path / "old.jar"
    shutil.copy(world.repo / "org/fix/core/2.0/core-2.0.jar", old)

    def order(name: str) -> list[str]:
        proc = jdx(env, tmp_path, "ws", "info", "-w", name, "--no-jdk", "--json")
        assert proc.returncode == 0, proc.stdout + proc.stderr
        return [a["name"] for a in _json(proc)["result"]["artifacts"]]

    assert jdx(env, tmp_path, "ws", "create", "ord", "--coord", "org.fix:core:1.0", "--no-jdk").returncode == 0
    added = jdx(env, tmp_path, "ws", "add", "ord", str(old), "--json")
    assert _json(added)["result"]["roots"] == ["org.fix:core:1.0", str(old)], added.stdout
    assert order("ord") == ["org.fix:core:1.0", "old.jar"]

    made = jdx(env, tmp_path, "ws", "create", "mixed", "--coord", "org.fix:core:1.0", "--jars", str(old), "--json")
    assert _json(made)["result"]["roots"] == ["org.fix:core:1.0", str(old)], made.stdout
    assert order("mixed") == ["org.fix:core:1.0", "old.jar"]

    folder = Path(env["JDX_CONFIG_DIR"]) / "workspaces"
    (folder / "before.toml").write_text(f'name = "before"\njars = ["{old}"]\nsrc = []\njdk = false\n'
                                        'coords = ["org.fix:core:1.0"]\n')
    assert order("before") == ["old.jar", "org.fix:core:1.0"]


def test_coordinates_are_checked_when_added_and_can_be_dropped(world, env, tmp_path):
    made = jdx(env, tmp_path, "ws", "create", "chk", "--coord", "org.fix:nope:1.0", "--no-jdk", "--json")
    assert made.returncode == 0, made.stdout + made.stderr
    said = {w["code"]: w["message"] for w in _json(made)["warnings"]}
    assert "not in the local repository" in said["ARTIFACT_READ_ERROR"] and "--fetch" in said["ARTIFACT_READ_ERROR"]

    bare = jdx(env, tmp_path, "ws", "add", "chk", "org.fix:core", "--json")
    assert bare.returncode == 3 and "1.0, 2.0" in _json(bare)["error"]["message"], bare.stdout
    assert jdx(env, tmp_path, "ws", "add", "chk", "org.fix:core:1.0").returncode == 0

    query = jdx(env, tmp_path, "-w", "chk", "show", "org.fix.core.Core", "--json")
    assert query.returncode == 5, query.stdout
    hint = _json(query)["error"]["hint"]
    assert "coordinate" in hint and "jdx ws drop chk" in hint and "path" not in hint, hint

    dropped = jdx(env, tmp_path, "ws", "drop", "chk", "org.fix:nope:1.0", "--json")
    assert dropped.returncode == 0 and _json(dropped)["result"]["roots"] == ["org.fix:core:1.0"], dropped.stdout
    assert jdx(env, tmp_path, "-w", "chk", "show", "org.fix.core.Core").returncode == 0
    assert jdx(env, tmp_path, "ws", "drop", "chk", "org.fix:nope:1.0").returncode == 3  # not a root any more


def test_project_flag_wins_over_the_default_and_the_default_can_be_forgotten(world, env, tmp_path):
    app = world.maven / "app"
    assert jdx(env, tmp_path, "ws", "create", "dflt", "--coord", "org.fix:core:2.0", "--no-jdk").returncode == 0
    assert jdx(env, tmp_path, "ws", "use", "dflt").returncode == 0

    missing = jdx(env, tmp_path, "--project", str(tmp_path / "nowhere"), "show", "java.lang.String")
    assert missing.returncode == 3 and str(tmp_path / "nowhere") in missing.stderr, missing.stderr

    explicit = _json(jdx(env, app, "--project", ".", "ws", "info", "--no-jdk", "--json"))["result"]
    assert explicit["how"].startswith("auto-discovery") and \
        "com.example:app:1.0" in [a["name"] for a in explicit["artifacts"]], explicit["how"]

    first = _json(jdx(env, app, "ws", "info", "--no-jdk", "--json"))
    assert first["result"]["how"] == "ws use"
    notes = [w["message"] for w in first["warnings"] if w["code"] == "WORKSPACE_DEFAULT_OVER_PROJECT"]
    assert len(notes) == 1 and "dflt" in notes[0] and "jdx ws use --none" in notes[0], first["warnings"]
    again = _json(jdx(env, app, "ws", "info", "--no-jdk", "--json"))
    assert not [w for w in again["warnings"] if w["code"] == "WORKSPACE_DEFAULT_OVER_PROJECT"]  # said once

    cleared = jdx(env, app, "ws", "use", "--none", "--json")
    assert cleared.returncode == 0 and _json(cleared)["result"] == {"current": None, "cleared": "dflt"}
    after = _json(jdx(env, app, "ws", "info", "--no-jdk", "--json"))["result"]
    assert after["how"].startswith("auto-discovery"), after["how"]


def test_a_version_with_only_its_pom_is_named(tmp_path, monkeypatch):
    """`--coord org.apache.commons:commons-pool2:2.12.0` said "the local repository has no version" of it while
    `2.12.0/commons-pool2-2.12.0.pom` lay there (Maven had read it for a dependency tree): the message names the
    versions that hold a POM and no jar."""
    from jdx.loaders.maven_repo import versions_note

    lib = tmp_path / "repo" / "org" / "x" / "lib"
    pom = fx._pom("lib", "2.0", "", group="org.x")
    (lib / "2.0").mkdir(parents=True)
    (lib / "2.0" / "lib-2.0.pom").write_text(pom)
    monkeypatch.setenv("JDX_MAVEN_REPO", str(tmp_path / "repo"))
    assert versions_note("org.x", "lib") == ("the local repository has no jar of org.x:lib: 2.0 has only a POM "
                                             "there, no jar (Maven read it for a dependency tree)")
    (lib / "1.0").mkdir()
    shutil.copy(Path(__file__).resolve().parents[1] / "fixtures" / "__init__.py", lib / "1.0" / "lib-1.0.jar")
    assert versions_note("org.x", "lib") == ("versions of org.x:lib in the local repository: 1.0; 2.0 has only a "
                                             "POM there, no jar (Maven read it for a dependency tree)")
