"""Callers that are compiler bridges say so (`usages`, `callers`): `String#compareTo(Object)` is no method a source
declares, it forwards `Comparable` calls to `compareTo(String)`. Checked against reflection's `Method.isBridge()`
for every caller the answers list."""

from __future__ import annotations

import subprocess
import textwrap

import pytest

from jdx.engine.rel_calls import CallOptions
from jdx.engine.rel_usages import UsageOptions
from tests.fixtures.build_graph import graph_jar
from tests.service import JdxService, Options
from tests.fixtures import jdktool

TARGETS = ("java.lang.String#compareTo(String)", "java.lang.Integer#compareTo(Integer)")

ORACLE = textwrap.dedent("""\
    import java.lang.reflect.Method;
    public class Bridges {
        static String desc(Class<?> c) {
            if (c.isPrimitive()) {
                return String.valueOf("ZBCSIJFDV".charAt(java.util.Arrays.asList(boolean.class, byte.class,
                    char.class, short.class, int.class, long.class, float.class, double.class, void.class).indexOf(c)));
            }
            return c.isArray() ? c.getName().replace('.', '/') : "L" + c.getName().replace('.', '/') + ";";
        }
        public static void main(String[] args) throws Exception {
            for (String id : args) {  // owner#name(desc)
                String owner = id.substring(0, id.indexOf('#')).replace('/', '.');
                String rest = id.substring(id.indexOf('#') + 1);
                boolean bridge = false;
                for (Method m : Class.forName(owner, false, null).getDeclaredMethods()) {
                    StringBuilder d = new StringBuilder(m.getName()).append('(');
                    for (Class<?> p : m.getParameterTypes()) d.append(desc(p));
                    d.append(')').append(desc(m.getReturnType()));
                    if (d.toString().equals(rest)) bridge = m.isBridge();
                }
                System.out.println(id + " " + bridge);
            }
        }
    }""")


@pytest.fixture(scope="module")
def svc(jdx_home):
    service = JdxService(Options(jars=[str(graph_jar(jdx_home))], cache_dir=str(jdx_home / "cache")))
    yield service
    service.close()


@pytest.fixture(scope="module")
def is_bridge(tmp_path_factory):
    """caller id -> whether reflection calls it a bridge (JDK classes: the running JVM's own)."""
    work = tmp_path_factory.mktemp("bridges")
    (work / "Bridges.java").write_text(ORACLE)
    jdktool.run(["javac", "-d", str(work), str(work / "Bridges.java")], check=True, capture_output=True)

    def ask(ids: list[str]) -> dict[str, bool]:
        out = subprocess.run(["java", "-cp", str(work), "Bridges", *ids], check=True, capture_output=True,
                             text=True).stdout
        return {line.rsplit(" ", 1)[0]: line.endswith("true") for line in out.splitlines()}

    return ask


def _usage_callers(svc, target: str) -> dict[str, bool]:
    result = svc.usages(target, UsageOptions(limit=10_000)).result
    return {c["caller_id"]: bool(c.get("bridge")) for g in result["groups"] for c in g["callers"]
            if c["caller_id"].startswith("java/")}


def _tree_callers(svc, target: str) -> dict[str, bool]:
    result = svc.callers(target, CallOptions(depth=1, limit=10_000)).result
    found = {}
    for root in result["roots"]:
        for e in root["tree"]:
            if e["id"].startswith("java/"):
                found[e["id"]] = bool(e.get("bridge"))
    return found


@pytest.mark.parametrize("target", TARGETS)
def test_bridge_callers_are_marked_as_reflection_sees_them(svc, is_bridge, target):
    for listed in (_usage_callers(svc, target), _tree_callers(svc, target)):
        truth = is_bridge(sorted(listed))
        assert listed == truth, {k: (v, truth.get(k)) for k, v in listed.items() if v != truth.get(k)}
        assert any(listed.values()), "the compareTo(Object) bridge calls compareTo(T): the case is not exercised"
