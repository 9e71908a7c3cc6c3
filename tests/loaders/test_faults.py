"""Fault injection on the indexing path (spec §16, §17): hostile or broken artifacts become named warnings or exit
codes, never tracebacks, and never stop the rest of the workspace from being indexed.

Every fixture jar is built at test time: a few small classes compiled with javac, then bad entries crafted with
zipfile (or, for the entry-count bomb, raw zip records). Every run passes --no-jdk.

To stay fast, the faults that only warn share one "zoo" workspace (good.jar beside every warning-only bad jar),
indexed once; each test then checks its own warning, attributed to its own jar, and its own rows of one Cypher
listing. Faults that change the exit code (5) get a workspace of their own, so the code is attributable.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import struct
import subprocess
import sys
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import Run
from tests.fixtures import jdktool

# slow: the soak runs it (.ci/run); the zoo of damaged jars builds its own index (~17 s of the default tier)
pytestmark = pytest.mark.soak

GOOD_CLASSES = ["good.Alpha", "good.Beta"]
FUTURE_MAJOR = 100  # newer than any ASM knows (9.4: 64, 9.10: 71): the extractor must still index the class
MAX_ENTRIES = 1_000_000  # jdx/loaders/extractor.py
MAX_ENTRY_BYTES = 64 << 20  # jdx/loaders/extractor.py
BOMB_BYTES = 100 << 20
RSS_LIMIT = 1 << 30

SOURCES = {
    "good/Alpha.java": "package good; public class Alpha { public int a() { return 1; } }",
    "good/Beta.java": "package good; public class Beta extends Alpha { @Override public int a() { return 2; } }",
    "victim/Victim.java": "package victim; public class Victim { public String v() { return \"v\"; } }",
    "future/Future.java": "package future; public class Future { public int f() { return 70; } }",
    "odd/Bad$$Name.java": "package odd; public class Bad$$Name { }",
    "odd/Fine.java": "package odd; public class Fine { }",
    "dup/Same.java": "package dup; public class Same { public int s() { return 1; } }",
    "slip/Evil.java": "package slip; public class Evil { }",
    "mr/Base.java": "package mr; public class Base { }",
    "mr2/Only.java": "package mr2; public class Only { }",
    "trunc/Short.java": "package trunc; public class Short { }",
    "bomb/Ok.java": "package bomb; public class Ok { }",
    "keep/InTrunc.java": "package keep; public class InTrunc { }",
    "keep/InSlip.java": "package keep; public class InSlip { }",
    "keep/InDup.java": "package keep; public class InDup { }",
}
SLIP_NAMES = ["../../evil.class", "/abs.class", "a/../../../up.class", "..\\..\\win.class"]


# --- building artifacts ------------------------------------------------------------------------------------------

def make_jar(path: Path, entries: dict[str, bytes], manifest: str | None = None) -> Path:
    """A jar holding exactly these entry names (a ZipInfo keeps hostile names verbatim)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        if manifest is not None:
            z.writestr("META-INF/MANIFEST.MF", manifest)
        for name, data in entries.items():
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)
    return path


