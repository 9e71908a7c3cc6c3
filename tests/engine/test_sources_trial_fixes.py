"""Sources trial fixes: `samples` sees constructor calls written `new T<>(`, `this(`, `super(`; `doc` inherits
a @throws only for a declared exception and labels the comment it shows with its own file; `{@value}`, `<sup>`
and `<sub>` keep their meaning; `body '<clinit>'` shows every static initializer in source order; sources whose
lines differ from the class file's line table say SOURCES_VERSION_MISMATCH; `samples --max-lines` never cuts
a sample; annotation elements and `--brief`.

Fixture: package `tr` compiled by javac -g at test time, indexed without the JDK; its sources directory is the
one compiled, except `Stale.java`, rewritten afterwards (a line added above a method, a method removed).
Oracles: `javap -l -p` line tables, the source text."""

from __future__ import annotations

import json
import re
import shutil

import pytest

from tests.fixtures.javac import javac_jar
from tests.fixtures import jdktool

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)

SOURCES = {
    "tr/Tricky.java": (
        "package tr;\n"                                                      # 1
        "public class Tricky<T> {\n"                                         # 2
        "    static int A = f();\n"                                          # 3
        "    public static final int K = 7;\n"                               # 4
        "    /** Largest: 2<sup>31</sup>-1; item x<sub>i</sub>; K is {@value #K}; here {@value Tricky#K}. */\n"
        "    static int f() { return 1; }\n"                                 # 6
        "    static {\n"                                                     # 7
        "        A += 1;\n"                                                  # 8
        "    }\n"                                                            # 9
        "    static String B = String.valueOf(A);\n"                         # 10
        "    public Tricky() {\n"                                            # 11
        "        this(\"default\");\n"                                       # 12
        "    }\n"                                                            # 13
        "    public Tricky(String name) {\n"                                 # 14
        "        System.out.println(name);\n"                                # 15
        "    }\n"                                                            # 16
        "}\n"),
    "tr/Sub.java": (
        "package tr;\n"
        "public class Sub extends Tricky<String> {\n"
        "    public Sub(String s) {\n"
        "        super(s.trim());\n"
        "    }\n"
        "}\n"),
    "tr/User.java": (
        "package tr;\n"
        "public class User {\n"
        "    public Object diamond(String who) {\n"
        "        Tricky<String> t = new Tricky<>(who);\n"
        "        return t;\n"
        "    }\n"
        "    public Object explicit(String who) {\n"
        "        Object o = new tr.Tricky<String>(who);\n"
        "        return o;\n"
        "    }\n"
        "}\n"),
    "tr/OnlyFields.java": (
        "package tr;\n"
        "public class OnlyFields {\n"
        "    static final java.util.List<String> L = new java.util.ArrayList<>();\n"
        "    static final int C = 3;\n"
        "    int notStatic = 4;\n"
        "    static String S = \"s\" + L.size();\n"
        "}\n"),
    "tr/Ann.java": (
        "package tr;\n"
        "public @interface Ann {\n"
        "    String value() default \"v\";\n"
        "    int n();\n"
        "}\n"),
    "tr/Base.java": (
        "package tr;\n"
        "public interface Base {\n"
        "    /**\n"
        "     * Runs.\n"
        "     * @throws IllegalStateException when bad\n"
        "     * @throws java.io.IOException on input trouble\n"
        "     */\n"
        "    void run() throws java.io.IOException;\n"
        "}\n"),
    "tr/Impl.java": (
        "package tr;\n"
        "public class Impl implements Base {\n"
        "    /** {@inheritDoc} Quickly. */\n"
        "    public void run() throws java.io.IOException { }\n"
        "}\n"),
    "tr/Plain.java": (
        "package tr;\n"
        "public class Plain implements Base {\n"
        "    public void run() { }\n"
        "}\n"),
    "tr/Stale.java": (
        "package tr;\n"
        "public class Stale {\n"
        "    /** Compiled at line 4. */\n"
        "    public int moved() { return 1; }\n"
        "    /** Gone from the sources. */\n"
        "    public int gone() { return 2; }\n"
        "    public int caller() { return moved() + 1; }\n"
        "}\n"),
}

STALE = ("package tr;\n"
         "public class Stale {\n"
         "    /** Compiled at line 4. */\n"
         "\n"
         "    public int moved() {\n"
         "        return 1;\n"
         "    }\n"
         "    public int caller() { return moved() + 1; }\n"
         "}\n")


