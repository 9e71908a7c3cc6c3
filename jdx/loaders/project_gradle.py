"""Gradle projects, by their layout only (Gradle is never run; spec §13 step 4): `settings.gradle(.kts)` includes,
each project's `build/classes/{java,kotlin}/main`, its sources; dependencies per project from its `gradle.lockfile`
when present (as they are), else the compile-classpath declarations of its build file (gradle_build.py), resolved
with their transitive dependencies from the Gradle cache and the local Maven repository, the highest requested
version of each module winning (a declaration without a version takes it from the project's or the root's
`platform(...)` BOMs); local `files(...)`/`fileTree(...)` jars read as they lie."""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path
from xml.sax.saxutils import escape

from jdx.errors import Warning_
from jdx.loaders.gradle_build import build_variables, catalog, declarations, gradle_properties, read_text
from jdx.loaders.project import Project, _sources
from jdx.loaders.project_root import gradle_settings, strip_comments

LANGUAGES = ("java", "kotlin", "groovy", "scala")
FILE_TREE_DIR = re.compile(r"^\s*[\"']([^\"'$]+)[\"']|(?:\bdir\s*:|[\"']dir[\"']\s+to)\s*[\"']([^\"'$]+)[\"']")
FILE_TREE_PATTERNS = re.compile(r"(?:\b(include|exclude)s?\s*:|[\"'](include|exclude)s?[\"']\s+to)\s*"
                                r"(?:\[|(?:list|set)Of\s*\()?\s*((?:[\"'][^\"'\n]*[\"']\s*,?\s*)+)")
PLATFORM_GAV = "jdx.gradle:platforms:0"  # the POM importing a project's platforms, read by Maven's resolver
UNMANAGED = re.compile(r"'dependencies\.dependency\.version' for ([^:\s]+:[^:\s]+):")  # Maven names one no BOM has


def _gradle_projects(root: Path, warnings: list[Warning_]) -> list[Path]:
    """The root and the projects its settings file includes (those whose directory exists)."""
    found = gradle_settings(root)
    folders, unread = found if found else ([], [])
    if unread:
        warnings.append(Warning_("GRADLE_RULE_IGNORED", f"settings: {'; '.join(unread[:5])}: a projectDir jdx cannot "
                                 "read (not a plain file('dir')); that project is looked for at its default directory"))
    return [f for f in dict.fromkeys([root, *folders]) if f.is_dir()]


def _file_jars(folder: Path, kind: str, args: str) -> tuple[list[Path], str | None]:
    """The jars of `files('a.jar', …)` or `fileTree(dir: 'libs', include: ['*.jar'])` / `fileTree("libs")` (paths
    relative to the project), or why jdx cannot list them (not plain literals)."""
    if kind == "files":
        paths = re.findall(r"\"([^\"$\n]*)\"|'([^'$\n]*)'", args)
        rest = re.sub(r"\"[^\"$\n]*\"|'[^'$\n]*'|[\s,]", "", args)
        if rest or not paths:
            return [], "not plain paths"
        return [Path(os.path.normpath(folder / "".join(p))) for p in paths], None
    where = FILE_TREE_DIR.search(args)
    if where is None:
        return [], "no plain dir"
    base = Path(os.path.normpath(folder / (where.group(1) or where.group(2))))
    patterns = {"include": [], "exclude": []}
    for m in FILE_TREE_PATTERNS.finditer(args):
        patterns[m.group(1) or m.group(2)].extend("".join(p) for p in re.findall(r"\"([^\"\n]*)\"|'([^'\n]*)'",
                                                                                  m.group(3)))
    jars = [j for j in sorted(base.rglob("*.jar")) if j.is_file()] if base.is_dir() else []
    return [j for j in jars if _ant_match(j.relative_to(base), patterns["include"] or ["**"])
            and not _ant_match(j.relative_to(base), patterns["exclude"])], None


