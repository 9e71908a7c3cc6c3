"""Trial T57: how `usages`, `implementors`, `hierarchy` and `overrides` present lambdas, method references and
anonymous classes of an interface.

- A method reference (`this::onlyViaRef`, `System.out::println`, `Use::new`) is an `impl` site of detail `method-ref`
  (JSON `method_ref: true`), a lambda one of detail `lambda`.
- Within an artifact's group the named subtypes come before the lambda sites, whatever their names.
- A `--limit` that leaves an artifact out entirely names it with its count (`b.jar (3, none shown)`).
- `implementors` (and `overrides` of the functional method) counts the lambdas and method references creating the
  interface, and those creating its sub-interfaces, in the artifacts `--in` keeps.
- An anonymous subtype says so, with the method that declares it, and stays `(non-public)`.

Oracle: `javap -v -p` of the classes javac compiled here: each invokedynamic bootstrapped by LambdaMetafactory, the
interface its descriptor returns, and the implementation MethodHandle (the second bootstrap argument) naming a
lambda body (`lambda$foo$0`) or a method of the source; the class header's flags and `implements`, InnerClasses and
EnclosingMethod of each subtype."""

from __future__ import annotations

import json
import os
import re
import shutil
from collections import Counter
from pathlib import Path

import pytest

from tests.fixtures import jdktool
from tests.fixtures.javac import javac_jar

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)

A = {
    "ta/Handler.java": "package ta;\npublic interface Handler {\n    void handle(String s);\n}\n",
    "ta/Sub.java": "package ta;\npublic interface Sub extends Handler {}\n",
    "ta/Zed.java": "package ta;\npublic class Zed implements Handler {\n    public void handle(String s) {}\n}\n",
    "ta/Use.java": """package ta;

public class Use {
    static final Handler FIELD = new Handler() {
        public void handle(String s) {}
    };
    void onlyViaRef(String s) {}
    Handler aLambda() {
        return s -> s.trim();
    }
    Handler bound() {
        return this::onlyViaRef;
    }
    Handler printer() {
        return System.out::println;
    }
    java.util.function.Supplier<Use> made() {
        return Use::new;
    }
    Sub sub() {
        return s -> { };
    }
    Handler anon() {
        return new Handler() {
            public void handle(String s) {}
        };
    }
}
""",
}
B = {
    "tb/Other.java": """package tb;

import ta.Handler;

public class Other {
    Handler one() {
        return s -> { };
    }
    Handler two() {
        return String::length;
    }
    Handler three() {
        return s -> System.out.println(s);
    }
}
""",
}
INDY = re.compile(r"^\s+\d+: invokedynamic\s+#\d+,\s+0\s+// InvokeDynamic #(\d+):\w+:\S*\)L([\w/$]+);$")
METHOD = re.compile(r"^  \S.*?([\w$]+)\(.*\);$")
LINE = re.compile(r"^\s+line (\d+): (\d+)$")
BOOTSTRAP = re.compile(r"^  (\d+): #\d+ REF_invokeStatic ([\w/$]+)\.\w+:")
ARGUMENT = re.compile(r"^      #\d+ (.*)$")
HANDLE = re.compile(r'^REF_\w+ [\w/$]+\."?([\w$<>]+)"?:')
LAMBDA_BODY = re.compile(r"^lambda\$|\$lambda[$-]")  # javac's and kotlinc's names of a lambda's body


def _javap(classpath: Path, *classes: str) -> str:
    return jdktool.run(["javap", "-c", "-v", "-p", "-cp", str(classpath), *classes], capture_output=True, text=True,
                       check=True).stdout


def _indy_sites(classpath: Path, cls: str) -> list[tuple[str, str, str, int]]:
    """(interface, `lambda` or `method-ref`, enclosing method, line) of each LambdaMetafactory invokedynamic of a
    class, as `javap -c -v -p` prints it; the implementation handle is the bootstrap's second argument."""
    text = _javap(classpath, cls)
    sites, bootstraps, method, boot, offsets = [], {}, None, None, {}
    for row in text.splitlines():
        if m := METHOD.match(row):
            method = m.group(1)
        elif (m := INDY.match(row)) and method:
            sites.append((method, m.group(1), m.group(2), int(row.split(":")[0])))
        elif (m := LINE.match(row)) and method:
            offsets.setdefault(method, {})[int(m.group(2))] = int(m.group(1))
        elif m := BOOTSTRAP.match(row):
            boot = m.group(1)
            bootstraps[boot] = (m.group(2), [])
        elif (m := ARGUMENT.match(row)) and boot is not None:
            bootstraps[boot][1].append(m.group(1))
    out = []
    for method, boot, made, pc in sites:
        owner, args = bootstraps[boot]
        if owner != "java/lang/invoke/LambdaMetafactory":
            continue
        body = HANDLE.match(args[1]).group(1)
        lines = offsets[method]
        out.append((made.replace("/", "."), "lambda" if LAMBDA_BODY.search(body) else "method-ref", method,
                    lines[max(p for p in lines if p <= pc)]))
    return out


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[str, Path]:
    if shutil.which("javac") is None or shutil.which("javap") is None:
        pytest.skip("javac/javap are not installed")
    root = tmp_path_factory.mktemp("t57")
    a, a_classes = javac_jar(root / "a", A, "ta", "a.jar", debug=True)
    # b.jar compiles against a's classes (javac -cp through the sources: both trees, b's package jarred)
    b, b_classes = javac_jar(root / "b", {**A, **B}, "tb", "b.jar", debug=True)
    return {"a": a, "b": b, "a_classes": a_classes, "b_classes": b_classes}


