"""`samples`: ranking on fixtures compiled at test time (with and without sources), goldens, the JDK's src.zip.

The fixture `sx.Api#greet` has call sites that differ in one ranking criterion each: a test class, a
`@Generated` class, the API's own class, calls passing real values, literals or `null`, a long method,
a lambda, a call whose arguments wrap over lines.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli import golden
from tests.fixtures.build_samples import samples_fixtures

@pytest.fixture(scope="module")
def fx(jdx_home, run_jdx):
    jar, src = samples_fixtures(jdx_home)
    r = run_jdx("index", "--jars", str(jar))
    assert r.code == 0, r.err
    return {"bytecode": ["--jars", str(jar)], "sources": ["--jars", str(jar), "--src", str(src)]}


def _json(run_jdx, *args):
    r = run_jdx(*args, "--json")
    assert r.code == 0, r.out + r.err
    return json.loads(r.out)


def _callers(data) -> list[str]:
    return [s["caller"].split("#")[1].split("(")[0] for s in data["result"]["samples"]]


def test_ranking_from_sources(fx, run_jdx):
    data = _json(run_jdx, "samples", "sx.Api#greet", "--limit", "20", *fx["sources"])
    res = data["result"]
    assert res["total"] == 9 and len(res["samples"]) == 9 and data["truncated"] is None
    # a site in context before trivial delegates (a method whose whole body is the call); then real values
    # before literals before null; the API's own class, then generated code, then tests last
    assert _callers(data) == ["longer", "full", "later", "wrapped", "half", "nulls", "selfUse", "made", "check"]
    by = {c: s for c, s in zip(_callers(data), res["samples"])}
    assert by["full"]["args_used"] == 1.0 and by["half"]["args_used"] == 0.5 and by["nulls"]["args_used"] == 0.0
    assert by["wrapped"]["args_used"] == 1.0  # arguments on the lines after the call
    assert by["later"]["in_lambda"] and by["later"]["caller"].startswith("sx.Client#later(")
    assert by["check"]["test"] and not by["full"]["test"]
    for s in res["samples"]:
        assert s["origin"] == "source"
        src = s["source"]
        focus = src["text"][src["focus"] - src["lines"][0]]
        assert "greet(" in focus, (s["caller"], focus)  # the marked line is the call

@pytest.mark.soak  # slow: the soak runs it (.ci/run)

def test_without_sources_ranks_on_bytecode(fx, run_jdx):
    data = _json(run_jdx, "samples", "sx.Api#greet", "--limit", "20", *fx["bytecode"])
    res = data["result"]
    assert res["with_sources"] == 0 and all(s["origin"] != "source" for s in res["samples"])
    # no arguments known: the non-delegating method first, then short methods; own class / generated / test
    # still last
    assert _callers(data)[0] == "longer"
    assert _callers(data)[-3:] == ["selfUse", "made", "check"]
    lengths = [s["method_lines"][1] - s["method_lines"][0] for s in res["samples"][1:-3]]
    assert lengths == sorted(lengths)


@pytest.mark.soak  # slow: the soak runs it (.ci/run)
def test_binary_only_samples_are_reconstructed(fx, run_jdx):
    """Without sources, each shown site is rendered from the decompiled text of its method, labelled
    reconstructed, its marked line holding the call (spec §11.1)."""
    from jdx.loaders.decompile import available_engines

    if not available_engines():
        text = run_jdx("samples", "sx.Api#greet", *fx["bytecode"]).out
        assert "no sources: bytecode only" in text
        pytest.skip("no decompiler installed: samples stay pointers")
    data = _json(run_jdx, "samples", "sx.Api#greet", "--limit", "4", *fx["bytecode"])
    res = data["result"]
    assert res["reconstructed"] == 4
    for s in res["samples"]:
        src = s["source"]
        assert s["origin"] == "decompiled" and src["reconstructed"] and src["label"].startswith("decompiled by")
        assert "greet(" in src["text"][src["focus"] - src["lines"][0]], s
    text = run_jdx("samples", "sx.Api#greet", *fx["bytecode"]).out
    assert "⚠ reconstructed" in text and "> " in text
    ctor = _json(run_jdx, "samples", "sx.Api#<init>", "--limit", "2", *fx["bytecode"])["result"]
    for s in ctor["samples"]:
        assert "Api(" in s["source"]["text"][s["source"]["focus"] - s["source"]["lines"][0]]


def test_usages_context_without_sources_is_reconstructed(fx, run_jdx):
    """`usages --context` on binary-only code shows each site in the decompiled text of its method, as `samples`
    does: labelled reconstructed, focused on a line holding the call, every site of the sources run placed."""
    from jdx.loaders.decompile import available_engines

    if not available_engines():
        pytest.skip("no decompiler installed: usages --context needs sources")
    with_src = _json(run_jdx, "usages", "sx.Api#greet", "--kind", "call", "--context", "1", *fx["sources"])
    data = _json(run_jdx, "usages", "sx.Api#greet", "--kind", "call", "--context", "1", *fx["bytecode"])
    sites = [s for g in data["result"]["groups"] for c in g["callers"] for s in c["sites"]]
    expected = [s for g in with_src["result"]["groups"] for c in g["callers"] for s in c["sites"] if "context" in s]
    assert sites and len([s for s in sites if "context" in s]) == len(expected)
    for s in sites:
        ctx = s["context"]
        assert ctx["reconstructed"] and ctx["lines_of"] == "decompiled text" and ctx["label"].startswith("decompiled")
        assert "greet(" in ctx["text"][ctx["focus"] - ctx["first_line"]], s
    assert any(p["origin"] == "decompiled" for p in data["provenance"])
    assert not [w for w in data["warnings"] if w["code"] == "CONTEXT_UNAVAILABLE"]
    text = run_jdx("usages", "sx.Api#greet", "--kind", "call", "--context", "1", *fx["bytecode"]).out
    assert "lines of the decompiled text)   ⚠ reconstructed" in text


@pytest.mark.soak
def test_limit_is_explicit(fx, run_jdx):
    data = _json(run_jdx, "samples", "sx.Api#greet", *fx["sources"])
    assert len(data["result"]["samples"]) == 3
    assert data["truncated"]["shown"] == 3 and data["truncated"]["total"] == 9
    r = run_jdx("samples", "sx.Api#greet", "--limit", "1", *fx["sources"])
    assert r.code == 0 and "… 1 of 9 shown (--limit N" in r.out


@pytest.mark.soak
def test_field_and_type_and_constructor(fx, run_jdx):
    field = _json(run_jdx, "samples", "sx.Api#count", "--limit", "10", *fx["sources"])["result"]
    assert {s["kind"] for s in field["samples"]} == {"read", "write"}
    assert field["symbol_kind"] == "field"
    whole = _json(run_jdx, "samples", "sx.Api", "--limit", "50", *fx["sources"])["result"]
    targets = {s["target"].split("#")[1].split("(")[0] for s in whole["samples"]}
    assert {"greet", "of", "<init>"} <= targets
    assert any(s["kind"] == "new" for s in whole["samples"])
    ctor = _json(run_jdx, "samples", "sx.Api#<init>", "--limit", "10", *fx["sources"])["result"]
    assert [s["caller"].split("#")[1].split("(")[0] for s in ctor["samples"]] == ["of", "made"]
    for s in ctor["samples"]:
        src = s["source"]
        assert "new Api(" in src["text"][src["focus"] - src["lines"][0]]

@pytest.mark.soak  # slow: the soak runs it (.ci/run)

def test_errors(fx, run_jdx):
    r = run_jdx("samples", "sx.Api#greeet", *fx["sources"])
    assert r.code == 1 and "greet" in r.out
    r = run_jdx("samples", "sx.Apii", *fx["sources"])
    assert r.code == 1 and "not found" in r.out
    r = run_jdx("samples", "sx.Api#greet", "--limit", "0", *fx["sources"])
    assert r.code == 3 and "Traceback" not in r.err


def test_no_sites_is_an_answer(fx, run_jdx):
    data = _json(run_jdx, "samples", "sx.Client#size", *fx["sources"])
    assert data["result"]["total"] == 0 and data["result"]["samples"] == []
    assert "no call sites in the workspace" in run_jdx("samples", "sx.Client#size", *fx["sources"]).out


@pytest.mark.parametrize("fmt", ["txt", "json"])
def test_golden(fx, run_jdx, jdx_home, fmt):
    args = ["samples", "sx.Api#greet", "--limit", "4", *fx["sources"]] + (["--json"] if fmt == "json" else [])
    golden.check(golden.GOLDENS / f"samples-greet.{fmt}", run_jdx(*args), 0, jdx_home)


def test_every_samples_golden_has_a_case():
    golden.no_stale(golden.GOLDENS, "samples-*", {"samples-greet.txt", "samples-greet.json"})


@pytest.mark.soak
def test_same_bytes_twice(fx, run_jdx):
    a = run_jdx("samples", "sx.Api", "--limit", "50", "--json", *fx["sources"]).out
    assert a == run_jdx("samples", "sx.Api", "--limit", "50", "--json", *fx["sources"]).out


@pytest.mark.parametrize("ref,name", [("java.util.Optional#orElseGet", "orElseGet"),
                                      pytest.param("java.util.Objects#requireNonNull(Object, String)",
                                                   "requireNonNull", marks=pytest.mark.soak),
                                      pytest.param("java.lang.StringBuilder#append(String)", "append",
                                                   marks=pytest.mark.soak)])
def test_jdk_samples_point_at_the_call(run_jdx, ref, name):
    """On the JDK with src.zip: every sample is rendered from sources and its marked line holds the call."""
    if not Path("/usr/lib/jvm/java-17-openjdk-amd64/lib/src.zip").exists():
        pytest.skip("openjdk-17-source is not installed (see .ci/run)")
    data = _json(run_jdx, "samples", ref, "--limit", "5", "--prefer-sources")
    res = data["result"]
    assert res["total"] >= 5 and len(res["samples"]) == 5
    for s in res["samples"]:
        assert s["origin"] == "source" and not s["test"]
        src = s["source"]
        assert src["label"] == "src.zip"
        assert (name in src["text"][src["focus"] - src["lines"][0]]) == s["written"], s
    assert [s["written"] for s in res["samples"]] == sorted((s["written"] for s in res["samples"]), reverse=True)
    assert res["samples"][0]["written"]
