"""Defects an agent trial found in `jdx diff`, each judged by the JVM: a client compiled against the old library is
run against the new one (`shim.run_clients`, one JVM for the module), and the finding's rule and severity must agree
with what it threw. Covers a member moved to a supertype as `final`, a static method "moved" to a superinterface,
pairing a removal a supertype still resolves, a package-private abstract method, a type made sealed and abstract
methods added to a sealed type, a static method made final, an annotation element that lost its default, and
`--brief`."""

from __future__ import annotations

import shutil

import pytest

from jdx.engine.diff.rules import BREAKING, RULES
from tests.diff.shim import findings_json, main, run_client_bodies
from tests.fixtures.javac import side_jar

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)

# package -> (old classes, new classes): class name -> body after the package line
LIBRARY = {
    # the member A declared is now Base's, and final there: an old override / write no longer links
    "pa": ({"Base": "public class Base { }", "A": "public class A extends Base { public void m() { } public int f; }"},
           {"Base": "public class Base { public final void m() { } public final int f = 2; }",
            "A": "public class A extends Base { }"}),
    # static interface methods are never inherited (JVMS §5.4.3.3-4)
    "ph": ({"I0": "public interface I0 { }", "I": "public interface I extends I0 { static void s() { } }",
            "A": "public class A implements I0 { public static void s() { } }"},
           {"I0": "public interface I0 { static void s() { } }", "I": "public interface I extends I0 { }",
            "A": "public class A implements I0 { }"}),
    # moved to Base while A gained a member of the same name and shape: old callers link through Base
    "pu": ({"Base": "public class Base { }",
            "A": "public class A extends Base { public void m(String s) { } public int f; }"},
           {"Base": "public class Base { public void m(String s) { } public int f; }",
            "A": "public class A extends Base { public void m(Integer s) { } public long f; }"}),
    # a package-private abstract method: no class outside the package could ever implement it (javassist 3.24 ->
    # 3.30 SignatureAttribute$ObjectType#encode)
    "pt": ({"Base": "public abstract class Base { abstract void enc(StringBuffer b); }",
            "Obj": "public abstract class Obj extends Base { }"},
           {"Base": "public abstract class Base { abstract void enc(StringBuilder b); }",
            "Obj": "public abstract class Obj extends Base { }"}),
    # abstract methods added to sealed types: only their permitted subclasses, in the artifact, exist
    "px": ({"C": "public abstract sealed class C permits C.D { public static final class D extends C { } }",
            "S": "public sealed interface S permits S.Impl { final class Impl implements S { public void a() { } } }"},
           {"C": "public abstract sealed class C permits C.D { public abstract void b();"
                 " public static final class D extends C { public void b() { } } }",
            "S": "public sealed interface S permits S.Impl { void a();"
                 " final class Impl implements S { public void a() { } } }"}),
    # types made sealed: an old subclass or implementor outside fails to load
    "py": ({"C": "public abstract class C { public static final class D extends C { } }",
            "I": "public interface I { final class Impl implements I { } }"},
           {"C": "public abstract sealed class C permits C.D { public static final class D extends C { } }",
            "I": "public sealed interface I permits I.Impl { final class Impl implements I { } }"}),
    # a static method made final (JLS §13.4.17), and an instance method made final where no subclass can exist
    "pw": ({"B": "public class B { public B() { } public static void s() { } }",
            "A": "public class A { private A() { } public static A make() { return new A(); } public void i() { } }"},
           {"B": "public class B { public B() { } public static final void s() { } }",
            "A": "public class A { private A() { } public static A make() { return new A(); }"
                 " public final void i() { } }"}),
    # an annotation element losing its default
    "pz": ({"Ann": "@java.lang.annotation.Retention(java.lang.annotation.RetentionPolicy.RUNTIME)"
                   " public @interface Ann { int v() default 1; }"},
           {"Ann": "@java.lang.annotation.Retention(java.lang.annotation.RetentionPolicy.RUNTIME)"
                   " public @interface Ann { int v(); }"}),
}

# client class -> (its source after the package line, what running it against the new library throws)
CLIENTS = {
    "OverridesMovedFinal": ("class OverridesM extends pa.A { public void m() { } }\n"
                            "public class OverridesMovedFinal { public static void use() { new OverridesM().m(); } }",
                            "IncompatibleClassChangeError"),
    "WritesMovedFinal": ("public class WritesMovedFinal { public static void use() { pa.A x = new pa.A(); x.f = 5; } }",
                         "IllegalAccessError"),
    "CallsInterfaceStatic": ("public class CallsInterfaceStatic { public static void use() { ph.I.s(); } }",
                             "NoSuchMethodError"),
    "CallsClassStatic": ("public class CallsClassStatic { public static void use() { ph.A.s(); } }",
                         "NoSuchMethodError"),
    "UsesMovedMembers": ("public class UsesMovedMembers { public static void use() {"
                         " pu.A x = new pu.A(); x.m(\"s\"); x.f = 3; } }", "ok"),
    "UsesObj": ("public class UsesObj { public static void use() { Class<?> c = pt.Obj.class; c.getName(); } }", "ok"),
    "UsesSealed": ("public class UsesSealed { public static void use() {"
                   " new px.S.Impl().a(); px.C c = new px.C.D(); } }", "ok"),
    "ExtendsSealed": ("class SubC extends py.C { }\n"
                      "public class ExtendsSealed { public static void use() { new SubC(); } }",
                      "IncompatibleClassChangeError"),
    "ImplementsSealed": ("class ImplI implements py.I { }\n"
                         "public class ImplementsSealed { public static void use() { new ImplI(); } }",
                         "IncompatibleClassChangeError"),
    "HidesFinalStatic": ("class HidesS extends pw.B { public static void s() { } }\n"
                         "public class HidesFinalStatic { public static void use() { HidesS.s(); pw.A.make().i(); } }",
                         "ok"),
    "ReadsDefault": ("@pz.Ann class Annotated { }\npublic class ReadsDefault { public static void use() {"
                     " Annotated.class.getAnnotation(pz.Ann.class).v(); } }",
                     "IncompleteAnnotationException"),
}


