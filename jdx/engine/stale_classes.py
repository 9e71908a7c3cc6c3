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

STALE_NOTE = "stale class file: an earlier build left it"  # how a listing marks a row `stale: true`
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
        why = _outer_newer(row["outer"], own, _mtime(os.path.join(art.path, row["outer"] + ".class")))
        if why is None:
            return []
    else:
        why = _source_gone(ctx, row, art, own)
        if why is None:
            return []
    return [Warning_("STALE_CLASS_FILE", f"{file} was probably left by an earlier build ({why}): the class may no "
                                         "longer exist in the project's code (renamed or removed); a clean build "
                                         "(mvn clean compile, gradle clean build) removes such files", art.name)]


def _outer_newer(outer: str, own: float, written: float | None) -> str | None:
    """Why a nested class whose file was written at `own` is stale, its outer class's file written at `written`
    (None: no such file); None when it is not."""
    if written is None:
        return f"its outer class {outer.replace('/', '.')} has no class file there"
    if written > own + SLACK_SECONDS:
        return f"its outer class's file was written {_ago(written - own)} after it, and a build rewrites both"
    return None


def stale_nested(store, type_ids) -> dict[str, str]:
    """Of the types `type_ids` (internal names) an answer lists, the nested, local and anonymous classes a class
    directory holds as files an earlier build left (the rule of `stale_class_warnings`): id -> the directory's
    artifact name. Batched and cheap: nothing for a workspace without a class directory, no look-up for a name
    without a `$`, one query for the rest, one stat per class of a directory (and one per outer class)."""
    from jdx.engine.relations import rows_by_ids
    from jdx.graph_schema import queries_graph
    from jdx.graph_schema.store import artifact_rows

    dirs = {r["a.id"]: r for r in artifact_rows(store) if r.get("a.kind") == "dir" and r.get("a.path")}
    out: dict[str, str] = {}
    if not dirs:
        return out
    ids = [i for i in type_ids if i and "$" in i and "@" not in i]
    outers: dict[str, float | None] = {}
    for row in rows_by_ids(store, queries_graph.TYPE_OUTERS, ids):
        art = dirs.get(row.get("artifact") or "")
        if art is None or row.get("external") or not row.get("outer"):
            continue
        own = _mtime(os.path.join(art["a.path"], row["id"] + ".class"))
        outer = os.path.join(art["a.path"], row["outer"] + ".class")
        if outer not in outers:
            outers[outer] = _mtime(outer)
        if own is not None and _outer_newer(row["outer"], own, outers[outer]) is not None:
            out[row["id"]] = art["a.name"]
    return out


def mark_stale(store, rows) -> list[Warning_]:
    """Marks `stale: true` each listed row an earlier build left (`stale_nested`): `rows` are (type id, the
    answer's row dict) pairs; one STALE_CLASS_FILE for the answer naming how many rows are, [] when none is."""
    rows = list(rows)
    stale = stale_nested(store, [type_id for type_id, _ in rows])
    if not stale:
        return []
    for type_id, entry in rows:
        if type_id in stale:
            entry["stale"] = True
    count = sum(1 for type_id, _ in rows if type_id in stale)
    names = sorted(stale)
    shown = ", ".join(n.replace("/", ".") for n in names[:3]) + (f", +{len(names) - 3} more" if len(names) > 3 else "")
    arts = sorted(set(stale.values()))
    rows_are = "1 row listed is a class file" if count == 1 else f"{count} rows listed are class files"
    return [Warning_("STALE_CLASS_FILE", f"{rows_are} an earlier build probably left in {', '.join(arts)} ({shown}: "
                                         "the outer class's file was written after it, and a build rewrites both; "
                                         f"marked `{STALE_NOTE}`): such a class may no longer exist in the "
                                         "project's code (renamed or removed); a clean build (mvn clean compile, "
                                         "gradle clean build) removes such files", arts[0] if len(arts) == 1 else "")]


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
