"""A local Maven repository, a Gradle cache and projects built at test time: hand-written POMs, javac-compiled jars.

The repository (group `org.fix`) proves one Maven rule per artifact:
- `core` 1.0 and 2.0: `util:1.0` needs core 2.0, the project asks for 1.0 directly: nearest wins (1.0).
- `util` has a test-scope dependency (`utiltest`, never on a consumer's classpath) and an optional one (`opt`).
- `noisy` brings `excluded` and `kept`; the project excludes `excluded`.
- `managed` 1.0/2.0: `util` asks for 1.0, the parent POM's dependencyManagement pins 2.0.
- `bom` (a BOM) pins `bommed` to 1.1; the project imports it and names `bommed` without a version.
- `testlib` is test-scoped in the project; `rt` is runtime-scoped; `classy` has a `jdk11` classifier jar.
- `ghost` is declared by the project and absent from the repository.
"""

from __future__ import annotations

import shutil
import zipfile
from pathlib import Path

from tests.fixtures import jdktool

GROUP = "org.fix"


def _pom(artifact: str, version: str, body: str = "", group: str = GROUP, packaging: str = "jar",
         parent: tuple[str, str, str] | None = None) -> str:
    parent_xml = ""
    if parent:
        parent_xml = (f"<parent><groupId>{parent[0]}</groupId><artifactId>{parent[1]}</artifactId>"
                      f"<version>{parent[2]}</version></parent>")
    return (f'<?xml version="1.0"?>\n<project xmlns="http://maven.apache.org/POM/4.0.0">'
            f"<modelVersion>4.0.0</modelVersion>{parent_xml}<groupId>{group}</groupId>"
            f"<artifactId>{artifact}</artifactId><version>{version}</version><packaging>{packaging}</packaging>"
            f"{body}</project>\n")


def dep(artifact: str, version: str | None = None, scope: str = "", group: str = GROUP, optional: bool = False,
        exclusions: tuple[str, ...] = (), classifier: str = "", typ: str = "") -> str:
    xml = f"<dependency><groupId>{group}</groupId><artifactId>{artifact}</artifactId>"
    if version:
        xml += f"<version>{version}</version>"
    if typ:
        xml += f"<type>{typ}</type>"
    if classifier:
        xml += f"<classifier>{classifier}</classifier>"
    if scope:
        xml += f"<scope>{scope}</scope>"
    if optional:
        xml += "<optional>true</optional>"
    if exclusions:
        xml += "<exclusions>" + "".join(
            f"<exclusion><groupId>{GROUP}</groupId><artifactId>{e}</artifactId></exclusion>" for e in exclusions
        ) + "</exclusions>"
    return xml + "</dependency>"


def deps(*items: str) -> str:
    return "<dependencies>" + "".join(items) + "</dependencies>"


def _class_name(artifact: str) -> str:
    return "".join(p.capitalize() for p in artifact.split("-"))


def _java(artifact: str, version: str) -> tuple[str, str]:
    """(relative path, source) of the one class of an artifact; versioned methods tell versions apart."""
    pkg = f"org.fix.{artifact.replace('-', '')}"
    cls = _class_name(artifact)
    tag = version.replace(".", "_")
    src = (f"package {pkg};\n\npublic class {cls} {{\n"
           f"    public static String version() {{ return \"{version}\"; }}\n"
           f"    public static void only{tag}() {{}}\n"
           f"    public String help(String what) {{ return what; }}\n}}\n")
    return f"{pkg.replace('.', '/')}/{cls}.java", src


def javac(sources: dict[str, str], out: Path, classpath: list[Path] = ()) -> None:
    src_dir = out.parent / (out.name + "-src")
    for rel, text in sources.items():
        p = src_dir / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    out.mkdir(parents=True, exist_ok=True)
    args = ["-nowarn", "-g", "-d", str(out)]
    if classpath:
        args += ["-cp", ":".join(str(c) for c in classpath)]
    args += [str(src_dir / rel) for rel in sources]
    jdktool.run(["javac", *args], check=True, capture_output=True)
    shutil.rmtree(src_dir)


