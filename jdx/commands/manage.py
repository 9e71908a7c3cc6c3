"""Workspace and cache management (spec §7.4) and export: state-changing, so never on the wire (§14.5)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from jdx.engine.answer import Answer
from jdx.errors import NoIndexError, UsageError, Warning_
from jdx.graph_schema import queries
from jdx.graph_schema.schema import NODE_TABLES, REL_TABLES
from jdx.loaders.roots import resolve_roots

# cache folders keyed by content (a source file's, a class's, a multi-release jar's versioned classes), rebuilt on demand:
# `cache clear` empties them
DERIVED_CACHES = ("srcmap", "srcparams", "srcindex", "decompiled", "diff-releases")  # diff-releases: diff_artifacts.RELEASE_DIR


EXPORT_FORMATS = ("parquet", "arrow")


def export(session, target: str, fmt: str = "parquet") -> Answer:
    import pyarrow as pa
    import pyarrow.parquet as pq

    if fmt not in EXPORT_FORMATS:
        raise UsageError(f"unknown export format {fmt!r}: use {' or '.join(EXPORT_FORMATS)}")
    out = Path(target).expanduser()
    if out.exists() and not out.is_dir():
        raise UsageError(f"{target} exists and is not a directory")
    try:  # before the graph is opened or built: a place that cannot be written costs nothing
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:  # a directory that cannot be made there (read-only, /proc, permissions): the argument's fault
        raise UsageError(f"cannot write the export to {target}: {exc.strerror or exc}") from None
    store = session.store()
    written: dict[str, int] = {}
    staged: list[Path] = []  # every table is written beside its place first, and all are moved in at the end

    def write(table, name: str) -> None:
        path = out / f".{name}.{fmt}.{os.getpid()}.tmp"
        staged.append(path)
        if fmt == "parquet":
            pq.write_table(table, path)
        else:  # the Arrow IPC file format (pyarrow.ipc.open_file, pyarrow.dataset format="arrow")
            with pa.OSFile(str(path), "wb") as sink, pa.ipc.new_file(sink, table.schema) as writer:
                writer.write_table(table)
        written[name] = table.num_rows

    try:
        _export_tables(store, write)
    except BaseException:
        for path in staged:
            path.unlink(missing_ok=True)
        raise
    replaced, removed = _move_in(out, fmt, staged)
    return Answer({"directory": str(out), "format": fmt, "tables": written,
                   **({"replaced": replaced} if replaced else {}), **({"removed": removed} if removed else {})})


def _move_in(out: Path, fmt: str, staged: list[Path]) -> tuple[list[str], list[str]]:
    """Moves the staged tables to their names; an earlier export's files of the same tables are replaced (those of
    this format) or removed (those of the other: a directory holds one export, read as one dataset). (replaced,
    removed), said, never silent."""
    replaced, removed = [], []
    for path in staged:
        final = out / path.name[1:].rsplit(".", 2)[0]
        if final.exists():
            replaced.append(final.name)
        os.replace(path, final)
        for other in EXPORT_FORMATS:
            stale = final.with_suffix("." + other)
            if other != fmt and stale.exists():
                stale.unlink()
                removed.append(stale.name)
    return replaced, removed


def _export_tables(store, write) -> None:
    """Every node and relationship table of the graph and the search index's two, each handed to `write`."""
    import pyarrow as pa

    for label in NODE_TABLES:
        table = store.query(queries.export_node(label))
        if label == "Artifact":  # the workspace's classpath order (a graph shared by another order keeps its own)
            from jdx.graph_schema.store import workspace_positions

            order = workspace_positions(store)
            if order:
                at = table.column_names.index("position")
                positions = pa.array([order.get(k, -1) for k in table.column("id").to_pylist()], pa.int32())
                table = table.set_column(at, "position", positions)
        write(table, label)
    # the search index (kept beside the graph, not in it), its symbols ranked in this workspace's order
    from jdx.engine.search_index import index_for
    from jdx.graph_schema.search_files import read_index

    index = index_for(store)
    for name, table in (("search_names", read_index(store.path.parent, store.search_files)[0]),
                        ("search_symbols", index.table.rename_columns(
                            ["public" if c == "pub" else c for c in index.table.column_names]))):
        write(table, name)
    for name, (pairs, _props) in REL_TABLES.items():
        parts = []
        for src, dst in pairs:
            t = store.query(queries.export_rel(name, src, dst))
            if len(pairs) > 1:
                t = t.append_column("from_label", pa.array([src] * t.num_rows, pa.string()))
                t = t.append_column("to_label", pa.array([dst] * t.num_rows, pa.string()))
            parts.append(t)
        write(pa.concat_tables(parts), name)


