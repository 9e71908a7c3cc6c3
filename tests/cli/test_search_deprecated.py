"""`search` ranks a deprecated type or member after the others of its match tier, says so in text (`[deprecated]`)
and carries `deprecated: true` in JSON (a trial on commons-math3 listed the deprecated `PolynomialFitter`s above
`PolynomialCurveFitter`, unmarked). A deprecated exact match still beats a prefix one, and a deprecated public hit
a non-public one. Fixtures compiled by javac at test time; the oracle is javap's `Deprecated: true`."""

from __future__ import annotations

import json
import re
import shutil

import pytest

from tests.fixtures.javac import javac_jar, javap

SOURCES = {
    "dp/a/Fitter.java": "package dp.a;\n@Deprecated public class Fitter {\n"
                        "  @Deprecated public void fit() {}\n  @Deprecated public int gauge;\n}\n",
    "dp/b/Fitter.java": "package dp.b;\npublic class Fitter {\n  public void fit() {}\n  public int gauge;\n"
                        "  @Deprecated public void tune(int x) {}\n  public void tune() {}\n}\n",
    "dp/c/Fitter.java": "package dp.c;\nclass Fitter {}\n",
    "dp/PolyFitter.java": "package dp;\n@Deprecated public class PolyFitter {}\n",
    "dp/PolyCurveFitter.java": "package dp;\npublic class PolyCurveFitter {}\n",
    "dp/Dial.java": "package dp;\n@Deprecated public class Dial {}\n",
    "dp/DialMeter.java": "package dp;\npublic class DialMeter {}\n",
    "dp/Outer.java": "package dp;\npublic class Outer {\n  @Deprecated public static class Knob {}\n}\n",
    "dp/Panel.java": "package dp;\npublic class Panel {\n  public static class Knob {}\n}\n",
}
CLASSES = ("dp.a.Fitter", "dp.b.Fitter", "dp.c.Fitter", "dp.PolyFitter", "dp.PolyCurveFitter", "dp.Dial",
           "dp.DialMeter", "dp.Outer$Knob", "dp.Panel$Knob")


@pytest.fixture(scope="module")
def jar(tmp_path_factory):
    if shutil.which("javac") is None:
        pytest.skip("javac is not installed")
    return javac_jar(tmp_path_factory.mktemp("deprecated"), SOURCES, "dp", "dp.jar")[0]


@pytest.fixture(scope="module")
def oracle(jar) -> dict[str, bool]:
    """javap's word on each class and member as search names them (`dp.b.Fitter#tune`): deprecated, a method when
    every overload is."""
    flags: dict[str, list[bool]] = {}
    for cls in CLASSES:
        flags[cls] = [False]
        member, body = None, False
        for line in javap(jar, cls, "-v").splitlines():
            head = re.fullmatch(r"  \S.*? ([\w.$]+)(?:\(.*\))?;", line) if body else None
            if line == "{":  # the members follow
                body = True
            elif head:  # a method or field; a constructor is named by its class (`dp.a.Fitter`)
                member = None if "." in head.group(1) else f"{cls}#{head.group(1)}"
                if member is not None:
                    flags.setdefault(member, []).append(False)
            elif line == "    Deprecated: true" and member is not None:
                flags[member][-1] = True
            elif line == "Deprecated: true":  # the class's own attribute
                flags[cls] = [True]
    return {ref: all(xs) for ref, xs in flags.items()}


def _matches(run_jdx, jar, *args: str) -> list[dict]:
    r = run_jdx("--no-jdk", "--jars", str(jar), "search", *args, "--json")
    assert r.code == 0, r.err
    return json.loads(r.out)["result"]["matches"]


def _ref(m: dict) -> str:
    return m["ref"].split("(", 1)[0]


def test_the_oracle_sees_the_fixture(oracle):
    assert [k for k, v in sorted(oracle.items()) if v] == [
        "dp.Dial", "dp.Outer$Knob", "dp.PolyFitter", "dp.a.Fitter", "dp.a.Fitter#fit", "dp.a.Fitter#gauge"], oracle


