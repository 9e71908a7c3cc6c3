"""A hierarchy the limit cuts says so at every level, the root's own too: its supertypes (subtypes) not shown are
counted under their section (`… N more supertypes past --limit`), never an empty section or a `(none)`.
Oracle: javap's `extends`/`implements` of the root (its direct supertypes)."""

from __future__ import annotations

import json
import re

from tests.fixtures import jdktool


def _direct_supertypes(name: str) -> int:
    out = jdktool.run(["javap", name], capture_output=True, text=True, check=True).stdout
    head = next(ln for ln in out.splitlines() if " class " in ln or " interface " in ln)
    ext = re.search(r" extends ([^{]+?)(?: implements |\{|$)", head)
    imp = re.search(r" implements ([^{]+)", head)
    count = lambda m: len([x for x in re.split(r",(?![^<]*>)", m.group(1)) if x.strip()]) if m else 0  # noqa: E731
    return count(ext) + count(imp)


def test_the_roots_own_cut_supertypes_and_subtypes_are_counted(run_jdx):
    direct = _direct_supertypes("java.util.ArrayList")
    r = json.loads(run_jdx("hierarchy", "java.util.ArrayList", "--limit", "2", "--json").out)["result"]
    assert len(r["up"]) + r.get("up_not_shown", 0) == direct and r["up_not_shown"] > 0, r
    assert r["down"] == [] and r["down_not_shown"] > 0
    text = run_jdx("hierarchy", "java.util.ArrayList", "--limit", "2").out.splitlines()
    assert f"    … {r['up_not_shown']} more supertypes past --limit" in text, text
    assert f"    … {r['down_not_shown']} more subtypes past --limit" in text and "    (none)" not in text, text
    whole = json.loads(run_jdx("hierarchy", "java.util.ArrayList", "--up", "--json").out)["result"]
    assert len(whole["up"]) == direct and "up_not_shown" not in whole
