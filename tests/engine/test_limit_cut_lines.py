"""What a `--limit` cut says, held to javap over javac-compiled fixtures: a call tree the limit stopped before a level
says so once, in its truncation line, not on every entry of the level above (trial: 50 copies of `… callers past
--limit, not counted`), and keeps the mark where it tells which entries went unread beside others that show their
own; `--limit` fills every direct caller before any caller's caller; the hint of a cut past NARROW_ABOVE sites or
entries names the filters that would narrow it (following `--limit 36129` alone meant 12 MB over MCP)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from jdx.engine.rel_calls import CallOptions
from jdx.engine.rel_sites import NARROW_ABOVE
from jdx.engine.rel_usages import UsageOptions
from jdx.engine.relations import ArtifactFilter
from jdx.render import graph as render
from tests.fixtures import jdktool
from tests.fixtures.javac import javac_jar
from tests.service import JdxService, Options

FAN = 60  # direct callers: more methods than counting may load (rel_calls._COUNT_LOADS), so the walk stops counting
MIX = 10  # Mix's direct callers; m0 has FAN callers, each other m<i> one
WIDE_A, WIDE_B = 400, NARROW_ABOVE + 1 - 400  # callers of Api#hit in each jar: one past NARROW_ABOVE in all
SOURCES = {
    "fc/Fan.java": "package fc;\npublic class Fan {\n    public static void hub() {}\n" + "".join(
        f"    static void m{i}() {{ hub(); }}\n    static void n{i}() {{ m{i}(); }}\n" for i in range(FAN)) + "}\n",
    "fc/Mix.java": "package fc;\npublic class Mix {\n    public static void hub() {}\n" + "".join(
        f"    static void m{i}() {{ hub(); }}\n" for i in range(MIX)) + "".join(
        f"    static void p{i}() {{ m0(); }}\n" for i in range(FAN)) + "".join(
        f"    static void r{i}() {{ m{i}(); }}\n" for i in range(1, MIX)) + "}\n",
    "fc/Api.java": "package fc;\npublic class Api {\n    public void hit() {}\n}\n",
    "fc/Sub.java": "package fc;\npublic class Sub extends Api {\n    @Override public void hit() {}\n}\n",
    "fc/WideA.java": "package fc;\npublic class WideA {\n" + "".join(
        f"    static void w{i}(Api a) {{ a.hit(); }}\n" for i in range(WIDE_A)) + "}\n",
    "fb/WideB.java": "package fb;\npublic class WideB {\n" + "".join(
        f"    static void w{i}(fc.Api a) {{ a.hit(); }}\n" for i in range(WIDE_B)) + "}\n",
}
INVOKE = re.compile(r"^\s+\d+: invoke\w+\s+#\d+\s+// Method (?:(\w+/\w+)\.)?(\w+):")
METHOD = re.compile(r"^  (?:[\w.$<>\[\], ]+ )?([\w$.]+)\(.*\);$")
NOT_COUNTED = "… callers past --limit, not counted"


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[list[Path], Path]:
    if shutil.which("javac") is None or shutil.which("javap") is None:
        pytest.skip("javac/javap are not installed")
    root = tmp_path_factory.mktemp("limit_cut")
    jar, classes = javac_jar(root, SOURCES, "fc", "fc.jar", debug=True)
    other = root / "fb.jar"
    jdktool.run(["jar", "cf", str(other), "-C", str(classes), "fb"], check=True)
    return [jar, other], classes


@pytest.fixture(scope="module")
def svc(built, jdx_home):
    service = JdxService(Options(jars=[str(j) for j in built[0]], jdk=False, cache_dir=str(jdx_home / "cache")))
    yield service
    service.close()


def _calls(classes: Path, cls: str) -> list[tuple[str, str, str]]:
    """(caller, owner, name) of every invoke javap -c shows in `cls` (owner `cls` for its own methods)."""
    text = jdktool.run(["javap", "-c", "-p", "-cp", str(classes), cls], capture_output=True, text=True,
                       check=True).stdout
    out, current = [], None
    for line in text.splitlines():
        if m := METHOD.match(line):
            current = m.group(1).rsplit(".", 1)[-1]
        elif current is not None and (m := INVOKE.match(line)):
            out.append((current, m.group(1) or cls.replace(".", "/"), m.group(2)))
    return out


def _callers(classes: Path, cls: str) -> dict[str, set[str]]:
    """Callee name -> the names of `cls`'s methods that call it, among its own methods."""
    out: dict[str, set[str]] = {}
    for caller, owner, name in _calls(classes, cls):
        if owner == cls.replace(".", "/") and name != "<init>":
            out.setdefault(name, set()).add(caller)
    return out


def _name(ref: str) -> str:
    return ref.split("#", 1)[1].split("(", 1)[0]


