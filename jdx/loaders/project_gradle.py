"""Gradle projects, by their layout only (Gradle is never run; spec §13 step 4): `settings.gradle(.kts)` includes,
each project's `build/classes/{java,kotlin}/main`, its sources; dependencies from `gradle.lockfile` when present (as
they are), else the `group:artifact:version` declarations of the build files (comments stripped, simple `$v`
resolved) and the `gradle/libs.versions.toml` catalog (bundles too), resolved with their transitive dependencies from
the Gradle cache and the local Maven repository, the highest requested version of each module winning."""

from __future__ import annotations

import os
import re
import tomllib
from pathlib import Path

from jdx.errors import Warning_
from jdx.loaders.project import BUILD_FILE_MAX, Project, _sources

GRADLE_MAIN = ("implementation", "api", "compileOnly", "runtimeOnly", "compile", "runtime", "compileOnlyApi",
               "providedCompile", "providedRuntime", "kapt", "annotationProcessor")
GRADLE_TEST = ("testImplementation", "testCompileOnly", "testRuntimeOnly", "testCompile", "testRuntime")
DECLARATION = re.compile(r"\b(%s)\s*\(?\s*[\"']([A-Za-z0-9_.\-${}]+):([A-Za-z0-9_.\-${}]+):([A-Za-z0-9_.\-+\[\]()${}]+)"
                         r"(?::([A-Za-z0-9_.\-]+))?(?:@[a-z]+)?[\"']" % "|".join(GRADLE_MAIN + GRADLE_TEST))
MAP_DECLARATION = re.compile(r"\b(%s)\s*\(?\s*group\s*[:=]\s*[\"']([^\"']+)[\"']\s*,\s*name\s*[:=]\s*"
                             r"[\"']([^\"']+)[\"']\s*,\s*version\s*[:=]\s*[\"']([^\"']+)[\"']"
                             % "|".join(GRADLE_MAIN + GRADLE_TEST))
VERSIONLESS = re.compile(r"\b(%s)\s*\(?\s*[\"']([A-Za-z0-9_.\-]+):([A-Za-z0-9_.\-]+)[\"']"
                         % "|".join(GRADLE_MAIN + GRADLE_TEST))  # a version from a platform or constraint
COMMENT_OR_STRING = re.compile(r'"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|'
                               r'(//[^\n]*|/\*[\s\S]*?\*/)')
ASSIGNMENTS = (  # a name given a plain string: ext.x = '1', def x = '1', val x = "1", ext { x = '1' }, extra["x"] = …
    re.compile(r"\b([A-Za-z_][A-Za-z0-9_]*)\s*=\s*[\"']([^\"'$\n]*)[\"']"),
    re.compile(r"\bextra\[\s*[\"']([A-Za-z_][A-Za-z0-9_.]*)[\"']\s*\]\s*=\s*[\"']([^\"'$\n]*)[\"']"),
    re.compile(r"\bset\(\s*[\"']([A-Za-z_][A-Za-z0-9_.]*)[\"']\s*,\s*[\"']([^\"'$\n]*)[\"']\s*\)"),
    re.compile(r"\bval\s+([A-Za-z_][A-Za-z0-9_]*)\s+by\s+extra\(\s*[\"']([^\"'$\n]*)[\"']\s*\)"),
)
INTERPOLATION = re.compile(r"\$\{\s*([^}]+?)\s*\}|\$([A-Za-z_][A-Za-z0-9_]*)")
CATALOG_USE = re.compile(r"\b(%s)\s*\(?\s*libs\.([A-Za-z0-9_.\-]+)" % "|".join(GRADLE_MAIN + GRADLE_TEST))
INCLUDE = re.compile(r"\binclude\s*\(?([^\n)]*)")


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


def _catalog(root: Path, warnings: list[Warning_]) -> dict[str, str | list[str]]:
    """`libs.<alias>` -> `g:a:v` from gradle/libs.versions.toml (aliases with `-`, `_`, `.` are one name), and
    `libs.bundles.<name>` -> its libraries' `g:a:v` (`libs.<alias>` for one without a fixed version)."""
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
    for name, members in (data.get("bundles", {}) or {}).items():  # libs.bundles.<name>: several libraries
        if isinstance(members, list):
            out["bundles." + re.sub(r"[-_]", ".", name)] = [
                out.get(re.sub(r"[-_]", ".", str(m)), f"libs.{m}") for m in members]
    return out


def strip_comments(text: str) -> str:
    """Build-file text without `//` and `/* */` comments (strings, which may hold `//`, are kept)."""
    return COMMENT_OR_STRING.sub(lambda m: "\n" * m.group(1).count("\n") if m.group(1) else m.group(0), text)


def build_variables(text: str) -> dict[str, str]:
    """Names a build file gives a plain string (`ext.v = '1'`, `def v = '1'`, `val v = "1"`, `extra["v"] = "1"`)."""
    out: dict[str, str] = {}
    for pattern in ASSIGNMENTS:
        for m in pattern.finditer(text):
            out.setdefault(m.group(1), m.group(2))
    return out