def write_zip_bomb(path: Path, classes: dict[str, bytes]) -> None:
    """One .class entry of BOMB_BYTES zeros, deflated to ~100 KB, beside one intact class."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("bomb/Ok.class", classes["bomb/Ok.class"])
        with z.open("bomb/Big.class", "w", force_zip64=True) as f:
            block = b"\0" * (1 << 20)
            for _ in range(BOMB_BYTES >> 20):
                f.write(block)


def write_entry_count_bomb(path: Path, entries: int) -> None:
    """A zip64 archive whose central directory lists `entries` records sharing one empty local entry:
    ~51 bytes per entry on disk, written in well under a second."""
    name = b"x.txt"
    crc = zlib.crc32(b"")
    local = struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 0, 0, 0x21, crc, 0, 0, len(name), 0) + name
    cen = struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 45, 20, 0, 0, 0, 0x21, crc, 0, 0, len(name),
                      0, 0, 0, 0, 0, 0) + name
    cen_off, cen_len = len(local), len(cen) * entries
    zip64_end = struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, 45, 45, 0, 0, entries, entries, cen_len, cen_off)
    locator = struct.pack("<IIQI", 0x07064B50, 0, cen_off + cen_len, 1)
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 0xFFFF, 0xFFFF, cen_len, cen_off, 0)
    with open(path, "wb") as f:
        f.write(local)
        f.write(cen * entries)
        f.write(zip64_end + locator + end)


@pytest.fixture(scope="module")
def classes(tmp_path_factory) -> dict[str, bytes]:
    """Entry name (e.g. good/Alpha.class) -> class-file bytes, compiled once per module."""
    if shutil.which("javac") is None:
        pytest.skip("javac is not on PATH")
    root = tmp_path_factory.mktemp("fault-src")
    src, out = root / "src", root / "out"
    files = []
    for rel, text in SOURCES.items():
        path = src / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        files.append(str(path))
    out.mkdir()
    jdktool.run(["javac", "--release", "11", "-nowarn", "-d", str(out), *files], check=True,
                   capture_output=True, text=True)
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*.class"))}


@pytest.fixture(scope="module")
def good_jar(tmp_path_factory, classes) -> Path:
    root = tmp_path_factory.mktemp("fault-good")
    return make_jar(root / "good.jar", {n: classes[n] for n in ("good/Alpha.class", "good/Beta.class")})


# --- running jdx and reading its answers ------------------------------------------------------------------------

def jar_args(*jars: Path | str) -> list[str]:
    out = ["--no-jdk"]
    for j in jars:
        out += ["--jars", str(j)]
    return out


def no_traceback(run: Run) -> None:
    assert "Traceback" not in run.out, run.out
    assert "Traceback" not in run.err, run.err
    assert "internal error" not in run.out + run.err, run.out + run.err
    assert '"code":"INTERNAL"' not in run.out, run.out


def envelope(run: Run) -> dict:
    no_traceback(run)
    lines = run.out.strip().splitlines()
    assert len(lines) == 1, f"expected one JSON line on stdout, got: {run.out!r} (stderr {run.err!r})"
    env = json.loads(lines[0])
    assert env["jdx"] == 1
    return env


def index(run_jdx, *jars, expect: int = 0, extra: tuple[str, ...] = ()) -> dict:
    run = run_jdx("index", *extra, "--json", *jar_args(*jars))
    env = envelope(run)
    assert run.code == expect, f"exit {run.code}, wanted {expect}: {run.out} {run.err}"
    assert env["ok"] is (expect == 0)
    if expect == 5:
        assert env["error"]["code"] == "ARTIFACT_READ_ERROR"
    return env


def warnings_of(env: dict, code: str, artifact: str | None = None) -> list[dict]:
    return [w for w in env["warnings"] if w["code"] == code and (artifact is None or w.get("artifact") == artifact)]


def cypher(run_jdx, query: str, *jars) -> list[dict]:
    run = run_jdx("cypher", query, "--json", "--limit", "1000000", *jar_args(*jars))
    env = envelope(run)
    assert run.code == 0, f"cypher exit {run.code}: {run.out} {run.err}"
    assert env["ok"] is True
    return env["result"]["rows"]


TYPES_BY_JAR = ("MATCH (a:Artifact)-[:CONTAINS]->(t:Type) RETURN a.name AS jar, t.fqn AS fqn, t.version AS version, "
                "t.shadowed AS shadowed ORDER BY jar, fqn")


def types_by_jar(run_jdx, *jars) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for row in cypher(run_jdx, TYPES_BY_JAR, *jars):
        out.setdefault(row["jar"], []).append(row)
    return out


def fqns(rows: list[dict]) -> list[str]:
    return [r["fqn"] for r in rows]


def tree(root: Path, skip: Path | None = None) -> set[str]:
    out = set()
    for dirpath, dirnames, filenames in os.walk(root):
        if skip is not None and Path(dirpath) == skip:
            dirnames.clear()
            continue
        for name in filenames + dirnames:
            out.add(os.path.relpath(os.path.join(dirpath, name), root))
    return out


# --- the zoo: every warning-only fault beside good.jar, indexed once ---------------------------------------------

# Runs ARGV[2:] and writes its peak RSS in bytes to ARGV[1]. The measured process must be forked from this small
# wrapper, not from pytest: Linux carries the forking process's RSS high-water mark into the child's ru_maxrss.
PEAK_RSS_WRAPPER = """
import os, subprocess, sys
proc = subprocess.Popen(sys.argv[2:])
_, status, usage = os.wait4(proc.pid, 0)
with open(sys.argv[1], "w") as f:
    f.write(str(usage.ru_maxrss * 1024))
