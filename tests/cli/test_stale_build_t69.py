"""A Maven project an agent edits and recompiles by hand (trial T69): class files left behind by a rename, a class
file that is there but unreadable, a class whose class file was deleted, a method added in the source only
(jdx/engine/source_match.py, external_symbols.py, unbuilt_sources.py, jdx/commands/execute.py). javap is the oracle of
what the class directory holds.

One project serves every test, so the default tier builds its graph once."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from jdx.engine import source_match as sm
from jdx.engine.java_parse import parse_source

from tests.fixtures import jdktool

pytestmark = pytest.mark.soak  # a trial's regression family with its own builds: the soak runs it whole (.ci/run)

POM = ('<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>'
       "<groupId>com.acme</groupId><artifactId>tok</artifactId><version>1.0</version></project>\n")
PKG = "src/main/java/com/acme/tok"
CACHE = """package com.acme.tok;

public class Cache {
    private Slot last;

    public static class Slot {
        final String token;
        Slot(String token) { this.token = token; }
        public String token() { return token; }
    }

    public void put(String t) { last = new Slot(t); }
}
"""
SOURCES = {
    f"{PKG}/Cache.java": CACHE.replace("Slot", "Entry"),  # compiled first as `Entry`, then renamed
    f"{PKG}/Strings.java": "package com.acme.tok;\npublic final class Strings {\n    public static String randomId() "
                           "{ return java.util.UUID.randomUUID().toString(); }\n}\n",
    f"{PKG}/Service.java": "package com.acme.tok;\npublic class Service {\n"
                           "    public String issue() { return Strings.randomId(); }\n}\n",
    f"{PKG}/Revoked.java": "package com.acme.tok;\npublic class Revoked {\n    public int at() { return 1; }\n}\n",
    f"{PKG}/Bus.java": "package com.acme.tok;\npublic class Bus {\n    public int size() { return 0; }\n}\n",
}
BUS_NOW = "package com.acme.tok;\npublic class Bus {\n    public int size() { return 0; }\n" \
          "    public int count() { return 0; }\n}\n"
TEST = "src/test/java/com/acme/tok/ServiceTest.java"


def _javac(root: Path, *rels: str) -> None:
    jdktool.run(["javac", "-g", "-d", str(root / "target/classes"), *[str(root / r) for r in rels]], check=True,
                capture_output=True, timeout=120)


def _javap(classes: Path, name: str) -> tuple[int, str]:
    done = jdktool.run(["javap", "-p", "-cp", str(classes), name], capture_output=True, text=True)
    return done.returncode, done.stdout + done.stderr


@pytest.fixture(scope="module")
def proj(tmp_path_factory) -> Path:
    """Built once, then: Cache.Entry renamed Slot and recompiled (Cache$Entry.class stays), Strings.class truncated
    and a garbage Bogus.class beside it (sorting before it), Revoked.class deleted, Bus.java given `count` and not
    recompiled, and a test class left uncompiled."""
    if shutil.which("javac") is None:
        pytest.skip("javac is not installed")
    root = tmp_path_factory.mktemp("t69") / "tok"
    for rel, text in SOURCES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    (root / "pom.xml").write_text(POM)
    _javac(root, *SOURCES)
    (root / PKG / "Cache.java").write_text(CACHE)
    _javac(root, f"{PKG}/Cache.java")
    classes = root / "target/classes"
    strings = classes / "com/acme/tok/Strings.class"
    strings.write_bytes(strings.read_bytes()[:len(strings.read_bytes()) // 2])
    (classes / "com/acme/tok/Bogus.class").write_bytes(b"\x00garbage" * 20)
    (classes / "com/acme/tok/Revoked.class").unlink()
    (root / PKG / "Bus.java").write_text(BUS_NOW)
    (root / TEST).parent.mkdir(parents=True)
    (root / TEST).write_text("package com.acme.tok;\npublic class ServiceTest {}\n")
    return root


def _run(run_jdx, root: Path, *args: str) -> tuple[int, dict]:
    r = run_jdx("--project", str(root), "--no-jdk", *args, "--json")  # no JDK: a small graph
    return r.code, json.loads(r.out)


def _corrupt(env: dict) -> list[str]:
    return [w["message"] for w in env.get("warnings") or () if w["code"] == "CORRUPT_CLASS"]


# --- 1. a nested class renamed away: its old class file is no declaration of the file ----------------------------


def test_a_renamed_nested_class_does_not_show_its_successors_source(run_jdx, proj):
    classes = proj / "target/classes"
    code, listing = _javap(classes, "com.acme.tok.Cache$Entry")
    assert code == 0 and "public java.lang.String token();" in listing, listing  # the stale class file is there
    code, env = _run(run_jdx, proj, "body", "com.acme.tok.Cache.Entry#token()")
    assert code == 0, env
    result = env["result"]
    assert result["origin"] in ("decompiled", "javap"), result  # line 9 of Cache.java is Slot's token() now
    mismatch = [w["message"] for w in env["warnings"] if w["code"] == "SOURCES_VERSION_MISMATCH"]
    assert any("Cache$Entry#token()" in m and "absent from" in m for m in mismatch), env["warnings"]
    code, env = _run(run_jdx, proj, "body", "com.acme.tok.Cache.Slot#token()")  # the current class: its source
    assert code == 0 and env["result"]["origin"] == "sources" and env["result"]["source"]["lines"] == [9, 9], env


def test_match_method_keeps_line_numbers_for_numbered_classes_only():
    parsed = parse_source(CACHE.encode(), None)
    row = {"name": "token", "descriptor": "()Ljava/lang/String;", "access": 1, "first_line": 9, "last_line": 9}
    entry = {"id": "com/acme/tok/Cache$Entry", "kind": "class", "outer": "com/acme/tok/Cache", "inner_name": "Entry",
             "access": 9}
    assert sm.match_method(parsed, row, entry, ["Cache", "Entry"]).decl is None
    assert sm.match_method(parsed, row, dict(entry, id="com/acme/tok/Cache$Slot", inner_name="Slot"),
                           ["Cache", "Slot"]).decl.start == 9
    # an anonymous class whose number drifted (`Cache$2` compiled, `Cache$1` in the text) is still found by lines
    anonymous = "class A {\n    Runnable r = new Runnable() {\n        public void run() {}\n    };\n}\n"
    run = {"name": "run", "descriptor": "()V", "access": 1, "first_line": 3, "last_line": 3}
    found = sm.match_method(parse_source(anonymous.encode(), None), run,
                            {"id": "A$2", "kind": "class", "outer": "A", "inner_name": None, "access": 0}, ["A", "2"])
    assert found.decl is not None and found.decl.start == 3


# --- 2. a class file that is there but unreadable ----------------------------------------------------------------


def test_a_corrupt_class_is_named_by_the_warning_of_its_miss(run_jdx, proj):
    code, listing = _javap(proj / "target/classes", "com.acme.tok.Strings")
    assert code != 0, listing  # the oracle: javap cannot read it either
    code, env = _run(run_jdx, proj, "show", "com.acme.tok.Strings")
    assert code == 5 and env["error"]["code"] == "ARTIFACT_READ_ERROR", env
    (only,) = _corrupt(env)  # the class asked about, not Bogus.class (the build's first); the other one counted
    assert "com/acme/tok/Strings.class" in only and only.endswith("(1 more of this kind: jdx index --json lists "
                                                                   "them all)"), only


def test_callers_of_a_member_of_a_corrupt_class_say_it_is_corrupt(run_jdx, proj):
    code, env = _run(run_jdx, proj, "callers", "com.acme.tok.Strings#randomId")
    assert code == 0, env  # the sites are still the workspace's (Service's bytecode)
    assert any("com.acme.tok.Service#issue()" in json.dumps(r) for r in env["result"]["roots"]), env
    note = env["result"]["notes"][0]
    assert "could not be read" in note and "Strings.class" in note and "artifact is missing" not in note, note
    assert "com/acme/tok/Strings.class" in _corrupt(env)[0], env["warnings"]


def test_body_of_a_member_of_a_corrupt_class_says_it_is_corrupt(run_jdx, proj):
    code, env = _run(run_jdx, proj, "body", "com.acme.tok.Strings#randomId")
    assert code == 0, env  # the source text, labelled: a lesser answer (spec §16)
    assert "could not be read" in env["result"]["header"], env["result"]
    assert "not on the workspace's classpath" not in json.dumps(env), env
    assert "com/acme/tok/Strings.class" in _corrupt(env)[0], env["warnings"]


def test_an_answer_about_another_class_keeps_the_build_summary(run_jdx, proj):
    code, env = _run(run_jdx, proj, "show", "com.acme.tok.Service")
    assert code == 0, env
    assert _corrupt(env) == ["2 warnings of this kind, first: com.acme:tok:1.0: com/acme/tok/Bogus.class: "
                             + _corrupt(env)[0].split("Bogus.class: ", 1)[1]], env["warnings"]


# --- 3. --tests is offered only where test code could hold the answer ---------------------------------------------


@pytest.mark.parametrize("args", [("show", "com.acme.tok.Revoked"), ("body", "com.acme.tok.Bus#count"),
                                  ("body", "Bus#count"), ("show", "com.acme.tok.Cache.Slotted"),
                                  ("show", "com.acme.tok.Slotted")])
def test_a_miss_in_main_code_does_not_offer_tests(run_jdx, proj, args):
    r = run_jdx("--project", str(proj), "--no-jdk", *args)
    assert r.code == 1, r
    if args[-1] == "com.acme.tok.Slotted":  # declared nowhere: test code may declare it
        assert "--tests adds" in r.out + r.err, r
    else:  # a member of a main class, or a main class not compiled: test code adds neither
        assert "--tests" not in r.out + r.err, r


def test_a_miss_test_code_may_hold_offers_tests(run_jdx, proj):
    r = run_jdx("--project", str(proj), "--no-jdk", "show", "com.acme.tok.ServiceTest")
    assert r.code == 1 and "--tests adds" in r.out + r.err, r
