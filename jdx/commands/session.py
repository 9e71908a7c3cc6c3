"""The session every command runs in: which workspace, its artifacts, its graph, its sources view.

One per process in one-shot mode, one per daemon (or MCP server, or batch) for its lifetime. It opens the
graph lazily, builds it when missing or stale, and notices a changed workspace (jars, JDK, class
directories) before a query, so a long-lived session answers exactly as a fresh process would.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field

from jdx.commands.root_checks import (comma_hint, default_over_project, project_named, refuse_empty_paths,
                                      workspace_root_hint)
from jdx.dirs import cache_dir
from jdx.engine.answer import Answer
from jdx.engine.workspace import Selection, select_workspace
from jdx.errors import ArtifactReadError, NoIndexError, Warning_
from jdx.graph_schema.store import GRAPH_FILE, GraphStore, file_stamp
from jdx.loaders.roots import Artifact, resolve_roots


@dataclass
class Options:
    """How to find the workspace: the global flags of spec §7.6."""

    workspace: str | None = None
    jars: list[str] = field(default_factory=list)
    src: list[str] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)  # --sources: explicit sources jars/dirs to pair
    jdk: bool | None = None
    cache_dir: str | None = None
    coords: list[str] = field(default_factory=list)  # --coord g:a:v: the artifact and its runtime dependencies
    tests: bool = False  # --tests: a discovered project's test classes and test-scoped dependencies too
    project: str | None = None  # --project DIR: discover the project there instead of the current directory
    all_versions: bool = False  # --all-versions: a Maven repository root in jars gives every version
    fetch: bool = False  # --fetch: --coord may download what is absent locally (spec §13)
    repos: list[str] = field(default_factory=list)  # --repo URL: remote repositories, before Maven Central
    # ("--jars" | "--coord", value) in command-line order: the order `ws create` keeps (empty: --jars, then --coord)
    root_order: list[tuple[str, str]] = field(default_factory=list)


class Session:
    def __init__(self, options: Options | None = None, progress=None):
        self.options = options or Options()
        self.cache = cache_dir(self.options.cache_dir)
        self.progress = progress
        self._selection: Selection | None = None
        self._default_notes: list[Warning_] = []  # WORKSPACE_DEFAULT_OVER_PROJECT, said once
        self._artifacts: list[Artifact] | None = None
        self._root_warnings: list[Warning_] = []
        self._unreadable: list[Warning_] = []
        self._store: GraphStore | None = None
        self._stamp: list[int] | None = None  # the open graph file's [size, mtime_ns] (store.file_stamp)
        self._marked = 0.0  # when this session last stamped its graph as used (retention.mark_used)
        self._duplicated: tuple[GraphStore, frozenset[str]] | None = None
        self._newer: tuple[GraphStore, list[Warning_]] | None = None
        self._graph_warnings: list[Warning_] = []
        # said on the answer that found them only (a damaged cache built again): a daemon's next answers, like a
        # fresh process's, do not repeat them
        self._request_warnings: list[Warning_] = []
        self._source_context = None
        self._jdk_home = None
        self._extra_src: list[str] = []
        self._uncompiled: tuple[GraphStore, list[Warning_]] | None = None
        self.deadline: float | None = None  # time.monotonic() by which graph queries stop (a one-shot --timeout)

    # --- workspace and graph -------------------------------------------------
    def selection(self) -> Selection:
        if self._selection is None:
            o = self.options
            refuse_empty_paths(o)
            selection = select_workspace(o.workspace, o.jars, o.src, o.jdk, o.coords, o.project)
            # --project is explicit: it wins over a default workspace (JDX_WORKSPACE, `ws use`) and merges with
            # explicit --jars/--src/--coord and -w (spec §13: flags merge in)
            if selection.discover or o.project:
                from jdx.loaders.project_root import find_project_root

                found = project_named(o.project) if o.project else find_project_root(".")
                if found is not None:
                    how = f"auto-discovery ({found[1]} project)"
                    selection.how = how if selection.discover else f"{selection.how} + {how}"
                    selection.spec.project = found[0]
                    selection.spec.tests = o.tests
            elif selection.how == "ws use":
                self._default_notes = default_over_project(selection.spec.name)
            self._selection = selection
        return self._selection

    def _classpath(self, spec):
        """Roots from the spec's coordinates (`by_coord`: placed where each stands among the roots) and project
        (spec §13, after the roots)."""
        from jdx.loaders.classpath import Classpath, coordinate_roots

        extra = Classpath()
        if spec.coords:
            from jdx.loaders.maven_repo import fetch_settings

            fetch = fetch_settings(self.options.fetch, self.options.repos)
            extra.extend(coordinate_roots(self.cache, spec.coords, fetch))
        if spec.project:
            from jdx.loaders.project import discover, project_classpath
            from jdx.loaders.project_root import find_project_root

            found = find_project_root(spec.project)
            kind = found[1] if found and found[0] == spec.project else "plain"
            project = discover(spec.project, kind, spec.tests or self.options.tests)
            extra.extend(project_classpath(self.cache, project, spec.tests or self.options.tests))
        return extra

    def _resolve(self):
        if self.cache.exists() and not self.cache.is_dir():  # JDX_CACHE_DIR naming a file: never an internal error
            from jdx.errors import EnvironmentMissing

            raise EnvironmentMissing(f"the cache directory {self.cache} is a file, not a directory",
                                     hint="set JDX_CACHE_DIR (or --cache-dir) to a directory; jdx doctor checks it")
        selection = self.selection()
        spec = selection.spec
        extra = self._classpath(spec)
        selection.details = list(extra.how)
        self._extra_src = list(extra.src)
        jdk_home = None
        if spec.jdk:
            if self._jdk_home is None:
                from jdx.loaders.jvm import find_java_home

                self._jdk_home = find_java_home().home
            jdk_home = self._jdk_home
        from jdx.loaders.classpath import whole_globs

        all_versions = spec.all_versions or self.options.all_versions
        roots: list[str] = []
        glob_warnings: list[Warning_] = []
        coords = set(spec.coords)
        for root in spec.roots:  # in the order given: a coordinate's roots where it stands
            if root in coords:
                roots.extend(extra.by_coord.get(root, ()))
            else:
                jars, warnings = whole_globs([root], all_versions)
                roots.extend(jars)
                glob_warnings.extend(warnings)
        placed = set(roots)
        roots.extend(r for r in extra.roots if r not in placed)  # the project's
        resolved = resolve_roots(roots, jdk_home, self.cache, extra.names, all_versions=all_versions)
        resolved.warnings[:0] = self._default_notes + glob_warnings + extra.warnings
        resolved.unreadable[:0] = extra.unreadable
        return resolved

    def artifacts(self) -> list[Artifact]:
        if self._artifacts is None:
            resolved = self._resolve()
            self._artifacts = resolved.artifacts
            self._root_warnings = resolved.warnings
            self._unreadable = resolved.unreadable
            if not self._artifacts:
                if self._unreadable:  # a root asked for by name is missing: say which (exit 5), not "no artifacts"
                    self.check_roots()
                failed = [w for w in self._root_warnings if w.code == "ARTIFACT_READ_ERROR"]
                if failed:
                    raise ArtifactReadError("; ".join(w.message for w in failed), warnings=self._root_warnings,
                                            hint=comma_hint(failed))
                raise NoIndexError("the workspace has no artifacts: pass --jars, or drop --no-jdk",
                                   warnings=self._root_warnings)
        return self._artifacts

    def unreadable_roots(self) -> list[Warning_]:
        """The roots the workspace names that cannot be read (missing, not a file): check_roots fails on them."""
        self.artifacts()
        return list(self._unreadable)

    def missing_src(self) -> list[str]:
        """The workspace's stored source directories that do not exist, each as `src PATH: no such ...`."""
        return [f"src {p}: no such file or directory" for p in getattr(self.selection().spec, "src", []) or []
                if not os.path.exists(p)]

    @property
    def root_warnings(self) -> list[Warning_]:
        return list(self._root_warnings)

    def check_roots(self) -> None:
        """Before any answer: an explicit root that is missing or unreadable is an error (exit 5) naming it,
        never an answer from the rest of the classpath that looks complete (spec §16). So is a `--src` or `--sources`
        path of the command line that does not exist: the answer would say NO_SOURCES and ask for the flag given."""
        self.artifacts()
        missing = [f"{flag} {p}: no such file or directory" for flag, values in (
            ("--src", self.options.src), ("--sources", self.options.sources))
            for p in values if not os.path.exists(os.path.expanduser(p))]
        if missing:
            raise ArtifactReadError(f"cannot read {'; '.join(missing)}", warnings=self.workspace_warnings(),
                                    hint="check the path, or drop it")
        if self.missing_src():  # as a missing jar of the workspace: its sources would silently be decompiled text
            raise ArtifactReadError(f"cannot read {'; '.join(self.missing_src())}", warnings=self.workspace_warnings(),
                                    hint=workspace_root_hint(self.selection().spec.name))
        if self._unreadable:
            names = "; ".join(w.message for w in self._unreadable)
            # --jars on the command line, no named workspace; or the missing root came from the flags, not from the
            # workspace they add to (dropping it from the workspace would fail: it is no root there)
            flagged = [j for j in self.options.jars or () if any(j in w.message for w in self._unreadable)]
            adhoc = self.selection().how == "flags" or bool(flagged)
            coords = all(w.message.startswith("--coord ") for w in self._unreadable)
            fetching = any(" and not fetched from " in w.message for w in self._unreadable)
            hint = (("check the coordinate and the repositories (--repo URL), or drop it from --coord" if fetching
                     else "check the coordinate, add --fetch to download it, or drop it from --coord") if coords
                    else comma_hint(self._unreadable) or "check the path, or drop it from --jars")
            raise ArtifactReadError(f"cannot read {names}", warnings=self.workspace_warnings(),
                                    hint=hint if adhoc else workspace_root_hint(self.selection().spec.name, coords))

    def workspace_warnings(self) -> list[Warning_]:
        """What every answer of this workspace carries (spec §16, warnings never silent): its roots' warnings,
        artifacts the graph could not read, and one line per other code the graph build reported (corrupt
        classes, ...). DUPLICATE_CLASS and a class's own warnings (its Kotlin metadata, ...) go only on the
        answers about that class (`class_warnings`)."""
        out = list(self._root_warnings) + self._request_warnings + self._uncompiled_src() + self._newer_than_jdk()
        per_code: dict[str, list[Warning_]] = {}
        for w in self._graph_warnings:
            if w.code == "ARTIFACT_READ_ERROR":
                out.append(w)
            elif w.code != "DUPLICATE_CLASS" and not _class_scoped(w.code) and w.code not in ARTIFACT_SCOPED:
                per_code.setdefault(w.code, []).append(w)
        for code, ws in sorted(per_code.items()):
            if len(ws) == 1:
                out.append(ws[0])
            else:
                out.append(Warning_(code, f"{len(ws)} warnings of this kind, first: {ws[0].message} "
                                          f"(jdx index --json lists them all)", ws[0].artifact))
        return out

    def _newer_than_jdk(self) -> list[Warning_]:
        """CLASS_NEWER_THAN_JDK for the artifacts with class files newer than the workspace's JDK (a jar built for
        Java 25 over a JDK 17): the classes of the newer JDK they use are external to the workspace. Checked once
        per open graph (never opens it), from the build's manifest (manifests.graph_facts), else the graph."""
        store = self._store
        if store is None:
            return []
        if self._newer is None or self._newer[0] is not store:
            from jdx.graph_schema.queries_search import ARTIFACT_VERSIONS

            facts = store.facts
            rows = ([{"name": n, "kind": k, "version": v} for n, k, v in facts["newest"]] if facts is not None
                    else store.rows(ARTIFACT_VERSIONS))
            jdk = max((r["version"] or 0 for r in rows if r["kind"] == "jrt"), default=0)
            newer = [r for r in rows if r["kind"] != "jrt" and jdk and (r["version"] or 0) > jdk]
            self._newer = (store, [Warning_(
                "CLASS_NEWER_THAN_JDK",
                f"{r['name']} has class files for Java {r['version'] - 44} (major {r['version']}), newer than the "
                f"workspace's JDK (Java {jdk - 44}): the classes it uses from a newer JDK are external here "
                f"(not found); set JAVA_HOME to a JDK {r['version'] - 44}+ to answer from its classes",
                r["name"]) for r in newer])
        return list(self._newer[1])

    def _uncompiled_src(self) -> list[Warning_]:
        """SOURCES_NOT_COMPILED for the explicit source directories (`--src`, a workspace's src) none of whose classes
        the open graph holds; a discovered project's are PROJECT_NOT_BUILT already. Checked once per graph."""
        store = self._store
        named = list(getattr(self.selection().spec, "src", []) or []) + list(self.options.src or [])
        explicit = list({os.path.realpath(os.path.expanduser(d)): d for d in reversed(named)}.values())[::-1]
        if store is None or not explicit:
            return []
        if self._uncompiled is None or self._uncompiled[0] is not store:
            from jdx.engine.unbuilt_sources import uncompiled_warnings

            self._uncompiled = (store, uncompiled_warnings(store, explicit))
        return list(self._uncompiled[1])

    def graph_warnings(self) -> list[Warning_]:
        """Every warning the graph build reported, one per entry (workspace_warnings summarises each code)."""
        return list(self._graph_warnings)

    @property
    def is_open(self) -> bool:
        """Whether the workspace graph is open (a query past this point reads it; before it, it may be built)."""
        return self._store is not None

    def unread_artifacts(self) -> list[str]:
        """The artifacts of the graph that could not be read whole (not a zip, over the entry cap, past the
        decompressed-size cap): a symbol not found may be in one of them. One class file over the size cap,
        skipped alone, is not one: the rest of its artifact was read."""
        return sorted({w.artifact or w.message.split(":", 1)[0] for w in self._graph_warnings
                       if w.code == "ARTIFACT_READ_ERROR" or (w.code == "ZIP_BOMB" and _stopped_reading(w))})

    def class_warnings(self, fqn: str) -> list[Warning_]:
        """The build's warnings about one class (the class is in the graph; only a view of it is degraded), and
        STALE_CLASS_FILE when a class directory's copy of it is a file an earlier build left."""
        want = fqn.replace("$", ".")
        out = []
        for w in self._graph_warnings:
            if _class_scoped(w.code) or w.code == "DUPLICATE_CLASS":
                entry = w.message.split(": ", 2)[1] if w.message.count(": ") >= 2 else ""
                if entry.removesuffix(".class").replace("/", ".").replace("$", ".") == want:
                    out.append(w)
        return out + self._stale_class(fqn)

    def _stale_class(self, fqn: str) -> list[Warning_]:
        if not any(a.kind == "dir" for a in self.artifacts()):
            return []
        from jdx.engine.refs import parse_ref
        from jdx.engine.stale_classes import stale_class_warnings
        from jdx.errors import RefSyntaxError

        try:
            ref = parse_ref(fqn)  # the answer's subject, a whole name: its binary-name candidates, no name search
        except RefSyntaxError:
            return []
        ctx = self.source_context()
        for name in ref.type_candidates():
            row = ctx.type_row(name.replace(".", "/"))
            if row is not None and not row.get("external"):
                return stale_class_warnings(ctx, row["id"])
        return []

    def read_warnings(self) -> list[Warning_]:
        """How the whole workspace was read (`ws info`, `jdx_workspace`): what every answer carries and how each
        artifact was read (opens the graph)."""
        self.store()
        return self.workspace_warnings() + self.artifact_warnings({a.name for a in self.artifacts()})

    def artifact_warnings(self, artifacts: set[str], subjects: dict[str, set[str]] | None = None) -> list[Warning_]:
        """The build's warnings about how an artifact was read (multi-release variants), for answers from it. With
        `subjects` (artifact name -> the classes an answer is about), a multi-release jar's warning is given only
        for a class it also holds under META-INF/versions/N/, naming it: the JVM of that release loads that one."""
        from jdx.commands.versioned import versioned_class_warnings

        out = []
        for w in self._graph_warnings:
            if w.code not in ARTIFACT_SCOPED or w.artifact not in artifacts:
                continue
            if subjects is None:
                out.append(w)
                continue
            for jar in (a for a in self.artifacts() if a.name == w.artifact and a.kind == "jar"):
                out += versioned_class_warnings(jar.name, jar.path, subjects.get(w.artifact, set()))
        return out

    def is_duplicated(self, fqn: str) -> bool:
        """Whether several artifacts provide the class `fqn` (a shadowed copy exists); one query per graph."""
        if not any(w.code == "DUPLICATE_CLASS" for w in self._graph_warnings):
            return False
        store = self.store()
        if self._duplicated is None or self._duplicated[0] is not store:
            from jdx.graph_schema.queries_search import DUPLICATED_FQNS

            rows = store.rows(DUPLICATED_FQNS)
            self._duplicated = (store, frozenset(r["fqn"] for r in rows))
        return fqn in self._duplicated[1]

    def refresh(self) -> bool:
        """For long-lived sessions: re-reads the workspace's roots (and the named workspace's definition);
        when an artifact changed, was added or removed, drops the open graph so the next query rebuilds it.
        True when something changed."""
        if self._artifacts is None:
            return False
        self._selection = None
        before = [a.key for a in self._artifacts]
        resolved = self._resolve()
        if [a.key for a in resolved.artifacts] == before:
            self._root_warnings = resolved.warnings
            self._unreadable = resolved.unreadable
            return False
        self.close()
        self._artifacts = None
        self._graph_warnings = []
        return True

    def index(self, force: bool = False, executor: str | None = None, ray_address: str | None = None,
              shards: str | None = None) -> Answer:
        """Builds the graph; the artifacts without a shard are extracted by `executor` (local | ray, default
        JDX_EXECUTOR else local) into the shard store `shards` (a pyarrow filesystem URI, default JDX_SHARDS else
        the cache)."""
        from jdx.loaders.executors import ExecutorConfig
        from jdx.loaders.indexer import ensure_graph

        config = ExecutorConfig.resolve(executor, ray_address, shards)
        store = config.store(self.cache)
        self.close()
        artifacts = self.artifacts()
        from jdx.commands.diff_artifacts import surface_for_shard

        report = ensure_graph(self.cache, artifacts, force=force, progress=self.progress,
                              executor=config.executor(), store=store, shard_extra=surface_for_shard)
        warnings = self._root_warnings + report.warnings
        result = {
            "built": report.built,
            "artifacts": report.artifacts,
            "extracted": report.extracted,
            "classes": report.classes,
            "members": report.members,
            "edges": report.edges,
            "seconds": round(report.seconds, 3),
            "graph": str(report.graph),
            "phases": report.phases,
        }
        if report.executor:
            result["executor"] = report.executor
        if config.shards:
            result["shards"] = store.uri
        if report.failed_artifacts or any(w.code == "ARTIFACT_READ_ERROR" for w in self._root_warnings):
            failed = report.failed_artifacts + [w.artifact for w in self._root_warnings
                                                if w.code == "ARTIFACT_READ_ERROR"]
            raise ArtifactReadError(
                f"{len(failed)} artifact(s) could not be read: {', '.join(sorted(set(failed)))}; "
                f"the rest of the workspace is indexed",
                warnings=warnings,
                result=result,
            )
        return Answer(result, warnings)

    def store(self) -> GraphStore:
        """The workspace graph, opened read-only; built first when missing or stale."""
        if self._store is None:
            from jdx.loaders.indexer import ensure_graph

            from jdx.commands.diff_artifacts import surface_for_shard

            report = ensure_graph(self.cache, self.artifacts(), progress=self.progress, shard_extra=surface_for_shard)
            try:
                self._store = self._open(report)
            except Exception:
                if (report.graph / GRAPH_FILE).exists() and not _changed(report):
                    raise
                # evicted between the check and the open (retention: it had not been used for a while), or damaged
                # since (CACHE_DAMAGED): built again
                warnings = report.warnings
                report = ensure_graph(self.cache, self.artifacts(), progress=self.progress,
                                      shard_extra=surface_for_shard)
                report.warnings = [w for w in warnings if w.code == "CACHE_DAMAGED"] + report.warnings
                self._store = self._open(report)
            self._graph_warnings = [w for w in report.warnings if w.code != "CACHE_DAMAGED"]
            self._request_warnings = [w for w in report.warnings if w.code == "CACHE_DAMAGED"]
            self._marked = time.monotonic()
            # a type missing from this graph that a source directory declares is answered with that file; asked on a
            # miss only (`unbuilt_sources.dirs_of`), so a query that finds its type pays nothing for it
            self._store.workspace_source_dirs = lambda: (self.source_dirs(), self.selection().spec.project)
        elif time.monotonic() - self._marked > MARK_USED_EVERY:  # a long-lived process still uses its graph
            from jdx.graph_schema.retention import mark_used

            mark_used(self._store.path.parent.parent)
            self._marked = time.monotonic()
        self._store.deadline = self.deadline
        return self._store

    def interrupt(self) -> None:
        """Stops the graph query under way, from another thread (jdx.commands.host.Call.stop); nothing when the
        graph is not open or no query runs."""
        store = self._store
        if store is not None:
            store.interrupt()

    def _open(self, report) -> GraphStore:
        """The report's graph opened read-only, once its file is checked against the stamp its manifest recorded
        (a damaged graph file can crash Kùzu: `_Damaged` then, and the caller builds the workspace again)."""
        path = report.graph / GRAPH_FILE
        stamp = _stamp_now(path)
        if report.graph_stamp and stamp != list(report.graph_stamp):
            raise _Damaged(str(path))
        store = GraphStore(path, read_only=True)
        store.facts = report.facts
        self._stamp = stamp
        return store

    def close(self) -> None:
        if self._store is not None:
            self._store.close()
            self._store = None
        self._stamp = None
        self._source_context = None

    # --- sources ---------------------------------------------------------------
    def source_context(self):
        """The sources view of this workspace (pairing per artifact, parse cache); built once per graph."""
        from jdx.engine.src_locate import SourceContext
        from jdx.loaders.jvm_tools import LoaderJvmTools

        store = self.store()
        if self._source_context is None or self._source_context.store is not store:
            self._source_context = SourceContext(store, self.cache, {a.key: a for a in self.artifacts()},
                                                 list(self.options.sources or []), self.source_dirs(),
                                                 jvm=LoaderJvmTools())
        return self._source_context

    def begin_request(self) -> None:
        """Before each answer: source files are read afresh (an agent edits them between two questions to a daemon;
        the graph follows the class files, `refresh`), and the open graph's file is checked (one stat)."""
        self._request_warnings = []
        if self._source_context is not None:
            self._source_context.forget_files()
        if self._store is not None and _stamp_now(self._store.path) not in (self._stamp, None):
            # the open graph's file was written since it was opened (damaged: a published graph never is, and Kùzu
            # may crash on the pages it has not read yet): closed, so this answer builds the workspace again
            self.close()

    def source_dirs(self) -> list[str]:
        """The workspace's source directories: the spec's and the discovered project's (src/main/java, ...), then
        --src."""
        self.artifacts()
        spec_src = list(getattr(self.selection().spec, "src", []) or []) + self._extra_src
        return list(dict.fromkeys(spec_src + list(self.options.src or [])))

    def source_window(self, type_id: str, line: int, context: int = 3) -> dict | None:
        """Lines around `line` of class `type_id` from its sources (for `samples`); None without sources."""
        from jdx.engine.src_source import source_window

        return source_window(self.source_context(), type_id, line, context)

    def reconstructed_window(self, caller_id: str, target_id: str, is_field: bool, context: int = 2,
                             line: int | None = None) -> dict | None:
        """Lines around a use in the decompiled text of its enclosing method (`samples` without sources); `line`,
        the site's class-file line, places a use the text does not spell (an inlined call) by the line map."""
        from jdx.engine.src_samples import reconstructed_window

        return reconstructed_window(self.source_context(), caller_id, target_id, is_field, context, line)

    def first_sentence_docs(self, items: list[dict], warnings: list | None = None,
                            inherited: dict | None = None) -> dict[str, str]:
        """First javadoc sentence per `members` result item (`members --with-doc`), keyed by its ref; `warnings`
        gets a NO_SOURCES for each declaring type without sources, `inherited` the overridden method whose
        sentence a ref shows."""
        from jdx.engine.src_doc import first_sentence_docs

        return first_sentence_docs(self.source_context(), items, warnings, inherited)

    def type_first_sentence(self, type_id: str) -> str | None:
        """First javadoc sentence of a type (`show`'s doc line); None without sources or javadoc."""
        from jdx.engine.src_doc import type_first_sentence

        return type_first_sentence(self.source_context(), type_id)