def cache_info(session) -> Answer:
    from jdx.dirs import disk_bytes as size
    from jdx.graph_schema.retention import cap_bytes

    shards = session.cache / "shards"
    graphs = session.cache / "graphs"
    result = {
        "cache_dir": str(session.cache),
        "shards": len([p for p in shards.iterdir() if not p.name.startswith(".")]) if shards.exists() else 0,
        "shard_bytes": size(shards),
        "graphs": len(list(graphs.iterdir())) if graphs.exists() else 0,
        "graph_bytes": size(graphs),
        # past it, the least recently used workspaces' graphs go once a new one is built (0: no cap)
        "graph_cap_bytes": cap_bytes(),
        # rebuilt on demand from sources and class bytes: parses, archive indexes, decompiled classes
        "derived_bytes": sum(size(session.cache / sub) for sub in DERIVED_CACHES),
        "total_bytes": size(session.cache),
    }
    if result["graph_cap_bytes"] and result["graph_bytes"] > result["graph_cap_bytes"]:
        result["over_cap"] = _over_cap(graphs)
    return Answer(result)


def _over_cap(graphs) -> str:
    """Why the graphs may take more than the cap: the ones used in the last minutes are never evicted."""
    import time

    from jdx.graph_schema.retention import RECENT_SECONDS, last_used

    now = time.time()
    recent = sum(1 for root in graphs.iterdir() if now - last_used(root) < RECENT_SECONDS)
    kept = (f"{recent} graph(s) used in the last {RECENT_SECONDS // 60} minutes are kept over the cap; the least "
            "recently used others go" if recent else "the least recently used graphs go")
    return f"{kept} when the next graph is built, or now with: jdx cache gc --older-than 0"

def cache_clear(session, stop_daemons=None) -> Answer:
    """Removes every shard, graph and derived cache; first `stop_daemons(cache) -> [result per daemon]` (the CLI's:
    jdx.daemon.control.stop_cache_daemons) stops the daemons answering from this cache, which would go on answering
    from the removed graph's open files. The answer says how many it stopped."""
    daemons = stop_daemons(session.cache) if stop_daemons is not None else []
    removed = 0
    for sub in ("shards", "graphs", "extractor", *DERIVED_CACHES):
        path = session.cache / sub
        if path.exists():
            removed += 1
            shutil.rmtree(path, ignore_errors=True)
    for name in ("hashes.json", "archives.json"):  # content hashes by path; what each archive holds, by content
        (session.cache / name).unlink(missing_ok=True)
    result = {"cleared": str(session.cache), "removed": removed,
              "daemons_stopped": sum(1 for d in daemons if d.get("stopped"))}
    refused = [d["refused"] for d in daemons if d.get("refused")]  # a lock holder that is no jdx daemon: not signalled
    return Answer({**result, "daemons_refused": refused} if refused else result)

# `cache gc` keeps what was used in the last GC_RECENT_DAYS days even when no named workspace names it: an agent's
# `--jars` workspaces are named by nothing but their use (spec §10.2: "none was used recently")
GC_RECENT_DAYS = 7.0


