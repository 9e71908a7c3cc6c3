"""Workspaces (spec §5.3, §13): named, ordered roots stored as TOML; resolution of which one a command uses."""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from jdx.dirs import config_dir
from jdx.errors import NoIndexError, UsageError

NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")


@dataclass
class WorkspaceSpec:
    name: str
    # binary roots in classpath order (earlier ones shadow later ones): absolute paths, globs or directories, and
    # Maven coordinates (`g:a:v`), each resolved with its runtime dependencies where it stands
    roots: list[str] = field(default_factory=list)
    src: list[str] = field(default_factory=list)
    jdk: bool = True
    project: str = ""  # a project root discovered again on every use (spec §13 auto-discovery)
    tests: bool = False  # the project's test classes and test-scoped dependencies too
    all_versions: bool = False  # a Maven repository root among the jars gives every version, not the newest

    @property
    def jars(self) -> list[str]:
        return [r for r in self.roots if not is_coordinate(r)]

    @property
    def coords(self) -> list[str]:
        return [r for r in self.roots if is_coordinate(r)]

    def to_toml(self) -> str:
        def arr(values: list[str]) -> str:
            return "[" + ", ".join(_toml_str(v) for v in values) + "]"

        return (
            f"# jdx workspace: earlier roots shadow later ones, like a JVM classpath (paths and g:a:v coordinates)\n"
            f"name = {_toml_str(self.name)}\n"
            f"roots = {arr(self.roots)}\n"
            f"src = {arr(self.src)}\n"
            f"jdk = {'true' if self.jdk else 'false'}\n"
            + (f"project = {_toml_str(self.project)}\n" if self.project else "")
            + ("tests = true\n" if self.tests else "")
            + ("all_versions = true\n" if self.all_versions else "")
        )

    def to_json(self) -> dict:
        data = {"name": self.name, "roots": self.roots, "jars": self.jars, "src": self.src, "jdk": self.jdk}
        if self.coords:
            data["coords"] = self.coords
        if self.project:
            data["project"] = self.project
            data["tests"] = self.tests
        if self.all_versions:
            data["all_versions"] = True
        return data


def is_coordinate(root: str) -> bool:
    """Whether a stored root is a Maven coordinate (`g:a:v[:cls]`), not a path: paths are stored absolute, and a
    coordinate has no path separator."""
    return ":" in root and "/" not in root and os.sep not in root and not os.path.isabs(root)


def _toml_str(value: str) -> str:
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    escaped = "".join(ch if ch >= " " else f"\\u{ord(ch):04x}" for ch in escaped)
    return f'"{escaped}"'


def workspaces_dir() -> Path:
    return config_dir() / "workspaces"


def _check_name(name: str) -> None:
    if not NAME.match(name or ""):
        raise UsageError(f"bad workspace name {name!r}: use letters, digits, '.', '_' or '-' (max 64)")


def load_workspace(name: str) -> WorkspaceSpec:
    _check_name(name)
    path = workspaces_dir() / f"{name}.toml"
    try:
        data = tomllib.loads(path.read_text())
    except FileNotFoundError:
        known = ", ".join(list_workspaces()) or "none"
        raise NoIndexError(f"no workspace named {name!r} (known: {known}); create it with: jdx ws create {name} --jars ...")
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise UsageError(f"{path}: unreadable workspace file: {exc}") from exc
    # `roots` in classpath order; a file written before it holds `jars` then `coords`, read in that order
    lists = {k: data.get(k, []) for k in ("roots", "jars", "coords", "src")}
    if not all(isinstance(v, list) for v in lists.values()):
        raise UsageError(f"{path}: 'roots', 'jars', 'src' and 'coords' must be lists of strings")
    roots = lists["roots"] if "roots" in data else lists["jars"] + lists["coords"]
    return WorkspaceSpec(name=name, roots=[str(r) for r in roots], src=[str(s) for s in lists["src"]],
                         jdk=bool(data.get("jdk", True)), project=str(data.get("project", "") or ""),
                         tests=bool(data.get("tests", False)), all_versions=bool(data.get("all_versions", False)))


def save_workspace(spec: WorkspaceSpec) -> Path:
    _check_name(spec.name)
    folder = workspaces_dir()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{spec.name}.toml"
    tmp = path.with_suffix(f".toml.{os.getpid()}.tmp")
    tmp.write_text(spec.to_toml())
    os.replace(tmp, path)
    return path