sys.exit(os.waitstatus_to_exitcode(status))
"""

@dataclass
class Zoo:
    run: Run
    env: dict
    peak_rss: int
    jars: list[Path]
    types: dict[str, list[dict]]
    artifacts: dict[str, int]
    tree_before: set[str]
    tree_after: set[str]
    home_before: set[str]
    home_after: set[str]
    root: Path


@pytest.fixture(scope="module")
def zoo(tmp_path_factory, jdx_env, jdx_home, run_jdx, classes, good_jar) -> Zoo:
    root = tmp_path_factory.mktemp("fault-zoo")
    jars_dir = root / "deep" / "er"  # also the working directory: ../../evil.class would land in root
    real = classes["trunc/Short.class"]
    patched = bytearray(classes["future/Future.class"])
    patched[6:8] = FUTURE_MAJOR.to_bytes(2, "big")
    fine = classes["odd/Fine.class"]
    same = {"dup/Same.class": classes["dup/Same.class"]}
    jars = [
        good_jar,
        make_jar(jars_dir / "truncated.jar", {"trunc/Short.class": real[:20], "victim/Victim.class":
                                              classes["victim/Victim.class"][:5],
                                              "keep/InTrunc.class": classes["keep/InTrunc.class"]}),
        make_jar(jars_dir / "magic.jar", {"victim/Victim.class": b"\xde\xad\xbe\xef" + real[4:]}),
        make_jar(jars_dir / "future.jar", {"future/Future.class": bytes(patched)}),
        make_jar(jars_dir / "slip.jar", {**{n: classes["slip/Evil.class"] for n in SLIP_NAMES},
                                         "keep/InSlip.class": classes["keep/InSlip.class"]}),
        jars_dir / "bomb.jar",
        jars_dir / "many.jar",
        jars_dir / "empty.jar",
        make_jar(jars_dir / "unnameable.jar", {"odd/Bad$$Name.class": classes["odd/Bad$$Name.class"],
                                               "odd/Fine.class": fine}),
        make_jar(jars_dir / "mr.jar", {"mr/Base.class": classes["mr/Base.class"],
                                       "META-INF/versions/11/mr/Base.class": classes["mr/Base.class"],
                                       "META-INF/versions/11/victim/Victim.class": classes["victim/Victim.class"]},
                 manifest="Manifest-Version: 1.0\r\nMulti-Release: true\r\n\r\n"),
        make_jar(jars_dir / "mronlymodule.jar", {"mr2/Only.class": classes["mr2/Only.class"],
                                                 "META-INF/versions/9/module-info.class": b"not read"},
                 manifest="Manifest-Version: 1.0\r\nMulti-Release: true\r\n\r\n"),
        make_jar(jars_dir / "one" / "dupfirst.jar", same),
        make_jar(jars_dir / "two" / "dupsecond.jar", {**same, "keep/InDup.class": classes["keep/InDup.class"]}),
    ]
    write_zip_bomb(jars_dir / "bomb.jar", classes)
    write_entry_count_bomb(jars_dir / "many.jar", MAX_ENTRIES + 1)
    zipfile.ZipFile(jars_dir / "empty.jar", "w").close()
    with zipfile.ZipFile(jars_dir / "slip.jar") as z:
        assert set(SLIP_NAMES) <= set(z.namelist())  # zipfile kept the hostile names verbatim

    cache = Path(jdx_env["JDX_CACHE_DIR"])
    tree_before, home_before = tree(root), tree(jdx_home, skip=cache)
    out_file, err_file, rss_file = root / "index.out", root / "index.err", root / "index.rss"
    with open(out_file, "wb") as out, open(err_file, "wb") as err:
        proc = subprocess.run([sys.executable, "-c", PEAK_RSS_WRAPPER, str(rss_file), sys.executable, "-m", "jdx",
                               "index", "--json", *jar_args(*jars)], stdout=out, stderr=err, env=jdx_env,
                              cwd=jars_dir, timeout=300)
    peak_rss = int(rss_file.read_text())
    rss_file.unlink()
    run = Run(proc.returncode, out_file.read_text(), err_file.read_text())
    out_file.unlink()
    err_file.unlink()
    tree_after, home_after = tree(root), tree(jdx_home, skip=cache)
    env = envelope(run)
    types = types_by_jar(run_jdx, *jars)
    artifacts = {r["jar"]: r["classes"] for r in cypher(
        run_jdx, "MATCH (a:Artifact) RETURN a.name AS jar, a.classes AS classes", *jars)}
    return Zoo(run, env, peak_rss, jars, types, artifacts, tree_before, tree_after,
               home_before, home_after, root)


def test_zoo_indexes_the_good_jar_and_exits_0(zoo):
    assert zoo.run.code == 0, zoo.run
    assert zoo.env["ok"] is True
    assert fqns(zoo.types["good.jar"]) == GOOD_CLASSES
    assert zoo.artifacts["good.jar"] == len(GOOD_CLASSES)
    assert zoo.env["result"]["artifacts"] == len(zoo.jars)


# --- 1-3: class files that are broken or too new ----------------------------------------------------------------

def test_truncated_class_is_corrupt_class(zoo):
    corrupt = warnings_of(zoo.env, "CORRUPT_CLASS", "truncated.jar")
    flagged = {e for e in ("trunc/Short.class", "victim/Victim.class") if any(e in w["message"] for w in corrupt)}
    assert flagged == {"trunc/Short.class", "victim/Victim.class"}, zoo.env["warnings"]  # 20 bytes and 5 bytes
    assert fqns(zoo.types["truncated.jar"]) == ["keep.InTrunc"]  # the intact entry of the same jar is kept


def test_bad_magic_is_corrupt_class(zoo):
    corrupt = warnings_of(zoo.env, "CORRUPT_CLASS", "magic.jar")
    assert len(corrupt) == 1 and "victim/Victim.class" in corrupt[0]["message"], zoo.env["warnings"]
    assert "magic" in corrupt[0]["message"]
    assert "magic.jar" not in zoo.types
    assert zoo.artifacts["magic.jar"] == 0


def test_future_class_version_is_warned_and_still_indexed(zoo, run_jdx):
    unsupported = warnings_of(zoo.env, "UNSUPPORTED_CLASS_VERSION", "future.jar")
    assert unsupported and str(FUTURE_MAJOR) in unsupported[0]["message"], zoo.env["warnings"]
    assert not warnings_of(zoo.env, "CORRUPT_CLASS", "future.jar")
    assert [(r["fqn"], r["version"]) for r in zoo.types["future.jar"]] == [("future.Future", FUTURE_MAJOR)]
    methods = cypher(run_jdx, "MATCH (t:Type)-[:DECLARES]->(m:Method) WHERE t.fqn = 'future.Future' "
                              "RETURN m.name AS name ORDER BY name", *zoo.jars)
    assert [r["name"] for r in methods] == ["<init>", "f"]


# --- 4-5: hostile archives --------------------------------------------------------------------------------------

def test_zip_slip_entries_are_refused_and_nothing_escapes(zoo):
    slips = warnings_of(zoo.env, "ZIP_SLIP_ENTRY")
    flagged = {n for n in SLIP_NAMES if any(n in w["message"] for w in slips)}
    assert flagged == set(SLIP_NAMES), zoo.env["warnings"]
    assert all(w["artifact"] == "slip.jar" for w in slips)
    assert zoo.tree_after == zoo.tree_before  # nothing written beside the jars or in the working directory
    assert zoo.home_after == zoo.home_before  # nor in jdx's home outside the cache
    assert not Path("/abs.class").exists()
    for name in ("evil.class", "up.class", "win.class"):
        assert not list(zoo.root.parent.rglob(name))
    assert fqns(zoo.types["slip.jar"]) == ["keep.InSlip"]
    assert not any(r["fqn"] == "slip.Evil" for rows in zoo.types.values() for r in rows)


def test_zip_bomb_entry_is_capped_in_bounded_memory(zoo):
    assert (zoo.root / "deep/er/bomb.jar").stat().st_size < 1 << 20 < MAX_ENTRY_BYTES < BOMB_BYTES
    bombs = warnings_of(zoo.env, "ZIP_BOMB", "bomb.jar")
    assert bombs and "bomb/Big.class" in bombs[0]["message"], zoo.env["warnings"]
    assert zoo.peak_rss < RSS_LIMIT, f"peak RSS {zoo.peak_rss >> 20} MB"
    assert fqns(zoo.types["bomb.jar"]) == ["bomb.Ok"]  # the rest of the bomb jar is still read


def test_zip_bomb_entry_count_is_capped(zoo):
    bombs = warnings_of(zoo.env, "ZIP_BOMB", "many.jar")
    assert bombs and str(MAX_ENTRIES) in bombs[0]["message"], zoo.env["warnings"]
    assert zoo.artifacts["many.jar"] == 0


# --- 6-9: artifacts that are empty, not zips, missing or unreadable ---------------------------------------------

def test_empty_jar_beside_good_jar(zoo):
    assert zoo.artifacts["empty.jar"] == 0
    assert [(w["code"], w["message"]) for w in zoo.env["warnings"] if w.get("artifact") == "empty.jar"] == \
        [("EMPTY_ARTIFACT", "empty.jar holds no class files: nothing of it is in the workspace")]


def test_empty_jar_alone_indexes_zero_classes(run_jdx, tmp_path):
    empty = tmp_path / "empty.jar"
    zipfile.ZipFile(empty, "w").close()
    env = index(run_jdx, empty)
    assert env["result"]["classes"] == 0
    assert [w["code"] for w in env["warnings"]] == ["EMPTY_ARTIFACT"]
    assert cypher(run_jdx, "MATCH (t:Type) RETURN count(t) AS n", empty) == [{"n": 0}]


@pytest.fixture(scope="module")
def junk_jar(tmp_path_factory) -> Path:
    junk = tmp_path_factory.mktemp("fault-junk") / "junk.jar"
    junk.write_bytes(random.Random(7).randbytes(4096))
    return junk


def test_non_zip_jar_is_artifact_read_error(run_jdx, junk_jar, good_jar):
    env = index(run_jdx, good_jar, junk_jar, expect=5, extra=("--force",))
    errors = warnings_of(env, "ARTIFACT_READ_ERROR")
    assert len(errors) == 1 and errors[0]["artifact"] == "junk.jar", env["warnings"]
    assert "junk.jar" in env["error"]["message"] and "good.jar" not in env["error"]["message"]
    assert env["result"]["classes"] == len(GOOD_CLASSES)  # the rest of the workspace is indexed
    types = types_by_jar(run_jdx, good_jar, junk_jar)
    assert fqns(types["good.jar"]) == GOOD_CLASSES and "junk.jar" not in types


def test_non_zip_jar_is_still_exit_5_when_the_graph_is_up_to_date(run_jdx, junk_jar, good_jar):
    index(run_jdx, good_jar, junk_jar, expect=5, extra=("--force",))
    env = index(run_jdx, good_jar, junk_jar, expect=5)
    assert env["result"]["built"] is False


def test_not_found_beside_an_unreadable_jar_is_exit_5_naming_it(run_jdx, junk_jar, good_jar):
    """The symbol may be in the jar that could not be read: exit 1 would say it is nowhere. A symbol found
    answers (exit 0), with the jar's warning."""
    missing = envelope(run_jdx("show", "good.Nowhere", "--json", *jar_args(good_jar, junk_jar)))
    assert missing["error"]["code"] == "ARTIFACT_READ_ERROR", missing
    assert "not found: good.Nowhere; junk.jar could not be read, so it may be there" == missing["error"]["message"]
    text = run_jdx("show", "good.Nowhere", *jar_args(good_jar, junk_jar))
    no_traceback(text)
    assert text.code == 5 and "junk.jar could not be read" in text.out + text.err, text
    found = run_jdx("show", GOOD_CLASSES[0], "--json", *jar_args(good_jar, junk_jar))
    assert found.code == 0 and warnings_of(envelope(found), "ARTIFACT_READ_ERROR"), found


