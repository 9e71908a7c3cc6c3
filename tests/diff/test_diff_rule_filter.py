"""`jdx diff --rule RULE` (repeatable): an agent filters findings on a rule id, never on prose (spec §7.7: "so an
agent filters on a code"); the tally still counts all, a line says how many the filter hid, and an unknown rule is
a usage error (exit 3) naming the nearest ids. Oracle: the unfiltered diff of the same two javac-compiled jars."""

from __future__ import annotations

import json

from tests.diff.shim import main
from tests.diff.test_diff_t47 import VISITORS_NEW, VISITORS_OLD, _jar


def test_rule_shows_the_findings_of_those_rules_and_counts_the_rest(tmp_path, jdx_home):
    old, new = _jar(tmp_path / "old", VISITORS_OLD), _jar(tmp_path / "new", VISITORS_NEW)
    cache = ["--cache-dir", str(jdx_home / "cache")]
    every = json.loads(main([str(old), str(new), "--json", *cache])[1])["result"]
    rules = sorted({f["rule"] for f in every["findings"]})
    assert len(rules) >= 2, rules  # (a filter that keeps everything would prove nothing)
    wanted = rules[:1]
    picked = json.loads(main([str(old), str(new), "--json", "--rule", wanted[0].lower(), *cache])[1])["result"]
    assert picked["findings"] == [f for f in every["findings"] if f["rule"] in wanted]
    assert picked["counts"] == every["counts"] and picked["rules"] == wanted
    both = json.loads(main([str(old), str(new), "--json", "--rule", rules[0], "--rule", rules[1], *cache])[1])
    assert both["result"]["findings"] == [f for f in every["findings"] if f["rule"] in rules[:2]]
    code, text = main([str(old), str(new), "--rule", wanted[0], *cache])
    hidden = len(every["findings"]) - len(picked["findings"])
    assert code == 0 and f"… {hidden} findings hidden by --rule {wanted[0]}" in text.splitlines(), text
    code, text = main([str(old), str(new), "--rule", "MEMBER_REMOVD", *cache])
    assert code == 3 and "--rule MEMBER_REMOVD: no such rule (did you mean MEMBER_REMOVED" in text, text


def test_an_unknown_rule_lists_every_rule_id_by_severity(tmp_path, jdx_home):
    """`jdx help diff` names a few rules; the usage error is where an agent sees them all (a trial on Eclipse OSGi)."""
    from jdx.engine.diff.rules import RULES

    old, new = _jar(tmp_path / "old", VISITORS_OLD), _jar(tmp_path / "new", VISITORS_NEW)
    code, text = main([str(old), str(new), "--rule", "NO_SUCH_RULE", "--cache-dir", str(jdx_home / "cache")])
    assert code == 3 and "no such rule" in text, text
    hint = next(line for line in text.splitlines() if line.startswith("hint: "))
    listed = {r.strip() for part in hint.split(": ", 2)[2].split("; ") for r in part.split(": ", 1)[1].split(",")}
    assert listed == set(RULES), sorted(set(RULES) ^ listed)
    assert "breaking: ABSTRACT_ADDED" in hint and "info: ABSTRACT_REMOVED" in hint, hint
