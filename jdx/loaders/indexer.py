"""Artifacts -> shards (extract what is missing) -> the workspace graph (build when missing or forced)."""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from jdx.errors import ArtifactReadError, NoIndexError, TimeoutExceeded, Warning_
from jdx.graph_schema.schema import SCHEMA_VERSION
from jdx.graph_schema.store import (
    GRAPH_STAMP, MANIFEST, GraphWriter, backend_name, current_build, discard_build, graph_damage,
)
from jdx.loaders.manifests import graph_facts, manifest_files, manifest_keys, read_build_manifest, shard_facts
from jdx.loaders.jvm import asm_identity, extractor_source_hash
from jdx.loaders.roots import Artifact

if TYPE_CHECKING:
    from jdx.loaders.executors import Executor
    from jdx.loaders.extractor import BytecodeExtractor
    from jdx.loaders.shard_store import ShardStore

SHARD_FORMAT = 18  # 2: the `kotlin` table; 3: its @JvmOverloads links by the overloads' descriptors;
# 4: function types render their @ParameterName names; 5: `abstract` interface members, a constructor property's
# visibility, no @JvmField flag on a private field; 6: a constructor property's modality in the class header
# 7: no @JvmName flag on a Kotlin name holding `$`; an interface companion's const links the interface's field too
# 8: annotations' site/element and owner kind 4 (type uses), types' record_components, calls kind indy,
# references kinds indy_arg/case_label; 9: @JvmOverloads links of constructors, a type alias's expansion
# qualified when its simple name is the alias's, one class per name within an artifact; 10: a @JvmStatic
# function's @JvmOverloads copies in the outer class are linked as its `overload`s; 11: a function-type receiver
# in parentheses in Kotlin signatures (`fun (() -> Any?).toStringSafe()`); 12: typerefs kind 22
# (R_ANNOTATION_VALUE) from an annotated class, method or field to each type a class literal or enum constant in
# its annotation values names (every shard is extracted again); 13: a Kotlin method's first/last line counts none of
# the SMAP's virtual lines (past the file's end) that no call line maps back, nor do call sites take them; such a
# copied range is no inlined call; an inlined site's key names its `$i$f$` marker's function (`owner#@line#name`)
# 14: a Kotlin declaration of a shaded jar links its JVM member by the relocated descriptor (kotlin_shard._relocation)
# 15: typerefs kind 23 (R_LAMBDA, references kind `lambda`) to the interface a LambdaMetafactory invokedynamic
# creates an instance of and to altMetafactory's marker interfaces (before: those markers were indy_arg)
# 16: typerefs kind 24 (R_METHOD_REF, references kind `method_ref`) where that invokedynamic is a method reference
# (its implementation handle is no lambda body); kind 23 stays for lambdas
# 17: members' `ordinal` (a member's place in its class file); scalac's `$anonfun$` bodies are lambda bodies
# 18: an interface property's `annotations` link to its `$annotations` method in DefaultImpls

Progress = Callable[..., None]  # (stage, done, total, note="")


@dataclass
class IndexReport:
    graph: Path
    built: bool
    artifacts: int = 0
    extracted: int = 0
    classes: int = 0
    members: int = 0
    edges: int = 0
    seconds: float = 0.0
    warnings: list[Warning_] = field(default_factory=list)
    failed_artifacts: list[str] = field(default_factory=list)
    phases: dict[str, float] = field(default_factory=dict)
    incremental: bool = False  # grown from another graph rather than built from scratch
    added: int = 0  # artifacts appended by an incremental update
    executor: dict = field(default_factory=dict)  # what extracted the missing shards (none: nothing was missing)
    graph_stamp: list | None = None  # the graph file's [size, mtime_ns] at publish (store.file_stamp), when recorded
    facts: dict | None = None  # what every answer asks of the graph, kept in its manifest at build (`graph_facts`)


