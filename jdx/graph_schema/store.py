"""The one owner of the graph database: opening, bulk loading, and running Cypher.

Nothing outside this package imports kuzu (or its fork ladybug, chosen by JDX_GRAPH_BACKEND=ladybug).
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import tempfile
import time
import uuid
from pathlib import Path

from typing import TYPE_CHECKING

from jdx.dirs import pid_alive
from jdx.errors import JdxError, NoIndexError, QueryTooLarge, TimeoutExceeded, UsageError
from jdx.graph_schema.context_files import COMPRESSION, compression_for, part_name
from jdx.graph_schema.schema import NODE_TABLES, REL_TABLES, SCHEMA_VERSION, ddl

if TYPE_CHECKING:
    import pyarrow as pa

GRAPH_FILE = "graph.kz"
MEMO_ENTRIES = 3000  # remembered answers per open store; cleared wholesale when full
# method rows a reader fetches through node properties before it loads every method's id, access,
# artifact and external flag by offset (~0.1-0.2 s and ~30 MB once for the JDK's 227k methods; loaded at the
# start of the next query, never in the middle of one): after that, big answers read only edge properties and
# offsets. A one-shot answer below this many method rows never pays for it
METHOD_COLUMNS_AFTER = 5000
# members of a build past which its COPYs wait for the build's edges (GraphWriter.expect): the JDK has 333k
DEFER_COPIES_FROM = 1_000_000
MANIFEST = "manifest.json"
CURRENT = "current"
BUILD_BUFFER_MB = 768  # the writer's buffer pool: a Maven repository's 2.8M members fail to COPY in 512 MB
MIN_BUILD_BUFFER_MB = 64


def build_buffer_mb() -> int:
    """The writer's buffer pool in MB: JDX_BUILD_BUFFER_MB, else BUILD_BUFFER_MB."""
    raw = os.environ.get("JDX_BUILD_BUFFER_MB", "").strip()
    if not raw:
        return BUILD_BUFFER_MB
    try:
        mb = int(raw)
    except ValueError:
        mb = -1
    if mb < MIN_BUILD_BUFFER_MB:
        raise UsageError(f"JDX_BUILD_BUFFER_MB={raw!r}: give a whole number of megabytes, at least "
                         f"{MIN_BUILD_BUFFER_MB} (default {BUILD_BUFFER_MB})")
    return mb


def build_failed(error: RuntimeError) -> JdxError:
    """A failed COPY as the user can act on it: a full buffer pool names the setting that sizes it."""
    message = str(error).splitlines()[0] if str(error) else "the database refused a COPY"
    if "buffer pool is full" not in message:
        return JdxError(f"building the graph failed: {message}")
    mb = build_buffer_mb()
    text = f"building the graph ran out of its {mb} MB buffer pool"
    if os.environ.get("JDX_BUILD_BUFFER_MB", "").strip():  # the user's setting, not the default
        return UsageError(f"{text} (JDX_BUILD_BUFFER_MB={mb})",
                          hint=f"raise JDX_BUILD_BUFFER_MB or unset it (default {BUILD_BUFFER_MB})")
    return JdxError(text, hint=f"set JDX_BUILD_BUFFER_MB above {mb} (megabytes) and run the command again")


def backend_name() -> str:
    return os.environ.get("JDX_GRAPH_BACKEND", "kuzu").strip().lower() or "kuzu"


def backend():
    """The graph database module: kuzu (default) or ladybug, which has the same API."""
    name = backend_name()
    if name == "kuzu":
        import kuzu

        return kuzu
    if name == "ladybug":
        try:
            import ladybug
        except ImportError as exc:
            raise NoIndexError(
                "JDX_GRAPH_BACKEND=ladybug but ladybug is not installed: pip install 'jdx[ladybug]'"
            ) from exc
        return ladybug
    raise UsageError(f"unknown JDX_GRAPH_BACKEND {name!r}: use kuzu or ladybug")


def backend_version() -> str:
    mod = backend()
    return f"{backend_name()} {getattr(mod, '__version__', '?')}"


