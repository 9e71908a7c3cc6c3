"""`resolve` and `search` on javac-built fixtures (docs/search.md):

1. a frame's line picks every method whose LineNumberTable holds it: a field initializer's line is in each
   constructor javac copies it into (oracle: javap -l), read from the class file (`class_files`, checked against
   javap on every method of the fixture);
2. a private nested class's constructor and its synthetic accessor (javac --release 8) both hold the line: the
   written constructor comes first;
3. packages carry the artifacts holding them, and `--in` keeps a package such an artifact holds;
4. a glob's `*` runs over dots (`nv.*Map` finds `nv.sub.DeepMap`; oracle: fnmatch over the jar's class names),
   exact-package matches first, and a glob in the qualifier makes the whole pattern a glob (case-sensitive with a
   capital);
5. `resolve Node` lists public types before non-public ones, which it marks `(non-public)`;
6. search lists no member of an anonymous class (oracle: javap shows the member in `Multi$1`).
"""

from __future__ import annotations

import fnmatch
import json
import re
import shutil
import zipfile

import pytest

from tests.fixtures.javac import javac_jar, javap

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)

MULTI = """package nv;

public class Multi {
    private int count = 0;
    private final int[] buf = new int[4];

    public Multi() {
        count++;
    }

    public Multi(int n) {
        count = n;
    }

    public Multi(String s) {
        this(s.length());
    }

    public int size() {
        return count + buf.length;
    }

    private static class Hidden {
        private final StringBuilder text = new StringBuilder("hidden");
    }

    public static Object make() {
        return new Hidden();
    }

    public static Runnable anon() {
        return new Runnable() {
            public void run() {
            }

            public boolean hasNextThing() {
                return false;
            }
        };
    }

    static class Node {
    }
}
"""
FLAT = "package nv;\npublic class FlatMap { }\n"
DEEP = "package nv.sub;\npublic class DeepMap { public int deepMapSize() { return 0; } }\n"
PUBLIC_NODE = "package pb;\npublic class Node { }\n"


def line_of(text: str, marker: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if marker in line)


def javap_line_tables(classes, cls: str) -> dict[str, set[int]]:
    """javap -p -l's LineNumberTable of each method of `cls`, by the signature javap prints (`nv.Multi(int)`)."""
    out: dict[str, set[int]] = {}
    current = None
    for line in javap(classes, cls, "-l").splitlines():
        if re.match(r"^  \S.*\);$", line):
            current = line.strip().rstrip(";")
            out[current] = set()
        elif current is not None and (m := re.match(r"^\s+line (\d+): \d+$", line)):
            out[current].add(int(m.group(1)))
    return out


@pytest.fixture(scope="module")
def fx(tmp_path_factory):
    if shutil.which("javac") is None:
        pytest.skip("javac is not installed")
    root = tmp_path_factory.mktemp("navfix")
    jar, classes = javac_jar(root / "nv", {"nv/Multi.java": MULTI, "nv/FlatMap.java": FLAT,
                                           "nv/sub/DeepMap.java": DEEP}, "nv", "nv-1.0.jar", release=8)
    pjar, _ = javac_jar(root / "pb", {"pb/Node.java": PUBLIC_NODE}, "pb", "pb-1.0.jar")
    return {"jar": jar, "classes": classes, "args": ["--jars", f"{jar}:{pjar}", "--no-jdk"]}


def _json(run_jdx, fx, *argv) -> tuple[int, dict]:
    r = run_jdx(*fx["args"], *argv, "--json")
    assert "Traceback" not in r.out + r.err
    return r.code, json.loads(r.out)


def _text(run_jdx, fx, *argv):
    r = run_jdx(*fx["args"], *argv)
    assert "Traceback" not in r.out + r.err
    return r


# --- 1, 2: frames by line-table membership ---------------------------------------------------------------------
def test_line_tables_read_from_the_class_file_match_javap(fx):
    from jdx.loaders.class_files import parse_line_tables

    for cls in ("nv.Multi", "nv.Multi$Hidden", "nv.Multi$1"):
        data = (fx["classes"] / (cls.replace(".", "/") + ".class")).read_bytes()
        ours = {k: v for k, v in parse_line_tables(data).items() if v}
        oracle = javap_line_tables(fx["classes"], cls)
        assert sorted(map(sorted, ours.values())) == sorted(map(sorted, (v for v in oracle.values() if v))), cls


def test_a_field_initializer_line_names_every_constructor_that_runs_it(fx, run_jdx):
    line = line_of(MULTI, "private int count = 0;")
    oracle = javap_line_tables(fx["classes"], "nv.Multi")
    holding = {sig for sig, lines in oracle.items() if line in lines}
    assert holding == {"public nv.Multi()", "public nv.Multi(int)"}  # not Multi(String): it calls this(int)
    code, env = _json(run_jdx, fx, "resolve", f"at nv.Multi.<init>(Multi.java:{line})")
    assert code == 0
    refs = [c["ref"] for c in env["result"]["candidates"]]
    assert sorted(refs) == ["nv.Multi#<init>()", "nv.Multi#<init>(int)"]
    assert "FRAME_LINE_OUTSIDE" not in [w["code"] for w in env["warnings"]]