def graph_family() -> str:
    """Graphs of one family share schema, shard format, extractor and backend: one can grow from another."""
    text = f"{SCHEMA_VERSION}:{SHARD_FORMAT}:{extractor_source_hash()}:{asm_identity()}:{backend_name()}"
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def graph_key(artifacts: list[Artifact]) -> str:
    """Where a workspace's graph lives: its ordered artifacts (a class directory by path, since its content
    changes constantly and its graph is updated in place; a jar by content, name and path, which its answers
    name), the schema and the extractor."""
    digest = hashlib.sha256(graph_family().encode())
    for a in artifacts:
        ident = a.path if a.kind == "dir" else a.key
        digest.update(f"\n{ident}:{a.kind}:{a.name}:{a.path}".encode())
    return digest.hexdigest()[:24]


def graph_root(cache: Path, artifacts: list[Artifact]) -> Path:
    return cache / "graphs" / graph_key(artifacts)


def fresh_graph(cache: Path, artifacts: list[Artifact]) -> Path | None:
    """The current graph build for exactly these artifacts, or None (no JVM, no hashing of classes; a damaged
    build is none)."""
    build = current_build(graph_root(cache, artifacts))
    if build is None:
        return None
    try:
        manifest = read_build_manifest(build)
        if manifest_files(manifest) != [(a.key, a.name, a.path) for a in artifacts]:
            return None  # a class directory changed since (or a build that named another copy of a jar)
    except ValueError:
        return None
    if graph_damage(build, manifest) is not None:
        return None
    return build


def _intact_current(root: Path, damaged: list[Warning_]) -> tuple[Path, dict] | None:
    """The workspace's current build and its manifest. A build whose manifest cannot be read, or whose graph file
    changed since it was published, is damaged: taken out of use (`discard_build`) with a CACHE_DAMAGED warning,
    so it is built again; None then, as when there is no build."""
    build = current_build(root)
    if build is None:
        return None
    try:
        manifest = read_build_manifest(build)
    except ValueError as exc:
        why = f"{MANIFEST} cannot be read ({str(exc).splitlines()[0] if str(exc) else 'not JSON'})"
    else:
        why = graph_damage(build, manifest)
        if why is None:
            return build, manifest
    damaged.append(Warning_("CACHE_DAMAGED", f"the workspace graph {build.name} was damaged: {why}; built again"))
    discard_build(build)
    return None


def _shard_warnings(shard) -> list[Warning_]:
    out = []
    for code, entry, message in shard.warnings:
        if entry and entry.startswith(("jar:", "dir:", "jrt:")):  # the artifact itself: a shard is keyed by content,
            entry = shard.artifact.spec  # and one of another file's same bytes names that file
        detail = f"{entry}: {message}" if entry and entry not in message else message
        out.append(Warning_(code, f"{shard.artifact.name}: {detail}", shard.artifact.name))
    return out


def _up_to_date(current: tuple[Path, dict] | None, artifacts: list[Artifact], started: float) -> IndexReport | None:
    """The report of the current build (`_intact_current`) when it holds exactly these artifacts."""
    if current is None:
        return None
    existing, manifest = current
    if manifest_keys(manifest) != [a.key for a in artifacts]:
        return None
    try:
        warnings = [Warning_(**w) for w in manifest.get("warnings", [])]
        counts = manifest["counts"]
        classes, members, edges = counts["classes"], counts["members"], counts["edges"]
    except (TypeError, KeyError):  # a manifest of another shape: built again
        return None
    return IndexReport(
        graph=existing, built=False, artifacts=len(artifacts), classes=classes, members=members, edges=edges,
        seconds=time.perf_counter() - started, warnings=warnings,
        failed_artifacts=sorted({w.artifact for w in warnings if w.code == "ARTIFACT_READ_ERROR"}),
        graph_stamp=manifest.get(GRAPH_STAMP), facts=graph_facts(manifest),
    )


@contextmanager
def _writer_lock(root: Path):
    """One writer per workspace graph at a time (processes building other workspaces are not held up)."""
    import fcntl

    root.mkdir(parents=True, exist_ok=True)
    with open(root / ".lock", "w") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def _shadows(manifest: dict) -> bool:
    """Whether the build's classpath provides some class twice (a later copy shadowed: order matters)."""
    return any(w.get("code") == "DUPLICATE_CLASS" for w in manifest.get("warnings", []))