class GraphStore:
    """A workspace graph opened read-only (queries) or for writing (one build)."""

    def __init__(self, path: Path, read_only: bool = True):
        mod = backend()
        self.path = path
        self.read_only = read_only
        options = {}
        if read_only:
            # the default pool (80% of RAM) costs ~100 ms to set up; a reader needs a few times the file
            try:
                size = path.stat().st_size
            except OSError:
                size = 0
            options["buffer_pool_size"] = min(max(4 * size, 256 << 20), 8 << 30)
        else:
            options["buffer_pool_size"] = build_buffer_mb() << 20
        self._db = _open_database(mod, path, read_only, options)
        self._conn = mod.Connection(self._db)
        # a read-only graph never changes while open, so answers can be remembered (bounded)
        self.memo: dict = {}
        self._statements: dict = {}
        self._method_columns: tuple[list, list, list, list] | None = None
        # indexes a long-lived reader derives once from its method columns (engine.relations.reader_index)
        self.reader_indexes: dict = {}
        self._method_rows_read = 0
        # the build's search index files, held open with the graph: a newer build of the workspace may sweep this
        # one before this reader's first search, and an open file outlives its name (search_files.read_index)
        self.search_files: list = []
        # time.monotonic() by which a query must stop (a one-shot command's --timeout): Kùzu's own query timeout
        # ends a query running in its engine, where no Python signal handler runs until it returns
        self.deadline: float | None = None
        self._timed = False
        # what every answer asks of the graph, recorded by its build (manifests.graph_facts); None: ask the graph
        self.facts: dict | None = None
        if read_only:
            from jdx.graph_schema.search_files import open_parts

            self.search_files = open_parts(path.parent)

    def _prepared(self, cypher: str):
        """One prepared statement per query text: executing text with parameters prepares anew each time,
        and those statements are never freed (measured: ~5-25 KB per call with kuzu 0.11.3)."""
        statement = self._statements.get(cypher)
        if statement is None:
            import warnings

            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DeprecationWarning)
                statement = self._conn.prepare(cypher)
            if not statement.is_success():
                raise RuntimeError(statement.get_error_message())
            self._statements[cypher] = statement
        return statement

    def interrupt(self) -> None:
        """Stops the query this store's connection runs now, from another thread (a server's per-call deadline,
        a cancelled MCP call); that query raises TimeoutExceeded. Nothing happens when none runs."""
        self._conn.interrupt()

    def _time_limit(self) -> None:
        if self.deadline is not None:
            self._conn.set_query_timeout(max(1, int((self.deadline - time.monotonic()) * 1000)))
            self._timed = True
        elif self._timed:
            self._conn.set_query_timeout(0)
            self._timed = False

    def _execute(self, cypher: str, params: dict | None):
        self._time_limit()
        try:
            if params:
                result = self._conn.execute(self._prepared(cypher), params)
            else:
                result = self._conn.execute(cypher)
        except RuntimeError as exc:
            message = str(exc).splitlines()[0] if str(exc) else "query failed"
            if message.startswith("Interrupted"):  # interrupt() or the deadline's query timeout
                raise TimeoutExceeded("the graph query was stopped: it ran past its time") from exc
            if self.read_only and ("read-only" in message.lower() or "read only" in message.lower()):
                raise UsageError(f"the graph is read-only: writes are refused ({message})") from exc
            if "buffer pool is full" in message:
                raise QueryTooLarge(f"the graph query needs more memory than the graph's buffer pool holds ({message})",
                                    hint="narrow it: bound a variable-length path (*1..2), match fewer start nodes "
                                         "before expanding, aggregate or LIMIT sooner") from exc
            raise UsageError(f"cypher: {message}") from exc
        if isinstance(result, list):  # several statements (jdx cypher refuses them; a caller of the store may not)
            result = _LastResult(result)
        return result

    def query(self, cypher: str, params: dict | None = None) -> "pa.Table":
        """Runs Cypher and returns the rows as an Arrow table (an empty one when the statement has no columns)."""
        import pyarrow as pa

        result = self._execute(cypher, params)
        try:
            if not result.get_column_names():  # Kùzu's get_as_arrow divides by the column count
                return pa.table({})
            return result.get_as_arrow()
        finally:
            result.close()

    def rows(self, cypher: str, params: dict | None = None) -> list[dict]:
        """Runs Cypher and returns plain dicts (no Arrow on the hot query path)."""
        names, values = self.value_rows(cypher, params)
        return [dict(zip(names, v)) for v in values]

    def value_rows(self, cypher: str, params: dict | None = None) -> tuple[list[str], list[list]]:
        """Runs Cypher and returns (column names, each row's values): for callers that rewrite values before
        making rows of them."""
        result = self._execute(cypher, params)
        names = result.get_column_names()
        values = result.get_all()
        result.close()
        return names, values

    def rows_cached(self, cypher: str, params: dict | None = None) -> list[dict]:
        """rows(), remembered for the life of this read-only store."""
        key = (cypher, tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in (params or {}).items())))
        found = self.memo.get(key)
        if found is None:
            if len(self.memo) > MEMO_ENTRIES:
                self.memo.clear()
            found = self.memo[key] = self.rows(cypher, params)
        return found

    def method_columns(self) -> tuple[list, list, list, list] | None:
        """(ids, access, artifact, external) of every Method node indexed by its offset, for a reader that has
        already fetched METHOD_COLUMNS_AFTER method rows through node properties (None before, and always
        for a writer, whose graph changes)."""
        if self._method_columns is None and self.read_only and self._method_rows_read >= METHOD_COLUMNS_AFTER:
            self._load_method_columns()
        return self._method_columns

    def count_method_rows(self, n: int) -> None:
        """`n` method rows were read through node properties."""
        self._method_rows_read += n

    def _load_method_columns(self) -> None:
        """Python lists, put in offset order by one permutation (`itemgetter`: a C loop) rather than an Arrow
        take of the string columns, and one artifact string per artifact rather than one per method."""
        from operator import itemgetter

        import pyarrow.compute as pc

        from jdx.graph_schema.queries_graph import METHOD_COLUMNS

        table = self.query(METHOD_COLUMNS)
        n = table.num_rows
        offsets = table["o"]
        order = None
        if n > 1 and not pc.all(pc.greater(offsets[1:], offsets[:-1])).as_py():
            order = pc.sort_indices(offsets)
            offsets = offsets.take(order)
        if n and (offsets[0].as_py() != 0 or offsets[-1].as_py() != n - 1):
            self._method_rows_read = -(1 << 62)  # offsets with gaps: keep reading properties
            return
        place = itemgetter(*order.to_pylist()) if order is not None else None

        def column(values: list) -> list:
            return list(place(values)) if place is not None else values

        shared: dict = {}
        artifact = [shared.setdefault(a, a) for a in table["artifact"].to_pylist()]  # one string per artifact
        self._method_columns = (column(table["id"].to_pylist()), column(table["access"].to_pylist()),
                                column(artifact), column(table["external"].to_pylist()))

    def _close_search_files(self) -> None:
        for _stem, _kind, handle in self.search_files:
            handle.close()
        self.search_files = []

    def __del__(self) -> None:  # a store dropped unclosed lets go of its index files too
        try:
            self._close_search_files()
        except Exception:  # noqa: BLE001 - a half-made store at interpreter exit
            pass

    def close(self) -> None:
        self._close_search_files()
        try:
            self._conn.close()
            self._db.close()
        except Exception:  # noqa: BLE001 - closing twice or after a failed open
            pass

    def __enter__(self) -> "GraphStore":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _copy_node(self, name: str, table: "pa.Table") -> None:
        _scan_ready()
        cols = [c for c, _ in NODE_TABLES[name]]
        data = table.select(cols).combine_chunks()  # noqa: F841 - read by name by the COPY below (see _copy_rel)
        self._conn.execute(f"COPY {name} FROM data")

    def _copy_file(self, name: str, path: Path, src: str | None = None, dst: str | None = None) -> None:
        """COPY from a spooled Parquet file (`spool_table`): one statement per table, as from Arrow, but the
        rows wait on disk instead of in memory, and Kùzu reads the row groups on all its threads."""
        options = f" (from='{src}', to='{dst}')" if src is not None and len(REL_TABLES[name][0]) > 1 else ""
        literal = str(path).replace("\\", "\\\\").replace("'", "\\'")
        self._conn.execute(f"COPY {name} FROM '{literal}'{options}")

    def _copy_rel(self, name: str, src: str, dst: str, table: "pa.Table", into: str | None = None) -> None:
        """COPY into relationship table `name` (or its twin `into`, which has the same ends and properties)."""
        _scan_ready()
        cols = ["from", "to"] + [c for c, _ in REL_TABLES[name][1]]
        # one chunk per column: Kùzu 0.11's COPY from an Arrow table silently skips rows after an empty chunk
        # (tables concatenated per artifact have one for every artifact without such edges); on the JDK it
        # lost 96k calls and 520k type references before this
        data = table.select(cols).combine_chunks()  # noqa: F841 - read by name by the COPY below
        many = len(REL_TABLES[name][0]) > 1
        options = f" (from='{src}', to='{dst}')" if many else ""
        self._conn.execute(f"COPY {into or name} FROM data{options}")


