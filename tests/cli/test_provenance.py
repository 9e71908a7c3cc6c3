"""Every answering command states its provenance in the JSON envelope, and a `--limit` cut is explicit
(spec §3.5, §8.3): one JDK query per command, run in this process."""

from __future__ import annotations

import json

import pytest

from tests.cli import golden
from tests.fixtures import jdktool

QUERIES = [
    (["show", "java.util.HashMap"], None),
    (["members", "java.util.HashMap"], None),
    (["outline", "java.util.HashMap"], None),
    (["signature", "java.util.HashMap#put"], None),
    (["body", "java.util.HashMap#get(Object)"], None),
    (["source", "java.util.HashMap", "--lines", "1:3"], None),
    (["doc", "java.util.ArrayList#removeIf"], None),
    (["search", "HMap"], "--limit"),
    (["resolve", "HashMap"], None),
    (["imports", "java.util.Map.Entry"], None),
    (["ls", "java.util.function"], "--limit"),
    (["tree", "java.sql"], "--limit"),
    (["hierarchy", "java.util.AbstractList", "--down"], "--limit"),
    (["implementors", "java.util.Deque"], "--limit"),
    (["overrides", "java.util.AbstractList#get"], "--limit"),
    (["usages", "java.util.List#size()"], "--limit"),
    (["callers", "java.util.List#size()"], "--limit"),
    (["calls", "java.util.HashMap#put"], "--limit"),
    (["samples", "java.util.Optional#orElseGet"], "--limit"),
]


@pytest.fixture(scope="module")
def runner(jdx_env):
    with golden.in_process(jdx_env) as run:
        yield run


# every other query in the default tier, the rest in the soak (.ci/run asks every one)
@pytest.mark.parametrize("argv,limit_flag", [pytest.param(*q, marks=pytest.mark.soak) if i % 2 else q
                                             for i, q in enumerate(QUERIES)], ids=[q[0][0] for q in QUERIES])
def test_provenance_and_explicit_cuts(runner, argv, limit_flag):
    data = json.loads(runner(argv + ["--json"]).out)
    assert data["ok"], data
    assert data["provenance"], f"{argv[0]}: no provenance"
    assert all(p.get("origin") for p in data["provenance"]), data["provenance"]
    if limit_flag:
        cut = json.loads(runner(argv + [limit_flag, "1", "--json"]).out)
        t = cut["truncated"]
        assert t and t["shown"] < t["total"] and "--limit" in t["hint"], (argv[0], t)
        text = runner(argv + [limit_flag, "1"]).out
        assert f"… {t['shown']} of {t['total']} shown (" in text, text



@pytest.mark.parametrize("argv", [["body", "fx.Box#size"], ["source", "fx.Box", "--lines", "1:3"]], ids=["body", "source"])
def test_decompiled_answer_is_the_same_bytes_cold_and_cached(runner, jdx_home, argv):
    """Same input, same bytes out: whether the decompiled text came from the disk cache is not in the answer."""
    import shutil

    from tests.fixtures.build import fixtures_jar

    argv = [*argv, "--no-jdk", "--jars", str(fixtures_jar(jdx_home)), "--json"]
    shutil.rmtree(jdx_home / "cache" / "decompiled", ignore_errors=True)
    cold = runner(argv).out
    warm = runner(argv).out
    data = json.loads(cold)
    assert data["ok"] and data["result"]["origin"] == "decompiled", cold
    assert cold == warm


def test_decompiled_lines_are_labelled_and_the_class_file_s_are_given(runner, jdx_home):
    """A decompiled text's line numbers are its own, not the original file's: the provenance says so and carries
    the class file's lines (javap's LineNumberTable, what a stack trace names); `--line-numbers` says it too."""
    import re

    from tests.fixtures.build import fixtures_jar

    jar = fixtures_jar(jdx_home)
    argv = ["body", "fx.Box#size", "--no-jdk", "--jars", str(jar)]
    data = json.loads(runner(argv + ["--json"]).out)
    (prov,) = data["provenance"]
    assert prov["origin"] == "decompiled" and prov["lines_of"] == "decompiled text"
    javap = jdktool.run(["javap", "-l", "-p", "-cp", str(jar), "fx.Box"], capture_output=True, text=True,
                           check=True).stdout
    method = javap[javap.index(" size("):]
    table = method[method.index("LineNumberTable:"):method.index("LocalVariableTable:")
                   if "LocalVariableTable:" in method else None].split("\n\n")[0]
    lines = [int(n) for n in re.findall(r"line (\d+):", table)]
    assert prov["class_file_lines"] == [min(lines), max(lines)]
    text = runner(argv + ["--line-numbers"]).out.splitlines()
    assert text[2] == (f"line numbers: of the decompiled text; the class file's are {min(lines)}-{max(lines)} "
                       "(what stack traces show)")


def test_a_whole_workspace_answer_names_the_jdk_once(run_jdx):
    """`cypher 'RETURN 1'` may draw on any artifact: its provenance listed each of the JDK's ~70 modules (4 KB of an
    MCP answer's structured content, a trial); the JDK is one entry counting them, the other artifacts one each."""
    env = json.loads(run_jdx("cypher", "RETURN 1 AS x", "--json").out)
    modules = [a for a in json.loads(run_jdx("ws", "info", "--json").out)["result"]["artifacts"] if a["kind"] == "jrt"]
    (jdk,) = env["provenance"]
    assert jdk["modules"] == len(modules) > 50 and jdk["origin"] == "bytecode", jdk
    assert jdk["artifact"] == f"the JDK's {len(modules)} modules ({modules[0]['name']} … {modules[-1]['name']})"
