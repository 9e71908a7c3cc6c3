"""A workspace grown jar by jar over the JDK's graph, and reordered, holds exactly the rows of one built from scratch,
on real jars (Debian's gson, commons-lang3 and guava): every table `jdx export` writes is compared row by row. The
property tests of tests/loaders/test_incremental_graph.py hold the same on a synthetic corpus; this one runs the real
extractor, the JDK's classes and the libraries' calls into them (soak tier)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from tests.conftest import require

pytestmark = pytest.mark.soak

JARS = [Path("/usr/share/java/gson.jar"), Path("/usr/share/java/commons-lang3.jar"), Path("/usr/share/java/guava.jar")]


def _jdx(env: dict, *args: str) -> dict:
    proc = subprocess.run([sys.executable, "-m", "jdx", *args, "--json", "-q"], capture_output=True, text=True,
                          env=env, timeout=900)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    return json.loads(proc.stdout)["result"]


def _jars(*jars: Path) -> list[str]:
    return [a for j in jars for a in ("--jars", str(j))]


def _frozen(value):
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, _frozen(v)) for k, v in value.items()))
    return value


def _exported(env: dict, jars: list[Path], out: Path) -> dict[str, Counter]:
    import pyarrow.parquet as pq

    _jdx(env, *_jars(*jars), "export", str(out))
    tables = {}
    for path in sorted(out.glob("*.parquet")):
        table = pq.read_table(path)
        names = table.column_names
        tables[path.stem] = Counter(tuple(_frozen(row[c]) for c in names) for row in table.to_pylist())
    return tables


def test_a_workspace_grown_jar_by_jar_and_reordered_equals_one_built_from_scratch(tmp_path, jdx_env):
    for jar in JARS:
        require(jar)
    grown_env = {**jdx_env, "JDX_CACHE_DIR": str(tmp_path / "grown"), "JDX_CONFIG_DIR": str(tmp_path / "cfg")}
    first = _jdx(grown_env, "index")
    assert first["built"] and "tables" in first["phases"], first  # the JDK alone, from scratch
    steps = [JARS[:1], JARS[:2], JARS[:3]]
    for jars in steps:
        result = _jdx(grown_env, *_jars(*jars), "index")
        assert "update" in result["phases"] and "tables" not in result["phases"], (jars, result["phases"])
    final = [JARS[2], JARS[0], JARS[1]]  # another order of the same jars: shares the graph, no rows computed
    result = _jdx(grown_env, *_jars(*final), "index")
    assert "share" in result["phases"], result["phases"]
    grown = _exported(grown_env, final, tmp_path / "export-grown")

    scratch_env = {**jdx_env, "JDX_CACHE_DIR": str(tmp_path / "scratch"), "JDX_CONFIG_DIR": str(tmp_path / "cfg")}
    os.makedirs(tmp_path / "scratch")
    shutil.copytree(tmp_path / "grown" / "shards", tmp_path / "scratch" / "shards")  # the same extraction
    # --force: a build from scratch (without it, the JDK's graph would be built first and the jars appended to it)
    result = _jdx(scratch_env, *_jars(*final), "index", "--force")
    assert "tables" in result["phases"] and "update" not in result["phases"], result["phases"]
    scratch = _exported(scratch_env, final, tmp_path / "export-scratch")

    assert sorted(grown) == sorted(scratch)
    assert sum(map(len, scratch.values())) > 1_000_000  # the JDK's rows and the jars' are all there
    for name in sorted(scratch):
        missing, extra = scratch[name] - grown[name], grown[name] - scratch[name]
        assert not missing and not extra, (name, list(missing.items())[:3], list(extra.items())[:3])
