"""The command registry: every command's flags round-trip through the one parser, the request types validate,
and the CLI polish that comes with it (generic --max-lines, --timeout, batch line numbers, help --agent)."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys

import pytest

from jdx.commands.argv import parse_words
from jdx.commands.registry import build_request, canonical_params, params_of, registry
from jdx.errors import UsageError


def _sample_value(p):
    if p.kind == "bool":
        return not p.default
    if p.kind == "int":
        return (p.minimum or 0) + 7
    if p.kind == "list":
        return tuple(p.choices[:2]) if p.choices else ("a*", "b*")
    return p.choices[0] if p.choices else "x.Y"


def _more_positionals(cmd) -> dict:
    """Values for positional operands after the query (diff's NEW)."""
    return {p.name: ("x.Z",) if p.kind == "list" else "x.Z" for p in params_of(cmd.request)
            if not p.flag and p.name != "query"}


def _words(request) -> list[str]:
    words = [request.query] if request.query else []
    for p in params_of(type(request)):
        if not p.flag and p.name != "query":
            value = getattr(request, p.name)
            words += list(value) if p.kind == "list" else [value]
    for p in params_of(type(request)):
        if not p.flag:
            continue
        value = getattr(request, p.name)
        if value == p.default:
            continue
        if p.kind == "bool":
            words.append(p.flag if value else p.negative)
        elif p.kind == "list":
            for v in value:
                words += [p.flag, v]
        else:
            words.append(f"{p.flag}={value}")
    return words


@pytest.mark.parametrize("cmd", registry(), ids=lambda c: c.name)
def test_each_flag_round_trips_through_the_parser(cmd):
    """For every field: a request with that field changed prints as words that parse back to it."""
    params = params_of(cmd.request)
    query = "x.Y" if any(not p.flag for p in params) else ""
    for p in params:
        if not p.flag or (p.kind == "bool" and p.default and not p.negative):
            continue
        try:
            request = cmd.request(query=query, **_more_positionals(cmd), **{p.name: _sample_value(p)})
        except UsageError:
            continue  # a value the command refuses on its own (e.g. --brief with --with-doc)
        q, parsed = parse_words(cmd, _words(request))
        assert build_request(cmd, q, parsed) == request, p.flag
        assert parsed == canonical_params(request), p.flag


@pytest.mark.parametrize("words, message", [
    (["members", "java.util.Map", "--static", "--instance"], "--static and --instance exclude each other"),
    (["members", "java.util.Map", "--brief", "--with-doc"], "--brief and --with-doc exclude each other"),
    (["members", "java.util.Map", "--kind", "klass"], "--kind 'klass': use method|field|ctor|constructor|all"),
    (["members", "java.util.Map", "--max-lines", "0"], "--max-lines must be at least 1"),
    (["members", "java.util.Map", "--max-lines", "many"], "--max-lines takes a whole number, got 'many'"),
    (["members", "java.util.Map", "--grepp", "x"], "members: no such option --grepp (did you mean --grep?)"),
    (["members", "java.util.Map", "java.util.List"], "members takes one TYPE"),
    (["members"], "missing TYPE"),
    (["hierarchy", "java.util.Map", "--direct", "--depth", "2"], "--direct and --depth exclude each other"),
    (["version", "extra"], "version takes no argument"),
    (["diff", "a.jar"], "diff takes OLD NEW (missing NEW)"),
    (["diff"], "diff takes OLD NEW (missing OLD NEW)"),
    (["diff", "a.jar", "b.jar", "c.jar"], "diff takes OLD NEW (got one more: 'c.jar')"),
    (["diff", "a.jar", "b.jar", "--fail-on", "maybe"], "--fail-on 'maybe': use none|breaking|any"),
    (["source", "java.util.Map", "--context", "3"], "--context goes with --around <member>"),
])
def test_requests_refuse_what_they_cannot_mean(words, message):
    cmd = next(c for c in registry() if c.name == words[0])
    with pytest.raises(UsageError) as err:
        q, params = parse_words(cmd, words[1:])
        build_request(cmd, q, params)
    assert message in err.value.message


def test_generic_max_lines_cuts_whole_lines_and_says_how_to_see_more(run_jdx):
    full = run_jdx("ls", "java.util.function", "--max-lines", "100000")
    cut = run_jdx("ls", "java.util.function", "--max-lines", "3")
    assert full.code == cut.code == 0 and "shown" not in full.out
    lines = cut.out.splitlines()
    assert lines[:3] == full.out.splitlines()[:3]
    assert lines[3] == f"… 3 of {len(full.out.splitlines())} lines shown " \
                      f"(--max-lines {len(full.out.splitlines())} for all)"


# a 1 ms alarm can land between a file's open and its `with` (reading the JDK's `release`): the handle it leaks in
# this in-process run is the timeout's doing, not a leak of the command's
@pytest.mark.filterwarnings("ignore::ResourceWarning", "ignore::pytest.PytestUnraisableExceptionWarning")
def test_timeout_is_a_named_error(run_jdx):
    r = run_jdx("usages", "java.util.List#size()", "--timeout", "1ms", "--json")
    env = json.loads(r.out)
    assert (r.code, env["ok"], env["error"]["code"]) == (6, False, "TIMEOUT"), r
    bad = run_jdx("members", "java.util.Map", "--timeout", "soon")
    assert bad.code == 3 and "--timeout 'soon'" in bad.err


def test_timeout_swallowed_by_a_broad_except_is_still_a_timeout(run_jdx, monkeypatch):
    """The alarm may land in code that recovers from any exception; the command still ran out of time."""
    import time

    from jdx.commands import execute

    real = execute.run_request

    def swallowing(*args, **kwargs):
        try:
            time.sleep(0.2)
        except Exception:  # noqa: BLE001 - what a cache probe or an optional read does
            pass
        return real(*args, **kwargs)

    monkeypatch.setattr(execute, "run_request", swallowing)
    r = run_jdx("members", "java.util.Map", "--timeout", "20ms", "--json")
    env = json.loads(r.out)
    assert (r.code, env["ok"], env["error"]["code"]) == (6, False, "TIMEOUT"), r


def test_batch_errors_name_their_line(run_jdx):
    r = run_jdx("batch", stdin="members java.util.Map --max-lines 2\n\nmembers java.util.Map --bogus\n"
                               "frobnicate x\n")
    assert r.code == 0
    assert "error: line 3: members: no such option --bogus" in r.err
    assert "error: line 4: 'frobnicate' is not a query command" in r.err
    # a failing wire line's envelope names its command and query, as a server's does
    r = run_jdx("batch", "--json", stdin='{"command":"show"}\n'
                '{"command":"members","query":"java.util.Map","params":{"declared":"true"}}\n')
    first, second = (json.loads(line) for line in r.out.splitlines())
    assert (first["command"], first["error"]["message"]) == ("show", "line 1: missing TYPE"), first
    assert (second["command"], second["query"]) == ("members", "java.util.Map"), second
    assert second["error"]["message"] == "line 2: members: unknown option --declared (send inherited=false)"


def test_a_batch_line_with_json_answers_as_json(run_jdx):
    """A line's own `--json` (an agent mixing formats per line) was ignored: text came back where JSON was asked.
    The JSON line is the one-shot command line's envelope; the text line after it stays text."""
    r = run_jdx("batch", stdin="members java.util.Map --limit 2 --json\nmembers java.util.Map --limit 1\n")
    assert r.code == 0, r.err
    lines = r.out.splitlines()
    env = json.loads(lines[0])
    one = json.loads(run_jdx("members", "java.util.Map", "--limit", "2", "--json").out)
    assert env == one
    assert "members of java.util.Map" in lines, lines


def test_help_agent_lists_every_command_with_its_example(run_jdx):
    r = run_jdx("help", "--agent")
    assert r.code == 0
    for cmd in registry():
        assert cmd.example in r.out
    data = json.loads(run_jdx("help", "--agent", "--json").out)
    assert [c["command"] for c in data["result"]["commands"]] == [c.name for c in registry()]


def test_global_flags_are_in_help(run_jdx):
    for args in (["--help"], ["members", "--help"], ["export", "--help"], ["cache", "gc", "--help"],
                 ["ws", "create", "--help"], ["daemon", "start", "--help"]):
        r = run_jdx(*args)
        assert r.code == 0 and "--jars" in r.out and "--no-daemon" in r.out and "--json" in r.out, args


def test_each_command_names_its_home_module():
    """`registry.HOMES` says which module defines each command (`command` imports that one alone): it must name every
    command of the registry, and the module that defines it."""
    from jdx.commands import registry as reg

    homes = {}
    for module in reg.MODULES:
        for c in importlib.import_module(module).COMMANDS:
            homes[c.name] = module.rsplit(".", 1)[1]
    assert reg.HOMES == homes
    assert [reg.command(name) for name in homes] == [c for c in reg.registry() if c.name in homes]


def test_finding_one_command_imports_its_module_alone():
    code = ("import sys; from jdx.commands import registry; c = registry.command('usages'); "
            "print(c.name, sorted(m for m in sys.modules if m.startswith('jdx.commands.') and m not in "
            "('jdx.commands.registry', 'jdx.commands.wire')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split(" ", 1)
    assert out[0] == "usages"
    assert out[1].strip() == "['jdx.commands.graph']"


def test_help_names_the_values_a_flag_takes():
    """A flag taking one of a few values shows them in `--help` (they were `TEXT`): every such flag of every command."""
    import click

    from jdx.cli.generated import click_command

    for cmd in registry():
        command = click_command(cmd)
        text = " ".join(command.get_help(click.Context(command, info_name=cmd.name)).split())
        for p in params_of(cmd.request):
            values = p.choices or p.accepts
            if p.flag and values:
                assert f"{p.flag} [{'|'.join(values)}]" in text, (cmd.name, p.flag, text)
