"""`callers`/`calls` defects an agent trial found, held to javap: a root that `--limit` cut says so (never "none"),
`--limit` keeps the shallowest entries first and its total is true (or says "at least"), a lambda body's writer is its
caller, a row only partly a method reference says which lines are, a synthetic accessor is marked, and `--brief`
leaves the rows only. Compiled with `--release 8` so javac writes the `access$NNN` accessors it stopped writing
in 11."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from jdx.engine.rel_calls import CallOptions
from jdx.render import graph as render
from tests.fixtures.javac import javac_jar
from tests.service import JdxService, Options
from tests.fixtures import jdktool

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)

SOURCES = {
    "ct/Many.java": """package ct;
public class Many {
    public void m(int a) {}
    public void m(long a) {}
    public void m(String s) {}
    void c1() {
        m(1);
    }
}
""",
    "ct/Over.java": """package ct;
public class Over {
    public static void hit(int a) {}
    public static void hit(int a, int b) {}
    public static void hit(String s) {}
    static void a1() { hit(1); }
    static void a2() { hit(2); }
    static void a3() { hit(3); }
    static void b1() { hit("x"); }
    static void b2() { hit("y"); }
}""",
    "ct/Chain.java": """package ct;
public class Chain {
    public static void leaf() {}
    static void d1() { leaf(); }
    static void d2() { leaf(); }
    static void d3() { leaf(); }
    static void d4() { leaf(); }
    static void e1() { d1(); }
    static void e2() { d1(); d4(); }
    static void e3() { d2(); }
    static void f1() { e1(); }
}""",
    "ct/Lam.java": """package ct;
public class Lam {
    Runnable make() {
        return () -> new Target().go();
    }
}""",
    "ct/Target.java": """package ct;
public class Target {
    public void go() {}
}""",
    "ct/Refs.java": """package ct;
public class Refs {
    void use(Target t) {
        t.go();
        Runnable r = t::go;
        r.run();
    }
}""",
    "ct/Outer.java": """package ct;
