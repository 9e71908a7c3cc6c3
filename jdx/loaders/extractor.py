"""The bytecode extractor port and its JPype/ASM implementation (columnar transfer, no per-row calls)."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import pyarrow as pa
import pyarrow.compute as pc

from jdx.loaders.roots import Artifact

# kinds as numbered by the Java side (ClassExtractor.java)
REF_KINDS = (
    "invokevirtual", "invokespecial", "invokestatic", "invokeinterface", "handle",
    "getfield", "getstatic", "putfield", "putstatic", "new", "checkcast", "instanceof",
    "anewarray", "class", "catch", "multianewarray", "handle_get", "handle_put", "inline",
    # an invokedynamic's bootstrap method; the class constants among its arguments (case labels: SwitchBootstraps')
    "indy", "indy_arg", "case_label",
    # 22: a class literal or enum constant in an annotation value (R_ANNOTATION_VALUE; graph_build makes its rows
    # ANNOTATED_BY edges, site ANNOTATION_VALUE_SITE, not REFERENCES)
    "annotation_value",
    # 23: the functional interface a lambda or method reference creates an instance of (a LambdaMetafactory
    # invokedynamic's return type, and altMetafactory's marker interfaces)
    "lambda",
    # 24: as 23 for a method reference (`Foo::bar`, `Foo::new`: the implementation handle is no lambda body)
    "method_ref",
)
TYPE_KINDS = ("class", "interface", "enum", "record", "annotation", "module")
TABLE_NAMES = ("types", "supertypes", "members", "calls", "accesses", "typerefs", "annotations", "warnings", "kotlin")

MAX_ENTRY_BYTES = 64 << 20  # one class file
MAX_TOTAL_BYTES = 4 << 30  # one artifact, decompressed
MAX_ENTRIES = 1_000_000  # one artifact


@dataclass
class ExtractedArtifact:
    index: int
    tables: dict[str, pa.Table]
    classes: int
    warnings: list[tuple[str, str, str]] = field(default_factory=list)
    kotlin_seconds: float = 0.0  # CPU of decoding @kotlin.Metadata into the `kotlin` table (jdx bench reports it)


class BytecodeExtractor(Protocol):
    """Reads artifacts and yields each one's tables once complete (in any order)."""

    def extract(self, artifacts: list[Artifact]) -> Iterator[ExtractedArtifact]: ...


def _pool(chunk) -> pa.Array:
    cols = chunk.cols
    data = bytes(cols.poolBytes())
    offsets = memoryview(cols.poolOffsets())
    return pa.StringArray.from_buffers(int(cols.poolSize()), pa.py_buffer(offsets), pa.py_buffer(data))


def _int_column(jtable, i: int, rows: int) -> pa.Array:
    return pa.Array.from_buffers(pa.int32(), rows, [None, pa.py_buffer(memoryview(jtable.column(i)))])


STRING_COLUMNS: frozenset[str] = frozenset()


_KNOWS_UP_TO = re.compile(r"class files of major version \d+ read by an ASM that knows up to (\d+); ")


def _newest_versions(types: pa.Table, code: str, entry: str, message: str) -> tuple[str, str, str]:
    """The extractor's one UNSUPPORTED_CLASS_VERSION of an artifact read by an older ASM (it names the first newer
    class file it met) said for them all: how many class files are newer than the ASM knows, up to which version,
    the first of them, and how to read them with a newer ASM."""
    m = _KNOWS_UP_TO.match(message)
    if not m or not types.num_rows:
        return code, entry, message
    known = int(m.group(1))
    newer = types.filter(pc.greater(types["version"], known))
    if not newer.num_rows:
        return code, entry, message
    top = pc.max(newer["version"]).as_py()
    first = min(newer["entry"].to_pylist())
    return code, first, (f"{newer.num_rows} class file{'s' * (newer.num_rows != 1)} up to major version {top} "
                         f"(Java {top - 44}; first: {first}) read by an ASM that knows up to {known} (Java {known - 44}): "
                         "newer constructs may be missed; set JDX_ASM_JAR to a newer ASM jar (jdx doctor)")


def chunk_tables(chunk) -> tuple[dict[str, pa.Table], int]:
    """Java chunk -> Arrow tables: pool indexes become strings, ints stay ints."""
    global STRING_COLUMNS
    if not STRING_COLUMNS:
        STRING_COLUMNS = frozenset(str(chunk.STRING_COLUMNS).split())
    pool = _pool(chunk)
    out = {}
    for jtable in chunk.tables:
        rows = int(jtable.rowCount())
        names = [str(c) for c in jtable.columns]
        arrays = []
        for i, name in enumerate(names):
            ints = _int_column(jtable, i, rows)
            if name in STRING_COLUMNS:
                idx = pc.if_else(pc.less(ints, 0), pa.scalar(None, pa.int32()), ints)
                arrays.append(pc.take(pool, idx))
            else:
                arrays.append(ints)
        out[str(jtable.name)] = pa.table(arrays, names=names)
    return out, int(chunk.classes)