@pytest.fixture(scope="module")
def oracle(built) -> dict[str, list[tuple[str, str, str, int]]]:
    """Artifact -> its lambda sites (`_indy_sites`) of every class."""
    return {"a.jar": _indy_sites(built["a_classes"], "ta.Use"), "b.jar": _indy_sites(built["b_classes"], "tb.Other")}


@pytest.fixture(scope="module")
def jdx(run_jdx, built):
    jars = os.pathsep.join(str(built[k]) for k in ("a", "b"))

    def run(*args: str, as_json: bool = False):
        r = run_jdx("--no-jdk", "--jars", jars, *args, *(["--json"] if as_json else []))
        assert r.code == 0, r.err
        return json.loads(r.out) if as_json else r.out.splitlines()
    return run


def test_the_fixture_has_the_shapes(oracle):
    kinds = Counter((i, k) for sites in oracle.values() for i, k, _m, _l in sites)
    assert kinds == Counter({("ta.Handler", "lambda"): 3, ("ta.Handler", "method-ref"): 3, ("ta.Sub", "lambda"): 1,
                             ("java.util.function.Supplier", "method-ref"): 1}), kinds


@pytest.mark.parametrize("interface", ["ta.Handler", "ta.Sub", "java.util.function.Supplier"])
def test_a_method_reference_reads_as_one(jdx, oracle, interface):
    want = Counter((f"{'ta.Use' if art == 'a.jar' else 'tb.Other'}#{m}()", line, kind, kind == "method-ref")
                   for art, sites in oracle.items() for i, kind, m, line in sites if i == interface)
    result = jdx("usages", interface, "--kind", "impl", as_json=True)["result"]
    got = Counter((c["caller"], s["line"], s["detail"], s["method_ref"]) for g in result["groups"]
                  for c in g["callers"] for s in c["sites"] if s["line"] >= 0)
    assert got == want


def test_the_text_says_method_ref_once(jdx, oracle):
    line = next(n for _i, _k, m, n in oracle["a.jar"] if m == "bound")
    rows = [x.strip() for x in jdx("usages", "ta.Handler")]
    assert f"ta.Use#bound()  impl {line} (method-ref)" in rows, rows


def _subtypes(classpath: Path, names: list[str]) -> dict[str, dict]:
    """Class -> {public, anonymous, enclosing (`Owner.method` or `Owner`)} by javap -v."""
    out = {}
    for part in re.split(r"^(?=Classfile )", _javap(classpath, *names), flags=re.M)[1:]:
        head = re.search(r"^(.*?)(?:class|interface) ([\w.$]+) ", part, re.M)
        # `#23.#0  // ta.Use`: an initializer's (no method); `#28.#30  // ta.Use.anon`
        enclosing = re.search(r"^EnclosingMethod: #\d+\.#(\d+)\s+// ([\w.$]+)$", part, re.M)
        where = None
        if enclosing:
            owner, method = (enclosing.group(2), None) if enclosing.group(1) == "0" else \
                enclosing.group(2).rsplit(".", 1)
            where = owner.rsplit(".", 1)[-1] + (f"#{method}" if method else "")
        # InnerClasses: an anonymous class's entry names no inner name and no outer class
        anonymous = re.search(rf"^\s+(?:\w+ )*#\d+;\s+// class {re.escape(head.group(2).replace('.', '/'))}$", part,
                              re.M) is not None
        out[head.group(2)] = {"public": "public" in head.group(1).split(), "anonymous": anonymous, "enclosing": where}
    return out


