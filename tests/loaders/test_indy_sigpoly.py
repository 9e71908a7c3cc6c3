"""A call of a signature polymorphic method (JVMS §2.9.3) names the descriptor of its call site
(`MethodHandle.invokeExact:([B[Ljava/lang/Object;)Ljava/lang/Object;`); the JVM links it to the one declaration,
`invokeExact(Object...)` (JVMS §5.4.3.3), so the graph does too: no external method node per descriptor, and
`callers` of the declaration lists every site. Oracles: `javap -v` of the JDK's MethodHandle and VarHandle (the
methods with one Object[] parameter, ACC_VARARGS and ACC_NATIVE) and `javap -c -l` of the calling class."""

from __future__ import annotations

import re
import shutil
from collections import Counter
from pathlib import Path

import pytest

from jdx.engine.rel_calls import CallOptions
from jdx.engine.relations import ArtifactFilter
from tests.fixtures import jdktool
from tests.fixtures.javac import javac_jar
from tests.service import JdxService, Options

SOURCES = {"sp/Poly.java": """package sp;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;

public class Poly {
    static final VarHandle A;
    volatile int a;

    static {
        try {
            A = MethodHandles.lookup().findVarHandle(Poly.class, "a", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    Object bytes(MethodHandle mh) throws Throwable {
        return (Object) mh.invokeExact(new byte[0], new Object[0]);
    }
    int string(MethodHandle mh) throws Throwable {
        return (int) mh.invokeExact("s");
    }
    boolean cas() {
        return A.compareAndSet(this, 1, 2);
    }
    Object list(MethodHandle mh) throws Throwable {
        return mh.invokeWithArguments(List.of());
    }
}
"""}
OWNERS = ("java/lang/invoke/MethodHandle", "java/lang/invoke/VarHandle")
METHOD = re.compile(r"^  (?:\S.*?([\w$]+)\(.*\)(?: throws [\w.$, ]+)?|static \{\});$")  # None: <clinit>
DESCRIPTOR = re.compile(r"^    descriptor: (\S+)$")
FLAGS = re.compile(r"^    flags: \(0x[0-9a-f]+\) (.*)$")
CALL = re.compile(r"^\s+(\d+): invoke\w+\s+#\d+(?:,\s+\d+)?\s+// (?:Interface)?Method ([\w/$]+)\.(\w+):(\S+)$")
LINE = re.compile(r"^\s+line (\d+): (\d+)$")
SP = ArtifactFilter(include=["sp*"])  # the fixture's callers, not the JDK's


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, Path]:
    if shutil.which("javac") is None or shutil.which("javap") is None:
        pytest.skip("javac/javap are not installed")
    return javac_jar(tmp_path_factory.mktemp("sigpoly"), SOURCES, "sp", "sp.jar", debug=True)


@pytest.fixture(scope="module")
def polymorphic() -> dict[str, dict[str, str]]:
    """owner -> name -> descriptor of the JDK's signature polymorphic methods, by javap -v's flags."""
    out: dict[str, dict[str, str]] = {}
    for owner in OWNERS:
        text = jdktool.run(["javap", "-v", "-p", owner.replace("/", ".")], capture_output=True, text=True,
                           check=True).stdout
        name = descriptor = None
        found = out.setdefault(owner, {})
        for row in text.splitlines():
            if m := METHOD.match(row):
                name, descriptor = m.group(1) or "<clinit>", None
            elif (m := DESCRIPTOR.match(row)) and name:
                descriptor = m.group(1)
            elif (m := FLAGS.match(row)) and descriptor and descriptor.startswith("([Ljava/lang/Object;)"):
                if {"ACC_VARARGS", "ACC_NATIVE"} <= set(m.group(1).split(", ")):
                    found[name] = descriptor
    return out


@pytest.fixture(scope="module")
def calls(built) -> list[tuple[str, str, str, str, int]]:
    """(caller method name, owner, name, descriptor, line) of each call in sp.Poly, by javap."""
    text = jdktool.run(["javap", "-c", "-l", "-p", "-cp", str(built[1]), "sp.Poly"], capture_output=True, text=True,
                       check=True).stdout
    found, lines = [], {}
    method = None
    for row in text.splitlines():
        if m := METHOD.match(row):
            method = m.group(1) or "<clinit>"
            lines[method] = {}
        elif (m := CALL.match(row)) and method:
            found.append((method, int(m.group(1)), m.group(2), m.group(3), m.group(4)))
        elif (m := LINE.match(row)) and method:
            lines[method][int(m.group(2))] = int(m.group(1))
    return [(method, owner, name, desc, lines[method][max(p for p in lines[method] if p <= pc)])
            for method, pc, owner, name, desc in found]


@pytest.fixture(scope="module")
def svc(built, jdx_home):
    service = JdxService(Options(jars=[str(built[0])], jdk=True, cache_dir=str(jdx_home / "cache")))
    yield service
    service.close()


def test_the_fixture_calls_with_several_descriptors(calls, polymorphic):
    """Two descriptors of invokeExact, one of compareAndSet, none of them the declaration's."""
    assert {"invokeExact", "invoke", "invokeBasic"} <= set(polymorphic[OWNERS[0]])
    assert "compareAndSet" in polymorphic[OWNERS[1]] and "invokeWithArguments" not in polymorphic[OWNERS[0]]
    exact = {d for _m, o, n, d, _l in calls if n == "invokeExact"}
    assert len(exact) == 2 and polymorphic[OWNERS[0]]["invokeExact"] not in exact


@pytest.mark.parametrize("owner,name,ref", [(OWNERS[0], "invokeExact", "java.lang.invoke.MethodHandle#invokeExact"),
                                            (OWNERS[1], "compareAndSet",
                                             "java.lang.invoke.VarHandle#compareAndSet")])
def test_callers_of_the_declaration_list_every_site(svc, calls, owner, name, ref):
    want = Counter((m, line) for m, o, n, _d, line in calls if (o, n) == (owner, name))
    assert want
    result = svc.callers(f"{ref}(Object[])", CallOptions(depth=1, limit=1000, filter=SP)).result
    (root,) = result["roots"]
    got = Counter((e["method"].split("#")[1].split("(")[0], line) for e in root["tree"] for line in e["lines"])
    assert got == want


def test_no_external_node_of_a_polymorphic_call(svc, polymorphic):
    """Across the fixture and the whole JDK: what remains external of the two classes is no signature polymorphic
    method's name."""
    rows = svc.cypher("MATCH (m:Method) WHERE m.external AND m.owner IN ['java/lang/invoke/MethodHandle', "
                      "'java/lang/invoke/VarHandle'] RETURN m.owner AS owner, m.name AS name").result["rows"]
    assert not [r for r in rows if r["name"] in polymorphic[r["owner"]]], rows


def test_a_plain_call_still_resolves_as_declared(svc, calls):
    """`invokeWithArguments(List)` is not polymorphic (its name has an Object... overload too): its own declaration."""
    (desc,) = {d for _m, _o, n, d, _l in calls if n == "invokeWithArguments"}
    result = svc.callers("java.lang.invoke.MethodHandle#invokeWithArguments(java.util.List)",
                         CallOptions(depth=1, limit=1000, filter=SP)).result
    assert [e["method"].split("#")[1].split("(")[0] for e in result["roots"][0]["tree"]] == ["list"], desc