@pytest.fixture(scope="module")
def fx(tmp_path_factory, run_jdx):
    if shutil.which("javac") is None:
        pytest.skip("javac is not installed")
    root = tmp_path_factory.mktemp("srctrial")
    jar, _ = javac_jar(root, SOURCES, "tr", "tr.jar", debug=True)
    (root / "src" / "tr" / "Stale.java").write_text(STALE)
    args = ["--jars", str(jar), "--src", str(root / "src"), "--no-jdk"]
    r = run_jdx("index", *args)
    assert r.code == 0, r.err
    return {"jar": jar, "args": args}


def _json(run_jdx, fx, *argv) -> dict:
    r = run_jdx(*argv, *fx["args"], "--json")
    assert r.code == 0, r.out + r.err
    return json.loads(r.out)


def _line_table(jar, cls: str, method: str) -> set[int]:
    """Oracle: the lines `javap -l -p` lists for `method` (`static {}` for <clinit>)."""
    out = jdktool.run(["javap", "-l", "-p", "-cp", str(jar), cls], capture_output=True, text=True,
                         check=True).stdout
    lines, cur = set(), False
    for line in out.splitlines():
        if re.match(r"^  \S", line):
            cur = (line.strip() == "static {};") if method == "<clinit>" else f" {method}(" in line
        m = re.match(r"\s+line (\d+): \d+", line)
        if m and cur:
            lines.add(int(m.group(1)))
    return lines


def test_constructor_calls_are_written_uses(fx, run_jdx):
    res = _json(run_jdx, fx, "samples", "tr.Tricky#<init>(java.lang.String)", "--limit", "5")["result"]
    by_caller = {s["caller"]: s for s in res["samples"]}
    for caller in ("tr.User#diamond(java.lang.String)", "tr.User#explicit(java.lang.String)",
                   "tr.Tricky#<init>()", "tr.Sub#<init>(java.lang.String)"):
        assert by_caller[caller]["written"], (caller, by_caller[caller])
        assert by_caller[caller]["args_used"] > 0 or caller == "tr.Tricky#<init>()"
    text = run_jdx("samples", "tr.Tricky#<init>(java.lang.String)", "--limit", "5", *fx["args"]).out
    assert "compiler-written" not in text
    # a type's samples keep the `new Tricky<>(...)` site among the written ones
    typed = _json(run_jdx, fx, "samples", "tr.Tricky", "--limit", "10")["result"]["samples"]
    assert any(s["caller"] == "tr.User#diamond(java.lang.String)" and s["written"] for s in typed)


def test_throws_inherited_only_when_declared(fx, run_jdx):
    impl = _json(run_jdx, fx, "doc", "tr.Impl#run()")["result"]["docs"][0]
    assert any(line.startswith("@throws java.io.IOException") for line in impl["text"]), impl["text"]
    assert not any("IllegalStateException" in line for line in impl["text"]), impl["text"]
    plain = _json(run_jdx, fx, "doc", "tr.Plain#run()")["result"]["docs"][0]
    assert plain["text"][0] == "Runs." and not any(line.startswith("@throws") for line in plain["text"])


def test_doc_source_is_the_file_of_the_comment_shown(fx, run_jdx):
    env = _json(run_jdx, fx, "doc", "tr.Impl#run()", "--raw")
    item = env["result"]["docs"][0]
    assert item["raw"].startswith("/** {@inheritDoc}")
    assert item["source"]["file"].endswith("tr/Impl.java") and item["source"]["lines"] == [3, 3]
    assert item["inherited_source"]["file"].endswith("tr/Base.java")
    assert env["provenance"][0]["file"].endswith("tr/Impl.java")
    # inherited whole (no comment of its own): the supertype's file is the source
    plain = _json(run_jdx, fx, "doc", "tr.Plain#run()")["result"]["docs"][0]
    assert plain["source"]["file"].endswith("tr/Base.java")


def test_value_sup_sub_keep_their_meaning(fx, run_jdx):
    text = _json(run_jdx, fx, "doc", "tr.Tricky#f()")["result"]["docs"][0]["text"]
    assert text == ["Largest: 2^31-1; item x_i; K is 7; here 7."], text


