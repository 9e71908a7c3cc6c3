"""`search '#'`, `search '::'`: a member separator with nothing on either side names no symbol (spec §6: a member
pattern is `Type#member`; `Type#` stands for `Type#*`, `#name` for that member in every type). It is a usage
error, exit 3, one line saying what a member pattern looks like, not a listing of every member in the workspace."""

from __future__ import annotations

import json

import pytest


@pytest.mark.parametrize("pattern", ["#", "::", " # ", ":: "])
def test_empty_member_pattern_is_a_usage_error(run_jdx, pattern):
    run = run_jdx("search", pattern)
    assert run.code == 3, run.out
    assert run.out == ""
    lines = run.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: search") and "'Gson#toJson'" in lines[0], run.err


def test_json_envelope_names_the_usage_error(run_jdx):
    run = run_jdx("search", "::", "--json")
    assert run.code == 3
    env = json.loads(run.out)
    assert env["ok"] is False and env["error"]["code"] == "USAGE"
    assert env["error"]["message"].startswith("search '::': a member pattern names a type, a member or both")


@pytest.mark.parametrize("pattern", ["java.lang.StringBuilder#", "java.lang.StringBuilder::", "#appendCodePoint",
                                     "::appendCodePoint"])
def test_one_side_given_still_searches(run_jdx, pattern):
    run = run_jdx("search", pattern, "--json")
    assert run.code == 0, run.err
    matches = json.loads(run.out)["result"]["matches"]
    assert matches and all(m["kind"] in ("method", "field") for m in matches)
    assert any(m["ref"].startswith("java.lang.StringBuilder#") for m in matches)


def test_regex_hash_is_a_regex(run_jdx):
    """`--regex '#'` is a regular expression over names, not a member pattern: no name holds a `#`."""
    run = run_jdx("search", "#", "--regex")
    assert run.code != 3 and "member pattern" not in run.err