def _jar(classes: Path, target: Path, group: str, artifact: str, version: str, prefix: str) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(target, "w") as z:
        for f in sorted(classes.rglob("*.class")):
            rel = f.relative_to(classes).as_posix()
            if rel.startswith(prefix):
                z.write(f, rel)
        z.writestr(f"META-INF/maven/{group}/{artifact}/pom.properties",
                   f"groupId={group}\nartifactId={artifact}\nversion={version}\n")


# artifact, version, dependencies (POM body), packaging
LIBRARIES = [
    ("core", "1.0", "", "jar"),
    ("core", "2.0", "", "jar"),
    ("opt", "1.0", "", "jar"),
    ("utiltest", "1.0", "", "jar"),
    ("managed", "1.0", "", "jar"),
    ("managed", "2.0", "", "jar"),
    ("util", "1.0", deps(dep("core", "2.0"), dep("utiltest", "1.0", "test"), dep("opt", "1.0", optional=True),
                         dep("managed", "1.0")), "jar"),
    ("excluded", "1.0", "", "jar"),
    ("kept", "1.0", "", "jar"),
    ("noisy", "1.0", deps(dep("excluded", "1.0"), dep("kept", "1.0")), "jar"),
    ("bommed", "1.0", "", "jar"),
    ("bommed", "1.1", "", "jar"),
    ("testlib", "1.0", "", "jar"),
    ("rt", "1.0", "", "jar"),
    ("classy", "1.0", "", "jar"),
]
PARENT_BODY = ("<properties><core.version>1.0</core.version></properties>"
               "<dependencyManagement>" + deps(dep("managed", "2.0")) + "</dependencyManagement>")
BOM_BODY = "<dependencyManagement>" + deps(dep("bommed", "1.1")) + "</dependencyManagement>"


def build_repository(root: Path) -> Path:
    """The local repository described in the module docstring; returns its path."""
    repo = root / "repo"
    by_version: dict[str, dict[str, str]] = {}
    for artifact, version, _body, _pack in LIBRARIES:
        rel, src = _java(artifact, version)
        by_version.setdefault(version, {})[rel] = src
    for version, sources in by_version.items():
        classes = root / f"classes-{version}"
        javac(sources, classes)
        for artifact, v, body, _pack in LIBRARIES:
            if v != version:
                continue
            folder = repo / "org" / "fix" / artifact / v
            prefix = f"org/fix/{artifact.replace('-', '')}/"
            name = f"{artifact}-{v}-jdk11.jar" if artifact == "classy" else f"{artifact}-{v}.jar"
            _jar(classes, folder / name, GROUP, artifact, v, prefix)
            (folder / f"{artifact}-{v}.pom").write_text(_pom(artifact, v, body))
    rel, src = _java("kept", "1.0")  # one artifact ships its sources jar beside the binary, as Maven lays it out
    with zipfile.ZipFile(repo / "org" / "fix" / "kept" / "1.0" / "kept-1.0-sources.jar", "w") as z:
        z.writestr(rel, src)
    for artifact, body in (("parent", PARENT_BODY), ("bom", BOM_BODY)):
        folder = repo / "org" / "fix" / artifact / "1.0"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{artifact}-1.0.pom").write_text(_pom(artifact, "1.0", body, packaging="pom"))
    return repo


APP_DEPS = deps(
    dep("core", "${core.version}"), dep("util", "1.0"), dep("noisy", "1.0", exclusions=("excluded",)),
    dep("bommed"), dep("testlib", "1.0", "test"), dep("rt", "1.0", "runtime"),
    dep("classy", "1.0", classifier="jdk11"), dep("ghost", "1.0"), dep("api", "1.0", group="com.example"),
)
APP_SOURCE = {
    "com/example/app/App.java": (
        "package com.example.app;\n\nimport org.fix.core.Core;\nimport org.fix.util.Util;\n\n"
        "public class App {\n"
        "    public String run() {\n"
        "        return Core.version() + new Util().help(\"x\") + new com.example.api.Api().name();\n"
        "    }\n}\n"),
}
API_SOURCE = {"com/example/api/Api.java": "package com.example.api;\n\npublic class Api {\n"
                                         "    public String name() { return \"api\"; }\n}\n"}
