"""`jdx ws list` says per workspace, on one line (and in --json), what it holds: its roots counted by kind (jars,
class dirs, coordinates), its source dirs, a project, the JDK, and whether it is the `ws use` default; a workspace
file that cannot be read is listed with why, never failing the others. It listed names only.

Oracle: the workspace files `ws create` wrote (`ws info NAME --json` reads the same spec) and the paths on disk.
"""

from __future__ import annotations

import json

from tests.serve_support import cli


def test_ws_list_shows_roots_by_kind_and_the_default(tmp_path, monkeypatch):
    monkeypatch.setenv("JDX_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("JDX_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("JDX_NO_DAEMON", "1")
    monkeypatch.delenv("JDX_WORKSPACE", raising=False)
    classes, src, jar = tmp_path / "classes", tmp_path / "src", tmp_path / "lib" / "a.jar"
    for d in (classes, src, jar.parent):
        d.mkdir()
    jar.write_bytes(b"PK\x05\x06" + b"\0" * 18)  # an empty zip
    created = cli(["ws", "create", "app", "--jars", str(jar), "--jars", str(classes), "--src", str(src),
                   "--coord", "com.example:lib:1.0"])
    assert created.code == 0, created.err
    assert cli(["ws", "create", "bare", "--jars", str(jar), "--no-jdk"]).code == 0
    assert cli(["ws", "use", "bare"]).code == 0
    (tmp_path / "config" / "workspaces" / "broken.toml").write_text("roots = 5\n")

    text = cli(["ws", "list"])
    assert text.code == 0, text.err
    assert text.out.splitlines() == [
        "workspace app  3 roots: 1 jar, 1 dir, 1 coord; 1 src · jdk",
        "workspace bare  (current)  1 root: 1 jar · no jdk",
        f"workspace broken  unreadable: {tmp_path}/config/workspaces/broken.toml: 'roots', 'jars', 'src' and "
        "'coords' must be lists of strings",
    ]
    listed = {w["name"]: w for w in json.loads(cli(["ws", "list", "--json"]).out)["result"]["workspaces"]}
    assert listed["app"]["current"] is False and listed["bare"]["current"] is True
    assert listed["app"]["roots"] == [str(jar), str(classes), "com.example:lib:1.0"]
    assert listed["app"]["coords"] == ["com.example:lib:1.0"] and listed["app"]["src"] == [str(src)]
    assert listed["app"]["root_kinds"] == {str(classes): "dir"}
    assert listed["bare"]["jdk"] is False and "unreadable" in listed["broken"]
