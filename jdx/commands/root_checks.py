"""How a session checks the roots a workspace names before any answer, and what its errors and hints say:
an empty path, a missing `--project`, a named workspace's missing root, a `ws use` default over a project."""

from __future__ import annotations

import os

from jdx.errors import UsageError, Warning_


def refuse_empty_paths(options) -> None:
    """`--jars ""` (an unset shell variable) is a usage error, never the current directory."""
    for flag, values in (("--jars", options.jars), ("--src", options.src), ("--sources", options.sources)):
        if any(not value.strip() for value in values):
            raise UsageError(f"{flag} was given an empty path",
                             hint=f"name a jar, glob or directory ({flag} . for the current directory)")


def workspace_root_hint(name: str | None, coords: bool = False) -> str:
    """Where a named workspace's missing root can be fixed: `jdx ws add` adds roots, `jdx ws drop` drops one."""
    fix = "check the coordinate (--fetch downloads it)" if coords else "fix the path"
    if not name:
        return f"{fix} (jdx ws info lists the roots)"
    from jdx.engine.workspace import workspaces_dir

    what = "COORDINATE" if coords else "PATH"
    return (f"{fix}, or drop it: jdx ws drop {name} {what} (jdx ws info lists the roots of "
            f"{workspaces_dir() / (name + '.toml')})")


def project_named(project: str):
    """(root, kind) of the project `--project DIR` names: a DIR that does not exist, or with no project there or
    above, is a usage error naming it (an explicit --project never falls back to a default or the JDK alone)."""
    from jdx.loaders.project_root import find_project_root

    if not os.path.isdir(os.path.expanduser(project)):
        raise UsageError(f"--project {project}: no such directory")
    found = find_project_root(project)
    if found is None:
        raise UsageError(f"--project {project}: no project there or above (no pom.xml, build.gradle(.kts), "
                         "settings.gradle(.kts), .idea/, jars or classes)")
    return found


def default_over_project(name: str) -> list[Warning_]:
    """WORKSPACE_DEFAULT_OVER_PROJECT, once per default and project: the `ws use` default answers where project
    discovery would have found a project (checked only when the current directory holds a build file)."""
    from jdx.engine.workspace import default_over_project

    root = default_over_project(name)
    if root is None:
        return []
    return [Warning_("WORKSPACE_DEFAULT_OVER_PROJECT",
                     f"answered from the default workspace {name} (jdx ws use), not from the project at {root}: "
                     "--project . answers from the project for one command, jdx ws use --none forgets the default "
                     "(said once)")]


def comma_hint(failed: list[Warning_]) -> str | None:
    """`--jars a.jar,b.jar` is one path with a comma in it: say how to give several."""
    if any(".jar," in w.message for w in failed):
        return "separate jars with ':' (a classpath) or repeat --jars; a ',' is part of a file name"
    return None
