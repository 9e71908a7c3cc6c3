"""`samples` line numbers: a site's `line` is the class file's (its LineNumberTable, checked against `javap -l`);
the lines shown number the text shown, and when that text is decompiled both the text and JSON say so.

Fixture: tests/fixtures/samples (sx.Api#greet and its callers), compiled at test time, indexed without and with
its sources directory."""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest

from tests.fixtures.build_samples import samples_fixtures


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
    out = subprocess.run(["javap", "-l", "-p", "-cp", str(jar), cls], capture_output=True, text=True,
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
        # text: the site's number is named as the class file's, the gutter's as the decompiled text's
        head = f"{s['kind']} at class-file line {s['line']}"
        assert head in text, text
        assert f"({src['file']}:{a}-{b}, lines of the decompiled text)" in text, text
        assert re.search(rf"^\s+> {src['focus']}  .*greet\(", text, re.M), text
    assert re.search(r" at line \d", text) is None, text  # no bare `line N` next to a decompiled gutter


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
