"""A mistyped global flag gets a did-you-mean wherever it stands: after the command (`members X --no-deamon`,
among the command's own flags and the global ones) or before it (`jdx --jar x.jar members X`); exit 3, and the
JSON envelope names the command, not the flag."""

from __future__ import annotations

import json

import pytest


@pytest.mark.parametrize("typo, meant", [("--no-deamon", "--no-daemon"), ("--jsn", "--json"),
                                         ("--timout", "--timeout")])
def test_after_the_command(run_jdx, typo, meant):
    run = run_jdx("--no-jdk", "members", "a.B", typo)
    assert run.code == 3
    assert f"no such option {typo} (did you mean {meant} (a global flag)?)" in run.err


def test_a_command_flag_is_still_suggested_plainly(run_jdx):
    run = run_jdx("--no-jdk", "members", "a.B", "--inheritd")
    assert run.code == 3 and "(did you mean --inherited?)" in run.err


@pytest.mark.parametrize("typo, meant", [("--jar", "--jars"), ("--jsn", "--json")])
def test_before_the_command(run_jdx, typo, meant):
    run = run_jdx(typo, "x.jar", "members", "java.util.HashMap", "--json")
    assert run.code == 3
    env = json.loads(run.out)
    assert env["error"]["message"] == f"no such option {typo} (did you mean {meant}?)"
    assert not env["command"].startswith("-")


def test_a_coord_without_colons_is_a_usage_error_not_a_missing_jar(run_jdx):
    """`--coord bad-coord` (or a jar's file name) was stored beside the jar paths and read as one: exit 5, "cannot
    read bad-coord: no such file", hint "drop it from --jars". It is a malformed coordinate: exit 3, naming the form."""
    for value in ("bad-coord", "commons-text-1.3.jar"):
        r = run_jdx("show", "foo.Bar", "--no-jdk", "--coord", value)
        assert r.code == 3, (value, r.out, r.err)
        assert f"bad coordinate {value!r}: write group:artifact:version" in r.err and "--jars" not in r.err, r.err