def _ant_match(path: Path, patterns: list[str]) -> bool:
    """Whether a relative path matches one of Gradle's Ant-style patterns (`*.jar`, `**/*.jar`, `lib/**`)."""
    rel = path.as_posix()
    for pattern in patterns:
        regex = re.escape(pattern.strip("/")).replace(r"\*\*/", "(?:.*/)?").replace(r"\*\*", ".*") \
            .replace(r"\*", "[^/]*").replace(r"\?", "[^/]")
        if re.fullmatch(regex, rel):
            return True
    return False


def discover_gradle(root: Path, tests: bool) -> Project:
    project = Project(root, "gradle")
    folders = _gradle_projects(root, project.warnings)
    catalog_ = catalog(root, project.warnings)
    variables = gradle_properties(root)  # the root's ext and gradle.properties are every subproject's too
    for name in ("build.gradle.kts", "build.gradle"):
        text = read_text(root / name, [])
        if text is not None:
            variables.update(build_variables(strip_comments(text)))
    declared: list[str] = []
    unresolved: list[str] = []
    ignored: list[str] = []
    other = 0
    jars: list[tuple[str, str]] = []
    root_platforms: list[str] = []  # the root's platform(...) BOMs (often in `subprojects {}`): every project's
    for folder in folders:
        label = ":" + os.path.relpath(folder, root).replace(os.sep, ":") if folder != root else root.name
        _layout(project, folder, label, tests)
        locked = _lockfile(folder, tests, project.warnings)  # a project's lockfile is its resolved set, alone
        project.locked.extend(locked or [])
        platforms: list[str] = []
        versionless: dict[str, str] = {}
        for name in ("build.gradle.kts", "build.gradle"):
            text = read_text(folder / name, project.warnings)
            if text is None:
                continue
            text = strip_comments(text)
            found = declarations(text, tests, {**variables, **gradle_properties(folder), **build_variables(text)},
                                 catalog_)
            platforms.extend(found.platforms)
            if locked is None:
                declared.extend(found.coords)
                versionless = {**found.versionless, **versionless}
                unresolved.extend(found.unresolved)
                ignored.extend(f"{label}: {r}" for r in found.ignored)
            other += found.other
            for kind, args in found.files:  # file dependencies are never in a lockfile
                jars.extend(_files(folder, label, kind, args, unresolved, project.warnings))
        root_platforms = root_platforms or (platforms if folder == root else [])
        _versionless(project, label, list(dict.fromkeys(platforms + root_platforms)), versionless, unresolved)
    project.classes.extend(dict.fromkeys(jars))
    project.locked = list(dict.fromkeys(project.locked))
    # the unlocked projects' declarations are resolved even when another project locks the same coordinate (that
    # lock is its own resolved set: it says nothing of this declaration's transitive dependencies)
    project.declared = list(dict.fromkeys(declared))
    project.coords = list(dict.fromkeys(project.locked + declared))
    _notes(project, len(project.declared) + sum(len(m[2]) for m in project.managed), other, tests)
    _warn(project, unresolved, ignored)
    return project


def _versionless(project: Project, label: str, platforms: list[str], versionless: dict[str, str],
                 unresolved: list[str]) -> None:
    """A project's declarations without a version (`g:a` -> as written): given theirs by its platforms later
    (platform_versions), or named with why none is known."""
    if versionless and platforms:
        project.managed.append((label, platforms, list(versionless)))
    else:
        unresolved.extend(f"{w if w == m else f'{w} = {m}'} (no version, and no platform(...) of {label} gives one; "
                          "jdx applies no constraints {} block or plugin that may)" for m, w in versionless.items())


def platform_versions(cache: Path, project: Project, repo: Path, scopes: tuple[str, ...],
                      gradle: tuple[str, ...]) -> tuple[list[str], list[str]]:
    """The versions each project's platforms (BOMs) give its declarations without one: (`g:a:v` of the declarations
    given one, the others with why)."""
    found, skipped = [], []
    for label, boms, modules in project.managed:
        versions, why = _managed_versions(cache, (repo, scopes, gradle), boms, modules)
        platforms = ", ".join(boms) + f" of {label}"
        for m in modules:
            if versions.get(m):
                found.append(f"{m}:{versions[m]}")
            else:
                skipped.append(f"{m} (no version: {why.format(platforms)})")
    return found, skipped


