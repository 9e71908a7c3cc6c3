"""`jdx diff --include-synthetic` over a return type narrowed behind javac's bridge (spec §7.7): each change is told
once. `p.C implements Supplier<Object>` with `Object get()` becoming `String get()` keeps `get()Object` as a bridge:
one MEMBER_MADE_SYNTHETIC whose new half is `String get()`, not also a MEMBER_ADDED for the bridge (its descriptor
existed). The way back (the bridge's descriptor is the method's again) is one RETURN_TYPE_CHANGED, not also a
`was synthetic` addition. A bridge that comes with a new method is still an addition. The oracle is javac: `javap`
shows the bridge the fixture relies on."""

from __future__ import annotations

import json
import shutil

import pytest

from tests.diff.shim import main, version_jars
from tests.fixtures import jdktool

V1 = {
    "p/C.java": "package p; public class C implements java.util.function.Supplier<Object> {"
                " public Object get() { return null; } }",
    "p/E.java": "package p; public class E {}",
}
V2 = {
    "p/C.java": "package p; public class C implements java.util.function.Supplier<Object> {"
                " public String get() { return null; } }",
    "p/E.java": "package p; public class E implements java.util.function.Supplier<Object> {"
                " public String get() { return null; } }",
}
NARROWED = "return type narrowed from java.lang.Object to java.lang.String: a synthetic bridge keeps the old descriptor"


@pytest.fixture(scope="module")
def jars(tmp_path_factory):
    if shutil.which("javac") is None or shutil.which("jar") is None:
        pytest.skip("javac and jar are not installed")
    _, v1, v2 = version_jars(tmp_path_factory.mktemp("diff-include-synthetic-bridge"), V1, V2, "p")
    return v1, v2


def _findings(jdx_home, old, new, *flags: str) -> list[tuple[str, str, str | None, str | None, str, str]]:
    code, text = main([str(old), str(new), "--json", "--limit", "1000", "--cache-dir", str(jdx_home / "cache"),
                       *flags])
    assert code == 0, text
    return [(f["rule"], f["symbol"], f["old"], f["new"], f["detail"], f["id"])
            for f in json.loads(text)["result"]["findings"]]


def test_the_fixture_has_the_bridge(jars):
    javap = shutil.which("javap")
    if javap is None:
        pytest.skip("javap is not on PATH")
    out = jdktool.run([javap, "-p", "-cp", str(jars[1]), "p.C"], capture_output=True, text=True, check=True).stdout
    assert "public java.lang.String get();" in out and "public java.lang.Object get();" in out, out


def test_a_bridge_keeping_the_old_descriptor_is_not_an_addition(jdx_home, jars):
    found = [f for f in _findings(jdx_home, *jars, "--include-synthetic") if f[1] == "p.C#get()"]
    assert [f[:4] for f in found] == [("MEMBER_MADE_SYNTHETIC", "p.C#get()", "public java.lang.Object get()",
                                       "public java.lang.String get()")], found
    assert found[0][4].startswith(NARROWED), found
    assert found[0][5] == "p/C#get()Ljava/lang/Object;"


def test_include_synthetic_tells_the_narrowing_as_the_default_does(jdx_home, jars):
    def on_c(flags):
        return [f for f in _findings(jdx_home, *jars, *flags) if f[1].startswith("p.C")]

    assert on_c(()) == on_c(("--include-synthetic",))


def test_the_way_back_is_one_return_type_change(jdx_home, jars):
    """v2 -> v1: `String get()` is gone (breaking) and `get()Object`, the bridge, is the method again: its pairing
    with the old `String get()` tells it, not a `was synthetic` addition beside it."""
    for flags in ((), ("--include-synthetic",)):
        found = [f for f in _findings(jdx_home, jars[1], jars[0], *flags) if f[1].startswith("p.C")]
        assert [f[:5] for f in found] == [("RETURN_TYPE_CHANGED", "p.C#get()", "public java.lang.String get()",
                                           "public java.lang.Object get()",
                                           "java.lang.String -> java.lang.Object")], (flags, found)


def test_a_bridge_that_comes_with_a_new_method_is_an_addition(jdx_home, jars):
    found = sorted((f[0], f[3], f[4]) for f in _findings(jdx_home, *jars, "--include-synthetic")
                   if f[1] == "p.E#get()")
    assert found == [("MEMBER_ADDED", "public java.lang.Object get()", "a compiler bridge returning java.lang.Object"),
                     ("MEMBER_ADDED", "public java.lang.String get()", "")], found
    assert [f[3] for f in _findings(jdx_home, *jars) if f[1] == "p.E#get()"] == ["public java.lang.String get()"]


def test_no_finding_is_told_twice(jdx_home, jars):
    for old, new in (jars, jars[::-1]):
        found = _findings(jdx_home, old, new, "--include-synthetic")
        ids = [(f[5], f[3]) for f in found]
        assert len(ids) == len(set(ids)), found