class JPypeExtractor:
    """ASM inside the embedded JVM; both cores parse while Python converts and writes."""

    def __init__(self, cache: Path, threads: int | None = None):
        self.cache = cache
        self.threads = threads or max(1, min(4, os.cpu_count() or 1))

    def extract(self, artifacts: list[Artifact]) -> Iterator[ExtractedArtifact]:
        for index, tables, classes in self._read(artifacts):
            if artifacts[index].kind != "jrt":  # a module image holds one file per class name
                classes = self._one_class_per_name(artifacts[index], tables, classes)
                misplaced_warnings(tables)
            seconds, _ = add_kotlin_table(tables)
            w = tables["warnings"]
            warnings = [_newest_versions(tables["types"], *row) if row[0] == "UNSUPPORTED_CLASS_VERSION" else row
                        for row in zip(w["code"].to_pylist(), w["entry"].to_pylist(), w["message"].to_pylist())]
            yield ExtractedArtifact(index, tables, classes, warnings, seconds)

    def _read(self, artifacts: list[Artifact]) -> Iterator[tuple[int, dict[str, pa.Table], int]]:
        """(index, tables but `kotlin`, classes read) of each artifact once all its chunks are in."""
        if not artifacts:
            return
        from jdx.loaders.jvm import start_jvm

        jpype = start_jvm(self.cache)
        extractor_class = jpype.JClass("jdx.extract.Extractor")
        specs = jpype.JArray(jpype.JString)([a.spec for a in artifacts])
        run = extractor_class.start(specs, self.threads, MAX_ENTRY_BYTES, MAX_TOTAL_BYTES, MAX_ENTRIES)
        pending: dict[int, dict[int, tuple[dict[str, pa.Table], int]]] = {}
        try:
            while True:
                chunk = run.next()
                if chunk is None:
                    break
                index = int(chunk.artifact)
                parts = pending.setdefault(index, {})
                parts[int(chunk.index)] = chunk_tables(chunk)
                if len(parts) == int(chunk.count):
                    del pending[index]
                    ordered = [parts[i] for i in sorted(parts)]
                    tables = {name: pa.concat_tables([p[0][name] for p in ordered])
                              for name in TABLE_NAMES if name != "kotlin"}
                    yield index, tables, sum(p[1] for p in ordered)
        finally:
            run.close()

    def _one_class_per_name(self, artifact: Artifact, tables: dict[str, pa.Table], classes: int) -> int:
        """Keeps one class file per class name, as the JVM loads one (spec §5.3): the one at the path its name
        gives (`p/Q.class`), else the first in path order; DUPLICATE_CLASS names the others. The rows of a name's
        copies cannot be told apart, so they all go and the kept file is read again on its own. Returns the
        classes now held."""
        copies = duplicated_classes(tables["types"])
        if not copies:
            return classes
        kept = {name: entries[0] for name, entries in copies.items()}
        entries = {e for es in copies.values() for e in es}
        fresh = self._read_entries(artifact, sorted(kept.values()))
        if fresh is None:
            return classes
        dropped = drop_classes(tables, set(copies), entries)
        notes = pa.table({
            "code": ["DUPLICATE_CLASS"] * len(copies),
            "entry": [copies[n][1] for n in sorted(copies)],
            "message": [f"{n.replace('/', '.')}: {len(copies[n])} class files declare it: {copies[n][0]} (read), "
                        f"{', '.join(copies[n][1:])} (skipped)" for n in sorted(copies)],
        })
        for name in tables:
            parts = [tables[name], fresh[0][name].select(tables[name].column_names)]
            if name == "warnings":
                parts.append(notes.cast(tables[name].schema))
            tables[name] = pa.concat_tables(parts)
        return classes - dropped + fresh[1]

    def _read_entries(self, artifact: Artifact, entries: list[str]) -> tuple[dict[str, pa.Table], int] | None:
        """The tables of some class files of `artifact`, read alone (from a scratch directory keeping their paths)."""
        import contextlib
        import dataclasses
        import shutil
        import tempfile
        import zipfile

        self.cache.mkdir(parents=True, exist_ok=True)
        scratch = Path(tempfile.mkdtemp(prefix=f".one-class-{os.getpid()}-", dir=self.cache))
        try:
            with zipfile.ZipFile(artifact.path) if artifact.kind == "jar" else contextlib.nullcontext() as jar:
                for entry in entries:
                    target = scratch / entry
                    target.parent.mkdir(parents=True, exist_ok=True)
                    if jar is None:
                        os.symlink(os.path.join(artifact.path, entry), target)
                    elif jar.getinfo(entry).file_size <= MAX_ENTRY_BYTES:
                        target.write_bytes(jar.read(entry))
            part = dataclasses.replace(artifact, path=str(scratch), spec=f"dir:{scratch}")
            got = [(t, n) for _i, t, n in self._read([part])]
            return got[0] if got else None
        except (OSError, KeyError, zipfile.BadZipFile):
            return None
        finally:
            shutil.rmtree(scratch, ignore_errors=True)


