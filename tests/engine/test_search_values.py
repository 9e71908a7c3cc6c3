"""`search PATTERN --value`: the constant fields whose value is PATTERN (equal first, then containing it), javap
-constants the oracle of which fields have a compile-time value and what it is (a `static final` initialised by a
call has none)."""

from __future__ import annotations

import json
import re

import pytest

from tests.fixtures import jdktool
from tests.fixtures.javac import javac_jar

SOURCES = {
    "v/Alg.java": "package v; public class Alg {"
                  " public static final String RSA = \"RS256\";"
                  " public static final String WRAPPED = \"xRS256y\";"
                  " private static final String HIDDEN = \"RS256\";"
                  " public static final String MADE = new String(\"RS256\");"  # no ConstantValue
                  " public static final long BIG = 42L; public static final int SMALL = 4242;"
                  " public static final char Q = 'q'; public static final float F = 2.5f;"
                  " public static final String ESC = \"a\\\"b\\\\c\\n\"; }",
}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("search_values")
    jar, classes = javac_jar(root, SOURCES, "v", "v.jar")
    javap = jdktool.run(["javap", "-p", "-constants", "-cp", str(classes), "v.Alg"], capture_output=True, text=True,
                        check=True).stdout
    return jar, dict(re.findall(r" (\w+) = (.+);\n", javap))


def _search(run_jdx, jar, *args):
    r = run_jdx("--no-jdk", "--jars", str(jar), "--json", "search", *args, "--value")
    return r.code, json.loads(r.out)


def test_a_string_value_finds_its_constants_equal_first(run_jdx, built):
    jar, constants = built
    assert "MADE" not in constants and constants["RSA"] == '"RS256"'  # javap: MADE has no compile-time value
    code, env = _search(run_jdx, jar, "RS256")
    assert code == 0, env
    got = [(m["ref"], m["match"], m["value"]) for m in env["result"]["matches"]]
    assert got == [("v.Alg#RSA", "exact", '"RS256"'), ("v.Alg#HIDDEN", "exact", '"RS256"'),
                   ("v.Alg#WRAPPED", "contains", '"xRS256y"')], got
    assert [m["ref"].split("#")[1] for m in env["result"]["matches"]] == \
        sorted((n for n, v in constants.items() if "RS256" in v), key=lambda n: (constants[n] != '"RS256"', n == "HIDDEN"))


def _javap_value(literal: str) -> str:
    """A javap -constants literal as the value it stands for: a string or char unquoted and unescaped (Java's escapes
    are Python's here), a number without its type suffix."""
    if literal[:1] in "\"'":
        return literal[1:-1].encode("latin-1", "backslashreplace").decode("unicode_escape")
    return literal.rstrip("lLfFdD")


@pytest.mark.parametrize("pattern, field", [("42", "BIG"), ("q", "Q"), ("2.5", "F"), ('a"b\\c\n', "ESC"),
                                            ("42*", "SMALL")])
def test_numbers_chars_escapes_and_globs(run_jdx, built, pattern, field):
    jar, constants = built
    assert any(_javap_value(v) == pattern or ("*" in pattern and _javap_value(v).startswith(pattern[:-1]))
               for v in constants.values())
    code, env = _search(run_jdx, jar, pattern)
    assert code == 0, env
    exact = [m["ref"] for m in env["result"]["matches"] if m["match"] == "exact"]
    import fnmatch
    want = sorted(f"v.Alg#{n}" for n, v in constants.items() if fnmatch.fnmatchcase(_javap_value(v), pattern))
    assert sorted(exact) == want and f"v.Alg#{field}" in want, (exact, want)


def test_no_constant_with_that_value_is_not_found(run_jdx, built):
    jar, _ = built
    code, env = _search(run_jdx, jar, "nowhere")
    assert (code, env["error"]["code"]) == (1, "NOT_FOUND")
    code, env = _search(run_jdx, jar, "*")
    assert (code, env["error"]["code"]) == (3, "USAGE")


@pytest.mark.parametrize("written, field", [("42L", "BIG"), ("2.5f", "F"), ("4_242", "SMALL")])
def test_a_number_written_as_java_and_javap_write_it_finds_its_constant(run_jdx, built, written, field):
    jar, constants = built
    javap = constants[field].lower()  # javap writes `42l`, `2.5f`
    assert javap in (written.replace("_", "").lower(), written.replace("_", ""))
    code, env = _search(run_jdx, jar, written)
    assert code == 0, env
    assert [m["ref"] for m in env["result"]["matches"] if m["match"] == "exact"] == [f"v.Alg#{field}"], env
