"""Gradle projects read as Gradle defines them (spec §13; Gradle is never run): settings includes, the compile
classpath's configurations, the build root above a nested subproject, lockfiles per project, file dependencies,
strict/dynamic versions, notations and rules jdx does not apply named, never dropped silently."""

from __future__ import annotations

import zipfile
from pathlib import Path

from jdx.loaders.project import discover
from jdx.loaders.project_root import find_project_root


def _tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def _jar(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("p/A.class", b"\xca\xfe\xba\xbe")
    return path


def _warning(project, code: str) -> str:
    return " ".join(w.message for w in project.warnings if w.code == code)


def _projects(root: Path) -> list[str]:
    return [name for _path, name in discover(str(root), "gradle").classes]


def _built(root: Path, *projects: str) -> None:
    for p in projects:
        (root / p / "build" / "classes" / "java" / "main").mkdir(parents=True)


def test_settings_multiline_include_comments_and_include_build(tmp_path):
    """A multi-line include() keeps every project; a commented-out include and includeBuild are no projects."""
    root = _tree(tmp_path / "m", {"settings.gradle.kts": 'rootProject.name = "multi"\n'
                                                         '// include(":legacy")   -- removed in 2023\n'
                                                         '/* include(":old") */\nincludeBuild("build-logic")\n'
                                                         'include(\n    ":core",\n    ":app",\n)\n'})
    _built(root, "core", "app", "legacy", "old", "build-logic")
    assert _projects(root) == [":core (java main)", ":app (java main)"]


def test_settings_groovy_several_per_line_nested_and_project_dir(tmp_path):
    """`include 'lib', 'services:api'` (the parent `services` is a project too); a projectDir moved with file()
    is followed, one jdx cannot read is named."""
    root = _tree(tmp_path / "g", {"settings.gradle": "rootProject.name = 'g'\ninclude 'lib', 'services:api',\n"
                                                     "    'tools'\nproject(':lib').projectDir = file('modules/lib')\n"
                                                     "project(':tools').projectDir = file(toolsDir)\n"})
    _built(root, "modules/lib", "services/api", "tools")
    assert _projects(root) == [":modules:lib (java main)", ":services:api (java main)", ":tools (java main)"]
    assert "project(':tools').projectDir = file(toolsDir)" in _warning(discover(str(root), "gradle"),
                                                                       "GRADLE_RULE_IGNORED")


def test_a_nested_subproject_climbs_to_the_build_root(tmp_path):
    """From `services/api` (its parent `services/` holds no build file) to the settings root, whose version catalog
    and gradle.properties then give the subproject's versions; a build that does not include the directory is not
    climbed to."""
    root = _tree(tmp_path / "r", {
        "settings.gradle": "include 'services:api'\nproject(':lib').projectDir = file('modules/lib')\ninclude 'lib'\n",
        "gradle.properties": "ioVersion=2.11.0\n",
        "gradle/libs.versions.toml": '[libraries]\nguava = "com.google.guava:guava:31.1-jre"\n',
        "services/api/build.gradle.kts": 'dependencies {\n    implementation(libs.guava)\n'
                                         '    implementation("commons-io:commons-io:$ioVersion")\n}\n',
        "modules/lib/build.gradle": "",
        "other/standalone/build.gradle": ""})
    (root / "services" / "api" / "src" / "main" / "java").mkdir(parents=True)
    assert find_project_root(root / "services" / "api" / "src" / "main" / "java") == (str(root), "gradle")
    assert find_project_root(root / "modules" / "lib") == (str(root), "gradle")
    assert find_project_root(root / "other" / "standalone") == (str(root / "other" / "standalone"), "gradle")
    assert discover(str(root), "gradle").coords == ["com.google.guava:guava:31.1-jre", "commons-io:commons-io:2.11.0"]


def test_only_the_compile_classpath_configurations(tmp_path):
    """compileClasspath = compileOnly + implementation + api; testCompileClasspath = testCompileOnly +
    testImplementation + implementation + api. Annotation processors and runtimeOnly never raise a version."""
    root = _tree(tmp_path / "c", {"build.gradle": (
        "dependencies {\n"
        "    implementation 'com.google.guava:guava:31.1-jre'\n"
        "    annotationProcessor 'com.google.guava:guava:33.4.0-jre'\n"
        "    kapt 'x:kapt:1.0'\n    ksp('x:ksp:1.0')\n"
        "    compileOnly 'joda-time:joda-time:2.1'\n"
        "    runtimeOnly 'x:runtime:1.0'\n"
        "    testRuntimeOnly 'commons-io:commons-io:2.16.1'\n"
        "    testImplementation 'commons-io:commons-io:2.11.0'\n"
        "    testCompileOnly 'x:test-only:1.0'\n"
        "    api 'x:api:1.0'\n"
        "    configurations { compileOnly { extendsFrom annotationProcessor } }\n"
        "}\ndescription = 'the api module'\n")})
    main = discover(str(root), "gradle")
    assert main.coords == ["com.google.guava:guava:31.1-jre", "joda-time:joda-time:2.1", "x:api:1.0"]
    assert not main.warnings, main.warnings
    assert "(5 runtimeOnly or annotation-processor declaration(s) are not on it)" in main.notes[-1]
    tests = discover(str(root), "gradle", tests=True)
    # the main classes stay beside the tests: their compileOnly types too
    assert tests.coords == ["com.google.guava:guava:31.1-jre", "joda-time:joda-time:2.1", "commons-io:commons-io:2.11.0",
                            "x:test-only:1.0", "x:api:1.0"]
    assert tests.notes[-1].startswith("Gradle's test compile classpath")


def test_a_lockfile_is_one_projects_the_others_keep_their_declarations(tmp_path):
    root = _tree(tmp_path / "l", {
        "settings.gradle": "include 'a', 'b'\n",
        "a/build.gradle": "dependencies { implementation 'x:declared-in-a:1.0' }\n",
        "a/gradle.lockfile": "x:locked:1.0=compileClasspath,runtimeClasspath\nx:rt:1.0=runtimeClasspath\n"
                             "x:t:1.0=testCompileClasspath\nempty=annotationProcessor\n",
        "b/build.gradle": "dependencies { implementation 'x:declared-in-b:2.0' }\n"})
    project = discover(str(root), "gradle")
    assert project.locked == ["x:locked:1.0"]
    assert project.coords == ["x:locked:1.0", "x:declared-in-b:2.0"]
    assert discover(str(root), "gradle", tests=True).locked == ["x:locked:1.0", "x:t:1.0"]


def test_files_and_file_tree_jars_are_read(tmp_path):
    root = tmp_path / "f"
    a, b = _jar(root / "libs" / "a.jar"), _jar(root / "libs" / "sub" / "b.jar")
    own = _jar(root / "app" / "vendor" / "own.jar")
    (root / "libs" / "notes.txt").parent.mkdir(exist_ok=True)
    (root / "libs" / "notes.txt").write_text("x")
    _tree(root, {"settings.gradle": "include 'app'\n",
                 "build.gradle": "dependencies {\n    implementation files('libs/a.jar')\n"
                                 "    implementation fileTree(dir: 'libs', include: ['*.jar'])\n"
                                 "    compileOnly files(\"libs/gone.jar\")\n"
                                 "    implementation files(someJars)\n}\n",
                 "app/build.gradle.kts": 'dependencies {\n    implementation(fileTree("vendor"))\n'
                                         '    implementation(fileTree(mapOf("dir" to "../libs", "include" to '
                                         'listOf("**/*.jar"), "exclude" to listOf("a.jar"))))\n}\n'})
    project = discover(str(root), "gradle")
    assert [p for p, _name in project.classes] == [str(a), str(own), str(b)]
    assert "libs/gone.jar" in _warning(project, "ARTIFACT_MISSING")
    assert "files(someJars) (not plain paths)" in _warning(project, "GRADLE_DEPENDENCY_UNRESOLVED")


def test_strict_map_positional_and_reassigned_versions(tmp_path):
    root = _tree(tmp_path / "v", {"build.gradle": (
        "ext.ioVersion = '2.11.0'\next.ioVersion = '2.16.1'\next.versions = [gson: '2.11.0']\n"
        "dependencies {\n"
        "    implementation 'org.apache.commons:commons-math3:3.6.1!!'\n"
        "    implementation('org.apache.commons:commons-lang3') { version { strictly '3.14.0' } }\n"
        "    implementation 'x:range:[1.0,2.0)!!1.5'\n"
        "    implementation group: 'commons-io', name: 'commons-io', version: ioVersion\n"
        "    implementation \"com.google.code.gson:gson:${versions.gson}\"\n"
        "    implementation group: 'x', name: 'unknown', version: nowhere\n"
        "    implementation someDependency\n"
        "}\n")})
    project = discover(str(root), "gradle")
    assert project.coords == ["org.apache.commons:commons-math3:3.6.1", "org.apache.commons:commons-lang3:3.14.0",
                              "x:range:1.5", "commons-io:commons-io:2.16.1", "com.google.code.gson:gson:2.11.0"]
    unresolved = _warning(project, "GRADLE_DEPENDENCY_UNRESOLVED")
    assert "name: 'unknown', version: nowhere (a variable jdx cannot read)" in unresolved
    assert "implementation someDependency (a notation jdx does not read)" in unresolved
    kotlin = _tree(tmp_path / "k", {"build.gradle.kts": (
        'val io = "2.11.0"\ndependencies {\n    implementation("commons-io", "commons-io", io)\n'
        '    implementation("junit", "junit", "4.13.2")\n'
        '    implementation(group = "com.google.code.gson", name = "gson", version = "2.10.1")\n}\n')})
    assert discover(str(kotlin), "gradle").coords == ["commons-io:commons-io:2.11.0", "junit:junit:4.13.2",
                                                      "com.google.code.gson:gson:2.10.1"]


def test_dynamic_versions_from_the_catalog_are_named(tmp_path):
    root = _tree(tmp_path / "d", {
        "gradle/libs.versions.toml": '[libraries]\nio = { module = "commons-io:commons-io", version = "2.+" }\n'
                                     'math = { module = "org.apache.commons:commons-math3", version = { prefer = '
                                     '"3.6.1" } }\nlatest = "x:latest:latest.release"\n',
        "build.gradle.kts": "dependencies {\n    implementation(libs.io)\n    implementation(libs.math)\n"
                            "    implementation(libs.latest)\n"
                            '    implementation("joda-time:joda-time:latest.integration")\n}\n'})
    project = discover(str(root), "gradle")
    assert project.coords == ["org.apache.commons:commons-math3:3.6.1"]
    unresolved = _warning(project, "GRADLE_DEPENDENCY_UNRESOLVED")
    for name in ("commons-io:commons-io:2.+ (a dynamic version)", "x:latest:latest.release (a dynamic version)",
                 "joda-time:joda-time:latest.integration (a dynamic version)"):
        assert name in unresolved


def test_exclusions_and_platforms_are_named_rules_not_applied(tmp_path):
    root = _tree(tmp_path / "e", {"build.gradle": (
        "dependencies {\n"
        "    implementation('com.google.guava:guava:31.1-jre') {\n"
        "        exclude group: 'com.google.guava', module: 'failureaccess'\n    }\n"
        "    implementation('org.apache.commons:commons-lang3:3.14.0') { transitive = false }\n"
        "    implementation platform('com.google.guava:guava-bom:33.4.0-jre')\n}\n")})
    project = discover(str(root), "gradle")
    assert project.coords == ["com.google.guava:guava:31.1-jre", "org.apache.commons:commons-lang3:3.14.0"]
    rules = _warning(project, "GRADLE_RULE_IGNORED")
    for part in ("exclude group: 'com.google.guava', module: 'failureaccess'", "transitive = false",
                 "platform('com.google.guava:guava-bom:33.4.0-jre')"):
        assert part in rules