# warnings that matter to the answers drawn from their artifact, not to every answer of the workspace
ARTIFACT_SCOPED = frozenset({"MULTI_RELEASE_JAR"})
MARK_USED_EVERY = 300.0  # seconds: a daemon holding its graph open keeps it among the recently used


class _Damaged(Exception):
    """The graph file changed between the index check and its opening."""


def _stamp_now(path) -> list[int] | None:
    try:
        return file_stamp(path)
    except OSError:  # gone (swept after a newer build): an open store keeps answering from its open file
        return None


def _changed(report) -> bool:
    """Whether the report's graph file is no longer the one its build published."""
    return bool(report.graph_stamp) and _stamp_now(report.graph / GRAPH_FILE) != list(report.graph_stamp)


# ZIP_BOMB warnings that stopped the reading of their artifact (jdx/loaders/java/jdx/extract/Extractor.java): the
# entry-count caps and the decompressed-size cap ("...; rest skipped"); one class file over its own cap is skipped alone
_STOPPED_READING = ("entries, over the cap of", "class files, over the cap of", "; rest skipped")


def _stopped_reading(w: Warning_) -> bool:
    return any(marker in w.message for marker in _STOPPED_READING)


def _class_scoped(code: str) -> bool:
    """Warnings about one class that the graph still holds whole: its Kotlin metadata could not be read."""
    return code.startswith("KOTLIN_")