# per table, the column naming the class a row belongs to (calls and the like: the calling method's owner)
OWNER_COLUMN = {"types": "name", "supertypes": "type", "members": "owner", "calls": "from", "accesses": "from",
                "typerefs": "from", "annotations": "owner"}


def owner_of(table: str, column: pa.ChunkedArray) -> pa.Array:
    """The class each row of `table` belongs to, from its OWNER_COLUMN."""
    if table in ("calls", "accesses", "typerefs"):
        return pc.replace_substring_regex(column, r"#.*$", "")
    return column


def misplaced_warnings(tables: dict[str, pa.Table]) -> None:
    """MISPLACED_CLASS for the class files of a jar or class directory that are not at the path their name gives
    (`p/Foo.class` for p.Foo, or under `META-INF/versions/N/`): a class path lookup (javac, java -cp) never finds
    them there. jdx still reads them; the warning says so, on answers about that class. The usual cause is a class
    directory named one level too deep (`classes/com` for `classes`)."""
    types = tables["types"]
    if not types.num_rows:
        return
    entries = pc.fill_null(types["entry"], "")
    expected = pc.binary_join_element_wise(types["name"], pa.scalar(".class"), "")
    versioned = pc.replace_substring_regex(entries, r"^META-INF/versions/\d+/", "")
    wrong = pc.and_(pc.not_equal(versioned, expected), pc.not_equal(entries, ""))
    if not pc.any(wrong).as_py():
        return
    rows = types.filter(wrong).select(["name", "entry"]).to_pylist()
    notes = pa.table({
        "code": ["MISPLACED_CLASS"] * len(rows),
        "entry": [r["entry"] for r in rows],
        "message": [f"{r['entry']}: declares {r['name'].replace('/', '.')}, which a class path looks up at "
                    f"{r['name']}.class (javac and java -cp will not find it here; is the root one level off?)"
                    for r in rows],
    })
    tables["warnings"] = pa.concat_tables([tables["warnings"], notes.cast(tables["warnings"].schema)])


def duplicated_classes(types: pa.Table) -> dict[str, list[str]]:
    """Class names held by several class files of one artifact -> their entries, the one kept first: the entry its
    name gives (`p/Q.class`, where a class directory or jar root is looked up), else the first in path order."""
    names = types["name"]
    counts = pc.value_counts(names.drop_null() if names.null_count else names)
    many = counts.filter(pc.greater(counts.field("counts"), 1)).field("values")
    if not len(many):
        return {}
    rows = types.select(["name", "entry"]).filter(pc.is_in(names, value_set=many))
    out: dict[str, list[str]] = {}
    for name, entry in zip(rows["name"].to_pylist(), rows["entry"].to_pylist()):
        out.setdefault(name, []).append(entry or "")
    for name, entries in out.items():
        entries.sort(key=lambda e, own=f"{name}.class": (e != own, e))
    return out


def drop_classes(tables: dict[str, pa.Table], names: set[str], entries: set[str]) -> int:
    """Removes every row of the classes `names` (and the warnings about the class files `entries`) from `tables`;
    returns the type rows removed."""
    value_set = pa.array(sorted(names), pa.string())
    removed = 0
    for name in list(tables):
        table = tables[name]
        if name == "warnings":
            drop = pc.is_in(table["entry"], value_set=pa.array(sorted(entries), pa.string()))
        elif name in OWNER_COLUMN:
            drop = pc.is_in(owner_of(name, table[OWNER_COLUMN[name]]), value_set=value_set)
        else:
            continue
        tables[name] = table.filter(pc.invert(pc.fill_null(drop, False)))
        if name == "types":
            removed = table.num_rows - tables[name].num_rows
    return removed


def add_kotlin_table(tables: dict[str, pa.Table]) -> tuple[float, list[tuple[str, str, str]]]:
    """Adds the `kotlin` table (decoded @kotlin.Metadata, spec §12.1) and its warnings to the warnings table;
    returns the CPU seconds spent (this thread's: comparable with the process's CPU under any load) and those
    warnings."""
    import time

    if tables["types"]["kotlin"].null_count == tables["types"].num_rows:  # no class carries @kotlin.Metadata
        from jdx.loaders.kotlin_schema import empty_table

        tables["kotlin"] = empty_table()
        return 0.0, []
    from jdx.loaders.kotlin_shard import kotlin_table

    import gc

    start = time.thread_time()
    collecting = gc.isenabled()
    gc.disable()  # tens of thousands of small acyclic objects: the cycle collector would only rescan them
    try:
        table, warnings = kotlin_table(tables["types"], tables["members"], tables.get("annotations"))
    finally:
        if collecting:
            gc.enable()
    tables["kotlin"] = table
    if warnings:
        w = tables["warnings"]
        extra = pa.table({"code": [x[0] for x in warnings], "entry": [x[1] for x in warnings],
                          "message": [x[2] for x in warnings]})
        tables["warnings"] = pa.concat_tables([w, extra.cast(w.schema)]) if w.num_rows else extra.cast(w.schema)
    return time.thread_time() - start, warnings
