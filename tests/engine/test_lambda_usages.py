"""A lambda or method reference is an `impl` usage (detail `lambda`, or `method-ref`) of the functional interface it
creates an instance of, at its line: `usages <interface>` lists it by default and under `--kind impl`, never under
`--kind ref`. Oracle: `javap -v -p`: each invokedynamic bootstrapped by LambdaMetafactory is one usage of the interface
its descriptor returns (and of each marker interface altMetafactory is given), at the line of the instruction, a
method reference when its implementation handle (the second bootstrap argument) is no lambda body; one in a lambda
body (`lambda$nested$4`) is its writer's (`nested`), marked in lambda."""

from __future__ import annotations

import re
import shutil
from collections import Counter
from pathlib import Path

import pytest

from jdx.engine.rel_usages import UsageOptions
from tests.fixtures import jdktool
from tests.fixtures.javac import javac_jar
from tests.service import JdxService, Options

SOURCES = {
    "lu/Handler.java": "package lu;\npublic interface Handler<T> {\n    T handle(String s);\n}\n",
    "lu/Marker.java": "package lu;\npublic interface Marker {}\n",
    "lu/Use.java": """package lu;

import java.util.function.Supplier;

public class Use {
    static String twice(String s) {
        return s + s;
    }
    Handler<String> lambda() {
        return s -> s.trim();
    }
    Handler<String> reference() {
        return Use::twice;
    }
    Supplier<String> supplier() {
        return () -> "x";
    }
    Supplier<Use> constructor() {
        return Use::new;
    }
    Runnable marked() {
        return (Runnable & Marker) () -> { };
    }
    void nested() {
        Runnable r = () -> {
            Handler<Integer> h = s -> s.length();
            h.handle("a");
        };
        r.run();
    }
}
""",
}
INTERFACES = ("lu/Handler", "lu/Marker", "java/util/function/Supplier", "java/lang/Runnable")
METHOD = re.compile(r"^  \S.*?([\w$]+)\(.*\);$")
INDY = re.compile(r"^\s+(\d+): invokedynamic\s+#\d+,\s+0\s+// InvokeDynamic #(\d+):\w+:\S*\)L([\w/$]+);$")
LINE = re.compile(r"^\s+line (\d+): (\d+)$")
BOOTSTRAP = re.compile(r"^  (\d+): #\d+ REF_invokeStatic ([\w/$]+)\.\w+:")
ARGUMENT = re.compile(r"^      #\d+ (.*)$")
CLASS_CONSTANT = re.compile(r"^[A-Za-z_$][\w/$]*$")  # a marker interface (the others: method types, handles, ints)
# the implementation handle: `REF_invokeStatic lu/Use.twice:(...`, `REF_newInvokeSpecial lu/Use."<init>":(...`
HANDLE = re.compile(r'^REF_\w+ [\w/$]+\."?([\w$<>]+)"?:')


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, Path]:
    if shutil.which("javac") is None or shutil.which("javap") is None:
        pytest.skip("javac/javap are not installed")
    return javac_jar(tmp_path_factory.mktemp("lambda_usages"), SOURCES, "lu", "lu.jar", debug=True)


@pytest.fixture(scope="module")
def oracle(built) -> Counter:
    """(interface, enclosing method, line, in lambda, detail) of each lambda or method reference, by javap."""
    text = jdktool.run(["javap", "-v", "-p", "-cp", str(built[1]), "lu.Use"], capture_output=True, text=True,
                       check=True).stdout
    sites: list[tuple[str, int, str, str]] = []  # (method, pc, bootstrap index, returned interface)
    lines: dict[str, dict[int, int]] = {}
    bootstraps: dict[str, tuple[str, list[str]]] = {}
    method = boot = None
    for row in text.splitlines():
        if m := METHOD.match(row):
            method = m.group(1)
            lines[method] = {}
        elif (m := INDY.match(row)) and method:
            sites.append((method, int(m.group(1)), m.group(2), m.group(3)))
        elif (m := LINE.match(row)) and method:
            lines[method][int(m.group(2))] = int(m.group(1))
        elif m := BOOTSTRAP.match(row):
            boot = m.group(1)
            bootstraps[boot] = (m.group(2), [])
        elif (m := ARGUMENT.match(row)) and boot is not None:
            bootstraps[boot][1].append(m.group(1))
    want: Counter = Counter()
    for method, pc, boot, made in sites:
        owner, args = bootstraps[boot]
        if owner != "java/lang/invoke/LambdaMetafactory":
            continue
        line = lines[method][max(p for p in lines[method] if p <= pc)]
        writer = re.fullmatch(r"lambda\$(\w+)\$\d+", method)  # javac's lambda body: its writer's site
        body = HANDLE.match(args[1]).group(1)
        where = (writer.group(1) if writer else method, line, writer is not None,
                 "lambda" if body.startswith("lambda$") else "method-ref")
        for interface in [made, *(a for a in args if CLASS_CONSTANT.match(a))]:
            want[(interface, *where)] += 1
    return want


@pytest.fixture(scope="module")
def svc(built, jdx_home):
    service = JdxService(Options(jars=[str(built[0])], jdk=False, cache_dir=str(jdx_home / "cache")))
    yield service
    service.close()


def _lambda_sites(svc, interface: str, kinds: tuple[str, ...]) -> Counter:
    result = svc.usages(interface.replace("/", "."), UsageOptions(kinds=kinds, limit=1000)).result
    return Counter((interface, s["caller"].split("#")[1].split("(")[0], s["line"], s["in_lambda"], s["detail"])
                   for g in result["groups"] for c in g["callers"] for s in c["sites"]
                   if s["kind"] == "impl" and s["detail"] in ("lambda", "method-ref")
                   and s["method_ref"] == (s["detail"] == "method-ref"))


def test_the_fixture_has_the_shapes(oracle):
    """Lambdas and method references (a static method, a constructor) to a project interface and to JDK ones, a
    marker interface (altMetafactory), one in a lambda body."""
    assert {k[0] for k in oracle} == set(INTERFACES), oracle
    assert ("lu/Marker", "marked", 22, False, "lambda") in oracle
    assert ("java/lang/Runnable", "marked", 22, False, "lambda") in oracle
    assert any(in_lambda for *_x, in_lambda, _d in oracle)
    assert {k[1] for k in oracle if k[4] == "method-ref"} == {"reference", "constructor"}
    assert sum(n for k, n in oracle.items() if k[0] == "java/util/function/Supplier") == 2


@pytest.mark.parametrize("interface", INTERFACES)
@pytest.mark.parametrize("kinds", [("all",), ("impl",)])
def test_each_lambda_is_an_impl_usage_at_its_line(svc, oracle, interface, kinds):
    want = Counter({k: n for k, n in oracle.items() if k[0] == interface})
    assert want and _lambda_sites(svc, interface, kinds) == want


def test_not_a_plain_reference(svc):
    assert not _lambda_sites(svc, "lu/Handler", ("ref",))


def test_the_text_names_the_lambda(run_jdx, built, oracle):
    line = next(k[2] for k in oracle if k[0] == "lu/Handler" and k[1] == "lambda")
    r = run_jdx("usages", "lu.Handler", "--jars", str(built[0]), "--no-jdk")
    assert r.code == 0, r.err
    assert any(x.strip().startswith("lu.Use#lambda()") and f"impl {line} (lambda)" in x for x in r.out.splitlines()), \
        r.out
