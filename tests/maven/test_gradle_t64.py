"""Gradle builds of trial T64, read without Gradle against the repository tests/maven/fixture.py builds: Kotlin DSL
configurations named by strings, a lockfile that is one project's only, whole exclude rules in warnings, and
declarations without a version given theirs by a platform BOM (read by Maven's resolver) or named with why."""

from __future__ import annotations

from pathlib import Path

import pytest


def _tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def _warning(warnings, code: str) -> str:
    return " | ".join(w.message for w in warnings if w.code == code)


@pytest.fixture
def classpath(world, monkeypatch, tmp_path):
    """The resolved classpath of a Gradle build: (display names of its roots, its warnings, its how)."""
    from jdx.loaders.project import discover, project_classpath

    monkeypatch.setenv("JDX_MAVEN_REPO", str(world.repo))
    monkeypatch.setenv("JDX_GRADLE_CACHE", str(tmp_path / "none"))

    def run(root: Path, tests: bool = False):
        cp = project_classpath(world.cache, discover(str(root), "gradle", tests), tests)
        return [cp.names[r] for r in cp.roots], cp.warnings, cp.how

    return run


def test_kotlin_configurations_named_by_strings_are_declarations(tmp_path):
    from jdx.loaders.project import discover

    root = _tree(tmp_path / "k", {
        "settings.gradle.kts": 'include(":a")\n',
        "build.gradle.kts": 'subprojects {\n    apply(plugin = "java")\n    dependencies {\n'
                            '        "compileOnly"("org.fix:kept:1.0")\n'
                            '        add("implementation", "org.fix:core:1.0")\n'
                            '        "testImplementation" ( "org.fix:testlib:1.0")\n'
                            '        "runtimeOnly"("org.fix:rt:1.0")\n    }\n}\n'
                            'description = "the implementation of compileOnly(x)"\n'
                            'configurations.getByName("implementation")\n',
        "a/build.gradle.kts": "dependencies { }\n"})
    project = discover(str(root), "gradle")
    assert project.coords == ["org.fix:kept:1.0", "org.fix:core:1.0"], project.warnings
    assert not project.warnings, project.warnings
    assert "(1 runtimeOnly or annotation-processor declaration(s) are not on it)" in project.notes[-1]
    assert discover(str(root), "gradle", tests=True).coords == ["org.fix:kept:1.0", "org.fix:core:1.0",
                                                                  "org.fix:testlib:1.0"]


def test_another_projects_lockfile_does_not_stop_a_declaration_expanding(tmp_path, classpath):
    root = _tree(tmp_path / "l", {
        "settings.gradle": "include 'core', 'app'\n",
        "core/build.gradle": "dependencies { implementation('org.fix:noisy:1.0') { exclude module: 'excluded' } }\n",
        "core/gradle.lockfile": "org.fix:noisy:1.0=compileClasspath,runtimeClasspath\n"
                                "org.fix:kept:1.0=compileClasspath,runtimeClasspath\n",
        "app/build.gradle": "dependencies {\n    implementation 'org.fix:noisy:1.0'\n"
                            "    implementation 'org.fix:util:1.0'\n}\n"})
    names, _warnings, how = classpath(root)
    # app's noisy brings its own dependencies (core's lock is core's resolved set, with core's exclude applied)
    assert {"org.fix:noisy:1.0", "org.fix:kept:1.0", "org.fix:excluded:1.0", "org.fix:util:1.0"} <= set(names), names
    assert "dependencies declared in the build files (2)" in how[0], how


def test_ignored_rules_are_shown_whole(tmp_path):
    from jdx.loaders.project import discover

    root = _tree(tmp_path / "r", {
        "settings.gradle": "include 'core', 'app'\n",
        "core/build.gradle.kts": 'dependencies {\n    testImplementation("org.fix:noisy:1.0") {\n'
                                 '        exclude(group = "org.fix", module = listOf("a", "b").joinToString(""))\n'
                                 '    }\n}\n',
        "app/build.gradle": "dependencies {\n    implementation('org.fix:noisy:1.0') {\n"
                            "        exclude group: 'com.fasterxml.jackson.core', module: 'jackson-annotations'\n"
                            "    }\n}\n"})
    message = _warning(discover(str(root), "gradle", tests=True).warnings, "GRADLE_RULE_IGNORED")
    assert ':core: exclude(group = "org.fix", module = listOf("a", "b").joinToString(""));' in message, message
    assert message.endswith(":app: exclude group: 'com.fasterxml.jackson.core', module: 'jackson-annotations'"), \
        message


def test_a_platform_gives_versions_to_declarations_without_one(tmp_path, classpath):
    root = _tree(tmp_path / "p", {
        "settings.gradle.kts": 'include(":core", ":app", ":lost", ":plain")\n',
        "gradle/libs.versions.toml": '[libraries]\nbommed = { module = "org.fix:bommed" }\n'
                                     'bom = "org.fix:bom:1.0"\n',
        "core/build.gradle.kts": 'dependencies {\n    implementation(platform(libs.bom))\n'
                                 '    implementation(libs.bommed)\n    implementation("org.fix:rt")\n}\n',
        "lost/build.gradle.kts": 'dependencies {\n    implementation(platform("org.fix:bom:9.9"))\n'
                                 '    implementation("org.fix:core")\n}\n',
        "plain/build.gradle": "dependencies { implementation 'org.fix:kept' }\n",
        "app/build.gradle": "dependencies { implementation 'org.fix:bommed:1.0' }\n"})
    names, warnings, how = classpath(root)
    assert "org.fix:bommed:1.1" in names and "org.fix:bommed:1.0" not in names, names  # the BOM's 1.1, highest
    assert not any(n.startswith(("org.fix:rt", "org.fix:core", "org.fix:kept")) for n in names), names
    message = _warning(warnings, "GRADLE_DEPENDENCY_UNRESOLVED")
    assert "org.fix:rt (no version: the platform org.fix:bom:1.0 of :core does not manage it)" in message, message
    assert ("org.fix:core (no version: the platform org.fix:bom:9.9 of :lost that would give one is not in the "
            "local repository or the Gradle cache)") in message, message
    assert "org.fix:kept (no version, and no platform(...) of :plain gives one" in message, message
    assert "read only for the declarations without a version" in _warning(warnings, "GRADLE_RULE_IGNORED")
    assert "dependencies declared in the build files (4)" in how[0], how
