"""Project auto-discovery (spec §13 step 4): a Maven, Gradle or plain project's classes, sources and dependencies.

- Maven: `pom.xml` and its `<modules>` (recursively); each module's `target/classes` (and `target/test-classes`
  with `--tests`), its `src/main/java|kotlin`; dependencies resolved by Maven's resolver over the local
  repository, reactor modules served from their class directories.
- Gradle (layout only; Gradle is never run): `settings.gradle(.kts)` includes, each project's
  `build/classes/{java,kotlin}/main`, its sources; dependencies from `gradle.lockfile` when present, else the
  `group:artifact:version` declarations of the build files and the `gradle/libs.versions.toml` catalog,
  resolved with their transitive dependencies from the Gradle cache and the local Maven repository.
- IntelliJ (`.idea/` and no build file): project and module libraries, source folders, `out/production/*`.
- Plain: jars at the top, in `lib/` or `libs/`, class directories `classes/`, `bin/`, `out/`; sources `src/`.
"""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from xml.etree import ElementTree

from jdx.errors import EnvironmentMissing, Warning_
from jdx.loaders.classpath import Classpath, add_resolution

POM_MAX = 4 << 20
BUILD_FILE_MAX = 4 << 20
MAX_MODULES = 2000
MAIN_SCOPES = ("compile", "provided", "runtime", "system")
GRADLE_MAIN = ("implementation", "api", "compileOnly", "runtimeOnly", "compile", "runtime", "compileOnlyApi",
               "providedCompile", "providedRuntime", "kapt", "annotationProcessor")
GRADLE_TEST = ("testImplementation", "testCompileOnly", "testRuntimeOnly", "testCompile", "testRuntime")
DECLARATION = re.compile(r"\b(%s)\s*\(?\s*[\"']([A-Za-z0-9_.\-]+):([A-Za-z0-9_.\-]+):([A-Za-z0-9_.\-+\[\]()]+)"
                         r"(?::([A-Za-z0-9_.\-]+))?(?:@[a-z]+)?[\"']" % "|".join(GRADLE_MAIN + GRADLE_TEST))
MAP_DECLARATION = re.compile(r"\b(%s)\s*\(?\s*group\s*[:=]\s*[\"']([^\"']+)[\"']\s*,\s*name\s*[:=]\s*"
                             r"[\"']([^\"']+)[\"']\s*,\s*version\s*[:=]\s*[\"']([^\"']+)[\"']"
                             % "|".join(GRADLE_MAIN + GRADLE_TEST))
VERSIONLESS = re.compile(r"\b(%s)\s*\(?\s*[\"']([A-Za-z0-9_.\-]+):([A-Za-z0-9_.\-]+)[\"']"
                         % "|".join(GRADLE_MAIN + GRADLE_TEST))  # a version from a platform or constraint
CATALOG_USE = re.compile(r"\b(%s)\s*\(?\s*libs\.([A-Za-z0-9_.\-]+)" % "|".join(GRADLE_MAIN + GRADLE_TEST))
INCLUDE = re.compile(r"\binclude\s*\(?([^\n)]*)")


@dataclass
class MavenModule:
    gav: str
    pom: Path
    folder: Path


@dataclass
class Project:
    """What was found at a project root, before any dependency is resolved."""

    root: Path
    kind: str
    build_files: list[str] = field(default_factory=list)
    classes: list[tuple[str, str]] = field(default_factory=list)  # (class dir or jar, display name)
    src: list[str] = field(default_factory=list)
    modules: list[MavenModule] = field(default_factory=list)
    coords: list[str] = field(default_factory=list)  # Gradle: declared or locked coordinates
    warnings: list[Warning_] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    properties: dict[str, str] = field(default_factory=dict)  # passed to Maven as -D would be (CI versions)


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _child(el, name: str):
    for c in el:
        if _local(c.tag) == name:
            return c
    return None


def _text(el, name: str) -> str:
    c = _child(el, name) if el is not None else None
    return (c.text or "").strip() if c is not None else ""


def _read_pom(pom: Path, warnings: list[Warning_]):
    try:
        size = pom.stat().st_size
        if size > POM_MAX:
            warnings.append(Warning_("POM_TOO_LARGE", f"{pom}: {size:,} bytes, over the {POM_MAX:,}-byte limit; "
                                                      "not read", str(pom)))
            return None
        return ElementTree.fromstring(pom.read_bytes())
    except OSError as exc:
        warnings.append(Warning_("POM_INVALID", f"{pom}: {exc.strerror or exc}", str(pom)))
    except ElementTree.ParseError as exc:
        warnings.append(Warning_("POM_INVALID", f"{pom}: not well-formed XML ({exc})", str(pom)))
    return None


