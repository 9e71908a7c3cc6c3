"""Procyon's text corrected from the class files (jdx.loaders.decompile_procyon).

Oracles: the JVM itself (the original class, the class with its concatenation recipes rewritten, and the decompiled
text recompiled by javac give the same strings for the same arguments), `javap -p` (the decompiled interface,
recompiled, declares the same methods with the same modifiers as the original) and `javap -v` (the captured
`val$` fields and the absent LocalVariableTable the warning is about), java reflection (the parameter names added).
"""

from __future__ import annotations

import re
import shutil
import zipfile
from pathlib import Path

import pytest

from jdx.loaders import decompile as d
from jdx.loaders import decompile_procyon as dp
from tests.fixtures import jdktool
from tests.fixtures.javac import javac_jar, javap

pytestmark = pytest.mark.skipif(not d.find_engines("procyon") or shutil.which("javac") is None,
                                reason="needs Procyon and a JDK")

CONCAT = r'''package q;
public class Cat {
    public static String br(int x, String s) { return "[" + x + "]"; }
    public static String ex(int x, String y) { return y + "!"; }
    public static String fmt(int width, String s) { return "%" + width + "s"; }
    public static String two(int a, String b) { return "a=" + a + ", b=" + b + "."; }
    public static String plain(int a, String b) { return a + b; }
    public static String chr(int a, String b) { return "(" + a + ')'; }
    public static String wide(int a, String b) { return b + "é"; }
    public static String euro(int a, String b) { return a + "€"; }
    public static String nul(int a, String b) { return a + "\0"; }
    public static String pair(int a, String b) { return b + "😀"; }
    public static String marker(int a, String b) { return b + "\u0001" + a + "]"; }
    public static String konst(int a, String b) { return b + "\u0002" + ";"; }
    public static String longer(int a, String b) { return "<" + a + "/>"; }
    public static String nested(int a, String b) { return new Object() { String f() { return b + a + "|"; } }.f(); }
    public static String lambda(int a, String b) {
        java.util.function.IntFunction<String> f = v -> "{" + v + "}";
        return f.apply(a);
    }
}
'''
CONCAT_METHODS = ("br", "ex", "fmt", "two", "plain", "chr", "wide", "euro", "nul", "pair", "marker", "konst",
                  "longer", "nested", "lambda")

IFACE = '''package q;
import java.util.List;
public interface Api {
    int a();
    default int d() { return h() + p(); }
    public static int s1() { return 1; }
    private static int h() { return 2; }
    private int p() { return 3; }
    public static <T> T id(T t) { return t; }
    static int over(int x) { return x; }
    default int over(String x) { return 0; }
    private int over(long x) { return 0; }
    static int gen(List<String> xs) { return xs.size(); }
    default int gen(List<String> xs, int n) { return n; }
    private <T extends Number> int arr(T[] xs, int... ys) { return ys.length; }
    interface Inner {
        static String s() { return "s"; }
        default String d() { return "d"; }
    }
}
'''

CAPTURE = '''package q;
public class Cap {
    public static String loc(int q, String p) {
        class L {
            String s = "f";
            String g(String s) { return p + s + this.s + q; }
        }
        return new L().g("x");
    }
    public static String anon(int d, String p) {
        java.util.function.Function<String, String> f = new java.util.function.Function<String, String>() {
            public String apply(String s) { return p + s + d; }
        };
        return f.apply("y");
    }
    public static String wide(int q, String p) { return new Cap().wideImpl(q * 2L, p, 1.5); }
    String wideImpl(long w, String p, double d) {
        class W { String g(String s, long n) { return p + s + w + n + d; } }
        return new W().g("w", 3L);
    }
}
'''
CAPTURE_METHODS = ("loc", "anon", "wide")

# what is not corrected: a captured local variable, and a parameter of the same source name as the class's own
UNFIXED = '''package q;
public class Loc {
    public static String local(int n, String b) {
        String v = "v" + n;
        class K { String h(String s) { return v + s; } }
        return new K().h("k");
    }
    public static String same(int n, String s) {
        class J { String h(String t) { return s + t; } }
        return new J().h("j");
    }
}
'''


@pytest.fixture(scope="module")
def cache(tmp_path_factory, jdx_home) -> Path:
    from jdx.loaders import java_tools

    java_tools.ensure_jvm(jdx_home / "cache")
    return tmp_path_factory.mktemp("procyon-fixes-cache")


@pytest.fixture(scope="module")
def cat(tmp_path_factory) -> tuple[Path, Path]:
    return javac_jar(tmp_path_factory.mktemp("cat"), {"q/Cat.java": CONCAT}, "q", "c.jar")


@pytest.fixture(scope="module")
def cap(tmp_path_factory) -> tuple[Path, Path]:
    return javac_jar(tmp_path_factory.mktemp("cap"), {"q/Cap.java": CAPTURE}, "q", "c.jar")


def _decompile(cache: Path, jar: Path, name: str) -> d.Decompiled:
    return d.decompile_class(cache, "jar", str(jar), name, [("jar", str(jar))], timeout=30.0, engine="procyon")


