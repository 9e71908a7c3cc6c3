"""Two shapes scalac writes, in javac-built class files, read through `body` and `source`:

- overloads whose parameter types share a simple name (RegexParsers' `parse(Parser, java.io.Reader)` and
  `parse(Parser, scala.util.parsing.input.Reader)`): the decompiled text, or sources compiled without line numbers,
  must give each overload its own text, told apart by the qualified names the text writes and its imports; when
  nothing tells them apart, no text is guessed (javap instead);
- a top-level class named `Foo$` next to `Foo` (Scala's module class `JSON$` of `JSON`, SourceFile `JSON.scala`
  for both): decompiled and located as itself, by the class file's nesting (no InnerClasses entry names it), not
  by the `$` in its name.

Oracle: `javap -c` of each method, whose `ldc` string names the code it runs; the text jdx shows for a method must
hold that string and no other method's."""

from __future__ import annotations

import json
import re
import shutil

import pytest

from jdx.engine import source_match as sm
from jdx.engine.java_parse import parse_source
from jdx.loaders.decompile import available_engines
from tests.fixtures import jdktool
from tests.fixtures.build import write_jar

READER = """package dx.input;
public class Reader { public int at() { return 1; } }
"""
# the on-demand import makes `Reader` dx.input.Reader here, so the java.io one is written qualified
PARSING = """package dx;

import dx.input.*;

public interface Parsing {
    static String mark(String what, Object in) { return what + in; }
    default String parse(java.util.List<String> p, java.io.Reader in) { return mark("io-reader", in); }
    default String parse(java.util.List<String> p, Reader in) { return mark("own-reader", in); }
    default String parse(java.util.List<String> p, CharSequence in) { return mark("chars", in); }
    default String parseAll(java.util.List<String> p, Reader in) { return mark("all-own", in); }
    default String parseAll(java.util.List<String> p, java.io.Reader in) { return mark("all-io", in); }
}
"""
# JSON$ is a second top-level class of JSON.java: SourceFile "JSON.java" for both, as scalac writes JSON.scala
JSON = """package dx;

public final class JSON {
    public static Object parseFull(String input) { return Parsing.mark("companion-parse", JSON$.MODULE$); }
}

final class JSON$ {
    public static final JSON$ MODULE$ = new JSON$();
    public Object parseFull(String input) { return Parsing.mark("module-parse", input); }
}
"""
SOURCES = {"dx/input/Reader.java": READER, "dx/Parsing.java": PARSING, "dx/JSON.java": JSON}
MARKS = {"io-reader", "own-reader", "chars", "all-own", "all-io", "module-parse", "companion-parse"}
OVERLOADS = ["parse(java.util.List, java.io.Reader)", "parse(java.util.List, dx.input.Reader)",
             "parse(java.util.List, java.lang.CharSequence)", "parseAll(java.util.List, dx.input.Reader)",
             "parseAll(java.util.List, java.io.Reader)"]


def _compile(root, flags: list[str]):
    if shutil.which("javac") is None or shutil.which("javap") is None:
        pytest.skip("javac/javap are not installed")
    src, classes = root / "src", root / "classes"
    for name, text in SOURCES.items():
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        (src / name).write_text(text)
    jdktool.run(["javac", *flags, "-d", str(classes), *map(str, sorted(src.rglob("*.java")))], check=True)
    return classes, {str(p.relative_to(classes)): p.read_bytes() for p in sorted(classes.rglob("*.class"))}