def cache_gc(session, dry_run: bool = False, older_than_days: float = GC_RECENT_DAYS) -> Answer:
    """Drops the graphs and shards that no named workspace (nor the JDK default) uses and that were not used in the
    last `older_than_days` days (0: whatever no named workspace uses). A kept graph keeps the shards it was built
    from; a graph another process is writing is never removed."""
    import time

    from jdx.engine.workspace import list_workspaces, load_workspace
    from jdx.graph_schema.retention import last_used, remove_unless_written
    from jdx.loaders.indexer import graph_key
    from jdx.loaders.jvm import find_java_home

    if older_than_days < 0:
        raise UsageError(f"--older-than {older_than_days:g}: days must be 0 or more")
    recent = older_than_days * 86400.0
    now = time.time()
    keep_shards: set[str] = set()
    keep_graphs: set[str] = set()
    home = None
    try:
        home = find_java_home().home
    except NoIndexError:
        pass
    specs = [load_workspace(n) for n in list_workspaces()]
    candidates = [(s.jars, s.jdk, s.all_versions) for s in specs if not (s.coords or s.project)] + [([], True, False)]
    for jars, jdk, all_versions in candidates:
        arts = resolve_roots(jars, home if jdk else None, session.cache, all_versions=all_versions).artifacts
        keep_shards.update(a.key for a in arts)
        keep_graphs.add(graph_key(arts))
    for spec in specs:
        if spec.coords or spec.project:  # roots from Maven coordinates or a project: resolved as a query would
            from jdx.commands.session import Options, Session
            from jdx.errors import JdxError

            try:
                arts = Session(Options(workspace=spec.name, cache_dir=session.options.cache_dir)).artifacts()
            except JdxError:
                continue
            keep_shards.update(a.key for a in arts)
            keep_graphs.add(graph_key(arts))
    graphs = session.cache / "graphs"
    if graphs.exists():
        for root in graphs.iterdir():
            if root.is_dir() and not root.name.startswith(".") and now - last_used(root) < recent:
                keep_graphs.add(root.name)
        for name in keep_graphs:
            keep_shards.update(_graph_artifact_keys(graphs / name))
    from jdx.loaders.shards import sweep_partial_shards

    removed = [] if dry_run else [f"shards/{n}" for n in sweep_partial_shards(session.cache)]
    sizes = {r: 0 for r in removed}  # partial shards are gone already
    links: dict[tuple[int, int], int] = {}  # (device, inode) -> its links found in the entries removed so far
    for sub, keep in (("shards", keep_shards), ("graphs", keep_graphs)):
        folder = session.cache / sub
        if not folder.exists():
            continue
        for child in sorted(folder.iterdir()):
            if child.name in keep or child.name.startswith(".") or now - last_used(child) < recent:
                continue
            size = _freed_bytes(child, links)
            if not dry_run:
                if sub == "graphs" and child.is_dir():
                    if not remove_unless_written(child, now, recent):
                        continue
                else:
                    shutil.rmtree(child, ignore_errors=True)
            entry = f"{sub}/{child.name}"
            removed.append(entry)
            sizes[entry] = size
    summary = []
    for kind in ("shards", "graphs"):
        mine = [r for r in removed if r.startswith(kind + "/")]
        summary.append({"kind": kind, "count": len(mine), "bytes": sum(sizes[r] for r in mine)})
    return Answer({"removed": removed, "summary": summary, "bytes": sum(sizes.values()), "dry_run": dry_run,
                   "kept_shards": len(keep_shards), "older_than_days": older_than_days})


def _freed_bytes(entry: Path, links: dict[tuple[int, int], int]) -> int:
    """Bytes removing `entry` frees, measured before it goes: a file hard-linked into several builds (a grown graph
    shares its base's files) counts once, and only when the last of its links is among the entries removed."""
    import os

    freed = 0
    paths = [entry] if not entry.is_dir() else (Path(r) / f for r, _d, fs in os.walk(entry) for f in fs)
    for path in paths:
        try:
            st = os.lstat(path)
        except OSError:
            continue
        key = (st.st_dev, st.st_ino)
        links[key] = links.get(key, 0) + 1
        if links[key] == st.st_nlink:
            freed += st.st_size
    return freed


