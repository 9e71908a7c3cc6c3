"""Golden files for search / resolve / imports / ls / tree, text and JSON.

Fixture cases run `jdx.cli.main.main` in this process on fixtures.jar (plus the JDK), narrowed to the `fx`
package so other fixtures cannot move them; JDK cases run `python -m jdx` (text only, plus the JSON of
`tree`, which carries no line numbers). Comparison is byte for byte (text) or on the parsed data (JSON).
Regenerate with `JDX_UPDATE_GOLDENS=1 pytest tests/cli/test_goldens_search.py`, then review the diff.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli import golden
from tests.fixtures.build import fixtures_jar

GOLDENS = golden.GOLDENS
PREFIXES = ("search-", "resolve-", "imports-", "ls-", "tree-")

FIXTURE_CASES = [
    ("search-box", ["search", "Box", "--package", "fx"], 0),
    ("search-hump", ["search", "SL", "--package", "fx"], 0),
    ("search-glob-kinds", ["search", "S*", "--package", "fx", "--kind", "class,interface"], 0),
    ("search-method-hump", ["search", "dEsc", "--package", "fx", "--kind", "method"], 0),
    ("search-field", ["search", "LIM", "--package", "fx", "--kind", "field"], 0),
    ("search-fuzzy", ["search", "Sqaure", "--fuzzy", "--package", "fx"], 0),
    ("search-regex", ["search", "^[A-Z][a-z]{2}$", "--regex", "--package", "fx"], 0),
    ("search-limit", ["search", "*", "--package", "fx", "--limit", "3"], 0),
    ("search-qualified", ["search", "fx.Outer.*", "--kind", "class,interface"], 0),
    ("search-not-found", ["search", "Sqaure", "--package", "fx"], 1),
    ("search-bad-kind", ["search", "Box", "--kind", "klass"], 3),
    ("search-bad-regex", ["search", "(?<=a)b", "--regex"], 3),
    ("resolve-box-size", ["resolve", "fx.Box.size"], 0),
    ("resolve-frame", ["resolve", "at fx.Box.get(Box.java:23)"], 0),
    ("resolve-member-fragment", ["resolve", "Box#map"], 0),
    ("resolve-nested", ["resolve", "Outer.Inner"], 0),
    ("resolve-not-found", ["resolve", "fx.Box.nothing"], 1),
    ("imports-inner", ["imports", "fx.Outer.Inner"], 0),
    ("imports-static-field", ["imports", "fx.Box#LIMIT"], 0),
    ("imports-not-static", ["imports", "fx.Box#get"], 0),
    ("imports-local-class", ["imports", "fx.Outer$1Counter"], 3),
    ("imports-not-found", ["imports", "fx.Boxx"], 1),
    ("ls-fx", ["ls", "fx", "--counts"], 0),
    ("ls-not-found", ["ls", "fxx"], 1),
]
JDK_CASES = [
    ("search-jdk-hmap", ["search", "HMap", "--limit", "10"], 0),
    ("search-jdk-glob-class", ["search", "H*Map", "--kind", "class"], 0),
    ("search-jdk-fuzzy", ["search", "HashMpa", "--fuzzy"], 0),
    ("resolve-jdk-frame", ["resolve", "at java.base/java.util.HashMap.putVal(HashMap.java:640)"], 0),
    ("imports-jdk-entry", ["imports", "Map.Entry"], 0),
    ("imports-jdk-ambiguous", ["imports", "List"], 2),
    ("ls-jdk-function", ["ls", "java.util.function", "--limit", "12"], 0),
    ("ls-jdk-roots", ["ls"], 0),  # without --counts: the JDK's class count moves with every update of the JDK
    ("tree-jdk-sql", ["tree", "java.sql", "--depth", "2", "--counts"], 0),
    ("tree-jdk-sql-types", ["tree", "java.sql", "--depth", "3", "--limit", "8"], 0),
]
JDK_JSON = {"tree-jdk-sql"}


@pytest.fixture(scope="module")
def outputs(jdx_home, jdx_env, run_jdx) -> dict:
    jar = fixtures_jar(jdx_home)
    r = run_jdx("index", "--jars", str(jar))
    assert r.code == 0, r.err

    found = {}
    with golden.in_process(jdx_env) as run_here:
        for name, argv, code in FIXTURE_CASES:
            args = ["--jars", str(jar)] + argv
            found[(name, "txt")] = (run_here(args), code)
            found[(name, "json")] = (run_here(args + ["--json"]), code)
        for name, argv, code in JDK_CASES:
            found[(name, "txt")] = (run_here(argv), code)
            if name in JDK_JSON:
                found[(name, "json")] = (run_here(argv + ["--json"]), code)
    return found


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


@pytest.mark.parametrize("name", sorted(JDK_JSON))
def test_jdk_golden_json(outputs, jdx_home, name):
    _check(outputs, jdx_home, name, "json")


def test_every_search_golden_has_a_case():
    """A renamed case must not leave a stale golden behind (this module's prefixes only)."""
    expected = ({f"{n}.txt" for n, _, _ in FIXTURE_CASES + JDK_CASES} | {f"{n}.json" for n, _, _ in FIXTURE_CASES}
                | {f"{n}.json" for n in JDK_JSON})
    present = {p.name for p in GOLDENS.glob("*.*") if p.name.startswith(PREFIXES)}
    assert present <= expected, sorted(present - expected)


def test_json_and_text_agree(outputs):
    """The text renders the envelope: every search match's ref and every resolve candidate's ref appear."""
    for name, _argv, code in FIXTURE_CASES:
        if code:
            continue
        data = json.loads(outputs[(name, "json")][0].out)
        text = outputs[(name, "txt")][0].out
        for row in data["result"].get("matches", []) + data["result"].get("candidates", []):
            assert row["ref"] in text, (name, row["ref"])



def test_cold_one_shot_envelope(run_jdx):
    """The real entry point as a subprocess: exit code and envelope of a not-found search."""
    r = run_jdx("search", "Zqxjkw", "--json", "--kind", "class")
    data = json.loads(r.out)
    assert r.code == 1 and data["ok"] is False and data["error"]["code"] == "NOT_FOUND"
    assert (data["command"], data["query"]) == ("search", "Zqxjkw")