def _scan_ready() -> None:
    """Kùzu's COPY from a Python table asks `importlib.util.find_spec("pandas")` without importing `importlib.util`:
    in a process where nothing else imported it the COPY fails (and an incremental update with it)."""
    import importlib.util  # noqa: F401


class _LastResult:
    """The last of several statements' results. Kùzu chains them to the first, which frees the others when it goes
    (a later read of the last then crashes the process), so all are held until closed, the first last."""

    def __init__(self, results: list):
        self._results = results

    def get_column_names(self) -> list[str]:
        return self._results[-1].get_column_names()

    def get_all(self) -> list:
        return self._results[-1].get_all()

    def get_as_arrow(self):
        return self._results[-1].get_as_arrow()

    def close(self) -> None:
        for result in reversed(self._results):
            result.close()


SIDE_FILES = (".shadow", ".wal")  # Kùzu's checkpoint pages and write-ahead log, beside the database file


def _open_database(mod, path: Path, read_only: bool, options: dict):
    """The database at `path`. A published build (its `manifest.json` written after the writer closed the database,
    which checkpoints it and removes its side files) that has side files got them from a reader: Kùzu opens a
    read-only database file read-only, so a reader that tried to write (a CHECKPOINT, refused since by the guard)
    failed before changing it and left only the side files, which hold no committed write and stop every later
    reader ("Couldn't replay shadow pages under read-only mode"). Those are set aside and the build opens as it
    was published; a graph that still fails to open says so with the way out (NO_INDEX, exit 4)."""
    try:
        return mod.Database(str(path), read_only=read_only, **options)
    except RuntimeError as exc:
        if not read_only:
            raise
        message = str(exc).splitlines()[0] if str(exc) else "the database could not be opened"
        strays = [side for side in (path.with_name(path.name + ext) for ext in SIDE_FILES) if side.exists()]
        if strays and (path.parent / MANIFEST).is_file():
            for side in strays:
                try:
                    side.unlink()
                except FileNotFoundError:  # another reader set it aside first
                    pass
            try:
                return mod.Database(str(path), read_only=read_only, **options)
            except RuntimeError as again:
                message = str(again).splitlines()[0] if str(again) else message
        found = f" (beside it: {', '.join(p.name for p in strays)})" if strays else ""
        raise NoIndexError(f"the workspace graph {path} cannot be opened read-only{found}: {message}",
                           hint="jdx index --force rebuilds it") from exc


GRAPH_STAMP = "graph_file"  # manifest key: [size, mtime_ns] of the build's graph file when it was published


def file_stamp(path: Path) -> list[int]:
    """[size, mtime_ns] of a file: a published graph file is never written again (readers open it read-only, an
    update writes a copy), so a file whose stamp differs from its manifest's was damaged since."""
    st = path.stat()
    return [st.st_size, st.st_mtime_ns]


