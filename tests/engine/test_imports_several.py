"""`imports` defects trial agents found: one name a call, where a file needs the imports of several (`jdx imports List
Map ImmutableList`: one block, each name's notes and errors after it, the worst outcome the exit code, spec §16); a
private nested type (or a type inside one, or a static member of one) printed as an import javac refuses ("Secret has
private access in Outer").

Oracle: javac compiles a class of another package under the printed block that uses every name (or rejects the
statement jdx refuses); fixtures compiled by javac at test time, in a workspace without the JDK (fast)."""

from __future__ import annotations

import hashlib
import json
import subprocess

import pytest

from jdx.engine.imports import imports
from jdx.engine.imports_block import imports_block
from jdx.errors import UsageError
from tests.fixtures import jdktool
from tests.fixtures.javac import compiled_jar, jar_service

SOURCES = {
    "ms/a/Outer.java": "package ms.a;\npublic class Outer {\n"
                       "  private static class Secret { public static int peek() { return 1; } }\n"
                       "  private static class Box { public static class Pub { } }\n"
                       "  public static class Open { }\n}\n",
    "ms/a/Tool.java": "package ms.a;\npublic class Tool {\n"
                      "  public static int max(int a, int b) { return a; }\n  public static final int LIMIT = 1;\n}\n",
    "ms/b/List.java": "package ms.b;\npublic class List { }\n",
    "ms/c/List.java": "package ms.c;\npublic class List { }\n",
    "ms/c/Widget.java": "package ms.c;\npublic class Widget { }\n",
}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root, jar, _classes = compiled_jar(tmp_path_factory, "imports_several", SOURCES, "ms", "ms.jar")
    return root, jar


@pytest.fixture(scope="module")
def store(built, jdx_home):
    with jar_service(built[1], jdx_home) as svc:
        yield svc.store()


def _javac(built, statements: list[str], uses: str = "", package: str = "q") -> subprocess.CompletedProcess:
    """Compile one class of `package` under `statements` whose method body is `uses`."""
    root, jar = built
    name = "U" + hashlib.sha1(repr((statements, uses, package)).encode()).hexdigest()[:10]
    src = root / "use" / name / package.replace(".", "/")
    src.mkdir(parents=True, exist_ok=True)
    (src / f"{name}.java").write_text(f"package {package};\n" + "\n".join(statements)
                                      + f"\nclass {name} {{ void use() {{ {uses} }} }}\n")
    return jdktool.run(["javac", "-cp", str(jar), "-d", str(root / "use" / name / "out"), str(src / f"{name}.java")],
                       capture_output=True, text=True)


# --- a private nested type ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, statement, said", [
    ("ms.a.Outer.Secret", "import ms.a.Outer.Secret;", "ms.a.Outer$Secret is private"),
    ("Secret", "import ms.a.Outer.Secret;", "ms.a.Outer$Secret is private"),
    ("ms.a.Outer.Box.Pub", "import ms.a.Outer.Box.Pub;", "inside ms.a.Outer$Box, which is private"),
    ("ms.a.Outer.Secret#peek", "import static ms.a.Outer.Secret.peek;", "ms.a.Outer$Secret is private"),
])
def test_a_type_inside_a_private_one_is_refused_as_javac_refuses_it(store, built, text, statement, said):
    with pytest.raises(UsageError) as refused:
        imports(store, text)
    assert said in refused.value.message and "no import can name it" in refused.value.message, refused.value.message
    assert "only code inside ms.a.Outer can use it" in refused.value.message
    for package in ("q", "ms.a"):  # not even in its own package
        javac = _javac(built, [statement], package=package)
        assert javac.returncode != 0 and "has private access in Outer" in javac.stderr, javac.stderr


def test_a_public_nested_type_still_imports(store, built):
    answer, _ = imports(store, "Outer.Open")
    assert answer["imports"][0]["statement"] == "import ms.a.Outer.Open;"
    assert _javac(built, ["import ms.a.Outer.Open;"], "new Open();").returncode == 0


# --- several names: one block ---------------------------------------------------------------------------------------

def test_several_names_give_one_sorted_block_that_compiles(store, built):
    result, _warnings, code = imports_block(store, ["Widget", "Tool#max", "Outer.Open", "Tool#LIMIT", "Widget",
                                                    "ms.b.List"])
    assert code == 0
    assert result["statements"] == ["import static ms.a.Tool.LIMIT;", "import static ms.a.Tool.max;",
                                    "import ms.a.Outer.Open;", "import ms.b.List;", "import ms.c.Widget;"]
    assert [n["name"] for n in result["names"]] == ["Widget", "Tool#max", "Outer.Open", "Tool#LIMIT", "ms.b.List"]
    javac = _javac(built, result["statements"], "new Widget(); new Open(); new List(); int x = max(LIMIT, 2);")
    assert javac.returncode == 0, javac.stderr


