"""The CLI contract: exit codes (spec §16), the JSON envelope (§8.2), global flags anywhere, determinism."""

from __future__ import annotations

import json
import os
import re
import sys
import textwrap
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from tests.conftest import GSON, require
from tests.fixtures import jdktool


def envelope(out: str) -> dict:
    data = json.loads(out)
    assert data["jdx"] == 1
    assert set(data) >= {"jdx", "ok", "command", "query", "warnings"}
    return data


def test_version_text_and_json(run_jdx):
    r = run_jdx("version")
    assert r.code == 0 and r.out.startswith("jdx ")
    j = envelope(run_jdx("version", "--json").out)
    assert j["ok"] and j["result"]["graph_backend"] == "kuzu"


def test_global_flags_before_or_after_the_command(run_jdx):
    a = run_jdx("--json", "version")
    b = run_jdx("version", "--json")
    assert a.code == b.code == 0 and a.out == b.out


@pytest.mark.parametrize("args", [["frobnicate"], ["members"], ["members", "X", "--no-such-flag"], ["--jars"]])
def test_usage_errors_exit_3_in_one_line(run_jdx, args):
    r = run_jdx(*args)
    assert r.code == 3, (r.out, r.err)
    assert "Traceback" not in r.err + r.out
    assert len(r.err.strip().splitlines()) == 1


def test_usage_error_as_json_envelope(run_jdx):
    r = run_jdx("frobnicate", "--json")
    data = envelope(r.out)
    assert r.code == 3 and data["ok"] is False and data["error"]["code"] == "USAGE"


def test_members_of_hashmap_reads_like_completion(run_jdx):
    r = run_jdx("members", "java.util.HashMap")
    assert r.code == 0, r.err
    lines = r.out.splitlines()
    assert lines[0] == "members of java.util.HashMap"
    assert "  method public V get(Object)" in lines
    assert "  method public V put(K, V)" in lines
    assert "  constructor public HashMap(int, float)" in lines
    assert "inherited from java.util.AbstractMap" in lines
    assert any(line.startswith("+ ") and "from java.lang.Object (--from java.lang.Object" in line for line in lines)
    assert not any("lambda$" in line or "access$" in line for line in lines)
    assert run_jdx("members", "java.util.HashMap").out == r.out  # same input, same bytes


def test_members_json_carries_refs(run_jdx):
    r = run_jdx("members", "java.util.ArrayList", "--json", "--kind", "method")
    data = envelope(r.out)
    assert data["ok"] and data["provenance"][0]["origin"] == "bytecode"
    members = data["result"]["members"]
    assert members and all({"ref", "kind", "declaring"} <= set(m) for m in members)
    refs = {m["ref"] for m in members}
    assert "java.util.ArrayList#add(java.lang.Object)" in refs
    assert all(m["kind"] == "method" for m in members)


def test_not_found_exits_1_with_did_you_mean(run_jdx):
    r = run_jdx("members", "java.util.HashMpa")
    assert r.code == 1
    assert "did you mean" in r.out and "java.util.HashMap" in r.out


def test_ambiguous_short_name_exits_2_with_candidates(run_jdx):
    r = run_jdx("members", "List", "--json")
    data = envelope(r.out)
    assert r.code == 2 and data["error"]["code"] == "AMBIGUOUS"
    refs = [c["ref"] for c in data["candidates"]]
    assert "java.util.List" in refs and "java.awt.List" in refs


def test_members_filters(run_jdx):
    r = run_jdx("members", "java.util.HashMap", "--declared", "--grep", "^put", "--brief")
    assert r.code == 0
    assert r.out.splitlines()[:3] == ["method public V put(K, V)", "method public void putAll(Map<? extends K, ? extends V>)",
                                      "method public V putIfAbsent(K, V)"]
    r = run_jdx("members", "java.util.HashMap", "--from", "java.lang.Object", "--kind", "method")
    assert "method public final native Class<?> getClass()" in r.out
    r = run_jdx("members", "java.util.HashMap", "--max-lines", "3")
    shown = len([x for x in r.out.splitlines() if x.startswith("  ")])
    assert shown <= 3
    assert f"… {shown} of" in r.out and "--grep" in r.out  # the cut counts members, as the footer does


