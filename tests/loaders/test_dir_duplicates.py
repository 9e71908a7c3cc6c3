"""One class name held by two class files of one root (spec §5.3, §16): the JVM loads one, so jdx reads one, never a
class merged from both. The copy at the path its name gives (`p/Q.class`, where `java -cp ROOT` looks) wins, else
the first in path order; DUPLICATE_CLASS names every copy. `members` and `diff` see the same class, and an
incremental update of the directory keeps the rule. javac builds every class file; javap is the JVM's lookup."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.fixtures.javac import javap
from tests.fixtures import jdktool

M1 = "package p; public class Q { public void m1() {} }\n"
M2 = "package p; public class Q { public void m2() {} }\n"


def _compile(root: Path, text: str, out: Path) -> None:
    src = root / ("src-m1" if "m1()" in text else "src-m2") / "p" / "Q.java"
    src.parent.mkdir(parents=True, exist_ok=True)
    src.write_text(text)
    jdktool.run(["javac", "-d", str(out), str(src)], check=True, capture_output=True)


@pytest.fixture(scope="module")
def roots(tmp_path_factory):
    """`twice`: a/p/Q.class (m1) and b/p/Q.class (m2), neither where its name says; `placed`: p/Q.class (m2) and
    a/p/Q.class (m1); `old`: p/Q.class (m1) only; `jar`: `twice` jarred."""
    root = tmp_path_factory.mktemp("dups")
    twice, placed, old = root / "twice", root / "placed", root / "old"
    _compile(root, M1, twice / "a")
    _compile(root, M2, twice / "b")
    _compile(root, M2, placed)
    _compile(root, M1, placed / "a")
    _compile(root, M1, old)
    jar = root / "twice.jar"
    jdktool.run(["jar", "cf", str(jar), "-C", str(twice), "."], check=True)
    return root, twice, placed, old, jar


def _methods(run) -> set[str]:
    assert run.code == 0, run.err
    return {m for m in ("m1()", "m2()") if m in run.out}


def test_two_misplaced_copies_read_the_first_in_path_order(roots, run_jdx):
    _, twice, _, _, jar = roots
    answer = run_jdx("members", "p.Q", "--jars", str(twice), "--no-jdk")
    assert _methods(answer) == {"m1()"}
    assert "⚠ DUPLICATE_CLASS: twice: p.Q: 2 class files declare it: a/p/Q.class (read), b/p/Q.class (skipped)" in \
        (answer.out + answer.err).splitlines(), answer.out + answer.err  # said on the answer about the class
    assert _methods(run_jdx("members", "p.Q", "--jars", str(jar), "--no-jdk")) == {"m1()"}

@pytest.mark.soak  # slow: the soak runs it (.ci/run)

def test_the_copy_at_its_own_path_is_the_one_the_jvm_loads(roots, run_jdx):
    _, _, placed, _, _ = roots
    loaded = javap(placed, "p.Q")
    assert "m2()" in loaded and "m1()" not in loaded
    assert _methods(run_jdx("members", "p.Q", "--jars", str(placed), "--no-jdk")) == {"m2()"}

@pytest.mark.soak  # slow: the soak runs it (.ci/run)

def test_diff_compares_the_class_members_answers_and_names_both_copies(roots, run_jdx):
    _, twice, _, old, _ = roots
    got = run_jdx("diff", str(old), str(twice), "--json")
    assert got.code == 0, got.err
    env = json.loads(got.out)
    assert env["result"]["findings"] == []  # the m1 copy on both sides: nothing added, nothing removed
    dups = [w for w in env["warnings"] if w["code"] == "DUPLICATE_CLASS"]
    assert [w["message"] for w in dups] == [
        "twice: p.Q: 2 class files declare it: a/p/Q.class (read), b/p/Q.class (skipped)"]

@pytest.mark.soak  # slow: the soak runs it (.ci/run)

def test_incremental_update_keeps_one_class_per_name(roots, run_jdx):
    root, _, placed, _, _ = roots
    work = root / "work"
    shutil.copytree(placed / "p", work / "p")  # m2
    assert _methods(run_jdx("members", "p.Q", "--jars", str(work), "--no-jdk")) == {"m2()"}
    shutil.copytree(placed / "a", work / "a")  # m1: a second copy beside an unchanged one
    assert _methods(run_jdx("members", "p.Q", "--jars", str(work), "--no-jdk")) == {"m2()"}
    shutil.rmtree(work / "p")  # the copy read goes: the other one is read
    assert _methods(run_jdx("members", "p.Q", "--jars", str(work), "--no-jdk")) == {"m1()"}