@pytest.fixture(scope="module")
def fx(jdx_home, run_jdx, tmp_path_factory):
    work = tmp_path_factory.mktemp("scala-shapes")
    classes, entries = _compile(work / "lines", [])
    bare = work / "bare" / "dx-1.0.jar"
    write_jar(bare, entries)
    # sources without line numbers in the class files: only the written names can tell the overloads apart
    _, plain = _compile(work / "nolines", ["-g:none"])
    paired = work / "paired" / "dx-1.0.jar"
    write_jar(paired, plain)
    write_jar(paired.with_name("dx-1.0-sources.jar"), {k: v.encode() for k, v in SOURCES.items()})
    for jar in (bare, paired):
        r = run_jdx("index", "--jars", str(jar), "--no-jdk")
        assert r.code == 0, r.err
    return {"classes": classes, "bare": ["--jars", str(bare), "--no-jdk"],
            "paired": ["--jars", str(paired), "--no-jdk"]}


def _javap_marks(classes, cls: str) -> dict[str, str]:
    """Oracle: method (as javap writes its parameters, `parse(java.util.List<java.lang.String>, java.io.Reader)`,
    generics dropped) → the one mark string its code loads."""
    out = jdktool.run(["javap", "-c", "-p", "-cp", str(classes), cls], capture_output=True, text=True,
                      check=True).stdout
    marks, current = {}, None
    for line in out.splitlines():
        head = re.match(r"\s+\S.*?(\w+)\((.*)\);$", line)
        if head:
            params = re.sub(r"<[^<>]*>", "", head.group(2)).replace(" ", "")
            current = f"{head.group(1)}({params})"
            continue
        found = re.search(r"// String (\S+)", line)
        if current and found and found.group(1) in MARKS:
            marks[current] = found.group(1)
    return marks


def _ref(cls: str, overload: str) -> str:
    return f"{cls}#{overload}"


def _body(run_jdx, args, ref):
    r = run_jdx("body", ref, *args, "--json")
    assert r.code == 0, r.out + r.err
    return json.loads(r.out)


def _marks_in(text: list[str]) -> set[str]:
    return {m for m in MARKS if f'"{m}"' in "\n".join(text)}


def _needs_decompiler():
    if not available_engines():
        pytest.skip("no decompiler installed (see .ci/run)")


@pytest.mark.parametrize("overload", OVERLOADS)
def test_decompiled_overloads_sharing_simple_names_show_their_own_body(fx, run_jdx, overload):
    _needs_decompiler()
    oracle = _javap_marks(fx["classes"], "dx.Parsing")
    want = oracle[overload.replace(" ", "")]
    answer = _body(run_jdx, fx["bare"], _ref("dx.Parsing", overload))
    assert answer["result"]["origin"] == "decompiled", answer
    assert _marks_in(answer["result"]["text"]) == {want}, (overload, want, answer["result"]["text"])


@pytest.mark.parametrize("overload", OVERLOADS)
def test_source_around_an_overload_sharing_simple_names(fx, run_jdx, overload):
    _needs_decompiler()
    want = _javap_marks(fx["classes"], "dx.Parsing")[overload.replace(" ", "")]
    r = run_jdx("source", "dx.Parsing", "--around", overload, "--context", "0", *fx["bare"], "--json")
    assert r.code == 0, r.out + r.err
    assert _marks_in(json.loads(r.out)["result"]["text"]) == {want}


@pytest.mark.parametrize("overload", OVERLOADS)
def test_sources_without_line_numbers_tell_overloads_apart_by_written_names(fx, run_jdx, overload):
    want = _javap_marks(fx["classes"], "dx.Parsing")[overload.replace(" ", "")]
    answer = _body(run_jdx, fx["paired"], _ref("dx.Parsing", overload))
    assert answer["result"]["origin"] == "sources", answer
    assert _marks_in(answer["result"]["text"]) == {want}, (overload, answer["result"]["text"])
    assert not [w for w in answer["warnings"] if w["code"] == "SOURCES_VERSION_MISMATCH"], answer["warnings"]


