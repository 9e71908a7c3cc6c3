"""Trial T62 (MCP over jts-core and RoaringBitmap): what a tool call is refused, how much text it answers, and what
its words promise.

* A value of a JSON type its argument never takes is refused for every argument alike, as the wire refuses a query
  that is not text (`jdx_hierarchy {"include": 5}` was read as the glob "5"); text stays good for every argument
  (the wire's canonical form, HTTP's query strings), a batch line's typed params are checked as MCP's arguments.
* `jdx_source` and `jdx_body` of a whole class were ~100 KB of text plus as much structured content: a call that
  names no max_lines gets 400 lines, text and structured result alike, the cut stated with what shows the rest.
* The text says where the structured content holds what the CLI's `--json` holds (`… 27 more JDK internals`).
* Descriptions claim the errors each tool can give (cypher: USAGE and CYPHER_REFUSED, not NOT_FOUND), and no next
  step a server cannot take (diff's `--jars NEW`).

Oracles: a 600-line class compiled by javac at test time, its source file and the CLI's own `--json` answer; the
registry's own request checks behind a fake session; the cypher guard's own refusal.
"""

from __future__ import annotations

import json
import shutil
import threading

import pytest

from tests.fixtures.javac import javac_jar
from tests.serve_support import FakeSession, cli, cli_env

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)

METHODS = 150  # 4 lines each: a class of ~600 lines, past the default of 400


def big_source() -> str:
    body = "".join(f"    public int m{i:03d}(int x) {{\n        return x + {i};\n    }}\n\n" for i in range(METHODS))
    return f"package big;\n\npublic class Big {{\n{body}}}\n"


SMALL = "package big;\n\npublic class Small {\n    public int one() {\n        return 1;\n    }\n}\n"


@pytest.fixture(scope="module")
def big(tmp_path_factory, jdx_env):
    """`(ask, run, lines)`: tool calls over an in-process Host on the compiled `big` classes and their sources, the
    CLI on the same workspace, and Big.java's lines."""
    if shutil.which("javac") is None:
        pytest.skip("javac is not installed")
    from jdx.cli.main import split_globals
    from jdx.commands.execute import served
    from jdx.commands.host import Host, answer_with_workspace
    from jdx.mcp.tools import call_tool

    root = tmp_path_factory.mktemp("t62big")
    _, classes = javac_jar(root, {"big/Big.java": big_source(), "big/Small.java": SMALL}, "big", "big.jar")
    ws = ["--no-jdk", "--jars", str(classes), "--src", str(root / "src")]
    with cli_env(jdx_env):
        g, _ = split_globals(ws)
        host = Host(g.workspace_key(), answer=answer_with_workspace)
        try:
            yield ((lambda tool, args: call_tool(served(host.execute), tool, args)), (lambda argv: cli([*ws, *argv])),
                   big_source().splitlines())
        finally:
            host.close()


def cli_json(run, *argv) -> dict:
    return json.loads(run([*argv, "--json"]).out)


def test_oracle_the_class_is_past_the_default(big):
    _, run, lines = big
    env = cli_json(run, "source", "big.Big")
    assert env["ok"] and env["result"]["text"] == lines and len(lines) > 400  # the CLI's answer is whole
    assert env["truncated"] is None


def test_source_without_max_lines_is_cut_at_400_in_text_and_structure(big):
    ask, run, lines = big
    got = ask("jdx_source", {"query": "big.Big"})
    total = len(lines)
    assert not got.is_error, got.text
    want = cli_json(run, "source", "big.Big")["result"]
    assert got.structured["result"] == {**want, "text": lines[:400]}
    hint = f"max_lines {total} for all; lines 401:{total} for the rest, or around a member"
    assert got.structured["truncated"] == {"shown": 400, "total": total, "hint": hint}
    text = got.text.splitlines()
    assert f"… 400 of {total} shown ({hint})" in text
    assert lines[399] in text and "m099" in got.text and "m100" not in got.text  # line 400 shown, 401 on cut
    assert len(got.text) < 20_000 and len(json.dumps(got.structured)) < 20_000
    rest = ask("jdx_source", {"query": "big.Big", "lines": f"401:{total}"})  # what the hint says shows the rest
    assert rest.structured["result"]["text"] == lines[400:] and rest.structured["truncated"] is None