def graph_damage(build: Path, manifest: dict) -> str | None:
    """Why the build's graph file is not the one its manifest recorded at publish (Kùzu may crash the process on a
    damaged file instead of refusing it), None when it is the same or the build recorded none. One stat."""
    want = manifest.get(GRAPH_STAMP)
    if not want:
        return None
    try:
        got = file_stamp(build / GRAPH_FILE)
    except OSError as exc:
        return f"{GRAPH_FILE} cannot be read ({exc.strerror or exc})"
    if got == list(want):
        return None
    if got[0] != want[0]:
        return f"{GRAPH_FILE} changed since it was built ({want[0]} bytes then, {got[0]} now)"
    return f"{GRAPH_FILE} changed since it was built (written again after it was published)"


def discard_build(build: Path) -> None:
    """A damaged build taken out of use: `current` no longer names it (the workspace is built again) and it is set
    aside for the next sweep; a reader holding it open keeps its files. Never raises."""
    root = build.parent
    try:
        if (root / CURRENT).read_text().strip() == build.name:  # not a build another process published since
            (root / CURRENT).unlink()
    except OSError:
        pass
    try:
        os.replace(build, root / f"{SUPERSEDED}{build.name}-{os.getpid()}")
    except OSError:
        pass


def current_build(graph_root: Path) -> Path | None:
    """The build directory a workspace graph's `current` pointer names, when complete."""
    try:
        build = (graph_root / CURRENT).read_text().strip()
    except OSError:
        return None
    path = graph_root / build
    if (path / GRAPH_FILE).exists() and (path / MANIFEST).exists():
        return path
    return None


def new_build(graph_root: Path) -> tuple[str, Path]:
    """(build id, the fresh directory it is written in) under a workspace's graph root."""
    graph_root.mkdir(parents=True, exist_ok=True)
    _sweep(graph_root)
    build_id = f"b{time.strftime('%Y%m%d%H%M%S')}-{uuid.uuid4().hex[:8]}"
    return build_id, Path(tempfile.mkdtemp(prefix=f".building-{os.getpid()}-", dir=graph_root))


def publish(graph_root: Path, tmp: Path, build_id: str, manifest: dict, later: bool = False) -> Path:
    """A complete build made current: its manifest written, the directory renamed into place, `current`
    pointed at it by an atomic rename; the builds it supersedes are swept (`later`: on a side thread)."""
    manifest = dict(manifest, schema=SCHEMA_VERSION, backend=backend_name(), build=build_id,
                    **{GRAPH_STAMP: file_stamp(tmp / GRAPH_FILE)})
    (tmp / MANIFEST).write_text(json.dumps(manifest, sort_keys=True, indent=1))
    os.replace(tmp, graph_root / build_id)
    pointer = graph_root / f".{CURRENT}-{os.getpid()}"
    pointer.write_text(build_id)
    os.replace(pointer, graph_root / CURRENT)
    _sweep(graph_root, later=later)
    return graph_root / build_id


def share_build(graph_root: Path, source: Path, manifest: dict) -> Path:
    """A build of `graph_root` answering from the committed build `source` of the same artifacts in another
    order (no class shadowed, so the same rows): its graph file, search index and classpath context hard-linked
    (copied where the filesystem cannot link), only the manifest its own. No graph is built and (almost) no disk is
    used; an update grown from it reads the context (its parts name their artifacts, not positions)."""
    from jdx.graph_schema.context_files import DECLARED, JDK_INTERNAL, TABLES, link_parts as link_context
    from jdx.graph_schema.search_files import link_parts

    build_id, tmp = new_build(graph_root)
    try:
        link_or_copy(source / GRAPH_FILE, tmp / GRAPH_FILE)
        link_parts(source, tmp)
        link_context(source / CONTEXT_DIR, tmp / CONTEXT_DIR, [*TABLES, *DECLARED, JDK_INTERNAL], link_or_copy)
        return publish(graph_root, tmp, build_id, manifest, later=True)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def workspace_positions(store: GraphStore) -> dict[str, int] | None:
    """Artifact key -> classpath position in the workspace the open build answers for (its manifest's order),
    None without a manifest. A graph shared by several orders of the same artifacts carries the positions of
    the order it was built for in `Artifact.position`; answers order by these."""
    key = ("workspace-positions",)
    if key not in store.memo:
        try:
            arts = read_manifest(store.path.parent).get("artifacts", [])
        except (OSError, ValueError):
            arts = []
        store.memo[key] = {a["key"]: i for i, a in enumerate(arts)} or None
    return store.memo[key]


def artifact_rows(store: GraphStore) -> list[dict]:
    """The Artifact rows (`a.*`) in the workspace's classpath order, `a.position` as the manifest has it."""
    key = ("artifact-rows",)
    if key not in store.memo:
        from jdx.graph_schema.queries import ARTIFACTS

        rows = store.rows_cached(ARTIFACTS)
        order = workspace_positions(store)
        if order:
            rows = sorted((dict(r, **{"a.position": order.get(r["a.id"], 1 << 30)}) for r in rows),
                          key=lambda r: r["a.position"])
        store.memo[key] = rows
    return store.memo[key]


def read_manifest(build: Path) -> dict:
    return json.loads((build / MANIFEST).read_text())


