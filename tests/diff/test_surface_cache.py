"""Each artifact's compact API surface, kept beside its shard (`diff-surface.bin`): written with the shard or on the
first diff of an indexed artifact, read by later diffs without pyarrow, keyed by the jar's content (a jar replaced
in place is compared as it is now), and never trusted when damaged or written for another extractor."""

from __future__ import annotations

import json
import marshal
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from jdx.commands.diff_artifacts import SURFACE_FILE, read_surface, surface_header
from jdx.loaders.roots import HashCache
from tests.diff.shim import main
from tests.fixtures.build import write_jar

ROOT = Path(__file__).resolve().parents[2]


def _json(diff, *args) -> dict:
    code, text = diff(*args, "--json")
    assert code == 0, text
    return json.loads(text)


def _surface(cache: Path, jar: Path) -> Path:
    key, _ = HashCache(cache).jar_key(jar.resolve())
    return cache / "shards" / key / SURFACE_FILE


def _answer(env: dict) -> tuple:
    r = env["result"]
    return r["counts"], r["findings"], r["old"]["classes"], r["new"]["classes"], env["warnings"]


def test_surface_written_with_the_shard_then_read_alone(diff, diff_jars, jdx_home, jdx_env, tmp_path):
    cache = jdx_home / "cache"
    old, new = diff_jars
    fresh = tmp_path / "new-plus.jar"  # new.jar's classes plus a resource: content no other test has extracted
    with zipfile.ZipFile(new) as z:
        write_jar(fresh, {**{n: z.read(n) for n in z.namelist()}, "extra.txt": b"not a class"})
    surface = _surface(cache, fresh)
    assert not surface.parent.exists()
    first = _json(diff, str(old), str(fresh))  # extracted now: its shard is written with the surface file
    assert read_surface(surface.parent, surface_header()) is not None
    written = surface.stat().st_mtime_ns
    second = _json(diff, str(old), str(fresh))  # read from the surface file, which is not written again
    assert surface.stat().st_mtime_ns == written
    assert second == first and first["result"]["total"] > 0

    # shards written by `jdx index` carry no surface file: the first diff writes it from the shard
    for jar in (old, fresh):
        _surface(cache, jar).unlink()
    assert _answer(_json(diff, str(old), str(fresh))) == _answer(first)
    assert all(read_surface(_surface(cache, j).parent, surface_header()) is not None for j in (old, fresh))

    # with both surfaces in place the answer needs neither pyarrow nor a JVM
    proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "jdx", "diff", str(old), str(fresh), "--json"],
                          env={**jdx_env, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True, timeout=300,
                          check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert _answer(json.loads(proc.stdout)) == _answer(first)
    imported = {line.rsplit("|", 1)[-1].strip() for line in proc.stderr.splitlines() if line.startswith("import time")}
    assert not {"pyarrow", "jpype"} & imported, sorted(imported & {"pyarrow", "jpype"})

@pytest.mark.soak  # slow: the soak runs it (.ci/run)

def test_same_inputs_same_bytes_whether_extracted_or_cached(diff_jars, tmp_path):
    """Spec §3.9: the answer to a diff is the same bytes on a fresh cache (both jars extracted) and on the next run
    (both read from their surface files): whether a shard was extracted now is no part of it."""
    old, new = map(str, diff_jars)
    cache = str(tmp_path / "fresh-cache")
    first, second = (main([old, new, "--json", "--cache-dir", cache]) for _ in range(2))
    assert first[0] == 0 and json.loads(first[1])["result"]["total"] > 0, first
    assert second == first


def test_jar_replaced_in_place_is_compared_as_it_is_now(diff, diff_jars, tmp_path):
    old, new = diff_jars
    target = tmp_path / "lib.jar"
    target.write_bytes(new.read_bytes())
    before = _json(diff, str(old), str(target))
    assert before["result"]["total"] > 0
    target.write_bytes(old.read_bytes())  # same path, same inode, other content
    same = _json(diff, str(old), str(target))
    assert same["result"]["total"] == 0 and [w["code"] for w in same["warnings"]] == ["SAME_ARTIFACT"]
    target.write_bytes(new.read_bytes())
    assert _json(diff, str(old), str(target))["result"]["findings"] == before["result"]["findings"]


def test_damaged_or_foreign_surface_file_is_not_trusted(diff, diff_jars, jdx_home):
    cache = jdx_home / "cache"
    old, new = map(str, diff_jars)
    good = _answer(_json(diff, old, new))
    surface = _surface(cache, diff_jars[1])
    header = surface_header()
    empty_api = marshal.dumps((0, [], []))
    for damage in (header + b"not marshal data", header, b"",
                   header.replace(b"jdx-diff-surface", b"jdx-diff-surface 0") + empty_api,  # another format
                   b"jdx-diff-surface 1 0:another-extractor py3.0\n" + empty_api):
        surface.write_bytes(damage)
        assert _answer(_json(diff, old, new)) == good, damage[:60]
        assert read_surface(surface.parent, header) is not None  # written again from the shard


@pytest.mark.soak
def test_a_jar_indexed_for_a_workspace_gets_its_surface_with_its_shard(diff, diff_jars, jdx_home, tmp_path):
    """`jdx index` (and any query that extracts a jar) writes the surface from the tables in memory, so the first
    diff after indexing reads it like any later one; a class directory's shard gets none."""
    from jdx.commands.session import Options, Session

    cache = tmp_path / "cache"
    old, new = diff_jars
    fresh = tmp_path / "indexed.jar"  # content no other test has extracted
    with zipfile.ZipFile(new) as z:
        write_jar(fresh, {**{n: z.read(n) for n in z.namelist()}, "indexed.txt": b"not a class"})
    classes = tmp_path / "classes"
    with zipfile.ZipFile(old) as z:
        for n in z.namelist():
            if n.endswith(".class"):
                (classes / n).parent.mkdir(parents=True, exist_ok=True)
                (classes / n).write_bytes(z.read(n))
    session = Session(Options(jars=[str(fresh), str(classes)], jdk=False, cache_dir=str(cache)))
    try:
        assert session.index().result["extracted"] == 2
    finally:
        session.close()
    surface = _surface(cache, fresh)
    assert read_surface(surface.parent, surface_header()) is not None
    assert not list((cache / "shards").glob(f"*/{SURFACE_FILE}"))[1:]  # the jar's only
    code, text = main([str(old), str(fresh), "--json", "--cache-dir", str(cache)])
    assert code == 0, text
    env = json.loads(text)
    assert env["result"]["total"] > 0
    assert _answer(env) == _answer(_json(diff, str(old), str(fresh)))
