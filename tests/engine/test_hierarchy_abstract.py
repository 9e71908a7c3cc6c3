"""`hierarchy` and `implementors` say `abstract class` for an abstract class (JSON `abstract: true`), as `show` does;
javap's class header (`public abstract class …`) is the oracle, interfaces never marked."""

from __future__ import annotations

import json
import re

from tests.fixtures import jdktool


def _javap_abstract(types: list[str]) -> dict[str, bool]:
    out = jdktool.run(["javap", *types], capture_output=True, text=True, check=True).stdout
    heads = re.findall(r"^(?:public |protected |private )?((?:abstract |final |sealed |non-sealed |static )*)"
                       r"(class|interface) ([\w.$]+)", out, re.M)
    return {name: kind == "class" and "abstract" in mods.split() for mods, kind, name in heads}


def test_abstract_classes_are_marked_as_javap_says(run_jdx):
    env = json.loads(run_jdx("--json", "implementors", "java.util.AbstractCollection", "--limit", "25").out)
    entries = [e for e in env["result"]["implementors"] if not e.get("anonymous")]
    up = json.loads(run_jdx("--json", "hierarchy", "java.util.ArrayList", "--up").out)["result"]

    def walk(nodes):
        for n in nodes:
            yield n
            yield from walk(n.get("children", []))

    entries += list(walk(up["up"]))
    types = sorted({e["type"].split("<")[0] for e in entries})
    oracle = _javap_abstract(types)
    assert set(oracle) == set(types), set(types) - set(oracle)
    assert any(oracle.values()) and not all(oracle.values())
    for e in entries:
        assert e.get("abstract", False) == oracle[e["type"].split("<")[0]], e
    assert env["result"]["abstract"] is True  # AbstractCollection itself
