"""The warm `jdx bench` row modules run on the JDK workspace and measure what they name: every row has a number,
none says it failed, and each asks its command through the registry as the adapters do (a request field renamed
in a command once broke the search rows for days; this fails on that). The cold rows spawning whole processes
and the incremental/scale benches are left to `jdx bench` itself (`tests/loaders/test_bench_scale.py` covers the
scale row's skip)."""

from __future__ import annotations

import math

import pytest

from jdx.bench import graph as bench_graph
from jdx.bench import search as bench_search
from jdx.bench import source as bench_source
from jdx.bench.util import warm_median
from tests.service import JdxService, Options


@pytest.fixture(autouse=True)
def _few_samples(monkeypatch):
    """Two runs per row (the bench takes ten): the rows' code paths, not their medians, are under test here."""
    for mod in (bench_graph, bench_source):
        monkeypatch.setattr(mod, "warm_median", lambda fn, iterations, minimum=10: warm_median(fn, 1, minimum=1))


@pytest.fixture(scope="module")
def warm(jdx_home):
    s = JdxService(Options(cache_dir=str(jdx_home / "cache")))
    yield s
    s.close()


def _check(rows: list[dict], at_least: int) -> None:
    assert len(rows) >= at_least, rows
    for r in rows:
        assert r["name"] and isinstance(r["value"], str), r
        assert isinstance(r["seconds"], float) and math.isfinite(r["seconds"]) and r["seconds"] >= 0, r
        assert "error" not in r["value"].lower() and "failed" not in r["value"].lower(), r
        if not r["value"].startswith("skipped"):
            assert r["seconds"] > 0, r


@pytest.mark.soak  # ~17 s: the graph rows' ten queries and a reader deriving its indexes; CI's soak runs it
def test_graph_rows(warm):
    rows = bench_graph.rows(warm, 1)
    _check(rows, 6)
    usages = next(r for r in rows if r["name"].startswith("warm `usages"))
    assert "sites, 50 shown" in usages["value"] and not usages["value"].startswith("skipped")


@pytest.mark.soak  # spawns cold processes; CI's soak runs it
def test_search_rows(warm, monkeypatch, tmp_path):
    monkeypatch.setattr(bench_search, "COLD_CASES", [["search", "HMap"]])  # one cold process family is enough here
    # the cold rows' processes inherit this environment: one-shot answers, and no daemon left in the machine's
    # runtime dir after the session (one used to outlive the suite there)
    monkeypatch.setenv("JDX_NO_DAEMON", "1")
    monkeypatch.setenv("JDX_RUNTIME_DIR", str(tmp_path / "run"))
    rows = bench_search.rows(warm, 1)
    _check(rows, 1 + len(bench_search.WARM_CASES) + 1)
    assert all("median" in r["value"] for r in rows[1:])


def test_source_rows(warm):
    rows = bench_source.rows(warm, 1)
    if rows[0]["value"].startswith("skipped"):
        pytest.skip(rows[0]["value"])
    _check(rows, 5)
