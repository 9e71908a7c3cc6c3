"""Coordinates and project auto-discovery end to end (spec §6, §13): the CLI run inside projects built by the test."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from tests.maven.conftest import batch, jdx


def _result(env: dict) -> dict:
    assert env["ok"], env
    return env["result"]


def _artifact_of(env: dict) -> str:
    return " ".join(str(p) for p in env.get("provenance", [])) + str(env.get("result", ""))


@pytest.mark.soak
def test_coordinates_versions_and_missing_version(world, world_env):
    """--coord brings runtime dependencies; both versions of one library asked for explicitly answer by coordinate
    (util's own core 2.0 alone would lose to the declared core 1.0, Maven's nearest-wins: tests/maven/test_ws_roots.py);
    an absent version is exit 1 with the versions present."""
    out = batch(world_env, world.root, [
        "show org.fix.util.Util",
        "members org:fix:core:1.0/org.fix.core.Core",
        "members org.fix:core:1.0/org.fix.core.Core",
        "members org.fix:core:2.0/org.fix.core.Core",
        "show org.fix:core:3.0/org.fix.core.Core",
        "show org.fix.managed.Managed",
    ], "--no-jdk", "--coord", "org.fix:core:1.0", "--coord", "org.fix:util:1.0", "--coord", "org.fix:core:2.0")
    assert out[0]["ok"] and "org.fix:util:1.0" in str(out[0])
    assert not out[1]["ok"]  # four segments: not group:artifact:version of anything present
    one = str(_result(out[2]))
    two = str(_result(out[3]))
    assert "only1_0" in one and "only2_0" not in one
    assert "only2_0" in two and "only1_0" not in two
    assert out[4]["error"]["code"] == "NOT_FOUND"
    assert "org.fix:core:1.0" in out[4]["error"]["message"] and "org.fix:core:2.0" in out[4]["error"]["message"]
    assert "org.fix:managed:1.0" in str(out[5])  # util's own dependency, transitive through the coordinate


def test_missing_coordinate_is_a_named_warning(world, monkeypatch):
    from jdx.loaders.classpath import coordinate_roots

    monkeypatch.setenv("JDX_MAVEN_REPO", str(world.repo))
    cp = coordinate_roots(world.cache, ["org.fix:ghost:1.0", "org.fix:core:1.0"])
    assert [cp.names[r] for r in cp.roots] == ["org.fix:core:1.0"]
    missing = [w for w in cp.warnings if w.code == "DEPENDENCY_MISSING"]
    assert missing and "org.fix:ghost:jar:1.0" in missing[0].message
    # the coordinate asked for is itself absent: an explicit root missing, not a dependency
    assert [w.artifact for w in cp.unreadable] == ["org.fix:ghost:1.0"], cp.unreadable


def test_a_query_over_a_missing_coordinate_is_exit_5_naming_it(world, world_env):
    """As a missing --jars path: an error before any answer, never "not found" with the JDK's near names."""
    import json

    for fmt in ([], ["--json"]):
        done = jdx(world_env, world.root, "--no-jdk", "--coord", "org.fix:ghost:1.0", "--coord", "org.fix:core:1.0",
                   *fmt, "show", "org.fix.core.Core")
        assert done.returncode == 5, done
        assert "--coord org.fix:ghost:1.0: not in the local repository" in done.stdout + done.stderr, done
    error = json.loads(done.stdout)["error"]
    assert error["code"] == "ARTIFACT_READ_ERROR" and "org.fix:ghost:1.0" in error["message"]


MAVEN_LINES = [
    "show com.example.app.App",
    "show com.example.api.Api",
    "show org.fix.kept.Kept",
    "usages org.fix.util.Util#help",
    "members org.fix.core.Core",
    "show org.fix.excluded.Excluded",
    "show org.fix.opt.Opt",
    "show org.fix.testlib.Testlib",
    "members org.fix.managed.Managed",
    "show org.fix.bommed.Bommed",
    "show org.fix.rt.Rt",
    "show org.fix.classy.Classy",
    "source com.example.app.App",
    "source org.fix.kept.Kept",
]