public class Outer {
    private static int secret() { return 1; }
    static class Inner {
        int peek() { return secret(); }
    }
}""",
}
FAN = 60  # more direct callers than counting the tree may load (rel_calls._COUNT_LOADS)
SOURCES["ct/Fan.java"] = "package ct;\npublic class Fan {\n    public static void hub() {}\n" + "".join(
    f"    static void m{i}() {{ hub(); }}\n    static void n{i}() {{ m{i}(); }}\n" for i in range(FAN)) + "}"
CALL = re.compile(r"^\s+(\d+): invoke\w+\s+#\d+\s+// (?:Interface)?Method (?:ct/(\w+)\.)?([\w$<>\"]+):(\S+)")
DYNAMIC = re.compile(r"^\s+(\d+): invokedynamic")
LINE = re.compile(r"^\s+line (\d+): (\d+)")
METHOD = re.compile(r"^  (?:[\w.$<>\[\], ]+ )?([\w$.]+)\(.*\);$")


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, Path]:
    if shutil.which("javac") is None or shutil.which("javap") is None:
        pytest.skip("javac/javap are not installed")
    return javac_jar(tmp_path_factory.mktemp("calls_trial"), SOURCES, "ct", "calls-trial.jar", debug=True, release=8)


def _javap(classes: Path, name: str, *flags: str) -> str:
    return jdktool.run(["javap", "-c", "-p", "-l", *flags, str(classes / f"ct/{name}.class")],
                          capture_output=True, text=True, check=True).stdout


def _methods(text: str) -> dict[str, dict]:
    """javap -c -l per method name: its calls (owner class, name, line) and its invokedynamic lines."""
    out: dict[str, dict] = {}
    current = None
    for line in text.splitlines():
        if m := METHOD.match(line):
            current = out.setdefault(m.group(1), {"calls": [], "dynamic": [], "offsets": {}, "lines": []})
        elif current is None:
            continue
        elif m := CALL.match(line):
            current["calls"].append((int(m.group(1)), m.group(2), m.group(3).strip('"'), m.group(4)))
        elif m := DYNAMIC.match(line):
            current["dynamic"].append(int(m.group(1)))
        elif m := LINE.match(line):
            current["lines"].append((int(m.group(2)), int(m.group(1))))
    return out


def _line_at(method: dict, offset: int) -> int:
    return max((start, line) for start, line in method["lines"] if start <= offset)[1]


def _callers_of(classes: Path, cls: str, name: str, desc: str | None = None) -> set[str]:
    """Methods of `cls` javap shows invoking `cls.name` (of descriptor `desc`, if given)."""
    return {caller for caller, m in _methods(_javap(classes, cls)).items()
            if any(c[1] in (None, cls) and c[2] == name and desc in (None, c[3]) for c in m["calls"])}


@pytest.fixture(scope="module")
def svc(built, jdx_home):
    service = JdxService(Options(jars=[str(built[0])], jdk=False, cache_dir=str(jdx_home / "cache")))
    yield service
    service.close()


def _name(ref: str) -> str:
    return ref.split("#", 1)[1].split("(", 1)[0]


def test_a_root_the_limit_cut_says_so_never_none(svc, built):
    expected = {"hit(int)": _callers_of(built[1], "Over", "hit", "(I)V"),
                "hit(java.lang.String)": _callers_of(built[1], "Over", "hit", "(Ljava/lang/String;)V")}
    assert expected == {"hit(int)": {"a1", "a2", "a3"}, "hit(java.lang.String)": {"b1", "b2"}}  # the oracle's own
    answer = svc.callers("ct.Over#hit", CallOptions(limit=3))
    roots = {r["method"].split("#", 1)[1]: r for r in answer.result["roots"]}
    for sig, callers in expected.items():
        root = roots[sig]
        assert len(root["tree"]) + root.get("not_shown", 0) == len(callers), root
    assert sum(r.get("not_shown", 0) for r in roots.values()) == 2
    assert answer.truncated == {"shown": 3, "total": 5, "hint": "--limit 5"}
    text = render.call_tree(answer.result)
    assert not _callers_of(built[1], "Over", "hit", "(II)V")  # the one overload javap shows no caller of
    assert "callers of ct.Over#hit  (depth 1): none in workspace for 1 of 3 overloads: (int, int)" in text, text
    assert not any("(none in workspace)" in line for line in text), text  # never read as "none" for a cut root
    assert any("past --limit" in line for line in text), text


def test_overloads_without_callers_are_one_line_and_share_one_note(svc, built):
    """A bare name with many overloads (T32: ObjectMapper#readValue, 27 trees, 23 of them `(none in workspace)`,
    27 notes alike): the overloads nobody calls are one line after the trees, and the overloads none of which is
    overridden share one dispatch note; an overridden one keeps its own, naming its overriders' command."""
    called = {d: _callers_of(built[1], "Many", "m", d) for d in ("(I)V", "(J)V", "(Ljava/lang/String;)V")}
    assert called == {"(I)V": {"c1"}, "(J)V": set(), "(Ljava/lang/String;)V": set()}  # javap, the oracle
    answer = svc.callers("ct.Many#m", CallOptions())
    text = render.call_tree(answer.result)
    assert text[:2] == ["callers of ct.Many#m(int)  calls-trial.jar  (depth 1)", "  ct.Many#c1()  line 7"], text
    assert text[2] == "callers of ct.Many#m  (depth 1): none in workspace for 2 of 3 overloads: (String), (long)" \
        or text[2] == "callers of ct.Many#m  (depth 1): none in workspace for 2 of 3 overloads: (long), (String)", text
    notes = [line for line in text if line.startswith("note: ")]
    assert notes == ["note: 3 overloads of ct.Many#m: calls through ct.Many and through subtypes that inherit these "
                     "declarations are included (virtual dispatch may run an override)"], text
    one = render.call_tree(svc.callers("ct.Many#m(int)", CallOptions()).result)
    assert one[-1] == "note: ct.Many#m(int): calls through ct.Many and through subtypes that inherit this declaration " \
        "are included (virtual dispatch may run an override)", one