def test_clinit_shows_every_static_initializer(fx, run_jdx):
    res = _json(run_jdx, fx, "body", "tr.Tricky#<clinit>()")["result"]
    table = _line_table(fx["jar"], "tr.Tricky", "<clinit>")
    parts = res["source"]["parts"]
    assert [p["lines"] for p in parts] == [[3, 3], [7, 9], [10, 10]]
    assert table <= {n for p in parts for n in range(p["lines"][0], p["lines"][1] + 1)}, table
    assert res["text"][0] == "// static field initializer: A, line 3" and "    static int A = f();" in res["text"]
    assert "        A += 1;" in res["text"] and "    static String B = String.valueOf(A);" in res["text"]
    assert "callers" not in (res["next"] or "")
    only = _json(run_jdx, fx, "body", "tr.OnlyFields#<clinit>()")["result"]
    assert [p["lines"] for p in only["source"]["parts"]] == [[3, 3], [6, 6]]  # C is a ConstantValue
    assert _line_table(fx["jar"], "tr.OnlyFields", "<clinit>") <= {3, 6}
    assert "no source text" not in only["header"]


def test_stale_lines_say_version_mismatch(fx, run_jdx):
    assert _line_table(fx["jar"], "tr.Stale", "moved") == {4}
    for cmd in ("body", "doc"):
        env = _json(run_jdx, fx, cmd, "tr.Stale#moved()")
        codes = [w["code"] for w in env["warnings"]]
        assert "SOURCES_VERSION_MISMATCH" in codes, (cmd, env["warnings"])
        drift = [w["message"] for w in env["warnings"] if "lines differ" in w["message"]]
        assert drift and "line 4" in drift[0] and "5-7" in drift[0], drift
    gone = _json(run_jdx, fx, "doc", "tr.Stale#gone()")
    codes = [w["code"] for w in gone["warnings"]]
    assert "SOURCES_VERSION_MISMATCH" in codes and "NO_DOC" not in codes, gone["warnings"]
    fine = _json(run_jdx, fx, "body", "tr.Tricky#f()")
    assert not fine["warnings"]
    # a sample whose enclosing method the sources place elsewhere says so, in JSON and text
    assert _line_table(fx["jar"], "tr.Stale", "caller") == {7}
    sample = _json(run_jdx, fx, "samples", "tr.Stale#moved()")["result"]["samples"][0]
    assert sample["line"] == 7 and "lines differ" in sample["source"]["mismatch"], sample
    text = run_jdx("samples", "tr.Stale#moved()", *fx["args"]).out
    assert "⚠ SOURCES_VERSION_MISMATCH: " in text and "8-8" in text, text
    clean = _json(run_jdx, fx, "samples", "tr.Tricky#f()")["result"]["samples"]
    assert clean and not any(s["source"].get("mismatch") for s in clean)


def test_samples_max_lines_cuts_between_samples(fx, run_jdx):
    from jdx.render.samples import samples, truncation

    res = _json(run_jdx, fx, "samples", "tr.Tricky#<init>(java.lang.String)", "--limit", "4")["result"]
    whole = samples(res)
    for cap in range(1, len(whole)):
        lines = samples(res, cap)
        assert len(lines) <= max(cap, 1)
        starts = [i for i, line in enumerate(whole) if re.match(r"  \d+\. ", line)] + [len(whole)]
        assert len(lines) in [1] + starts[1:], (cap, lines)  # the header, then whole samples only
        cut = truncation(res, cap)
        assert cut is not None and cut["shown"] == sum(1 for line in lines if re.match(r"  \d+\. ", line))


def test_annotation_element_and_brief(fx, run_jdx):
    text = run_jdx("body", "tr.Ann#value()", *fx["args"]).out
    assert "annotation element" in text and 'default "v"' in text and "overrides" not in text, text
    assert "abstract method" not in text
    from jdx.render.source import body, doc

    res = _json(run_jdx, fx, "body", "tr.Tricky#f()")["result"]
    assert body(res, False, None, brief=True) == ["    static int f() { return 1; }"]
    # --brief keeps why a declaration is all there is: it would read as the element's code
    brief = run_jdx("body", "tr.Ann#value()", "--brief", *fx["args"]).out.splitlines()
    assert brief[-1].startswith("note: an annotation element: no body") and 'default "v"' in brief[-1], brief
    d = _json(run_jdx, fx, "doc", "tr.Tricky#f()")["result"]
    assert doc(d, False, None, brief=True) == ["Largest: 2^31-1; item x_i; K is 7; here 7."]
