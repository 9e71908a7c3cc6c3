"""`body`, `source` and `doc` on sources that disagree with their class files:

* a Java file tree-sitter cannot fully parse is SOURCE_PARSE_ERROR, not a version mismatch: a member lost in the
  unparsed region falls back to the decompiled text saying so; a member still found is answered from the file,
  with the warning;
* `source <Type> --around <member>` of a member the sources lack says so as `body` does and shows the member in
  the decompiled class, not the source lines at the class file's line numbers;
* a sources jar that lacks a type's file is named as lacking it (not "no sources jar");
* a member reference given to `source` gets a hint naming `body` and `source --around`.

Fixture: `demo.Util` compiled by javac -g at test time (a class directory), with three source directories: the
compiled text with one line broken (javac rejects it), with `annotated()` renamed, and a jar `h-1.0.jar` whose
sibling sources jar lacks `h/Version.java`. Oracles: javac (the broken file does not compile), the source text."""

from __future__ import annotations

import json
import shutil
import zipfile

import pytest

from tests.fixtures import jdktool
from tests.fixtures.javac import javac_jar

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)

UTIL = (
    "package demo;\n"                               # 1
    "\n"                                            # 2
    "public class Util {\n"                         # 3
    "    public static int sum(int... xs) {\n"      # 4
    "        int t = 0;\n"                          # 5
    "        for (int x : xs) t += x;\n"            # 6
    "        return t;\n"                           # 7
    "    }\n"                                       # 8
    "\n"                                            # 9
    "    @Deprecated\n"                             # 10
    "    public static String annotated() {\n"      # 11
    "        return \"a\";\n"                       # 12
    "    }\n"                                       # 13
    "\n"                                            # 14
    "    public static int after() {\n"             # 15
    "        return 2;\n"                           # 16
    "    }\n"                                       # 17
    "}\n")
# the loop's `)` dropped: tree-sitter takes the rest of the class into `sum`, so `annotated` is not found
SWALLOWED = UTIL.replace("for (int x : xs) t += x;", "for (int x : xs t += x;")
# a broken expression inside `after`: every declaration is still found
LOCAL = UTIL.replace("        return 2;\n", "        return 2 + ) {;\n")
RENAMED = UTIL.replace("    @Deprecated\n    public static String annotated() {", "    public static String renamed() {")


@pytest.fixture(scope="module")
def fx(tmp_path_factory, run_jdx):
    if shutil.which("javac") is None:
        pytest.skip("javac is not installed")
    root = tmp_path_factory.mktemp("srcfix2")
    _, classes = javac_jar(root, {"demo/Util.java": UTIL}, "demo", "demo.jar", debug=True)
    out = {"root": root, "classes": classes}
    for name, text in (("swallowed", SWALLOWED), ("local", LOCAL), ("renamed", RENAMED)):
        (root / name / "demo").mkdir(parents=True)
        (root / name / "demo" / "Util.java").write_text(text)
        out[name] = ["--jars", str(classes), "--src", str(root / name), "--no-jdk"]
    # a binary jar with a sibling sources jar that lacks one of its files
    hjar, _ = javac_jar(root / "h", {"h/A.java": "package h;\npublic class A { public int a() { return 1; } }\n",
                                     "h/Version.java": "package h;\npublic class Version { public int v() { return 2; } }\n"},
                        "h", "h-1.0.jar")
    with zipfile.ZipFile(root / "h" / "h-1.0-sources.jar", "w") as z:
        z.write(root / "h" / "src" / "h" / "A.java", "h/A.java")
    out["h"] = ["--jars", str(hjar), "--no-jdk"]
    return out


def _json(run_jdx, args, *argv) -> tuple[int, dict]:
    r = run_jdx(*argv, *args, "--json")
    assert "Traceback" not in r.out + r.err
    return r.code, json.loads(r.out)


def _codes(env: dict) -> list[str]:
    return [w["code"] for w in env["warnings"]]


def test_oracle_the_broken_files_do_not_compile_and_keep_their_members(fx):
    for name in ("swallowed", "local"):
        f = fx["root"] / name / "demo" / "Util.java"
        r = jdktool.run(["javac", "-d", str(fx["root"] / f"out-{name}"), str(f)], capture_output=True, text=True)
        assert r.returncode != 0
        assert "public static String annotated() {" in f.read_text()


def test_member_lost_in_an_unparsed_region_is_a_parse_error(fx, run_jdx):
    code, env = _json(run_jdx, fx["swallowed"], "body", "demo.Util#annotated()")
    assert code == 0 and env["result"]["origin"] == "decompiled"
    assert "SOURCE_PARSE_ERROR" in _codes(env)
    assert not any("absent" in w["message"] for w in env["warnings"]), env["warnings"]
    assert "did not parse" in env["result"]["header"]
    code, env = _json(run_jdx, fx["swallowed"], "doc", "demo.Util#annotated()")
    assert code == 0 and "SOURCE_PARSE_ERROR" in _codes(env)
    assert not any("absent" in w["message"] for w in env["warnings"]), env["warnings"]


def test_member_found_despite_errors_elsewhere_is_answered_from_the_file(fx, run_jdx):
    code, env = _json(run_jdx, fx["local"], "body", "demo.Util#annotated()")
    assert code == 0 and env["result"]["origin"] == "sources", env["result"]["header"]
    assert env["result"]["text"] == UTIL.splitlines()[9:13]  # lines 10-13 as written
    assert "SOURCE_PARSE_ERROR" in _codes(env)
    assert not any("absent" in w["message"] for w in env["warnings"]), env["warnings"]


def test_around_a_member_the_sources_lack_says_so_as_body_does(fx, run_jdx):
    bcode, body = _json(run_jdx, fx["renamed"], "body", "demo.Util#annotated()")
    code, env = _json(run_jdx, fx["renamed"], "source", "demo.Util", "--around", "annotated()")
    assert code == bcode == 0
    absent = [w["message"] for w in body["warnings"] if "absent from" in w["message"] and "annotated" in w["message"]]
    assert absent and set(absent) <= {w["message"] for w in env["warnings"]}
    res = env["result"]
    assert res["origin"] == body["result"]["origin"] == "decompiled"
    assert "lacks demo.Util#annotated()" in res["header"]
    assert any("String annotated()" in ln for ln in res["text"])  # the member itself, from the decompiled class
    assert not any("renamed" in ln for ln in res["text"])  # not the edited file's lines at the class file's lines
    # a lost member in a file that did not parse: the parse error, the decompiled member
    code, env = _json(run_jdx, fx["swallowed"], "source", "demo.Util", "--around", "annotated()")
    assert code == 0 and env["result"]["origin"] == "decompiled" and "SOURCE_PARSE_ERROR" in _codes(env)


def test_sources_jar_lacking_the_file_is_named(fx, run_jdx):
    code, env = _json(run_jdx, fx["h"], "source", "h.Version")
    assert code == 0 and env["result"]["origin"] == "decompiled"
    assert "(h-1.0-sources.jar lacks h/Version.java)" in env["result"]["header"]
    assert "no sources jar" not in env["result"]["header"]
    assert any("h-1.0-sources.jar lacks h/Version.java" in w["message"] for w in env["warnings"])
    code, env = _json(run_jdx, fx["h"], "source", "h.A")
    assert code == 0 and env["result"]["origin"] == "sources"


def test_member_reference_hint():
    from jdx.engine.src_source import member_hint

    assert member_hint("demo.Util#sum(int...)") == (
        "to read a member: jdx body 'demo.Util#sum(int...)', or jdx source demo.Util --around 'sum(int...)'")
    assert member_hint("demo.Util") is None
