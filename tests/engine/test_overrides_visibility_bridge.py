"""Differential: an implementation reached through javac's visibility bridge (a public class inheriting a public
method of a package-private superclass gets a synthetic bridge re-declaring it, calling the superclass's method with
invokespecial) is linked as inherited, the bridge notwithstanding: reflection (`getMethod` answers the bridge; the
method it stands for is the superclass's declaration) and javap (the bridge's invokespecial) are the oracles.

One javac, one JVM run, one graph for the module."""

from __future__ import annotations

import subprocess

import pytest

from jdx.engine.rel_usages import UsageOptions
from jdx.engine.relations import ArtifactFilter
from tests.engine.test_overrides_inherited import _edges
from tests.service import JdxService, Options
from tests.fixtures import jdktool

SOURCE = """package p;
public class Hier {
  public interface I { void m(); }
  static class PkgBase { public void m() {} }
  public static class PubSub extends PkgBase implements I {}
  public static class Mid extends PkgBase {}
  public static class Deep extends Mid implements I {}
  public static class Plain extends Mid {}
}
"""

ORACLE = """
import java.lang.reflect.*;
public class Oracle {
  public static void main(String[] a) throws Exception {
    for (String n : a) {
      Class<?> c = Class.forName(n);
      for (Class<?> i : c.getInterfaces())
        for (Method mi : i.getDeclaredMethods()) {
          Method m = c.getMethod(mi.getName(), mi.getParameterTypes());
          Class<?> d = m.getDeclaringClass();
          // a bridge stands for the declaration of the same signature further up that is not one
          while (m.isBridge()) {
            d = d.getSuperclass();
            try { m = d.getDeclaredMethod(m.getName()); } catch (NoSuchMethodException e) { }
          }
          System.out.println(n + "\\t" + m.getDeclaringClass().getName() + "#" + m.getName() + "\\t" + i.getName());
        }
    }
  }
}
"""


@pytest.fixture(scope="module")
def world(jdx_home, tmp_path_factory):
    folder = tmp_path_factory.mktemp("visibility_bridge")
    (folder / "p").mkdir()
    (folder / "p" / "Hier.java").write_text(SOURCE)
    (folder / "Oracle.java").write_text(ORACLE)
    classes = folder / "classes"
    jdktool.run(["javac", "-d", str(classes), str(folder / "Oracle.java"), str(folder / "p" / "Hier.java")],
                   check=True, capture_output=True)
    jar = folder / "p.jar"
    jdktool.run(["jar", "cf", str(jar), "-C", str(classes), "p"], check=True)
    names = ["p.Hier$PubSub", "p.Hier$Deep"]
    oracle = subprocess.run(["java", "-cp", str(classes), "Oracle", *names], capture_output=True, text=True,
                            check=True).stdout
    javap = jdktool.run(["javap", "-c", "-p", "-cp", str(classes), "p.Hier$PubSub"], capture_output=True,
                           text=True, check=True).stdout
    service = JdxService(Options(jars=[str(jar)], cache_dir=str(jdx_home / "cache")))
    yield {"oracle": oracle, "javap": javap, "service": service, "edges": _edges(service)}
    service.close()


def test_the_fixture_has_a_visibility_bridge(world):
    assert "public void m();" in world["javap"]
    assert "invokespecial" in world["javap"] and "p/Hier$PkgBase.m:()V" in world["javap"]


def test_the_bridged_declaration_is_linked_to_the_interface_as_reflection_says(world):
    want = {(line.split("\t")[1], line.split("\t")[2]) for line in world["oracle"].splitlines()}
    assert want == {("p.Hier$PkgBase#m", "p.Hier$I")}
    got = {(f"{o}#{sig.split('(')[0]}", t) for o, sig, t in world["edges"] if o == "p.Hier$PkgBase"}
    assert got == want


def test_overrides_and_usages_call_it_inherited(world):
    """`usages --kind override` says `inherited` where `overrides` does (not `indirect`)."""
    service = world["service"]
    down = service.overrides("p.Hier$I#m()", ArtifactFilter(), 50).result["methods"][0]["overridden_by"]
    base = [e for e in down if e["method"] == "p.Hier$PkgBase#m()"]
    assert len(base) == 1 and base[0].get("inherited"), down
    up = service.overrides("p.Hier$PkgBase#m()").result["methods"][0]["overrides"]
    assert [e["method"] for e in up] == ["p.Hier$I#m()"] and up[0].get("inherited")
    usages = service.usages("p.Hier$I#m()", UsageOptions(kinds=("override",))).result
    sites = [s for g in usages["groups"] for c in g["callers"] for s in c["sites"]]
    assert [(s["caller"], s["detail"]) for s in sites] == [("p.Hier$PkgBase#m()", "inherited")]
