"""`resolve` of stack-trace lines trials 51 and 53 found wrong (docs/search.md, resolve):

1. a hidden lambda class's frame (`-XX:+ShowHiddenFrames`: `tf.Traces$$Lambda/0x….run`, with or without a module or
   class-loader prefix) answers the class that wrote the lambda, exit 0, and lists its lambda bodies, among them the
   frame above it in the JVM's own trace;
2. an exception line whose toString writes `;` after the type (SAXParseException's shape) resolves its type;
3. a frame's line that no method of the loaded class holds but a shadowed copy's does names that copy
   (`dup-2.0.jar/sh.Dup#run()`, FRAME_SHADOWED_COPY) instead of blaming another version (oracle: javap -l of each jar);
4. `... N more` is answered as what it is (exit 0, no candidate); a message's continuation line is a not-found
   saying it names nothing;
5. a frame whose file is not its class's SourceFile warns FRAME_SOURCE_FILE (oracle: javap -v), a logging jar
   suffix naming another version of the artifact FRAME_JAR_VERSION;
6. a bridge's ref carries its return type whatever the line picks (oracle: javap -l for the lines, javap for the
   return types).
The traces are printed by the JVM running the javac-built fixture.
"""

from __future__ import annotations

import json
import re
import shutil

import pytest

from jdx.engine.search_frames import exception_type, omitted_frames, parse_frame
from tests.fixtures import jdktool
from tests.fixtures.javac import javac_jar, javap

pytestmark = pytest.mark.soak  # a JVM run with -XX:+ShowHiddenFrames (~15 s); other resolve tests sample it

TRACES = """package tf;
import java.util.*;
import java.util.function.*;
public class Traces {
    public static class ParseFail extends Exception {
        public ParseFail(String m) { super(m); }
        @Override public String toString() { return getClass().getName() + "; lineNumber: 1; " + getMessage(); }
    }
    static void run(Runnable r) { r.run(); }
    static void fail() throws ParseFail { throw new ParseFail("bad"); }
    public static Iterator<Integer> iter() {
        return new Iterator<Integer>() {
            public boolean hasNext() { return true; }
            public Integer next() { throw new IllegalStateException("next"); }
        };
    }
    public static void main(String[] a) {
        try {
            run(() -> {
                try { fail(); } catch (ParseFail e) { throw new IllegalStateException("wrapped\\nsecond line", e); }
            });
        } catch (IllegalStateException e) { e.printStackTrace(System.out); }
        Supplier<String> s = () -> "x";
        System.out.println(s.get());
    }
}
"""
DUP_LOADED = "package sh;\npublic class Dup {\n    public void run() {\n        System.out.println(1);\n    }\n}\n"
DUP_SHADOWED = ("package sh;\npublic class Dup {\n" + "    // padding\n" * 20
                + "    public void run() {\n        int x = 1;\n        System.out.println(x);\n    }\n}\n")


@pytest.fixture(scope="module")
def fx(tmp_path_factory):
    if shutil.which("javac") is None or shutil.which("javap") is None:
        pytest.skip("javac/javap are not installed")
    root = tmp_path_factory.mktemp("frames_t51")
    jar, classes = javac_jar(root / "tf", {"tf/Traces.java": TRACES}, "tf", "tf-1.0.jar")
    loaded, loaded_classes = javac_jar(root / "a", {"sh/Dup.java": DUP_LOADED}, "sh", "dup-1.0.jar")
    shadowed, shadowed_classes = javac_jar(root / "b", {"sh/Dup.java": DUP_SHADOWED}, "sh", "dup-2.0.jar")
    trace = jdktool.run(["java", "-XX:+UnlockDiagnosticVMOptions", "-XX:+ShowHiddenFrames", "-cp", str(classes),
                         "tf.Traces"], capture_output=True, text=True, check=True).stdout
    return {"args": ["--jars", f"{jar}:{loaded}:{shadowed}", "--no-jdk"], "classes": classes, "trace": trace,
            "dup": {"loaded": loaded_classes, "shadowed": shadowed_classes}}


def _json(run_jdx, fx, *argv) -> tuple[int, dict]:
    r = run_jdx(*fx["args"], *argv, "--json")
    assert "Traceback" not in r.out + r.err
    return r.code, json.loads(r.out)


def _codes(env: dict) -> list[str]:
    return [w["code"] for w in env.get("warnings", [])]


def _lines(classes, cls: str) -> dict[str, set[int]]:
    """javap -l's LineNumberTable of each method of `cls`, by the declaration javap prints."""
    out: dict[str, set[int]] = {}
    current = None
    for line in javap(classes, cls, "-l").splitlines():
        if re.match(r"^  \S.*\);$", line):
            current = line.strip().rstrip(";")
            out[current] = set()
        elif current is not None and (m := re.match(r"^\s+line (\d+): \d+$", line)):
            out[current].add(int(m.group(1)))
    return out


def _trace_line(fx, pattern: str) -> str:
    return next(line for line in fx["trace"].splitlines() if re.search(pattern, line))


