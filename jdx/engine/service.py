"""JdxService: the one facade every adapter (CLI, batch, MCP, HTTP, notebooks) calls. It returns data; it never prints."""

from __future__ import annotations

import platform
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path

from jdx.dirs import cache_dir, config_dir
from jdx.engine.answer import Answer
from jdx.engine.service_graph import GraphCommands
from jdx.engine.service_samples import SamplesCommands
from jdx.engine.service_search import SearchCommands
from jdx.engine.service_source import SourceCommands
from jdx.engine.workspace import Selection, select_workspace
from jdx.errors import ArtifactReadError, NoIndexError, UsageError, Warning_
from jdx.graph_schema import queries
from jdx.graph_schema.schema import NODE_TABLES, REL_TABLES, SCHEMA_VERSION
from jdx.graph_schema.store import GraphStore, backend_name, backend_version
from jdx.loaders.roots import Artifact, resolve_roots

VERSION = "0.1.0"
# cache folders keyed by content (a source file's, a class's), rebuilt on demand: `cache clear` empties them
DERIVED_CACHES = ("srcmap", "srcindex", "decompiled")


@dataclass
class Options:
    """How to find the workspace: the global flags of spec §7.6."""

    workspace: str | None = None
    jars: list[str] = field(default_factory=list)
    src: list[str] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)  # --sources: explicit sources jars/dirs to pair
    jdk: bool | None = None
    cache_dir: str | None = None


