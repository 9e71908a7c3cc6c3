"""One change, one finding (spec §7.7): a generic signature that changed only with its erased return type is that
RETURN_TYPE_CHANGED (kotlin-stdlib 2.0.21 -> 2.1.0, `SubclassOptInRequired#markerClass()`); a JVM finding the
Kotlin view already makes on the same member is dropped; a member removed from an annotation type is proven
removed, because the platform's java.lang.annotation.Annotation declares no field (junit-jupiter-api 5.14.1 ->
6.1.3, `TempDir#SCOPE_PROPERTY_NAME`)."""

from __future__ import annotations

import json
import shutil

import pytest

from tests.fixtures.javac import javac_jar

OLD = {
    "q/Marker.java": "package q; public @interface Marker {"
                     " Class<? extends java.lang.annotation.Annotation> markerClass(); }",
    "q/TempDir.java": "package q; public @interface TempDir {"
                      " String SCOPE_PROPERTY_NAME = \"junit.jupiter.tempdir.scope\"; String value(); int depth(); }",
    "base/Base.java": "package base; public class Base {}",  # compiled, never jarred: outside the JDK and the jar
    "q/Sub.java": "package q; public class Sub extends base.Base { public void gone() {} }",
    "q/Api.java": "package q; import java.util.*; public class Api {"
                  " public <T extends Number> T bound() { return null; }"
                  " public List<String> both(List<String> in) { return in; }"
                  " public List<String> generic() { return null; }"
                  " public List<String> lost() { return null; } }",
}
NEW = {
    "q/Marker.java": "package q; public @interface Marker {"
                     " Class<? extends java.lang.annotation.Annotation>[] markerClass(); }",
    "q/TempDir.java": "package q; public @interface TempDir { int depth(); }",
    "base/Base.java": "package base; public class Base {}",
    "q/Sub.java": "package q; public class Sub extends base.Base {}",
    "q/Api.java": "package q; import java.util.*; public class Api {"
                  " public <T extends CharSequence> T bound() { return null; }"
                  " public Set<String> both(List<Integer> in) { return null; }"
                  " public List<Integer> generic() { return null; }"
                  " public String[] lost() { return null; } }",
}


@pytest.fixture(scope="module")
def jars(tmp_path_factory):
    if shutil.which("javac") is None:
        pytest.skip("javac is not installed")
    root = tmp_path_factory.mktemp("diff-no-double")
    old, _ = javac_jar(root / "old", OLD, "q", "old.jar")
    new, _ = javac_jar(root / "new", NEW, "q", "new.jar")
    return old, new


def _run(diff, jars) -> list[tuple[str, str, str]]:
    code, text = diff(str(jars[0]), str(jars[1]), "--json", "--limit", "1000")
    assert code == 0, text
    return [(f["rule"], f["symbol"], f["detail"]) for f in json.loads(text)["result"]["findings"]]


def test_a_generic_change_implied_by_the_return_type_is_one_finding(diff, jars):
    got = _run(diff, jars)
    assert [f for f in got if f[1] == "q.Marker#markerClass()"] == [
        ("RETURN_TYPE_CHANGED", "q.Marker#markerClass()", "java.lang.Class -> java.lang.Class[]")]
    # a type parameter whose bound moved is that return change too; a raw array that lost the Signature as well
    assert [f[0] for f in got if f[1] == "q.Api#bound()"] == ["RETURN_TYPE_CHANGED"]
    assert [f[0] for f in got if f[1] == "q.Api#lost()"] == ["RETURN_TYPE_CHANGED"]


def test_a_separate_generic_change_is_still_reported(diff, jars):
    got = _run(diff, jars)
    # the erasure of `generic()` did not change: its generic signature is the only finding
    assert [f for f in got if f[1] == "q.Api#generic()"] == [
        ("GENERIC_SIGNATURE_CHANGED", "q.Api#generic()",
         "(): java.util.List<java.lang.String> -> (): java.util.List<java.lang.Integer>")]
    # the return type changed, and so did a parameter's type argument: two changes, two findings
    assert sorted(f[0] for f in got if f[1] == "q.Api#both(java.util.List)") == [
        "GENERIC_SIGNATURE_CHANGED", "RETURN_TYPE_CHANGED"]


def test_a_member_removed_from_an_annotation_type_is_proven_removed(diff, jars):
    got = _run(diff, jars)
    assert [f for f in got if f[1].startswith("q.TempDir#")] == [
        ("MEMBER_REMOVED", "q.TempDir#SCOPE_PROPERTY_NAME", 'a compile-time constant (= "junit.jupiter.tempdir.scope"): '
         'clients compiled against the old version inlined its value and still run; recompiling them fails'),
        ("MEMBER_REMOVED", "q.TempDir#value()", ""),
    ]


KOTLIN_OLD = """package k
class A {
    fun f(a: String, b: Int): String? = null
    fun g(x: String?): String = ""
    fun h(y: String): String = ""
}
"""
KOTLIN_NEW = """package k
class A {
    fun f(renamed: String, b: Int): String = ""
    fun g(x: String): String = ""
    @Deprecated("gone") fun h(y: String): String = ""
}
"""


def test_kotlin_findings_are_not_restated_by_jvm_ones(diff):
    from tests.kotlin.corpus import kotlinc_jar

    old = kotlinc_jar("no-double-old", {"A.kt": KOTLIN_OLD})
    new = kotlinc_jar("no-double-new", {"A.kt": KOTLIN_NEW})
    got = _run(diff, (old, new))
    # kotlinc's @NotNull/@Nullable and the parameter names in the class file say what the Kotlin view says
    assert sorted(f for f in got if f[1] in ("k.A#f", "k.A#g") or f[1].startswith(("k.A#f(", "k.A#g("))) == [
        ("KOTLIN_NULLABILITY_CHANGED", "k.A#f", "return: kotlin.String? -> kotlin.String"),
        ("KOTLIN_NULLABILITY_CHANGED", "k.A#g", "parameter x: kotlin.String? -> kotlin.String"),
        ("KOTLIN_PARAMETER_NAME_CHANGED", "k.A#f", "parameter 1: a -> renamed (breaks named arguments)"),
    ]
    # @kotlin.Deprecated is the deprecation kotlinc also flags: one DEPRECATED_ADDED, its message in the detail
    assert [f for f in got if f[1].startswith("k.A#h")] == [
        ("DEPRECATED_ADDED", "k.A#h(java.lang.String)", '@kotlin.Deprecated(message="gone")')]


def test_a_supertype_neither_the_artifact_nor_the_jdk_holds_still_hedges_a_removal(diff, jars):
    """What no lookup can see may still declare the member: the removal stays breaking and names that supertype."""
    got = _run(diff, jars)
    (gone,) = [f for f in got if f[1] == "q.Sub#gone()"]
    assert gone[0] == "MEMBER_REMOVED" and "base.Base is not in it" in gone[2], gone