def _managed_versions(cache: Path, where: tuple, boms: list[str], modules: list[str]) -> tuple[dict[str, str], str]:
    """`g:a` -> the version `boms` give it, read by Maven's resolver from a POM importing them (their parents,
    properties and own imports by Maven's rules); the modules they do not manage are left out and asked again
    without them (Maven names them); with why the others have none (`{}`: the platforms)."""
    from jdx.errors import EnvironmentMissing
    from jdx.loaders import maven_resolver

    repo, scopes, gradle = where
    asked = modules
    while True:
        pom = str(_platform_pom(cache, boms, asked))
        request = maven_resolver.ResolveRequest(repo=repo, scopes=scopes, gradle=gradle, projects=(pom,),
                                                modules=((PLATFORM_GAV, pom, ""),))
        try:
            resolution = maven_resolver.resolve(cache, request)
        except EnvironmentMissing:
            return {}, "Maven's resolver, which reads the platform {}, is not installed"
        unmanaged = set(UNMANAGED.findall(" ".join(e.message for e in resolution.errors)))
        rest = [m for m in asked if m not in unmanaged]
        if not unmanaged or not rest or len(rest) == len(asked):
            break
        asked = rest
    if resolution.errors and not unmanaged:
        return {}, "the platform {} that would give one is not in the local repository or the Gradle cache"
    versions = {":".join(c.split(":")[:2]): c.rsplit(":", 1)[-1] for c in resolution.missing}
    versions.update((d.module, d.version) for d in resolution.by_module.get(PLATFORM_GAV, []))
    return ({} if resolution.errors else versions), "the platform {} does not manage it"


def _platform_pom(cache: Path, boms: list[str], modules: list[str]) -> Path:
    """A POM importing `boms` and depending on `modules` without versions, under the cache (named by its text)."""
    def dependency(coord: str, extra: str = "") -> str:
        g, a, *v = (escape(p) for p in coord.split(":"))
        return (f"<dependency><groupId>{g}</groupId><artifactId>{a}</artifactId>"
                + (f"<version>{v[0]}</version>" if v else "") + f"{extra}</dependency>")

    group, artifact, version = PLATFORM_GAV.split(":")
    text = (f'<?xml version="1.0"?>\n<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0'
            f"</modelVersion><groupId>{group}</groupId><artifactId>{artifact}</artifactId><version>{version}"
            "</version><packaging>pom</packaging><dependencyManagement><dependencies>"
            + "".join(dependency(b, "<type>pom</type><scope>import</scope>") for b in boms)
            + "</dependencies></dependencyManagement><dependencies>" + "".join(dependency(m) for m in modules)
            + "</dependencies></project>\n")
    pom = cache / "gradle-platforms" / f"{hashlib.sha256(text.encode()).hexdigest()[:24]}.pom"
    if not pom.is_file():
        pom.parent.mkdir(parents=True, exist_ok=True)
        tmp = pom.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(text)
        os.replace(tmp, pom)
    return pom


def _layout(project: Project, folder: Path, label: str, tests: bool) -> None:
    """One project's build files, class directories (test output first, as on Gradle's test classpath), sources."""
    for name in ("settings.gradle.kts", "settings.gradle", "build.gradle.kts", "build.gradle", "gradle.lockfile"):
        if (folder / name).is_file():
            project.build_files.append(str(folder / name))
    for s in ("test", "main") if tests else ("main",):
        for lang in LANGUAGES:
            d = folder / "build" / "classes" / lang / s
            if d.is_dir():
                project.classes.append((str(d), f"{label} ({lang} {s})"))
    if not any(c[0].startswith(str(folder / "build")) for c in project.classes) and \
            (folder / "src" / "main").is_dir():
        project.warnings.append(Warning_("PROJECT_NOT_BUILT", f"{label}: no build/classes (run the build); its "
                                                              "sources are still read", label))
    elif tests and (folder / "src" / "test").is_dir() and \
            not any(os.path.isdir(folder / "build" / "classes" / lang / "test") for lang in LANGUAGES):
        project.warnings.append(Warning_("PROJECT_NOT_BUILT", f"{label}: no build/classes/<language>/test: "
                                                              "its test classes are not in the workspace (--tests "
                                                              "answers, such as callers, miss them) until they "
                                                              "are compiled, e.g. gradle testClasses", label))
    project.src.extend(_sources(folder, tests))