def test_cypher_is_read_only(run_jdx):
    r = run_jdx("cypher", "CREATE (p:Package {id: 'x', name: 'x'})")
    assert r.code == 3 and "read-only" in r.err
    r = run_jdx("cypher", "MATCH (n) RETURN")
    assert r.code == 3 and "Traceback" not in r.err


def test_cypher_table_and_json(run_jdx):
    q = "MATCH (t:Type {id: 'java/util/HashMap'})-[:EXTENDS]->(s:Type) RETURN s.fqn AS super"
    r = run_jdx("cypher", q)
    assert r.code == 0 and r.out.splitlines() == ["super", "java.util.AbstractMap", "1 row"]
    data = envelope(run_jdx("cypher", q, "--json").out)
    assert data["result"] == {"columns": ["super"], "types": ["STRING"], "rows": [{"super": "java.util.AbstractMap"}],
                              "total": 1}


def test_cypher_rows_are_bounded_and_the_cut_stated(run_jdx):
    """Like every query command, `cypher` prints 50 rows by default and says how many there are and how to see
    them: a broad MATCH never floods an agent's context."""
    q = "MATCH (m:Method) WHERE m.owner = 'java/lang/String' RETURN m.name ORDER BY m.name"
    count = envelope(run_jdx("cypher", q.replace("RETURN m.name ORDER BY m.name", "RETURN count(*) AS n"),
                             "--json").out)["result"]["rows"][0]["n"]
    data = envelope(run_jdx("cypher", q, "--json").out)
    assert count > 50 and len(data["result"]["rows"]) == 50 and data["result"]["total"] == count
    assert data["truncated"] == {"shown": 50, "total": count, "hint": f"--limit {count}, or LIMIT/SKIP in the query"}
    r = run_jdx("cypher", q, "--limit", "3")
    assert r.out.splitlines()[1:4] == [row["m.name"] for row in data["result"]["rows"][:3]]
    assert r.out.splitlines()[-1] == f"… 3 of {count} shown (--limit {count}, or LIMIT/SKIP in the query)"
    whole = envelope(run_jdx("cypher", q, "--limit", str(count), "--json").out)
    assert len(whole["result"]["rows"]) == count and whole["truncated"] is None


@pytest.mark.soak
def test_gson_workspace_export_is_an_arrow_dataset(run_jdx, tmp_path):
    require(GSON)
    r = run_jdx("export", str(tmp_path / "out"), "--no-jdk", "--jars", str(GSON), "--json")
    assert r.code == 0, r.err
    tables = envelope(r.out)["result"]["tables"]
    types = pq.read_table(tmp_path / "out" / "Type.parquet")
    assert types.num_rows == tables["Type"] > 100
    assert "com.google.gson.Gson" in types.column("fqn").to_pylist()
    invokes = pq.read_table(tmp_path / "out" / "INVOKES.parquet")
    assert invokes.num_rows == tables["INVOKES"] > 1000
    assert set(invokes.column_names) >= {"from", "to", "line", "kind", "via"}
    symbols = pq.read_table(tmp_path / "out" / "search_symbols.parquet")  # the search index, ranked
    assert symbols.num_rows == tables["search_symbols"] > 1000 and {"name", "owner", "rank"} <= set(symbols.column_names)
    assert "Gson" in pq.read_table(tmp_path / "out" / "search_names.parquet").column("name").to_pylist()


