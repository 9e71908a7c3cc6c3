"""`samples` line numbers: a site's `line` is the class file's (its LineNumberTable, checked against `javap -l`);
the lines shown number the text shown, and when that text is decompiled both the text and JSON say so.

Fixture: tests/fixtures/samples (sx.Api#greet and its callers), compiled at test time, indexed without and with
its sources directory."""

from __future__ import annotations

import json
import re
import shutil

import pytest

from tests.fixtures.build_samples import samples_fixtures
from tests.fixtures import jdktool


@pytest.fixture(scope="module")
def fx(jdx_home, run_jdx):
    jar, src = samples_fixtures(jdx_home)
    r = run_jdx("index", "--jars", str(jar))
    assert r.code == 0, r.err
    return {"jar": jar, "bytecode": ["--jars", str(jar)], "sources": ["--jars", str(jar), "--src", str(src)]}


def _json(run_jdx, *args) -> dict:
    r = run_jdx(*args, "--json")
    assert r.code == 0, r.out + r.err
    return json.loads(r.out)["result"]


def _line_tables(jar, cls: str) -> dict[str, set[int]]:
    """Oracle: method name → the source lines of its LineNumberTable, as `javap -l -p` prints them."""
    if shutil.which("javap") is None:
        pytest.skip("javap is not installed")
    out = jdktool.run(["javap", "-l", "-p", "-cp", str(jar), cls], capture_output=True, text=True,
                         check=True).stdout
    tables: dict[str, set[int]] = {}
    current = None
    for line in out.splitlines():
        decl = re.match(r"\s+[\w.<>\[\], $]*?([\w$<>]+)\(.*\);$", line)
        if decl:
            current = tables.setdefault(decl.group(1), set())
        found = re.match(r"\s+line (\d+): \d+", line)
        if found and current is not None:
            current.add(int(found.group(1)))
    return tables


def _need_decompiler():
    from jdx.loaders.decompile import available_engines

    if not available_engines():
        pytest.skip("no decompiler installed: binary-only samples show no text")


@pytest.mark.soak
def test_decompiled_samples_label_each_line_space(fx, run_jdx):
    _need_decompiler()
    res = _json(run_jdx, "samples", "sx.Api#greet", "--limit", "4", *fx["bytecode"])
    tables = _line_tables(fx["jar"], "sx.Client")
    decompiled = _json(run_jdx, "source", "sx.Client", *fx["bytecode"])["text"]
    text = run_jdx("samples", "sx.Api#greet", "--limit", "4", *fx["bytecode"]).out
    assert res["samples"] and all(s["origin"] == "decompiled" for s in res["samples"])
    for s in res["samples"]:
        method = s["caller"].split("#", 1)[1].split("(", 1)[0]
        assert s["line"] in tables[method], (s["caller"], s["line"])  # `line`: the class file's
        src = s["source"]
        assert src["numbering"] == "decompiled"
        a, b = src["lines"]
        assert src["text"] == decompiled[a - 1:b]  # `lines` / `focus` number the decompiled text shown
        assert "greet(" in decompiled[src["focus"] - 1]
        assert f"({src['file']}:{a}-{b}, lines of the decompiled text)" in text, text
        assert re.search(rf"^\s+> {src['focus']}  .*greet\(", text, re.M), text
        # the site's number is the class file's; with a line map its decompiled line is named beside it
        if src["focus_by"] == "line_map":
            assert src["decompiled_line"] == src["focus"]
            assert f"{s['kind']} at line {s['line']} (decompiled line {src['focus']})" in text, text
        else:
            assert src["decompiled_line"] is None
            assert f"{s['kind']} at class-file line {s['line']} (" in text, text
    # a bare `line N` (no decompiled line beside it) never stands next to a decompiled gutter
    assert re.search(r" at line \d+(?!\d| \(decompiled line \d+\))", text) is None, text