class GraphWriter:
    """Builds one graph in a fresh build directory; COPY runs on a background thread (it releases the
    GIL), so the caller keeps computing edges while nodes load. `commit` points `current` at the build
    (an atomic rename); a crash or error before that leaves the previous graph current and intact."""

    def __init__(self, graph_root: Path):
        import collections
        import queue
        import threading
        from concurrent.futures import ThreadPoolExecutor

        self.root = graph_root
        build_buffer_mb()  # a bad setting is refused before anything is written
        self.build_id, self.tmp = new_build(graph_root)
        try:
            self.store = GraphStore(self.tmp / GRAPH_FILE, read_only=False)
            try:
                for statement in ddl():
                    self.store._conn.execute(statement)
            except BaseException:
                self.store.close()
                raise
        except BaseException:  # (a --timeout may land here too) nothing half-made is left behind
            shutil.rmtree(self.tmp, ignore_errors=True)
            raise
        self._jobs: "queue.Queue" = queue.Queue()
        self._deferred: list | None = None  # COPYs waiting for `release` (expect: a big build)
        self._spooled = 0
        self._spooler = ThreadPoolExecutor(max_workers=1, thread_name_prefix="jdx-graph-spool")
        self._held: list = []  # (relationship, its spool appender), in the order first held
        self._appenders: dict = {}
        self._node_appenders: dict = {}  # node tables handed over in parts (`nodes_part`)
        self._side: list = []
        self._pending: collections.deque = collections.deque()  # (spool job, bytes of the table it holds), oldest first
        self._pending_bytes = 0
        self._context_parts = ContextParts(self.tmp / CONTEXT_DIR, self._submit, self._side)
        self._error: BaseException | None = None
        self._aborted = False
        # set when the COPY thread has stopped: waited on instead of Thread.join, which an exception raised in it by a
        # signal handler (--timeout's alarm) leaves believing the thread stopped (CPython 3.11, bpo-45274's fix), and
        # closing the database under a running COPY crashes the process
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._work, name="jdx-graph-copy", daemon=True)
        self._thread.start()

    def _work(self) -> None:
        try:
            while True:
                job = self._jobs.get()
                if job is None:
                    return
                if self._error is not None or self._aborted:
                    continue
                try:
                    job()
                except BaseException as exc:  # noqa: BLE001 - re-raised on the caller's thread in commit()
                    self._error = exc
        finally:
            self._stopped.set()

    def expect(self, members: int) -> None:
        """The build's size, once its member tables are read. A build of more members than DEFER_COPIES_FROM holds
        its COPYs until `release`: Kùzu's COPY of node tables (~1.2 GB at 2.8M members) then no longer runs
        beside the build's own peak, reference resolution, at the cost of that COPY's time added to the wait
        (a JDK-sized build keeps copying beside the build: its peak is far below the goal)."""
        if members > DEFER_COPIES_FROM and self._deferred is None:
            self._deferred = []

    def _queue(self, job) -> None:
        if self._deferred is not None:
            self._deferred.append(job)
        else:
            self._jobs.put(job)

    def nodes(self, label: str, table: "pa.Table") -> None:
        if table.num_rows:
            spooled = self._spool(_with_schema_columns(table, NODE_TABLES[label]))
            self._queue(lambda: self._copy(label, spooled))

    def nodes_part(self, label: str, table: "pa.Table") -> None:
        """One artifact's rows of node table `label`, appended to one spool file on the spool thread; `nodes_done`
        queues its COPY (the whole table never waits in memory)."""
        if not table.num_rows:
            return
        appender = self._node_appenders.get(label)
        if appender is None:
            self._spooled += 1
            appender = self._node_appenders[label] = _SpoolAppender(self.tmp / f"spool-{self._spooled:04d}.parquet",
                                                                    split_rows=NODE_COPY_ROWS)
        self._submit(appender.add, _with_schema_columns(table, NODE_TABLES[label]))

    def nodes_done(self, label: str) -> None:
        appender = self._node_appenders.pop(label, None)
        if appender is not None:
            closed = self._spooler.submit(appender.close)
            self._queue(lambda: self._copy(label, closed))

    def rels(self, name: str, src: str, dst: str, table: "pa.Table") -> None:
        if table.num_rows:
            spooled = self._spool(table.select(["from", "to"] + [c for c, _ in REL_TABLES[name][1]]))
            self._queue(lambda: self._copy(name, spooled, src, dst))

    def context(self, name: str, table: "pa.Table") -> None:
        """A table of the classpath context kept beside the graph for the next update (`jdx.loaders.build_context`),
        written on the spool thread."""
        self._side.append(self._submit(write_context_table, self.tmp / CONTEXT_DIR / part_name(name), table,
                                       self._context_parts.compression))

    def plan_context(self, classes: int) -> None:
        """The build holds `classes` classes: its context parts are compressed when that is many (`context_files`)."""
        self._context_parts.compression = compression_for(classes)

    def context_part(self, name: str, table: "pa.Table") -> None:
        """One artifact's part of a context table, appended on the spool thread; `context_done` finishes the file."""
        self._context_parts.add(name, table)

    def context_done(self, name: str) -> None:
        self._context_parts.done(name)

    def search(self, names: "pa.Table", symbols: "pa.Table") -> None:
        """The build's search index (`search_files`), written on the spool thread."""
        from jdx.graph_schema.search_files import write_part

        self._side.append(self._submit(write_part, self.tmp, names, symbols))

    def hold(self, name: str, src: str, dst: str, table: "pa.Table") -> None:
        """`rels`, but the COPY waits for `release`: edges that may end at nodes not handed over yet. Tables held
        for one relationship (an artifact's edges at a time) are appended to one spool file and copied at once."""
        if not table.num_rows:
            return
        key = (name, src, dst)
        appender = self._appenders.get(key)
        if appender is None:
            self._spooled += 1
            appender = self._appenders[key] = _SpoolAppender(self.tmp / f"spool-{self._spooled:04d}.parquet")
            self._held.append((key, appender))
        self._submit(appender.add, table.select(["from", "to"] + [c for c, _ in REL_TABLES[name][1]]))

    def release(self) -> None:
        deferred, self._deferred = self._deferred or [], None
        for job in deferred:  # in the order handed over: nodes before the edges that need them
            self._jobs.put(job)
        held, self._held, self._appenders = self._held, [], {}
        for (name, src, dst), appender in held:
            closed = self._spooler.submit(appender.close)
            self._jobs.put(lambda name=name, closed=closed, src=src, dst=dst: self._copy(name, closed, src, dst))

    def _submit(self, fn, *args):
        """`fn(*args)` on the spool thread. The tables handed over wait in memory for the writer: past
        SPOOL_PENDING_BYTES of them the build waits for the oldest to be written (at a Maven repository's scale the
        resolved edges came faster than the writer and ~0.3 GB of them queued at the build's peak). A job's error is
        raised where its result is read, not here."""
        from concurrent import futures

        size = sum(a.nbytes for a in args if hasattr(a, "nbytes"))
        job = self._spooler.submit(fn, *args)
        if size:
            self._pending.append((job, size))
            self._pending_bytes += size
        while self._pending and (self._pending[0][0].done() or self._pending_bytes > SPOOL_PENDING_BYTES):
            oldest, oldest_size = self._pending.popleft()
            futures.wait([oldest])
            self._pending_bytes -= oldest_size
        return job

    def _spool(self, table: "pa.Table"):
        """The table written, on a side thread, where the COPY thread will read it: tables no longer wait in
        memory for their turn (the JDK's queue held ~550 MB of them), only for the writer (~230 MB/s)."""
        self._spooled += 1
        path = self.tmp / f"spool-{self._spooled:04d}.parquet"
        return self._submit(_spool_and_name, table, path)

    def _copy(self, name: str, spooled, src: str | None = None, dst: str | None = None) -> None:
        """One COPY per spool file (a node table spooled in parts may be several: `NODE_COPY_ROWS`), each file gone
        once copied (a failed build's go with its directory)."""
        for path in spooled.result():
            try:
                self.store._copy_file(name, path, src, dst)
            finally:
                path.unlink(missing_ok=True)
            # what the COPY freed on Kùzu's threads stays resident otherwise, and the next COPY's threads take fresh
            # memory beside it: at a Maven repository's scale the COPYs then reached 1.45 GB of RSS, 1.18 GB with
            # this (~12 ms a statement)
            trim_malloc()

    def _finish_copies(self) -> None:
        return_freed_memory()  # the build's tables are gone: the COPYs held until now need that memory
        self._context_parts.finish()
        for label in list(self._node_appenders):  # (a node table never finished by its builder still goes in whole)
            self.nodes_done(label)
        self.release()  # nothing handed over is ever left out
        # and again once the spool thread has written what was still queued: Arrow's allocator purges freed pages only
        # while it allocates, so what the spool thread freed last stayed resident through every COPY (~0.2 GB at a
        # Maven repository's scale)
        self._spooler.submit(return_freed_memory)
        self._jobs.put(None)
        self._stopped.wait()
        self._spooler.shutdown(wait=True)
        self.store.close()
        for done in self._side:
            done.result()  # a context file that could not be written fails the build, never half-written
        if self._error is not None:
            error = self._error
            if isinstance(error, RuntimeError):
                raise build_failed(error) from error
            raise error

    def commit(self, manifest: dict) -> Path:
        self._finish_copies()
        return publish(self.root, self.tmp, self.build_id, manifest)

    def abort(self) -> None:
        try:
            self._held = []
            self._aborted = True  # the COPYs still queued are skipped; the one running finishes
            self._jobs.put(None)
            self._spooler.shutdown(wait=True, cancel_futures=True)
            if self._stopped.wait(timeout=60):
                self.store.close()
            # else a COPY still runs: the database is left open rather than closed under it (the process ends soon)
        finally:
            shutil.rmtree(self.tmp, ignore_errors=True)


