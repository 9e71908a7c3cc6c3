"""Every provenance entry names its artifact and origin, and its symbol when the answer is about symbols (spec §3.5,
§8.2; docs/output.md); the artifact named is the jar or class directory that holds the class (read back with
zipfile); a source directory's `source:` line names the directory, relative to the project, so the file opens."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from tests.fixtures.javac import javac_jar
from tests.fixtures import jdktool

pytestmark = pytest.mark.soak  # slow: the soak runs it (.ci/run); tests/cli/test_provenance.py stays

LIB = {
    "gl/Greeter.java": "package gl;\npublic interface Greeter { String greet(); }\n",
    "gl/Help.java": "package gl;\npublic class Help implements Greeter {\n"
                    "    public String greet() { return \"hi\"; }\n}\n",
}
HASHER = ("package app;\n/** Hashes text. */\npublic class Hasher {\n    /** The hash. */\n"
          "    public int sha(String s) { return s.hashCode(); }\n}\n")
MAIN = ("package app;\npublic class Main {\n    public String run() { return new gl.Help().greet() + new Hasher().sha(\"x\"); }\n"
        "}\n")
POM = ('<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>'
       "<groupId>demo</groupId><artifactId>demo</artifactId><version>1.0</version></project>\n")

# (argv, the answer is about symbols: its entries carry `symbol`)
QUERIES = [
    (["show", "gl.Help"], True),
    (["members", "gl.Help"], True),
    (["outline", "gl.Help"], True),
    (["signature", "gl.Help#greet"], True),
    (["hierarchy", "gl.Help"], True),
    (["implementors", "gl.Greeter"], True),
    (["overrides", "gl.Help#greet"], True),
    (["usages", "gl.Help#greet"], True),
    (["callers", "gl.Help#greet"], True),
    (["calls", "app.Main#run"], True),
    (["samples", "gl.Help#greet"], True),
    (["imports", "Help"], True),
    (["body", "app.Hasher#sha"], True),
    (["source", "app.Hasher"], True),
    (["doc", "app.Hasher#sha"], True),
    (["search", "Help"], False),
    (["search", "gl", "--kind", "package"], False),
    (["resolve", "Help"], False),
    (["ls"], False),
    (["ls", "gl"], False),
    (["tree"], False),
    (["cypher", "MATCH (t:Type) RETURN count(t) AS n"], False),
]


@pytest.fixture(scope="module")
def workspace(tmp_path_factory, run_jdx):
    """A Maven project (app.*, built by javac into target/classes) using greetlib.jar (gl.*); each query's envelope,
    and the workspace's artifacts by name -> path (`ws info`)."""
    root = tmp_path_factory.mktemp("provenance")
    jar, _ = javac_jar(root / "lib", LIB, "gl", "greetlib.jar")
    proj = root / "proj"
    (proj / "src/main/java/app").mkdir(parents=True)
    (proj / "pom.xml").write_text(POM)
    (proj / "src/main/java/app/Hasher.java").write_text(HASHER)
    (proj / "src/main/java/app/Main.java").write_text(MAIN)

    jdktool.run(["javac", "-cp", str(jar), "-d", str(proj / "target/classes"),
                    *map(str, sorted((proj / "src/main/java/app").glob("*.java")))], check=True)
    flags = ["--project", str(proj), "--jars", str(jar), "--no-jdk"]
    info = json.loads(run_jdx("ws", "info", *flags, "--json").out)
    paths = {a["name"]: a["path"] for a in info["result"]["artifacts"]}
    answers = {}
    for argv, _ in QUERIES:
        r = run_jdx(*argv, *flags, "--json")
        assert r.code == 0, (argv, r.out, r.err)
        answers[" ".join(argv)] = json.loads(r.out)
    text = run_jdx("body", "app.Hasher#sha", *flags).out
    return {"proj": proj, "paths": paths, "answers": answers, "body_text": text}


def _holds(path: str, class_file: str) -> bool:
    """Whether the artifact at `path` (a jar, or a class directory) holds `class_file` (`gl/Help.class`)."""
    if path.endswith(".jar"):
        with zipfile.ZipFile(path) as z:
            return class_file in z.namelist()
    return (Path(path) / class_file).is_file()


@pytest.mark.parametrize("argv,about_symbols", QUERIES, ids=[" ".join(q[0]) for q in QUERIES])
def test_every_entry_names_artifact_and_origin(workspace, argv, about_symbols):
    env = workspace["answers"][" ".join(argv)]
    prov = env["provenance"]
    assert prov, env
    for p in prov:
        assert p.get("origin") and p.get("artifact") in workspace["paths"], p
        if about_symbols:
            assert p.get("symbol"), p
            owner = p["symbol"].split("#", 1)[0]
            assert _holds(workspace["paths"][p["artifact"]], owner.replace(".", "/") + ".class"), p


def test_the_artifacts_named_are_the_jar_and_the_project_classes(workspace):
    paths, answers = workspace["paths"], workspace["answers"]
    (usage,) = answers["usages gl.Help#greet"]["provenance"]
    assert paths[usage["artifact"]].endswith("greetlib.jar") and usage["symbol"] == "gl.Help#greet()"
    (imported,) = answers["imports Help"]["provenance"]
    assert _holds(paths[imported["artifact"]], "gl/Help.class")
    listing = [p["artifact"] for p in answers["ls"]["provenance"]]
    assert sorted(listing) == sorted(paths)  # ls of the roots draws on every artifact
    assert [p["artifact"] for p in answers["ls gl"]["provenance"]] == [usage["artifact"]]
    assert [p["artifact"] for p in answers["search gl --kind package"]["provenance"]] == [usage["artifact"]]
    assert [p["artifact"] for p in answers["tree"]["provenance"]] == list(paths)


def test_a_source_directory_is_named_so_the_file_opens(workspace):
    proj = workspace["proj"]
    line = HASHER.splitlines().index("    public int sha(String s) { return s.hashCode(); }") + 1
    assert workspace["body_text"].splitlines()[1] == f"source: src/main/java (app/Hasher.java:{line}-{line})"
    body = workspace["answers"]["body app.Hasher#sha"]
    src = body["result"]["source"]
    assert src["root"] == "src/main/java" and (proj / src["root"] / src["file"]).read_text() == HASHER
    assert body["provenance"][0]["root"] == "src/main/java"
    doc = workspace["answers"]["doc app.Hasher#sha"]["result"]["docs"][0]["source"]
    assert doc["root"] == "src/main/java" and doc["file"] == "app/Hasher.java"
