"""`implementors` says which subtypes code outside their package cannot name (T43: OpenTelemetry's package-private
`NoopSpanExporter` and `MultiSpanExporter` read like `LoggingSpanExporter`, so an agent wrote `new NoopSpanExporter()`
and got a compile error), as search and resolve mark them; and the JDK's implementation packages come after its
exported API within a tier (AbstractMap's first rows were com.sun.org.apache.xerces.internal classes). Oracles: javap
of a fixture compiled at test time, `java --describe-module`."""

from __future__ import annotations

import json
import subprocess

import pytest

from tests.fixtures.javac import javac_jar, javap

SOURCES = {
    "p/Exporter.java": "package p; public interface Exporter { void export(); }",
    "p/Logging.java": "package p; public final class Logging implements Exporter { public void export() {} }",
    "p/Noop.java": "package p; final class Noop implements Exporter { public void export() {} }",
}


@pytest.fixture(scope="module")
def jar(tmp_path_factory):
    return javac_jar(tmp_path_factory.mktemp("impl-access"), SOURCES, "p", "lib.jar")[0]


def test_a_package_private_implementor_is_marked(run_jdx, jar):
    assert javap(jar, "p.Noop").splitlines()[1].startswith("final class p.Noop")  # the oracle: no `public`
    assert javap(jar, "p.Logging").splitlines()[1].startswith("public final class p.Logging")
    r = run_jdx("--no-jdk", "--jars", str(jar), "implementors", "p.Exporter", "--json")
    assert r.code == 0, r.err
    rows = {e["type"]: e.get("public", True) for e in json.loads(r.out)["result"]["implementors"]}
    assert rows == {"p.Logging": True, "p.Noop": False}, rows
    text = run_jdx("--no-jdk", "--jars", str(jar), "implementors", "p.Exporter").out.splitlines()
    assert [line.split()[2] for line in text if "(non-public)" in line] == ["p.Noop"], text
    assert all(line.split()[:2] == ["final", "class"] for line in text[1:]), text  # javap: both are final


@pytest.mark.soak  # the JDK's whole AbstractMap closure (the soak runs it: .ci/run)
def test_the_jdks_exported_implementors_come_first(run_jdx):
    described = subprocess.run(["java", "--describe-module", "java.xml"], capture_output=True, text=True).stdout
    internal = "com.sun.org.apache.xerces.internal.impl.xs.util"
    assert described and f"exports {internal}" not in described  # the oracle: java.xml keeps it to itself
    r = run_jdx("implementors", "java.util.AbstractMap", "--json", "--limit", "200")
    assert r.code == 0, r.err
    names = [e["type"] for e in json.loads(r.out)["result"]["implementors"] if e.get("public", True)
             and not e.get("anonymous") and not e.get("synthetic")]
    first_internal = next(i for i, n in enumerate(names) if n.startswith(internal))
    assert "java.util.HashMap" in names[:first_internal], names
    assert all(not n.startswith(("java.", "javax.")) for n in names[first_internal:]), names