def _graph_artifact_keys(root: Path) -> set[str]:
    """The artifact keys of every build kept under a workspace's graph root (from their manifests)."""
    from jdx.graph_schema.store import MANIFEST, read_manifest

    keys: set[str] = set()
    for manifest in root.glob(f"*/{MANIFEST}"):
        try:
            keys.update(a["key"] for a in read_manifest(manifest.parent).get("artifacts", []))
        except (OSError, ValueError, TypeError, KeyError):
            continue
    return keys

def ws_create(session, name: str, auto: bool = False) -> Answer:
    """A named workspace from the --jars/--src/--coord/--jdk of these options, its roots in the order given; `auto`:
    the project discovered from the current directory (or --project), discovered again on every use (spec §13)."""
    from jdx.engine.workspace import WorkspaceSpec, absolutize, list_workspaces, save_workspace

    if name in list_workspaces():
        raise UsageError(f"workspace {name!r} exists; use jdx ws add {name} <root> or jdx ws remove {name}")
    o = session.options
    project = ""
    if auto:
        from jdx.loaders.project_root import find_project_root

        found = find_project_root(o.project or ".")
        if found is None:
            raise UsageError(f"--auto: no project around {absolutize([o.project or '.'])[0]} (no pom.xml, "
                             "build.gradle(.kts), settings.gradle(.kts), .idea/, jars or classes)")
        project = found[0]
    _refuse_empty([*o.jars, *o.src])
    spec = WorkspaceSpec(name=name, roots=_flag_roots(o), src=absolutize(o.src), jdk=True if o.jdk is None else o.jdk,
                         project=project, tests=bool(o.tests and project), all_versions=o.all_versions)
    warnings = _missing(spec.jars + spec.src) + _coordinate_warnings(session, spec.coords)
    path = save_workspace(spec)
    return Answer({"created": name, "file": str(path), **spec.to_json(), **_root_kinds(spec.jars)},
                  warnings=warnings)


def _flag_roots(o) -> list[str]:
    """The --jars entries (absolute) and --coord values in command-line order (`root_order`), each once."""
    from jdx.loaders.maven_repo import Coordinate

    order = o.root_order or [("--jars", j) for j in o.jars] + [("--coord", c) for c in o.coords]
    roots: list[str] = []
    for flag, value in order:
        if flag == "--coord":
            Coordinate.parse(value)
            roots.append(value)
        else:
            roots.extend(_jar_roots([value]))
    return list(dict.fromkeys(roots))


def _coordinate_warnings(session, coords: list[str]) -> list[Warning_]:
    """What a query would say of coordinates being added, said at once (resolved offline, or fetched with --fetch):
    a coordinate whose artifact is absent is added all the same, as a path that does not exist yet is, and said."""
    if not coords:
        return []
    from jdx.loaders.classpath import coordinate_roots
    from jdx.loaders.maven_repo import fetch_settings

    from dataclasses import replace

    found = coordinate_roots(session.cache, coords, fetch_settings(session.options.fetch, session.options.repos))
    return [replace(w, message=f"{w.message}: queries of this workspace fail until it is there")
            for w in found.unreadable] + found.warnings


def _root_kinds(roots: list[str]) -> dict:
    """`root_kinds`: the roots that are directories (a class directory, or one scanned for jars), as `ws info`
    labels them; every other root is a jar or a glob of jars."""
    dirs = {r: "dir" for r in roots if os.path.isdir(os.path.expanduser(r))}
    return {"root_kinds": dirs} if dirs else {}


