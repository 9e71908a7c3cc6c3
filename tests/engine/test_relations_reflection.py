"""Differential: `hierarchy --down` equals Java reflection's `isAssignableFrom` over every class of the jar,
and `hierarchy --up` equals the reflective supertype closure (superclasses and all interfaces), for
sampled gson and guava types. Classes the JVM cannot load (a dependency missing from the classpath)
are reported by the oracle and left out of both sides."""

from __future__ import annotations

import subprocess
import zipfile
from pathlib import Path

import pytest

from jdx.engine.rel_hierarchy import HierarchyOptions
from jdx.engine.relations import ArtifactFilter
from tests.service import JdxService, Options
from tests.conftest import GSON, GUAVA, require
from tests.fixtures import jdktool

ORACLE = """
import java.nio.file.*;
import java.util.*;
public class Assignable {
  static void closure(Class<?> c, TreeSet<String> out) {
    Class<?> s = c.getSuperclass();
    if (s != null && out.add(s.getName())) closure(s, out);
    for (Class<?> i : c.getInterfaces()) if (out.add(i.getName())) closure(i, out);
  }
  public static void main(String[] a) throws Exception {
    ClassLoader l = Assignable.class.getClassLoader();
    List<Class<?>> all = new ArrayList<>();
    for (String n : Files.readAllLines(Paths.get(a[0]))) {
      try { all.add(Class.forName(n, false, l)); } catch (Throwable t) { System.out.println("SKIP\\t" + n); }
    }
    for (int k = 1; k < a.length; k++) {
      Class<?> t = Class.forName(a[k], false, l);
      TreeSet<String> down = new TreeSet<>(), up = new TreeSet<>();
      for (Class<?> c : all) if (c != t && t.isAssignableFrom(c)) down.add(c.getName());
      closure(t, up);
      System.out.println("DOWN\\t" + a[k] + "\\t" + String.join(";", down));
      System.out.println("UP\\t" + a[k] + "\\t" + String.join(";", up));
    }
  }
}
"""

GSON_TYPES = ["com.google.gson.TypeAdapter", "com.google.gson.JsonElement", "com.google.gson.TypeAdapterFactory",
              "com.google.gson.internal.bind.JsonTreeReader", "com.google.gson.JsonParseException",
              "com.google.gson.internal.LinkedTreeMap"]
GUAVA_TYPES = ["com.google.common.collect.ImmutableCollection", "com.google.common.collect.ImmutableSortedMap",
               "com.google.common.collect.Multimap", "com.google.common.base.Converter",
               "com.google.common.util.concurrent.ListenableFuture", "com.google.common.collect.ForwardingObject",
               "com.google.common.collect.AbstractIterator"]


@pytest.fixture(scope="module")
def oracle(tmp_path_factory):
    folder = tmp_path_factory.mktemp("assignable")
    (folder / "Assignable.java").write_text(ORACLE)
    jdktool.run(["javac", "-d", str(folder), str(folder / "Assignable.java")], check=True)

    def run(jar: Path, types: list[str]) -> tuple[dict, dict, set[str]]:
        with zipfile.ZipFile(jar) as z:
            names = sorted(n[:-6].replace("/", ".") for n in z.namelist()
                           if n.endswith(".class") and "module-info" not in n and not n.startswith("META-INF/"))
        listing = folder / f"{jar.stem}.txt"
        listing.write_text("\n".join(names) + "\n")
        out = subprocess.run(["java", "-cp", f"{folder}:{jar}", "Assignable", str(listing), *types],
                             capture_output=True, text=True, check=True).stdout
        down, up, skipped = {}, {}, set()
        for line in out.splitlines():
            tag, *rest = line.split("\t")
            if tag == "SKIP":
                skipped.add(rest[0])
            else:
                (down if tag == "DOWN" else up)[rest[0]] = set(filter(None, rest[1].split(";")))
        return down, up, skipped

    return run


def _nodes(entries: list[dict]) -> set[str]:
    out = set()
    for e in entries:
        out.add(e["type"])
        out |= _nodes(e.get("children", []))
    return out


def compare(jdx_home: Path, oracle, jar: Path, types: list[str]) -> None:
    service = JdxService(Options(jars=[str(jar)], cache_dir=str(jdx_home / "cache")))
    try:
        down, up, skipped = oracle(jar, types)
        assert sum(len(v) for v in down.values()) > 20 and len(skipped) < len(down) * 50
        artifact = service.show(types[0]).result["artifact"]
        for t in types:
            answer = service.hierarchy(t, HierarchyOptions(filter=ArtifactFilter([artifact]), limit=100000))
            got_down = _nodes(answer.result["down"]) - skipped
            assert got_down == down[t], (t, sorted(got_down ^ down[t])[:10])
            full = service.hierarchy(t, HierarchyOptions(down=False, limit=100000)).result
            assert _nodes(full["up"]) == up[t], (t, sorted(_nodes(full["up"]) ^ up[t]))
            assert full["up_count"] == len(up[t])
            flat = service.implementors(t, HierarchyOptions(filter=ArtifactFilter([artifact]), limit=100000))
            assert {e["type"] for e in flat.result["implementors"]} - skipped == down[t]
    finally:
        service.close()


def test_gson_hierarchy_equals_reflection(jdx_home, oracle):
    compare(jdx_home, oracle, require(GSON), GSON_TYPES)


@pytest.mark.soak
def test_guava_hierarchy_equals_reflection(jdx_home, oracle):
    compare(jdx_home, oracle, require(GUAVA), GUAVA_TYPES)


def test_comparison_can_fail(jdx_home, oracle):
    """The oracle is not vacuous: a subtype set differs from a different type's."""
    down, up, _ = oracle(require(GSON), ["com.google.gson.TypeAdapter", "com.google.gson.JsonElement"])
    assert down["com.google.gson.TypeAdapter"] and down["com.google.gson.TypeAdapter"] != down["com.google.gson.JsonElement"]
    assert "java.lang.Object" in up["com.google.gson.TypeAdapter"]
