"""Golden files for show / outline / signature / members, text and JSON, on fixtures compiled at test time.

Every case runs the CLI entry point (`jdx.cli.main.main`, in this process: 130 runs take seconds instead
of half a minute of interpreter start-ups; the JDK cases and the envelope check run `python -m jdx` as a
subprocess) and compares the output byte for byte (text) or as parsed JSON (the golden is pretty-printed
for readable diffs; the comparison is on the data, nothing is normalised).
Regenerate with `JDX_UPDATE_GOLDENS=1 pytest tests/cli/test_goldens.py`, then review the diff.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli import golden
from tests.fixtures.build import fixtures_jar

GOLDENS = golden.GOLDENS

# (golden name, argv, exit code); fixture cases run with `--jars fixtures.jar` (plus the JDK)
FIXTURE_CASES = [
    ("show-box", ["show", "fx.Box"], 0),
    ("show-outer", ["show", "fx.Outer"], 0),
    ("show-outer-anonymous", ["show", "fx.Outer$1"], 0),
    ("show-outer-local", ["show", "fx.Outer$1Counter"], 0),
    ("show-outer-inner", ["show", "fx.Outer.Inner"], 0),
    ("show-level", ["show", "fx.Level"], 0),
    ("show-config", ["show", "fx.Config"], 0),
    ("show-point", ["show", "fx.Point"], 0),
    ("show-shape", ["show", "fx.Shape"], 0),
    ("show-stringlist", ["show", "fx.StringList"], 0),
    ("show-legacy", ["show", "fx.Legacy"], 0),
    ("show-ktthing", ["show", "fx.KtThing"], 0),
    ("show-ktthing-jvm", ["show", "fx.KtThing", "--view", "jvm"], 0),
    ("show-dog", ["show", "Dog"], 0),
    ("show-not-found", ["show", "fx.Boxx"], 1),
    ("outline-box", ["outline", "fx.Box"], 0),
    ("outline-box-public-methods", ["outline", "fx.Box", "--kind", "method", "--access", "public", "--brief"], 0),
    ("outline-dog-synthetic", ["outline", "fx.Dog", "--include-synthetic"], 0),
    ("outline-level", ["outline", "fx.Level"], 0),
    ("outline-config", ["outline", "fx.Config"], 0),
    ("outline-point", ["outline", "fx.Point"], 0),
    ("outline-shape", ["outline", "fx.Shape", "--static"], 0),
    ("outline-nodebug", ["outline", "fx.NoDebug"], 0),
    ("outline-withparams", ["outline", "fx.WithParams"], 0),
    ("outline-outer", ["outline", "fx.Outer"], 0),
    ("outline-outer-inner", ["outline", "fx.Outer$Inner", "--include-synthetic"], 0),
    ("outline-box-max-lines", ["outline", "fx.Box", "--max-lines", "6"], 0),
    ("signature-box-size", ["signature", "fx.Box#size"], 0),
    ("signature-box-map", ["signature", "fx.Box::map"], 0),
    ("signature-box-get", ["signature", "fx.Box.get"], 0),
    ("signature-box-ctors", ["signature", "fx.Box#<init>"], 0),
    ("signature-box-all", ["signature", "fx.Box#all(Comparable...)"], 0),
    ("signature-box-limit", ["signature", "fx.Box#LIMIT"], 0),
    ("signature-box-reset", ["signature", "fx.Box#reset"], 0),
    ("signature-box-compareto", ["signature", "fx.Box#compareTo"], 0),
    ("signature-box-compareto-bridge", ["signature", "fx.Box#compareTo(Object)"], 0),
    ("signature-dog-self", ["signature", "fx.Dog#self"], 0),
    ("signature-dog-self-bridge", ["signature", "fx.Dog#self():fx.Animal"], 0),
    ("signature-dog-fetch", ["signature", "fx.Dog#fetch"], 0),
    ("signature-dog-food", ["signature", "fx.Dog#food"], 0),
    ("signature-stringlist-add", ["signature", "fx.StringList#add"], 0),
    ("signature-stringlist-add-string", ["signature", "fx.StringList#add(int, String)"], 0),
    ("signature-square-describe", ["signature", "fx.Square#describe"], 0),
    ("signature-shape-unit", ["signature", "fx.Shape#unit"], 0),
    ("signature-config-level", ["signature", "fx.Config#level"], 0),
    ("signature-config-tags", ["signature", "fx.Config#tags"], 0),
    ("signature-point-ctor", ["signature", "fx.Point#Point"], 0),
    ("signature-level-ctor", ["signature", "fx.Level#<init>"], 0),
    ("signature-level-valueof", ["signature", "fx.Level#valueOf(String)"], 0),
    ("signature-nodebug-join", ["signature", "fx.NoDebug#join"], 0),
    ("signature-withparams-lookup", ["signature", "fx.WithParams#lookup(Map, Object)"], 0),
    ("signature-withparams-descriptor",
     ["signature", "fx.WithParams#lookup(Ljava/util/Map;Ljava/lang/Object;)Ljava/lang/Object;"], 0),
    ("signature-inner-ctor", ["signature", "fx.Outer$Inner#<init>"], 0),
    ("signature-square-unit-not-inherited", ["signature", "fx.Square#unit"], 1),
    ("signature-box-typo", ["signature", "fx.Box#sise"], 1),
    ("signature-box-wrong-params", ["signature", "fx.Box#size(String)"], 1),
    ("signature-type-not-member", ["signature", "fx.Config"], 3),
    ("members-dog", ["members", "fx.Dog"], 0),
    ("members-stringlist-add", ["members", "fx.StringList", "--grep", "^add"], 0),
    ("members-square", ["members", "fx.Square"], 0),
    ("members-level", ["members", "fx.Level", "--declared", "--access", "all"], 0),
    ("members-point", ["members", "fx.Point", "--declared"], 0),
    ("members-box", ["members", "fx.Box", "--declared", "--access", "all"], 0),
    ("members-outer-inner", ["members", "fx.Outer$Inner", "--declared"], 0),
]
# JDK cases: text only (their JSON carries line numbers, which move with JDK updates)
JDK_CASES = [
    ("members-jdk-hashmap", ["members", "java.util.HashMap"], 0),
    ("show-jdk-hashmap", ["show", "java.util.HashMap"], 0),
    ("signature-jdk-hashmap-put", ["signature", "java.util.HashMap#put"], 0),
]


@pytest.fixture(scope="module")
def fixture_args(jdx_home, run_jdx) -> list[str]:
    jar = fixtures_jar(jdx_home)
    r = run_jdx("index", "--jars", str(jar))  # build once, before the cases run side by side
    assert r.code == 0, r.err
    return ["--jars", str(jar)]


@pytest.fixture(scope="module")
def outputs(fixture_args, jdx_env, run_jdx) -> dict:
    """Every fixture case in text and JSON through `main()` in this process; the JDK cases as subprocesses."""
    found = {}
    with golden.in_process(jdx_env) as run_here:
        for name, argv, code in FIXTURE_CASES:
            found[(name, "txt")] = (run_here(fixture_args + argv), code)
            found[(name, "json")] = (run_here(fixture_args + argv + ["--json"]), code)
    for name, argv, code in JDK_CASES:
        found[(name, "txt")] = (run_jdx(*argv), code)
    return found


def _golden(name: str, ext: str) -> Path:
    return GOLDENS / f"{name}.{ext}"


def _check(outputs: dict, jdx_home: Path, name: str, ext: str) -> None:
    run, code = outputs[(name, ext)]
    golden.check(GOLDENS / f"{name}.{ext}", run, code, jdx_home)


@pytest.mark.parametrize("name", [c[0] for c in FIXTURE_CASES])
def test_fixture_golden_text(outputs, jdx_home, name):
    _check(outputs, jdx_home, name, "txt")


@pytest.mark.parametrize("name", [c[0] for c in FIXTURE_CASES])
def test_fixture_golden_json(outputs, jdx_home, name):
    _check(outputs, jdx_home, name, "json")


@pytest.mark.parametrize("name", [c[0] for c in JDK_CASES])
def test_jdk_golden_text(outputs, jdx_home, name):
    _check(outputs, jdx_home, name, "txt")


def test_every_golden_file_has_a_case():
    """A renamed case must not leave a stale golden behind (among this module's command families; the
    other commands' golden modules check their own)."""
    expected = {f"{n}.txt" for n, _, _ in FIXTURE_CASES + JDK_CASES} | {f"{n}.json" for n, _, _ in FIXTURE_CASES}
    families = ("show-", "outline-", "signature-", "members-")
    present = {p.name for p in GOLDENS.glob("*.*") if p.name.startswith(families)} if GOLDENS.exists() else set()
    assert present <= expected, sorted(present - expected)


def test_json_and_text_agree(outputs):
    """The text is a rendering of the JSON result: every signature line's text is in the envelope."""
    for name, _argv, code in FIXTURE_CASES:
        if code or not name.startswith("signature-"):
            continue
        data = json.loads(outputs[(name, "json")][0].out)
        text = outputs[(name, "txt")][0].out
        for sig in data["result"]["signatures"]:
            assert sig["text"] in text, (name, sig["text"])
        assert data["provenance"] and all(p["origin"] == "bytecode" for p in data["provenance"])


def test_error_envelope_command_with_globals_first(fixture_args, run_jdx):
    r = run_jdx(*fixture_args, "show", "fx.Boxx", "--json")
    data = json.loads(r.out)
    assert r.code == 1 and (data["command"], data["query"]) == ("show", "fx.Boxx")
