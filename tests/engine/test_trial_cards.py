"""Defects an agent trial found on real jars, each on a fixture javac compiles here (one javac for the module):

- an inner (non-static member) class's constructor prints and resolves with its source parameters, without the
  outer instance javac passes first (JLS §8.8.1); its ref and JSON descriptor keep the JVM's. Oracles: javap (the
  descriptor) and javac (`o.new Inner("a", 1)` compiles against the source parameters);
- `boolean` and `char` constants print as Java literals (`true`, `'/'`), not the int the class file holds; oracle:
  `javap -constants`;
- `jdx ...` hints quote a ref with `$` for the shell;
- a lambda body's `resolve` note names the method that wrote it (`<init>()`, `<clinit>()`, `lambdas(List)`);
- `imports` of a private or protected nested class says who may use it;
- `samples` of a type counts calls of its members, and says so. Oracle: javap (the call sites)."""

from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

import pytest

from jdx.engine.descriptors import render_constant
from jdx.engine.members import MemberOptions
from jdx.engine.rel_usages import UsageOptions
from jdx.engine.samples import SampleOptions
from jdx.engine.imports import imports
from jdx.engine.search_nav import resolve
from jdx.errors import NotFoundError, UsageError
from jdx.render.diff import diff_lines
from jdx.render.samples import samples as samples_text
from tests.fixtures.javac import javac_jar
from tests.service import JdxService, Options
from tests.fixtures import jdktool

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)

SOURCES = {
    "tc/Outer.java": """package tc;
public class Outer {
    public static final boolean ON = true, OFF = false;
    public static final char SEP = '/', E = '\\u00e9', Q = '\\'', NL = '\\n', BS = '\\\\', DQ = '"';
    public static final byte B = -3;
    public static final short S = 300;
    public static final int I = 1;
    public static final char DEL = '\\u007f', FFFF = '\\uffff';
    public static final String ZW = "p\\u200bq", LS = "a\\u2028b", BOM = "\\ufeff", NB = "x\\u00a0y", DS = "d\\u007f";
    public class Inner {
        public Inner(String name, int n) {}
        public Inner() {}
    }
    public static class Nested {
        public Nested(Outer o, String s) {}
    }
    public class Generic<T> {
        public Generic(T t, java.util.List<T> more) {}
    }
    private static class Hidden {}
    protected static class Prot {}
    static class Pack {}
    public enum Color { RED; Color() {} }
    public Runnable local(int x) {
        class Local implements Runnable { public void run() { System.out.println(x); } }
        return new Local();
    }
    public void lambdas(java.util.List<String> xs) { Runnable r = () -> System.out.println(xs); r.run(); }
    public Outer() { Runnable r = () -> System.out.println("b"); r.run(); }
    static { Runnable r = () -> System.out.println("c"); r.run(); }
}""",
    "tc/Use.java": """package tc;
public class Use {
    static void use() {
        Outer o = new Outer();
        Outer.Inner i = o.new Inner("a", 1);
        Outer.Inner j = o.new Inner();
        Outer.Nested n = new Outer.Nested(o, "s");
        o.lambdas(null);
        o.local(3).run();
        Object h = Outer.class;
    }
}""",
}
INVOKE = re.compile(r"invoke\w+\s+#\d+\s+// (?:Interface)?Method (tc/\w+)\.(\"?[\w<>$]+\"?):(\S+)")


def _javap(*args: str) -> str:
    return jdktool.run(["javap", *args], capture_output=True, text=True, check=True).stdout


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, Path]:
    if shutil.which("javac") is None or shutil.which("javap") is None:
        pytest.skip("javac/javap are not installed")
    root = tmp_path_factory.mktemp("trial_cards")
    return javac_jar(root, SOURCES, "tc", "tc.jar", debug=True)


@pytest.fixture(scope="module")
def svc(built, jdx_home):
    service = JdxService(Options(jars=[str(built[0])], jdk=False, cache_dir=str(jdx_home / "cache")))
    yield service
    service.close()


# --- 1. an inner class's constructor: the source's parameters --------------------------------------------------

def test_javap_shows_the_outer_instance_in_the_descriptor(built):
    out = _javap("-s", "-p", str(built[1] / "tc/Outer$Inner.class"))
    assert "(Ltc/Outer;Ljava/lang/String;I)V" in out and "(Ltc/Outer;)V" in out, out


def test_signature_text_shows_the_source_parameters(svc):
    sigs = svc.signature("tc.Outer$Inner#<init>").result["signatures"]
    assert sorted(s["text"] for s in sigs) == ["public Inner()", "public Inner(String name, int n)"], sigs
    two = next(s for s in sigs if s["params"])
    assert [p["name"] for p in two["params"]] == ["name", "n"]
    assert two["ref"] == "tc.Outer$Inner#<init>(tc.Outer, java.lang.String, int)"  # the JVM's: the descriptor