CI_FRIENDLY = ("revision", "sha1", "changelist")  # Maven's version placeholders, set like -Drevision=...


def _properties(root, inherited: dict[str, str]) -> dict[str, str]:
    props = dict(inherited)
    declared = _child(root, "properties")
    for p in declared if declared is not None else ():
        props[_local(p.tag)] = (p.text or "").strip()
    return props


def _gav(root, props: dict[str, str] | None = None) -> str | None:
    parent = _child(root, "parent")
    group = _text(root, "groupId") or _text(parent, "groupId")
    version = _text(root, "version") or _text(parent, "version")
    artifact = _text(root, "artifactId")
    props = props if props is not None else _properties(root, {})
    for _ in range(8):
        m = re.search(r"\$\{([^}]+)\}", version)
        if not m or not props.get(m.group(1)):
            break
        version = version.replace(m.group(0), props[m.group(1)])
    if not (group and artifact and version) or "${" in group + artifact + version:
        return None
    return f"{group}:{artifact}:{version}"


def _sources(folder: Path, tests: bool) -> list[str]:
    sets = ("main", "test") if tests else ("main",)
    return [str(folder / "src" / s / lang) for s in sets for lang in ("java", "kotlin")
            if (folder / "src" / s / lang).is_dir()]


def discover_maven(root: Path, tests: bool) -> Project:
    project = Project(root, "maven")
    seen: set[Path] = set()
    queue: list[tuple[Path, dict[str, str]]] = [(root / "pom.xml", {})]
    while queue and len(seen) < MAX_MODULES:
        listed, inherited = queue.pop(0)
        pom = listed.resolve()
        if pom in seen:
            continue
        seen.add(pom)
        project.build_files.append(str(pom))
        xml = _read_pom(pom, project.warnings)
        folder = pom.parent
        if xml is None:  # the conventional layout still answers
            if (folder / "target" / "classes").is_dir():
                project.classes.append((str(folder / "target" / "classes"), folder.name))
            project.src.extend(_sources(folder, tests))
            continue
        props = _properties(xml, inherited)  # an aggregator is almost always its modules' parent too
        if pom == (root / "pom.xml").resolve():
            project.properties = {k: v for k, v in props.items() if k in CI_FRIENDLY and "${" not in v}
        gav = _gav(xml, props)
        if gav is None:
            project.warnings.append(Warning_("POM_INVALID", f"{pom}: no groupId/artifactId/version (own or "
                                                            "inherited)", str(pom)))
        else:
            project.modules.append(MavenModule(gav, pom, folder))
        name = gav or folder.name
        main = folder / "target" / "classes"
        packaging = _text(xml, "packaging") or "jar"
        if main.is_dir():
            project.classes.append((str(main), name))
        elif packaging != "pom" and (folder / "src" / "main").is_dir():
            project.warnings.append(Warning_(
                "PROJECT_NOT_BUILT", f"{name}: no {main.relative_to(root)}: its own classes are not in the workspace "
                                     "(show, members and usages see its dependencies only) until it is built, e.g. "
                                     "mvn compile", name))
        test_classes = folder / "target" / "test-classes"
        if tests and test_classes.is_dir():
            project.classes.append((str(test_classes), f"{name} (tests)"))
        elif tests and packaging != "pom" and (folder / "src" / "test").is_dir():
            project.warnings.append(Warning_(
                "PROJECT_NOT_BUILT", f"{name}: no {test_classes.relative_to(root)}: its test classes are not in the "
                                     "workspace (--tests answers, such as callers, miss them) until they are "
                                     "compiled, e.g. mvn test-compile", name))
        project.src.extend(_sources(folder, tests))
        modules = _child(xml, "modules")
        for m in modules if modules is not None else ():
            if _local(m.tag) == "module" and m.text and m.text.strip():
                target = folder / m.text.strip()
                queue.append((target / "pom.xml" if target.is_dir() or not target.name.endswith(".xml") else target,
                              props))
    return project