@pytest.mark.parametrize("args, refs", [
    # one tier (camel-hump): the shorter deprecated name ranked first before
    (("poly fit",), ["dp.PolyCurveFitter", "dp.PolyFitter"]),
    # a tier's deprecated hits after its others as public, yet before a worse tier's (the later-word
    # `PolyCurveFitter`); a non-public type named as written after every public type
    (("Fitter", "--kind", "class"),
     ["dp.b.Fitter", "dp.a.Fitter", "dp.PolyCurveFitter", "dp.PolyFitter", "dp.c.Fitter"]),
    # no reach split (a qualified glob): a deprecated public type still before a non-public one
    (("dp.*.Fitter",), ["dp.b.Fitter", "dp.a.Fitter", "dp.c.Fitter"]),
    # an exact deprecated name still beats a prefix match
    (("Dial",), ["dp.Dial", "dp.DialMeter"]),
    (("fit", "--kind", "method"), ["dp.b.Fitter#fit", "dp.a.Fitter#fit"]),
    (("gauge", "--kind", "field"), ["dp.b.Fitter#gauge", "dp.a.Fitter#gauge"]),
    # one overload deprecated of two: the group is not
    (("tune",), ["dp.b.Fitter#tune"]),
])
def test_deprecated_ranks_after_its_tier_and_says_so(run_jdx, jar, oracle, args, refs):
    found = _matches(run_jdx, jar, *args)
    assert [_ref(m) for m in found] == refs, found
    assert {_ref(m): m.get("deprecated", False) for m in found} == {ref: oracle[ref] for ref in refs}
    assert all(m["deprecated"] is True for m in found if "deprecated" in m)  # present only when true, as `hidden`


def test_text_marks_deprecated_hits(run_jdx, jar):
    r = run_jdx("--no-jdk", "--jars", str(jar), "search", "poly fit")
    assert r.code == 0, r.err
    assert r.out.splitlines()[:2] == ["class dp.PolyCurveFitter  dp.jar", "class dp.PolyFitter [deprecated]  dp.jar"]
    r = run_jdx("--no-jdk", "--jars", str(jar), "search", "Fitter", "--kind", "class")
    assert "class dp.c.Fitter (non-public)  dp.jar" in r.out.splitlines(), r.out


def test_a_deprecated_nested_type(run_jdx, jar, oracle):
    """A nested type's index access is its InnerClasses flags, which carry no deprecated bit: its class file's is
    taken."""
    found = _matches(run_jdx, jar, "Knob")
    assert [(_ref(m), m.get("deprecated", False)) for m in found] == [
        ("dp.Panel$Knob", oracle["dp.Panel$Knob"]), ("dp.Outer$Knob", oracle["dp.Outer$Knob"])], found


KOTLIN = """package kd

class Aged {
    @Deprecated("use Fresh.spin")
    fun spin(): Int = 1

    @Deprecated("use Fresh.lastThing")
    val lastThing: Int get() = 1
}

class Fresh {
    fun spin(): Int = 2

    val lastThing: Int get() = 2
}
"""


def test_a_kotlin_deprecation_is_marked_in_the_kotlin_view(run_jdx):
    from tests.kotlin.corpus import kotlinc_jar
    from tests.kotlin.test_kotlin_trial_e import _javap

    kt = kotlinc_jar("search-deprecated", {"Spin.kt": KOTLIN})
    assert "    Deprecated: true" in _javap(kt, "kd.Aged") and "Deprecated: true" not in _javap(kt, "kd.Fresh")
    r = run_jdx("--no-jdk", "--jars", str(kt), "search", "spin", "--kind", "method")
    assert r.code == 0, r.err
    assert r.out.splitlines()[:2] == ["fun spin(): Int  kd.Fresh#spin()  " + kt.name,
                                      "fun spin(): Int  kd.Aged#spin()  [deprecated]  " + kt.name], r.out
    # found by its Kotlin name (search_kotlin.kotlin_name_rows), not its getter's
    r = run_jdx("--no-jdk", "--jars", str(kt), "search", "lastThing")
    assert r.out.splitlines()[:2] == ["val lastThing: Int  kd.Fresh#getLastThing()  " + kt.name,
                                      "val lastThing: Int  kd.Aged#getLastThing()  [deprecated]  " + kt.name], r.out