def test_a_level_the_limit_left_unread_is_said_once_not_on_every_entry(svc, built):
    callers = _callers(built[1], "fc.Fan")
    assert len(callers["hub"]) == FAN and all(callers[m] == {"n" + m[1:]} for m in callers["hub"])  # the oracle's own
    answer = svc.callers("fc.Fan#hub()", CallOptions(depth=2, limit=5))
    tree = answer.result["roots"][0]["tree"]
    assert len(tree) == 5 and {_name(e["method"]) for e in tree} <= callers["hub"]
    assert not any(e.get("children") or "not_counted" in e or "not_shown" in e for e in tree), tree
    text = render.call_tree(answer.result)
    notes = answer.result["notes"]
    assert len(text) == 1 + len(tree) + len(notes), text  # the header, one line a caller, the notes: no cut lines
    assert not any("past --limit" in line for line in text), text
    assert answer.truncated["at_least"] and "reaches depth 2" in answer.truncated["hint"], answer.truncated  # once


def test_the_limit_fills_every_direct_caller_before_a_deeper_one(svc, built):
    callers = _callers(built[1], "fc.Fan")
    answer = svc.callers("fc.Fan#hub()", CallOptions(depth=2, limit=FAN + 5))
    tree = answer.result["roots"][0]["tree"]
    assert {_name(e["method"]) for e in tree} == callers["hub"]  # all of javap's direct callers
    deeper = [(_name(e["method"]), _name(c["method"])) for e in tree for c in e.get("children", [])]
    assert len(deeper) == 5 and all(c in callers[m] for m, c in deeper), deeper


def test_a_mark_stays_where_it_tells_which_entries_went_unread(svc, built):
    callers = _callers(built[1], "fc.Mix")
    direct = sorted(callers["hub"])
    assert len(direct) == MIX and len(callers["m0"]) == FAN  # the oracle's own
    assert all(callers[m] == {"r" + m[1:]} for m in direct if m != "m0")
    answer = svc.callers("fc.Mix#hub()", CallOptions(depth=3, limit=MIX + 2))
    assert answer.truncated["at_least"]
    tree = {_name(e["method"]): e for e in answer.result["roots"][0]["tree"]}
    assert sorted(tree) == direct
    # the limit's last 2 entries are m0's callers; m1's one caller counted; the walk stopped before m2..m9's
    m0 = tree["m0"]
    assert len(m0["children"]) + m0["not_shown"] == len(callers["m0"]) and len(m0["children"]) == 2
    assert not any("not_counted" in c for c in m0["children"])  # level 3 went unread whole: the cut line says it
    assert tree["m1"].get("not_shown") == len(callers["m1"]) and "not_counted" not in tree["m1"]
    unread = sorted(m for m, e in tree.items() if e.get("not_counted"))
    assert unread == direct[2:], unread  # beside m0's and m1's own, each says it went unread
    text = render.call_tree(answer.result)
    assert text.count("    " + NOT_COUNTED) == len(unread), text
    assert f"    … {len(callers['m0']) - 2} more callers past --limit" in text, text
    assert "    … 1 caller past --limit" in text, text
    assert not any(line.startswith("      …") for line in text), text  # nothing on the level-2 entries


def _sites(classes: Path) -> dict[str, int]:
    """Calls of Api#hit per class, by javap."""
    return {cls: sum(1 for _c, owner, name in _calls(classes, cls) if (owner, name) == ("fc/Api", "hit"))
            for cls in ("fc.WideA", "fb.WideB")}


def test_a_large_usages_cut_names_the_filters_that_narrow_it(svc, built):
    sites = _sites(built[1])
    assert sites == {"fc.WideA": WIDE_A, "fb.WideB": WIDE_B}  # the oracle's own: one past NARROW_ABOVE calls
    calls = sum(sites.values())
    answer = svc.usages("fc.Api#hit()", UsageOptions(limit=3))
    assert answer.result["counts"] == {"call": calls, "override": 1}
    assert answer.truncated == {"shown": 3, "total": calls + 1,
                                "hint": f"--limit {calls + 1}, or narrow with --kind, --in or --exclude"}
    one_kind = svc.usages("fc.Api#hit()", UsageOptions(kinds=("call",), limit=3)).truncated
    assert one_kind["hint"] == f"--limit {calls}, or narrow with --in or --exclude"  # --kind would not narrow it
    small = svc.usages("fc.Api#hit()", UsageOptions(filter=ArtifactFilter(include=["fb.jar"]), limit=3)).truncated
    assert small["hint"] == f"--limit {WIDE_B}"  # NARROW_ABOVE sites or fewer: --limit alone


def test_a_large_callers_cut_names_the_filters_that_narrow_it(svc, built):
    calls = sum(_sites(built[1]).values())
    cut = svc.callers("fc.Api#hit()", CallOptions(limit=3)).truncated
    assert cut == {"shown": 3, "total": calls, "hint": f"--limit {calls}, or narrow with --in or --exclude"}
    one = svc.callers("fc.Api#hit()", CallOptions(filter=ArtifactFilter(include=["fc.jar"]), limit=3)).truncated
    assert one["hint"] == f"--limit {WIDE_A}"