@pytest.mark.parametrize("ref", ["tc.Outer$Inner#<init>(String,int)", "tc.Outer$Inner#<init>(java.lang.String, int)",
                                 "tc.Outer$Inner#<init>(tc.Outer,String,int)", "tc.Outer$Inner#Inner(String,int)",
                                 "tc.Outer$Inner#<init>(Ltc/Outer;Ljava/lang/String;I)V"])
def test_source_and_jvm_refs_name_the_constructor(svc, ref):
    sigs = svc.signature(ref).result["signatures"]
    assert [s["text"] for s in sigs] == ["public Inner(String name, int n)"], sigs


def test_the_no_argument_constructor_is_inner_of_no_parameters(svc):
    sigs = svc.signature("tc.Outer$Inner#<init>()").result["signatures"]
    assert [s["ref"] for s in sigs] == ["tc.Outer$Inner#<init>(tc.Outer)"], sigs


def test_members_text_drops_the_outer_instance(svc):
    members = svc.members("tc.Outer$Inner", MemberOptions(inherited=False)).result["members"]
    ctors = sorted((m["text"], m["descriptor"]) for m in members if m["kind"] == "constructor")
    assert ctors == [("public Inner()", "(Ltc/Outer;)V"),
                     ("public Inner(String, int)", "(Ltc/Outer;Ljava/lang/String;I)V")]  # the JVM's descriptor


@pytest.mark.parametrize("ref, text", [
    ("tc.Outer$Nested#<init>", "public Nested(Outer o, String s)"),  # static: its Outer is a real parameter
    ("tc.Outer$Generic#<init>", "public Generic(T t, List<T> more)"),  # javac's Signature leaves the outer out
    ("tc.Outer$Color#<init>", "private Color()"),  # an enum's synthetic name and ordinal
])
def test_other_constructors_keep_their_parameters(svc, ref, text):
    assert [s["text"] for s in svc.signature(ref).result["signatures"]] == [text]


def test_outline_text_drops_the_outer_instance(svc):
    items = svc.outline("tc.Outer$Inner").result["members"]
    assert sorted(i["text"] for i in items if i["kind"] == "constructor") == \
        ["public Inner()", "public Inner(String name, int n)"]


# --- 2. boolean and char constants --------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def javap_constants(built) -> dict[str, str]:
    out = _javap("-constants", str(built[1] / "tc/Outer.class"))
    return dict(re.findall(r"static final \S+ (\w+) = (.+);", out))  # javap escapes what a terminal hides


@pytest.mark.parametrize("name", ["ON", "OFF", "SEP", "Q", "NL", "BS", "DQ", "B", "S", "I",
                                  "DEL", "FFFF", "ZW", "LS", "BOM", "NB", "DS"])
def test_constants_print_as_javap_prints_them(svc, javap_constants, name):
    want = javap_constants[name]
    members = {m["name"]: m for m in svc.members("tc.Outer", MemberOptions(inherited=False)).result["members"]}
    assert members[name]["text"].endswith(f" {name} = {want}"), members[name]
    assert members[name]["constant"] == want, members[name]  # --json carries it as outline and signature do
    outline = {i["name"]: i for i in svc.outline("tc.Outer").result["members"]}
    assert outline[name]["text"].endswith(f" {name} = {want}"), outline[name]
    sig = svc.signature(f"tc.Outer#{name}").result["signatures"][0]
    assert sig["text"].endswith(f" {name} = {want}"), sig


def test_a_non_ascii_char_prints_as_its_character(svc, javap_constants):
    assert javap_constants["E"] == "'\\u00e9'"  # javap escapes it; jdx quotes chars as it quotes strings
    sig = svc.signature("tc.Outer#E").result["signatures"][0]
    assert sig["text"] == "public static final char E = 'é'", sig


@pytest.mark.parametrize("descriptor, value, shown", [
    ("Z", "0", "false"), ("Z", "1", "true"), ("C", "47", "'/'"), ("C", "0", "'\\u0000'"), ("C", "55296", "'\\ud800'"),
    ("C", "39", "'\\''"), ("I", "47", "47"), ("B", "-3", "-3"), ("Ljava/lang/String;", '"a"', '"a"')])
def test_render_constant(descriptor, value, shown):
    assert render_constant(descriptor, value) == shown


# --- 3. hints quote refs with `$` ---------------------------------------------------------------------------------