def test_named_subtypes_come_before_lambda_sites(jdx, built):
    facts = _subtypes(built["a_classes"], ["ta.Zed", "ta.Sub", "ta.Use$1", "ta.Use$2"])
    named = sorted(n for n, f in facts.items() if not f["anonymous"])
    assert named == ["ta.Sub", "ta.Zed"]  # the oracle: ta.Use (lambdas) sorts before ta.Zed by name
    group = jdx("usages", "ta.Handler", as_json=True)["result"]["groups"][0]
    callers = [c["caller"] for c in group["callers"]]
    assert callers[:len(named)] == named, callers
    again = jdx("usages", "ta.Handler", as_json=True)["result"]["groups"][0]
    assert [c["caller"] for c in again["callers"]] == callers


def test_the_limit_names_the_groups_it_left_out(jdx, oracle):
    want = sum(1 for i, *_x in oracle["b.jar"] if i == "ta.Handler")
    answer = jdx("usages", "ta.Handler", "--limit", "2", as_json=True)
    assert answer["result"]["groups_not_shown"] == [{"artifact": "b.jar", "total": want}]
    assert [g["artifact"] for g in answer["result"]["groups"]] == ["a.jar"]
    text = jdx("usages", "ta.Handler", "--limit", "2")
    assert f"b.jar ({want}, none shown)" in text, text
    assert "groups_not_shown" not in jdx("usages", "ta.Handler", as_json=True)["result"]


def _counts(oracle, interface: str, artifacts=("a.jar", "b.jar")) -> Counter:
    return Counter(k for art in artifacts for i, k, _m, _l in oracle[art] if i == interface)


@pytest.mark.parametrize("scope", [(), ("--in", "a.jar")])
def test_implementors_count_the_lambdas(jdx, oracle, scope):
    artifacts = ("a.jar",) if scope else ("a.jar", "b.jar")
    own, sub = _counts(oracle, "ta.Handler", artifacts), _counts(oracle, "ta.Sub", artifacts)
    lam = jdx("implementors", "ta.Handler", *scope, as_json=True)["result"]["lambdas"]
    assert (lam["count"], lam["lambda"], lam["method_ref"]) == (sum(own.values()), own["lambda"], own["method-ref"])
    assert lam["sub_interfaces"] == [{"type": "ta.Sub", "count": sum(sub.values())}]
    text = jdx("implementors", "ta.Handler", *scope)
    assert any(x.strip().startswith(f"+ {sum(own.values())} lambdas and method references create a ta.Handler")
               and x.strip().endswith("jdx usages ta.Handler --kind impl" + (" --in a.jar" if scope else ""))
               for x in text), text


def test_an_external_interface_counts_them_too(jdx, oracle):
    """Under --no-jdk java.util.function.Supplier is external (its kind unknown): its lambdas still count."""
    own = _counts(oracle, "java.util.function.Supplier")
    result = jdx("implementors", "java.util.function.Supplier", as_json=True)["result"]
    assert result.get("external") and (result["lambdas"]["count"], result["lambdas"]["method_ref"]) == \
        (sum(own.values()), own["method-ref"])


def test_a_class_has_no_lambdas(jdx):
    assert "lambdas" not in jdx("implementors", "ta.Zed", as_json=True)["result"]


def test_overrides_of_the_functional_method_count_them(jdx, oracle):
    own = _counts(oracle, "ta.Handler")
    (method,) = jdx("overrides", "ta.Handler#handle", as_json=True)["result"]["methods"]
    assert method["lambdas"]["count"] == sum(own.values())
    # its sub-interfaces (a query through interfaces only) are those implementors finds walking every subtype
    walked = jdx("implementors", "ta.Handler", as_json=True)["result"]["lambdas"]["sub_interfaces"]
    assert method["lambdas"]["sub_interfaces"] == walked and walked
    text = jdx("overrides", "ta.Handler#handle")
    assert any(x.strip().startswith(f"+ {sum(own.values())} lambdas and method references implement it as a "
                                    "ta.Handler") for x in text), text


@pytest.mark.parametrize("command", ["implementors", "hierarchy", "usages"])
def test_an_anonymous_subtype_says_where_it_is_declared(jdx, built, command):
    facts = _subtypes(built["a_classes"], ["ta.Use$1", "ta.Use$2", "ta.Zed"])
    assert not facts["ta.Zed"]["anonymous"] and facts["ta.Zed"]["public"]
    text = jdx(command, "ta.Handler")
    for name, f in facts.items():
        if not f["anonymous"]:
            continue
        assert not f["public"]  # the oracle: javac's anonymous classes are package-private
        where = f"in {f['enclosing']}" if "#" in f["enclosing"] else f"in an initializer of {f['enclosing']}"
        row = next(x for x in text if x.strip().split()[0] == name or f" {name}  " in x)
        assert f"(anonymous, {where})" in row and "(non-public)" in row, row
