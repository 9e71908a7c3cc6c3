"""The bytecode extractor port and its JPype/ASM implementation (columnar transfer, no per-row calls)."""

from __future__ import annotations

import os
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
                    yield self._merge(index, parts)
        finally:
            run.close()

    @staticmethod
    def _merge(index: int, parts: dict[int, tuple[dict[str, pa.Table], int]]) -> ExtractedArtifact:
        ordered = [parts[i] for i in sorted(parts)]
        tables = {name: pa.concat_tables([p[0][name] for p in ordered]) for name in TABLE_NAMES if name != "kotlin"}
        seconds, _ = add_kotlin_table(tables)
        warnings = list(
            zip(
                tables["warnings"].column("code").to_pylist(),
                tables["warnings"].column("entry").to_pylist(),
                tables["warnings"].column("message").to_pylist(),
            )
        )
        return ExtractedArtifact(index, tables, sum(p[1] for p in ordered), warnings, seconds)


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
