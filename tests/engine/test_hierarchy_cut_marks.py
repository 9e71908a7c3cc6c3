"""`hierarchy` whose `--limit` cuts a shown supertype's own supertypes says so under it (T50: `hierarchy
KtNamedFunction` listed `KtFunction` with one of its two direct superinterfaces and nothing said the other was cut).
The oracle is reflection: Class.getInterfaces of each type."""

from __future__ import annotations

import json
import shutil

import pytest

from tests.fixtures import jdktool
from tests.fixtures.javac import javac_jar

SOURCES = {
    "hc/A.java": "package hc;\npublic interface A { }",
    "hc/B.java": "package hc;\npublic interface B { }",
    "hc/Fn.java": "package hc;\npublic interface Fn extends A, B { }",
    "hc/Named.java": "package hc;\npublic class Named implements Fn { }",
    "Supers.java": """public class Supers {
    public static void main(String[] a) throws Exception {
        for (Class<?> i : Class.forName("hc.Fn").getInterfaces()) System.out.println(i.getName());
    }
}""",
}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    if shutil.which("javac") is None:
        pytest.skip("javac is not installed")
    return javac_jar(tmp_path_factory.mktemp("hiercut"), SOURCES, "hc", "hiercut.jar")


def test_a_cut_below_a_shown_supertype_is_said_there(run_jdx, built):
    jar, classes = built
    direct = jdktool.run(["java", "-cp", classes, "Supers"], capture_output=True, text=True, check=True).stdout.split()
    assert direct == ["hc.A", "hc.B"]
    # Object, Fn, A shown; B (Fn's second superinterface) cut by --limit 3
    r = run_jdx("--no-jdk", "--jars", str(jar), "hierarchy", "hc.Named", "--up", "--limit", "3", "--json")
    assert r.code == 0, r.err
    fn = next(e for e in json.loads(r.out)["result"]["up"] if e["type"] == "hc.Fn")
    assert [c["type"] for c in fn["children"]] == direct[:1] and fn["not_shown"] == 1, fn
    text = run_jdx("--no-jdk", "--jars", str(jar), "hierarchy", "hc.Named", "--up", "--limit", "3").out.splitlines()
    at = next(i for i, line in enumerate(text) if "interface hc.Fn" in line)
    assert text[at + 1].strip().startswith("interface hc.A") and text[at + 2] == "      … 1 more supertype past --limit", text
    whole = run_jdx("--no-jdk", "--jars", str(jar), "hierarchy", "hc.Named", "--up", "--json").out
    assert "not_shown" not in whole