def _refuse_empty(paths: list[str]) -> None:
    """An empty root (an unset shell variable) is a usage error, never the current directory (as for a query)."""
    if any(not p.strip() for p in paths):
        raise UsageError("a workspace root was given as an empty path",
                         hint="name a jar, glob or directory ('.' for the current directory)")


def _jar_roots(jars: list[str]) -> list[str]:
    """--jars values as a workspace stores them: a classpath string (`a.jar:b.jar`, as `java -cp` takes it) split
    into its entries as queries split it, each entry absolute (a relative `b.jar` would be read from wherever the
    query runs)."""
    from jdx.engine.workspace import absolutize
    from jdx.loaders.roots import classpath_entries

    return absolutize(classpath_entries(jars))


def _exists(root: str) -> bool:
    """Does a stored root name something now: a path that exists, or a glob that matches a path."""
    import os

    from jdx.loaders.roots import glob_paths, is_glob

    return bool(glob_paths(root)) if is_glob(root) else os.path.exists(root)


def _missing(paths: list[str]) -> list[Warning_]:
    """A workspace may name a path before it exists (a class directory not built yet), but never silently: every
    query of it fails (exit 5) until the path is there."""
    return [Warning_("ARTIFACT_READ_ERROR", f"{p}: no such file or directory (yet): queries of this workspace "
                     "fail (exit 5) until it exists") for p in paths if not _exists(p)]

def ws_list(session) -> Answer:
    from jdx.engine.workspace import current_workspace_name, list_workspaces

    current = current_workspace_name()
    return Answer({"workspaces": [_listed(n, n == current) for n in list_workspaces()]})


def _listed(name: str, current: bool) -> dict:
    """One workspace of `ws list`: whether it is the default, and what its file holds (`ws create`'s fields); a file
    that cannot be read says why, and the others are still listed."""
    from jdx.engine.workspace import load_workspace

    try:
        spec = load_workspace(name)
    except (NoIndexError, UsageError) as exc:
        return {"name": name, "current": current, "unreadable": exc.message}
    return {"name": name, "current": current, **spec.to_json(), **_root_kinds(spec.jars)}

def ws_add(session, name: str, root: str) -> Answer:
    """Appends a root (a jar, glob, class directory or classpath; a g:a:v coordinate) after the workspace's others:
    earlier roots shadow later ones."""
    from jdx.engine.workspace import load_workspace, save_workspace
    from jdx.loaders.maven_repo import Coordinate

    spec = load_workspace(name)
    added: list[str] = []
    warnings: list[Warning_] = []
    if _coordinate_like(root):
        try:  # no version, a version range: a usage error listing the local versions
            coord = str(Coordinate.parse(root))
        except UsageError as exc:
            raise UsageError(str(exc), hint=f"for a classpath of paths, write each one with a directory: "
                                            f"./{root.replace(':', ':./')}") from None
        if coord in spec.roots:
            raise UsageError(f"{coord} is already a root of workspace {name!r}")
        spec.roots.append(coord)
        # the workspace's coordinates resolve together (nearest wins): what it now lacks, not the added one alone
        warnings = _coordinate_warnings(session, spec.coords)
    else:
        _refuse_empty([root])
        added = list(dict.fromkeys(_jar_roots([root])))
        again = next((p for p in added if p in spec.roots), None)
        if again is not None:
            raise UsageError(f"{again} is already a root of workspace {name!r}")
        spec.roots.extend(added)
        warnings = _missing(added)
    save_workspace(spec)
    return Answer({"updated": name, **spec.to_json(), **_root_kinds(spec.jars)}, warnings=warnings)


def _coordinate_like(root: str) -> bool:
    """Whether a `ws add` value is a Maven coordinate (maybe a malformed one: `g:a` without its version), not a path
    nor a classpath: no path separator, and no part of it is a path that exists or an archive's name
    (`a.jar:b.jar:c.jar` has a coordinate's shape too)."""
    from jdx.loaders.roots import is_archive

    parts = root.split(":")
    return len(parts) >= 2 and "/" not in root and os.sep not in root and \
        not os.path.exists(os.path.expanduser(root)) and \
        not any(os.path.exists(os.path.expanduser(p)) or is_archive(p) for p in parts)