def _check_maven_answers(out: list[dict]) -> None:
    for i in (0, 1, 2, 9, 10, 11, 12):
        assert out[i]["ok"], out[i]
    assert "com.example:app:1.0" in str(out[0])
    assert "com.example.app.App" in str(_result(out[3]))  # the call site in the project
    assert "only1_0" in str(_result(out[4]))  # nearest wins: the project's core 1.0 over util's 2.0
    for i in (5, 6, 7):  # excluded, optional of a dependency, test scope
        assert out[i]["error"]["code"] == "NOT_FOUND", out[i]
    assert "only2_0" in str(_result(out[8]))  # dependencyManagement of the parent POM
    assert "org.fix:bommed:1.1" in str(out[9])  # imported BOM
    assert "org.fix:classy:1.0:jdk11" in str(out[11])
    assert "Core.version()" in str(_result(out[12]))  # sources paired from src/main/java
    assert "return \"1.0\"" in str(_result(out[13]))  # the dependency's -sources.jar beside it in the repository
    codes = {w["code"] for w in out[0]["warnings"]}
    assert "DEPENDENCY_MISSING" in codes  # org.fix:ghost


@pytest.mark.soak
def test_maven_project_from_inside(world, world_env):
    """Project classes, reactor module and transitive dependencies answer from a module's sub-folder;
    `usages` of a library method finds the project's call site; Maven's rules pick what is on the classpath.
    (--no-jdk keeps the graph small; test_maven_project_with_no_flags_and_the_jdk is the soak's.)"""
    _check_maven_answers(batch(world_env, world.maven / "app" / "src" / "main" / "java", MAVEN_LINES, "--no-jdk"))


@pytest.mark.soak
def test_maven_project_with_no_flags_and_the_jdk(world, world_env):
    out = batch(world_env, world.maven / "app" / "src" / "main" / "java", [*MAVEN_LINES, "show java.util.HashMap"])
    _check_maven_answers(out)
    assert out[-1]["ok"]


def test_tests_flag_adds_test_classes_and_scope(world, monkeypatch):
    from jdx.loaders.project import discover, project_classpath

    monkeypatch.setenv("JDX_MAVEN_REPO", str(world.repo))
    plain = project_classpath(world.cache, discover(str(world.maven), "maven"))
    tests = project_classpath(world.cache, discover(str(world.maven), "maven", tests=True), tests=True)
    assert "org.fix:testlib:1.0" not in plain.names.values()
    assert "org.fix:testlib:1.0" in tests.names.values()
    assert "com.example:app:1.0 (tests)" in tests.names.values()
    assert str(world.maven / "app" / "target" / "test-classes") in tests.roots
    # Maven's test classpath (`mvn -X test-compile`: testPath) puts a module's test classes before its classes: a
    # test-scope class of the same name is the one the tests load (T35)
    roots = tests.roots
    assert roots.index(str(world.maven / "app" / "target" / "test-classes")) + 1 == \
        roots.index(str(world.maven / "app" / "target" / "classes")), roots


@pytest.mark.soak  # ~6 s of cold processes; CI's soak runs it
def test_info_doctor_and_auto_workspace(world, world_env, tmp_path):
    info = jdx(world_env, world.maven, "--no-jdk", "ws", "info")
    assert info.returncode == 0, info.stderr
    assert "auto-discovery (maven project)" in info.stdout
    assert "Maven Resolver" in info.stdout and "pom.xml" in info.stdout
    doctor = jdx(world_env, world.maven / "api", "--no-jdk", "doctor")
    assert "maven resolver" in doctor.stdout and "classpath: maven project at" in doctor.stdout
    env = {**world_env, "JDX_CONFIG_DIR": str(tmp_path)}
    created = jdx(env, world.maven / "app", "--no-jdk", "ws", "create", "proj", "--auto")
    assert created.returncode == 0, created.stderr
    assert f"project {world.maven}" in created.stdout
    elsewhere = batch(env, tmp_path, ["show com.example.app.App"], "-w", "proj")
    assert elsewhere[0]["ok"]
    libs = jdx(env, tmp_path, "--coord", "org.fix:util:1.0", "--no-jdk", "ws", "create", "libs")
    assert libs.returncode == 0 and "coord org.fix:util:1.0" in libs.stdout, libs.stderr
    listed = jdx(env, tmp_path, "-w", "libs", "ws", "info")
    assert "org.fix:core:2.0" in listed.stdout and "--coord org.fix:util:1.0" in listed.stdout
    added = jdx(env, tmp_path, "ws", "add", "libs", "org.fix:kept:1.0")
    assert "coord org.fix:kept:1.0" in added.stdout, added.stderr
    assert jdx(env, tmp_path, "-w", "libs", "index").returncode == 0
    import json

    keys = {a["key"] for a in json.loads(jdx(env, tmp_path, "-w", "libs", "--json", "ws", "info").stdout)["result"]
            ["artifacts"]}
    gc = json.loads(jdx(env, tmp_path, "--json", "cache", "gc", "--dry-run").stdout)["result"]
    assert not keys & {r.split("/", 1)[1] for r in gc["removed"]}  # a coordinate workspace keeps its shards
    merged = jdx(world_env, tmp_path, "--no-jdk", "--project", str(world.gradle), "--coord", "org.fix:kept:1.0",
                 "ws", "info")
    assert "flags + auto-discovery (gradle project)" in merged.stdout and "org.fix:kept:1.0" in merged.stdout