@pytest.mark.soak
def test_source_samples_share_one_line_space(fx, run_jdx):
    res = _json(run_jdx, "samples", "sx.Api#greet", "--limit", "4", *fx["sources"])
    tables = _line_tables(fx["jar"], "sx.Client")
    text = run_jdx("samples", "sx.Api#greet", "--limit", "4", *fx["sources"]).out
    for s in res["samples"]:
        src = s["source"]
        assert s["origin"] == "source" and src["numbering"] == "source"
        assert s["line"] == src["focus"] and s["line"] in tables[s["caller"].split("#", 1)[1].split("(", 1)[0]]
        assert f"{s['kind']} at line {s['line']}" in text
    assert "class-file line" not in text and "decompiled" not in text


def test_bytecode_only_sample_names_its_line_space():
    """No text at all (no decompiler): the line still says it is the class file's."""
    from jdx.render.samples import samples

    site = {"caller": "a.B#c()", "caller_id": "a/B#c()V", "artifact": "a.jar", "line": 12, "kind": "call",
            "target": "a.D#e()", "in_lambda": False, "test": False, "written": True, "args_used": 0.0,
            "origin": "bytecode"}
    lines = samples({"symbol": "a.D#e()", "total": 1, "samples": [site]})
    assert "call at class-file line 12" in lines[1]


# --- the decompiler's line map places `>` (Procyon) ---------------------------------------------------------

@pytest.fixture(scope="module")
def lines_fx(jdx_home, run_jdx):
    """lx.Lines / lx.User (tests/loaders/test_decompile_lines.py): several calls per method, blank lines and
    comments that make the class file's numbering and the decompiled text's drift apart."""
    from jdx.loaders.decompile import available_engines
    from tests.loaders.test_decompile_lines import build_lines_jar

    if [e[0] for e in available_engines()][:1] != ["procyon"]:
        pytest.skip("samples decompile with Procyon only when it is the first engine found")
    (jdx_home / "lines-fixture").mkdir(exist_ok=True)
    jar = build_lines_jar(jdx_home / "lines-fixture")
    r = run_jdx("index", "--jars", str(jar))
    assert r.code == 0, r.err
    return ["--jars", str(jar)]


def test_each_decompiled_sample_marks_the_line_of_its_own_call(lines_fx, run_jdx):
    """Differential: the k-th greet call of a method in the source (whose lines are the class file's, javac -g)
    is the k-th greet call of the method's decompiled text; `>` must be on that line, for every site."""
    from tests.loaders.test_decompile_lines import LINES_JAVA, USER_JAVA, call_lines

    res = _json(run_jdx, "samples", "lx.Lines#greet", "--limit", "20", *lines_fx)
    text = run_jdx("samples", "lx.Lines#greet", "--limit", "20", *lines_fx).out
    sources = {"lx.Lines": LINES_JAVA, "lx.User": USER_JAVA}
    decompiled = {t: "\n".join(_json(run_jdx, "source", t, *lines_fx)["text"]) for t in sources}
    assert len(res["samples"]) == res["total"] == 6
    drifted = 0
    for s in res["samples"]:
        owner, method = s["caller"].split("(", 1)[0].split("#")
        src = s["source"]
        focus_text = decompiled[owner].splitlines()[src["focus"] - 1]
        assert "greet(" in focus_text, (s, focus_text)
        assert re.search(rf"^\s+> {src['focus']}  .*greet\(", text, re.M), text
        source_calls, text_calls = call_lines(sources[owner], method), call_lines(decompiled[owner], method)
        if len(source_calls) == len(text_calls):  # one call per line in both: the k-th is the k-th
            assert src["focus"] == text_calls[source_calls.index(s["line"])], s
            assert src["focus_by"] == "line_map" and src["decompiled_line"] == src["focus"]
            assert f"call at line {s['line']} (decompiled line {src['focus']})" in text, text
        drifted += src["focus"] != s["line"]
    assert drifted >= 4  # most sites sit on another line of the decompiled text than of the class file
    twice = sorted(s["source"]["focus"] for s in res["samples"] if "#twice(" in s["caller"])
    assert len(set(twice)) == 3  # three calls in one method: three different lines


