"""An artifact without Kotlin classes gets its (empty) `kotlin` table without importing the Kotlin metadata decoder
(~40 ms of every fresh process that extracts a jar); one with a Kotlin class still decodes it."""

from __future__ import annotations

import subprocess
import sys

CODE = """
import sys
import pyarrow as pa
from jdx.loaders.extractor import add_kotlin_table
from jdx.loaders.kotlin_schema import SCHEMA

def tables(kotlin):
    return {"types": pa.table({"name": ["p/A"], "kotlin": pa.array([kotlin], pa.string())}),
            "members": pa.table({c: pa.array([], pa.string()) for c in ("owner", "name", "descriptor")}
                                | {c: pa.array([], pa.int32()) for c in ("access", "kind")}),
            "warnings": pa.table({"code": pa.array([], pa.string()), "entry": pa.array([], pa.string()),
                                  "message": pa.array([], pa.string())})}

plain = tables(None)
assert add_kotlin_table(plain) == (0.0, [])
assert plain["kotlin"].schema == SCHEMA and plain["kotlin"].num_rows == 0
assert not [m for m in sys.modules if m == "jdx.kotlin" or m.startswith("jdx.kotlin.")], sorted(sys.modules)
assert "jdx.loaders.kotlin_shard" not in sys.modules
broken = tables("not metadata")
seconds, warnings = add_kotlin_table(broken)
assert "jdx.kotlin" in sys.modules and warnings, warnings  # decoded (and here refused, with a warning)
print("ok")
"""


def test_no_kotlin_class_no_kotlin_decoder():
    proc = subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stdout + proc.stderr