def test_missing_path_is_artifact_read_error(run_jdx, tmp_path, good_jar):
    missing = tmp_path / "nowhere" / "gone.jar"
    env = index(run_jdx, good_jar, missing, expect=5)
    errors = warnings_of(env, "ARTIFACT_READ_ERROR")
    assert len(errors) == 1 and "gone.jar" in errors[0]["message"], env["warnings"]
    assert env["result"]["classes"] == len(GOOD_CLASSES)
    assert fqns(types_by_jar(run_jdx, good_jar)["good.jar"]) == GOOD_CLASSES
    # a query over a workspace with a missing explicit path is an error naming it, before any answer
    for fmt in ([], ["--json"]):
        query = run_jdx("show", GOOD_CLASSES[0], *fmt, *jar_args(good_jar, missing))
        no_traceback(query)
        assert query.code == 5, query
        assert "gone.jar" in (query.out + query.err) and GOOD_CLASSES[0] not in query.out.replace(
            f'"query":"{GOOD_CLASSES[0]}"', ""), query
    failure = json.loads(run_jdx("show", GOOD_CLASSES[0], "--json", *jar_args(good_jar, missing)).out)
    assert failure["error"]["code"] == "ARTIFACT_READ_ERROR" and "gone.jar" in failure["error"]["message"]
    assert any("gone.jar" in w["message"] for w in failure["warnings"]), failure
    # the text mode says the same on stderr, with exit 5 (the graph is up to date: no re-extraction)
    run = run_jdx("index", *jar_args(good_jar, missing))
    no_traceback(run)
    assert run.code == 5, run
    assert "ARTIFACT_READ_ERROR" in run.err and "gone.jar" in run.err
    assert run.err.startswith("error:")


