"""Trial 57: lambdas compiled to classes, and source lines the decompiler writes as several statements.

1. `samples` without sources: one source line can become several decompiled statements, the line map naming only the
   first (kotlinc's SAM wrapper of a function reference: `if (function0 != null) { o = new …(function0); }` before
   `r.register((Runnable)o);`; javac's `Objects.requireNonNull(out);` before `r.register(out::println);`): `>` goes
   on the statement that makes the call. Oracles: `javap -c -l` (the line of each invoke of `register`) and the
   decompiled text (`source`).
2. `resolve` of a frame of a Kotlin lambda class (kotlinc 1.3: `Svc$wire$f$1`) names the method that holds the lambda,
   as it does for javac's `lambda$wire$0`; a callable reference's class says it is one; a Java anonymous class's or a
   Kotlin `object :` expression's method says where its class is written. Oracle: `javap -v` (superclass,
   EnclosingMethod).
3. `body` of a Kotlin lambda class's method labels its header as a javac lambda body's is.

Compiled here by kotlinc (Kotlin 1.3) and javac, as tests/kotlin/corpus.py and tests/fixtures/javac.py compile."""

from __future__ import annotations

import re
import shutil
from types import SimpleNamespace

import pytest

from tests.fixtures import jdktool

pytestmark = pytest.mark.soak  # kotlinc 1.3 compiles its fixture (~20-30 s cold): the soak runs it (.ci/run)

LIB = '''package kt57

class Reg {
    fun register(r: Runnable) { r.run() }
}

fun top() {}

class Svc {
    fun hit(s: String) {}

    fun wire(r: Reg) {
        r.register(Runnable { hit("a") })
        r.register(Runnable(::top))
        val f = { s: String -> hit(s) }
        f("b")
    }

    fun anon(r: Reg) {
        r.register(object : Runnable { override fun run() { hit("c") } })
    }
}
'''
JAVA = {"jx/Reg.java": "package jx;\nimport java.util.function.Consumer;\n"
                       "public class Reg { public void register(Consumer<String> c) {} }\n",
        "jx/Use.java": '''package jx;
public class Use {
    public void wire(Reg r) {
        r.register(s -> System.out.println(s));
        r.register(System.out::println);
    }
    public Runnable anon() {
        return new Runnable() { public void run() { System.out.println("x"); } };
    }
}
'''}


@pytest.fixture(scope="module")
def jars(tmp_path_factory):
    from tests.fixtures.javac import javac_jar
    from tests.kotlin.corpus import kotlinc_jar

    if shutil.which("javac") is None or shutil.which("javap") is None:
        pytest.skip("javac and javap are not on PATH")
    java, _ = javac_jar(tmp_path_factory.mktemp("t57-java"), JAVA, "jx", "jx.jar")
    return {"kotlin": kotlinc_jar("lambda-t57", {"Lib.kt": LIB}), "java": java}


@pytest.fixture(scope="module")
def session(jars, jdx_home, tmp_path_factory):
    from jdx.commands.session import Options, Session
    from tests.kotlin.corpus import copied_jar

    kotlin = copied_jar(tmp_path_factory, jars["kotlin"], "t57-kotlin", "kt57.jar")
    s = Session(Options(jars=[str(kotlin), str(jars["java"])], jdk=False, cache_dir=str(jdx_home / "cache")))
    s.index()
    yield s
    s.close()


def _javap(jar, *args: str) -> str:
    """`javap ARGS` (options, then the class) on `jar`'s classes."""
    return jdktool.run(["javap", "-cp", str(jar), *args], capture_output=True, text=True, check=True,
                       timeout=120).stdout


def _invoke_lines(jar, cls: str, method: str, callee: str) -> list[int]:
    """Oracle: the source line of each invoke of `callee` (`jx/Reg.register`) in `method` of `cls`, by `javap -c -l`
    (the line of the LineNumberTable entry at or before the invoke's offset)."""
    out = _javap(jar, "-c", "-l", "-p", cls)
    part = out[out.index(f" {method}("):].split("\n\n", 1)[0]
    offsets = [int(o) for o, m in re.findall(r"^\s+(\d+): invoke\w+\s+#\d+\s+// \w+ ([\w/$.]+):", part, re.M)
               if m == callee]
    table = sorted((int(o), int(n)) for n, o in re.findall(r"^\s+line (\d+): (\d+)$", part, re.M))
    return [max((n for o, n in table if o <= off), default=-1) for off in offsets]


def _samples(session, ref: str) -> list[dict]:
    from jdx.commands.samples import samples_answer
    from jdx.engine.samples import SampleOptions

    return samples_answer(session, ref, SampleOptions(limit=10)).result["samples"]


@pytest.mark.parametrize("ref,cls,callee,kind", [
    ("kt57.Reg#register", "kt57.Svc", "kt57/Reg.register", "kotlin"),
    ("jx.Reg#register", "jx.Use", "jx/Reg.register", "java")])