def _candidate_bases(cache: Path, artifacts: list[Artifact]) -> list[tuple[int, Path, dict]]:
    """Built graphs of this family whose artifacts are all in the wanted classpath, most classes first.
    Graphs holding an artifact the classpath lacks do not serve: deleting rows is not trusted (Kùzu 0.11.3
    left stale edges and dropped unrelated ones after DETACH DELETE on graphs of a few thousand classes).
    A graph with shadowed classes only serves when its artifacts keep their relative order."""
    family = graph_family()
    want = {a.key: i for i, a in enumerate(artifacts)}
    out = []
    graphs = cache / "graphs"
    if not graphs.is_dir():
        return out
    for child in graphs.iterdir():
        if child.name.startswith("."):
            continue
        build = current_build(child)
        if build is None:
            continue
        try:
            manifest = read_build_manifest(build)
        except ValueError:
            continue
        if manifest.get("family") != family or graph_damage(build, manifest) is not None:
            continue  # (a damaged graph is copied by no update: its own workspace builds it again when asked)
        arts = manifest.get("artifacts", [])
        if not arts or any(a["key"] not in want for a in arts):
            continue
        order = [want[a["key"]] for a in arts]
        if _shadows(manifest) and order != sorted(order):
            continue
        out.append((sum(int(a.get("classes", 0)) for a in arts), build, manifest))
    out.sort(key=lambda x: (-x[0], str(x[1])))
    return out


def _manifest(artifacts: list[Artifact], shards, counts: dict, warnings: list[Warning_],
              recorded: dict | None = None, **extra) -> dict:
    """A build's manifest; the facts of the artifacts the manifest `recorded` (of the build this one grows from or
    shares) holds are taken from it: growing a graph reads the joined artifacts' shards only."""
    known = {a.get("key"): a for a in (recorded or {}).get("artifacts", []) if isinstance(a, dict)}
    arts = []
    for a, s in zip(artifacts, shards):
        had = known.get(a.key, {})
        newest, dollars = ((had["newest"], had["dollars"]) if isinstance(had.get("newest"), int)
                           and isinstance(had.get("dollars"), list) else shard_facts(s))
        arts.append(dict(a.to_json(), classes=int(s.meta.get("classes", 0)), newest=newest, dollars=dollars))
    return {"artifacts": arts, "counts": counts, "family": graph_family(),
            "warnings": [{"code": w.code, "message": w.message, "artifact": w.artifact} for w in warnings], **extra}


def _all_warnings(shards, built_warnings: list[Warning_]) -> tuple[list[Warning_], list[str]]:
    warnings: list[Warning_] = []
    failed = []
    for shard in shards:
        ws = _shard_warnings(shard)
        warnings.extend(ws)
        if any(w.code == "ARTIFACT_READ_ERROR" for w in ws):
            failed.append(shard.artifact.name)
    warnings.extend(built_warnings)
    return warnings, failed


def _update(root: Path, base: Path, manifest: dict, artifacts: list[Artifact], shards) -> tuple[Path, dict, list,
                                                                                                 list, int]:
    """The graph of `artifacts` from the build `base` (a subset of them): append what joined, move the rest."""
    from jdx.graph_schema.update import GraphUpdater
    from jdx.loaders.graph_build import build_graph_tables

    keys = [a.key for a in artifacts]
    had = set(manifest_keys(manifest))
    focus = {i for i, k in enumerate(keys) if k not in had}
    updater = GraphUpdater(root, base)
    try:
        updater.place({k: i for i, k in enumerate(keys)}, {a.key: (a.name, a.path) for a in artifacts})
        from jdx.loaders.build_context import context_shards

        # the artifacts the base holds contribute their types, supertypes and member keys from its context file
        built = build_graph_tables(context_shards(base, manifest_keys(manifest), shards, focus), updater, focus=focus)
        warnings, failed = _all_warnings(shards, built.warnings)
        # the build counted the classes and members of the whole classpath; edges and types add up
        base_counts = manifest["counts"]
        counts = dict(built.counts, artifacts=len(artifacts), calls=base_counts["calls"] + built.counts["calls"],
                      edges=base_counts["edges"] + built.counts["edges"],
                      types=base_counts["types"] + updater.added_types,
                      kotlin=base_counts.get("kotlin", 0) + built.counts.get("kotlin", 0))
        build = updater.commit(_manifest(artifacts, shards, counts, warnings, manifest,
                                         base=manifest.get("build"), added=len(focus)))
    except BaseException:
        updater.abort()
        raise
    if any(a.kind == "dir" for a in artifacts):  # recompiled again soon: a long-lived process copies the base ahead
        from jdx.graph_schema import spares
        from jdx.graph_schema.store import GRAPH_FILE

        spares.want(base / GRAPH_FILE, root)
    return build, counts, warnings, failed, len(focus)


