"""Labels that say what an answer is (spec §8.1, §11, Appendix A): body's reference and `next:` lines, its
source label when an engine was asked for, a missing decompiler named; hierarchy's and members' footers
counting what their headers count."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

SRC_ZIP = Path("/usr/lib/jvm/java-17-openjdk-amd64/lib/src.zip")


def _json(run_jdx, *args):
    r = run_jdx(*args, "--json")
    assert r.code == 0, r.out + r.err
    return json.loads(r.out)


def test_body_has_reference_and_next_lines(run_jdx):
    r = run_jdx("body", "java.util.HashMap#get(Object)")
    assert r.code == 0, r.err
    lines = r.out.splitlines()
    assert lines[0] == "java.util.HashMap#get(java.lang.Object)"
    assert lines[1].startswith("source: ")
    assert lines[-1].startswith("next: jdx ")


def test_forced_javap_does_not_claim_missing_sources(run_jdx):
    if not SRC_ZIP.exists():
        pytest.skip("openjdk-17-source is not installed: the JDK has no paired sources here")
    data = _json(run_jdx, "body", "java.util.ArrayList#size()", "--engine", "javap")
    header = data["result"]["header"]
    assert "no sources jar" not in header and "--engine javap" in header
    assert data["result"]["next"].startswith("jdx doc ")


def test_missing_decompiler_is_named_and_the_next_one_used(run_jdx):
    from jdx.loaders.decompile import available_engines

    names = [e[0] for e in available_engines()]
    if "vineflower" in names or "procyon" not in names:
        pytest.skip(f"needs procyon without vineflower (found: {names})")
    data = _json(run_jdx, "body", "java.util.Optional#isPresent()", "--engine", "vineflower")
    codes = [w["code"] for w in data["warnings"]]
    assert data["result"]["origin"] == "decompiled" and data["result"]["engine"]["name"] == "procyon", codes
    assert any(w["code"] == "DECOMPILER_UNAVAILABLE" and "vineflower" in w["message"] for w in data["warnings"])
    assert data["result"]["next"].endswith("--engine javap   (exact bytecode)")
    source = _json(run_jdx, "source", "java.util.Optional", "--engine", "vineflower", "--lines", "1:5")
    assert source["result"]["origin"] == "decompiled" and source["result"]["engine"]["name"] == "procyon"
    assert any(w["code"] == "DECOMPILER_UNAVAILABLE" and "vineflower" in w["message"] for w in source["warnings"])


@pytest.mark.parametrize("type_name,limit", [("java.util.AbstractMap", "50"), ("java.util.Collection", "30")])
def test_hierarchy_footer_counts_the_header_types(run_jdx, type_name, limit):
    r = run_jdx("hierarchy", type_name, "--limit", limit)
    assert r.code == 0, r.err
    heads = [int(n) for n in re.findall(r"^  [↑↓] .*\((\d+)\)$", r.out, re.M)]
    foot = re.search(r"^… (\d+) of (\d+) shown", r.out, re.M)
    assert foot and int(foot.group(2)) == sum(heads), (heads, foot.group(0))
    data = _json(run_jdx, "hierarchy", type_name, "--limit", limit)
    assert data["truncated"]["total"] == data["result"]["up_count"] + data["result"]["down_count"]


def test_members_max_lines_footer_counts_shown_members(run_jdx):
    r = run_jdx("members", "java.util.AbstractList", "--max-lines", "5")
    assert r.code == 0, r.err
    lines = r.out.splitlines()
    shown = sum(1 for line in lines if re.match(r"^  (method|field|constructor) ", line))
    cut = re.search(r"^… (\d+) of (\d+) shown", r.out, re.M)
    total = len(_json(run_jdx, "members", "java.util.AbstractList")["result"]["members"])
    assert cut and int(cut.group(1)) == shown and int(cut.group(2)) == total, r.out
    # one count, not two: the summary footer leaves it to the truncation line
    assert not re.search(r"members? shown", r.out), r.out
    # (what the filters left out follows: ` · 3 package or private hidden (--access all)`)
    assert re.search(r"^class java\.util\.AbstractList · java\.base \(bytecode\)( · [^·]+ hidden \([^)]+\))*$", r.out,
                     re.M), r.out


def test_a_name_only_jdk_internals_share_is_read_as_the_usable_type(run_jdx):
    """`members Map`: java.util.Map and javax.swing.text.html.Map (not public): read as java.util.Map, the only one
    code outside the JDK can use, as `imports` reads it, and the answer says so (NAME_PICKED). It was an ambiguity
    (exit 2) whose hint named the usable one: three trials (durian's `Errors`, HdrHistogram's `Recorder`, every JLine
    name, which the JDK's `jdk.internal.org.jline` copy shares) paid a round trip on nearly every question."""
    r = run_jdx("members", "Map")
    assert r.code == 0 and r.out.startswith("members of java.util.Map\n"), r.out
    assert ("NAME_PICKED: Map read as java.util.Map, the only type of that name code outside the JDK can use (also "
            "javax.swing.text.html.Map: JDK internal); write the whole name to ask for another") in r.err + r.out
    env = json.loads(run_jdx("members", "Map", "--json").out)
    assert env["ok"] and [w["code"] for w in env["warnings"]] == ["NAME_PICKED"], env["warnings"]
    member = json.loads(run_jdx("signature", "Map#clear", "--json").out)
    assert member["ok"] and member["result"]["type"] == "java.util.Map", member
    assert [w["code"] for w in member["warnings"]] == ["NAME_PICKED"], member["warnings"]
    picked = [line for line in run_jdx("members", "Map").out.splitlines() if not line.startswith("⚠ NAME_PICKED")]
    assert run_jdx("members", "java.util.Map").out.splitlines() == picked
    # two usable candidates: the plain hint
    shape = run_jdx("members", "List")
    assert shape.code == 2 and "usable outside" not in shape.out, shape.out


def test_a_long_ambiguity_lists_every_usable_candidate_and_counts_the_jdk_internals(run_jdx):
    """`show Entry`: three usable `Entry`s and dozens of JDK-internal ones; the text lists 10 candidates (the usable
    ones first) and counts the rest; --json keeps every candidate. (`show Node`, whose JDK-internal namesakes leave
    one usable type, org.w3c.dom.Node, reads it as that one: NAME_PICKED.)"""
    from jdx.render.envelope import CANDIDATE_LINES

    data = json.loads(run_jdx("show", "Entry", "--json").out)
    every = data["candidates"]
    usable = [c["ref"] for c in every if not c.get("jdk_internal")]
    assert len(every) > CANDIDATE_LINES + 5 and 1 < len(usable) < CANDIDATE_LINES and "java.util.Map$Entry" in usable
    assert [c["ref"] for c in every[:len(usable)]] == usable
    r = run_jdx("show", "Entry")
    assert r.code == 2
    listed = [line for line in r.out.splitlines() if line.startswith("  ") and not line.startswith("  …")]
    assert len(listed) == CANDIDATE_LINES and [x.split()[0] for x in listed[:len(usable)]] == usable
    assert f"  … {len(every) - CANDIDATE_LINES} more JDK internals (--json lists every candidate)" in r.out.splitlines()


def test_one_more_jdk_internal_is_singular():
    """T43: `members Context` ended "… 1 more JDK internals"."""
    from jdx.render.envelope import CANDIDATE_LINES, error_lines

    candidates = [{"ref": f"sun.x.C{i}", "kind": "class", "artifact": "java.base", "jdk_internal": True}
                  for i in range(CANDIDATE_LINES + 1)]
    env = {"error": {"code": "AMBIGUOUS", "message": "ambiguous: C"}, "candidates": candidates}
    assert "  … 1 more JDK internal (--json lists every candidate)" in error_lines(env)


def test_many_usable_candidates_are_listed_up_to_a_bound_and_counted():
    """T91: Trove's `show HashProcedure` listed all 42 same-named nested classes (45 lines); the text lists
    USABLE_LINES of them and counts the rest, which --json keeps."""
    from jdx.render.envelope import USABLE_LINES, error_lines

    candidates = [{"ref": f"t.M{i:02d}$HashProcedure", "kind": "class", "artifact": "t.jar"} for i in range(42)]
    lines = error_lines({"error": {"code": "AMBIGUOUS", "message": "ambiguous: 42 candidates for HashProcedure"},
                         "candidates": candidates})
    listed = [line for line in lines if line.startswith("  t.")]
    assert [line.split()[0] for line in listed] == [c["ref"] for c in candidates[:USABLE_LINES]]
    assert f"  … {42 - USABLE_LINES} more (--json lists every candidate)" in lines
