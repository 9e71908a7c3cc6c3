"""A decompiler's text that is not valid Java says so (T73): Procyon 0.6's text of a pattern `switch` (Java 21) holds
labels and helper calls no compiler accepts; `source` showed it labelled only "reconstructed", and `body` of the
method said the text had "no recognisable declaration" as if the method were missing. Oracle: javac compiles the
original, and tree-sitter's parse of Procyon's text has error regions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from jdx.loaders.decompile import available_engines
from tests.fixtures import jdktool

pytestmark = pytest.mark.soak  # a JDK 25 javac, a new workspace graph and a Procyon run (~1 min alone)

NEWER = Path("/usr/lib/jvm/temurin-25-jdk-amd64/bin")
SOURCE = """package pw;
public class Kinds {
    public record Box(double size) { }
    public record Pair<A, B>(A first, B second) { }
    public enum Color { RED, GREEN }
    public static String kind(Object o) {
        return switch (o) {
            case null -> "null";
            case Box(double size) when size > 10 -> "big box";
            case Box b -> "box";
            case Pair<?, ?>(String a, Integer b) -> "pair " + a + b;
            case Color c -> switch (c) { case RED -> "red"; case GREEN -> "green"; };
            default -> "other";
        };
    }
}
"""


@pytest.fixture(scope="module")
def jar(tmp_path_factory):
    if not (NEWER / "javac").is_file():
        pytest.skip(f"no JDK 21+ javac at {NEWER}")
    if "procyon" not in {e[0] for e in available_engines()}:
        pytest.skip("Procyon is not installed")
    root = tmp_path_factory.mktemp("pattern_switch")
    (root / "src/pw").mkdir(parents=True)
    (root / "src/pw/Kinds.java").write_text(SOURCE)
    jdktool.run([str(NEWER / "javac"), "--release", "21", "-d", str(root / "classes"), str(root / "src/pw/Kinds.java")],
                check=True)
    out = root / "pw.jar"
    jdktool.run(["jar", "cf", str(out), "-C", str(root / "classes"), "."], check=True)
    return out


def test_source_of_invalid_decompiled_java_says_so(run_jdx, jar):
    r = run_jdx("--jars", str(jar), "source", "pw.Kinds", "--engine", "procyon", "--json")
    assert r.code == 0, r.err
    env = json.loads(r.out)
    found = [w for w in env["warnings"] if w["code"] == "SOURCE_PARSE_ERROR"]
    if not found:
        pytest.skip("this Procyon wrote valid Java for a pattern switch")
    assert "the decompiler wrote code that is not valid Java there" in found[0]["message"], found


def test_body_falls_back_saying_the_text_is_not_java(run_jdx, jar):
    r = run_jdx("--jars", str(jar), "body", "pw.Kinds#kind(Object)", "--json")
    assert r.code == 0, r.err
    env = json.loads(r.out)
    if env["result"]["origin"] == "decompiled":
        pytest.skip("this Procyon's text held the method")
    why = [w["message"] for w in env["warnings"] if w["code"] == "DECOMPILE_FAILED"]
    assert any("not valid Java" in m for m in why), env["warnings"]


def test_an_engine_asked_for_that_fails_is_not_labelled_as_asked(run_jdx, jar):
    """`--engine procyon` on a method Procyon cannot give: javap answers, and its header said `(as asked: --engine
    procyon)` while the engine had failed (a trial on commons-io); it says so now, the warning saying why."""
    r = run_jdx("--jars", str(jar), "body", "pw.Kinds#kind(Object)", "--engine", "procyon", "--json")
    assert r.code == 0, r.err
    env = json.loads(r.out)
    if env["result"]["origin"] == "decompiled":
        pytest.skip("this Procyon's text held the method")
    header = env["result"]["header"]
    assert "as asked" not in header and "--engine procyon failed (DECOMPILE_FAILED says why)" in header, header
    assert any(w["code"] == "DECOMPILE_FAILED" for w in env["warnings"]), env["warnings"]
