"""Class files an earlier build left in a class directory (STALE_CLASS_FILE).

javac, and Maven's compiler plugin, write class files and never delete one: after an agent renames or removes a
nested class, an anonymous class or a top-level class and recompiles, the old class file stays beside the new ones
and the graph reads it as live code. Two signs tell such a file, for the class an answer is about:

- a nested, local or anonymous class whose outer class's file was written after it (javac writes every class of a
  source file in one go, so a class the new build still has is rewritten with its outer class), or whose outer class
  has no class file at all;
- a top-level class whose source file none of its directory's source roots holds any more, while another class
  file of its package was written after it (a class generated into another folder, by an annotation processor, is
  rewritten by every build and is never older).
"""

from __future__ import annotations

import os

from jdx.errors import Warning_

SLACK_SECONDS = 2.0  # one build writes a source file's classes within this; two builds are farther apart


def stale_class_warnings(ctx, type_id: str) -> list[Warning_]:
    """STALE_CLASS_FILE for the class `type_id` (internal name) when a class directory holds it and an earlier
    build left it there; [] otherwise. `ctx`: the workspace's jdx.engine.src_locate.SourceContext."""
    row = ctx.type_row(type_id)
    art = ctx.artifacts.get((row or {}).get("artifact") or "")
    if row is None or row.get("external") or art is None or art.kind != "dir" or "@" in type_id:
        return []
    own = _mtime(os.path.join(art.path, type_id + ".class"))
    if own is None:
        return []
    file = f"{type_id}.class in {art.name}"
    if row.get("outer"):
        outer = row["outer"]
        written = _mtime(os.path.join(art.path, outer + ".class"))
        if written is None:
            why = f"its outer class {outer.replace('/', '.')} has no class file there"
        elif written > own + SLACK_SECONDS:
            why = f"its outer class's file was written {_ago(written - own)} after it, and a build rewrites both"
        else:
            return []
    else:
        why = _source_gone(ctx, row, art, own)
        if why is None:
            return []
    return [Warning_("STALE_CLASS_FILE", f"{file} was probably left by an earlier build ({why}): the class may no "
                                         "longer exist in the project's code (renamed or removed); a clean build "
                                         "(mvn clean compile, gradle clean build) removes such files", art.name)]


def _source_gone(ctx, row: dict, art, own: float) -> str | None:
    """Why a top-level class's file is stale: its source file is in none of the directory's source roots while a
    class file of its package is newer; None when either does not hold."""
    from jdx.engine.sources import find_file
    from jdx.engine.src_locate import source_rel

    roots = ctx.roots_for(art.key)
    rel = source_rel(row, row["id"])
    if not roots or rel is None or find_file(roots, rel) is not None:
        return None
    package_dir = os.path.join(art.path, *row["id"].split("/")[:-1])
    try:
        newest = max((e.stat().st_mtime for e in os.scandir(package_dir) if e.name.endswith(".class")), default=0.0)
    except OSError:
        return None
    if newest <= own + SLACK_SECONDS:
        return None
    return (f"its source file {rel} is in none of its source roots ({', '.join(r.label for r in roots)}), and "
            f"other classes of its package were compiled {_ago(newest - own)} after it")


def _mtime(path: str) -> float | None:
    try:
        return os.stat(path).st_mtime
    except OSError:
        return None


def _ago(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.0f} h" if seconds < 172800 else f"{seconds / 86400:.0f} days"