def test_gradle_layout_project(world, monkeypatch):
    """Classes from build/classes, the declared dependency from the Gradle cache, its own dependencies from the
    Maven repository; the test-scoped declaration only with --tests."""
    from jdx.loaders.project import discover, project_classpath
    from jdx.loaders.project_root import find_project_root

    monkeypatch.setenv("JDX_MAVEN_REPO", str(world.repo))
    monkeypatch.setenv("JDX_GRADLE_CACHE", str(world.gradle_cache))
    root, kind = find_project_root(world.gradle / "src" / "main")
    assert (root, kind) == (str(world.gradle), "gradle")
    cp = project_classpath(world.cache, discover(root, kind))
    names = [cp.names[r] for r in cp.roots]
    assert names[0] == "gradleproject (java main)"
    assert names[1:] == ["org.fix:util:1.0", "org.fix:core:2.0", "org.fix:managed:1.0"]
    assert str(world.gradle_cache) in cp.roots[1]  # from the Gradle cache, not the repository
    assert cp.src == [str(world.gradle / "src" / "main" / "java")]
    with_tests = project_classpath(world.cache, discover(root, kind, tests=True), tests=True)
    assert "org.fix:testlib:1.0" in with_tests.names.values()


@pytest.mark.parametrize("case", ["malformed", "huge", "parent_cycle"])
def test_bad_project_pom_is_a_named_warning(world, monkeypatch, tmp_path, case):
    """A project whose POM cannot be used still answers (its classes, the JDK), with the reason named."""
    from jdx.loaders.project import discover, project_classpath
    from jdx.loaders.project_root import find_project_root

    monkeypatch.setenv("JDX_MAVEN_REPO", str(world.repo))
    project = tmp_path / case
    (project / "target" / "classes").mkdir(parents=True)
    if case == "malformed":
        (project / "pom.xml").write_text("<project><groupId>x</groupId")
        code = "POM_INVALID"
    elif case == "parent_cycle":
        (project / "pom.xml").write_text("<project><modelVersion>4.0.0</modelVersion><parent><groupId>x</groupId>"
                                         "<artifactId>y</artifactId><version>1</version><relativePath>pom.xml"
                                         "</relativePath></parent><artifactId>y</artifactId></project>")
        code = "POM_INVALID"
    else:
        with open(project / "pom.xml", "w") as f:
            f.write("<project><modelVersion>4.0.0</modelVersion><groupId>x</groupId><artifactId>y</artifactId>"
                    "<version>1</version><description>")
            f.write("x" * (5 << 20))
            f.write("</description></project>")
        code = "POM_TOO_LARGE"
    root, kind = find_project_root(project / "target")
    assert (root, kind) == (str(project), "maven")
    cp = project_classpath(world.cache, discover(root, kind))
    assert code in [w.code for w in cp.warnings], cp.warnings
    assert cp.roots == [str(project / "target" / "classes")]


def test_an_unbuilt_module_says_its_classes_are_not_in_the_workspace(tmp_path):
    """A module with sources but no target/classes: the warning says what an answer will lack, and how to fix it."""
    from jdx.loaders.project import discover

    project = tmp_path / "unbuilt"
    (project / "src" / "main" / "java" / "demo").mkdir(parents=True)
    (project / "src" / "main" / "java" / "demo" / "App.java").write_text("package demo; public class App {}")
    (project / "pom.xml").write_text("<project><modelVersion>4.0.0</modelVersion><groupId>demo</groupId>"
                                     "<artifactId>demo</artifactId><version>1.0</version></project>")
    found = discover(str(project), "maven")
    (w,) = [w for w in found.warnings if w.code == "PROJECT_NOT_BUILT"]
    assert w.message == ("demo:demo:1.0: no target/classes: its own classes are not in the workspace (show, members "
                         "and usages see its dependencies only) until it is built, e.g. mvn compile")
    assert found.classes == []


