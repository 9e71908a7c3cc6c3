"""Every wire command of the registry crosses the §14.5 wire intact: its example, parsed as the CLI parses it,
encoded, decoded and built into a request, is the request the CLI builds in process."""

from __future__ import annotations

import shlex

import pytest

from jdx.cli.main import split_globals
from jdx.commands.argv import parse_words
from jdx.commands.registry import build_request, canonical_params, params_of, registry, wire_commands
from jdx.commands.wire import PARAM_NAME, decode_request, encode_request

WIRE = [c for c in registry() if c.wire]


def test_the_wire_carries_the_spec_commands_and_not_the_state_changing_ones():
    names = wire_commands()
    assert {"members", "show", "usages", "health"} <= names
    assert not names & {"ws", "cache", "index", "daemon", "batch", "export"}


@pytest.mark.parametrize("cmd", WIRE, ids=lambda c: c.name)
def test_every_flag_name_is_a_wire_param_name(cmd):
    assert all(PARAM_NAME.match(p.name) for p in params_of(cmd.request) if p.flag)


@pytest.mark.parametrize("cmd", WIRE, ids=lambda c: c.name)
def test_the_example_crosses_the_wire_unchanged(cmd):
    words = shlex.split(cmd.example)
    assert words[:2] == ["jdx", cmd.name], cmd.example
    _globals, rest = split_globals(words[2:])
    query, params = parse_words(cmd, rest)
    here = build_request(cmd, query, params)
    line = encode_request(cmd.name, query, params)
    wire = decode_request(line, wire_commands())
    assert (wire.command, wire.query) == (cmd.name, query)
    assert build_request(cmd, wire.query, wire.params) == here
    # and back: a request's canonical params (what MCP/HTTP adapters send) rebuild the same request
    again = decode_request(encode_request(cmd.name, query, canonical_params(here)), wire_commands())
    assert build_request(cmd, again.query, again.params) == here