def prewarm_updates(cache: Path, artifacts: list[Artifact]) -> None:
    """What a long-lived process's first class-directory update would load, loaded ahead on a side thread: the
    JVM (jvm.prewarm), the update's modules, the classpath context of the graph the directory's rows grow from
    (build_context.load_base_context, kept per process), and a spare copy of that graph (`spares`; this process
    keeps one from now on). Never raises; the update does it all itself."""
    from jdx.graph_schema import spares
    from jdx.loaders.jvm import prewarm

    spares.enable()
    prewarm(cache)
    try:
        import importlib.util

        import pyarrow.dataset  # noqa: F401 - imported ahead (the shard store reads Parquet)
        import pyarrow.parquet  # noqa: F401

        import jdx.graph_schema.search_files  # noqa: F401
        import jdx.graph_schema.update  # noqa: F401
        import jdx.loaders.dirshards  # noqa: F401
        import jdx.loaders.executors  # noqa: F401
        import jdx.loaders.graph_build  # noqa: F401
        import jdx.loaders.jdk_modules  # noqa: F401
        import jdx.loaders.kotlin_shard  # noqa: F401
        import jdx.loaders.shard_store  # noqa: F401
        from jdx.loaders.build_context import load_base_context

        if importlib.util.find_spec("pandas") is not None:  # Kùzu's COPY imports it where it is installed
            import pandas  # noqa: F401
        fixed = [a for a in artifacts if a.kind != "dir"]
        base = fresh_graph(cache, fixed) if fixed and len(fixed) < len(artifacts) else None
        if base is not None:
            load_base_context(base, [a.key for a in fixed])  # with the member codes its build kept
            from jdx.graph_schema.store import GRAPH_FILE

            spares.make(base / GRAPH_FILE, graph_root(cache, artifacts))
    except Exception:  # noqa: BLE001 - only a head start
        pass


def _same_artifacts(bases, artifacts: list[Artifact]) -> tuple[Path, dict] | None:
    """A built graph of exactly these artifacts in another order that no shadowed class makes differ (its rows
    are then this order's rows: only positions and search ranks move, and answers read those from the
    manifest); class directories, which change under their graph, are not shared."""
    if any(a.kind == "dir" for a in artifacts):
        return None
    # the same files: a copy of a jar under another name or path has its own Artifact row (answers name the file
    # this workspace holds), so it grows from the build (`GraphUpdater.place` renames) instead of sharing it
    want = sorted((a.key, a.name, a.path) for a in artifacts)
    for _score, build, manifest in bases:
        if (sorted(manifest_files(manifest)) == want
                and not _shadows(manifest)):
            return build, manifest
    return None


def _share(root: Path, base: Path, manifest: dict, artifacts: list[Artifact], shards) -> tuple[Path, dict, list, list]:
    """The graph of `artifacts` as a build sharing `base`'s files (store.share_build): the shards' warnings in
    this classpath order, then the ones the base's build found."""
    from jdx.graph_schema.store import share_build

    warnings, failed = _all_warnings(shards, [])
    known = {(w.code, w.message, w.artifact) for w in warnings}
    warnings += [Warning_(**w) for w in manifest.get("warnings", [])
                 if (w["code"], w["message"], w["artifact"]) not in known]
    counts = manifest["counts"]
    build = share_build(root, base, _manifest(artifacts, shards, counts, warnings, manifest,
                                              shared=manifest.get("build")))
    return build, counts, warnings, failed