@pytest.mark.soak
def test_machine_local_repository(jdx_env, tmp_path):
    """A project depending on an artifact of this machine's ~/.m2 (skipped where there is none)."""
    from jdx.loaders.maven_resolver import maven_lib

    gson = Path.home() / ".m2/repository/com/google/code/gson/gson"
    versions = sorted(p.name for p in gson.glob("*") if (p / f"gson-{p.name}.jar").is_file()) if gson.is_dir() else []
    if maven_lib() is None or not versions:
        pytest.skip("no gson jar in ~/.m2/repository (or no Maven resolver): nothing to resolve against")
    from tests.maven.conftest import WORKTREE

    version = versions[-1]
    (tmp_path / "pom.xml").write_text(
        '<project><modelVersion>4.0.0</modelVersion><groupId>t</groupId><artifactId>t</artifactId>'
        f'<version>1</version><dependencies><dependency><groupId>com.google.code.gson</groupId>'
        f'<artifactId>gson</artifactId><version>{version}</version></dependency></dependencies></project>')
    env = {**jdx_env, "PYTHONPATH": str(WORKTREE)}
    env.pop("JDX_MAVEN_REPO", None)
    out = batch(env, tmp_path, ["show com.google.gson.Gson"], "--no-jdk")
    assert out[0]["ok"] and f"com.google.code.gson:gson:{version}" in str(out[0])


def test_daemon_key_names_the_project(world, monkeypatch):
    """A daemon serves one project (one Maven module, whose classpath is its own): run from two projects, or two
    modules of one reactor, the key differs; the spawned daemon is told where."""
    from jdx.daemon.paths import workspace_argv, workspace_flags, workspace_hash

    monkeypatch.chdir(world.maven / "app" / "src")
    maven = workspace_flags()
    monkeypatch.chdir(world.maven)
    reactor = workspace_flags()
    monkeypatch.chdir(world.gradle)
    gradle = workspace_flags()
    assert maven["project"] == str(world.maven / "app") and gradle["project"] == str(world.gradle)
    assert reactor["project"] == str(world.maven)
    assert len({workspace_hash(maven), workspace_hash(gradle), workspace_hash(reactor)}) == 3
    assert f"--project={world.maven / 'app'}" in workspace_argv(maven)
    assert "project" not in workspace_flags(jars=["x.jar"])


def test_intellij_project(world, tmp_path):
    """`.idea/` with no build file: its project library, module source folder and output folder."""
    import shutil

    from jdx.loaders.project import discover, project_classpath
    from jdx.loaders.project_root import find_project_root

    root = tmp_path / "ij"
    (root / ".idea" / "libraries").mkdir(parents=True)
    (root / "deps").mkdir()
    shutil.copy(world.repo / "org/fix/core/1.0/core-1.0.jar", root / "deps" / "core.jar")
    (root / ".idea" / "libraries" / "core.xml").write_text(
        '<component name="libraryTable"><library name="core"><CLASSES>'
        '<root url="jar://$PROJECT_DIR$/deps/core.jar!/" /></CLASSES><SOURCES /></library></component>')
    (root / "app" / "src").mkdir(parents=True)
    (root / "app" / "app.iml").write_text(
        '<module type="JAVA_MODULE"><component name="NewModuleRootManager"><content url="file://$MODULE_DIR$">'
        '<sourceFolder url="file://$MODULE_DIR$/src" isTestSource="false" /></content></component></module>')
    shutil.copytree(world.maven / "api" / "target" / "classes", root / "out" / "production" / "app")
    assert find_project_root(root / "app" / "src") == (str(root), "idea")
    cp = project_classpath(world.cache, discover(str(root), "idea"))
    assert [cp.names[r] for r in cp.roots] == ["app (production)", "org.fix:core:1.0"]  # pom.properties
    assert cp.src == [str(root / "app" / "src")]