def test_max_lines_cuts_the_structured_result_as_the_text(big):
    ask, run, lines = big
    got = ask("jdx_source", {"query": "big.Big", "max_lines": 10})
    assert got.structured["result"]["text"] == lines[:10]
    assert got.structured["truncated"]["shown"] == 10 and got.structured["truncated"]["total"] == len(lines)
    whole = ask("jdx_source", {"query": "big.Big", "max_lines": 10_000})
    assert whole.structured["result"] == cli_json(run, "source", "big.Big")["result"]
    assert whole.structured["truncated"] is None
    small = ask("jdx_source", {"query": "big.Small"})
    assert small.structured["result"] == cli_json(run, "source", "big.Small")["result"]
    assert small.structured["truncated"] is None and "shown" not in small.text


def test_body_of_a_whole_class_is_cut_too(big):
    ask, run, _ = big
    want = cli_json(run, "body", "big.Big")["result"]
    total = len(want["text"])
    assert total > 400
    got = ask("jdx_body", {"query": "big.Big"})
    assert got.structured["result"] == {**want, "text": want["text"][:400]}
    assert got.structured["truncated"] == {"shown": 400, "total": total, "hint": f"max_lines {total} for all"}
    assert f"… 400 of {total} shown (max_lines {total} for all)" in got.text.splitlines()
    member = ask("jdx_body", {"query": "big.Big#m001(int)"})
    assert member.structured["result"] == cli_json(run, "body", "big.Big#m001(int)")["result"]


def test_the_schemas_and_descriptions_state_the_default_cut():
    from jdx.mcp.tools import tool_specs

    specs = {s.name: s for s in tool_specs()}
    for name in ("jdx_source", "jdx_body"):
        prop = specs[name].input_schema["properties"]["max_lines"]
        assert prop["default"] == 400 and "default 400" in prop["description"], prop
        assert "Text past 400 lines is cut unless max_lines says otherwise" in specs[name].description
    assert "around a member" in specs["jdx_source"].description
    assert "default" not in specs["jdx_members"].input_schema["properties"]["max_lines"]


@pytest.fixture
def fake():
    """`call_tool` and an HTTP server over one fake Host whose answer runs the registry's own request checks (then
    answers NOT_FOUND), or raises the error a test puts in `raising`."""
    from jdx.commands import registry
    from jdx.commands.execute import failure, served
    from jdx.commands.host import Host
    from jdx.errors import JdxError, NotFoundError
    from jdx.http.server import make_server
    from jdx.mcp.tools import call_tool

    raising: list[JdxError] = []

    def answer(session, command, query, params):
        try:
            registry.build_request(registry.command(command), query, params)
            if raising:
                raise raising[0]
        except JdxError as exc:
            return failure(command, query, exc).envelope
        return failure(command, query, NotFoundError(f"not found: {query}")).envelope

    commands = frozenset({"members", "hierarchy", "usages", "cypher"})
    host = Host({}, session_factory=FakeSession, answer=answer, commands=commands)
    server = make_server(host.execute, commands | {"workspace"}, "127.0.0.1", 0)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    try:
        yield (lambda tool, args: call_tool(served(host.execute), tool, args)), server.server_address[1], raising
    finally:
        server.shutdown()
        server.server_close()
        host.close()


@pytest.mark.parametrize("tool, args, message", [
    ("jdx_hierarchy", {"include": 5}, "include: expected text or a list of texts, got a number"),
    ("jdx_hierarchy", {"include": ["gx*", 5]},
     "include: expected text or a list of texts, got a list holding a number"),
    ("jdx_hierarchy", {"exclude": True}, "exclude: expected text or a list of texts, got a boolean"),
    ("jdx_members", {"inherited": 1}, "inherited: expected true or false, got a number"),
    ("jdx_members", {"limit": True}, "limit: expected a whole number, got a boolean"),
    ("jdx_members", {"limit": [5]}, "limit: expected a whole number, got a list"),
    ("jdx_members", {"grep": 7}, "grep: expected text, got a number"),
    ("jdx_members", {"kind": ["method"]}, "kind: expected text, got a list"),
    ("jdx_members", {"access": 1}, "access: expected text or a list of texts, got a number"),
])
def test_a_value_of_the_wrong_json_type_is_refused(fake, tool, args, message):
    import http.client

    ask, port, _ = fake
    got = ask(tool, {"query": "a.B", **args})
    assert got.is_error and got.structured["error"] == {"code": "USAGE", "message": message}, got.text
    assert got.text == f"USAGE: {message}"
    line = json.dumps({"command": tool.removeprefix("jdx_"), "query": "a.B", "params": args})
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("POST", "/v1/batch", body=line.encode() + b"\n")
    answer = json.loads(conn.getresponse().read())
    conn.close()
    assert answer["error"] == {"code": "USAGE", "message": message}  # a batch line's params, as MCP's arguments


