"""`jdx diff` as a command: bad input (exit 5 naming the artifact, usage errors exit 3), the same jar twice, a
class directory against a jar, an artifact with no classes, the --fail-on gate, --json, --limit/--severity cuts,
--out Parquet, determinism, and a run in an empty directory that creates no workspace."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from tests.fixtures.build import write_jar

ROOT = Path(__file__).resolve().parents[2]


def _json(diff, *args) -> tuple[int, dict]:
    code, text = diff(*args, "--json")
    return code, json.loads(text)


def test_same_jar_twice_is_an_empty_diff(diff, diff_jars):
    code, env = _json(diff, str(diff_jars[0]), str(diff_jars[0]))
    assert code == 0 and env["ok"] and env["result"]["total"] == 0
    assert [w["code"] for w in env["warnings"]] == ["SAME_ARTIFACT"]
    code, text = diff(str(diff_jars[0]), str(diff_jars[0]))
    assert "no API differences" in text and "0 breaking · 0 suspicious · 0 informational" in text


def test_missing_artifact_is_exit_5_naming_it(diff, diff_jars, tmp_path):
    missing = tmp_path / "nope-1.0.jar"
    code, text = diff(str(diff_jars[0]), str(missing))
    assert code == 5 and str(missing) in text and text.startswith("error:")
    code, env = _json(diff, str(missing), str(diff_jars[0]))
    assert code == 5 and env["error"]["code"] == "ARTIFACT_READ_ERROR" and str(missing) in env["error"]["message"]
    code, text = diff(str(tmp_path / "*.jar"), str(diff_jars[0]))
    assert code == 5 and "no jar matches" in text


def test_corrupt_jar_is_exit_5_naming_it(diff, diff_jars, tmp_path):
    bad = tmp_path / "corrupt-2.0.jar"
    bad.write_bytes(b"PK\x03\x04 this is not a zip archive" * 10)
    code, text = diff(str(diff_jars[0]), str(bad))
    assert code == 5 and "corrupt-2.0.jar" in text, text
    assert "Traceback" not in text


def test_corrupt_jar_with_a_cached_shard_is_exit_5_on_either_side(diff, diff_jars, jdx_home, tmp_path, monkeypatch):
    """A query's workspace build caches the shard of a jar it cannot read (its failure kept as a warning); a diff
    reading that shard must still refuse, never report the other side's every type as added or removed."""
    from jdx.cli.main import main as cli_main

    bad = tmp_path / "garbage-3.0.jar"
    bad.write_text("garbage\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("JDX_NO_DAEMON", "1")  # answered in this process: no daemon outlives the test
    cli_main(["show", "p_member_removed.R", "--jars", str(bad), "--jars", str(diff_jars[0]), "--json", "--no-jdk",
              "--cache-dir", str(jdx_home / "cache")])
    for old, new in ((bad, diff_jars[0]), (diff_jars[0], bad)):
        code, text = diff(str(old), str(new))
        assert code == 5 and text.startswith("error: cannot read") and str(bad) in text, text
        assert len(text.splitlines()) == 1 and text.endswith("(ARTIFACT_READ_ERROR)"), text
        code, env = _json(diff, str(old), str(new))
        assert code == 5 and not env["ok"] and env["error"]["code"] == "ARTIFACT_READ_ERROR", env
        assert str(bad) in env["error"]["message"] and "result" not in env


def test_class_directory_against_its_own_jar(diff, diff_suite, diff_jars):
    code, env = _json(diff, str(diff_suite.root / "new"), str(diff_jars[1]))
    assert code == 0 and env["result"]["total"] == 0, env["result"]["findings"][:5]
    assert env["result"]["old"]["artifacts"][0]["kind"] == "dir"
    assert env["result"]["new"]["artifacts"][0]["kind"] == "jar"


def test_artifact_without_classes(diff, diff_jars, tmp_path):
    empty = tmp_path / "resources-only.jar"
    write_jar(empty, {"README.txt": b"no classes here"})
    code, env = _json(diff, str(diff_jars[0]), str(empty))
    assert code == 0
    assert "EMPTY_ARTIFACT" in [w["code"] for w in env["warnings"]]
    rules = {f["rule"] for f in env["result"]["findings"]}
    assert rules == {"TYPE_REMOVED"} and env["result"]["counts"]["types_removed"] == env["result"]["total"]
    (tmp_path / "empty-dir").mkdir()
    code, env = _json(diff, str(tmp_path / "empty-dir"), str(tmp_path / "empty-dir"))
    assert code == 0 and env["result"]["total"] == 0 and "EMPTY_ARTIFACT" in [w["code"] for w in env["warnings"]]


def test_fail_on_gate(diff, diff_jars):
    old, new = map(str, diff_jars)
    code, env = _json(diff, old, new, "--fail-on", "breaking")
    assert code == 1 and env["ok"] and env["result"]["gate"] == {"fail_on": "breaking", "failed": True}
    code, env = _json(diff, old, new)
    assert code == 0 and env["result"]["gate"] == {"fail_on": "none", "failed": False}
    code, env = _json(diff, old, old, "--fail-on", "any")
    assert code == 0 and env["result"]["gate"]["failed"] is False
    code, text = diff(old, new, "--fail-on", "any")
    assert code == 1 and "gate --fail-on any: failed" in text


def test_usage_errors_exit_3(diff, diff_jars):
    old, new = map(str, diff_jars)
    for args in (["--severity", "loud"], ["--fail-on", "maybe"], ["--visibility", "private"], ["--limit", "-1"]):
        code, text = diff(old, new, *args)
        assert code == 3, (args, text)
        assert args[0] in text


def test_cuts_keep_the_whole_tally(diff, diff_jars):
    old, new = map(str, diff_jars)
    _, full = _json(diff, old, new)
    _, cut = _json(diff, old, new, "--severity", "breaking", "--limit", "3")
    assert cut["result"]["counts"] == full["result"]["counts"]
    assert cut["result"]["shown"] == 3 and all(f["severity"] == "breaking" for f in cut["result"]["findings"])
    assert cut["truncated"] == {"shown": 3, "total": full["result"]["counts"]["breaking"],
                                "hint": f"--limit {full['result']['counts']['breaking']}"}
    severities = [f["severity"] for f in full["result"]["findings"]]
    assert severities == sorted(severities, key=["breaking", "suspicious", "info"].index)
    code, text = diff(old, new, "--severity", "breaking", "--limit", "3")
    total = full["result"]["counts"]["breaking"]
    assert f"… 3 of {total} shown (--limit {total} for all)" in text and "below --severity breaking hidden" in text
    first = text.splitlines()[0]
    assert first == "api diff old.jar -> new.jar (public surface)"


def test_severity_info_is_the_least_severe_so_everything(diff, diff_jars):
    """Findings print `info`; an agent filtering by it sees every finding, as `--severity all` shows them."""
    old, new = map(str, diff_jars)
    (code, info), (_, every) = _json(diff, old, new, "--severity", "info"), _json(diff, old, new, "--severity", "all")
    assert code == 0 and info["result"]["findings"] == every["result"]["findings"]
    assert info["result"]["shown"] == every["result"]["shown"] == sum(every["result"]["counts"][s]
                                                                      for s in ("breaking", "suspicious", "info"))
    assert any(f["severity"] == "info" for f in every["result"]["findings"])


def test_json_is_deterministic_and_complete(diff, diff_jars):
    old, new = map(str, diff_jars)
    _, a = diff(old, new, "--json")
    _, b = diff(old, new, "--json")
    assert a == b
    env = json.loads(a)
    assert env["jdx"] == 1 and env["command"] == "diff"
    assert {p["origin"] for p in env["provenance"]} == {"bytecode"}
    f = env["result"]["findings"][0]
    assert set(f) == {"rule", "severity", "symbol", "kind", "old", "new", "detail", "id"}


def test_out_writes_every_finding_as_parquet(diff, diff_jars, tmp_path):
    old, new = map(str, diff_jars)
    code, env = _json(diff, old, new, "--out", str(tmp_path / "out"), "--limit", "1")
    table = pq.read_table(tmp_path / "out" / "findings.parquet")
    assert code == 0 and table.num_rows == env["result"]["total"] == env["result"]["out"]["rows"]
    assert table.column_names == ["rule", "severity", "symbol", "kind", "old", "new", "detail", "id", "unresolved"]
    (tmp_path / "file").write_text("x")
    code, _ = diff(old, new, "--out", str(tmp_path / "file"))
    assert code == 3


def test_runs_in_an_empty_directory_without_a_workspace(diff_jars, jdx_env, tmp_path):
    cwd = tmp_path / "empty"
    cwd.mkdir()
    config = tmp_path / "config"
    env = {**jdx_env, "PYTHONPATH": str(ROOT), "JDX_CONFIG_DIR": str(config)}
    proc = subprocess.run([sys.executable, "-m", "jdx", "diff", *map(str, diff_jars), "--severity", "breaking"],
                          cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "breaking  MEMBER_REMOVED  p_member_removed.R#gone()" in proc.stdout
    assert os.listdir(cwd) == [] and not config.exists()


def test_wire_request_answers_like_the_cli(diff, diff_jars, jdx_home):
    """MCP/HTTP/daemon dispatch (`query` = OLD, params `new` = NEW) gives the CLI's envelope, byte for byte."""
    from jdx.commands.execute import answer_request
    from jdx.commands.registry import canonical_params, command
    from jdx.commands.session import Options, Session
    from jdx.render import envelope

    old, new = map(str, diff_jars)
    _, cli = diff(old, new, "--json", "--severity", "breaking")
    session = Session(Options(cache_dir=str(jdx_home / "cache")))
    wire = answer_request(session, "diff", old, {"new": new, "severity": "breaking"})
    assert envelope.dumps(wire.envelope) == cli and wire.exit_code == 0
    request = command("diff").request(query=old, new=new, severity="breaking")
    assert canonical_params(request) == {"new": new, "severity": "breaking"}
    missing = answer_request(session, "diff", old, {})
    assert missing.exit_code == 3 and "NEW" in missing.envelope["error"]["message"]


def test_maven_coordinates_from_the_local_repository(diff):
    m2 = Path.home() / ".m2" / "repository" / "commons-io" / "commons-io"
    if not (m2 / "2.11.0" / "commons-io-2.11.0.jar").is_file() or not (m2 / "2.22.0").is_dir():
        pytest.skip(f"commons-io 2.11.0 and 2.22.0 are not in {m2.parent.parent}")
    code, env = _json(diff, "commons-io:commons-io:2.11.0", "commons-io:commons-io:2.22.0", "--limit", "0")
    assert code == 0 and env["result"]["old"]["name"] == "commons-io-2.11.0.jar" and env["result"]["total"] > 0
    code, text = diff("commons-io:commons-io:2.11.0", "commons-io:commons-io:0.0.0-none")
    assert code == 5 and "commons-io:commons-io:0.0.0-none: not in the local Maven repository" in text


def test_sides_read_as_query_roots_are_read(diff, diff_jars, tmp_path):
    """A side whose existing path holds `[` is that path, not a glob; a glob side matches a .war as a named path
    does (jdx.loaders.roots.is_glob, is_archive, as --jars reads them)."""
    import shutil

    folder = tmp_path / "proj [copy]"
    folder.mkdir()
    old, new = folder / "old.jar", tmp_path / "new.war"
    shutil.copy(diff_jars[0], old)
    shutil.copy(diff_jars[1], new)
    want = _json(diff, str(diff_jars[0]), str(diff_jars[1]))[1]["result"]["findings"]
    code, env = _json(diff, str(old), str(tmp_path / "*.war"))
    assert code == 0 and env["result"]["findings"] == want, env.get("error")