@pytest.mark.soak
def test_a_site_no_decompiled_line_maps_to_says_so(lines_fx, run_jdx):
    """`count = count + 1; return count;` is decompiled as `return ++this.count;`, which Procyon maps to the
    second line only: the first line's sites fall back to the use's shape, and say so."""
    from tests.loaders.test_decompile_lines import LINES_JAVA

    res = _json(run_jdx, "samples", "lx.Lines#count", "--limit", "20", *lines_fx)
    text = run_jdx("samples", "lx.Lines#count", "--limit", "20", *lines_fx).out
    merged = LINES_JAVA.splitlines().index("        count = count + 1;") + 1
    by_line = {}
    for s in res["samples"]:
        by_line.setdefault(s["line"], []).append(s["source"])
    assert set(by_line) == {merged, merged + 1}
    for src in by_line[merged]:
        assert (src["focus_by"], src["decompiled_line"], src["line_map"]) == ("call_shape", None, True)
        assert "++this.count" in src["text"][src["focus"] - src["lines"][0]]
    [mapped] = by_line[merged + 1]
    assert mapped["focus_by"] == "line_map" and mapped["decompiled_line"] == mapped["focus"]
    assert f"at class-file line {merged} (no decompiled line maps to it; > marks the use found by its shape)" \
        in text, text
    assert f"read at line {merged + 1} (decompiled line {mapped['focus']})" in text, text


def test_mapped_focus_takes_the_first_mapped_line_else_keeps_the_shape():
    from jdx.engine.samples import mapped_focus

    win = {"first_line": 10, "focus": 10, "text": ["a", "b", "c", "d"], "class_lines": [[5], [7], [7, 8], []]}
    assert (mapped_focus(win, 7)["focus"], mapped_focus(win, 7)["focus_by"]) == (11, "line_map")
    assert mapped_focus(win, 8)["decompiled_line"] == 12
    missing = mapped_focus(win, 6)
    assert (missing["focus"], missing["focus_by"], missing["decompiled_line"], missing["line_map"]) == \
        (10, "call_shape", None, True)
    assert mapped_focus(dict(win, class_lines=None), 7)["line_map"] is False


def test_a_decompiler_without_a_line_map_is_named():
    from jdx.render.samples import samples

    site = {"caller": "a.B#c()", "caller_id": "a/B#c()V", "artifact": "a.jar", "line": 12, "kind": "call",
            "target": "a.D#e()", "in_lambda": False, "test": False, "written": True, "args_used": 0.0,
            "origin": "decompiled",
            "source": {"label": "decompiled by vineflower 1.10", "file": "a/B.java", "lines": [3, 3], "focus": 3,
                       "text": ["e();"], "reconstructed": True, "numbering": "decompiled", "decompiled_line": None,
                       "focus_by": "call_shape", "line_map": False}}
    lines = samples({"symbol": "a.D#e()", "total": 1, "samples": [site]})
    assert "call at class-file line 12 (the decompiler gave no line map; > marks the use found by its shape)" \
        in lines[1]


def test_undecompiled_samples_say_why(fx, run_jdx):
    """A site without sources whose class could not be decompiled says so, with the decompiler's warning code, and
    points at javap; it never reads "bytecode only" as if no decompiler had been asked (okhttp3.Cache: Procyon
    failed, and samples printed "no sources: bytecode only")."""
    r = run_jdx("samples", "sx.Api#greet", "--limit", "2", *fx["bytecode"], "--json",
                env={"JDX_DECOMPILER": "none"})
    assert r.code == 0, r.err
    doc = json.loads(r.out)
    shown = doc["result"]["samples"]
    assert shown and all(s["origin"] == "bytecode" and s["unavailable"]["code"] == "DECOMPILER_UNAVAILABLE"
                         for s in shown), shown
    assert [w["code"] for w in doc["warnings"]].count("DECOMPILER_UNAVAILABLE") == 1, doc["warnings"]
    text = run_jdx("samples", "sx.Api#greet", "--limit", "2", *fx["bytecode"], env={"JDX_DECOMPILER": "none"}).out
    assert "bytecode only" not in text and f"no sources, and {shown[0]['unavailable']['message']}; " \
                                          f"jdx body '{shown[0]['caller']}' --engine javap" in text, text