def return_freed_memory() -> None:
    """Hands the pages of freed memory back to the OS: Arrow's allocator and glibc's malloc both keep them for reuse
    otherwise (measured at the commit of a whole Maven repository's build, its deferred COPYs about to run, with
    mimalloc: 2,399 MB of RSS with 8 MB of Arrow buffers live, 1,316 MB after Arrow's release, 1,139 MB after
    malloc_trim)."""
    import pyarrow as pa

    pa.default_memory_pool().release_unused()
    trim_malloc()


def trim_malloc() -> None:
    """Hands glibc malloc's free pages back to the OS, in every arena: it keeps them for reuse otherwise, and each
    thread's arena keeps its own. Nothing where malloc is not glibc's (musl, macOS)."""
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


@functools.lru_cache(maxsize=1)
def _malloc_trim():
    try:
        import ctypes

        return ctypes.CDLL("libc.so.6").malloc_trim
    except (OSError, AttributeError):  # not glibc: the allocator's own release is all there is
        return None


SPOOL_ROW_GROUP = 65536
SPOOL_OPTIONS = {"compression": "none", "use_dictionary": False}  # what Kùzu's COPY reads fastest (spool_table)


# rows of a node table per COPY statement (4 of Kùzu's node groups of 2^17 rows): Kùzu holds a node COPY's rows and
# their primary-key index in memory, so a Maven repository's 2.07M method nodes copied at once took ~1 GB; in
# statements of this many rows its whole graph copied at 1.39 GB instead of 1.58 GB peak RSS, in the same time
# (edges gain nothing: copied in parts they took more memory and longer)
NODE_COPY_ROWS = 8 * SPOOL_ROW_GROUP
SPOOL_PENDING_BYTES = 128 << 20  # tables waiting for the spool thread, at most (GraphWriter._submit)


