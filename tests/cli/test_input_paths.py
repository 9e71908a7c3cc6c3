"""How --jars values are read (spec §7.6, §16): an empty value is a usage error, never the current directory; a glob
whose directory holds the classpath separator ':' is read whole when it matches; one class file skipped for its
size (ZIP_BOMB) does not make every miss in its jar an artifact error. Fixture jars are compiled at test time and
every workspace is --no-jdk."""

from __future__ import annotations

import json
import shutil
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.fixtures.javac import javac_jar

SOURCES = {"p/A.java": "package p; public class A { public int a() { return 1; } }"}
MAX_ENTRY_BYTES = 64 << 20  # jdx/loaders/extractor.py: one class file


@dataclass
class Jars:
    jar: Path
    colon_dir: Path  # a directory whose name holds ':', the jar copied into it
    liar: Path  # the jar plus one class file past the size cap


@pytest.fixture(scope="module")
def jars(tmp_path_factory) -> Jars:
    root = tmp_path_factory.mktemp("input-paths")
    jar, _classes = javac_jar(root, SOURCES, "p", "lib.jar")
    colon_dir = root / "in" / "co:lon"
    colon_dir.mkdir(parents=True)
    shutil.copy(jar, colon_dir / "lib.jar")
    liar = root / "liar.jar"
    shutil.copy(jar, liar)
    with zipfile.ZipFile(liar, "a", zipfile.ZIP_DEFLATED) as z, z.open("q/Big.class", "w", force_zip64=True) as f:
        block = b"\0" * (1 << 20)
        for _ in range((MAX_ENTRY_BYTES >> 20) + 1):
            f.write(block)
    return Jars(jar, colon_dir, liar)


def envelope(run) -> dict:
    assert "Traceback" not in run.err, run.err
    return json.loads(run.out)


def test_an_empty_jars_value_is_a_usage_error(run_jdx):
    """`--jars ""` (an unset shell variable) read the current directory and answered exit 0 or 5 about it."""
    query = run_jdx("members", "p.A", "--jars", "", "--no-jdk", "--json")
    env = envelope(query)
    assert query.code == 3 and env["error"]["code"] == "USAGE", env
    assert env["error"]["message"] == "--jars was given an empty path" and "--jars ." in env["error"]["hint"]
    index = run_jdx("index", "--jars", "", "--no-jdk")
    assert index.code == 3 and "--jars was given an empty path" in index.err, index


def test_a_glob_whose_directory_holds_a_colon_is_read_whole(run_jdx, jars):
    """It was split at the ':' into `.../in/co` (cannot read) and `lon/*.jar` (no jar matches): exit 5."""
    run = run_jdx("members", "p.A", "--jars", f"{jars.colon_dir.parent}/co:lon/*.jar", "--no-jdk", "--json")
    env = envelope(run)
    assert run.code == 0, env
    assert not [w for w in env["warnings"] if w["code"] == "ARTIFACT_READ_ERROR"], env["warnings"]
    assert [p["artifact"] for p in env["provenance"]] == ["lib.jar"]


def test_one_oversized_class_file_leaves_a_miss_not_found(run_jdx, jars):
    """A class file over the size cap is skipped alone (the rest of the jar is read): a class not found is NOT_FOUND
    (exit 1) with the ZIP_BOMB warning, not "liar.jar could not be read, so it may be there" (exit 5)."""
    run = run_jdx("show", "com.nope.Zzz", "--jars", str(jars.liar), "--no-jdk", "--json")
    env = envelope(run)
    assert run.code == 1 and env["error"]["code"] == "NOT_FOUND", env
    assert "could not be read" not in env["error"]["message"]
    assert [w for w in env["warnings"] if w["code"] == "ZIP_BOMB" and "q/Big.class" in w["message"]], env["warnings"]
    assert run_jdx("show", "p.A", "--jars", str(jars.liar), "--no-jdk").code == 0
    skipped = run_jdx("show", "q.Big", "--jars", str(jars.liar), "--no-jdk")  # the skipped class itself: there,
    assert skipped.code == 5 and "q.Big: the class file is there but could not be read (ZIP_BOMB" in skipped.err, \
        skipped.err  # unread


@pytest.mark.parametrize("message, unread", [
    ("liar.jar: q/Big.class: class file larger than 67108864 bytes; skipped", []),
    ("liar.jar: q/Z.class: artifact decompresses past 4294967296 bytes; rest skipped", ["liar.jar"]),
    ("liar.jar: /x/liar.jar: jar has 1000001 entries, over the cap of 1000000; skipped", ["liar.jar"]),
])
def test_only_zip_bomb_warnings_that_stopped_reading_make_an_artifact_unread(message, unread):
    from jdx.commands.session import Session
    from jdx.errors import Warning_

    session = Session()
    session._graph_warnings = [Warning_("ZIP_BOMB", message, "liar.jar")]
    assert session.unread_artifacts() == unread