def test_a_constructor_body_line_names_that_constructor_only(fx, run_jdx):
    line = line_of(MULTI, "count = n;")
    code, env = _json(run_jdx, fx, "resolve", f"at nv.Multi.<init>(Multi.java:{line})")
    assert code == 0 and [c["ref"] for c in env["result"]["candidates"]] == ["nv.Multi#<init>(int)"]


def test_a_private_constructor_comes_before_its_synthetic_accessor(fx, run_jdx):
    line = line_of(MULTI, "private static class Hidden {")  # its implicit constructor, private as the class
    oracle = javap_line_tables(fx["classes"], "nv.Multi$Hidden")
    holding = {sig for sig, lines in oracle.items() if line in lines}
    assert holding == {"private nv.Multi$Hidden()", "nv.Multi$Hidden(nv.Multi$1)"}, oracle  # the accessor too
    code, env = _json(run_jdx, fx, "resolve", f"at nv.Multi$Hidden.<init>(Multi.java:{line})")
    assert code == 0
    cands = env["result"]["candidates"]
    assert [c["ref"] for c in cands] == ["nv.Multi$Hidden#<init>()", "nv.Multi$Hidden#<init>(nv.Multi$1)"]
    assert "note" not in cands[0] and cands[1]["note"] == "synthetic"


# --- 3: packages and --in ---------------------------------------------------------------------------------------
def test_a_package_carries_its_artifact_and_survives_in(fx, run_jdx):
    assert any(n.startswith("nv/sub/") for n in zipfile.ZipFile(fx["jar"]).namelist())
    code, env = _json(run_jdx, fx, "search", "sub", "--kind", "package", "--in", "nv*")
    assert code == 0
    [m] = env["result"]["matches"]
    assert (m["ref"], m["artifact"], m["artifacts"]) == ("nv.sub", "nv-1.0.jar", ["nv-1.0.jar"])
    assert _text(run_jdx, fx, "search", "sub", "--kind", "package", "--in", "pb*").code == 1  # pb holds no nv.sub


# --- 4: globs span dots ----------------------------------------------------------------------------------------
def _class_names(jar) -> list[str]:
    return [n[:-6].replace("/", ".").replace("$", ".") for n in zipfile.ZipFile(jar).namelist()
            if n.endswith(".class") and not re.search(r"\$\d", n)]


@pytest.mark.parametrize("glob", ["nv.*Map", "nv.*.DeepMap", "nv.*.deepmap", "nv.s*"])
def test_a_glob_star_runs_over_dots_as_fnmatch_does(fx, run_jdx, glob):
    low = not any(c.isupper() for c in glob.rpartition(".")[2])  # the qualifiers here have no capitals
    want = sorted(n for n in _class_names(fx["jar"])
                  if fnmatch.fnmatchcase(n.lower() if low else n, glob.lower() if low else glob))
    code, env = _json(run_jdx, fx, "search", glob, "--kind", "class")
    got = sorted(m["ref"].replace("$", ".") for m in env["result"]["matches"]) if code == 0 else []
    assert got == want and want, glob
    assert env["result"]["mode"] == "glob"


def test_exact_package_matches_rank_first_and_a_capital_is_case_sensitive(fx, run_jdx):
    code, env = _json(run_jdx, fx, "search", "nv.*Map", "--kind", "class")
    assert [m["ref"] for m in env["result"]["matches"]] == ["nv.FlatMap", "nv.sub.DeepMap"]
    assert _text(run_jdx, fx, "search", "nv.*.Deepmap").code == 1  # a capital: case-sensitive, whole name
    r = _text(run_jdx, fx, "search", "nv.*.DeepMap")
    assert r.code == 0 and "(glob)" in r.out and "deepMapSize" not in r.out


# --- 5: resolve ranks public types first and marks the rest ------------------------------------------------------
def test_resolve_ranks_public_types_first_and_marks_the_others(fx, run_jdx):
    assert javap(fx["classes"], "nv.Multi$Node").splitlines()[1].startswith("class nv.Multi$Node")  # not public
    code, env = _json(run_jdx, fx, "resolve", "Node")
    assert code == 0
    assert [(c["ref"], c["public"]) for c in env["result"]["candidates"]] == [
        ("pb.Node", True), ("nv.Multi$Node", False)]  # nv-1.0.jar is first on the classpath
    r = _text(run_jdx, fx, "resolve", "Node")
    assert r.out.splitlines()[:2] == ["class pb.Node  pb-1.0.jar", "class nv.Multi$Node (non-public)  nv-1.0.jar"]


# --- 6: no member of an anonymous class ------------------------------------------------------------------------
def test_search_lists_no_member_of_an_anonymous_class(fx, run_jdx):
    assert "public boolean hasNextThing();" in javap(fx["classes"], "nv.Multi$1")
    r = _text(run_jdx, fx, "search", "hasNextThing")
    assert r.code == 1, r.out
    code, env = _json(run_jdx, fx, "search", "*", "--package", "nv", "--limit", "500")
    assert code == 0 and not [m for m in env["result"]["matches"] if re.search(r"\$\d", m["ref"])]
    assert env["result"]["total"] == len(env["result"]["matches"])