def test_a_decompiled_sample_marks_the_statement_that_makes_the_call(session, jars, ref, cls, callee, kind):
    from jdx.loaders.decompile import available_engines

    if not available_engines():
        pytest.skip("no decompiler installed: binary-only samples show no text")
    lines = _invoke_lines(jars[kind], cls, "wire", callee)
    assert len(lines) == 2 and len(set(lines)) == 2, lines  # two calls, on two source lines
    wire = {s["line"]: s for s in _samples(session, ref) if "#wire(" in s["caller"]}
    assert sorted(wire) == sorted(lines)
    for line, s in wire.items():
        src = s["source"]
        assert s["origin"] == "decompiled" and src["focus_by"] == "line_map"
        assert src["decompiled_line"] == src["focus"]
        marked = src["text"][src["focus"] - src["lines"][0]]
        assert re.search(r"\bregister\(", marked), (line, marked, src["text"])


def test_the_call_is_not_on_the_first_decompiled_line_of_its_source_line(session, jars):
    """What the test above relies on: the decompiler's map names, for the function reference's line, a line that does
    not make the call (without it the test would prove nothing)."""
    from jdx.engine.samples import WHOLE_METHOD

    line = _invoke_lines(jars["kotlin"], "kt57.Svc", "wire", "kt57/Reg.register")[1]
    win = session.reconstructed_window("kt57/Svc#wire(Lkt57/Reg;)V", "kt57/Reg#register(Ljava/lang/Runnable;)V",
                                       False, WHOLE_METHOD, line)
    first = next(i for i, held in enumerate(win["class_lines"]) if line in held)
    assert "register(" not in win["text"][first]


def _notes(session, frame: str) -> list[str | None]:
    from jdx.engine.search_nav import resolve

    result, _ = resolve(session.store(), frame, 10)
    return [c.get("note") for c in result["candidates"]]


def _classes(jar, *names: str) -> dict[str, tuple[str | None, str | None]]:
    """Oracle: class -> (its superclass, `owner.method` of its EnclosingMethod), as `javap -v` prints them."""
    found = {}
    for name in names:
        out = _javap(jar, "-v", name)
        head = re.search(r"^\S.*class ([\w.$]+)(?: extends ([\w.$]+))?", out, re.M)
        enclosing = re.search(r"^EnclosingMethod: .*// ([\w.$]+)\.([\w<>$]+)$", out, re.M)
        found[name] = (head.group(2), f"{enclosing.group(1)}.{enclosing.group(2)}" if enclosing else None)
    return found


def test_resolve_names_where_a_lambda_class_or_an_anonymous_class_is_written(session, jars):
    k = _classes(jars["kotlin"], "kt57.Svc$wire$f$1", "kt57.Svc$wire$1", "kt57.Svc$wire$2", "kt57.Svc$anon$1")
    assert k["kt57.Svc$wire$f$1"] == ("kotlin.jvm.internal.Lambda", "kt57.Svc.wire")
    assert k["kt57.Svc$wire$1"][1] == k["kt57.Svc$wire$2"][1] == "kt57.Svc.wire"  # SAM-converted, `::top`
    assert k["kt57.Svc$wire$2"][0] == "kotlin.jvm.internal.FunctionReference"
    assert k["kt57.Svc$anon$1"][1] == "kt57.Svc.anon"
    assert _classes(jars["java"], "jx.Use$1")["jx.Use$1"][1] == "jx.Use.anon"
    lam = "lambda body in Svc#wire(Reg): kotlinc compiled the lambda to this class"
    assert _notes(session, "at kt57.Svc$wire$f$1.invoke(Lib.kt:15)") == [lam]
    assert _notes(session, "at kt57.Svc$wire$1.run(Lib.kt:13)") == [lam]
    assert _notes(session, "at kt57.Svc$wire$2.invoke(Lib.kt:14)") == [
        "callable reference in Svc#wire(Reg): kotlinc compiled `::name` to this class"]
    assert _notes(session, "at kt57.Svc$anon$1.run(Lib.kt:20)") == ["in an anonymous class in Svc#anon(Reg)"]
    assert _notes(session, "at jx.Use$1.run(Use.java:8)") == ["in an anonymous class in Use#anon()"]
    assert _notes(session, "at jx.Use.lambda$wire$0(Use.java:4)") == ["lambda body in wire(Reg)"]  # as before


def test_a_kotlin_lambda_class_s_body_says_it_is_a_lambda_body(session):
    from jdx.engine.src_body import Target
    from jdx.engine.src_special import kotlin_lambda_labelled

    ctx = SimpleNamespace(store=session.store())

    def labelled(owner: str, method: str) -> str:
        target = Target({"id": owner, "kotlin": "{}"}, "", "method", {"id": f"{owner}#{method}"})
        return kotlin_lambda_labelled(ctx, target, {"header": "source: x"})["header"]

    assert labelled("kt57/Svc$wire$f$1", "invoke(Ljava/lang/String;)V") == (
        "source: x  (lambda body in Svc#wire(Reg): kotlinc compiled the lambda to this class)")
    assert labelled("kt57/Svc$anon$1", "run()V") == "source: x"  # an object expression declares its method
    assert labelled("kt57/Svc", "wire(Lkt57/Reg;)V") == "source: x"