def test_without_maven_the_project_and_coordinates_still_answer(world, monkeypatch):
    """No Maven resolver installed: named MAVEN_RESOLVER_UNAVAILABLE; the project's classes and the
    coordinate's own jar remain."""
    from jdx.loaders.classpath import coordinate_roots
    from jdx.loaders.project import discover, project_classpath

    monkeypatch.setenv("JDX_MAVEN_REPO", str(world.repo))
    monkeypatch.setenv("JDX_MAVEN_LIB", str(world.root / "no-maven"))
    monkeypatch.setenv("JDX_CACHE_DIR", str(world.root / "no-maven-cache"))
    cp = coordinate_roots(world.root / "no-maven-cache", ["org.fix:util:1.0"])
    assert [cp.names[r] for r in cp.roots] == ["org.fix:util:1.0"]
    assert "MAVEN_RESOLVER_UNAVAILABLE" in [w.code for w in cp.warnings]
    project = project_classpath(world.root / "no-maven-cache", discover(str(world.maven), "maven"))
    assert sorted(project.names.values()) == ["com.example:api:1.0", "com.example:app:1.0"]
    assert "MAVEN_RESOLVER_UNAVAILABLE" in [w.code for w in project.warnings]


def test_without_maven_a_pom_packaged_coordinate_is_named_not_read_as_a_jar(monkeypatch, tmp_path):
    """No resolver, `--coord` of a BOM (pom-packaged, no jar): POM_ONLY_ARTIFACT, and no root is its .pom file."""
    from jdx.loaders.classpath import coordinate_roots

    folder = tmp_path / "repo" / "org" / "fix" / "bom" / "1.0"
    folder.mkdir(parents=True)
    (folder / "bom-1.0.pom").write_text("<project><modelVersion>4.0.0</modelVersion><groupId>org.fix</groupId>"
                                        "<artifactId>bom</artifactId><version>1.0</version>"
                                        "<packaging>pom</packaging></project>")
    monkeypatch.setenv("JDX_MAVEN_REPO", str(tmp_path / "repo"))
    monkeypatch.setenv("JDX_MAVEN_LIB", str(tmp_path / "no-maven"))
    cp = coordinate_roots(tmp_path / "cache", ["org.fix:bom:1.0"])
    assert cp.roots == []
    assert {"MAVEN_RESOLVER_UNAVAILABLE", "POM_ONLY_ARTIFACT"} <= {w.code for w in cp.warnings}
    assert not cp.unreadable


def test_gradle_catalog_subprojects_and_lockfile(world, monkeypatch, tmp_path):
    """settings.gradle includes, a version catalog alias, a Groovy declaration, an unversioned one (named), then
    a gradle.lockfile that wins over declarations."""
    from jdx.loaders.project import discover, project_classpath

    monkeypatch.setenv("JDX_MAVEN_REPO", str(world.repo))
    monkeypatch.setenv("JDX_GRADLE_CACHE", str(tmp_path / "none"))
    root = tmp_path / "multi"
    (root / "gradle").mkdir(parents=True)
    (root / "lib" / "build" / "classes" / "java" / "main").mkdir(parents=True)
    (root / "settings.gradle").write_text("rootProject.name = 'multi'\ninclude ':lib', ':absent'\n")
    (root / "gradle" / "libs.versions.toml").write_text(
        '[versions]\ncore = "1.0"\n\n[libraries]\nfix-core = { module = "org.fix:core", version.ref = "core" }\n')
    (root / "lib" / "build.gradle").write_text(
        "dependencies {\n    implementation libs.fix.core\n    api 'org.fix:kept:1.0'\n"
        "    implementation 'org.fix:rt'\n    implementation platform('org.fix:bom:1.0')\n"
        "    compileOnly group: 'org.fix', name: 'opt', version: '1.0'\n}\n")
    project = discover(str(root), "gradle")
    assert project.coords == ["org.fix:core:1.0", "org.fix:kept:1.0", "org.fix:opt:1.0"]  # as written
    cp = project_classpath(world.cache, project)
    assert "org.fix:rt (no version: the platform org.fix:bom:1.0 of :lib does not manage it)" in next(
        w.message for w in cp.warnings if w.code == "GRADLE_DEPENDENCY_UNRESOLVED")
    assert [cp.names[r] for r in cp.roots] == [":lib (java main)", "org.fix:core:1.0", "org.fix:kept:1.0",
                                               "org.fix:opt:1.0"]
    (root / "lib" / "gradle.lockfile").write_text(
        "# lockfile\norg.fix:noisy:1.0=compileClasspath,runtimeClasspath\n"
        "org.fix:testlib:1.0=testCompileClasspath\nempty=\n")
    locked = discover(str(root), "gradle")
    assert locked.coords == ["org.fix:noisy:1.0"]