class _SpoolAppender:
    """Spool files written table by table on the spool thread, in row groups of SPOOL_ROW_GROUP rows (Kùzu copies
    files of tiny row groups slowly); with `split_rows` (a multiple of SPOOL_ROW_GROUP), a new file every that many
    rows. `close` returns their paths, or raises what went wrong."""

    def __init__(self, path: Path, split_rows: int | None = None):
        self.path = path
        self.paths: list[Path] = []
        self.split_rows = split_rows
        self._writer = None
        self._in_file = 0
        self._schema = None
        self._buffer: list = []
        self._rows = 0
        self._error: BaseException | None = None

    def add(self, table: "pa.Table") -> None:
        if self._error is not None:
            return
        try:
            if self._schema is None:
                self._schema = table.schema
            self._buffer.append(table.cast(self._schema))
            self._rows += table.num_rows
            if self._rows >= SPOOL_ROW_GROUP:
                self._flush()
        except BaseException as exc:  # noqa: BLE001 - raised by close() on the COPY thread
            self._error = exc

    def _flush(self, last: bool = False) -> None:
        """Writes whole row groups of SPOOL_ROW_GROUP rows (and, `last`, the rest): row groups cut at every table's
        end left Kùzu's COPY of a node table with part-filled node groups, a larger graph and slower appends."""
        import pyarrow as pa

        if not self._buffer:
            return
        table = pa.concat_tables(self._buffer)
        whole = table.num_rows if last else table.num_rows - table.num_rows % SPOOL_ROW_GROUP
        if whole:
            self._write(table.slice(0, whole))
        rest = table.slice(whole)
        self._buffer, self._rows = ([rest] if rest.num_rows else []), rest.num_rows

    def _write(self, table: "pa.Table") -> None:
        import pyarrow.parquet as pq

        while table.num_rows:
            if self._writer is None:
                path = self.path if not self.paths else self.path.with_name(
                    f"{self.path.stem}-{len(self.paths)}{self.path.suffix}")
                self.paths.append(path)
                self._writer = pq.ParquetWriter(path, self._schema, **SPOOL_OPTIONS)
                self._in_file = 0
            room = table.num_rows if self.split_rows is None else self.split_rows - self._in_file
            part = table.slice(0, room)
            self._writer.write_table(part, row_group_size=SPOOL_ROW_GROUP)
            self._in_file += part.num_rows
            table = table.slice(part.num_rows)
            if self.split_rows is not None and self._in_file >= self.split_rows:
                self._writer.close()
                self._writer = None

    def close(self) -> list[Path]:
        try:
            if self._error is None:
                self._flush(last=True)
        except BaseException as exc:  # noqa: BLE001
            self._error = exc
        finally:
            if self._writer is not None:
                self._writer.close()
        if self._error is not None:
            raise self._error
        return self.paths


CONTEXT_DIR = "context"  # per build: the classpath context the next incremental update reads


def write_context_table(path: Path, table: "pa.Table", compression: str | None = "lz4") -> None:
    """A table kept beside a graph (search index: lz4; classpath context: `context_files.COMPRESSION`) as an Arrow
    IPC file, in batches of at most 1M rows."""
    write_context_tables(path, table.schema, [table], compression)


def write_context_tables(path: Path, schema: "pa.Schema", tables, compression: str | None = "lz4") -> None:
    """`write_context_table` of the tables `tables` yields one after another (each made only when the last is
    written), as one file of `schema`."""
    import pyarrow as pa

    path.parent.mkdir(parents=True, exist_ok=True)
    options = pa.ipc.IpcWriteOptions(compression=compression)
    with pa.OSFile(str(path), "wb") as sink, pa.ipc.new_file(sink, schema, options=options) as writer:
        for table in tables:
            writer.write_table(table, max_chunksize=1 << 20)


class ContextAppender:
    """A context table's part (`context_files`) written one artifact at a time, on a side thread: the build lets go
    of each artifact's rows once they are written instead of holding the classpath's. `close` finishes the file, or
    raises what went wrong (the build then fails: a context file is never half-written)."""

    def __init__(self, path: Path, compression: str | None = COMPRESSION):
        self.path, self.compression = path, compression
        self._file = None
        self._writer = None
        self._error: BaseException | None = None

    def add(self, table: "pa.Table") -> None:
        if self._error is not None:
            return
        try:
            import pyarrow as pa

            if self._writer is None:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self._file = pa.OSFile(str(self.path), "wb")
                self._writer = pa.ipc.new_file(self._file, table.schema,
                                               options=pa.ipc.IpcWriteOptions(compression=self.compression))
            if table.num_rows:
                self._writer.write_table(table, max_chunksize=1 << 20)
        except BaseException as exc:  # noqa: BLE001 - raised by close()
            self._error = exc

    def close(self) -> None:
        try:
            if self._writer is not None:
                self._writer.close()
        except BaseException as exc:  # noqa: BLE001
            self._error = self._error or exc
        finally:
            if self._file is not None:
                self._file.close()
        if self._error is not None:
            raise self._error
        if self._writer is None:
            raise ValueError(f"{self.path.name}: no part was written")


