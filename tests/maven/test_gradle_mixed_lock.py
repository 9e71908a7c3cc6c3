"""A Gradle build where one project has a gradle.lockfile: its locked set is used as it is, the other projects'
declarations are still resolved (spec §13), against the repository tests/maven/fixture.py builds."""

from __future__ import annotations


def test_one_lockfile_keeps_the_other_projects_declarations(world, monkeypatch, tmp_path):
    from jdx.loaders.project import discover, project_classpath

    monkeypatch.setenv("JDX_MAVEN_REPO", str(world.repo))
    monkeypatch.setenv("JDX_GRADLE_CACHE", str(tmp_path / "none"))
    root = tmp_path / "mixed"
    for name, text in {"settings.gradle": "include 'a', 'b'\n",
                       "a/build.gradle": "dependencies { implementation 'org.fix:noisy:1.0' }\n",
                       "a/gradle.lockfile": "org.fix:kept:1.0=compileClasspath,runtimeClasspath\n",
                       "b/build.gradle": "dependencies { implementation 'org.fix:util:1.0' }\n"}.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    cp = project_classpath(world.cache, discover(str(root), "gradle"))
    names = [cp.names[r] for r in cp.roots]
    assert names[0] == "org.fix:kept:1.0" and "org.fix:util:1.0" in names, (names, cp.warnings)
    assert "org.fix:noisy:1.0" not in names  # a's declaration: its lockfile is its resolved set
    assert "used as locked" in cp.how[0] and "highest requested version" in cp.how[0], cp.how