def test_limit_keeps_direct_callers_before_deeper_ones_and_a_true_total(svc, built):
    direct = _callers_of(built[1], "Chain", "leaf")
    assert direct == {"d1", "d2", "d3", "d4"}
    answer = svc.callers("ct.Chain#leaf()", CallOptions(depth=3, limit=len(direct)))
    tree = answer.result["roots"][0]["tree"]
    assert {_name(e["method"]) for e in tree} == direct  # every direct caller; none of their callers
    assert all(not e.get("children") for e in tree)
    # the whole tree to depth 3 from javap's call edges (d1 <- e1, e2; d2 <- e3; d4 <- e2; e1 <- f1): e2, met twice
    # at level 2, has no callers, so each level is every caller of the level above
    edges = _chain_edges(built[1])
    level2 = sorted(c for c, t in edges if t in direct)
    level3 = sorted(c for c, t in edges if t in set(level2))
    total = len(direct) + len(level2) + len(level3)
    assert answer.truncated == {"shown": len(direct), "total": total, "hint": f"--limit {total}"}
    full = svc.callers("ct.Chain#leaf()", CallOptions(depth=3, limit=total))
    assert full.truncated is None
    shown2 = [_name(c["method"]) for e in full.result["roots"][0]["tree"] for c in e.get("children", [])]
    assert sorted(shown2) == level2
    seen = [c for e in full.result["roots"][0]["tree"] for c in e.get("children", []) if c.get("seen")]
    assert [_name(c["method"]) for c in seen] == ["e2"]  # expanded once, under d1, printed above
    assert svc.callers("ct.Chain#leaf()", CallOptions(depth=3, limit=2)).truncated["total"] == total


def test_a_tree_too_big_to_count_says_at_least(svc, built):
    """Counting past --limit stops where it would load more methods than the budget: the total is then a lower
    bound, said so, and the hint's `--depth --limit` shows every entry of the levels counted whole."""
    direct = _callers_of(built[1], "Fan", "hub")
    assert len(direct) == FAN
    cut = svc.callers("ct.Fan#hub()", CallOptions(depth=2, limit=5)).truncated
    assert cut == {"shown": 5, "total": FAN, "at_least": True, "hint": f"at least {FAN}, deeper levels not all "
                   f"counted; a higher --limit (--limit {4 * FAN}) reaches depth 2; --depth 1 --limit {FAN} shows "
                   "every caller to depth 1"}
    assert svc.callers("ct.Fan#hub()", CallOptions(depth=1, limit=FAN)).truncated is None
    assert svc.callers("ct.Fan#hub()", CallOptions(depth=2, limit=2 * FAN)).truncated is None  # it has 2 * FAN


def _chain_edges(classes: Path) -> list[tuple[str, str]]:
    """(caller, callee) of every call among Chain's methods, by javap."""
    return [(caller, name) for caller, m in _methods(_javap(classes, "Chain")).items()
            for _off, cls, name, _desc in m["calls"] if cls in (None, "Chain") and name != "<init>"]


def test_a_lambda_body_has_its_writer_as_caller(svc, built):
    text = _javap(built[1], "Lam", "-v")
    body = re.search(r"REF_invokeStatic ct/Lam\.(lambda\$[\w$]+)", text).group(1)
    writer = _methods(_javap(built[1], "Lam"))["make"]
    answer = svc.callers(f"ct.Lam#{body}()", CallOptions())
    tree = answer.result["roots"][0]["tree"]
    assert [(_name(e["method"]), e["lines"]) for e in tree] == [("make", [_line_at(writer, writer["dynamic"][0])])]
    assert tree[0].get("lambda_writer") and not tree[0].get("method_ref")
    assert "(writes this lambda)" in "\n".join(render.call_tree(answer.result))
    # usages agrees: the writer's handle is the one site, a lambda handed over, no method reference written
    from jdx.engine.rel_usages import UsageOptions

    used = svc.usages(f"ct.Lam#{body}()", UsageOptions()).result
    sites = [s for g in used["groups"] for c in g["callers"] for s in c["sites"]]
    assert [(_name(s["caller"]), s["line"], s["method_ref"], s.get("lambda_writer")) for s in sites] == [
        ("make", _line_at(writer, writer["dynamic"][0]), False, True)]
    assert "(writes this lambda)" in "\n".join(render.usages(used))
    # elsewhere the body is still its writer's code: callers of what it calls name the writer, in lambda
    go = svc.callers("ct.Target#go()", CallOptions()).result["roots"][0]["tree"]
    assert [e.get("in_lambda") for e in go if _name(e["method"]) == "make"] == [True]
    assert not any(_name(e["method"]).startswith("lambda$") for e in go)