# --- 1: hidden lambda frames -------------------------------------------------------------------------------------
@pytest.mark.parametrize("text, sym", [
    ("at java.base/java.util.stream.Collectors$$Lambda$89/0x0000000800c4a0a0.accept(Unknown Source)",
     "java.util.stream.Collectors$$Lambda$89/0x0000000800c4a0a0.accept"),
    ("at java.base@17/java.util.HashMap.get(HashMap.java:556)", "java.util.HashMap.get"),
    ("at app//a.B$$Lambda/0x000001f0d1003a00.run(Unknown Source)", "a.B$$Lambda/0x000001f0d1003a00.run"),
    ("at com.foo.loader/foo@9.0/com.foo.Main.run(Main.java:101)", "com.foo.Main.run"),
    ("at a.B$$Lambda$1/1283928880.run(Unknown Source)", "a.B$$Lambda$1/1283928880.run"),
])
def test_frame_prefixes_and_hidden_class_names(text, sym):
    got, frame = parse_frame(text)
    assert got == sym and frame is not None


def test_a_hidden_lambda_frame_answers_the_class_that_wrote_it(run_jdx, fx):
    proxy = _trace_line(fx, r"\$\$Lambda.*\.run\(")  # the JVM's own text of the hidden frame
    lines = fx["trace"].splitlines()
    above = lines[lines.index(proxy) - 1].strip()  # the lambda body the proxy called
    body = re.search(r"\.(lambda\$[\w$]+)\(", above).group(1)
    for text in (proxy.strip(), "at app//" + proxy.strip()[3:]):
        code, env = _json(run_jdx, fx, "resolve", text)
        assert code == 0, env
        first, *rest = env["result"]["candidates"]
        assert first["ref"] == "tf.Traces" and "lambda class the runtime generated" in first["note"]
        assert env["result"]["frame"]["hidden"]["lambda_of"] == "tf.Traces"
        assert any(c["ref"].startswith(f"tf.Traces#{body}(") for c in rest)
        oracle = {d.split("(")[0].split()[-1] for d in _lines(fx["classes"], "tf.Traces") if "lambda$" in d}
        assert {c["ref"].split("#")[1].split("(")[0] for c in rest} == {n.split(".")[-1] for n in oracle}


def test_a_hidden_lambda_frame_of_a_class_not_in_the_workspace_names_that_class(run_jdx, fx):
    code, env = _json(run_jdx, fx, "resolve", "at java.base/java.util.stream.Collectors$$Lambda$89/"
                      "0x0000000800c4a0a0.accept(Unknown Source)")
    assert code == 1 and "class java.util.stream.Collectors of the frame" in env["error"]["message"]


# --- 2: `a.B; lineNumber: 1` --------------------------------------------------------------------------------------
def test_an_exception_line_with_a_semicolon_resolves_its_type(run_jdx, fx):
    line = _trace_line(fx, r"^Caused by: tf\.Traces\$ParseFail;")  # as Throwable.printStackTrace wrote it
    code, env = _json(run_jdx, fx, "resolve", line)
    assert code == 0 and [c["ref"] for c in env["result"]["candidates"]] == ["tf.Traces$ParseFail"]
    assert exception_type("Index: 5 Size: 1") is None  # a message's line: Throwable.toString qualifies the type


# --- 3: a shadowed copy holding the frame's line -----------------------------------------------------------------
def _run_lines(fx, side: str) -> set[int]:
    return _lines(fx["dup"][side], "sh.Dup")["public void run()"]


def test_a_line_only_a_shadowed_copy_holds_names_that_copy(run_jdx, fx):
    loaded, shadowed = _run_lines(fx, "loaded"), _run_lines(fx, "shadowed")
    line = min(shadowed - loaded)
    assert not min(loaded) <= line <= max(loaded)
    code, env = _json(run_jdx, fx, "resolve", f"at sh.Dup.run(Dup.java:{line})")
    assert code == 0
    rows = env["result"]["candidates"]
    assert [(c["ref"], c.get("shadowed", False)) for c in rows] == [("sh.Dup#run()", False),
                                                                      ("dup-2.0.jar/sh.Dup#run()", True)]
    assert rows[1]["lines"] == [min(shadowed), max(shadowed)]
    # (DUPLICATE_CLASS: the answer names a class two artifacts provide)
    assert _codes(env) == ["FRAME_SHADOWED_COPY", "DUPLICATE_CLASS"]
    assert "dup-2.0.jar/sh.Dup#run()" in env["warnings"][0]["message"]


def test_a_line_no_copy_holds_still_blames_another_version(run_jdx, fx):
    line = max(_run_lines(fx, "shadowed")) + 50
    code, env = _json(run_jdx, fx, "resolve", f"at sh.Dup.run(Dup.java:{line})")
    assert code == 0 and [c["ref"] for c in env["result"]["candidates"]] == ["sh.Dup#run()"]
    assert _codes(env) == ["FRAME_LINE_OUTSIDE", "DUPLICATE_CLASS"]


