"""Trial T44, held to javap over a javac-compiled fixture: a node of a `callers`/`calls` tree whose own entries
`--limit` left out says so on its row (never reads as a leaf); a `usages` row the limit cut partway says how many
of its sites are left out, and identical neighbouring sites print once with a count (`read 5 ×3`), the JSON keeping
one entry per site; `callers`/`usages` of an overriding method say how many calls of the method it overrides may
dispatch to it, and the command that lists them."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from jdx.engine.rel_calls import CallOptions
from jdx.engine.rel_usages import UsageOptions
from jdx.render import graph as render
from tests.fixtures.javac import javac_jar
from tests.service import JdxService, Options
from tests.fixtures import jdktool

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)

SOURCES = {
    "cc/Shape.java": "package cc;\npublic interface Shape {\n    double area();\n}\n",
    "cc/Square.java": "package cc;\npublic class Square implements Shape {\n"
                      "    public double area() { return 1; }\n}\n",
    "cc/Use.java": """package cc;
public class Use {
    static double one(Shape s) { return s.area(); }
    static double two(Shape s) { return s.area() + s.area(); }
    static double direct(Square q) { return q.area(); }
}
""",
    "cc/Chain.java": """package cc;
public class Chain {
    public static void leaf() {}
    static void d1() { leaf(); }
    static void d2() { leaf(); }
    static void e1() { d1(); }
    static void e2() { d1(); }
    static void e3() { d2(); }
    static void top() { mid1(); mid2(); }
    static void mid1() { e1(); e2(); }
    static void mid2() { e3(); }
}
""",
    "cc/Pt.java": "package cc;\npublic class Pt {\n    public double x;\n}\n",
    "cc/Reads.java": """package cc;
public class Reads {
    static double a0(Pt a) { return a.x; }
    static double sum(Pt a, Pt b) {
        double s = a.x + a.x + a.x;
        s += b.x + b.x;
        return s;
    }
}
""",
}
FAN = 60  # more callers' callers than counting the tree may load (rel_calls._COUNT_LOADS): the walk stops counting
SOURCES["cc/Fan.java"] = "package cc;\npublic class Fan {\n    public static void hub() {}\n" + "".join(
    f"    static void m{i}() {{ hub(); }}\n    static void n{i}() {{ m{i}(); }}\n" for i in range(FAN)) + "}"
INVOKE = re.compile(r"^\s+\d+: invoke(\w+)\s+#\d+(?:,\s+\d+)?\s+// (?:Interface)?Method (?:cc/(\w+)\.)?(\w+):")
GETFIELD = re.compile(r"^\s+(\d+): getfield\s+#\d+\s+// Field (?:cc/)?(\w+)\.(\w+):")
METHOD = re.compile(r"^  (?:[\w.$<>\[\], ]+ )?([\w$.]+)\(.*\);$")
LINE = re.compile(r"^\s+line (\d+): (\d+)")


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, Path]:
    if shutil.which("javac") is None or shutil.which("javap") is None:
        pytest.skip("javac/javap are not installed")
    return javac_jar(tmp_path_factory.mktemp("calls_cuts"), SOURCES, "cc", "calls-cuts.jar", debug=True)


@pytest.fixture(scope="module")
def svc(built, jdx_home):
    service = JdxService(Options(jars=[str(built[0])], jdk=False, cache_dir=str(jdx_home / "cache")))
    yield service
    service.close()


def _javap(classes: Path, name: str) -> dict[str, list[str]]:
    """javap -c -p -l of one class: per method, its instruction lines and its line table (`line N: offset`)."""
    text = jdktool.run(["javap", "-c", "-p", "-l", str(classes / f"cc/{name}.class")],
                       capture_output=True, text=True, check=True).stdout
    out: dict[str, list[str]] = {}
    current = None
    for line in text.splitlines():
        if m := METHOD.match(line):
            current = out.setdefault(m.group(1), [])
        elif current is not None:
            current.append(line)
    return out


def _invokes(classes: Path, cls: str) -> list[tuple[str, str, str, str]]:
    """(caller, invoke kind, owner, name) of every call javap shows in `cls` (owner None: `cls` itself)."""
    return [(caller, m.group(1), m.group(2) or cls, m.group(3))
            for caller, lines in _javap(classes, cls).items() for line in lines if (m := INVOKE.match(line))]


def _edges(classes: Path) -> set[tuple[str, str]]:
    """(caller, callee) names of Chain's calls of its own methods."""
    return {(c, n) for c, _k, owner, n in _invokes(classes, "Chain") if owner == "Chain"}


def _name(ref: str) -> str:
    return ref.split("#", 1)[1].split("(", 1)[0]


def _walk(entries: list[dict]):
    for e in entries:
        yield e
        yield from _walk(e.get("children", []))