def test_top_level_dollar_class_is_decompiled_as_itself(fx, run_jdx):
    _needs_decompiler()
    out = jdktool.run(["javap", "-v", "-cp", str(fx["classes"]), "dx.JSON$"], capture_output=True, text=True,
                      check=True).stdout
    assert 'SourceFile: "JSON.java"' in out and "dx/JSON$ = " not in out.split("InnerClasses:", 1)[-1]
    want = _javap_marks(fx["classes"], "dx.JSON$")["parseFull(java.lang.String)"]
    r = run_jdx("source", "dx.JSON$", *fx["bare"], "--json")
    assert r.code == 0, r.out + r.err
    text = json.loads(r.out)["result"]["text"]
    assert any(re.match(r"\s*(final )?class JSON\$", line) for line in text), text
    assert not any(re.search(r"\bclass JSON\b(?!\$)", line) for line in text), text
    assert _marks_in(text) == {want}
    answer = _body(run_jdx, fx["bare"], "dx.JSON$#parseFull")
    assert answer["result"]["origin"] == "decompiled", answer["warnings"]
    assert _marks_in(answer["result"]["text"]) == {want}
    assert not [w for w in answer["warnings"] if w["code"].startswith("DECOMPILE")], answer["warnings"]
    companion = _body(run_jdx, fx["bare"], "dx.JSON#parseFull")
    assert _marks_in(companion["result"]["text"]) == {_javap_marks(fx["classes"], "dx.JSON")[
        "parseFull(java.lang.String)"]}


def test_top_level_dollar_class_in_its_sources(fx, run_jdx):
    answer = _body(run_jdx, fx["paired"], "dx.JSON$#parseFull")
    assert answer["result"]["origin"] == "sources", answer
    assert _marks_in(answer["result"]["text"]) == {"module-parse"}


# ---- the matcher itself, on texts a decompiler could print


def _row(descriptor: str) -> dict:
    return {"name": "f", "descriptor": descriptor, "access": 1, "first_line": -1, "last_line": -1}


TYPE_ROW = {"id": "p/A", "kind": "class", "access": 1}


def _match(text: str, descriptor: str):
    parsed = parse_source(text.encode())
    return sm.match_method(parsed, _row(descriptor), TYPE_ROW, ["A"], text.splitlines())


def test_a_single_type_import_says_which_unqualified_name_is_which():
    text = ("package p;\nimport java.io.Reader;\nclass A {\n    void f(q.Reader r) { one(); }\n"
            "    void f(Reader r) { two(); }\n}\n")
    assert _match(text, "(Ljava/io/Reader;)V").decl.start == 5
    assert _match(text, "(Lq/Reader;)V").decl.start == 4


def test_overloads_nothing_tells_apart_are_ambiguous_not_guessed():
    text = ("package p;\nimport java.io.*;\nimport q.*;\nclass A {\n    void f(Reader r) { one(); }\n"
            "    void f(Reader r) { two(); }\n}\n")
    for descriptor in ("(Ljava/io/Reader;)V", "(Lq/Reader;)V"):
        match = _match(text, descriptor)
        assert match.decl is None and match.ambiguous == 2
    # without the text (callers that have none) the first is still taken, as before
    parsed = parse_source(text.encode())
    assert sm.match_method(parsed, _row("(Lq/Reader;)V"), TYPE_ROW, ["A"]).decl.start == 5


def test_a_nested_type_qualified_by_its_outer_name():
    text = ("package p;\nclass A {\n    void f(java.util.Map.Entry e) { one(); }\n"
            "    void f(Outer.Entry e) { two(); }\n}\n")
    assert _match(text, "(Ljava/util/Map$Entry;)V").decl.start == 3
    assert _match(text, "(Lp/Outer$Entry;)V").decl.start == 4


def test_a_type_of_the_file_shadows_a_single_type_import():
    text = ("package p;\nimport java.io.Reader;\nclass A {\n    void f(Reader r) { one(); }\n"
            "    void f(java.io.Reader r) { two(); }\n    static class Reader {}\n}\n")
    assert _match(text, "(Lp/A$Reader;)V").decl.start == 4
    assert _match(text, "(Ljava/io/Reader;)V").decl.start == 5
