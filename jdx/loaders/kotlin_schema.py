"""The `kotlin` shard table's schema (jdx.loaders.kotlin_shard fills it), apart from the Kotlin metadata decoder: an
artifact with no Kotlin class gets the empty table without importing the decoder (~40 ms of a fresh process)."""

from __future__ import annotations

import pyarrow as pa

STR_LIST = pa.list_(pa.string())
ACC_STATIC, ACC_SYNTHETIC = 0x0008, 0x1000
COLUMNS = ("id", "owner", "kind", "name", "position", "visibility", "modality", "flags", "signature", "detail",
           "jvm", "facade")
SCHEMA = pa.schema([("id", pa.string()), ("owner", pa.string()), ("kind", pa.string()), ("name", pa.string()),
                    ("position", pa.int32()), ("visibility", pa.string()), ("modality", pa.string()),
                    ("flags", STR_LIST), ("signature", pa.string()), ("detail", pa.string()), ("jvm", STR_LIST),
                    ("facade", pa.string())])


def empty_table() -> pa.Table:
    return SCHEMA.empty_table()