def test_missing_path_alone_is_not_a_traceback(run_jdx, tmp_path):
    run = run_jdx("index", "--json", *jar_args(tmp_path / "gone.jar"))
    env = envelope(run)
    assert run.code in (4, 5), run  # nothing left to index: no workspace (4) or the read error (5)
    assert env["ok"] is False


def test_missing_path_alone_names_the_path(run_jdx, tmp_path):
    run = run_jdx("index", "--json", *jar_args(tmp_path / "gone.jar"))
    env = envelope(run)
    assert any("gone.jar" in w["message"] for w in env["warnings"]) or "gone.jar" in env["error"]["message"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their mode")
def test_unreadable_jar_is_artifact_read_error(run_jdx, tmp_path, classes, good_jar):
    locked = make_jar(tmp_path / "locked.jar", {"odd/Fine.class": classes["odd/Fine.class"]})
    locked.chmod(0)
    try:
        env = index(run_jdx, good_jar, locked, expect=5)
        errors = warnings_of(env, "ARTIFACT_READ_ERROR")
        assert errors and "locked.jar" in errors[0]["message"], env["warnings"]
        assert fqns(types_by_jar(run_jdx, good_jar, locked)["good.jar"]) == GOOD_CLASSES
    finally:
        locked.chmod(0o644)


# --- 10-12: names, multi-release and shading --------------------------------------------------------------------

def test_empty_dollar_segment_is_unnameable_class(zoo, classes):
    assert "odd/Bad$$Name.class" in classes  # javac accepts the identifier
    unnameable = warnings_of(zoo.env, "UNNAMEABLE_CLASS", "unnameable.jar")
    assert len(unnameable) == 1 and "Bad$$Name" in unnameable[0]["message"], zoo.env["warnings"]
    assert not warnings_of(zoo.env, "CORRUPT_CLASS", "unnameable.jar")
    assert fqns(zoo.types["unnameable.jar"]) == ["odd.Fine"]


def test_multi_release_jar_indexes_base_entries(zoo):
    multi = warnings_of(zoo.env, "MULTI_RELEASE_JAR", "mr.jar")
    assert len(multi) == 1, zoo.env["warnings"]
    assert "2 classes for release 11 under META-INF/versions skipped" in multi[0]["message"], multi
    assert fqns(zoo.types["mr.jar"]) == ["mr.Base"]  # once, and no versioned-only class
    # a module-info.class is all most multi-release jars version (jackson-databind): nothing an answer misses
    assert warnings_of(zoo.env, "MULTI_RELEASE_JAR", "mronlymodule.jar") == [], zoo.env["warnings"]
    assert not any("mr.Base" in w["message"] for w in warnings_of(zoo.env, "DUPLICATE_CLASS"))


def test_duplicate_class_first_jar_wins(zoo):
    dups = warnings_of(zoo.env, "DUPLICATE_CLASS")
    assert len(dups) == 1, zoo.env["warnings"]
    message = dups[0]["message"]
    assert "dup.Same" in message and "dupfirst.jar" in message and "dupsecond.jar" in message
    assert dups[0]["artifact"] == "dupfirst.jar"
    first, second = zoo.types["dupfirst.jar"], zoo.types["dupsecond.jar"]
    assert [(r["fqn"], r["shadowed"]) for r in first] == [("dup.Same", False)]
    assert [(r["fqn"], r["shadowed"]) for r in second] == [("dup.Same", True), ("keep.InDup", False)]


def test_duplicate_class_winner_follows_classpath_order(run_jdx, zoo, good_jar):
    first = next(j for j in zoo.jars if j.name == "dupfirst.jar")
    second = next(j for j in zoo.jars if j.name == "dupsecond.jar")
    env = index(run_jdx, good_jar, second, first)
    assert [w["artifact"] for w in warnings_of(env, "DUPLICATE_CLASS")] == ["dupsecond.jar"]
    types = types_by_jar(run_jdx, good_jar, second, first)
    assert [r["shadowed"] for r in types["dupsecond.jar"]] == [False, False]
    assert [r["shadowed"] for r in types["dupfirst.jar"]] == [True]
    assert fqns(types["good.jar"]) == GOOD_CLASSES


def test_a_classpath_string_is_its_entries_in_order(run_jdx, zoo, good_jar):
    """`--jars a.jar:b.jar` (as `java -cp` takes it) is `--jars a.jar --jars b.jar`: the same roots, the same
    shadowing; a missing entry is named alone."""
    first = next(j for j in zoo.jars if j.name == "dupfirst.jar")
    second = next(j for j in zoo.jars if j.name == "dupsecond.jar")
    joined = os.pathsep.join(str(j) for j in (good_jar, second, first))
    run = run_jdx("index", "--json", "--no-jdk", "--jars", joined)
    env = envelope(run)
    assert run.code == 0, run
    assert [w["artifact"] for w in warnings_of(env, "DUPLICATE_CLASS")] == ["dupsecond.jar"]
    assert types_by_jar(run_jdx, joined) == types_by_jar(run_jdx, good_jar, second, first)
    assert [r["shadowed"] for r in types_by_jar(run_jdx, joined)["dupfirst.jar"]] == [True]
    missing = str(good_jar.parent / "gone.jar")
    run = run_jdx("show", GOOD_CLASSES[0], "--json", "--no-jdk", "--jars", os.pathsep.join((str(good_jar), missing)))
    failure = envelope(run)
    assert run.code == 5, run
    assert missing in failure["error"]["message"] and str(good_jar) + os.pathsep not in failure["error"]["message"]


def test_identical_jar_at_two_paths(run_jdx, tmp_path, good_jar):
    copy = tmp_path / "copy" / "good.jar"
    copy.parent.mkdir()
    shutil.copyfile(good_jar, copy)
    run = run_jdx("index", "--json", *jar_args(good_jar, copy))
    assert "DUPLICATE_ARTIFACT" in {w["code"] for w in envelope(run)["warnings"]}, run
    assert run.code == 0, run
    types = types_by_jar(run_jdx, good_jar, copy)
    assert [r["shadowed"] for r in types["good.jar"]].count(False) == len(GOOD_CLASSES)


# --- 13: usage errors -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("args, needle", [
    (["frobnicate"], "frobnicate"),
    (["index", "--no-such-flag"], "--no-such-flag"),
    (["cypher"], "query"),
], ids=["unknown-command", "unknown-flag", "missing-argument"])
def test_usage_error_is_exit_3_one_line(run_jdx, args, needle):
    run = run_jdx(*args, "--no-jdk")
    no_traceback(run)
    assert run.code == 3, run
    assert run.out == ""
    lines = run.err.strip().splitlines()
    assert len(lines) == 1, run.err
    assert lines[0].startswith("error:") and needle.lower() in lines[0].lower()


