"""`usages` and `callers` of a member of a shadowed copy (two versions of a library on the classpath, the older
first): the calls written against the newer copy name the loaded class, which lacks the member, so the graph
holds them as calls of an external member; they are that copy's call sites (a call through a subclass of its
artifact included), and the answer says they would fail on this classpath. A member both copies declare has its
calls on the loaded copy, and the answer says how to ask for them. Oracle: javap -c of the newer jar."""

from __future__ import annotations

import json
import re
import shutil

import pytest

from tests.fixtures import jdktool

V1 = {"p/Lib.java": "package p;\npublic class Lib {\n  public static void base() { }\n"
                    "  public static int shared() { return 1; }\n}"}
V2 = {"p/Lib.java": "package p;\npublic class Lib {\n  public static void base() { }\n"
                    "  public static int shared() { return 2; }\n  public static void extra() { }\n"
                    "  public static void use() {\n    extra();\n    shared();\n  }\n}",
      "p/Sub.java": "package p;\npublic class Sub extends Lib {\n  static void go() {\n    Sub.extra();\n  }\n}"}


@pytest.fixture(scope="module")
def jars(tmp_path_factory):
    if shutil.which("javac") is None or shutil.which("javap") is None:
        pytest.skip("javac/javap are not installed")
    from tests.fixtures.javac import javac_jar

    root = tmp_path_factory.mktemp("shadowed")
    old, _ = javac_jar(root / "v1", V1, "p", "lib-1.0.jar", debug=True)
    new, classes = javac_jar(root / "v2", V2, "p", "lib-2.0.jar", debug=True)
    return old, new, classes


def _javap_callers(classes, member: str) -> set[tuple[str, int]]:
    """(caller `p.Class#name()`, source line) of every invoke of `member` (`extra:()V`) in the classes."""
    out = set()
    for cls in ("p.Lib", "p.Sub"):
        text = jdktool.run(["javap", "-c", "-l", "-p", "-cp", str(classes), cls], capture_output=True,
                              text=True, check=True).stdout
        for block in re.split(r"\n(?=  \S)", text):
            head = re.search(r" (\w+)\(\)[^\n]*;\n", block)
            if head is None:
                continue
            offsets = [int(m.group(1)) for m in re.finditer(rf"(\d+): invoke\w+ .*{re.escape(member)}", block)]
            table = [(int(a), int(b)) for b, a in re.findall(r"line (\d+): (\d+)", block)]
            for off in offsets:
                line = max(((start, ln) for start, ln in table if start <= off), default=(0, -1))[1]
                out.add((f"{cls}#{head.group(1)}()", line))
    return out


def test_usages_of_a_member_only_the_shadowed_copy_declares(jars, run_jdx):
    old, new, classes = jars
    want = _javap_callers(classes, "extra:()V")
    assert len(want) == 2, want  # Lib#use() calls it by its own class, Sub#go() through Sub
    run = run_jdx("--no-jdk", "--jars", f"{old}:{new}", "usages", "lib-2.0.jar/p.Lib#extra()", "--json")
    assert run.code == 0, run.err
    result = json.loads(run.out)["result"]
    got = {(c["caller"].replace("lib-2.0.jar/", ""), s["line"])
           for g in result["groups"] for c in g["callers"] for s in c["sites"]}
    assert got == want
    assert any("would fail on this classpath (NoSuchMethodError)" in n for n in result["notes"])
    callers = run_jdx("--no-jdk", "--jars", f"{old}:{new}", "callers", "lib-2.0.jar/p.Lib#extra()")
    assert callers.code == 0, callers.err
    assert "Lib#use()  line 7" in callers.out and "p.Sub#go()  line 4  via p.Sub" in callers.out


def test_usages_of_a_member_both_copies_declare_point_at_the_loaded_one(jars, run_jdx):
    old, new, _ = jars
    run = run_jdx("--no-jdk", "--jars", f"{old}:{new}", "usages", "lib-2.0.jar/p.Lib#shared()", "--json")
    assert run.code == 0, run.err
    result = json.loads(run.out)["result"]
    assert result["total"] == 0
    assert any("link to the loaded copy's declaration: jdx usages 'p.Lib#shared()'" in n for n in result["notes"])
    loaded = json.loads(run_jdx("--no-jdk", "--jars", f"{old}:{new}", "usages", "p.Lib#shared()", "--json").out)
    assert loaded["result"]["total"] == 1  # Lib#use() of the newer copy, linked to the loaded declaration