@pytest.mark.parametrize("tool, args, query_string", [
    ("jdx_hierarchy", {"include": "5"}, "include=5"),  # text: the glob it says
    ("jdx_hierarchy", {"include": ["a*", "b*"]}, "include=a*&include=b*"),
    ("jdx_members", {"limit": "3", "inherited": "false"}, "limit=3&inherited=false"),  # the wire's canonical text
    ("jdx_members", {"limit": 3, "inherited": False, "access": ["public"]}, "limit=3&inherited=false&access=public"),
    ("jdx_members", {"limit": 2.5}, "limit=2.5"),  # a fraction: the CLI's own message, as HTTP's
    ("jdx_usages", {"context": 0, "kind": "call"}, "context=0&kind=call"),
])
def test_values_of_a_right_type_and_text_are_read_as_http_reads_them(fake, tool, args, query_string):
    import http.client

    ask, port, _ = fake
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", f"/v1/{tool.removeprefix('jdx_')}?query=a.B&{query_string}")
    want = json.loads(conn.getresponse().read())["error"]
    conn.close()
    got = ask(tool, {"query": "a.B", **args})
    assert got.structured["error"] == want
    assert "expected" not in want["message"]


def test_more_candidates_than_the_text_lists_are_in_the_structured_content(fake):
    from jdx.errors import AmbiguousError, Warning_
    from jdx.render.envelope import CANDIDATE_LINES, MAX_TEXT_WARNINGS

    ask, _, raising = fake
    candidates = [{"ref": f"jdk.internal.x{i}.Node", "artifact": "java.base", "jdk_internal": True}
                  for i in range(CANDIDATE_LINES + 5)]
    warnings = [Warning_("W_TEST", f"warning {i}") for i in range(MAX_TEXT_WARNINGS + 2)]
    raising.append(AmbiguousError("ambiguous: 15 candidates for Node", candidates=candidates, warnings=warnings))
    got = ask("jdx_members", {"query": "Node"})
    assert got.is_error and len(got.structured["candidates"]) == len(candidates)
    assert "  … 5 more JDK internals (structuredContent lists every candidate)" in got.text.splitlines()
    assert "… 2 more warnings (structuredContent shows all)" in got.text.splitlines()
    assert "--json" not in got.text


def test_descriptions_claim_the_errors_each_tool_gives_and_steps_a_server_takes(fake):
    from jdx.errors import JdxError
    from jdx.graph_schema.cypher_guard import check_read_only
    from jdx.mcp.tools import tool_specs

    specs = {s.name: s.description for s in tool_specs()}
    cypher = specs["jdx_cypher"]
    assert "NOT_FOUND" not in cypher and "AMBIGUOUS" not in cypher
    ask, _, raising = fake
    with pytest.raises(JdxError) as refused:
        check_read_only("CREATE (t:Type) RETURN t")
    raising.append(refused.value)
    got = ask("jdx_cypher", {"query": "CREATE (t:Type) RETURN t"})
    assert got.text.startswith(f"{refused.value.code}: ") and refused.value.code in cypher
    assert "USAGE" in cypher
    diff = specs["jdx_diff"]
    assert "NOT_FOUND" not in diff and "ARTIFACT_READ_ERROR" in diff
    assert "with --jars NEW" not in diff and "jdx mcp --jars NEW" in diff
    assert "NOT_FOUND lists near matches" in specs["jdx_members"]
    assert specs["jdx_version"].endswith("starts with the code.")


def test_an_error_message_does_not_repeat_its_code(tmp_path, jdx_env):
    """A diff of a jar that is not there: the CLI prints `error: …: no such file (ARTIFACT_READ_ERROR)`; MCP's
    structured error has the code as its own field, its message and text name it once."""
    from jdx.commands.execute import served
    from jdx.commands.host import Host, answer_with_workspace
    from jdx.commands.session import Options, Session
    from jdx.mcp.tools import call_tool

    missing = str(tmp_path / "nonexistent.jar")
    with cli_env(jdx_env):
        cli_env_json = json.loads(cli(["diff", missing, missing, "--json"]).out)
        host = Host({}, answer=answer_with_workspace,
                    session_factory=lambda: Session(Options(jars=[], cache_dir=str(tmp_path / "cache"))))
        try:
            got = call_tool(served(host.execute), "jdx_diff", {"query": missing, "new": missing})
        finally:
            host.close()
    want = cli_env_json["error"]
    assert want["message"] == f"{missing}: no such file (ARTIFACT_READ_ERROR)"  # the CLI's, as it was
    assert got.structured["error"] == {**want, "message": f"{missing}: no such file"}
    assert got.text == f"ARTIFACT_READ_ERROR: {missing}: no such file"