def ensure_graph(
    cache: Path,
    artifacts: list[Artifact],
    *,
    force: bool = False,
    extractor: BytecodeExtractor | None = None,
    progress: Progress | None = None,
    executor: Executor | None = None,
    store: ShardStore | None = None,
    shard_extra=None,
) -> IndexReport:
    """Makes sure the graph of these artifacts exists; extracts only artifacts without a shard (in `store`,
    default the cache's; by `executor`, default this process or JDX_EXECUTOR; `shard_extra` adds files to a
    shard written by this process, `Executor.shard_extra`), and grows the graph from the
    closest one already built (appending only what is new) when that equals a full build."""
    from jdx.graph_schema.retention import evict, mark_used

    started = time.perf_counter()
    root = graph_root(cache, artifacts)
    damaged: list[Warning_] = []  # what of the cache was found damaged and is built again (CACHE_DAMAGED)
    if not force:
        report = _up_to_date(_intact_current(root, damaged), artifacts, started)
        if report is not None:
            mark_used(root)
            return report
    with _writer_lock(root):
        if not force:  # another process may have built it meanwhile
            report = _up_to_date(_intact_current(root, damaged), artifacts, started)
            if report is not None:
                mark_used(root)
                report.warnings = damaged + report.warnings
                return report
        if executor is None or store is None:
            from jdx.loaders.executors import ExecutorConfig, LocalExecutor

            config = ExecutorConfig.resolve()
            store = store or config.store(cache)
            executor = executor or (LocalExecutor(extractor) if extractor is not None else config.executor())
        if shard_extra is not None:
            executor.shard_extra = shard_extra
        report = _build_redoing_damaged(cache, root, artifacts, force, executor, store, progress, started, damaged)
        mark_used(root)
        report.warnings = damaged + report.warnings
    evict(cache / "graphs", keep=root)  # the least recently used other workspaces' graphs, past the cap
    return report


class ShardDamaged(NoIndexError):
    """A stored shard's table could not be read (truncated, garbled): the shard is extracted again."""

    def __init__(self, artifact: Artifact, file: str, error: BaseException):
        detail = str(error).splitlines()[0] if str(error) else type(error).__name__
        detail = detail.rpartition("': ")[2].partition(". ")[0].rstrip(".")  # Arrow's "Could not open '<path>': <why>."
        super().__init__(f"{artifact.name}: its cached shard's {file} cannot be read ({detail})",
                         hint="jdx index --force extracts it again")
        self.artifact, self.file = artifact, file


def _checked(shard):
    """A shard read from the store whose tables, when they cannot be read, raise ShardDamaged naming the file."""
    import pyarrow as pa

    read = shard.table

    def table(name: str, columns: list[str] | None = None):
        try:
            return read(name, columns)
        except (OSError, ValueError, pa.ArrowException) as exc:  # ArrowInvalid: no Parquet footer; OSError: bad Lz4
            raise ShardDamaged(shard.artifact, f"{name}.parquet", exc) from exc

    shard.table = table
    return shard


def _build_redoing_damaged(cache, root, artifacts, force, executor, store, progress, started,
                           damaged: list[Warning_]) -> IndexReport:
    """`_build`; a stored shard found damaged while the graph is built is extracted again (CACHE_DAMAGED), and the
    build starts over (the graph being written is dropped, never published)."""
    redo: set[str] = set()
    while True:
        try:
            return _build(cache, root, artifacts, force, executor, store, progress, started, frozenset(redo))
        except ShardDamaged as exc:
            if exc.artifact.key in redo:  # extracted again and still unreadable: not the cache's doing
                raise
            redo.add(exc.artifact.key)
            damaged.append(Warning_("CACHE_DAMAGED", f"{exc.message}; extracted again", exc.artifact.name))


