"""`members --with-doc` and `show`'s sources / doc facts, on the sources-pairing fixtures (sibling sources jar
versus none at all)."""

from __future__ import annotations

import json

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
    text = run_jdx("members", "sx.Dog", "--with-doc", "--jars", str(lay.paired), "--no-jdk").out
    assert "    // The name of this thing." in text


def test_members_with_doc_without_sources(lay, run_jdx):
    data = _json(run_jdx, "members", "sx.Dog", "--with-doc", "--jars", str(lay.bare), "--no-jdk")
    assert all(m.get("doc") is None for m in data["result"]["members"])
    plain = _json(run_jdx, "members", "sx.Dog", "--jars", str(lay.bare), "--no-jdk")
    assert all("doc" not in m for m in plain["result"]["members"])  # no doc key unless asked
    # the answer says why it has no doc, as `doc` does (it came back silently empty)
    said = [w for w in data["warnings"] if w["code"] == "NO_SOURCES"]
    assert said and said[0]["message"].startswith("sx.Dog: no sources, so no javadoc"), data["warnings"]
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
