"""A reactor's modules each have their own classpath; Gradle's rules for Gradle projects; pom-only coordinates
(spec §13, §16), against the repository tests/maven/fixture.py builds."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.maven import fixture as fx
from tests.maven.conftest import jdx

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)


def _reactor(world, root: Path) -> Path:
    """`x:top` with modules `a` (core 1.0; manages `managed` at 2.0, then reaches it through util), `b` (core 2.0,
    util with its own managed 1.0) and `c` (depends on module `a`)."""
    managed = "<dependencyManagement>" + fx.deps(fx.dep("managed", "2.0")) + "</dependencyManagement>"
    (root).mkdir(parents=True)
    (root / "pom.xml").write_text(fx._pom("top", "1", "<modules><module>a</module><module>b</module>"
                                                      "<module>c</module></modules>", group="x", packaging="pom"))
    bodies = {"a": managed + fx.deps(fx.dep("core", "1.0"), fx.dep("util", "1.0")),
              "b": fx.deps(fx.dep("core", "2.0"), fx.dep("util", "1.0")),
              "c": fx.deps(fx.dep("a", "1", group="x"))}
    for module, body in bodies.items():
        (root / module / "src" / "main" / "java").mkdir(parents=True)
        shutil.copytree(world.maven / "api" / "target" / "classes", root / module / "target" / "classes")
        (root / module / "pom.xml").write_text(fx._pom(module, "1", body, group="x", parent=("x", "top", "1")))
    return root


def _names(cp) -> list[str]:
    return [cp.names[r] for r in cp.roots]


def test_each_module_has_its_own_dependencies_and_dependency_management(world, monkeypatch, tmp_path):
    """Maven builds each module with its own dependencies: from `a`, core 1.0 and a's managed 2.0; from `b`, core 2.0
    and managed 1.0 (a's dependencyManagement is not b's); `c` gets module `a` as a class directory."""
    from jdx.loaders.project import discover, project_classpath
    from jdx.loaders.project_root import find_project_root

    monkeypatch.setenv("JDX_MAVEN_REPO", str(world.repo))
    root = _reactor(world, tmp_path / "reactor")

    def classpath(where: Path):
        found, kind = find_project_root(where)
        return project_classpath(world.cache, discover(found, kind))

    a = classpath(root / "a" / "src" / "main" / "java")
    assert _names(a) == ["x:a:1", "org.fix:core:1.0", "org.fix:util:1.0", "org.fix:managed:2.0"], a.warnings
    assert "module x:a:1" in a.how[0]
    b = classpath(root / "b")
    assert _names(b) == ["x:b:1", "org.fix:core:2.0", "org.fix:util:1.0", "org.fix:managed:1.0"], b.warnings
    c = classpath(root / "c")
    assert _names(c)[:2] == ["x:c:1", "x:a:1"] and str(root / "a" / "target" / "classes") in c.roots
    assert str(root / "a" / "src" / "main" / "java") in c.src  # the reactor dependency's sources pair too
    assert "org.fix:core:1.0" in _names(c) and "org.fix:core:2.0" not in _names(c)
    for cp in (a, b, c):
        assert not [w for w in cp.warnings if w.code == "MODULE_VERSION_CONFLICT"]

    whole = classpath(root)  # the reactor's top: every module, each resolved on its own, conflicts named
    assert "combined classpath of" in whole.how[0]
    conflicts = {w.artifact: w.message for w in whole.warnings if w.code == "MODULE_VERSION_CONFLICT"}
    assert set(conflicts) == {"org.fix:core", "org.fix:managed"}, whole.warnings
    assert "1.0 in x:a:1" in conflicts["org.fix:core"] and "2.0 in x:b:1" in conflicts["org.fix:core"]


def test_gradle_project_takes_the_highest_requested_version(world, monkeypatch, tmp_path):
    """Gradle's conflict rule, not Maven's nearest-wins: core 1.0 declared, util asks for 2.0 -> 2.0."""
    from jdx.loaders.project import discover, project_classpath

    monkeypatch.setenv("JDX_MAVEN_REPO", str(world.repo))
    monkeypatch.setenv("JDX_GRADLE_CACHE", str(tmp_path / "none"))
    root = tmp_path / "g"
    root.mkdir()
    (root / "build.gradle").write_text("dependencies {\n    implementation 'org.fix:core:1.0'\n"
                                       "    implementation 'org.fix:util:1.0'\n}\n")
    cp = project_classpath(world.cache, discover(str(root), "gradle"))
    assert sorted(_names(cp)) == ["org.fix:core:2.0", "org.fix:managed:1.0", "org.fix:util:1.0"], cp.warnings
    assert "highest requested version" in cp.how[0]


def test_gradle_lockfile_is_used_as_it_is(world, monkeypatch, tmp_path):
    """A lockfile is Gradle's full resolved set: noisy's own dependencies (excluded by the build) do not come back."""
    from jdx.loaders.project import discover, project_classpath

    monkeypatch.setenv("JDX_MAVEN_REPO", str(world.repo))
    monkeypatch.setenv("JDX_GRADLE_CACHE", str(world.gradle_cache))
    root = tmp_path / "locked"
    root.mkdir()
    (root / "build.gradle").write_text("dependencies {\n    implementation('org.fix:noisy:1.0') { exclude module: "
                                       "'excluded' }\n    implementation 'org.fix:util:1.0'\n}\n")
    (root / "gradle.lockfile").write_text("org.fix:bom:1.0=compileClasspath,runtimeClasspath\n"
                                          "org.fix:ghost:1.0=compileClasspath,runtimeClasspath\n"
                                          "org.fix:kept:1.0=compileClasspath,runtimeClasspath\n"
                                          "org.fix:noisy:1.0=compileClasspath,runtimeClasspath\n"
                                          "org.fix:util:1.0=compileClasspath,runtimeClasspath\n")
    cp = project_classpath(world.cache, discover(str(root), "gradle"))
    assert _names(cp) == ["org.fix:kept:1.0", "org.fix:noisy:1.0", "org.fix:util:1.0"], cp.warnings
    assert str(world.gradle_cache) in cp.roots[2]  # util from the Gradle cache, as Gradle would
    missing = [w.message for w in cp.warnings if w.code == "DEPENDENCY_MISSING"]
    assert len(missing) == 1 and "org.fix:ghost" in missing[0] and "bom" not in missing[0]


def test_a_pom_packaged_coordinate_says_so(world, monkeypatch, tmp_path):
    """A BOM has no jar: named as pom-packaged (no classes, nothing added), never 'not in the local repository'; an
    aggregator POM's dependencies are added."""
    from jdx.loaders.classpath import coordinate_roots

    repo = tmp_path / "repo"
    shutil.copytree(world.repo, repo)
    agg = repo / "org" / "fix" / "agg" / "1.0"
    agg.mkdir(parents=True)
    (agg / "agg-1.0.pom").write_text(fx._pom("agg", "1.0", fx.deps(fx.dep("core", "1.0")), packaging="pom"))
    monkeypatch.setenv("JDX_MAVEN_REPO", str(repo))
    bom = coordinate_roots(world.cache, ["org.fix:bom:1.0"])
    assert not bom.unreadable and not bom.roots
    (w,) = [w for w in bom.warnings if w.code == "POM_ONLY_ARTIFACT"]
    assert "pom-packaged" in w.message and "nothing was added" in w.message
    assert not [w for w in bom.warnings if w.code == "DEPENDENCY_MISSING"]
    aggregated = coordinate_roots(world.cache, ["org.fix:agg:1.0"])
    assert _names(aggregated) == ["org.fix:core:1.0"] and not aggregated.unreadable
    assert "its 1 dependency were added" in next(w.message for w in aggregated.warnings
                                                 if w.code == "POM_ONLY_ARTIFACT")


def test_pom_only_coordinate_exits_alike_in_ws_info_and_show(world, world_env):
    """Spec §16: the same workspace gives the same exit code whichever command asks (no classes: 4)."""
    flags = ("--no-jdk", "--coord", "org.fix:bom:1.0")
    info = jdx(world_env, world.root, *flags, "ws", "info")
    show = jdx(world_env, world.root, *flags, "show", "org.fix.core.Core")
    assert info.returncode == show.returncode == 4, (info, show)
    assert "POM_ONLY_ARTIFACT" in info.stdout + info.stderr and "POM_ONLY_ARTIFACT" in show.stdout + show.stderr
