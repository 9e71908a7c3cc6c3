"""A class file recompiled to the same size and given back its old timestamps (`cp -p`, `rsync -a`, a restored build
cache) is a change: a class directory's key and its incremental update see the ctime and inode no copy carries
over (spec §10.4), and a jar rewritten in place the same way gets a new content key. javac builds every fixture."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from jdx.loaders.indexer import ensure_graph
from jdx.loaders.roots import HashCache, resolve_roots
from tests.fixtures.javac import javap
from tests.loaders.test_incremental_faults import Counting
from tests.fixtures import jdktool

SOURCE = "package p; public class X {{ public String {name}(String s) {{ return s; }} }}\n"
OTHER = "package p; public class Y { public int y() { return 1; } }\n"


def _javac(src: Path, classes: Path, name: str) -> None:
    (src / "p").mkdir(parents=True, exist_ok=True)
    (src / "p" / "X.java").write_text(SOURCE.format(name=name))
    (src / "p" / "Y.java").write_text(OTHER)
    jdktool.run(["javac", "-d", str(classes), str(src / "p" / "X.java"), str(src / "p" / "Y.java")], check=True,
                   capture_output=True)


def _recompile_keeping_times(src: Path, classes: Path, name: str) -> None:
    """`md5` renamed to a name of the same length, recompiled, the old size and timestamps given back."""
    target = classes / "p" / "X.class"
    before = target.stat()
    old = target.read_bytes()
    (src / "p" / "X.java").write_text(SOURCE.format(name=name))
    jdktool.run(["javac", "-d", str(classes), str(src / "p" / "X.java")], check=True, capture_output=True)
    os.utime(target, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = target.stat()
    assert (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    assert target.read_bytes() != old


@pytest.fixture(scope="module")
def recompiled(tmp_path_factory):
    """A class directory answered once, then p.X recompiled with md6 for md5 and its old timestamps restored."""
    root = tmp_path_factory.mktemp("dirkey")
    src, classes = root / "src", root / "classes"
    _javac(src, classes, "md5")
    return root, src, classes


def test_same_size_recompile_with_old_timestamps_is_answered_fresh(recompiled, run_jdx):
    root, src, classes = recompiled
    first = run_jdx("members", "p.X", "--jars", str(classes), "--no-jdk")
    assert first.code == 0 and "md5(" in first.out, first.err
    _recompile_keeping_times(src, classes, "md6")
    loaded = javap(classes, "p.X")
    assert "md6(" in loaded and "md5(" not in loaded
    second = run_jdx("members", "p.X", "--jars", str(classes), "--no-jdk")
    assert second.code == 0, second.err
    assert "md6(" in second.out and "md5(" not in second.out, second.out

@pytest.mark.soak  # slow: the soak runs it (.ci/run)
def test_incremental_update_rereads_only_the_copied_class_file(tmp_path):
    src, classes, cache = tmp_path / "src", tmp_path / "classes", tmp_path / "cache"
    _javac(src, classes, "md5")
    ensure_graph(cache, resolve_roots([str(classes)], None, cache).artifacts)
    _recompile_keeping_times(src, classes, "md6")
    counting = Counting(cache)
    report = ensure_graph(cache, resolve_roots([str(classes)], None, cache).artifacts, extractor=counting)
    assert report.built and counting.classes == 1  # p.X only, not p.Y


def test_jar_rewritten_in_place_with_its_old_size_and_mtime_gets_a_new_key(tmp_path):
    jar = tmp_path / "lib.jar"
    jar.write_bytes(b"PK" + b"a" * 100)
    hashes = HashCache(tmp_path / "cache")
    key, _ = hashes.jar_key(jar)
    before = jar.stat()
    time.sleep(0.05)  # past the kernel's timestamp tick, so the rewrite's ctime is a later one
    with open(jar, "r+b") as f:  # the same inode, as `cp -p new.jar lib.jar` leaves it
        f.write(b"PK" + b"b" * 100)
    os.utime(jar, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = jar.stat()
    assert (after.st_size, after.st_mtime_ns, after.st_ino) == (before.st_size, before.st_mtime_ns, before.st_ino)
    assert hashes.jar_key(jar)[0] != key


def test_remembered_javap_text_of_a_class_rewritten_in_place_with_its_old_times_is_not_reused(tmp_path, jdx_home):
    """`body --engine javap` remembers the last classes' javap text in a long-lived process (the daemon): a class
    file rewritten in place (same inode) to its old size and mtime is read again, as the index reads it."""
    from jdx.engine import bytecode_view as bv
    from jdx.loaders.jvm_tools import LoaderJvmTools

    src, classes, other = tmp_path / "src", tmp_path / "classes", tmp_path / "other"
    _javac(src, classes, "md5")
    _javac(tmp_path / "src6", other, "md6")
    target = classes / "p" / "X.class"
    new = (other / "p" / "X.class").read_bytes()
    assert len(new) == target.stat().st_size
    cache = jdx_home / "cache"
    tools = LoaderJvmTools()
    assert "md5(" in bv.javap_class(tools, cache, "dir", str(classes), "p/X")
    before = target.stat()
    time.sleep(0.05)  # past the kernel's timestamp tick, so the rewrite's ctime is a later one
    with open(target, "r+b") as f:  # the same inode, as `cp -p` onto an existing file leaves it
        f.write(new)
    os.utime(target, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = target.stat()
    assert (after.st_size, after.st_mtime_ns, after.st_ino) == (before.st_size, before.st_mtime_ns, before.st_ino)
    text = bv.javap_class(tools, cache, "dir", str(classes), "p/X")
    assert "md6(" in text and "md5(" not in text, text
