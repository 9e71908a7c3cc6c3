"""invokedynamic: the bootstrap method is a call of kind `indy` from the method holding the instruction (so `calls`
lists `LambdaMetafactory#metafactory`, a record's `equals` its `ObjectMethods#bootstrap`), and class constants among
the bootstrap arguments are references: a type pattern switch's case labels (`SwitchBootstraps#typeSwitch`, kind
`case_label`), a record's class handed to `ObjectMethods` (kind `indy_arg`). Oracle: javap -v -p (BootstrapMethods
and their arguments) over the same javac output."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from jdx.engine.rel_calls import CallOptions
from jdx.engine.rel_usages import UsageOptions
from tests.fixtures.javac import compiled_jar, jar_service
from tests.service import JdxService, Options
from tests.fixtures import jdktool

JAVAC25 = Path("/usr/lib/jvm/temurin-25-jdk-amd64/bin/javac")

SOURCES = {
    "ti/L.java": "package ti;\npublic class L {\n"
                 "  public Runnable run() { return () -> { }; }\n"
                 "  public String concat(String a, int b) { return a + b; }\n"
                 "  public record Pt(int x, int y) { }\n"
                 "}",
}
SWITCH = {
    "tw/U.java": "package tw;\npublic class U {\n"
                 "  public sealed interface S permits A, B { }\n"
                 "  public record A(int x) implements S { }\n"
                 "  public record B(String y) implements S { }\n"
                 "  public static String f(S s) { return switch (s) { case A a -> \"a\"; case B b -> \"b\"; }; }\n"
                 "  public static String g(Object o) { return switch (o) { case A a -> \"a\"; default -> \"o\"; }; }\n"
                 "}",
}


def _javap_bootstraps(classes: Path, name: str) -> list[str]:
    """`owner.name` of each bootstrap method javap lists for one class file (BootstrapMethods, JVMS §4.7.23)."""
    out = jdktool.run(["javap", "-v", "-p", str(classes / f"{name}.class")], capture_output=True, text=True,
                         check=True).stdout
    section = out[out.index("BootstrapMethods:"):]
    return sorted(set(re.findall(r"REF_invokeStatic ([\w/$]+\.\w+):", section)))


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    _root, jar, classes = compiled_jar(tmp_path_factory, "trial_indy", SOURCES, "ti", "ti.jar")
    return jar, classes


@pytest.fixture(scope="module")
def svc(built, jdx_home):
    with jar_service(built[0], jdx_home) as svc:
        yield svc


def _indy(svc) -> list[tuple[str, str]]:
    rows = svc.cypher("MATCH (m:Method)-[r:INVOKES]->(b:Method) WHERE r.kind = 'indy' "
                      "RETURN m.id AS caller, b.owner AS owner, b.name AS name ORDER BY caller, owner, name"
                      ).result["rows"]
    return sorted((r["caller"].split("#")[0], f"{r['owner']}.{r['name']}") for r in rows)


def test_bootstrap_methods_are_indy_calls_as_javap_lists_them(svc, built):
    classes = built[1]
    want = sorted({(c, b) for c in ("ti/L", "ti/L$Pt") for b in _javap_bootstraps(classes, c)})
    assert ("ti/L", "java/lang/invoke/LambdaMetafactory.metafactory") in want  # the fixture exercises each kind
    assert ("ti/L$Pt", "java/lang/runtime/ObjectMethods.bootstrap") in want
    assert sorted(set(_indy(svc))) == want


def test_calls_and_usages_name_the_bootstrap_method(svc):
    tree = svc.calls("ti.L$Pt#equals", CallOptions()).result
    assert "java.lang.runtime.ObjectMethods#bootstrap" in str(tree)
    # a lambda's bootstrap is javac's plumbing: `calls` descends into the lambda's body instead (rel_calls
    # INDY_PLUMBING); the graph keeps the edge (test_bootstrap_methods_are_indy_calls_as_javap_lists_them)
    assert "LambdaMetafactory" not in str(svc.calls("ti.L#run", CallOptions()).result)
    # the record's class is handed to ObjectMethods for equals, hashCode and toString
    pt = svc.usages("ti.L$Pt", UsageOptions(limit=100)).result
    details = sorted(s["detail"] for g in pt["groups"] for c in g["callers"] for s in c["sites"] if s["kind"] == "ref")
    assert details == ["indy_arg"] * 3

@pytest.mark.soak  # slow: the soak runs it (.ci/run)

def test_case_labels_of_a_type_switch_are_references(tmp_path, jdx_home):
    if not JAVAC25.exists():
        pytest.skip(f"{JAVAC25} is not installed (pattern switches need javac 21+)")
    src, classes = tmp_path / "src", tmp_path / "classes"
    (src / "tw").mkdir(parents=True)
    (src / "tw" / "U.java").write_text(SWITCH["tw/U.java"])
    subprocess.run([str(JAVAC25), "--release", "21", "-d", str(classes), str(src / "tw" / "U.java")], check=True)
    javap = subprocess.run([str(JAVAC25.parent / "javap"), "-v", "-p", str(classes / "tw" / "U.class")],
                           capture_output=True, text=True, check=True).stdout
    assert "java/lang/runtime/SwitchBootstraps.typeSwitch" in javap and "tw/U$A" in javap
    jar = tmp_path / "tw.jar"
    jdktool.run(["jar", "cf", str(jar), "-C", str(classes), "tw"], check=True)
    service = JdxService(Options(jars=[str(jar)], jdk=False, cache_dir=str(jdx_home / "cache")))
    try:
        result = service.usages("tw.U$A", UsageOptions(limit=100)).result
        sites = sorted((s["caller"], s["detail"]) for g in result["groups"] for c in g["callers"] for s in c["sites"]
                       if s["detail"] == "case_label")
        assert sites == [("tw.U#f(tw.U$S)", "case_label"), ("tw.U#g(java.lang.Object)", "case_label")]
        assert "java.lang.runtime.SwitchBootstraps#typeSwitch" in str(service.calls("tw.U#f", CallOptions()).result)
    finally:
        service.close()