def _gradle_properties(folder: Path) -> dict[str, str]:
    text = _read_text(folder / "gradle.properties", [])
    out = {}
    for line in (text or "").splitlines():
        line = line.strip()
        m = re.match(r"([^=:\s#!]+)\s*[=:]\s*(.*)$", line)
        if m:
            out[m.group(1)] = m.group(2).strip()
    return out


def interpolate(text: str, names: dict[str, str]) -> str | None:
    """`$v` and `${v}` (also `${project.v}`, `${rootProject.ext.v}`) replaced from `names`; None when one is not
    a plain string jdx can see (Gradle is not run)."""
    missing = False

    def value(m):
        nonlocal missing
        name = m.group(1) or m.group(2)
        for key in (name, name.rsplit(".", 1)[-1]):
            if key in names:
                return names[key]
        missing = True
        return m.group(0)

    out = INTERPOLATION.sub(value, text)
    return None if missing else out


def _declarations(text: str, tests: bool, names: dict[str, str], catalog: dict, declared: list[str],
                  unversioned: list[str]) -> None:
    """The dependency declarations of one build file (comments already stripped), in the order they are written."""
    found = []
    for m in [*DECLARATION.finditer(text), *MAP_DECLARATION.finditer(text)]:
        if m.group(1) in GRADLE_TEST and not tests:
            continue
        classifier = m.group(5) if m.re is DECLARATION else None
        written = f"{m.group(2)}:{m.group(3)}:{m.group(4)}" + (f":{classifier}" if classifier else "")
        coord = interpolate(written, names)
        if coord is None:
            found.append((m.start(), None, f"{m.group(1)} \"{written}\" (a variable jdx cannot read)"))
        elif any(ch in coord.split(":")[2] for ch in "[]()+$"):
            found.append((m.start(), None, f"{coord} (a dynamic version)"))
        else:
            found.append((m.start(), coord, ""))
    for m in VERSIONLESS.finditer(text):
        if tests or m.group(1) not in GRADLE_TEST:
            found.append((m.start(), None, f"{m.group(2)}:{m.group(3)}"))
    for m in CATALOG_USE.finditer(text):
        if m.group(1) in GRADLE_TEST and not tests:
            continue
        alias = re.sub(r"[-_]", ".", m.group(2))
        entry = catalog.get(alias)
        if isinstance(entry, list):
            for member in entry:
                found.append((m.start(), None, f"{member} (in libs.{m.group(2)})") if member.startswith("libs.")
                             else (m.start(), member, ""))
        elif entry:
            found.append((m.start(), entry, ""))
        elif not alias.startswith(("plugins.", "versions.")):
            found.append((m.start(), None, f"libs.{m.group(2)}"))
    for _pos, coord, why in sorted(found, key=lambda f: f[0]):
        if coord:
            declared.append(coord)
        else:
            unversioned.append(why)


def discover_gradle(root: Path, tests: bool) -> Project:
    project = Project(root, "gradle")
    folders = _gradle_projects(root, project.warnings)
    catalog = _catalog(root, project.warnings)
    variables = _gradle_properties(root)  # the root's ext and gradle.properties are every subproject's too
    for name in ("build.gradle.kts", "build.gradle"):
        text = _read_text(root / name, [])
        if text is not None:
            variables.update(build_variables(strip_comments(text)))
    locked: list[str] = []
    declared: list[str] = []
    unversioned: list[str] = []
    for folder in folders:
        for name in ("settings.gradle.kts", "settings.gradle", "build.gradle.kts", "build.gradle",
                     "gradle.lockfile"):
            if (folder / name).is_file():
                project.build_files.append(str(folder / name))
        label = ":" + os.path.relpath(folder, root).replace(os.sep, ":") if folder != root else root.name
        sets = ("test", "main") if tests else ("main",)  # test output first, as on Gradle's test runtime classpath
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
            project.warnings.append(Warning_("PROJECT_NOT_BUILT", f"{label}: no build/classes/<language>/test: "
                                                                  "its test classes are not in the workspace (--tests "
                                                                  "answers, such as callers, miss them) until they "
                                                                  "are compiled, e.g. gradle testClasses", label))
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
            text = strip_comments(text)
            names = {**variables, **_gradle_properties(folder), **build_variables(text)}
            _declarations(text, tests, names, catalog, declared, unversioned)
    project.coords = list(dict.fromkeys(locked or declared))
    project.locked = bool(locked)
    if locked:
        project.notes.append(f"dependencies from gradle.lockfile ({len(project.coords)})")
    elif declared:
        project.notes.append(f"dependencies declared in the build files ({len(project.coords)}), with their "
                             "transitive dependencies")
    if unversioned:
        shown = list(dict.fromkeys(unversioned))
        project.warnings.append(Warning_("GRADLE_DEPENDENCY_UNRESOLVED", f"{len(shown)} declaration(s) without a "
                                         f"version jdx can read were skipped (Gradle is not run): "
                                         f"{', '.join(shown[:20])}" + (f" and {len(shown) - 20} more"
                                                                      if len(shown) > 20 else "")))
    return project