def _call_all(classes_dir: Path, cls: str, methods, arg_sets) -> dict:
    """{(method, args): result} of static methods run by the JVM from a class directory, each in a fresh loader."""
    import jpype

    url = jpype.JClass("java.io.File")(str(classes_dir)).toURI().toURL()
    loader = jpype.JClass("java.net.URLClassLoader")(jpype.JArray(jpype.JClass("java.net.URL"))([url]), None)
    klass = jpype.JClass("java.lang.Class").forName(cls, True, loader)
    string, integer = jpype.JClass("java.lang.String"), jpype.JClass("java.lang.Integer")
    out = {}
    for name in methods:
        method = klass.getMethod(name, integer.TYPE, string.class_)
        for a, b in arg_sets:
            out[name, a, b] = str(method.invoke(None, jpype.JInt(a), jpype.JString(b)))
    return out


ARGS = [(7, "x"), (-12, "")]


def test_concat_recipes_rewritten_keep_their_meaning(tmp_path, cat):
    jar, classes = cat
    original = _call_all(classes, "q.Cat", CONCAT_METHODS, ARGS)
    assert original["br", 7, "x"] == "[7]" and original["pair", 7, "x"] == "x😀"
    rewritten = tmp_path / "rewritten"
    total = 0
    for path in classes.rglob("*.class"):
        data, fixed, missed = dp.fix_concat_recipes(path.read_bytes())
        assert missed == 0
        total += fixed
        target = rewritten / path.relative_to(classes)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    # the recipes the oracle (javap -v) shows with one character after the last marker
    shown = javap(classes, "q.Cat", "-v") + "".join(javap(classes, f"q.{p.stem}", "-v")
                                                    for p in (classes / "q").glob("Cat$*.class"))
    recipes = re.findall(r"= Utf8 +(.*\\u0001.*)", shown)
    # (one UTF-16 unit: an escape javap prints, or a character outside the supplementary planes)
    one_char = [r for r in recipes
                if re.fullmatch(r".*\\u000[12](?:\\u(?!000[12])[0-9a-f]{4}|\\[^u]|[^\\\U00010000-\U0010ffff])", r)]
    assert total == len(one_char) >= 10, one_char
    assert _call_all(rewritten, "q.Cat", CONCAT_METHODS, ARGS) == original  # the verifier accepted it, same strings
    again, fixed, _ = dp.fix_concat_recipes((rewritten / "q/Cat.class").read_bytes())
    assert fixed == 0  # nothing left to rewrite


def test_decompiled_concatenations_compile_to_the_same_strings(cache, tmp_path, cat):
    jar, classes = cat
    result = _decompile(cache, jar, "q/Cat")
    assert '"[" + n + "]"' in result.text and '"%" + n + "s"' in result.text
    assert not [w for w in result.warnings if w.code == "DECOMPILED_CONCAT_INCOMPLETE"]
    recompiled = tmp_path / "re"
    (recompiled / "src/q").mkdir(parents=True)
    (recompiled / "src/q/Cat.java").write_text(result.text)
    jdktool.run(["javac", "-d", str(recompiled / "out"), str(recompiled / "src/q/Cat.java")], check=True)
    assert _call_all(recompiled / "out", "q.Cat", CONCAT_METHODS, ARGS) == \
        _call_all(classes, "q.Cat", CONCAT_METHODS, ARGS)


def _javap_methods(classpath: Path, cls: str) -> list[str]:
    """javap -p's method lines, sorted, parameter names aside."""
    return sorted(line.strip() for line in javap(classpath, cls).splitlines() if "(" in line)


def test_interface_methods_get_their_static_and_private_modifiers_back(cache, tmp_path):
    jar, classes = javac_jar(tmp_path / "i", {"q/Api.java": IFACE}, "q", "i.jar")
    result = _decompile(cache, jar, "q/Api")
    assert not result.warnings
    assert "private static int h()" in result.text and "default int over(final String" in result.text
    recompiled = tmp_path / "re"
    (recompiled / "src/q").mkdir(parents=True)
    (recompiled / "src/q/Api.java").write_text(result.text)
    jdktool.run(["javac", "-d", str(recompiled / "out"), str(recompiled / "src/q/Api.java")], check=True)
    for cls in ("q.Api", "q.Api$Inner"):
        assert _javap_methods(recompiled / "out", cls) == _javap_methods(classes, cls)
    cached = _decompile(cache, jar, "q/Api")
    assert cached.cached and cached.text == result.text


def test_an_overload_that_cannot_be_told_apart_is_left_and_reported(cache, tmp_path):
    source = '''package q;
public interface Two {
    static int f(java.util.List<String> x) { return 1; }
    default int f(java.awt.List x) { return 2; }
    static int g() { return 3; }
}
'''
    jar, _ = javac_jar(tmp_path / "t", {"q/Two.java": source}, "q", "t.jar")
    result = _decompile(cache, jar, "q/Two")
    assert "static int g()" in result.text
    assert [w.code for w in result.warnings] == ["DECOMPILED_MODIFIERS_UNCERTAIN"]
    assert "q.Two#f" in result.warnings[0].message
    assert len(re.findall(r"default int f\(", result.text)) == 2  # neither guessed
    cached = _decompile(cache, jar, "q/Two")
    assert cached.cached and [w.code for w in cached.warnings] == ["DECOMPILED_MODIFIERS_UNCERTAIN"]