def test_a_line_the_loaded_copy_holds_lists_it_alone(run_jdx, fx):
    code, env = _json(run_jdx, fx, "resolve", f"at sh.Dup.run(Dup.java:{min(_run_lines(fx, 'loaded'))})")
    assert [c["ref"] for c in env["result"]["candidates"]] == ["sh.Dup#run()"] and _codes(env) == ["DUPLICATE_CLASS"]


# --- 4: lines that name nothing ----------------------------------------------------------------------------------
def test_omitted_frames_are_answered_as_such(run_jdx, fx):
    line = _trace_line(fx, r"^\s+\.\.\. \d+ more")
    n = int(re.search(r"\d+", line).group())
    assert omitted_frames(line) == n
    code, env = _json(run_jdx, fx, "resolve", line)
    assert code == 0 and env["result"]["candidates"] == [] and env["result"]["omitted"] == n
    assert "not a frame" in env["result"]["notes"][0]


def test_a_message_continuation_line_names_nothing(run_jdx, fx):
    line = _trace_line(fx, r"^second line")  # the second line of the exception's message
    code, env = _json(run_jdx, fx, "resolve", line)
    assert code == 1 and "names nothing" in env["error"]["message"] and not env.get("candidates")


# --- 5: the frame's file and jar ---------------------------------------------------------------------------------
def test_a_frame_file_other_than_the_source_file_warns(run_jdx, fx):
    assert "SourceFile: \"Traces.java\"" in javap(fx["classes"], "tf.Traces", "-v")
    frame = _trace_line(fx, r"at tf\.Traces\.fail\(").strip()
    code, env = _json(run_jdx, fx, "resolve", frame)
    assert code == 0 and _codes(env) == []
    code, env = _json(run_jdx, fx, "resolve", frame.replace("Traces.java", "Other.java"))
    assert code == 0 and _codes(env) == ["FRAME_SOURCE_FILE"]
    assert env["result"]["frame"]["source_file"] == "Traces.java"


@pytest.mark.parametrize("suffix, codes", [
    (" ~[tf-0.9.jar:0.9]", ["FRAME_JAR_VERSION"]),
    (" ~[tf-0.9.jar:?]", ["FRAME_JAR_VERSION"]),  # the version in the jar's name
    (" ~[tf-1.0.jar:1.0]", []),
    (" [app.jar:0.9]", []),  # another artifact (a fat jar): nothing to compare
    (" ~[na:1.8.0_45]", []),
])
def test_a_jar_suffix_naming_another_version_warns(run_jdx, fx, suffix, codes):
    frame = _trace_line(fx, r"at tf\.Traces\.fail\(").strip()
    code, env = _json(run_jdx, fx, "resolve", frame + suffix)
    assert code == 0 and _codes(env) == codes


# --- 6: bridge refs ----------------------------------------------------------------------------------------------
def test_a_bridge_ref_carries_its_return_type_whatever_the_line(run_jdx, fx):
    tables = _lines(fx["classes"], "tf.Traces$1")
    bridge = tables["public java.lang.Object next()"]
    real = tables["public java.lang.Integer next()"]
    assert bridge and real and not bridge & real
    code, env = _json(run_jdx, fx, "resolve", f"at tf.Traces$1.next(Traces.java:{min(bridge)})")
    assert code == 0 and [c["ref"] for c in env["result"]["candidates"]] == ["tf.Traces$1#next():java.lang.Object"]
    code, env = _json(run_jdx, fx, "resolve", f"at tf.Traces$1.next(Traces.java:{min(real)})")
    assert [c["ref"] for c in env["result"]["candidates"]] == ["tf.Traces$1#next()"]  # `body`'s ref of it


def test_a_hidden_lambda_frame_in_a_trace_lists_the_body_it_called(run_jdx, fx):
    """Alone, a proxy's frame lists every lambda body of its class (tf.Traces has two); in the whole trace the frame
    above it, the body the JVM ran, narrows them to that one (junit's `AssertTimeoutPreemptively$$Lambda$9…get`
    listed all four while the frame above had resolved exactly)."""
    proxy = _trace_line(fx, r"\$\$Lambda.*\.run\(")
    lines = fx["trace"].splitlines()
    body = re.search(r"\.(lambda\$[\w$]+)\(", lines[lines.index(proxy) - 1]).group(1)
    alone = _json(run_jdx, fx, "resolve", proxy.strip())[1]["result"]["candidates"]
    assert len([c for c in alone if "lambda$" in c["ref"]]) == 2, alone
    code, env = _json(run_jdx, fx, "resolve", fx["trace"])
    assert code == 0, env
    entry = next(e for e in env["result"]["trace"] if e["line"] == proxy.strip())
    assert [c["ref"].split("#")[0] for c in entry["candidates"]] == ["tf.Traces", "tf.Traces"], entry
    assert entry["candidates"][1]["ref"].startswith(f"tf.Traces#{body}(") and entry["total"] == 2