TEST_SOURCE = {"com/example/app/AppTest.java": "package com.example.app;\n\npublic class AppTest {\n"
                                               "    public void testRun() { new App().run(); }\n}\n"}


def build_maven_project(root: Path, repo: Path) -> Path:
    """`com.example:root:1.0` (parent `org.fix:parent:1.0`, imports `org.fix:bom`) with modules `api` and
    `app`; `app` depends on `api` and on the repository's libraries; classes compiled into target/."""
    project = root / "mvnproject"
    bom_import = ("<dependencyManagement>" + deps(dep("bom", "1.0", "import", typ="pom"))
                  + "</dependencyManagement>")
    (project / "api").mkdir(parents=True)
    (project / "app").mkdir(parents=True)
    (project / "pom.xml").write_text(_pom("root", "1.0", "<modules><module>api</module><module>app</module></modules>"
                                          + bom_import, group="com.example", packaging="pom",
                                          parent=(GROUP, "parent", "1.0")))
    (project / "api" / "pom.xml").write_text(_pom("api", "1.0", group="com.example",
                                                  parent=("com.example", "root", "1.0")))
    (project / "app" / "pom.xml").write_text(_pom("app", "1.0", APP_DEPS, group="com.example",
                                                  parent=("com.example", "root", "1.0")))
    for module, sources in (("api", API_SOURCE), ("app", APP_SOURCE)):
        src = project / module / "src" / "main" / "java"
        for rel, text in sources.items():
            (src / rel).parent.mkdir(parents=True, exist_ok=True)
            (src / rel).write_text(text)
    javac(API_SOURCE, project / "api" / "target" / "classes")
    cp = [project / "api" / "target" / "classes", repo / "org/fix/core/1.0/core-1.0.jar",
          repo / "org/fix/util/1.0/util-1.0.jar"]
    javac(APP_SOURCE, project / "app" / "target" / "classes", cp)
    javac(TEST_SOURCE, project / "app" / "target" / "test-classes", [project / "app" / "target" / "classes"])
    return project


def gradle_cache_from(repo: Path, target: Path, artifacts: list[tuple[str, str]]) -> Path:
    """A Gradle `files-2.1` cache holding copies of some repository artifacts (jar and POM, each under a
    hash-named folder as Gradle stores them)."""
    for artifact, version in artifacts:
        src = repo / "org" / "fix" / artifact / version
        for i, f in enumerate(sorted(src.iterdir())):
            dest = target / GROUP / artifact / version / f"{i:040x}"
            dest.mkdir(parents=True, exist_ok=True)
            shutil.copy2(f, dest / f.name)
    return target


def build_gradle_project(root: Path, repo: Path) -> Path:
    """A Gradle-layout project: settings.gradle.kts, build.gradle.kts declaring `org.fix:util:1.0`,
    classes in build/classes/java/main."""
    project = root / "gradleproject"
    project.mkdir()
    (project / "settings.gradle.kts").write_text('rootProject.name = "gapp"\n')
    (project / "build.gradle.kts").write_text(
        'plugins { java }\n\ndependencies {\n'
        '    implementation("org.fix:util:1.0")\n'
        '    testImplementation("org.fix:testlib:1.0")\n'
        '}\n')
    source = {"com/example/gapp/GApp.java": "package com.example.gapp;\n\nimport org.fix.util.Util;\n\n"
                                            "public class GApp {\n"
                                            "    public String go() { return new Util().help(\"g\"); }\n}\n"}
    src = project / "src" / "main" / "java"
    for rel, text in source.items():
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        (src / rel).write_text(text)
    javac(source, project / "build" / "classes" / "java" / "main", [repo / "org/fix/util/1.0/util-1.0.jar"])
    return project