def _gradle_projects(root: Path, warnings: list[Warning_]) -> list[Path]:
    folders = [root]
    for name in ("settings.gradle.kts", "settings.gradle"):
        text = _read_text(root / name, warnings)
        if text is None:
            continue
        for m in INCLUDE.finditer(text):
            for path in re.findall(r"[\"']([^\"']+)[\"']", m.group(1)):
                folders.append(root / path.strip(":").replace(":", "/"))
        break
    return [f for f in dict.fromkeys(folders) if f.is_dir()]


def _read_text(path: Path, warnings: list[Warning_]) -> str | None:
    try:
        if path.stat().st_size > BUILD_FILE_MAX:
            warnings.append(Warning_("BUILD_FILE_TOO_LARGE", f"{path}: over {BUILD_FILE_MAX:,} bytes; not read"))
            return None
        return path.read_text(errors="replace")
    except OSError:
        return None


def _catalog(root: Path, warnings: list[Warning_]) -> dict[str, str]:
    """`libs.<alias>` -> `g:a:v` from gradle/libs.versions.toml (aliases with `-`, `_`, `.` are one name)."""
    path = root / "gradle" / "libs.versions.toml"
    text = _read_text(path, warnings)
    if text is None:
        return {}
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        warnings.append(Warning_("BUILD_FILE_INVALID", f"{path}: {exc}"))
        return {}
    versions = data.get("versions", {}) or {}
    out = {}
    for alias, lib in (data.get("libraries", {}) or {}).items():
        if isinstance(lib, str):
            coord = lib
        elif isinstance(lib, dict):
            module = lib.get("module") or (f"{lib.get('group')}:{lib.get('name')}" if lib.get("group") else "")
            version = lib.get("version")
            if isinstance(version, dict):
                version = versions.get(version.get("ref", ""), "") if "ref" in version else version.get("strictly",
                                                                                                       version.get(
                                                                                                           "require",
                                                                                                           ""))
            coord = f"{module}:{version}" if module and isinstance(version, str) and version else ""
        else:
            coord = ""
        if coord.count(":") == 2:
            out[re.sub(r"[-_]", ".", alias)] = coord
    return out


def discover_gradle(root: Path, tests: bool) -> Project:
    project = Project(root, "gradle")
    folders = _gradle_projects(root, project.warnings)
    catalog = _catalog(root, project.warnings)
    locked: list[str] = []
    declared: list[str] = []
    unversioned: list[str] = []
    for folder in folders:
        for name in ("settings.gradle.kts", "settings.gradle", "build.gradle.kts", "build.gradle",
                     "gradle.lockfile"):
            if (folder / name).is_file():
                project.build_files.append(str(folder / name))
        label = ":" + os.path.relpath(folder, root).replace(os.sep, ":") if folder != root else root.name
        sets = ("main", "test") if tests else ("main",)
        for s in sets:
            for lang in ("java", "kotlin", "groovy", "scala"):
                d = folder / "build" / "classes" / lang / s
                if d.is_dir():
                    project.classes.append((str(d), f"{label} ({lang} {s})"))
        if not any(c[0].startswith(str(folder / "build")) for c in project.classes) and \
                (folder / "src" / "main").is_dir():
            project.warnings.append(Warning_("PROJECT_NOT_BUILT", f"{label}: no build/classes (run the build); its "
                                                                  "sources are still read", label))
        elif tests and (folder / "src" / "test").is_dir() and \
                not any(os.path.isdir(folder / "build" / "classes" / lang / "test")
                        for lang in ("java", "kotlin", "groovy", "scala")):
            project.warnings.append(Warning_("PROJECT_NOT_BUILT", f"{label}: no build/classes/java/test: its test "
                                                                  "classes are not in the workspace (--tests answers, "
                                                                  "such as callers, miss them) until they are "
                                                                  "compiled, e.g. gradle testClasses", label))
        project.src.extend(_sources(folder, tests))
        lock = _read_text(folder / "gradle.lockfile", project.warnings)
        if lock is not None:
            for line in lock.splitlines():
                coord, _eq, confs = line.partition("=")
                if coord.count(":") == 2 and not line.startswith("#"):
                    wanted = any(c.strip().lower().endswith(("runtimeclasspath", "compileclasspath")) and
                                 (tests or not c.strip().startswith("test")) for c in confs.split(","))
                    if wanted:
                        locked.append(coord.strip())
            continue
        for name in ("build.gradle.kts", "build.gradle"):
            text = _read_text(folder / name, project.warnings)
            if text is None:
                continue
            for m in [*DECLARATION.finditer(text), *MAP_DECLARATION.finditer(text)]:
                if m.group(1) in GRADLE_TEST and not tests:
                    continue
                version = m.group(4)
                classifier = m.group(5) if m.re is DECLARATION else None
                coord = f"{m.group(2)}:{m.group(3)}:{version}" + (f":{classifier}" if classifier else "")
                if any(ch in version for ch in "[]()+$"):
                    unversioned.append(coord)
                else:
                    declared.append(coord)
            unversioned.extend(f"{m.group(2)}:{m.group(3)}" for m in VERSIONLESS.finditer(text)
                               if tests or m.group(1) not in GRADLE_TEST)
            for m in CATALOG_USE.finditer(text):
                if m.group(1) in GRADLE_TEST and not tests:
                    continue
                alias = re.sub(r"[-_]", ".", m.group(2))
                if alias in catalog:
                    declared.append(catalog[alias])
                elif not alias.startswith(("plugins.", "versions.", "bundles.")):
                    unversioned.append(f"libs.{m.group(2)}")
    project.coords = list(dict.fromkeys(locked or declared))
    if locked:
        project.notes.append(f"dependencies from gradle.lockfile ({len(project.coords)})")
    elif declared:
        project.notes.append(f"dependencies declared in the build files ({len(project.coords)}), with their "
                             "transitive dependencies")
    if unversioned:
        project.warnings.append(Warning_("GRADLE_DEPENDENCY_UNRESOLVED", f"{len(unversioned)} declaration(s) "
                                         f"without a fixed version were skipped (Gradle is not run): "
                                         f"{', '.join(sorted(set(unversioned))[:20])}"))
    return project