def remove_workspace(name: str) -> None:
    load_workspace(name)
    (workspaces_dir() / f"{name}.toml").unlink()
    if current_workspace_name() == name:
        (config_dir() / "current").unlink(missing_ok=True)


def list_workspaces() -> list[str]:
    folder = workspaces_dir()
    if not folder.is_dir():
        return []
    return sorted(p.stem for p in folder.glob("*.toml"))


def use_workspace(name: str) -> None:
    load_workspace(name)
    config_dir().mkdir(parents=True, exist_ok=True)
    (config_dir() / "current").write_text(name + "\n")
    (config_dir() / NOTED).unlink(missing_ok=True)


def clear_default() -> str | None:
    """Forgets the `ws use` default (commands without -w discover the project again); the name it was."""
    name = current_workspace_name()
    (config_dir() / "current").unlink(missing_ok=True)
    (config_dir() / NOTED).unlink(missing_ok=True)
    return name


# the projects a `ws use` default was said to answer in place of: WORKSPACE_DEFAULT_OVER_PROJECT is said once each
NOTED = "current.noted"


def default_over_project(name: str) -> str | None:
    """When the `ws use` default `name` answers a command run where project discovery would find a project (the
    current directory holds a build file): that project's root, the first time only; else None."""
    if not any(os.path.isfile(f) for f in BUILD_FILES):
        return None
    root = os.path.abspath(".")
    line = f"{name}\t{root}"
    noted = config_dir() / NOTED
    try:
        if line in noted.read_text().splitlines():
            return None
    except OSError:
        pass
    try:
        with open(noted, "a") as f:
            f.write(line + "\n")
    except OSError:
        pass
    return root


BUILD_FILES = ("pom.xml", "build.gradle", "build.gradle.kts", "settings.gradle", "settings.gradle.kts")


def current_workspace_name() -> str | None:
    try:
        name = (config_dir() / "current").read_text().strip()
    except OSError:
        return None
    return name or None


def absolutize(paths: list[str]) -> list[str]:
    """Workspace roots are stored absolute, so the workspace means the same thing from any directory."""
    out = []
    for p in paths:
        expanded = os.path.expanduser(p)
        out.append(expanded if os.path.isabs(expanded) else os.path.abspath(expanded))
    return out


@dataclass
class Selection:
    """What a command runs on, and how that was decided (for `ws info`, `doctor`, provenance)."""

    spec: WorkspaceSpec
    how: str
    # nothing named a workspace and no flag added roots: project auto-discovery applies (spec §13 step 4)
    discover: bool = False
    details: list[str] = field(default_factory=list)  # how the classpath was found, once resolved


DEFAULT_HOW = "default (the JDK)"


def select_workspace(name: str | None, jars: list[str], src: list[str], jdk: bool | None,
                     coords: list[str] = (), project: str | None = None) -> Selection:
    """Spec §13: explicit flags merge in; then -w; then JDX_WORKSPACE; then `ws use`; else project
    auto-discovery (done by the session, which can read build files), else the JDK alone. `--project DIR` is an
    explicit flag: it names the project to discover, so a default (JDX_WORKSPACE, `ws use`) does not apply."""
    how = DEFAULT_HOW
    spec = WorkspaceSpec(name="")
    chosen = name or (None if project else os.environ.get("JDX_WORKSPACE") or current_workspace_name())
    if chosen:
        spec = load_workspace(chosen)
        how = "-w" if name else ("JDX_WORKSPACE" if os.environ.get("JDX_WORKSPACE") else "ws use")
    if jars or src or coords:
        # on a command line --jars come before --coord (a workspace keeps the order it was given)
        flags = absolutize(jars) + list(dict.fromkeys(coords))
        spec = WorkspaceSpec(name=spec.name, roots=flags + [r for r in spec.roots if r not in flags],
                             src=absolutize(src) + spec.src, jdk=spec.jdk, project=spec.project, tests=spec.tests,
                             all_versions=spec.all_versions)
        how = "flags" if not chosen else f"flags + {how}"
    if jdk is not None:
        spec.jdk = jdk
    return Selection(spec=spec, how=how, discover=not chosen and not (jars or src or coords))
