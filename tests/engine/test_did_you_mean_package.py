"""Did-you-mean for a qualified type name that misses (spec §16, docs/output.md): the package's own types come
before near names of distant packages, which are kept; every candidate has its kind (javap says which)."""

from __future__ import annotations

import json

import pytest

from tests.fixtures.javac import javac_jar, javap

SOURCES = {
    "com/acme/app/Main.java": "package com.acme.app;\npublic class Main {}\n",
    "com/acme/app/Hasher.java": "package com.acme.app;\npublic class Hasher {}\n",
    "com/acme/app/PageScraper.java": "package com.acme.app;\npublic interface PageScraper {}\n",
    "com/acme/util/Nodes.java": "package com.acme.util;\npublic enum Nodes { A }\n",
    # a near name in a subpackage: not the package, so the package's own types still come first
    "com/acme/app/sub/Node.java": "package com.acme.app.sub;\npublic class Node {}\n",
    "org/x/NOP.java": "package org.x;\npublic class NOP {}\n",
    "org/x/Node.java": "package org.x;\npublic class Node {}\n",
}


def _edits(a: str, b: str) -> int:
    """Levenshtein distance (the oracle's own, not jdx's)."""
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, cb in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (ca != cb))
    return row[-1]


@pytest.fixture(scope="module")
def ask(tmp_path_factory, run_jdx):
    root = tmp_path_factory.mktemp("dym")
    jar, classes = javac_jar(root, SOURCES, "com", "acme.jar")
    other, _ = javac_jar(root / "x", {k: v for k, v in SOURCES.items() if k.startswith("org/")}, "org", "x.jar")

    def run(*args):
        r = run_jdx(*args, "--jars", str(jar), "--jars", str(other), "--no-jdk", "--json")
        return r.code, json.loads(r.out), r.out
    run.jars = {"acme.jar": jar, "x.jar": other}
    return run


def test_the_package_s_types_come_first_and_near_names_stay(ask):
    code, env, out = ask("show", "com.acme.app.Nope")
    assert code == 1 and env["error"]["code"] == "NOT_FOUND"
    refs = [c["ref"] for c in env["candidates"]]
    own = sorted(["Main", "Hasher", "PageScraper"], key=lambda n: (_edits(n.lower(), "nope"), n))
    assert refs[:3] == [f"com.acme.app.{n}" for n in own]
    # near names of other packages keep their room (Node and NOP are one edit from Nope), the nearest package first
    assert refs[3] == "com.acme.app.sub.Node" and refs[4] in ("org.x.Node", "org.x.NOP") and len(refs) == 5
    assert ask("show", "com.acme.app.Nope")[2] == out  # same input, same bytes

@pytest.mark.soak  # slow: the soak runs it (.ci/run)
def test_every_candidate_has_its_kind(ask):
    _, env, _ = ask("show", "com.acme.app.Nope")
    for c in env["candidates"]:
        declared = javap(ask.jars[c["artifact"]], c["ref"]).splitlines()[1]
        assert c["kind"] == ("interface" if " interface " in declared else "class"), (c, declared)


def test_a_near_name_in_the_package_is_first_and_unqualified_names_are_unchanged(ask):
    _, env, _ = ask("show", "com.acme.app.Hashr")
    assert env["candidates"][0] == {"ref": "com.acme.app.Hasher", "kind": "class", "artifact": "acme.jar"}
    _, env, _ = ask("show", "Nope")
    refs = [c["ref"] for c in env["candidates"]]
    assert "com.acme.app.Main" not in refs and "org.x.Node" in refs  # no package to favour: near names only
