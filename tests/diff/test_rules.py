"""Every Java rule of spec §7.7 on a compiled old/new pair that triggers exactly it, and the JVM's verdict on an
old compiled caller run against the new library: BREAKING rules fail to link or run with the error JLS §13
predicts; SUSPICIOUS and INFO changes still link."""

from __future__ import annotations

from collections import Counter, defaultdict

import pytest

from jdx.commands.diff import DiffRequest, run_diff
from jdx.commands.session import Options, Session
from jdx.engine.diff.rules import BREAKING, JAVA_RULES, RULES
from tests.diff.cases import CASES, JAVA_RULES_COVERED, SCENARIOS

# slow: the soak runs it (.ci/run); every rule's jar pair is compiled and diffed (~13 s of the default tier)
pytestmark = pytest.mark.soak


@pytest.fixture(scope="module")
def suite(diff_suite):
    return diff_suite


def _by_package(suite, jdx_home, **options) -> dict[str, list[dict]]:
    session = Session(Options(cache_dir=str(jdx_home / "cache")))
    answer = run_diff(session, DiffRequest(query=str(suite.root / "old"), new=str(suite.root / "new"), limit=100_000,
                                           **options))
    assert answer.result["shown"] == answer.result["total"]
    out = defaultdict(list)
    for f in answer.result["findings"]:
        out[f["symbol"].split(".", 1)[0]].append(f)
    return out


@pytest.fixture(scope="module")
def by_package(suite, jdx_home):
    return _by_package(suite, jdx_home)


def test_every_java_rule_has_a_case():
    assert JAVA_RULES_COVERED == sorted(JAVA_RULES)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_case_triggers_exactly_its_rule(case, by_package):
    findings = by_package.get(f"p_{case.name}", [])
    assert {f["rule"] for f in findings} == {case.rule}, findings
    assert all(f["severity"] == RULES[case.rule] for f in findings)


@pytest.mark.parametrize("case", [c for c in CASES if c.caller is not None], ids=lambda c: c.name)
def test_old_caller_against_new_library(case, suite):
    assert suite.linkage[(case.name, "old")] == (), suite.messages[(case.name, "old")]
    thrown = suite.linkage[(case.name, "new")]
    if RULES[case.rule] == BREAKING:
        assert case.expect is not None
        assert thrown and thrown[0].rsplit(".", 1)[-1] == case.expect, (thrown, suite.messages[(case.name, "new")])
        assert "java.lang.LinkageError" in thrown or thrown[0] == "java.lang.InstantiationError"
    else:
        assert thrown == (), (thrown, suite.messages[(case.name, "new")])


def test_every_breaking_rule_is_proven_by_the_jvm():
    proven = {c.rule for c in CASES if c.caller is not None and c.expect is not None}
    # an annotation element that lost its default throws IncompleteAnnotationException, no LinkageError: the JVM
    # proves it in test_trial_jvm.py
    proven.add("ANNOTATION_DEFAULT_REMOVED")
    assert proven == {r for r in JAVA_RULES if RULES[r] == BREAKING}


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.name)
def test_scenario(scenario, by_package):
    findings = by_package.get(f"p_{scenario.name}", [])
    assert Counter(f["rule"] for f in findings) == Counter(scenario.rules), findings
    for rule, text in scenario.detail_contains:
        assert any(f["rule"] == rule and text in f["detail"] for f in findings), findings


def test_visibility_all_and_synthetic(suite, jdx_home):
    every = _by_package(suite, jdx_home, visibility="all")
    synthetic = _by_package(suite, jdx_home, visibility="all", include_synthetic=True)
    for sc in SCENARIOS:
        want_all = sc.rules if sc.all_rules is None else sc.all_rules
        want_synthetic = want_all if sc.synthetic_rules is None else sc.synthetic_rules
        assert Counter(f["rule"] for f in every.get(f"p_{sc.name}", [])) == Counter(want_all), sc.name
        assert Counter(f["rule"] for f in synthetic.get(f"p_{sc.name}", [])) == Counter(want_synthetic), sc.name
    # a bridge and the method it forwards to print as one reference: the bridge's detail tells them apart
    calls = [f["detail"] for f in synthetic["p_class_gains_parameterized_interface"] if f["symbol"].endswith("H#call()")]
    assert sorted(calls) == ["", "a compiler bridge returning java.lang.Object"], calls
    narrowed = every["p_member_visibility_narrowed"]
    assert [(f["rule"], f["detail"]) for f in narrowed] == [("MEMBER_VISIBILITY_NARROWED", "public -> private")]


def test_a_removed_superclass_is_not_hedged_by_a_missing_interface(by_package):
    """slf4j 1.7 -> 2.0's NOPLogger lost MarkerIgnoringBase while implementing java.io.Serializable (not in the jar):
    a class cannot be inherited through an interface, so the finding says it is gone, no "may still be inherited".
    The removed interface I is proven gone too: java.lang.Runnable, looked up in the JDK, has no supertypes."""
    findings = by_package["p_supertype_removed_beside_a_missing_interface"]
    details = sorted(f["detail"] for f in findings if f["rule"] == "SUPERTYPE_REMOVED")
    assert details[0] == "p_supertype_removed_beside_a_missing_interface.B", details
    assert details[1] == "p_supertype_removed_beside_a_missing_interface.I", details


def test_only_a_missing_supertype_that_could_hand_the_member_down_hedges_its_removal(by_package):
    details = {f["symbol"].rsplit(".", 1)[1]: f["detail"] for f in by_package["p_removed_beside_missing_interfaces"]}
    assert details["Q#p()"] == "" and details["Q#s()"] == "", details  # protected, static: never from an interface
    # Runnable could hand down a public instance method, but the JDK's Runnable declares no i(): proven removed
    assert details["Q#i()"] == "", details