def test_a_node_whose_callers_the_limit_cut_says_so(svc, built):
    edges = _edges(built[1])
    callers = {n: {c for c, t in edges if t == n} for _c, n in edges}
    assert callers["leaf"] == {"d1", "d2"} and callers["d1"] == {"e1", "e2"} and callers["d2"] == {"e3"}  # oracle
    answer = svc.callers("cc.Chain#leaf()", CallOptions(depth=2, limit=3))
    tree = answer.result["roots"][0]["tree"]
    assert {_name(e["method"]) for e in tree} == callers["leaf"]
    for e in tree:  # every expanded node: what it shows and what it says it left out are javap's callers
        assert len(e["children"]) + e.get("not_shown", 0) == len(callers[_name(e["method"])]), e
    assert sum(e.get("not_shown", 0) for e in tree) == 2
    text = render.call_tree(answer.result)
    d2 = next(i for i, line in enumerate(text) if "Chain#d2()" in line)
    assert text[d2 + 1] == "    … 1 caller past --limit", text  # on the cut node's own row, one indent deeper
    full = svc.callers("cc.Chain#leaf()", CallOptions(depth=2, limit=5))
    assert full.truncated is None and not any("not_shown" in e for e in _walk(full.result["roots"][0]["tree"]))
    assert not any("past --limit" in line for line in render.call_tree(full.result))


def test_a_node_whose_callees_the_limit_cut_says_so(svc, built):
    edges = _edges(built[1])
    callees = {c: {n for c2, n in edges if c2 == c} for c, _n in edges}
    assert callees["top"] == {"mid1", "mid2"} and callees["mid1"] == {"e1", "e2"}  # the oracle's own
    answer = svc.calls("cc.Chain#top()", CallOptions(depth=2, limit=3))
    tree = answer.result["roots"][0]["tree"]
    for e in tree:
        assert len(e["children"]) + e.get("not_shown", 0) == len(callees[_name(e["method"])]), e
    text = render.call_tree(answer.result)
    assert "    … 1 callee past --limit" in text, text


def test_a_usages_row_cut_partway_says_how_many_sites_are_left_and_repeats_print_once(svc, built):
    reads = {}  # method -> the lines of its reads of Pt.x (javap: getfield offsets through the line table)
    for method, lines in _javap(built[1], "Reads").items():
        table = [(int(m.group(2)), int(m.group(1))) for line in lines if (m := LINE.match(line))]
        offsets = [int(m.group(1)) for line in lines if (m := GETFIELD.match(line)) and m.group(2, 3) == ("Pt", "x")]
        reads[method] = sorted(max((s, n) for s, n in table if s <= off)[1] for off in offsets)
    first, second = sorted(set(reads["sum"]))
    assert reads["a0"] == [reads["a0"][0]] and reads["sum"] == [first] * 3 + [second] * 2  # the oracle's own
    full = svc.usages("cc.Pt#x", UsageOptions())
    callers = {_name(c["caller"]): c for c in full.result["groups"][0]["callers"]}
    assert [s["line"] for s in callers["sum"]["sites"]] == reads["sum"]  # JSON: one entry per site
    assert f"read {first} ×3, read {second} ×2" in "\n".join(render.usages(full.result))
    cut = svc.usages("cc.Pt#x", UsageOptions(limit=3))  # a0's site, then two of sum's five
    row = cut.result["groups"][0]["callers"][-1]
    assert _name(row["caller"]) == "sum" and len(row["sites"]) + row["more_sites"] == len(reads["sum"])
    text = "\n".join(render.usages(cut.result))
    assert f"read {first} ×2, … +3 more sites past --limit" in text, text


def test_callers_of_an_override_count_the_calls_through_the_method_it_overrides(svc, built):
    calls = _invokes(built[1], "Use")
    through = [c for c, kind, owner, n in calls if (owner, n, kind) == ("Shape", "area", "interface")]
    direct = {c for c, _k, owner, n in calls if (owner, n) == ("Square", "area")}
    assert (len(through), len(set(through)), direct) == (3, 2, {"direct"})  # the oracle's own
    answer = svc.callers("cc.Square#area()", CallOptions())
    assert {_name(e["method"]) for e in answer.result["roots"][0]["tree"]} == direct
    want = (f"callers through the method it overrides, cc.Shape#area(): {len(through)} sites in {len(set(through))} "
            f"methods may dispatch here: jdx callers 'cc.Shape#area()'")
    assert want in answer.result["notes"], answer.result["notes"]
    assert f"note: {want}" in render.call_tree(answer.result)
    used = svc.usages("cc.Square#area()", UsageOptions())
    assert want.replace("callers", "usages") in used.result["notes"], used.result["notes"]
    # the method overridden by nothing it calls through says nothing of the kind
    assert not any("through the method it overrides" in n for n in svc.callers("cc.Shape#area()",
                                                                               CallOptions()).result["notes"])


def test_callers_left_uncounted_at_the_next_level_are_said_once(svc, built):
    calls = _invokes(built[1], "Fan")
    direct = {c for c, _k, _o, n in calls if n == "hub"}
    assert len(direct) == FAN and all(any(n == m for _c, _k, _o, n in calls) for m in direct)  # each has a caller
    answer = svc.callers("cc.Fan#hub()", CallOptions(depth=2, limit=5))
    assert answer.truncated["at_least"]
    tree = answer.result["roots"][0]["tree"]
    assert len(tree) == 5 and not any("not_counted" in e or e["children"] for e in tree), tree
    text = render.call_tree(answer.result)
    assert not any("past --limit" in line for line in text) and "reaches depth 2" in answer.truncated["hint"], text