def ws_drop(session, name: str, root: str) -> Answer:
    """Removes one root (a path as `ws add` took it, a coordinate) or source directory from a workspace."""
    from jdx.engine.workspace import absolutize, load_workspace, save_workspace

    spec = load_workspace(name)
    _refuse_empty([root])
    wanted = {root} if root in spec.roots + spec.src else {*absolutize([root]), *_jar_roots([root])}
    dropped = [r for r in spec.roots + spec.src if r in wanted]
    if not dropped:
        listed = ", ".join(spec.roots + spec.src) or "none"
        raise UsageError(f"{root} is not a root of workspace {name!r} (its roots: {listed})")
    spec.roots = [r for r in spec.roots if r not in wanted]
    spec.src = [s for s in spec.src if s not in wanted]
    save_workspace(spec)
    return Answer({"updated": name, "dropped": dropped, **spec.to_json(), **_root_kinds(spec.jars)})


def ws_use(session, name: str | None, none: bool = False) -> Answer:
    """Makes a workspace the default of later commands without -w; `none`: forgets the default, so they discover
    the project around the current directory again."""
    from jdx.engine.workspace import clear_default, use_workspace

    if none == bool(name):
        raise UsageError("name a workspace (jdx ws use NAME) or forget the default (jdx ws use --none)" if not none
                         else "give NAME or --none, not both")
    if none:
        was = clear_default()
        return Answer({"current": None, **({"cleared": was} if was else {})})
    use_workspace(name)
    return Answer({"current": name})

def ws_remove(session, name: str) -> Answer:
    from jdx.engine.workspace import current_workspace_name, remove_workspace

    was_default = current_workspace_name() == name
    remove_workspace(name)
    return Answer({"removed": name, **({"was_default": True} if was_default else {})},
                  warnings=[Warning_("WORKSPACE_DEFAULT_REMOVED", f"{name} was the default workspace (jdx ws use): "
                                     "commands without -w now use the project discovered from the current directory, "
                                     "else the JDK alone; jdx ws use NAME picks another")] if was_default else [])

def ws_info(session, named: bool = False) -> Answer:
    """The workspace, how it was picked (`how`: `ws info NAME` when `named` there) and how its classpath was found (`found`: prose, one line a step), its
    artifacts, and `classpath`: the paths of its jars and class directories in classpath order, what `java -cp` and
    `javac -cp` take (the JDK's modules are not in it: the JDK that runs them brings its own)."""
    sel = session.selection()
    arts = session.artifacts()
    from jdx.loaders.indexer import fresh_graph

    from jdx.engine.sources import workspace_roots

    graph = fresh_graph(session.cache, arts)
    unreadable = [w.message for w in session.unreadable_roots()] + session.missing_src()  # each fails every query
    sources = workspace_roots(arts, list(session.options.sources or []), session.source_dirs())
    given = [os.path.realpath(os.path.expanduser(d)) for d in
             list(getattr(sel.spec, "src", []) or []) + list(session.options.src or [])]
    for root in sources:  # a directory neither --src nor the workspace named: the discovered project's
        if root["how"] == "--src" and not any(root["path"] == d or root["path"].startswith(d + os.sep) for d in given):
            root["how"] = "project"
    return Answer({
        "workspace": sel.spec.to_json(), "how": "ws info NAME" if named else sel.how, "artifacts": [a.to_json() for a in arts],
        "indexed": graph is not None and not unreadable, "found": list(sel.details),
        "classpath": [a.path for a in arts if a.kind != "jrt"], "sources": sources,
        **({"unreadable": unreadable} if unreadable else {}),
    }, session.read_warnings() if graph is not None and not unreadable else session.root_warnings)