def test_ci_friendly_versions_across_modules(world, monkeypatch, tmp_path):
    """`${revision}` set in the root POM: module coordinates and the dependency between modules resolve."""
    import shutil

    from jdx.loaders.project import discover, project_classpath
    from tests.maven import fixture as fx

    monkeypatch.setenv("JDX_MAVEN_REPO", str(world.repo))
    root = tmp_path / "ci"
    for module in ("a", "b"):
        shutil.copytree(world.maven / "api" / "target" / "classes", root / module / "target" / "classes")
    (root / "pom.xml").write_text(fx._pom("ci", "${revision}", "<properties><revision>1.2</revision></properties>"
                                          "<modules><module>a</module><module>b</module></modules>",
                                          group="x", packaging="pom"))
    (root / "a" / "pom.xml").write_text(fx._pom("a", "${revision}", fx.deps(fx.dep("b", "${revision}", group="x"),
                                                                          fx.dep("core", "1.0")),
                                                group="x", parent=("x", "ci", "${revision}")))
    (root / "b" / "pom.xml").write_text(fx._pom("b", "${revision}", group="x", parent=("x", "ci", "${revision}")))
    project = discover(str(root), "maven")
    assert [m.gav for m in project.modules] == ["x:ci:1.2", "x:a:1.2", "x:b:1.2"]
    cp = project_classpath(world.cache, project)
    assert [cp.names[r] for r in cp.roots] == ["x:a:1.2", "x:b:1.2", "org.fix:core:1.0"], cp.warnings
    assert not [w for w in cp.warnings if w.code in ("DEPENDENCY_MISSING", "POM_INVALID")], cp.warnings


def test_artifact_coordinate_forms():
    from jdx.engine.resolve import _artifact_coordinate

    repo_jar = "/r/.m2/repository/org/fix/classy/1.0/classy-1.0-jdk11.jar"
    assert _artifact_coordinate("org.fix:classy:1.0:jdk11", "classy-1.0-jdk11.jar", repo_jar)
    assert _artifact_coordinate("org.fix:classy:jar:jdk11:1.0", "x.jar", repo_jar)
    assert not _artifact_coordinate("org.fix:classy:1.0", "x.jar", repo_jar)
    gradle_jar = "/g/files-2.1/org.fix/core/2.0/0a1b/core-2.0.jar"
    assert _artifact_coordinate("org.fix:core:2.0", "core-2.0.jar", gradle_jar)
    assert not _artifact_coordinate("org.fix:core:1.0", "core-2.0.jar", gradle_jar)
    assert _artifact_coordinate("com.example:app:1.0", "com.example:app:1.0 (tests)", "/p/app/target/test-classes")


def _printed_refs(value) -> list[str]:
    """Every string in an answer, for checking that no graph-internal `@<artifact>` id leaks into it."""
    if isinstance(value, dict):
        return [s for v in value.values() for s in _printed_refs(v)]
    if isinstance(value, list):
        return [s for v in value for s in _printed_refs(v)]
    return [value] if isinstance(value, str) else []


