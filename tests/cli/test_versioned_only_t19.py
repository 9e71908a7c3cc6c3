"""A class a multi-release jar holds only under `META-INF/versions/N/` is not read (jdx reads the base entries,
docs/warnings.md MULTI_RELEASE_JAR), so it is not found: the not-found answer says where it is instead of a bare
NOT_FOUND with no warnings. The jar is built by javac --release and jar --release (which checks the layout), and
`jar tf` is the oracle of where each class is."""

from __future__ import annotations

import json

import pytest

from tests.fixtures import jdktool


@pytest.fixture(scope="module")
def mr_jar(tmp_path_factory):
    root = tmp_path_factory.mktemp("versioned-only")
    for folder, name, text in (("base", "Base", "package m; public class Base { public int f() { return 0; } }"),
                               ("v17", "Only", "package m; class Only { int f() { return 1; } }")):
        (root / folder / "m").mkdir(parents=True)
        (root / folder / "m" / f"{name}.java").write_text(text)
    jdktool.run(["javac", "--release", "8", "-d", str(root / "cb"), str(root / "base/m/Base.java")], check=True)
    jdktool.run(["javac", "--release", "17", "-d", str(root / "c17"), str(root / "v17/m/Only.java")], check=True)
    (root / "manifest.txt").write_text("Multi-Release: true\n")
    jar = root / "mr.jar"
    jdktool.run(["jar", "cfm", str(jar), str(root / "manifest.txt"), "-C", str(root / "cb"), ".",
                 "--release", "17", "-C", str(root / "c17"), "."], check=True)
    listed = jdktool.run(["jar", "tf", str(jar)], capture_output=True, text=True, check=True).stdout.split()
    assert "META-INF/versions/17/m/Only.class" in listed and "m/Only.class" not in listed, listed
    return jar


def _failure(run_jdx, jar, *args):
    r = run_jdx("--jars", str(jar), "--no-jdk", *args, "--json")
    assert r.code == 1, r.out + r.err
    answer = json.loads(r.out)
    assert answer["error"]["code"] == "NOT_FOUND", answer
    return answer


@pytest.mark.parametrize("args", [("show", "m.Only"), ("body", "m.Only#f()")])
def test_a_class_only_under_versions_is_named_where_it_is(mr_jar, run_jdx, args):
    answer = _failure(run_jdx, mr_jar, *args)
    found = [w for w in answer["warnings"] if w["code"] == "MULTI_RELEASE_JAR"]
    assert len(found) == 1, answer["warnings"]
    assert "m.Only is only in META-INF/versions/17/ of mr.jar" in found[0]["message"]
    assert found[0]["artifact"] == "mr.jar"


def test_other_not_found_answers_carry_no_versioned_warning(mr_jar, run_jdx):
    answer = _failure(run_jdx, mr_jar, "show", "m.Nowhere")
    assert not [w for w in answer["warnings"] if w["code"] == "MULTI_RELEASE_JAR"], answer["warnings"]


def test_how_the_jar_was_read_goes_with_its_answers_and_the_workspace_not_with_cypher(mr_jar, run_jdx):
    """T62: every cypher answer (`RETURN 1` too) carried the jar's MULTI_RELEASE_JAR, its provenance listing every
    artifact; `ws info`, which describes the workspace, carried none. An answer about a class the jar holds no
    versioned copy of carries none either (T93, T94: the same line on every answer named no class)."""
    def codes(*args):
        r = run_jdx("--jars", str(mr_jar), "--no-jdk", *args, "--json")
        assert r.code == 0, r.out + r.err
        return [w["code"] for w in json.loads(r.out)["warnings"]]

    # m.Base has no versioned copy: its answer describes the class file every JVM loads, so it says nothing more
    assert "MULTI_RELEASE_JAR" not in codes("show", "m.Base")
    assert "MULTI_RELEASE_JAR" not in codes("cypher", "RETURN 1 AS x")
    assert "MULTI_RELEASE_JAR" in codes("ws", "info")
