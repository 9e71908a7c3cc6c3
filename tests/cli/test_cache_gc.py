"""`jdx cache gc` (spec §10.2): it drops the graphs and shards no named workspace uses and none used recently. An
agent's `--jars` workspace is named by nothing but its use, so what it used in the last days stays; what nothing
used for longer goes, and a named workspace keeps its own whatever its age. The named-workspace and diff cases run
in the soak tier."""

from __future__ import annotations

import json
import os
import time
import zipfile
from pathlib import Path

import pytest

from tests.fixtures import jdktool

DAY = 86400


@pytest.fixture(scope="module")
def jars(tmp_path_factory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("gc-jars")
    out = []
    for name in ("one", "two"):
        src = root / name / "src" / f"gc{name}" / "Thing.java"
        src.parent.mkdir(parents=True)
        src.write_text(f"package gc{name}; public class Thing {{ public int size() {{ return 1; }} }}")
        classes = root / name / "classes"
        jdktool.run(["javac", "-d", str(classes), str(src)], check=True, capture_output=True)
        jar = root / f"{name}.jar"
        with zipfile.ZipFile(jar, "w") as z:
            for f in classes.rglob("*.class"):
                z.write(f, f.relative_to(classes).as_posix())
        out.append(jar)
    return out[0], out[1]


def _env(tmp_path: Path) -> dict:
    return {"JDX_CACHE_DIR": str(tmp_path / "cache"), "JDX_CONFIG_DIR": str(tmp_path / "config")}


def _gc(run_jdx, env: dict, *flags: str) -> dict:
    r = run_jdx("cache", "gc", "--json", *flags, env=env)
    assert r.code == 0, r.out + r.err
    return json.loads(r.out)["result"]


def _index(run_jdx, env: dict, jar: Path) -> None:
    r = run_jdx("index", "-q", "--no-jdk", "--jars", str(jar), env=env)
    assert r.code == 0, r.out + r.err


def _age(path: Path, days: float) -> None:
    """Makes everything under `path` (its use stamp included) look `days` old."""
    then = time.time() - days * DAY
    for p in [path, *path.rglob("*")]:
        os.utime(p, (then, then), follow_symlinks=False)


def _entries(cache: Path) -> set[str]:
    return {f"{sub}/{p.name}" for sub in ("shards", "graphs") if (cache / sub).exists()
            for p in (cache / sub).iterdir() if not p.name.startswith(".")}


@pytest.mark.soak  # three workspaces indexed (~10 s); test_schema_and_small keeps `cache gc` in the default tier
def test_gc_keeps_what_was_used_recently_and_drops_the_rest(run_jdx, tmp_path, jars):
    env = _env(tmp_path)
    cache = tmp_path / "cache"
    _index(run_jdx, env, jars[0])
    old = _entries(cache)
    assert any(e.startswith("graphs/") for e in old) and any(e.startswith("shards/") for e in old)
    result = _gc(run_jdx, env)  # an unnamed workspace used now: everything stays
    assert result["removed"] == [] and result["older_than_days"] == 7
    assert _entries(cache) == old
    for shard in (cache / "shards").iterdir():  # shards no diff read for long, of a graph used now: kept
        _age(shard, 30)
    assert _gc(run_jdx, env)["removed"] == []
    for entry in old:
        _age(cache / entry, 30)
    _index(run_jdx, env, jars[1])  # another workspace used now: kept
    fresh = _entries(cache) - old
    assert fresh
    dry = _gc(run_jdx, env, "--dry-run")
    assert set(dry["removed"]) == old and dry["dry_run"] is True
    assert _entries(cache) == old | fresh  # a dry run removes nothing
    result = _gc(run_jdx, env)
    assert set(result["removed"]) == old
    assert _entries(cache) == fresh
    assert {s["kind"]: s["count"] for s in result["summary"]} == {
        "shards": sum(e.startswith("shards/") for e in old), "graphs": sum(e.startswith("graphs/") for e in old)}
    # the workspace kept answers without a rebuild
    r = run_jdx("members", "gctwo.Thing", "--no-jdk", "--jars", str(jars[1]), env=env)
    assert r.code == 0 and "size()" in r.out and "building" not in r.err, r.out + r.err


@pytest.mark.soak
def test_gc_older_than_zero_keeps_only_named_workspaces(run_jdx, tmp_path, jars):
    env = _env(tmp_path)
    cache = tmp_path / "cache"
    r = run_jdx("ws", "create", "named", "--no-jdk", "--jars", str(jars[1]), env=env)
    assert r.code == 0, r.out + r.err
    r = run_jdx("index", "-q", "-w", "named", env=env)
    assert r.code == 0, r.out + r.err
    named = _entries(cache)
    for entry in named:
        _age(cache / entry, 90)  # a named workspace keeps its graph and shards however old
    _index(run_jdx, env, jars[0])
    adhoc = _entries(cache) - named
    r = run_jdx("cache", "gc", "--dry-run", env=env)
    assert r.code == 0, r.err
    assert r.out.splitlines()[0] == "cache gc would remove 0 entries (0 B); kept: used by a named workspace or in " \
                                    "the last 7 days", r.out
    result = _gc(run_jdx, env, "--older-than", "0")
    assert set(result["removed"]) == adhoc
    assert _entries(cache) == named


def test_gc_rejects_negative_days(run_jdx, tmp_path):
    r = run_jdx("cache", "gc", "--older-than", "-1", env=_env(tmp_path))
    assert r.code == 3 and "Traceback" not in r.err and "--older-than" in (r.out + r.err), r.out + r.err


@pytest.mark.soak
def test_a_diff_marks_its_shards_used(run_jdx, tmp_path, jars):
    """Shards read by `jdx diff` alone (no graph) stay while diffs read them."""
    env = _env(tmp_path)
    cache = tmp_path / "cache"
    r = run_jdx("diff", str(jars[0]), str(jars[1]), env=env)
    assert r.code in (0, 1), r.out + r.err
    shards = _entries(cache)
    assert len([e for e in shards if e.startswith("shards/")]) == 2, shards
    for entry in shards:
        _age(cache / entry, 30)
    r = run_jdx("diff", str(jars[0]), str(jars[1]), env=env)
    assert r.code in (0, 1), r.out + r.err
    assert _gc(run_jdx, env)["removed"] == []
    for entry in shards:
        _age(cache / entry, 30)
    assert set(_gc(run_jdx, env)["removed"]) == shards


def test_freed_bytes_count_a_hard_linked_file_once(tmp_path):
    """A grown graph hard-links its base's files: removing one build frees only what no kept build still links,
    and two removed builds sharing a file free it once (`cache gc` reported 6.2 GB freed where `du` saw 3.9 GB)."""
    from jdx.commands.manage import _freed_bytes
    from jdx.dirs import disk_bytes

    base, grown, alone = tmp_path / "base", tmp_path / "grown", tmp_path / "alone.bin"
    base.mkdir()
    grown.mkdir()
    (base / "graph.kz").write_bytes(b"x" * 1000)
    os.link(base / "graph.kz", grown / "graph.kz")
    (grown / "extra").write_bytes(b"y" * 300)
    alone.write_bytes(b"z" * 7)
    before = disk_bytes(tmp_path)
    assert _freed_bytes(grown, {}) == 300  # the base keeps its link
    links: dict = {}
    assert [_freed_bytes(p, links) for p in (base, grown, alone)] == [0, 1300, 7]
    assert before == 1307


def test_the_multi_release_copies_of_diff_are_a_derived_cache():
    """`diff` copies a multi-release jar's versioned classes under the cache (one jar per release): `cache clear`
    empties them, and `cache` counts them among the derived bytes."""
    from jdx.commands.diff_artifacts import RELEASE_DIR
    from jdx.commands.manage import DERIVED_CACHES

    assert RELEASE_DIR in DERIVED_CACHES
