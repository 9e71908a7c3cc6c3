"""Adapter parity (spec §14.5, §18): every registry command answers the same bytes, text and JSON, through the
CLI in process, the CLI as a client of a running daemon, and `batch` (command lines and wire-contract lines).

One parametrised test over the registry, not per-adapter goldens: the cases cover every command on the wire,
and each case is compared across adapters, so a command added to the registry without a case fails here.
"""

from __future__ import annotations

import contextlib
import io
import json
import shutil
import tempfile
from pathlib import Path

import pytest

from jdx.commands import wire
from jdx.commands.argv import parse_words
from jdx.commands.registry import command, wire_commands
from tests.conftest import Run
from tests.fixtures.build import fixtures_jar
from tests.fixtures.build_graph import graph_jar

# one or more questions per command on fixtures.jar + graph.jar (no JDK: a small graph of its own)
CASES = [
    ["show", "fx.Box"],
    ["members", "fx.Dog", "--max-lines", "5"],
    ["members", "fx.Dog", "--limit", "2"],
    ["members", "fx.Box", "--declared", "--kind", "method", "--sort", "name"],
    ["outline", "fx.Outer", "--include-synthetic"],
    ["outline", "fx.Dog", "--from", "fx.Animal", "--limit", "3", "--max-lines", "4"],
    ["signature", "fx.Box#compareTo"],
    ["signature", "fx.Boxx#size"],
    ["signature", "fx.Box#compareTo", "--include-synthetic", "--limit", "1"],
    ["hierarchy", "gx.Shape", "--down"],
    ["implementors", "gx.Shape"],
    ["overrides", "gx.Shape#area"],
    ["usages", "gx.Counter#count", "--kind", "call"],
    ["usages", "gx.Counter#count", "--kind", "call", "--view", "jvm"],
    ["usages", "gx.Shape", "--kind", "signature"],
    ["callers", "gx.Ping#ping", "--depth", "3"],
    ["callers", "gx.Ping#ping", "--depth", "3", "--brief"],
    ["calls", "gx.Client#lambdas", "--external-only"],
    ["search", "Bx", "--kind", "class"],
    ["search", "Bx", "--kind", "class", "--view", "jvm"],
    ["search", "box", "--value"],
    ["resolve", "Box.size"],
    ["imports", "Inner"],
    ["imports", "Inner", "fx.Box#LIMIT", "fx.Boxx", "fx.Box"],
    ["ls", "fx", "--counts"],
    ["tree", "--depth", "2"],
    ["body", "fx.Box#size"],
    ["source", "fx.Box", "--lines", "1:5"],
    ["doc", "fx.Box#size"],
    ["samples", "gx.Counter#count", "--limit", "2"],
    ["samples", "gx.Counter#count", "--in", "graph-fixtures*", "--exclude", "java.*"],
    ["cypher", "MATCH (t:Type) WHERE t.fqn STARTS WITH 'gx.S' RETURN t.fqn ORDER BY t.fqn"],
    ["cypher", "MATCH (t:Type) RETURN t.fqn ORDER BY t.fqn", "--limit", "3"],
    ["cypher", "MATCH (t:Type) WHERE t.fqn = $n RETURN t.fqn, t.kind", "--param", "n=gx.Shape"],
    ["tree", "graph-fixtures", "--depth", "1"],
    ["version"],
    ["doctor"],
    ["schema"],
    ["diff", "{fixtures}", "{graph}", "--limit", "5"],
    ["diff", "{fixtures}", "{graph}", "--grep", "^gx\\.S", "--limit", "3"],
    ["diff", "{fixtures}", "{fixtures}"],
    ["members", "fx.Box", "--grepp", "x"],
]


@pytest.fixture(scope="module")
def workspace(jdx_home) -> list[str]:
    return ["--no-jdk", "--jars", str(fixtures_jar(jdx_home)), "--jars", str(graph_jar(jdx_home))]


