"""`samples Sub#go` where Sub only inherits go() from Base: the samples are calls of Base#go (the JVM links them
there), those whose bytecode names Sub come first, and a note says whose member it is, as `usages` does. javap -c
is the oracle of which call names which owner."""

from __future__ import annotations

import json

from tests.fixtures import jdktool
from tests.fixtures.javac import javac_jar

SOURCES = {
    "s/Base.java": "package s; public interface Base { void go(); }",
    "s/Sub.java": "package s; public interface Sub extends Base { }",
    "s/Direct.java": "package s; public class Direct { public void run(Base b) { b.go(); } }",
    # test code ranks last on its own: only the call through Sub can lift it
    "s/ThroughTest.java": "package s; public class ThroughTest { public void run(Sub x) { x.go(); } }",
}


def test_calls_through_the_asked_type_come_first_with_a_note(tmp_path, run_jdx):
    jar, classes = javac_jar(tmp_path, SOURCES, "s", "s.jar")
    code = {n: jdktool.run(["javap", "-c", "-cp", str(classes), f"s.{n}"], capture_output=True, text=True,
                           check=True).stdout for n in ("Direct", "ThroughTest")}
    assert "InterfaceMethod s/Base.go:()V" in code["Direct"] and "InterfaceMethod s/Sub.go:()V" in code["ThroughTest"]
    r = run_jdx("--no-jdk", "--jars", str(jar), "--json", "samples", "s.Sub#go", "--limit", "2")
    assert r.code == 0, r.out
    result = json.loads(r.out)["result"]
    callers = [s["caller"].split("#")[0] for s in result["samples"]]
    assert callers == ["s.ThroughTest", "s.Direct"], callers
    assert result["notes"] == ["s.Sub declares no go(): these are the calls of what it inherits from s.Base; 1 of "
                               "them call it through s.Sub (shown first)"], result["notes"]
    r = run_jdx("--no-jdk", "--jars", str(jar), "--json", "samples", "s.Base#go", "--limit", "2")
    base = json.loads(r.out)["result"]
    assert [s["caller"].split("#")[0] for s in base["samples"]] == ["s.Direct", "s.ThroughTest"]  # test code last
    assert base["notes"] == []
