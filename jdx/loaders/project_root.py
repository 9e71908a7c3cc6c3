"""Where the project around a directory starts (spec §13 step 4): the walk up from the current directory.

Standard library only and a few stat calls: the daemon client keys its daemon by this root, so it runs on
every one-shot command that names no workspace.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

GRADLE_SETTINGS = ("settings.gradle.kts", "settings.gradle")
GRADLE_BUILD = ("build.gradle.kts", "build.gradle")
MARKERS = (*GRADLE_SETTINGS, *GRADLE_BUILD, "pom.xml", ".idea")
MAX_DEPTH = 40
POM_PEEK = 1 << 20  # how much of a parent pom.xml (or a settings.gradle) is read
COMMENT_OR_STRING = re.compile(r'"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|'
                               r'(//[^\n]*|/\*[\s\S]*?\*/)')
# `include ':a', 'b:c'`, `include(":a",\n ":b",\n)`: every string of the call, across lines (not includeBuild)
INCLUDE = re.compile(r"\binclude\b\s*\(?\s*((?:(?:\"[^\"\n]*\"|'[^'\n]*')\s*,?\s*)+)")
PROJECT_DIR = re.compile(r"\bproject\(\s*[\"']([^\"']+)[\"']\s*\)\s*\.\s*projectDir\s*=\s*([^\n;]*)")
PROJECT_DIR_VALUE = re.compile(r"(?:file|File)\(\s*[\"']([^\"'$]+)[\"']\s*\)|new\s+File\(\s*(?:settingsDir|rootDir|"
                               r"rootProject\.projectDir)\s*,\s*[\"']([^\"'$]+)[\"']\s*\)")


def strip_comments(text: str) -> str:
    """Build-file text without `//` and `/* */` comments (strings, which may hold `//`, are kept)."""
    return COMMENT_OR_STRING.sub(lambda m: "\n" * m.group(1).count("\n") if m.group(1) else m.group(0), text)


def gradle_settings(root: Path) -> tuple[list[Path], list[str]] | None:
    """The directories of the projects a settings file at `root` includes, in order (a nested `a:b` includes `a`
    too, as Gradle does; `project(':x').projectDir = file('dir')` followed), and the projectDir statements jdx
    cannot read; None when `root` has no settings file."""
    for name in GRADLE_SETTINGS:
        try:
            with open(root / name, "rb") as f:
                text = strip_comments(f.read(POM_PEEK).decode("utf-8", "replace"))
        except OSError:
            continue
        paths: list[str] = []
        for m in INCLUDE.finditer(text):
            for written in re.findall(r"\"([^\"\n]*)\"|'([^'\n]*)'", m.group(1)):
                parts = [p for p in "".join(written).split(":") if p]
                paths.extend(":".join(parts[:i + 1]) for i in range(len(parts)))
        moved, unread = {}, []
        for m in PROJECT_DIR.finditer(text):
            value = PROJECT_DIR_VALUE.match(m.group(2).strip())
            if value:
                moved[":".join(p for p in m.group(1).split(":") if p)] = value.group(1) or value.group(2)
            else:
                unread.append(m.group(0).strip())
        return [root / moved.get(p, p.replace(":", "/")) for p in dict.fromkeys(paths)], unread
    return None


def _including_build(folder: Path, home: Path) -> Path | None:
    """The nearest directory above `folder` (across directories with no build file) whose settings file includes
    it: a Gradle subproject (`services/api` of `include 'services:api'`) belongs to that build."""
    above = folder.parent
    for _ in range(MAX_DEPTH):
        if above == above.parent:
            return None
        if any((above / s).exists() for s in GRADLE_SETTINGS):
            found = gradle_settings(above)
            return above if found and any(os.path.abspath(d) == str(folder) for d in found[0]) else None
        if above == home:
            return None
        above = above.parent
    return None


def _is_marked(folder: Path) -> bool:
    return any((folder / m).exists() for m in MARKERS)


def _lists_module(parent_pom: Path, child: Path) -> bool:
    """Whether a parent pom.xml names `child` (relative to it) in a <module> element."""
    try:
        with open(parent_pom, "rb") as f:
            text = f.read(POM_PEEK).decode("utf-8", "replace")
    except OSError:
        return False
    rel = os.path.relpath(child, parent_pom.parent).replace(os.sep, "/")
    for m in re.finditer(r"<module>\s*([^<]+?)\s*</module>", text):
        if os.path.normpath(m.group(1).strip().rstrip("/")).replace(os.sep, "/") == rel:
            return True
    return False


def _has_plain_roots(folder: Path) -> bool:
    """A directory holding jars or class files at its top, or in lib/, libs/, classes/, target/classes/ (no build
    file)."""
    for sub in ("", "lib", "libs"):
        try:
            with os.scandir(folder / sub) as it:
                if any(e.name.endswith(".jar") and e.is_file() for e in it):
                    return True
        except OSError:
            continue
    return (folder / "classes").is_dir() or (folder / "target" / "classes").is_dir()


def find_project_root(start: str | os.PathLike) -> tuple[str, str] | None:
    """(root, kind) of the project containing `start`: kind is `gradle`, `maven`, `idea` or `plain`; None when
    no build file is found walking up and `start` holds no jars or classes. For Maven, root is the module holding
    `start` (its classpath is its own; discovery finds the reactor around it). A `start` that does not exist is a
    usage error naming it (a mistyped --project never falls back to the JDK alone)."""
    here = Path(os.path.abspath(start))
    if here.is_file():  # a build file named directly (--project app/pom.xml)
        here = here.parent
    elif not here.is_dir():
        from jdx.errors import UsageError

        raise UsageError(f"no such project directory: {start} (give --project the project's directory, or one "
                         "inside it)")
    home = Path.home()
    nearest = None
    folder = here
    for _ in range(MAX_DEPTH):
        if _is_marked(folder):
            nearest = folder
            break
        if folder.parent == folder or folder == home:
            break
        folder = folder.parent
    if nearest is None:
        return (str(here), "plain") if _has_plain_roots(here) else None
    # climb to the build's root: a Gradle settings file above, or a parent POM listing this one as a module
    root = nearest
    folder = nearest
    for _ in range(MAX_DEPTH):
        parent = folder.parent
        if parent == folder or folder == home:
            break
        gradle_root = any((parent / s).exists() for s in GRADLE_SETTINGS)
        maven_parent = (parent / "pom.xml").is_file() and (folder / "pom.xml").is_file() and \
            _lists_module(parent / "pom.xml", folder)
        if gradle_root or maven_parent:
            root = parent
        elif not _is_marked(parent):
            if not any((folder / b).exists() for b in GRADLE_BUILD) or any(
                    (folder / s).exists() for s in GRADLE_SETTINGS):
                break
            above = _including_build(folder, home)
            if above is None:
                break
            root = parent = above
        folder = parent
    if any((root / s).exists() for s in (*GRADLE_SETTINGS, *GRADLE_BUILD)):
        kind = "gradle"
    elif (root / "pom.xml").is_file():
        kind = "maven"
        if (nearest / "pom.xml").is_file():  # a module has its own classpath (project.discover_maven)
            return str(nearest), kind
    else:
        kind = "idea"
    return str(root), kind