@pytest.fixture(scope="module")
def adapters(jdx_env, workspace):
    """Runs of one argv through each adapter, in this process, with a private daemon runtime dir."""
    from jdx.cli.main import main, split_globals

    runtime = Path(tempfile.mkdtemp(prefix="jdxp-", dir="/tmp"))
    mp = pytest.MonkeyPatch()
    for var in ("JDX_CACHE_DIR", "JDX_CONFIG_DIR"):
        mp.setenv(var, jdx_env[var])
    mp.setenv("JDX_RUNTIME_DIR", str(runtime / "run"))
    for var in ("JDX_WORKSPACE", "JDX_GRAPH_BACKEND"):
        mp.delenv(var, raising=False)

    def call(argv: list[str], stdin: str | None = None, daemon: bool = False) -> Run:
        out, err = io.StringIO(), io.StringIO()
        with pytest.MonkeyPatch.context() as inner:
            if daemon:
                inner.delenv("JDX_NO_DAEMON", raising=False)
            else:
                inner.setenv("JDX_NO_DAEMON", "1")
            if stdin is not None:
                inner.setattr("sys.stdin", io.StringIO(stdin))
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                code = main(argv)
        return Run(code, out.getvalue(), err.getvalue())

    g, _ = split_globals(workspace)
    # built once up front: a build prints its phases on stderr in process, while a daemon builds silently
    assert call([*workspace, "-q", "index"]).code == 0
    yield call, g
    call(["daemon", "stop", *workspace])
    mp.undo()
    shutil.rmtree(runtime, ignore_errors=True)


def _batch_answer(run: Run) -> Run:
    """One batch line's answer without the line batch prints after it in text mode ("" or "(exit N)")."""
    lines = run.out.split("\n")
    if len(lines) >= 2 and (lines[-2] == "" or lines[-2].startswith("(exit ")):
        kept = lines[:-2]
        return Run(run.code, "\n".join(kept) + "\n" if kept else "", run.err)
    return run


def test_cases_cover_every_command_on_the_wire():
    assert {c[0] for c in CASES} == wire_commands() - {"health"}


JSON_SAMPLE = {"show", "usages", "cypher", "doctor", "diff", "signature"}  # --json of the rest: soak
FIRST_CASE = {c[0]: i for i, c in reversed(list(enumerate(CASES)))}  # command -> index of its first case


def _in_default_tier(i: int, fmt: str) -> bool:
    """The default tier asks each command's first case as text, and as JSON for JSON_SAMPLE; the soak asks all."""
    return FIRST_CASE[CASES[i][0]] == i and (fmt == "text" or CASES[i][0] in JSON_SAMPLE)


PARAMS = [pytest.param(case, fmt, id=f"{' '.join(case)[:60]}-{fmt}",
                       marks=() if _in_default_tier(i, fmt) else pytest.mark.soak)
          for fmt in ("text", "json") for i, case in enumerate(CASES)]


@pytest.mark.parametrize("case,fmt", PARAMS)
def test_same_bytes_through_every_adapter(adapters, workspace, case, fmt, jdx_home):
    call, g = adapters
    jars = {"{fixtures}": str(fixtures_jar(jdx_home)), "{graph}": str(graph_jar(jdx_home))}
    case = [jars.get(w, w) for w in case]
    extra = ["--json"] if fmt == "json" else []
    here = call([*workspace, *case, *extra])
    via_daemon = call([*workspace, *case, *extra], daemon=True)
    line = " ".join(_quote(w) for w in case)
    batch = _batch_answer(call([*workspace, "batch", *extra], stdin=line + "\n"))
    assert here.out or here.err, case
    assert (via_daemon.out, via_daemon.err, via_daemon.code) == (here.out, here.err, here.code), case
    # batch names the input line of an error ("line 1: "); otherwise the same bytes
    assert (batch.out.replace("line 1: ", ""), batch.err.replace("line 1: ", "")) == (here.out, here.err), case
    cmd = command(case[0])
    try:
        query, params = parse_words(cmd, case[1:])
    except Exception:  # noqa: BLE001 - a refused command line has no wire form
        return
    wired = _batch_answer(call([*workspace, "batch", *extra], stdin=wire.encode_request(case[0], query, params)
                               + "\n"))
    assert wired.out == here.out, case


def test_answers_really_came_from_the_daemon(adapters, workspace):
    call, _ = adapters
    call([*workspace, "show", "fx.Box"], daemon=True)
    status = json.loads(call([*workspace, "daemon", "status", "--json"]).out)
    assert status["ok"] and status["result"]["queries"] >= 1, status


def _quote(word: str) -> str:
    import shlex

    return shlex.quote(word)
