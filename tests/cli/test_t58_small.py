"""Small things an agent meets first: `jdx --version`, a fuzzy search's miss not suggesting --fuzzy again."""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)


def test_version_flag_answers_as_the_version_command(run_jdx):
    flag, command = run_jdx("--version"), run_jdx("version")
    assert flag.code == 0 and flag.out == command.out and flag.out.startswith("jdx ")
    assert json.loads(run_jdx("--version", "--json").out)["result"]["jdx"]


def test_a_fuzzy_miss_does_not_suggest_fuzzy(run_jdx):
    plain = json.loads(run_jdx("search", "zzzqqqxxw", "--json").out)
    fuzzy = json.loads(run_jdx("search", "zzzqqqxxw", "--fuzzy", "--json").out)
    assert "--fuzzy" in plain["error"]["hint"] and "--fuzzy" not in fuzzy["error"]["hint"], fuzzy