def test_global_flag_without_value_is_exit_3_one_line(run_jdx):
    run = run_jdx("--no-jdk", "index", "--jars")
    no_traceback(run)
    assert run.code == 3, run
    assert run.out == ""
    assert run.err.strip().splitlines() == ["error: --jars needs a value"]


@pytest.mark.parametrize("args", [["frobnicate"], ["index", "--no-such-flag"]], ids=["unknown-command",
                                                                                   "unknown-flag"])
def test_usage_error_json_envelope(run_jdx, args):
    run = run_jdx("--json", "--no-jdk", *args)
    env = envelope(run)
    assert run.code == 3
    assert env["ok"] is False and env["error"]["code"] == "USAGE"
    assert env["error"]["message"]
    assert run.err == ""


def test_usage_error_json_envelope_for_global_flag(run_jdx):
    run = run_jdx("--json", "--no-jdk", "index", "--jars")
    env = envelope(run)
    assert run.code == 3
    assert env["ok"] is False and env["error"]["code"] == "USAGE"
    assert env["command"] == "index"


def test_error_envelope_names_the_command_after_global_value_flags(run_jdx, tmp_path):
    run = run_jdx("--json", "--no-jdk", "--jars", str(tmp_path / "gone.jar"), "index")
    env = envelope(run)
    assert run.code == 5
    assert env["command"] == "index"


