"""`jdx help [COMMAND…]` is `jdx [COMMAND…] --help` (jdx --help points agents at `jdx help`); `help --agent` and
`help --json` print the agent cheat sheet; an unknown command is a usage error (exit 3)."""

from __future__ import annotations

import json

import pytest


@pytest.mark.parametrize("words", [[], ["members"], ["ws", "create"], ["daemon", "status"]])
def test_help_is_the_commands_help(run_jdx, words):
    asked = run_jdx("help", *words)
    direct = run_jdx(*words, "--help")
    assert asked.code == direct.code == 0, asked.err
    assert asked.out == direct.out and asked.out.startswith("Usage: jdx")


def test_help_agent_and_json(run_jdx):
    agent = run_jdx("help", "--agent")
    assert agent.code == 0 and agent.out.strip()
    env = json.loads(run_jdx("help", "--json").out)
    assert env["ok"] and env["command"] == "help" and env["result"]["commands"]


def test_help_of_an_unknown_command_is_a_usage_error(run_jdx):
    assert run_jdx("help", "nosuch").code == 3