def _build(cache, root, artifacts, force, executor, store, progress, started,
           redo: frozenset[str] = frozenset()) -> IndexReport:
    from jdx.loaders.shards import sweep_partial_shards

    sweep_partial_shards(cache)
    if store.local is not None and store.local != cache / "shards":  # an object store is not listed every run
        store.sweep()
    shards = [None if force or a.key in redo else store.load(a) for a in artifacts]
    shards = [None if s is None else _checked(s) for s in shards]
    missing = [i for i, s in enumerate(shards) if s is None]
    failures: list[Warning_] = []
    kotlin_seconds = 0.0
    head = _head_start(cache, root, artifacts) if missing and not force else None
    try:
        if missing:
            for got in executor.extract(cache, store, [artifacts[i] for i in missing], force or bool(redo), progress):
                index = missing[got.index]
                if got.shard is None:
                    failures.append(got.failure)
                    continue
                shards[index] = got.shard
                kotlin_seconds += got.kotlin_seconds
        t_extracted = time.perf_counter()
        if failures:  # the graph of what could be extracted; the next run tries the rest again
            artifacts = [a for a, s in zip(artifacts, shards) if s is not None]
        ready = [s for s in shards if s is not None]
        if not ready:
            names = ", ".join(sorted({w.artifact for w in failures}))
            raise ArtifactReadError(f"{len(failures)} artifact(s) could not be extracted: {names}",
                                    warnings=sorted(failures))
        if head is not None:
            head.join()  # the copy the update takes, if not done yet: never copied twice
        report = _graph(cache, root, artifacts, ready, force, executor, store, progress, started, t_extracted,
                        len(missing) - len(failures), kotlin_seconds)
    finally:
        executor.wait()
    if failures:
        report.warnings = sorted(failures) + report.warnings
        report.failed_artifacts = sorted(set(report.failed_artifacts) | {w.artifact for w in failures})
    if missing:
        report.executor = executor.describe()
    return report


def _head_start(cache: Path, root: Path, artifacts: list[Artifact]):
    """While the artifacts without a shard are extracted, the side thread of `spares.make_ahead` copies the graph
    the update will most likely grow from and loads its classpath context; None when no built graph serves (or
    one holds exactly these artifacts: nothing is copied then)."""
    if any(a.kind == "dir" for a in artifacts):
        fixed = [a for a in artifacts if a.kind != "dir"]
        base = fresh_graph(cache, fixed) if fixed else None  # a directory's rows grow from its other artifacts'
        keys = [a.key for a in fixed]
    else:
        bases = _candidate_bases(cache, artifacts)
        if not bases or _same_artifacts(bases, artifacts) is not None:
            return None
        base, keys = bases[0][1], manifest_keys(bases[0][2])
    if base is None:
        return None
    from jdx.graph_schema import spares
    from jdx.graph_schema.store import GRAPH_FILE

    def context() -> None:
        from jdx.loaders.build_context import load_base_context

        load_base_context(base, keys)

    return spares.make_ahead(base / GRAPH_FILE, root, then=context)


def _jdk_base_wanted(artifacts: list[Artifact], shards, bases) -> list[Artifact]:
    """The JDK modules of a workspace that also holds other artifacts, when no built graph holds them all and the
    others are smaller than the JDK (their rows are appended to its graph, as a recompiled class directory's are
    to its jars'); [] otherwise. Nearly every workspace holds the JDK: built once, its graph is the base of all."""
    jdk = [a for a in artifacts if a.kind == "jrt"]
    if not jdk or len(jdk) == len(artifacts):
        return []
    keys = {a.key for a in jdk}
    if any(keys <= {a["key"] for a in m["artifacts"]} for _, _, m in bases):
        return []
    classes = {a.key: int(s.meta.get("classes", 0)) for a, s in zip(artifacts, shards)}
    in_jdk = sum(classes[k] for k in keys)
    return jdk if sum(classes.values()) - in_jdk <= in_jdk else []


def _grown_report(build: Path, counts: dict, warnings: list, failed: list, added: int, how: str, artifacts: int,
                  extracted: int, started: float, t_extracted: float) -> IndexReport:
    """The report of a graph grown from (`update`) or sharing (`share`) another build."""
    t_graph = time.perf_counter()
    return IndexReport(
        graph=build, built=True, artifacts=artifacts, extracted=extracted, classes=counts["classes"],
        members=counts["members"], edges=counts["edges"], seconds=t_graph - started, warnings=warnings,
        failed_artifacts=failed, phases={"extract": round(t_extracted - started, 3), how: round(t_graph - t_extracted, 3)},
        incremental=True, added=added,
    )