@pytest.mark.parametrize("args", [[], ["ws"], ["cache"]], ids=["jdx", "jdx-ws", "jdx-cache"])
def test_no_arguments_prints_help_and_exits_0(run_jdx, args):
    run = run_jdx(*args)
    no_traceback(run)
    assert run.code == 0, run
    assert "Usage" in run.out


def test_a_corrupt_jar_is_named_on_every_query_and_on_errors(run_jdx, junk_jar, good_jar):
    """Warnings are never lost: an unreadable jar is named by each answer over the workspace (not only by
    `jdx index`), in text and JSON, and also when the answer itself is an error."""
    index(run_jdx, good_jar, junk_jar, expect=5)
    text = run_jdx("show", GOOD_CLASSES[0], *jar_args(good_jar, junk_jar))
    assert text.code == 0 and "ARTIFACT_READ_ERROR" in text.out and junk_jar.name in text.out, text
    env = envelope(run_jdx("members", GOOD_CLASSES[0], "--json", *jar_args(good_jar, junk_jar)))
    assert env["ok"] and warnings_of(env, "ARTIFACT_READ_ERROR"), env["warnings"]
    missing = run_jdx("show", "good.Gamma", "--json", *jar_args(good_jar, junk_jar))
    assert missing.code == 5  # not found, and the jar that could not be read may hold it
    failure = envelope(missing)
    assert not failure["ok"] and any(junk_jar.name in w["message"] for w in failure["warnings"]), failure
    clean = envelope(run_jdx("show", GOOD_CLASSES[0], "--json", *jar_args(good_jar)))
    assert warnings_of(clean, "ARTIFACT_READ_ERROR") == [], clean["warnings"]