def test_captured_parameters_get_their_source_names(cache, tmp_path, cap):
    jar, classes = cap
    result = _decompile(cache, jar, "q/Cap")
    assert not result.warnings
    assert "return p + s + this.s + q;" in result.text  # Procyon alone: `return s + s + this.s + n;`
    recompiled = tmp_path / "re"
    (recompiled / "src/q").mkdir(parents=True)
    (recompiled / "src/q/Cap.java").write_text(result.text)
    jdktool.run(["javac", "-d", str(recompiled / "out"), str(recompiled / "src/q/Cap.java")], check=True)
    assert _call_all(recompiled / "out", "q.Cap", CAPTURE_METHODS, ARGS) == \
        _call_all(classes, "q.Cap", CAPTURE_METHODS, ARGS)


def test_named_parameters_are_what_reflection_reads(tmp_path, cap):
    """The MethodParameters attribute added is one the JVM accepts: reflection reads the captured parameter's
    name from it, the others stay unnamed (argN), and the code runs as before."""
    import jpype

    jar, classes = cap
    files = sorted((str(p.relative_to(classes)), p.read_bytes()) for p in classes.rglob("*.class"))
    named, captures = dp.name_captured_parameters(files)
    assert sorted(captures.named) == ["q/Cap$1", "q/Cap$1L", "q/Cap$1W"] and not captures.unnamed
    out = tmp_path / "named"
    for name, data in named:
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_bytes(data)
    assert _call_all(out, "q.Cap", CAPTURE_METHODS, ARGS) == _call_all(classes, "q.Cap", CAPTURE_METHODS, ARGS)
    url = jpype.JClass("java.io.File")(str(out)).toURI().toURL()
    loader = jpype.JClass("java.net.URLClassLoader")(jpype.JArray(jpype.JClass("java.net.URL"))([url]), None)
    klass = jpype.JClass("java.lang.Class").forName("q.Cap", True, loader)
    names = {str(m.getName()): [str(p.getName()) for p in m.getParameters()] for m in klass.getDeclaredMethods()
             if not m.isSynthetic()}
    assert names == {"loc": ["q", "p"], "anon": ["d", "p"], "wide": ["arg0", "arg1"],
                     "wideImpl": ["w", "p", "d"]}


@pytest.mark.parametrize("debug", [False, True])
def test_captured_variables_left_unnamed_are_reported(cache, tmp_path, debug):
    jar, classes = javac_jar(tmp_path / "l", {"q/Loc.java": UNFIXED}, "q", "l.jar", debug=debug)
    for cls in ("q.Loc$1K", "q.Loc$1J"):
        shown = javap(classes, cls, "-v")
        assert "val$" in shown and ("LocalVariableTable" in shown) == debug
    result = _decompile(cache, jar, "q/Loc")
    assert [w.code for w in result.warnings] == ([] if debug else ["DECOMPILED_CAPTURED_NAMES"])
    if not debug:
        assert "q.Loc$1J" in result.warnings[0].message and "q.Loc$1K" in result.warnings[0].message


def test_a_class_without_anything_to_correct_is_unchanged(tmp_path):
    jar, classes = javac_jar(tmp_path / "p", {"q/Plain.java": "package q; public class Plain { "
                                              "String f(int a) { return a + \"xy\"; } }"}, "q", "p.jar")
    data = (classes / "q/Plain.class").read_bytes()
    assert dp.fix_concat_recipes(data) == (data, 0, 0)
    with zipfile.ZipFile(jar) as zf:
        assert dp.concat_recipes(zf.read("q/Plain.class")) == ["\x01xy"]
    with pytest.raises(dp.ClassFormatError):
        dp.fix_concat_recipes(data[:40])


@pytest.mark.parametrize("name", ["java/util/function/Function", "java/util/function/BinaryOperator"])
def test_jdk_interfaces_print_the_modifiers_javap_shows(cache, name):
    """Every method of a JDK interface (unique names) has the `static` / `default` that `javap -p` prints."""
    result = d.decompile_class(cache, "jrt", "jrt:/java.base", name, [], timeout=30.0, engine="procyon")
    shown = jdktool.run(["javap", "-p", name.replace("/", ".")], capture_output=True, text=True, check=True).stdout
    expected = {}
    for line in shown.splitlines():
        if "(" in line:
            words = set(re.split(r"[\s<>,]+", line.split("(")[0]))
            if "abstract" not in words and "$" not in line.split("(")[0]:  # lambda bodies are inlined
                expected[line.split("(")[0].split()[-1]] = "static" if "static" in words else "default"
    printed = {m.group(2): m.group(1) for m in re.finditer(r"^\s+(static|default) (?:<.*?> )?[\w.<>,? \[\]]+ "
                                                           r"(\w+)\(", result.text, re.M)}
    assert expected and printed == expected