def test_resolve_miss_hint_quotes_a_nested_type(svc):
    with pytest.raises(NotFoundError) as err:
        resolve(svc.store(), "tc.Outer$Inner.nope", 50)
    assert err.value.hint == "jdx members 'tc.Outer$Inner' lists its members", err.value.hint


def test_static_import_miss_hint_quotes_a_nested_type(svc):
    with pytest.raises(NotFoundError) as err:
        imports(svc.store(), "tc.Outer$Inner#nope")
    assert err.value.hint == "jdx members 'tc.Outer$Inner' --static lists its static members", err.value.hint


def test_diff_next_line_is_a_shell_command():
    finding = {"severity": "breaking", "rule": "METHOD_REMOVED", "symbol": "p.Outer$Inner#m()", "detail": ""}
    result = {"old": {"name": "a", "artifacts": [{"name": "a"}]},
              "new": {"name": "b", "artifacts": [{"name": "b"}], "jars": "/x y/b.jar"},
              "findings": [finding], "total": 1, "matching": 1, "gate": {"fail_on": "none"}, "next": "p.Outer$Inner",
              "counts": {"breaking": 1, "suspicious": 0, "info": 0, "types_added": 0, "types_removed": 0}}
    line = diff_lines(result)[-1]
    assert line.startswith("next: ") and shlex.split(line[len("next: "):]) == \
        ["jdx", "members", "p.Outer$Inner", "--jars", "/x y/b.jar"], line


# --- 4. a lambda body names the method that wrote it --------------------------------------------------------------

@pytest.mark.parametrize("writer, note", [("new", "<init>()"), ("static", "<clinit>()"),
                                          ("lambdas", "lambdas(List)")])
def test_lambda_note_names_the_enclosing_method(svc, built, writer, note):
    out = _javap("-p", str(built[1] / "tc/Outer.class"))
    name = re.search(rf"lambda\${writer}\$\d+", out).group(0)  # javac's name for it
    candidates = resolve(svc.store(), f"tc.Outer.{name}", 50)[0]["candidates"]
    assert [c["note"] for c in candidates] == [f"lambda body in {note}"], candidates


# --- 5. who may use a nested type that is not public ---------------------------------------------------------------

@pytest.mark.parametrize("ref, flags, note", [
    ("tc.Outer$Hidden", "private static", "tc.Outer$Hidden is private: no import can name it (only code inside "
                                          "tc.Outer can use it)"),
    ("tc.Outer$Prot", "protected static", "protected: only code in package tc and subclasses of tc.Outer can use it"),
    ("tc.Outer$Pack", "static", "not public: only code in package tc can use it")])
def test_imports_note_follows_the_inner_class_flags(svc, built, ref, flags, note):
    simple = ref.rsplit("$", 1)[1]
    verbose = _javap("-v", "-p", str(built[1] / f"tc/Outer${simple}.class"))
    assert re.search(rf"^\s*{flags} #\d+= #\d+ of #\d+;\s+// {simple}=", verbose, re.M), verbose  # InnerClasses
    if "private" in flags:  # javac: "Hidden has private access in Outer", wherever the import is
        with pytest.raises(UsageError) as refused:
            imports(svc.store(), ref)
        assert refused.value.message == note
        return
    assert imports(svc.store(), ref)[0]["imports"][0]["note"] == note


# --- 6. samples of a type count calls of its members ---------------------------------------------------------------

@pytest.mark.soak  # ~5 s of javap over every class; tests/cli/test_samples.py keeps samples in the default tier
def test_samples_of_a_type_count_its_member_calls_and_say_so(svc, built):
    calls = [m for f in sorted((built[1] / "tc").glob("*.class"))
             for m in INVOKE.findall(_javap("-c", "-p", str(f)))]
    public = {"<init>", '"<init>"', "lambdas", "local"}
    want = sum(1 for owner, name, _d in calls if owner == "tc/Outer" and name in public)
    answer = svc.samples("tc.Outer", SampleOptions(limit=1))
    assert answer.result["total"] == want and answer.result["counts"] == "member_calls", answer.result
    assert svc.usages("tc.Outer", UsageOptions(limit=100)).result["total"] != want  # another count: said so
    head = samples_text(answer.result)[0]
    assert head.endswith(f"of {want} calls of its constructors and methods)"), head
    assert "jdx usages 'tc.Outer#<name>'" in answer.truncated["hint"], answer.truncated


def test_samples_of_a_member_count_its_usages(svc):
    answer = svc.samples("tc.Outer#lambdas")
    usages = svc.usages("tc.Outer#lambdas", UsageOptions(limit=100)).result["total"]
    assert answer.result["total"] == usages == 1 and answer.result["counts"] == "sites"
    assert samples_text(answer.result)[0].endswith("(1 of 1 site)")