class ContextParts:
    """The context tables a sink takes artifact by artifact: each part appended by `submit` (the sink's side thread),
    each file finished by `done`; the futures of the finished files go to `side`, where the sink checks them. An
    update's (`build_id`) adds its own part files, and `select` keeps of each table only the rows it writes."""

    def __init__(self, folder: Path, submit, side: list, build_id: str | None = None, select=None):
        self.folder, self.submit, self.side = folder, submit, side
        self.build_id, self.select = build_id, select
        self.compression = COMPRESSION
        self._open: dict[str, ContextAppender] = {}

    def add(self, name: str, table: "pa.Table") -> None:
        if self.select is not None:
            table = self.select(name, table)
            if table is None:
                return
        appender = self._open.get(name)
        if appender is None:
            appender = self._open[name] = ContextAppender(self.folder / part_name(name, self.build_id),
                                                                  self.compression)
        self.submit(appender.add, table)

    def done(self, name: str) -> None:
        appender = self._open.pop(name, None)
        if appender is not None:
            self.side.append(self.submit(appender.close))

    def finish(self) -> None:
        """Finishes whatever was left open (nothing handed over is left out)."""
        for name in list(self._open):
            self.done(name)


def link_or_copy(src: Path, dst: Path) -> None:
    """`dst` as a hard link of the immutable file `src` (one inode, no byte copied); a copy where the
    filesystem cannot link."""
    try:
        os.link(src, dst)
    except OSError:
        shutil.copyfile(src, dst)


FICLONE = 0x40049409  # Linux ioctl: make a file share another's extents (copy-on-write), as `cp --reflink` does


def clone_or_copy(src: Path, dst: Path) -> None:
    """`dst` as a copy of `src` that shares its blocks copy-on-write where the filesystem can (Btrfs, XFS with
    reflink, bcachefs: an incremental update's copy of the JDK's ~200 MB graph then costs no time and only the pages
    the update rewrites, ~100 MB after gson joined), else a plain copy (ext4, tmpfs, other systems)."""
    try:
        import fcntl

        with open(src, "rb") as source, open(dst, "wb") as target:
            fcntl.ioctl(target.fileno(), FICLONE, source.fileno())
        return
    except (ImportError, OSError):  # no fcntl (Windows), or the filesystem (or a mount boundary) cannot share blocks
        pass
    shutil.copyfile(src, dst)


def _spool_and_name(table: "pa.Table", path: Path) -> list[Path]:
    spool_table(table, path)
    return [path]  # as a spool appender's `close`


def spool_table(table: "pa.Table", path: Path) -> None:
    """A table as Kùzu's COPY reads it fastest (measured on the JDK's tables: 10.1 s against 10.8 s from Arrow
    in memory and 13.5 s from one-row-group files): uncompressed, plain, row groups Kùzu's threads share."""
    import pyarrow.parquet as pq

    pq.write_table(table, path, row_group_size=SPOOL_ROW_GROUP, **SPOOL_OPTIONS)


_ARROW_TYPES = {"STRING": "string", "INT32": "int32", "BOOLEAN": "bool_", "STRING[]": "list<string>"}


def _with_schema_columns(table: "pa.Table", columns: list[tuple[str, str]]) -> "pa.Table":
    """The table's columns in schema order, nulls for the ones it lacks (external nodes know little)."""
    import pyarrow as pa

    out = []
    for name, kind in columns:
        if name in table.column_names:
            out.append(table[name])
        else:
            typ = pa.list_(pa.string()) if kind == "STRING[]" else getattr(pa, _ARROW_TYPES[kind])()
            out.append(pa.nulls(table.num_rows, typ))
    return pa.table(out, names=[c for c, _ in columns])


SUPERSEDED = ".superseded-"


def _sweep(graph_root: Path, later: bool = False) -> None:
    """Removes builds that are no longer current and half-builds whose process is gone; `later`: a superseded
    build is renamed aside at once and deleted on a side thread (unlinking a graph of hundreds of MB took ~85 ms
    of every update's answer), which the interpreter waits for at exit; the next sweep removes what a killed
    process left."""
    current = None
    try:
        current = (graph_root / CURRENT).read_text().strip()
    except OSError:
        pass
    for child in graph_root.iterdir():
        name = child.name
        if name.startswith(".building-"):
            try:
                pid = int(name.split("-")[1])
            except (IndexError, ValueError):
                pid = -1
            if pid != os.getpid() and not pid_alive(pid):
                shutil.rmtree(child, ignore_errors=True)
        elif name.startswith("b") and child.is_dir() and current and name != current:
            # a reader may still hold it open; on POSIX the files live on until it closes
            if later:
                aside = graph_root / f"{SUPERSEDED}{name}-{os.getpid()}"
                try:
                    os.replace(child, aside)
                except OSError:
                    continue
                _delete_on_a_thread(aside)
            else:
                shutil.rmtree(child, ignore_errors=True)
        elif name.startswith(SUPERSEDED) and not later:
            shutil.rmtree(child, ignore_errors=True)


def _delete_on_a_thread(path: Path) -> None:
    import threading

    threading.Thread(target=shutil.rmtree, args=(path,), kwargs={"ignore_errors": True},
                     name="jdx-graph-sweep").start()
