"""`search` input a trial found refused or failing: `--regex '(?i)^jws'` (a leading inline flag) was an internal error
(exit 6: the wrapped pattern put the flag mid-expression, which Python refuses), and `--value $'\\n'` refused a
whitespace-only value, so StringUtils.LF could not be found. A regex either engine (Python's `re`, RE2) cannot read
is a usage error (exit 3). Oracles: Python's `re` over the fixture's names as javap lists them, javap -constants."""

from __future__ import annotations

import json
import re
import shutil

import pytest

from tests.fixtures.javac import javac_jar, javap

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)

SOURCES = {
    "rx/JwsThing.java": "package rx;\npublic class JwsThing {\n  public int jwsCount;\n  public void verifyJws() {}\n"
                        "  public static final String LF = \"\\n\";\n  public static final String TAB = \"\\t\";\n"
                        "  public static final String CRLF = \"\\r\\n\";\n  public static final char NL = '\\n';\n"
                        "  public static final String PATH = \"C:\\\\temp\";\n"
                        "  public static final String EMOJI = \"a\\uD83D\\uDE00b\";\n}\n",
    "rx/JWSHeader.java": "package rx;\npublic class JWSHeader {}\n",
    "rx/NoJws.java": "package rx;\npublic class NoJws {}\n",
}
CLASSES = ("rx.JwsThing", "rx.JWSHeader", "rx.NoJws")


@pytest.fixture(scope="module")
def jar(tmp_path_factory):
    if shutil.which("javac") is None:
        pytest.skip("javac is not installed")
    return javac_jar(tmp_path_factory.mktemp("regex-value"), SOURCES, "rx", "rx.jar")[0]


def _search(run_jdx, jar, *args: str):
    return run_jdx("--no-jdk", "--jars", str(jar), "search", *args, "--json")


def _names(jar) -> set[str]:
    """The simple names of the fixture's types and members, as javap declares them (no constructors)."""
    names = set()
    for cls in CLASSES:
        for line in javap(jar, cls).splitlines()[1:]:
            m = re.search(r"([\w$]+)(?:\(.*\))?[;{]\s*$", line)
            if m:
                names.add(m.group(1).rsplit("$", 1)[-1].rsplit(".", 1)[-1])
    return names - {c.rsplit(".", 1)[-1] for c in CLASSES} | {c.rsplit(".", 1)[-1] for c in CLASSES}


@pytest.mark.parametrize("pattern", ["(?i)^jws", "(?i)jws", "(?is)^JWS", "(?i:jws)Thing"])
def test_a_leading_inline_flag_applies_to_the_whole_pattern(run_jdx, jar, pattern):
    r = _search(run_jdx, jar, "--regex", pattern)  # every kind: packages are matched in Python
    assert r.code == 0, r.out + r.err
    found = {m["name"] for m in json.loads(r.out)["result"]["matches"]}
    assert found == {n for n in _names(jar) | {"rx"} if re.search(pattern, n)} and found, (found, _names(jar))


@pytest.mark.parametrize("pattern, why", [("jws(?i)", "global flags not at the start"),
                                          ("(?x)jws", "not RE2 syntax"), ("a*+", "not RE2 syntax"),
                                          ("(?>jws)", "not RE2 syntax"), ("(?<=a)b", "lookarounds")])
def test_a_regex_an_engine_cannot_read_is_a_usage_error(run_jdx, jar, pattern, why):
    r = _search(run_jdx, jar, "--regex", pattern)
    assert r.code == 3, r.out + r.err
    assert why in json.loads(r.out or r.err)["error"]["message"]


def _constants(jar) -> dict[str, str]:
    """javap -constants: field name -> its value as Java text."""
    out = javap(jar, "rx.JwsThing", "-constants")
    return {m.group(1): m.group(2) for m in re.finditer(r" (\w+) = (.*);", out)}


@pytest.mark.parametrize("value, exact", [
    ("\n", ["rx.JwsThing#LF", "rx.JwsThing#NL"]),  # a shell's $'\n'
    ("\\n", ["rx.JwsThing#LF", "rx.JwsThing#NL"]),  # the escape written with a backslash
    ("\t", ["rx.JwsThing#TAB"]),
    ("\\r\\n", ["rx.JwsThing#CRLF"]),
    ("C:\\temp", ["rx.JwsThing#PATH"]),  # a backslash the value holds: as written
    ("a\U0001F600b", ["rx.JwsThing#EMOJI"]),  # a character outside the BMP: two \\u escapes in the class file
])
def test_a_whitespace_or_escaped_value_is_found(run_jdx, jar, value, exact):
    constants = _constants(jar)
    assert (constants["LF"], constants["NL"], constants["PATH"]) == ('"\\n"', "'\\n'", '"C:\\\\temp"'), constants
    r = _search(run_jdx, jar, value, "--value")
    assert r.code == 0, r.out + r.err
    matches = json.loads(r.out)["result"]["matches"]
    assert sorted(m["ref"] for m in matches if m["match"] == "exact") == exact, matches
    assert all(m["value"] == constants[m["ref"].split("#")[1]] for m in matches), matches


def test_a_glob_of_nothing_is_still_refused(run_jdx, jar):
    r = _search(run_jdx, jar, "*", "--value")
    assert r.code == 3 and "give some of the value's text" in r.out + r.err