@pytest.mark.soak
def test_workspaces_roundtrip(run_jdx, tmp_path):
    require(GSON)
    assert run_jdx("ws", "create", "wsgson", "--jars", str(GSON), "--no-jdk").code == 0
    assert run_jdx("ws", "create", "wsgson").code == 3  # exists
    assert "workspace wsgson" in run_jdx("ws", "list").out
    r = run_jdx("-w", "wsgson", "members", "com.google.gson.JsonArray", "--declared", "--kind", "ctor")
    assert r.code == 0 and "constructor public JsonArray()" in r.out
    assert run_jdx("ws", "use", "wsgson").code == 0
    info = envelope(run_jdx("ws", "info", "--json").out)
    assert info["result"]["how"] == "ws use" and info["result"]["artifacts"][0]["name"] == "gson.jar"
    named = run_jdx("ws", "info", "wsgson")  # named here, neither -w nor ws use (it said `via -w`)
    assert named.code == 0 and named.out.startswith("workspace wsgson  via ws info NAME"), named.out
    assert envelope(run_jdx("-w", "wsgson", "ws", "info", "--json").out)["result"]["how"] == "-w"
    assert run_jdx("ws", "remove", "wsgson").code == 0
    assert run_jdx("-w", "wsgson", "members", "X").code == 4
    assert "wsgson" not in run_jdx("ws", "list").out


def test_workspace_paths_that_do_not_exist_warn(run_jdx, tmp_path):
    """A workspace may name a path before it exists (a class directory not built yet), never silently."""
    missing = tmp_path / "nothere.jar"
    r = run_jdx("ws", "create", "wsmissing", "--jars", str(missing), "--json")
    try:
        env = envelope(r.out)
        assert r.code == 0 and [w["code"] for w in env["warnings"]] == ["ARTIFACT_READ_ERROR"], r.out
        assert str(missing) in env["warnings"][0]["message"]
        r = run_jdx("ws", "add", "wsmissing", str(tmp_path / "also-missing"), "--json")
        assert r.code == 0 and "also-missing" in envelope(r.out)["warnings"][0]["message"], r.out
        r = run_jdx("ws", "add", "wsmissing", str(tmp_path), "--json")
        assert r.code == 0 and envelope(r.out)["warnings"] == [], r.out
        assert run_jdx("ws", "add", "wsmissing", str(tmp_path)).code == 3  # already a root
        assert run_jdx("ws", "add", "wsmissing", "").code == 3  # an unset variable, never the current directory
        # every query fails (exit 5) while a root is missing: info and doctor say so, the hint names the file
        info = envelope(run_jdx("ws", "info", "wsmissing", "--json").out)["result"]
        assert not info["indexed"] and any("nothere.jar" in u for u in info["unreadable"]), info
        r = run_jdx("-w", "wsmissing", "doctor", "--json")
        roots = [c for c in envelope(r.out)["result"]["checks"] if c["check"] == "roots"]
        assert roots and not roots[0]["ok"] and "nothere.jar" in roots[0]["detail"], r.out
        r = run_jdx("-w", "wsmissing", "show", "java.util.Map", "--json")
        assert r.code == 5 and "wsmissing.toml" in envelope(r.out)["error"]["hint"], r.out
        assert run_jdx("ws", "use", "wsmissing").code == 0
        r = run_jdx("ws", "remove", "wsmissing", "--json")
        assert [w["code"] for w in envelope(r.out)["warnings"]] == ["WORKSPACE_DEFAULT_REMOVED"], r.out
    finally:
        run_jdx("ws", "remove", "wsmissing")


def test_a_workspace_is_not_created_with_an_empty_root(run_jdx):
    r = run_jdx("ws", "create", "wsempty", "--jars", "")
    assert r.code == 3 and "empty path" in r.err, r.err
    assert "wsempty" not in run_jdx("ws", "list").out

@pytest.mark.soak  # slow: the soak runs it (.ci/run)