def discover_plain(root: Path, tests: bool) -> Project:
    from jdx.loaders.maven_repo import coordinate_in_jar

    project = Project(root, "plain")
    for sub in ("", "lib", "libs"):
        folder = root / sub
        if folder.is_dir():
            for jar in sorted(folder.glob("*.jar")):
                if jar.is_file() and not jar.name.endswith(("-sources.jar", "-javadoc.jar")):
                    project.classes.append((str(jar), coordinate_in_jar(str(jar)) or jar.name))
    for sub in ("classes", "bin", "out"):
        if (root / sub).is_dir():
            project.classes.append((str(root / sub), sub))
    project.src.extend(_sources(root, tests) or ([str(root / "src")] if (root / "src").is_dir() else []))
    return project


IDEA_URL = re.compile(r"^(?:jar|file)://(.*?)(?:!/.*)?$")


def _idea_path(url: str, project_dir: Path, module_dir: Path) -> Path | None:
    m = IDEA_URL.match(url or "")
    if not m:
        return None
    text = m.group(1).replace("$PROJECT_DIR$", str(project_dir)).replace("$MODULE_DIR$", str(module_dir))
    if "$" in text:  # a path variable of the IDE's own configuration ($MAVEN_REPOSITORY$, …)
        text = text.replace("$USER_HOME$", str(Path.home()))
        if "$" in text:
            return None
    return Path(text)


def _idea_roots(el, project_dir: Path, module_dir: Path, kind: str) -> list[Path]:
    """CLASSES or SOURCES roots under a <library> element."""
    out = []
    for part in el.iter():
        if _local(part.tag) == kind:
            for r in part:
                path = _idea_path(r.get("url", ""), project_dir, module_dir)
                if path is not None:
                    out.append(path)
    return out