@pytest.mark.soak
@pytest.mark.parametrize("form", ["coordinate", pytest.param("jar", marks=pytest.mark.soak)])
def test_a_shadowed_copy_prints_as_an_artifact_scoped_ref_that_reads_back(world, world_env, tmp_path, form):
    """Spec §6: the copy of a class an earlier artifact shadows prints as `g:a:v/fqn` (by its jar's file name when
    it has no coordinate), constructors by their plain simple name, and every such printed reference is accepted
    back as input and names that copy again."""
    if form == "coordinate":
        flags, scope = ("--coord", "org.fix:core:1.0", "--coord", "org.fix:core:2.0"), "org.fix:core:2.0"
    else:
        jars = []
        for version in ("1.0", "2.0"):
            # outside any repository layout and without pom.properties: named by its file name only
            jar = tmp_path / version / f"core-{version}.jar"
            jar.parent.mkdir()
            with zipfile.ZipFile(world.repo / f"org/fix/core/{version}/core-{version}.jar") as src, \
                    zipfile.ZipFile(jar, "w") as dst:
                for item in src.infolist():
                    if not item.filename.startswith("META-INF/maven/"):
                        dst.writestr(item, src.read(item))
            jars += ["--jars", str(jar)]
        flags, scope = tuple(jars), "core-2.0.jar"
    copy = f"{scope}/org.fix.core.Core"
    out = batch(world_env, world.root, [f"show {copy}", f"members {copy}", f"hierarchy {copy}",
                                        f"usages {copy}#only2_0", "search only2_0", "show org.fix.core.Core"],
                "--no-jdk", *flags)
    show, members, hierarchy, usages = (_result(e) for e in out[:4])
    assert show["ref"] == copy and members["type"] == copy and hierarchy["type"] == copy
    refs = {m["name"]: m["ref"] for m in members["members"]}
    assert refs["only2_0"] == f"{copy}#only2_0()" and refs["<init>"] == f"{copy}#<init>()"
    assert "Core()" in next(m["text"] for m in members["members"] if m["name"] == "<init>")
    assert usages["symbol"] == f"{copy}#only2_0()"
    for env in out[:4]:
        assert not [s for s in _printed_refs(env["result"]) if "@" in s and "Core" in s], env["result"]
        assert any(w["code"] == "DUPLICATE_CLASS" for w in env["warnings"]), env["warnings"]
    assert "@" not in str(out[4])  # search lists loaded classes only (docs/search.md); no id leaks either way
    assert _result(out[5])["ref"] == "org.fix.core.Core"  # the loaded copy keeps its plain name

    again = batch(world_env, world.root, [f"members {show['ref']}", f"signature {refs['<init>']}",
                                          f"body {refs['only2_0']}", f"show {refs['only2_0'].split('#')[0]}"],
                  "--no-jdk", *flags)
    assert {m["ref"] for m in _result(again[0])["members"]} == {m["ref"] for m in members["members"]}
    for env in again[1:]:
        text = str(_result(env))
        assert copy in text and "only1_0" not in text, text


def test_artifact_ref_prefix_forms():
    from jdx.engine.resolve import _coordinate_of

    assert _coordinate_of("org.fix:core:2.0", "/x/core-2.0.jar") == "org.fix:core:2.0"
    assert _coordinate_of("core-2.0.jar", "/r/.m2/repository/org/fix/core/2.0/core-2.0.jar") == "org.fix:core:2.0"
    classy = "/r/repository/org/fix/classy/1.0/classy-1.0-jdk11.jar"
    assert _coordinate_of("x.jar", classy) == "org.fix:classy:1.0:jdk11"
    assert _coordinate_of("core-2.0.jar", "/g/files-2.1/org.fix/core/2.0/0a1b/core-2.0.jar") == "org.fix:core:2.0"
    assert _coordinate_of("core-2.0.jar", "/tmp/2.0/core-2.0.jar") is None
    assert _coordinate_of("java.base", "") is None


def test_a_plain_project_compiled_into_target_classes(tmp_path):
    """No build file, sources in src/main/java compiled by `javac -d target/classes`, jars in lib/: a plain project
    whose classes are target/classes (its test classes with --tests), ahead of the jars, as `java -cp` is given
    them; before, target/classes was not read and every class of the project was `not compiled`."""
    from jdx.loaders.project import discover
    from jdx.loaders.project_root import find_project_root

    project = tmp_path / "app"
    for d in ("src/main/java/lat", "target/classes/lat", "target/test-classes", "lib"):
        (project / d).mkdir(parents=True)
    (project / "lib" / "dep.jar").write_bytes(b"PK\x05\x06" + b"\0" * 18)
    assert find_project_root(project / "src" / "main") is None  # found from its own directory only
    bare = tmp_path / "bare"
    (bare / "target" / "classes").mkdir(parents=True)
    assert find_project_root(bare) == (str(bare), "plain")
    root, kind = find_project_root(project)
    assert (root, kind) == (str(project), "plain")
    found = discover(root, kind)
    assert [c for c, _ in found.classes] == [str(project / "target" / "classes"), str(project / "lib" / "dep.jar")]
    assert str(project / "src" / "main" / "java") in found.src
    tests = discover(root, kind, tests=True)
    assert [c for c, _ in tests.classes][:2] == [str(project / "target" / "classes"),
                                                 str(project / "target" / "test-classes")]