def test_a_row_partly_a_method_ref_names_its_lines(svc, built):
    use = _methods(_javap(built[1], "Refs"))["use"]
    invoked = [_line_at(use, off) for off, cls, name, _desc in use["calls"] if cls == "Target" and name == "go"]
    handed = [_line_at(use, off) for off in use["dynamic"]]
    assert len(invoked) == 1 and len(handed) == 1 and invoked != handed
    entry = next(e for e in svc.calls("ct.Refs#use", CallOptions()).result["roots"][0]["tree"]
                 if e["method"] == "ct.Target#go()")
    assert entry["lines"] == sorted(invoked + handed)
    assert entry["method_ref"] and entry["method_ref_lines"] == handed
    assert f"(method-ref: line {handed[0]})" in render._markers(entry)


def test_a_synthetic_accessor_is_marked(svc, built):
    text = _javap(built[1], "Outer", "-v")
    accessor = re.search(r"static int (access\$\d+)\(\);\n.*\n.*flags: \(0x1008\) ACC_STATIC, ACC_SYNTHETIC", text)
    assert accessor, text
    answer = svc.callers("ct.Outer#secret()", CallOptions())
    tree = answer.result["roots"][0]["tree"]
    assert [(_name(e["method"]), e.get("accessor")) for e in tree] == [(accessor.group(1), True)]
    assert "(synthetic accessor)" in "\n".join(render.call_tree(answer.result))
    deeper = svc.callers("ct.Outer#secret()", CallOptions(depth=2)).result["roots"][0]["tree"][0]["children"]
    assert [(_name(e["method"]), e.get("accessor")) for e in deeper] == [("peek", None)]


def test_brief_leaves_the_rows_only(svc):
    result = svc.callers("ct.Chain#leaf()", CallOptions(depth=2)).result
    full, brief = render.call_tree(result), render.call_tree(result, brief=True)
    assert full[0].startswith("callers of") and len(full) > 2
    assert brief == [line[2:] for line in full[1:] if not line.startswith("note:")]
    several = svc.callers("ct.Over#hit", CallOptions(limit=3)).result
    lines = render.call_tree(several, brief=True)
    assert not any(line.startswith(("callers of", "note:")) for line in lines)
    assert sum(1 for line in lines if not line.startswith(" ")) == 3  # a bare line per overload
    assert any("past --limit" in line for line in lines)  # what the limit cut is still said


@pytest.mark.parametrize("name", ["callers", "calls", "usages", "overrides", "hierarchy", "implementors"])
def test_brief_reaches_every_relationship_command(name):
    """The registry hands `--brief` to each relationship renderer (it printed the same bytes with or without)."""
    from jdx.commands.registry import command

    cmd = command(name)
    seen = []
    import jdx.render.graph as graph_render

    function = {"callers": "call_tree", "calls": "call_tree"}.get(name, name)
    original = getattr(graph_render, function)
    try:
        setattr(graph_render, function, lambda result, brief=False: seen.append(brief) or [])
        cmd.render({}, cmd.request(query="x", brief=True))
        cmd.render({}, cmd.request(query="x"))
    finally:
        setattr(graph_render, function, original)
    assert seen == [True, False]


def test_uncalled_overloads_keep_varargs_and_array_parameters():
    """T63: `(Policy, )` for failsafe's `with(Policy, Policy...)`: the short name of `dev.failsafe.Policy...` was the
    text after its last dot."""
    from jdx.render.graph import _short_params

    assert _short_params("dev.failsafe.Failsafe#with(dev.failsafe.Policy, dev.failsafe.Policy...)") == \
        "(Policy, Policy...)"
    assert _short_params("a.B#m(java.lang.String[][], int, java.util.List)", named=True) == "m(String[][], int, List)"