def test_duplicate_class_is_named_by_the_answers_about_it_only(run_jdx, zoo, good_jar):
    first = next(j for j in zoo.jars if j.name == "dupfirst.jar")
    second = next(j for j in zoo.jars if j.name == "dupsecond.jar")
    about = envelope(run_jdx("show", "dup.Same", "--json", *jar_args(good_jar, first, second)))
    dups = warnings_of(about, "DUPLICATE_CLASS")
    assert len(dups) == 1 and "dupfirst.jar (loaded)" in dups[0]["message"], about["warnings"]
    assert "dupsecond.jar (shadowed)" in dups[0]["message"]
    other = envelope(run_jdx("show", GOOD_CLASSES[0], "--json", *jar_args(good_jar, first, second)))
    assert warnings_of(other, "DUPLICATE_CLASS") == [], other["warnings"]


def test_multi_release_jar_is_named_by_the_answers_from_it_only(run_jdx, zoo, good_jar):
    mr = next(j for j in zoo.jars if j.name == "mr.jar")
    about = envelope(run_jdx("show", "mr.Base", "--json", *jar_args(good_jar, mr)))
    (said,) = warnings_of(about, "MULTI_RELEASE_JAR", "mr.jar")  # mr.Base has a release-11 copy: named
    assert said["message"].startswith("mr.Base: mr.jar also holds it under META-INF/versions/11/ (a multi-release "
                                      "jar): a JVM of Java 11 or newer loads that class file"), said
    other = envelope(run_jdx("show", GOOD_CLASSES[0], "--json", *jar_args(good_jar, mr)))
    assert other["ok"] and warnings_of(other, "MULTI_RELEASE_JAR") == [], other["warnings"]

@pytest.mark.soak
def test_long_work_reports_phases_on_stderr_when_it_is_not_a_terminal(run_jdx, tmp_path, classes):
    """A build prints one line per phase on a non-terminal stderr (an agent never waits on silence); -q and
    --json keep stderr clean; stdout is the answer alone."""
    jar = make_jar(tmp_path / "phases.jar", {"good/Alpha.class": classes["good/Alpha.class"]})
    run = run_jdx("--no-jdk", "show", "good.Alpha", "--jars", str(jar), env={})
    assert run.code == 0, run
    assert run.err.splitlines() == ["jdx: extracting classes from 1 artifact(s)", "jdx: extracted 1 artifact(s)",
                                    "jdx: building the workspace graph", "jdx: workspace graph ready"], run.err
    assert run.out.startswith("class good.Alpha")
    again = make_jar(tmp_path / "quiet.jar", {"good/Alpha.class": classes["good/Alpha.class"],
                                              "good/Beta.class": classes["good/Beta.class"]})
    quiet = run_jdx("--no-jdk", "-q", "show", "good.Alpha", "--jars", str(again), env={})
    assert quiet.code == 0 and quiet.err == "", quiet