def test_index_reports_counts(run_jdx):
    require(GSON)
    data = envelope(run_jdx("index", "--no-jdk", "--jars", str(GSON), "--json").out)
    r = data["result"]
    assert r["artifacts"] == 1 and r["classes"] > 100 and r["members"] > r["classes"] and r["edges"] > r["members"]
    again = envelope(run_jdx("index", "--no-jdk", "--jars", str(GSON), "--json").out)["result"]
    assert again["built"] is False and again["extracted"] == 0 and again["classes"] == r["classes"]


@pytest.mark.soak  # slow: the soak runs it (.ci/run)
def test_cache_info_and_gc_dry_run(run_jdx):
    assert run_jdx("index", "--no-jdk", "--jars", str(require(GSON))).code == 0
    data = envelope(run_jdx("cache", "info", "--json").out)["result"]
    assert data["shards"] >= 1 and data["total_bytes"] > 0
    gc = envelope(run_jdx("cache", "gc", "--dry-run", "--json").out)["result"]
    assert gc["dry_run"] is True
    assert envelope(run_jdx("cache", "info", "--json").out)["result"]["shards"] == data["shards"]
    assert "over_cap" not in data  # under the default 4 GB cap
    # over a 1 MB cap, the graphs just used stay: info says so, and how to free them now
    over = run_jdx("cache", "info", env={"JDX_GRAPH_CACHE_MB": "1"})
    assert over.code == 0 and re.search(r"^over_cap: [1-9]\d* graph\(s\) used in the last 10 minutes are kept over the "
                                        r"cap.*jdx cache gc --older-than 0$", over.out, re.M), over.out


def test_doctor_reports_the_environment(run_jdx):
    r = run_jdx("doctor")
    assert r.code == 0 and "jvm" in r.out and "asm" in r.out


def test_doctor_names_the_decompilers_found_and_what_without_one(run_jdx):
    """T92: doctor said nothing of decompilers; `body` was the first to say Vineflower is not installed."""
    from jdx.loaders.decompile import available_engines

    found = available_engines()
    line = next(x for x in run_jdx("doctor").out.splitlines() if " decompiler: " in x)
    assert line.startswith("  ok ") == bool(found) and all(f"{n} {v} ({jar})" in line for n, v, jar in found), line
    none = next(x for x in run_jdx("doctor", env={"JDX_DECOMPILER": "none"}).out.splitlines() if " decompiler: " in x)
    assert none.startswith("  MISS ") and "procyon not found" in none and "javap's bytecode" in none, none


def test_no_jvm_exits_4_naming_what_to_install(run_jdx, tmp_path):
    require(GSON)
    env = {"PATH": str(Path(sys.executable).parent), "JAVA_HOME": "", "JDX_CACHE_DIR": str(tmp_path / "c")}
    r = run_jdx("index", "--no-jdk", "--jars", str(GSON), env=env)
    assert r.code == 4
    assert "JDK" in r.err and "JAVA_HOME" in r.err and "Traceback" not in r.err


@pytest.mark.soak
def test_generic_substitution_down_the_chain(run_jdx, tmp_path):
    src = tmp_path / "src" / "demo"
    src.mkdir(parents=True)
    (src / "StringList.java").write_text(textwrap.dedent("""
        package demo;
        public class StringList extends java.util.ArrayList<String> {
            public String first() { return get(0); }
        }
    """))
    classes = tmp_path / "classes"
    jdktool.run(["javac", "-d", str(classes), str(src / "StringList.java")], check=True)
    r = run_jdx("members", "demo.StringList", "--jars", str(classes), "--kind", "method", "--grep", "^(add|get|first)$")
    assert r.code == 0, r.err
    assert "  method public boolean add(String)" in r.out
    assert "  method public String get(int)" in r.out
    assert "  method public String first()" in r.out


def test_python_api(jdx_home):
    import jdx

    with jdx.open(cache_dir=str(jdx_home / "cache")) as ws:
        table = ws.cypher("MATCH (t:Type {id: $id}) RETURN t.kind AS kind", {"id": "java/util/Map"})
        assert table.to_pylist() == [{"kind": "interface"}]
        assert os.path.isfile(ws.service.store().path)