def _staged(progress: Progress | None, stage: str) -> Progress | None:
    """`progress` of a base graph built on the way to the asked one: its `graph` phase reported as `stage`
    (`jdk-graph`, `jars-graph`), so the lines name the graph each build makes, never two "workspace graph"s."""
    if progress is None:
        return None
    return lambda got, *a, **k: progress(stage if got == "graph" else got, *a, **k)


def _graph(cache, root, artifacts, ready, force, executor, store, progress, started, t_extracted, extracted,
           kotlin_seconds) -> IndexReport:
    """The graph of `artifacts` from their shards `ready`: grown from a built graph when one serves, else built."""
    if not force:
        from jdx.graph_schema.update import UpdateRefused
        from jdx.loaders.graph_build import IncrementalRefused

        bases = _candidate_bases(cache, artifacts)
        fixed = [a for a in artifacts if a.kind != "dir"]
        if len(fixed) < len(artifacts) and fixed and not any(len(m["artifacts"]) == len(fixed) for _, _, m in bases):
            # a workspace with class directories grows from the graph of its other artifacts, kept for the
            # next change of a directory (rows are appended, never deleted)
            executor.wait()
            ensure_graph(cache, fixed, executor=executor, store=store, progress=_staged(progress, "jars-graph"))
            bases = _candidate_bases(cache, artifacts)
        jdk = _jdk_base_wanted(artifacts, ready, bases)
        if jdk:  # the JDK's graph, kept: every later workspace over this JDK grows from it instead of rebuilding it
            executor.wait()
            ensure_graph(cache, jdk, executor=executor, store=store, progress=_staged(progress, "jdk-graph"))
            bases = _candidate_bases(cache, artifacts)
        same = _same_artifacts(bases, artifacts)
        shared = None
        if same is not None:
            try:
                shared = _share(root, *same, artifacts, ready)
            except OSError:  # the other order's build went (swept by a newer one) or cannot be linked: grow one
                shared = None
        if shared is not None:
            from jdx.graph_schema.retention import mark_used

            mark_used(same[0].parent)
            executor.wait()
            return _grown_report(*shared, 0, "share", len(artifacts), extracted, started, t_extracted)
        for _score, base, manifest in bases[:3]:
            if progress:
                progress("graph", 0, 1)
            try:
                from jdx.graph_schema.retention import mark_used

                mark_used(base.parent)  # a graph others grow from is in use
                build, counts, warnings, failed, added = _update(root, base, manifest, artifacts, ready)
            except (UpdateRefused, IncrementalRefused):
                continue
            except (ShardDamaged, TimeoutExceeded):  # the shard is extracted again / the command ran out of time
                raise
            except Exception:  # noqa: BLE001 - an update that fails for any other reason: build from scratch
                if os.environ.get("JDX_DEBUG"):  # (the answer is the same either way, only slower: say why)
                    import traceback

                    traceback.print_exc()
                continue
            executor.wait()
            if progress:
                progress("graph", 1, 1)
            return _grown_report(build, counts, warnings, failed, added, "update", len(artifacts), extracted, started,
                                 t_extracted)
    if progress:
        progress("graph", 0, 1)
    from jdx.loaders.graph_build import build_graph_tables

    writer = GraphWriter(root)
    try:
        built = build_graph_tables(ready, writer)
        t_tables = time.perf_counter()
        warnings, failed = _all_warnings(ready, built.warnings)
        manifest = _manifest(artifacts, ready, built.counts, warnings)
        executor.wait()  # the shards are in the store before the graph built from them is
        build = writer.commit(manifest)
    except BaseException:
        writer.abort()
        raise
    t_graph = time.perf_counter()
    if progress:
        progress("graph", 1, 1)
    return IndexReport(
        graph=build, built=True, artifacts=len(artifacts), extracted=extracted,
        classes=built.counts["classes"], members=built.counts["members"], edges=built.counts["edges"],
        seconds=time.perf_counter() - started, warnings=warnings, failed_artifacts=failed,
        phases={"extract": round(t_extracted - started, 3), "kotlin": round(kotlin_seconds, 3),
                "tables": round(t_tables - t_extracted, 3),
                "graph_wait": round(t_graph - t_tables, 3)},
    )
