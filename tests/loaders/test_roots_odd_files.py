"""--jars paths that are no readable jar file: a named pipe (reading it would block forever), a dangling link, a
directory named like a jar. Given explicitly they are an artifact read error (exit 5) at once; matched by a glob they
are skipped with a warning each, never silently (spec §16)."""

from __future__ import annotations

import os
import shutil
import zipfile
from pathlib import Path

import pytest

from jdx.loaders.roots import expand_jar_arg


@pytest.fixture
def lib(tmp_path) -> Path:
    lib = tmp_path / "lib"
    lib.mkdir()
    with zipfile.ZipFile(lib / "good.jar", "w") as z:
        z.writestr("META-INF/MANIFEST.MF", "Manifest-Version: 1.0\n")
    os.mkfifo(lib / "fifo.jar")
    (lib / "dangling.jar").symlink_to(lib / "nowhere.jar")
    (lib / "dir.jar").mkdir()
    return lib


def test_explicit_odd_paths_are_read_errors(lib):
    for name, why in (("fifo.jar", "not a regular file (a pipe or device)"), ("dangling.jar", "a dangling link")):
        paths, warnings = expand_jar_arg(str(lib / name))
        assert paths == [] and [(w.code, w.message) for w in warnings] == [
            ("ARTIFACT_READ_ERROR", f"{lib / name}: {why}")], warnings


def test_a_glob_skips_them_with_a_warning_each(lib):
    paths, warnings = expand_jar_arg(str(lib / "*.jar"))
    assert paths == [lib / "good.jar"]
    assert sorted(w.message.split(" (from ")[0].rsplit("/", 1)[1] + ": " + w.message.split(": ", 1)[1]
                  for w in warnings) == [
        "dangling.jar: a dangling link; skipped", "dir.jar: a directory; skipped",
        "fifo.jar: not a regular file (a pipe or device); skipped"], warnings


@pytest.mark.skipif(shutil.which("javac") is None, reason="javac is not installed")
def test_a_pipe_on_the_command_line_does_not_hang(run_jdx, lib, tmp_path):
    r = run_jdx("-q", "--no-jdk", "--jars", str(lib / "fifo.jar"), "--jars", str(lib / "good.jar"), "ls",
                env={"JDX_CACHE_DIR": str(tmp_path / "cache")}, timeout=120)
    assert r.code == 5 and "not a regular file" in r.out + r.err, r
