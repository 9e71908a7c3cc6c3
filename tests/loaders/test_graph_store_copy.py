"""COPY from Python tables (what every incremental update appends with) works in a process that never imported
`importlib.util`: Kùzu's Python scan calls `importlib.util.find_spec` without importing it."""

from __future__ import annotations

import subprocess
import sys

SCRIPT = r"""
import sys
from pathlib import Path
import pyarrow as pa
from jdx.graph_schema.schema import NODE_TABLES, ddl
from jdx.graph_schema.store import GraphStore, _with_schema_columns
store = GraphStore(Path(sys.argv[1]) / "graph.kz", read_only=False)
for statement in ddl():
    store._conn.execute(statement)
table = pa.table({"id": ["p/a", "p/b"], "name": ["p.a", "p.b"]})
# as in a plain install: no pandas (find_spec answers None), and nothing imported importlib.util
sys.modules["pandas"] = None
import importlib
sys.modules.pop("importlib.util", None)
if hasattr(importlib, "util"):
    del importlib.util
store._copy_node("Package", _with_schema_columns(table, NODE_TABLES["Package"]))
print(store.query("MATCH (p:Package) RETURN count(*) AS n").column(0)[0].as_py())
store.close()
"""


def test_copy_from_a_python_table_needs_no_earlier_import_of_importlib_util(tmp_path):
    proc = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-1500:]
    assert proc.stdout.strip().splitlines()[-1] == "2"
