"""A breaking finding says what the old version declared the symbol to be: `@Deprecated` (for removal), apiguardian's
`@API(status = INTERNAL | DEPRECATED | EXPERIMENTAL)` on it or on its class (JUnit's `TestPlan#add` was both, its
`EngineExecutionOrchestrator` internal). An interface method added says it affects implementors only. The oracle is
javap -v of the old side: the annotations the class file holds."""

from __future__ import annotations

import json

import pytest

from jdx.engine.diff.api_status import IMPLEMENTORS_ONLY
from tests.fixtures.javac import javap, side_jar

API = ("@java.lang.annotation.Retention(java.lang.annotation.RetentionPolicy.RUNTIME) public @interface API { enum Status { INTERNAL, DEPRECATED, EXPERIMENTAL, MAINTAINED, STABLE } "
       "Status status(); String since() default \"\"; String[] consumers() default {}; }")
OLD = {
    "Plan": "public class Plan { @Deprecated public void add(String s) {} "
            "@Deprecated(forRemoval = true) public void drop() {} public void keep() {} public void plain() {} }",
    "Orchestrator": "@org.apiguardian.api.API(status = org.apiguardian.api.API.Status.INTERNAL, "
                    "consumers = {\"a.b\"}) public class Orchestrator { public void run() {} }",
    "Stable": "@org.apiguardian.api.API(status = org.apiguardian.api.API.Status.STABLE) public class Stable { "
              "public void go() {} }",
    "Listener": "public interface Listener { void a(); }",
}
NEW = {
    "Plan": "public class Plan { public void keep() {} }",
    "Stable": "public class Stable { }",
    "Listener": "public interface Listener { void a(); void b(); }",
}


@pytest.fixture(scope="module")
def sides(tmp_path_factory):
    root = tmp_path_factory.mktemp("api-status")
    library = {"org.apiguardian.api": ({"API": API}, {"API": API}), "s": (OLD, NEW)}
    return side_jar(root, library, "old"), side_jar(root, library, "new")


def test_breaking_findings_say_what_the_old_version_declared(diff, sides):
    old, new = sides
    plan, orchestrator = javap(str(old), "s.Plan", "-v"), javap(str(old), "s.Orchestrator", "-v")
    assert "java.lang.Deprecated\n" in plan and "java.lang.Deprecated(\n          forRemoval=true" in plan
    assert "RuntimeVisibleAnnotations:" in orchestrator and "API$Status;.INTERNAL" in orchestrator
    code, text = diff(str(old), str(new), "--json", "--limit", "1000")
    assert code == 0, text
    got = {(f["rule"], f["symbol"]): f["detail"] for f in json.loads(text)["result"]["findings"]}
    assert got[("MEMBER_REMOVED", "s.Plan#add(java.lang.String)")] == "the old version declared it @Deprecated"
    assert got[("MEMBER_REMOVED", "s.Plan#drop()")] == "the old version declared it @Deprecated(forRemoval=true)"
    assert got[("MEMBER_REMOVED", "s.Plan#plain()")] == ""  # nothing declared: nothing said
    assert got[("TYPE_REMOVED", "s.Orchestrator")] == "the old version declared it @API(INTERNAL, for a.b)"
    assert got[("MEMBER_REMOVED", "s.Stable#go()")] == ""  # STABLE is what a caller may rely on
    assert got[("INTERFACE_METHOD_ADDED", "s.Listener#b()")] == IMPLEMENTORS_ONLY


OPT_IN = ("public @interface RequiresOptIn { String message() default \"\"; Level level() default Level.ERROR; "
          "enum Level { WARNING, ERROR } }")
MARKED_OLD = {
    "Internal": "@kotlin.RequiresOptIn(level = kotlin.RequiresOptIn.Level.ERROR) "
                "@java.lang.annotation.Retention(java.lang.annotation.RetentionPolicy.CLASS) "
                "public @interface Internal {}",
    "Preview": "@kotlin.RequiresOptIn(level = kotlin.RequiresOptIn.Level.WARNING) public @interface Preview {}",
    "Op": "@Internal public class Op { public void decide() {} public void keep() {} }",
    "Flow": "public class Flow { @Preview public void debounce() {} }",
}
MARKED_NEW = {"Internal": MARKED_OLD["Internal"], "Preview": MARKED_OLD["Preview"],
              "Op": "@Internal public class Op { public void keep() {} }", "Flow": "public class Flow { }"}


def test_a_kotlin_opt_in_marker_is_said(diff, tmp_path_factory):
    """T97: kotlinx.coroutines' breaks on `@InternalCoroutinesApi` types (an opt-in marker of level ERROR: no caller
    compiles without opting in) read as public API breaks; the detail now names the marker and its level."""
    root = tmp_path_factory.mktemp("opt-in")
    library = {"kotlin": ({"RequiresOptIn": OPT_IN}, {"RequiresOptIn": OPT_IN}), "k": (MARKED_OLD, MARKED_NEW)}
    old, new = side_jar(root, library, "old"), side_jar(root, library, "new")
    assert "RuntimeInvisibleAnnotations:" in javap(str(old), "k.Op", "-v")  # CLASS retention: still in the file
    code, text = diff(str(old), str(new), "--json", "--limit", "1000")
    assert code == 0, text
    got = {(f["rule"], f["symbol"]): f["detail"] for f in json.loads(text)["result"]["findings"]}
    assert got[("MEMBER_REMOVED", "k.Op#decide()")] == (
        "the old version declared its class @Internal (a Kotlin opt-in marker, level ERROR: callers had to opt in)")
    assert got[("MEMBER_REMOVED", "k.Flow#debounce()")] == (
        "the old version declared it @Preview (a Kotlin opt-in marker, level WARNING: callers had to opt in)")
