"""The §14.5 wire contract: canonical requests, generous-but-safe decoding, named refusals, never a crash."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jdx.commands.wire import (
    MAX_LINE_BYTES, WireError, WireRequest, decode_request, decode_response, encode_request, encode_response)
from jdx.errors import EXIT_USAGE, UsageError

COMMANDS = frozenset({"members", "show", "usages"})


def refused(line, commands=COMMANDS) -> WireError:
    with pytest.raises(WireError) as info:
        decode_request(line, commands)
    assert isinstance(info.value, UsageError) and info.value.exit_code == EXIT_USAGE
    return info.value


def test_the_spec_example_is_canonical():
    line = encode_request("members", "com.google.gson.Gson", {"inherited": True})
    assert line == '{"jdx":1,"command":"members","query":"com.google.gson.Gson","params":{"inherited":"true"}}\n'
    assert decode_request(line, COMMANDS) == WireRequest("members", "com.google.gson.Gson", {"inherited": "true"})


def test_params_sorted_and_values_canonical_text():
    line = encode_request("members", "java.util.HashMap", {"limit": 5, "kind": ["method", "field"], "brief": False,
                                                            "access": "public", "absent": None})
    assert line == ('{"jdx":1,"command":"members","query":"java.util.HashMap","params":'
                    '{"access":"public","brief":"false","kind":["method","field"],"limit":"5"}}\n')
    # equal requests are byte-equal whatever order the caller built them in
    assert encode_request("members", "java.util.HashMap", {"brief": False, "access": "public", "limit": 5,
                                                           "kind": ["method", "field"]}) == line


def test_typed_clients_are_canonicalised():
    req = decode_request('{"command":"members","params":{"limit":5,"inherited":true,"n":5.0,"kind":["a",2,false]}}',
                         COMMANDS)
    assert req.params == {"inherited": "true", "kind": ("a", "2", "false"), "limit": "5", "n": "5"}
    assert list(req.params) == sorted(req.params)


@pytest.mark.parametrize("line", [
    '  {"jdx":1,"command":"show","query":"a.B"}  \r\n',
    '\ufeff{"command":"show","query":"a.B"}\n',
    b'{"command":"show","query":"a.B","params":{}}\r\n',
    '{"command":"show","query":"a.B","params":null,"jdx":null}',
    '{"command":"show","query":"a.B","later":{"added":"by v1.1"}}',
])
def test_generous_where_safe(line):
    assert decode_request(line, COMMANDS) == WireRequest("show", "a.B", {})


def test_absent_query_and_params():
    assert decode_request('{"command":"show"}', COMMANDS) == WireRequest("show", "", {})


@pytest.mark.parametrize("line, code", [
    ("", "WIRE_EMPTY"),
    (" \r\n", "WIRE_EMPTY"),
    (b"\xff\xfe{}", "WIRE_ENCODING"),
    ('{"command":"show","query":"\\ud800"}', "WIRE_ENCODING"),
    ("not json", "WIRE_JSON"),
    ('{"command":"show","params":{"a":NaN}}', "WIRE_JSON"),
    ('{"command":"show","params":{"a":Infinity}}', "WIRE_JSON"),
    ("[" * 50_000, "WIRE_JSON"),
    ('{"jdx":1,"command":"sh', "WIRE_TRUNCATED"),
    ('{"jdx":1,"command":"show"', "WIRE_TRUNCATED"),
    ('{"jdx":1,"command":"show",', "WIRE_TRUNCATED"),
    ('{"jdx":tr', "WIRE_TRUNCATED"),
    ('{"command":"show"}{"command":"show"}', "WIRE_TRAILING"),
    ('{"command":"show"}\n{"command":"show"}', "WIRE_TRAILING"),
    ('{"command":"show"} x', "WIRE_TRAILING"),
    ('{"command":"show","command":"members"}', "WIRE_DUPLICATE_KEY"),
    ('{"command":"show","params":{"a":1,"a":2}}', "WIRE_DUPLICATE_KEY"),
    ("[]", "WIRE_TYPE"),
    ('"show"', "WIRE_TYPE"),
    ('{"jdx":"1","command":"show"}', "WIRE_TYPE"),
    ('{"jdx":true,"command":"show"}', "WIRE_TYPE"),
    ('{"command":5}', "WIRE_TYPE"),
    ('{"command":"show","query":["a"]}', "WIRE_TYPE"),
    ('{"command":"show","params":[]}', "WIRE_TYPE"),
    ('{"command":"show","params":{"a":{"b":1}}}', "WIRE_TYPE"),
    ('{"command":"show","params":{"a":[["b"]]}}', "WIRE_TYPE"),
    ('{"command":"show","params":{"a":[null]}}', "WIRE_TYPE"),
    ('{"command":"show","params":{"a":1e999}}', "WIRE_TYPE"),
    ('{"jdx":2,"command":"show"}', "WIRE_VERSION"),
    ('{"jdx":0,"command":"show"}', "WIRE_VERSION"),
    ('{"jdx":1}', "WIRE_MISSING_COMMAND"),
    ('{"command":""}', "WIRE_MISSING_COMMAND"),
    ('{"command":"ws"}', "WIRE_UNKNOWN_COMMAND"),
    ('{"command":"member"}', "WIRE_UNKNOWN_COMMAND"),
    ('{"command":"show","params":{"--inherited":"true"}}', "WIRE_PARAM"),
    ('{"command":"show","params":{"":"x"}}', "WIRE_PARAM"),
])
def test_strict_where_a_guess_is_dangerous(line, code):
    assert refused(line).code == code


def test_unknown_command_suggests_the_close_one():
    assert "did you mean members" in refused('{"command":"member"}').message


def test_refusal_is_an_error_envelope_code():
    err = refused('{"jdx":2,"command":"show"}')
    assert err.to_json()["code"] == "WIRE_VERSION"


def test_response_is_the_json_envelope_verbatim():
    from jdx.render import envelope
    from jdx.engine.answer import Answer

    env = envelope.success("members", "a.B", Answer({"members": ["ü"]}, provenance=[{"origin": "bytecode"}]))
    line = encode_response(env)
    assert line == envelope.dumps(env) + "\n"
    assert decode_response(line) == json.loads(line)


@pytest.mark.parametrize("line, code", [
    ('{"ok":true}', "WIRE_TYPE"), ('{"jdx":1,"ok":tr', "WIRE_TRUNCATED"), ('{"jdx":2,"ok":true}', "WIRE_VERSION"),
    (b"\x80", "WIRE_ENCODING"), ("", "WIRE_EMPTY")])
def test_bad_responses_are_named(line, code):
    with pytest.raises(WireError) as info:
        decode_response(line)
    assert info.value.code == code


def test_max_line_is_generous_for_real_requests():
    assert len(encode_request("members", "a" * 10_000)) < MAX_LINE_BYTES


# --- properties ------------------------------------------------------------------------------------

names = st.from_regex(r"[a-z][a-z0-9_-]{0,12}", fullmatch=True)
text = st.text(st.characters(exclude_categories=("Cs",)), max_size=30)
scalars = st.one_of(text, st.booleans(), st.integers(-10**12, 10**12))
values = st.one_of(scalars, st.lists(scalars, max_size=4))
requests = st.tuples(st.sampled_from(sorted(COMMANDS)), text, st.dictionaries(names, values, max_size=6))


@given(requests)
@settings(max_examples=150, deadline=None)
def test_round_trip_is_canonical(req):
    command, query, params = req
    line = encode_request(command, query, params)
    assert line.endswith("\n") and line.count("\n") == 1
    decoded = decode_request(line, COMMANDS)
    assert (decoded.command, decoded.query) == (command, query)
    assert set(decoded.params) == set(params)
    assert all(isinstance(v, str) or (isinstance(v, tuple) and all(isinstance(x, str) for x in v))
               for v in decoded.params.values())
    assert encode_request(decoded.command, decoded.query, decoded.params) == line


def _never_raises_but_wire_error(line) -> None:
    try:
        req = decode_request(line, COMMANDS)
    except WireError as exc:
        assert exc.code.startswith("WIRE_") and exc.message
        return
    assert isinstance(req, WireRequest) and req.command in COMMANDS


json_values = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), text),
                           lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                   st.dictionaries(st.one_of(text, names), inner, max_size=3)),
                           max_leaves=12)
shaped = st.fixed_dictionaries({}, optional={"jdx": json_values, "command": st.one_of(
    st.sampled_from(sorted(COMMANDS)), json_values), "query": json_values, "params": json_values, "x": json_values})


@given(st.binary(max_size=200))
@settings(max_examples=150, deadline=None)
def test_decoding_never_throws_on_bytes(data):
    _never_raises_but_wire_error(data)


@given(st.text(max_size=200))
@settings(max_examples=150, deadline=None)
def test_decoding_never_throws_on_text(data):
    _never_raises_but_wire_error(data)


@given(shaped, st.integers(0, 200), st.sampled_from(["", "\n", "\r\n", " ", "}", "{", "\x00"]))
@settings(max_examples=150, deadline=None)
def test_decoding_never_throws_on_near_requests(obj, cut, tail):
    line = json.dumps(obj, allow_nan=True)
    _never_raises_but_wire_error(line)
    _never_raises_but_wire_error(line[:cut] + tail)
    _never_raises_but_wire_error(line.encode("utf-8", "surrogatepass")[:cut] + tail.encode())
