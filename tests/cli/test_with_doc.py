"""`members --with-doc` and `show`'s sources / doc facts, on the sources-pairing fixtures (sibling sources jar
versus none at all)."""

from __future__ import annotations

import json
import os

import pytest

from tests.fixtures.build_sources import build_layouts


@pytest.fixture(scope="module")
def lay(jdx_home):
    return build_layouts(jdx_home)


def _json(run_jdx, *args):
    r = run_jdx(*args, "--json")
    assert r.code == 0, r.out + r.err
    return json.loads(r.out)


def test_members_with_doc_from_sources(lay, run_jdx):
    data = _json(run_jdx, "members", "sx.Dog", "--with-doc", "--jars", str(lay.paired), "--no-jdk")
    docs = {m["ref"].split("#")[1]: m.get("doc") for m in data["result"]["members"]}
    assert docs["name()"] == "The name of this thing."  # inherited from Named, which documents it
    assert docs["greet(boolean)"].startswith("A greeting that uses name()")
    assert docs["fetch()"] is None  # undocumented stays empty, never invented
    assert any(p["origin"] == "sources" for p in data["provenance"])
    # a sentence the member does not write itself says whose it is, as `doc` does
    borrowed = {m["ref"].split("#")[1]: m.get("doc_from") for m in data["result"]["members"]}
    assert borrowed["name()"] == "sx.Named#name()" and borrowed["fetch()"] is None
    assert borrowed["greet(boolean)"] == "sx.Named#greet(boolean)"  # its `{@inheritDoc}` starts the sentence
    text = run_jdx("members", "sx.Dog", "--with-doc", "--jars", str(lay.paired), "--no-jdk").out
    assert "    // The name of this thing.  (inherited from sx.Named#name())" in text


def test_with_doc_of_a_class_without_sources_shows_what_it_overrides(tmp_path, run_jdx):
    """A class without sources overriding JDK methods shows their first sentences, each naming the method, and its
    NO_SOURCES warning says so instead of claiming there is no javadoc at all."""
    import subprocess
    from pathlib import Path

    from tests.fixtures.build import write_jar

    if not any(Path(h).joinpath("lib", "src.zip").exists() for h in
               [os.environ.get("JAVA_HOME", ""), *(str(p) for p in Path("/usr/lib/jvm").glob("*17*"))] if h):
        pytest.skip("no JDK lib/src.zip (Debian/Ubuntu: apt-get install openjdk-17-source)")
    (tmp_path / "wd").mkdir()
    (tmp_path / "wd" / "Task.java").write_text(
        "package wd;\npublic class Task implements Runnable {\n  public void run() {}\n  public void stop() {}\n}\n")
    subprocess.run(["javac", "-d", str(tmp_path / "out"), str(tmp_path / "wd" / "Task.java")], check=True)
    jar = tmp_path / "wd.jar"
    write_jar(jar, {"wd/Task.class": (tmp_path / "out" / "wd" / "Task.class").read_bytes()})
    data = _json(run_jdx, "members", "wd.Task", "--with-doc", "--declared", "--jars", str(jar))
    rows = {m["ref"]: m for m in data["result"]["members"]}
    assert rows["wd.Task#run()"]["doc_from"] == "java.lang.Runnable#run()"
    assert rows["wd.Task#run()"]["doc"].startswith("When an object implementing interface")
    assert rows["wd.Task#stop()"].get("doc") is None and "doc_from" not in rows["wd.Task#stop()"]
    said = [w["message"] for w in data["warnings"] if w["code"] == "NO_SOURCES"]
    assert said and said[0].startswith("wd.Task: no sources, so no javadoc of its own for its members; the "
                                       "sentences shown are the overridden methods'"), said


def test_members_with_doc_without_sources(lay, run_jdx):
    data = _json(run_jdx, "members", "sx.Dog", "--with-doc", "--jars", str(lay.bare), "--no-jdk")
    assert all(m.get("doc") is None for m in data["result"]["members"])
    plain = _json(run_jdx, "members", "sx.Dog", "--jars", str(lay.bare), "--no-jdk")
    assert all("doc" not in m for m in plain["result"]["members"])  # no doc key unless asked
    # the answer says why it has no doc, as `doc` does (it came back silently empty)
    said = [w for w in data["warnings"] if w["code"] == "NO_SOURCES"]
    assert said and said[0]["message"].startswith("sx.Dog: no sources, so no javadoc of its own for its members ("), \
        data["warnings"]
    assert not [w for w in plain["warnings"] if w["code"] == "NO_SOURCES"]
    paired = _json(run_jdx, "members", "sx.Dog", "--with-doc", "--jars", str(lay.paired), "--no-jdk")
    assert not [w for w in paired["warnings"] if w["code"] == "NO_SOURCES"], paired["warnings"]


def test_brief_with_doc_is_a_usage_error(lay, run_jdx):
    """Spec §7.1: `--brief` (signatures only) and `--with-doc` exclude each other: exit 3, one line, in --json too."""
    r = run_jdx("members", "sx.Dog", "--with-doc", "--brief", "--jars", str(lay.paired), "--no-jdk")
    assert r.code == 3 and r.out == "", (r.code, r.out)
    assert r.err.strip() == "error: --brief and --with-doc exclude each other: --brief prints signatures only"
    data = json.loads(run_jdx("members", "sx.Dog", "--with-doc", "--brief", "--json", "--jars", str(lay.paired),
                              "--no-jdk").out)
    assert data["ok"] is False and data["error"]["code"] == "USAGE"


def test_show_names_sources_and_doc(lay, run_jdx):
    paired = _json(run_jdx, "show", "sx.Named", "--jars", str(lay.paired), "--no-jdk")["result"]
    assert paired["sources"] == "sx-1.0-sources.jar" and paired["doc"] == "Something with a name."
    text = run_jdx("show", "sx.Named", "--jars", str(lay.paired), "--no-jdk").out
    assert "sources: sx-1.0-sources.jar" in text and "  doc: Something with a name." in text
    bare = _json(run_jdx, "show", "sx.Named", "--jars", str(lay.bare), "--no-jdk")["result"]
    assert bare["sources"] is None and bare["doc"] is None
    assert "sources: none" in run_jdx("show", "sx.Named", "--jars", str(lay.bare), "--no-jdk").out