def _compile(root, side: str):
    return side_jar(root, LIBRARY, side, debug=False)


@pytest.fixture(scope="module")
def trial(tmp_path_factory):
    """(the JVM's verdict per client, the findings by symbol, the jars): one javac per side, one JVM run."""
    if shutil.which("javac") is None or shutil.which("java") is None:
        pytest.skip("java/javac are not installed")
    root = tmp_path_factory.mktemp("diff-trial")
    old, new = _compile(root, "old"), _compile(root, "new")
    verdicts = run_client_bodies(root, CLIENTS, old, new)
    findings = findings_json(root / "cache", old, new)
    return verdicts, findings, (old, new, root / "cache")


@pytest.mark.parametrize("client", sorted(CLIENTS))
def test_the_jvm_agrees_with_the_fixture(trial, client):
    verdict = trial[0][f"client.{client}"]
    assert verdict.rsplit(".", 1)[-1] == CLIENTS[client][1], verdict


def _of(trial, prefix: str) -> list[tuple[str, str, str]]:
    return sorted((f["symbol"], f["rule"], f["severity"]) for f in trial[1] if f["symbol"].startswith(prefix))


def test_a_member_moved_to_a_supertype_as_final_is_made_final(trial):
    assert _of(trial, "pa.A") == [("pa.A#f", "MEMBER_MADE_FINAL", BREAKING),
                                  ("pa.A#m()", "MEMBER_MADE_FINAL", BREAKING)]
    details = [f["detail"] for f in trial[1] if f["symbol"].startswith("pa.A#")]
    assert all(d.startswith("now inherited from pa.Base, where it is final") for d in details), details


def test_a_static_method_is_not_inherited_from_an_interface(trial):
    assert _of(trial, "ph.I#") + _of(trial, "ph.A#") == [("ph.I#s()", "MEMBER_REMOVED", BREAKING),
                                                         ("ph.A#s()", "MEMBER_REMOVED", BREAKING)]


def test_a_removal_a_supertype_resolves_is_never_paired(trial):
    assert _of(trial, "pu.A#") == [
        ("pu.A#f", "MEMBER_ADDED", "info"), ("pu.A#f", "MEMBER_MOVED_TO_SUPERTYPE", "suspicious"),
        ("pu.A#m(java.lang.Integer)", "MEMBER_ADDED", "info"),
        ("pu.A#m(java.lang.String)", "MEMBER_MOVED_TO_SUPERTYPE", "suspicious")]


def test_a_package_private_abstract_method_breaks_no_outside_subclass(trial):
    assert [f for f in trial[1] if f["symbol"].startswith("pt.") and f["severity"] == BREAKING] == []


def test_abstract_methods_added_to_a_sealed_type_break_no_outside_subclass(trial):
    found = _of(trial, "px.")
    assert ("px.C#b()", "MEMBER_ADDED", "info") in found and ("px.S#a()", "MEMBER_ADDED", "info") in found, found
    assert all(severity != BREAKING for _, _, severity in found), found


def test_a_type_made_sealed_is_breaking(trial):
    assert _of(trial, "py.") == [("py.C", "TYPE_MADE_SEALED", BREAKING), ("py.I", "TYPE_MADE_SEALED", BREAKING)]


def test_a_static_method_made_final_is_suspicious_and_a_method_no_subclass_can_override_is_no_break(trial):
    assert _of(trial, "pw.") == [("pw.B#s()", "STATIC_METHOD_MADE_FINAL", RULES["STATIC_METHOD_MADE_FINAL"])]
    assert RULES["STATIC_METHOD_MADE_FINAL"] == "suspicious"


def test_an_annotation_element_losing_its_default_is_breaking(trial):
    assert _of(trial, "pz.") == [("pz.Ann#v()", "ANNOTATION_DEFAULT_REMOVED", BREAKING)]


def test_brief_prints_bare_finding_rows(trial):
    old, new, cache = trial[2]
    code, text = main([str(old), str(new), "--brief", "--limit", "1000", "--cache-dir", str(cache)])
    assert code == 0, text
    lines = text.splitlines()
    assert len(lines) == len(trial[1]), text
    assert all(line.split("  ", 1)[0] in ("breaking", "suspicious", "info") for line in lines), text