def discover_idea(root: Path, tests: bool) -> Project:
    """An IntelliJ project (`.idea/`): project libraries (`.idea/libraries/*.xml`), each module's (`*.iml`)
    module libraries and source folders, and the IDE's output folders `out/production|test/<module>`."""
    from jdx.coords import coordinate_of_path
    from jdx.loaders.maven_repo import coordinate_in_jar

    project = discover_plain(root, tests)
    project.kind = "idea"
    project.classes = [c for c in project.classes if c[0] != str(root / "out")]  # out/ is split per module below
    idea = root / ".idea"
    files = sorted((idea / "libraries").glob("*.xml")) if (idea / "libraries").is_dir() else []
    modules = sorted(root.rglob("*.iml"))[:MAX_MODULES]
    seen = {c[0] for c in project.classes}
    sources: list[str] = []
    for path in [*files, *modules]:
        project.build_files.append(str(path))
        xml = _read_pom(path, project.warnings)
        if xml is None:
            continue
        module_dir = path.parent
        for lib in xml.iter():
            if _local(lib.tag) != "library":
                continue
            for jar in _idea_roots(lib, root, module_dir, "CLASSES"):
                if jar.exists() and str(jar) not in seen:
                    seen.add(str(jar))
                    name = (coordinate_of_path(str(jar)) or coordinate_in_jar(str(jar)) or jar.name) \
                        if jar.is_file() else jar.name
                    project.classes.append((str(jar), name))
        for folder in xml.iter():
            if _local(folder.tag) == "sourceFolder" and (tests or folder.get("isTestSource") != "true"):
                src = _idea_path(folder.get("url", ""), root, module_dir)
                if src is not None and src.is_dir():
                    sources.append(str(src))
    for kind in ("production", "test") if tests else ("production",):
        out = root / "out" / kind
        for module_out in sorted(out.iterdir()) if out.is_dir() else []:
            if module_out.is_dir() and str(module_out) not in seen:
                seen.add(str(module_out))
                project.classes.insert(0, (str(module_out), f"{module_out.name} ({kind})"))
    if sources:
        project.src = list(dict.fromkeys(sources))
    return project


def discover(root: str, kind: str, tests: bool = False) -> Project:
    """The project at `root` (from project_root.find_project_root), without resolving dependencies."""
    path = Path(root)
    if kind == "maven":
        return discover_maven(path, tests)
    if kind == "gradle":
        return discover_gradle(path, tests)
    if kind == "idea":
        return discover_idea(path, tests)
    return discover_plain(path, tests)


def project_classpath(cache: Path, project: Project, tests: bool = False) -> Classpath:
    """The project's classes first, then its resolved dependencies in Maven's classpath order."""
    from jdx.loaders import maven_resolver
    from jdx.loaders.maven_repo import Coordinate, gradle_cache, local_repository

    out = Classpath()
    for path, name in project.classes:
        out.add(path, name)
    out.src.extend(project.src)
    out.warnings.extend(project.warnings)
    build = ", ".join(os.path.relpath(b, project.root) for b in project.build_files[:3]) + \
        (f" and {len(project.build_files) - 3} more" if len(project.build_files) > 3 else "")
    head = f"{project.kind} project at {project.root}" + (f" ({build})" if build else "")
    if project.kind in ("plain", "idea"):
        out.how.append(f"{head}: {len(project.classes)} jar(s)/class dir(s)")
        return out
    repo, repo_how = local_repository()
    scopes = MAIN_SCOPES + (("test",) if tests else ())
    if project.kind == "maven":
        request = maven_resolver.ResolveRequest(
            repo=repo, scopes=scopes,
            modules=tuple((m.gav, str(m.pom), str(m.folder / "target" / "classes")) for m in project.modules),
            projects=tuple(str(m.pom) for m in project.modules),
            properties=tuple(sorted(project.properties.items())))
    else:
        cache_dir, _gradle_how = gradle_cache()
        coords = []
        for c in project.coords:
            try:
                coords.append(Coordinate.parse(c).resolver_form())
            except Exception:  # noqa: BLE001 - a declaration jdx cannot read is reported, not fatal
                out.warnings.append(Warning_("GRADLE_DEPENDENCY_UNRESOLVED", f"{c}: not a coordinate"))
        request = maven_resolver.ResolveRequest(repo=repo, scopes=scopes, coords=tuple(coords),
                                                gradle=(str(cache_dir),) if cache_dir.is_dir() else ())
        if not coords:
            out.how.append(f"{head}: no dependency declarations found")
            return out
    try:
        resolution = maven_resolver.resolve(cache, request)
    except EnvironmentMissing as exc:
        out.warnings.append(Warning_("MAVEN_RESOLVER_UNAVAILABLE", f"{exc}; the project's own classes and sources "
                                                                     "only, no dependencies"))
        out.how.append(f"{head}; dependencies not resolved (no Maven resolver)")
        return out
    add_resolution(out, resolution)
    where = f"{repo} ({repo_how})" + (f" and the Gradle cache {request.gradle[0]}" if request.gradle else "")
    out.how.append(f"{head}; {'; '.join(project.notes) + '; ' if project.notes else ''}"
                   f"{len(resolution.dependencies)} dependencies by {resolution.resolver} over {where}"
                   + (", cached" if resolution.cached else ""))
    return out