@pytest.mark.parametrize("names, code, failed", [  # (Outer.Open: in no package of a List, which stays ambiguous)
    (["Outer.Open", "Nope"], 1, {"Nope": "NOT_FOUND"}),
    (["Outer.Open", "List", "Nope"], 2, {"List": "AMBIGUOUS", "Nope": "NOT_FOUND"}),
    (["Nope", "Outer.Open", "Secret", "List"], 3, {"Nope": "NOT_FOUND", "Secret": "USAGE", "List": "AMBIGUOUS"}),
])
def test_the_worst_name_decides_the_exit_code_and_the_found_ones_still_import(store, built, names, code, failed):
    result, warnings, exit_code = imports_block(store, names)
    assert exit_code == code
    assert result["statements"] == ["import ms.a.Outer.Open;"]
    assert {n["name"]: n["error"]["code"] for n in result["names"] if "error" in n} == failed
    assert [w.message.split(":", 1)[0] for w in warnings if w.code == "IMPORT_UNRESOLVED"] == \
        [n for n in names if n in failed]
    if "List" in failed:
        listed = next(n for n in result["names"] if n["name"] == "List")
        assert [c["ref"] for c in listed["candidates"]] == ["ms.b.List", "ms.c.List"]
    assert _javac(built, result["statements"], "new Open();").returncode == 0


def test_one_simple_name_from_two_places_keeps_the_first_asked(store, built):
    result, _warnings, code = imports_block(store, ["ms.c.List", "ms.b.List"])
    assert code == 0 and result["clashes"] == [["import ms.c.List;", "import ms.b.List;"]]
    assert result["statements"] == ["// import ms.b.List;  // clashes with import ms.c.List; (one simple name): write "
                                    "ms.b.List qualified", "import ms.c.List;"]
    both = _javac(built, ["import ms.b.List;", "import ms.c.List;"])  # what was printed before: javac refuses it
    assert both.returncode != 0 and "already defined" in both.stderr, both.stderr
    javac = _javac(built, result["statements"], "new List(); new ms.b.List();")
    assert javac.returncode == 0, javac.stderr


# --- through the adapters: the CLI's words, its JSON, MCP's array -----------------------------------------------------

@pytest.fixture(scope="module")
def run(built, jdx_env):
    from tests.serve_support import cli, cli_env

    with cli_env(jdx_env):
        yield lambda *argv: cli(["-q", "--no-jdk", "--jars", str(built[1]), "imports", *argv])


def test_the_cli_takes_several_names_and_prints_the_block_first(run, built):
    text = run("Widget", "Tool#max", "Nope", "Outer.Open")
    assert text.code == 1, text
    lines = text.out.splitlines()
    assert lines[:3] == ["import static ms.a.Tool.max;", "import ms.a.Outer.Open;", "import ms.c.Widget;"]
    assert "// Nope:" in lines and "//   not found: Nope" in lines
    code = [line for line in lines if not line.startswith("⚠ ")]  # the CLI's warning lines (commands/execute.py)
    javac = _javac(built, code, "new Widget(); new Open(); max(1, 2);")
    assert javac.returncode == 0, javac.stderr
    assert run("Widget").out == "import ms.c.Widget;\n  // from ms.jar\n"  # one name: the answer it always was


def test_json_lists_each_name_and_its_exit_code_is_what_a_daemon_reports(run):
    from jdx.errors import exit_code_of

    answer = run("Outer.Open", "List", "--json")
    env = json.loads(answer.out)
    assert answer.code == 2 and exit_code_of(env) == 2  # a daemon's client and HTTP read the envelope's
    assert env["ok"] and env["query"] == "Outer.Open List"
    assert env["result"]["statements"] == ["import ms.a.Outer.Open;"]
    assert [w["code"] for w in env["warnings"]] == ["IMPORT_UNRESOLVED"]  # ok, and partial
    assert [n["name"] for n in env["result"]["names"]] == ["Outer.Open", "List"]
    assert env["result"]["names"][1]["error"]["code"] == "AMBIGUOUS"


def test_mcp_takes_the_names_as_an_array(run, built, jdx_env):
    from jdx.cli.main import split_globals
    from jdx.commands.execute import served
    from jdx.commands.host import Host, answer_with_workspace
    from jdx.commands.registry import command
    from jdx.commands.session import Options as SessionOptions
    from jdx.commands.session import Session
    from jdx.mcp.tools import call_tool, input_schema
    from tests.serve_support import cli_env

    assert input_schema(command("imports").request)["properties"]["names"]["type"] == "array"
    with cli_env(jdx_env):
        g, _ = split_globals(["--no-jdk", "--jars", str(built[1])])
        host = Host(g.workspace_key(), answer=answer_with_workspace,
                    session_factory=lambda: Session(SessionOptions(jars=g.jars, jdk=g.jdk)))
        try:
            answer = call_tool(served(host.execute), "jdx_imports", {"names": ["Widget", "Tool#max", "Nope"]})
        finally:
            host.close()
    cli_json = json.loads(run("Widget", "Tool#max", "Nope", "--json").out)
    assert answer.structured["result"] == cli_json["result"]
    assert answer.structured["result"]["statements"] == ["import static ms.a.Tool.max;", "import ms.c.Widget;"]


def test_the_cli_words_after_the_first_are_all_names():
    from jdx.commands.argv import parse_words
    from jdx.commands.registry import command

    assert parse_words(command("imports"), ["List", "Map", "ImmutableList", "--brief"]) == (
        "List", {"brief": "true", "names": ["Map", "ImmutableList"]})


def test_no_name_is_a_usage_error(run):
    refused = run()
    assert refused.code == 3 and "imports needs a type" in refused.err, refused
