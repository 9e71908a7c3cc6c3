"""Gradle build files read without Gradle (spec §13): comments, variables, catalog bundles; skips are named."""

from __future__ import annotations

from pathlib import Path

from jdx.loaders.project import discover


def _project(tmp_path: Path, build: str, name: str = "build.gradle", catalog: str = "", props: str = "") -> Path:
    root = tmp_path / "g"
    (root / "gradle").mkdir(parents=True)
    (root / name).write_text(build)
    if catalog:
        (root / "gradle" / "libs.versions.toml").write_text(catalog)
    if props:
        (root / "gradle.properties").write_text(props)
    return root


def _unresolved(project) -> str:
    return " ".join(w.message for w in project.warnings if w.code == "GRADLE_DEPENDENCY_UNRESOLVED")


def test_commented_out_declarations_are_not_dependencies(tmp_path):
    root = _project(tmp_path, "dependencies {\n"
                              "    // implementation 'a:line:1.0'\n"
                              "    /* implementation 'a:block:1.0'\n       implementation 'a:block2:1.0' */\n"
                              "    implementation 'a:kept:1.0' // see http://example.com/x\n"
                              "    implementation 'a:url:1.0' /* trailing */\n"
                              "}\n")
    assert discover(str(root), "gradle").coords == ["a:kept:1.0", "a:url:1.0"]


def test_interpolated_versions_resolve_from_ext_val_and_gradle_properties(tmp_path):
    root = _project(tmp_path, 'val ioVersion = "2.11.0"\nextra["lang"] = "3.12.0"\n'
                              "dependencies {\n"
                              '    implementation("commons-io:commons-io:$ioVersion")\n'
                              '    implementation("org.apache.commons:commons-lang3:${lang}")\n'
                              '    implementation("commons-cli:commons-cli:${property("cliVersion")}")\n'
                              '    implementation("x:from-props:$propVersion")\n'
                              "}\n", name="build.gradle.kts", props="propVersion=4.2\n# c=1\n")
    project = discover(str(root), "gradle")
    assert project.coords == ["commons-io:commons-io:2.11.0", "org.apache.commons:commons-lang3:3.12.0",
                              "x:from-props:4.2"]
    assert "commons-cli:commons-cli:${property(" in _unresolved(project)  # an expression jdx does not evaluate


def test_groovy_ext_and_an_unknown_variable_is_named(tmp_path):
    root = _project(tmp_path, "ext {\n    digesterVersion = '2.1'\n}\n"
                              "dependencies {\n"
                              '    implementation "commons-digester:commons-digester:${digesterVersion}"\n'
                              '    implementation "commons-logging:commons-logging:${nowhere}"\n'
                              "}\n")
    project = discover(str(root), "gradle")
    assert project.coords == ["commons-digester:commons-digester:2.1"]
    assert "commons-logging:commons-logging:${nowhere}" in _unresolved(project)


def test_catalog_bundles_expand_to_their_libraries(tmp_path):
    root = _project(tmp_path, "dependencies {\n    implementation libs.bundles.misc\n}\n", catalog=(
        '[versions]\ncli = "1.0"\n\n[libraries]\n'
        'cli = { group = "commons-cli", name = "commons-cli", version.ref = "cli" }\n'
        'jodd = { module = "joda-time:joda-time", version = { strictly = "2.1" } }\n'
        'loose = { module = "x:loose" }\n\n'
        '[bundles]\nmisc = ["cli", "jodd", "loose"]\n'))
    project = discover(str(root), "gradle")
    assert project.coords == ["commons-cli:commons-cli:1.0", "joda-time:joda-time:2.1"]
    assert "libs.loose" in _unresolved(project)  # a bundle member without a fixed version is named, not dropped