class JdxService(GraphCommands, SearchCommands, SourceCommands, SamplesCommands):
    def __init__(self, options: Options | None = None, progress=None):
        self.options = options or Options()
        self.cache = cache_dir(self.options.cache_dir)
        self.progress = progress
        self._selection: Selection | None = None
        self._artifacts: list[Artifact] | None = None
        self._root_warnings: list[Warning_] = []
        self._store: GraphStore | None = None
        self._graph_warnings: list[Warning_] = []

    # --- workspace and graph -------------------------------------------------
    def selection(self) -> Selection:
        if self._selection is None:
            o = self.options
            self._selection = select_workspace(o.workspace, o.jars, o.src, o.jdk)
        return self._selection

    def artifacts(self) -> list[Artifact]:
        if self._artifacts is None:
            spec = self.selection().spec
            jdk_home = None
            if spec.jdk:
                from jdx.loaders.jvm import find_java_home

                jdk_home = find_java_home().home
            resolved = resolve_roots(spec.jars, jdk_home, self.cache)
            self._artifacts = resolved.artifacts
            self._root_warnings = resolved.warnings
            if not self._artifacts:
                failed = [w for w in self._root_warnings if w.code == "ARTIFACT_READ_ERROR"]
                if failed:
                    raise ArtifactReadError("; ".join(w.message for w in failed), warnings=self._root_warnings)
                raise NoIndexError("the workspace has no artifacts: pass --jars, or drop --no-jdk",
                                   warnings=self._root_warnings)
        return self._artifacts

    def index(self, force: bool = False) -> Answer:
        from jdx.loaders.indexer import ensure_graph

        self.close()
        report = ensure_graph(self.cache, self.artifacts(), force=force, progress=self.progress)
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

            report = ensure_graph(self.cache, self.artifacts(), progress=self.progress)
            self._graph_warnings = report.warnings
            self._store = GraphStore(report.graph / "graph.kz", read_only=True)
        return self._store

    def close(self) -> None:
        if self._store is not None:
            self._store.close()
            self._store = None

    # --- commands of the foundation -------------------------------------------
    def cypher(self, query: str) -> Answer:
        if not query.strip():
            raise UsageError("empty Cypher query")
        table = self.store().query(query)
        return Answer({"columns": table.column_names, "rows": table.to_pylist()}, self._root_warnings)

    def cypher_table(self, query: str, params: dict | None = None):
        return self.store().query(query, params)

    def export(self, target: str, fmt: str = "parquet") -> Answer:
        import pyarrow as pa
        import pyarrow.parquet as pq

        if fmt != "parquet":
            raise UsageError(f"unknown export format {fmt!r}: parquet is supported")
        out = Path(target).expanduser()
        if out.exists() and not out.is_dir():
            raise UsageError(f"{target} exists and is not a directory")
        store = self.store()
        out.mkdir(parents=True, exist_ok=True)
        written = {}
        for label in NODE_TABLES:
            table = store.query(queries.export_node(label))
            pq.write_table(table, out / f"{label}.parquet")
            written[label] = table.num_rows
        for name, (pairs, _props) in REL_TABLES.items():
            parts = []
            for src, dst in pairs:
                t = store.query(queries.export_rel(name, src, dst))
                if len(pairs) > 1:
                    t = t.append_column("from_label", pa.array([src] * t.num_rows, pa.string()))
                    t = t.append_column("to_label", pa.array([dst] * t.num_rows, pa.string()))
                parts.append(t)
            table = pa.concat_tables(parts)
            pq.write_table(table, out / f"{name}.parquet")
            written[name] = table.num_rows
        return Answer({"directory": str(out), "format": fmt, "tables": written})

    def version(self) -> Answer:
        return Answer({
            "jdx": VERSION, "python": platform.python_version(), "graph_backend": backend_name(),
            "schema": SCHEMA_VERSION,
        })

    def doctor(self) -> Answer:
        from jdx.loaders import jvm

        checks = []

        def check(name: str, ok: bool, detail: str) -> None:
            checks.append({"check": name, "ok": ok, "detail": detail})

        try:
            home = jvm.find_java_home()
            check("jvm", True, f"{home.home} (from {home.source})")
            check("javac", home.javac is not None, str(home.javac) if home.javac else jvm.INSTALL_JDK)
            src = home.home / "lib" / "src.zip"
            check("jdk sources", src.is_file(), str(src) if src.is_file() else
                  "no lib/src.zip (Debian/Ubuntu: apt-get install openjdk-17-source)")
        except NoIndexError as exc:
            check("jvm", False, exc.message)
        try:
            asm, how = jvm.find_asm(self.cache)
            check("asm", True, f"{asm} (from {how})")
        except NoIndexError as exc:
            check("asm", False, exc.message)
        version = jvm.jpype_version()
        check("jpype", version is not None, f"jpype {version}" if version else "pip install jpype1")
        try:
            check("graph backend", True, backend_version())
        except NoIndexError as exc:
            check("graph backend", False, exc.message)
        check("cache dir", True, str(self.cache))
        check("config dir", True, str(config_dir()))
        try:
            sel = self.selection()
            check("workspace", True, f"{sel.spec.name or '(ad hoc)'} via {sel.how}")
        except NoIndexError as exc:
            check("workspace", False, exc.message)
        ok = all(c["ok"] for c in checks if c["check"] in ("jvm", "asm", "jpype", "graph backend"))
        return Answer({"ok": ok, "checks": checks, "python": sys.version.split()[0]})

    # --- read path -------------------------------------------------------------
    def members(self, type_text: str, opts) -> Answer:
        from jdx.engine.members import list_members

        store = self.store()
        result = list_members(store, type_text, opts)
        from jdx.engine.resolve import artifact_names

        artifact = artifact_names(store).get(result.pop("artifact") or "", "")
        result["artifact_name"] = artifact
        warnings = list(self._root_warnings)
        for u in result["unresolved_supertypes"]:
            warnings.append(Warning_("UNRESOLVED_SUPERTYPE",
                                     f"{u} is not in the workspace: inherited members may be incomplete"))
        provenance = [{"symbol": result["type"], "artifact": artifact, "origin": "bytecode"}]
        if getattr(opts, "with_doc", False):
            docs = self.first_sentence_docs(result["members"])
            for item in result["members"]:
                item["doc"] = docs.get(item["ref"])
            provenance.append({"symbol": result["type"], "artifact": artifact, "origin": "sources",
                               "detail": f"first javadoc sentence of {len(docs)} of {len(result['members'])} members"})
        return Answer(result, warnings, provenance=provenance)

    def _card(self, fn_name: str, text: str, opts) -> Answer:
        from jdx.engine import cards

        store = self.store()
        result, warnings, provenance = getattr(cards, fn_name)(store, text, opts)
        return Answer(result, list(self._root_warnings) + warnings, provenance=provenance)

    def show(self, type_text: str, opts=None) -> Answer:
        """The class card of spec §7.1, with the first sentence of the type's javadoc when sources exist."""
        from jdx.engine.descriptors import fqn_to_internal
        from jdx.engine.src_locate import source_file

        answer = self._card("show_type", type_text, opts)
        ctx = self.source_context()
        type_row = ctx.type_row(fqn_to_internal(answer.result["ref"]))
        found = source_file(ctx, type_row) if type_row else None
        answer.result["sources"] = found[0].root.label if found else None
        answer.result["doc"] = self.type_first_sentence(type_row["id"]) if found else None
        return answer

    def outline(self, type_text: str, opts=None) -> Answer:
        """One dense line per member (spec §7.1)."""
        return self._card("outline_type", type_text, opts)

    def signature(self, member_text: str, opts=None) -> Answer:
        """Signatures of a member's overloads with parameter names, generics, throws, annotations."""
        return self._card("member_signatures", member_text, opts)

    # --- cache ---------------------------------------------------------------
    def cache_info(self) -> Answer:
        def size(path: Path) -> int:
            return sum(p.stat().st_size for p in path.rglob("*") if p.is_file()) if path.exists() else 0

        shards = self.cache / "shards"
        graphs = self.cache / "graphs"
        return Answer({
            "cache_dir": str(self.cache),
            "shards": len([p for p in shards.iterdir() if not p.name.startswith(".")]) if shards.exists() else 0,
            "shard_bytes": size(shards),
            "graphs": len(list(graphs.iterdir())) if graphs.exists() else 0,
            "graph_bytes": size(graphs),
            # rebuilt on demand from sources and class bytes: parses, archive indexes, decompiled classes
            "derived_bytes": sum(size(self.cache / sub) for sub in DERIVED_CACHES),
            "total_bytes": size(self.cache),
        })

    def cache_clear(self) -> Answer:
        removed = 0
        for sub in ("shards", "graphs", "extractor", *DERIVED_CACHES):
            path = self.cache / sub
            if path.exists():
                removed += 1
                shutil.rmtree(path, ignore_errors=True)
        (self.cache / "hashes.json").unlink(missing_ok=True)
        return Answer({"cleared": str(self.cache), "removed": removed})

    def cache_gc(self, dry_run: bool = False) -> Answer:
        """Drops shards and graphs that no named workspace (nor the JDK default) uses."""
        from jdx.engine.workspace import list_workspaces, load_workspace
        from jdx.loaders.indexer import graph_key
        from jdx.loaders.jvm import find_java_home

        keep_shards: set[str] = set()
        keep_graphs: set[str] = set()
        home = None
        try:
            home = find_java_home().home
        except NoIndexError:
            pass
        specs = [load_workspace(n) for n in list_workspaces()]
        candidates = [(s.jars, s.jdk) for s in specs] + [([], True)]
        for jars, jdk in candidates:
            arts = resolve_roots(jars, home if jdk else None, self.cache).artifacts
            keep_shards.update(a.key for a in arts)
            keep_graphs.add(graph_key(arts))
        from jdx.loaders.shards import sweep_partial_shards

        removed = [] if dry_run else [f"shards/{n}" for n in sweep_partial_shards(self.cache)]
        for sub, keep in (("shards", keep_shards), ("graphs", keep_graphs)):
            folder = self.cache / sub
            if not folder.exists():
                continue
            for child in sorted(folder.iterdir()):
                if child.name not in keep and not child.name.startswith("."):
                    removed.append(f"{sub}/{child.name}")
                    if not dry_run:
                        shutil.rmtree(child, ignore_errors=True)
        return Answer({"removed": removed, "dry_run": dry_run, "kept_shards": len(keep_shards)})

    # --- workspaces ----------------------------------------------------------
    def ws_create(self, name: str) -> Answer:
        """A named workspace from the --jars/--src/--jdk of these options."""
        from jdx.engine.workspace import WorkspaceSpec, absolutize, list_workspaces, save_workspace

        if name in list_workspaces():
            raise UsageError(f"workspace {name!r} exists; use jdx ws add {name} <root> or jdx ws remove {name}")
        o = self.options
        spec = WorkspaceSpec(name=name, jars=absolutize(o.jars), src=absolutize(o.src),
                             jdk=True if o.jdk is None else o.jdk)
        path = save_workspace(spec)
        return Answer({"created": name, "file": str(path), **spec.to_json()})

    def ws_list(self) -> Answer:
        from jdx.engine.workspace import current_workspace_name, list_workspaces

        current = current_workspace_name()
        return Answer({"workspaces": [{"name": n, "current": n == current} for n in list_workspaces()]})

    def ws_add(self, name: str, root: str) -> Answer:
        from jdx.engine.workspace import absolutize, load_workspace, save_workspace

        spec = load_workspace(name)
        spec.jars.extend(absolutize([root]))
        save_workspace(spec)
        return Answer({"updated": name, **spec.to_json()})

    def ws_use(self, name: str) -> Answer:
        from jdx.engine.workspace import use_workspace

        use_workspace(name)
        return Answer({"current": name})

    def ws_remove(self, name: str) -> Answer:
        from jdx.engine.workspace import remove_workspace

        remove_workspace(name)
        return Answer({"removed": name})

    def ws_info(self) -> Answer:
        sel = self.selection()
        arts = self.artifacts()
        from jdx.loaders.indexer import fresh_graph

        graph = fresh_graph(self.cache, arts)
        return Answer({
            "workspace": sel.spec.to_json(), "how": sel.how, "artifacts": [a.to_json() for a in arts],
            "indexed": graph is not None,
        }, self._root_warnings)