def _lockfile(folder: Path, tests: bool, warnings: list[Warning_]) -> list[str] | None:
    """The coordinates a project's gradle.lockfile locks on its compile classpath (and test compile classpath with
    --tests), or None when it has none."""
    lock = read_text(folder / "gradle.lockfile", warnings)
    if lock is None:
        return None
    out = []
    for line in lock.splitlines():
        coord, _eq, confs = line.partition("=")
        if coord.count(":") == 2 and not line.startswith("#") and any(_compile_classpath(c, tests)
                                                                       for c in confs.split(",")):
            out.append(coord.strip())
    return out


def _compile_classpath(configuration: str, tests: bool) -> bool:
    """compileClasspath (`debugCompileClasspath` too), with --tests the test one too (the main classes stay in the
    workspace beside the tests)."""
    name = configuration.strip().lower()
    return name.endswith("compileclasspath") and (tests or "test" not in name)


def _files(folder: Path, label: str, kind: str, args: str, unresolved: list[str],
           warnings: list[Warning_]) -> list[tuple[str, str]]:
    """The jars of one files()/fileTree() declaration, each named by its coordinate or file name."""
    from jdx.loaders.maven_repo import coordinate_in_jar

    jars, why = _file_jars(folder, kind, args)
    written = f"{label}: {kind}({' '.join(args.split())[:80]})"
    if why:
        unresolved.append(f"{written} ({why})")
        return []
    absent = [j for j in jars if not j.is_file()]
    if absent or not jars:
        warnings.append(Warning_("ARTIFACT_MISSING", f"{written}: " + (f"{', '.join(map(str, absent[:5]))} not "
                                 "found" if absent else "matches no jar") + "; not in the workspace", written))
    return [(str(j), coordinate_in_jar(str(j)) or j.name) for j in jars if j.is_file()]


def _notes(project: Project, declared: int, other: int, tests: bool) -> None:
    if project.locked:
        project.notes.append(f"dependencies from gradle.lockfile ({len(project.locked)})")
    if declared:
        project.notes.append(f"dependencies declared in the build files ({declared}), with their transitive "
                             "dependencies")
    project.notes.append(f"Gradle's {'test ' if tests else ''}compile classpath" + (
        f" ({other} runtimeOnly or annotation-processor declaration(s) are not on it)" if other else ""))


def _warn(project: Project, unresolved: list[str], ignored: list[str]) -> None:
    if unresolved:
        shown = list(dict.fromkeys(unresolved))
        project.warnings.append(Warning_("GRADLE_DEPENDENCY_UNRESOLVED", f"{len(shown)} declaration(s) jdx cannot "
                                         f"read were skipped (Gradle is not run): "
                                         f"{', '.join(shown[:20])}" + (f" and {len(shown) - 20} more"
                                                                      if len(shown) > 20 else "")))
    if ignored:
        shown = list(dict.fromkeys(ignored))
        project.warnings.append(Warning_("GRADLE_RULE_IGNORED", f"{len(shown)} rule(s) of the build jdx does not "
                                         f"apply (Gradle is not run), so the classpath may hold more or other "
                                         f"versions than Gradle's: {'; '.join(shown[:10])}"
                                         + (f" and {len(shown) - 10} more" if len(shown) > 10 else "")))