@pytest.mark.soak  # slow: the soak runs it (.ci/run)
def test_batch_answers_every_line_from_one_process(run_jdx):
    lines = "\n".join([
        "members java.util.HashMap --declared --grep ^put --brief",
        "members java.util.NoSuchThing",
        "frobnicate",
        "# a comment",
        "cypher \"MATCH (t:Type {id: 'java/util/Map'}) RETURN t.kind AS kind\"",
        "members java.util.HashMap --declared --grep ^put --brief",
    ])
    r = run_jdx("batch", "--json", stdin=lines + "\n")
    assert r.code == 0, r.err
    results = [json.loads(x) for x in r.out.splitlines()]
    assert [x["ok"] for x in results] == [True, False, False, True, True]
    assert results[1]["error"]["code"] == "NOT_FOUND" and results[1]["query"] == "java.util.NoSuchThing"
    assert results[2]["error"]["code"] == "USAGE"
    assert results[3]["result"]["rows"] == [{"kind": "interface"}]
    assert results[0] == results[4]
    single = run_jdx("members", "java.util.HashMap", "--declared", "--grep", "^put", "--brief", "--json")
    assert json.loads(single.out) == results[0]  # batch and one-shot answer byte-identically


@pytest.mark.soak
def test_cache_clear_empties_derived_caches(run_jdx, jdx_home, tmp_path):
    """Parses of sources (and decompiled classes, archive indexes) live in the cache too: info counts them,
    clear removes them."""
    from tests.fixtures.build_sources import build_layouts

    lay = build_layouts(jdx_home)
    env = {"JDX_CACHE_DIR": str(tmp_path / "c")}
    r = run_jdx("body", "sx.Dog#fetch", "--jars", str(lay.paired), "--no-jdk", env=env)
    assert r.code == 0, r.out + r.err
    assert (tmp_path / "c" / "srcmap").exists() and (tmp_path / "c" / "archives.json").exists()
    info = envelope(run_jdx("cache", "info", "--json", env=env).out)["result"]
    assert info["derived_bytes"] > 0
    assert run_jdx("cache", "clear", env=env).code == 0
    assert not (tmp_path / "c" / "srcmap").exists() and not (tmp_path / "c" / "shards").exists()
    assert not (tmp_path / "c" / "archives.json").exists()
    assert envelope(run_jdx("cache", "info", "--json", env=env).out)["result"]["derived_bytes"] == 0


def test_comma_separated_jars_are_one_missing_path_and_the_hint_says_why(run_jdx, tmp_path):
    r = run_jdx("show", "a.B", "--no-jdk", "--jars", f"{tmp_path}/a.jar,{tmp_path}/b.jar")
    assert r.code == 5 and "hint: separate jars with ':' (a classpath) or repeat --jars" in r.err, r.err


def test_unwritable_export_target_and_a_cache_dir_that_is_a_file_are_named(run_jdx, tmp_path):
    """Never an internal error: an export place that cannot be made is a usage error (exit 3), JDX_CACHE_DIR naming
    a file an environment error (exit 4) that doctor shows too."""
    blocker = tmp_path / "file"
    blocker.write_text("x")
    r = run_jdx("export", str(blocker / "sub"), "--json")
    assert r.code == 3 and "cannot write the export" in envelope(r.out)["error"]["message"], r.out
    env = {"JDX_CACHE_DIR": str(blocker)}
    r = run_jdx("members", "java.util.Map", "--json", env=env)
    assert r.code == 4 and "is a file, not a directory" in envelope(r.out)["error"]["message"], r.out
    r = run_jdx("doctor", "--json", env=env)
    (cache,) = [c for c in envelope(r.out)["result"]["checks"] if c["check"] == "cache dir"]
    assert r.code == 4 and not cache["ok"], r.out
