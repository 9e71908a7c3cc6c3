"""`resolve`, `imports` and `ls` defects trial 27 found: a parameter list that is no frame location narrows the
overloads (`Hex#decodeHex(String)`, not a frame `(Hex.java:12)`); a stack trace's exception lines resolve their
exception type, a whole trace is a usage error pointing at `jdx batch`; a nested type by its binary name; a frame
whose class is in no artifact says so without unrelated suggestions; `imports Type.MEMBER` (a static import as
written); `ls --counts` leaves out package-info. Oracles: reflection (getDeclaredMethod by parameter types) for the
overload a parameter list names, javac compiling a client for an import statement, the jar's class files."""

from __future__ import annotations

import shutil
import zipfile

import pytest

from jdx.engine.imports import imports
from jdx.engine import search_nav
from jdx.engine.packages import list_packages
from jdx.engine.search_nav import parse_frame, resolve
from jdx.errors import NotFoundError, UsageError
from tests.fixtures import jdktool
from tests.fixtures.javac import javac_jar
from tests.service import JdxService, Options

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)

SOURCES = {
    "p/Hex.java": """package p;
import java.util.List;
public class Hex {
    public static final int CONST = 7;
    public static byte[] decodeHex(String data) { return null; }
    public static byte[] decodeHex(char[] data) { return null; }
    public static int decodeHex(char[] data, byte[] out, int offset) { return 0; }
    public static String join(String... parts) { return ""; }
    public static String join(List<String> parts) { return ""; }
    public <K> K pick(K key) { return key; }
    public int pick(int key) { return key; }
    public class Inner {
        public Inner(String s) { }
        public Inner(int i) { }
    }
}""",
    "p/Selector.java": """package p;
public class Selector {
    public static class SelectorParseException extends IllegalStateException {
        public SelectorParseException(String msg) { super(msg); }
    }
}""",
    "p/Kind.java": """package p;
public enum Kind {
    A("a"), B(2);
    Kind(String s) { }
    Kind(int i) { }
}""",
    "p/package-info.java": "@Deprecated\npackage p;",  # javac writes p/package-info.class: no type
    "Reflect.java": """import java.lang.reflect.*;
import java.util.*;
public class Reflect {
    static Class<?> type(String n) throws Exception {
        if (n.endsWith("[]")) return java.lang.reflect.Array.newInstance(type(n.substring(0, n.length() - 2)), 0).getClass();
        switch (n) { case "int": return int.class; case "char": return char.class; case "byte": return byte.class; }
        return Class.forName(n);
    }
    public static void main(String[] a) throws Exception {
        for (String q : a) {  // class|method|param,param: the declared method javac would name, as a jdx ref
            String[] f = q.split("\\\\|", -1);
            Class<?> c = Class.forName(f[0]);
            List<Class<?>> ps = new ArrayList<>();
            for (String p : f[2].isEmpty() ? new String[0] : f[2].split(",")) ps.add(type(p));
            Class<?>[] arr = ps.toArray(new Class<?>[0]);
            Executable m = f[1].equals("<init>") ? c.getDeclaredConstructor(arr) : c.getDeclaredMethod(f[1], arr);
            List<String> names = new ArrayList<>();
            for (Class<?> p : m.getParameterTypes()) names.add(p.getTypeName());
            if (m.isVarArgs()) { int l = names.size() - 1; names.set(l, names.get(l).replace("[]", "...")); }
            System.out.println(c.getName() + "#" + f[1] + "(" + String.join(", ", names) + ")");
        }
    }
}""",
}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    if shutil.which("javac") is None or shutil.which("javap") is None:
        pytest.skip("javac/javap are not installed")
    root = tmp_path_factory.mktemp("resolve_t27")
    return root, *javac_jar(root, SOURCES, "p", "p.jar")


@pytest.fixture(scope="module")
def store(built, jdx_home):
    service = JdxService(Options(jars=[str(built[1])], jdk=False, cache_dir=str(jdx_home / "cache")))
    yield service.store()
    service.close()


def _reflect(built, *queries: str) -> list[str]:
    _root, _jar, classes = built
    return jdktool.run(["java", "-cp", str(classes), "Reflect", *queries], capture_output=True, text=True,
                       check=True).stdout.splitlines()


def _refs(store, text: str) -> list[str]:
    result, _ = resolve(store, text, 50)
    assert result["frame"] is None, result
    return [c["ref"] for c in result["candidates"]]


# --- 1: a parameter list narrows the overloads ----------------------------------------------------------------

@pytest.mark.parametrize("written, oracle", [
    ("p.Hex#decodeHex(String)", "p.Hex|decodeHex|java.lang.String"),
    ("Hex#decodeHex(java.lang.String)", "p.Hex|decodeHex|java.lang.String"),
    ("p.Hex.decodeHex(java.lang.String)", "p.Hex|decodeHex|java.lang.String"),  # dotted, as a frame writes it
    ("Hex#decodeHex(char[])", "p.Hex|decodeHex|char[]"),
    ("Hex#decodeHex(char[], byte[], int)", "p.Hex|decodeHex|char[],byte[],int"),
    ("Hex#decodeHex(Ljava/lang/String;)[B", "p.Hex|decodeHex|java.lang.String"),  # exact descriptor
    ("Hex#join(String...)", "p.Hex|join|java.lang.String[]"),
    ("Hex#join(List<String>)", "p.Hex|join|java.util.List"),
    ("Hex#pick(K)", "p.Hex|pick|java.lang.Object"),  # a type variable, by the generic signature
    ("Hex#pick(int)", "p.Hex|pick|int"),
])
def test_a_parameter_list_names_the_overload_reflection_finds(built, store, written, oracle):
    assert _refs(store, written) == _reflect(built, oracle)


def test_constructors_by_their_source_parameters(built, store):
    """An inner class's constructor takes the outer instance first, an enum's the name and ordinal (JVM
    descriptors); the written list is the source's."""
    (inner,) = _refs(store, "Hex$Inner#<init>(String)")
    assert "java.lang.String" in inner and "int" not in inner
    (enum,) = _refs(store, "Kind#<init>(int)")
    assert enum.endswith("int)") and "String" not in enum.split("(")[1].split(",")[-1]


def test_no_overload_fits_lists_every_overload(built, store):
    with pytest.raises(NotFoundError) as err:
        resolve(store, "Hex#decodeHex(Strin)", 50)
    assert "fits decodeHex(Strin)" in err.value.message
    assert sorted(c["ref"] for c in err.value.candidates) == sorted(_reflect(
        built, "p.Hex|decodeHex|java.lang.String", "p.Hex|decodeHex|char[]", "p.Hex|decodeHex|char[],byte[],int"))


@pytest.mark.parametrize("src", ["Hex.java:12", "Hex.java", "Unknown Source", "Native Method", "Hex.kt:3",
                                 "SourceFile:7", "Unknown Source:4"])
def test_frame_locations_stay_frames(src):
    assert search_nav.is_frame_location(src)
    sym, frame = parse_frame(f"p.Hex.decodeHex({src})")
    assert sym == "p.Hex.decodeHex" and frame is not None


@pytest.mark.parametrize("src", ["String", "java.lang.String", "java.io.File, java.lang.String", "", "char[]",
                                 "List<String>", "String..."])
def test_parameter_lists_are_no_frame_locations(src):
    assert not search_nav.is_frame_location(src)
    assert parse_frame(f"p.Hex.decodeHex({src})")[1] is None


def test_a_frame_still_picks_by_line(built, store):
    result, _ = resolve(store, "at p.Hex.decodeHex(Hex.java:7)", 50)  # line 7: the three-parameter overload
    assert result["frame"]["line"] == 7
    assert [c["ref"] for c in result["candidates"]] == _reflect(built, "p.Hex|decodeHex|char[],byte[],int")


# --- 2, 3: exception lines and nested binary names --------------------------------------------------------------

@pytest.mark.parametrize("line", [
    "p.Selector$SelectorParseException: Did not find balanced marker",
    "Caused by: p.Selector$SelectorParseException: no protocol: x",
    'Exception in thread "main" p.Selector$SelectorParseException: bad',
    "\tSuppressed: p.Selector$SelectorParseException",
    "Caused by: Selector$SelectorParseException: x",
    "Selector$SelectorParseException",
])
def test_an_exception_line_resolves_its_type(built, store, line):
    head = jdktool.run(["javap", "-cp", str(built[1]), "p.Selector$SelectorParseException"], capture_output=True,
                       text=True, check=True).stdout
    assert "class p.Selector$SelectorParseException extends java.lang.IllegalStateException" in head
    assert _refs(store, line) == ["p.Selector$SelectorParseException"]


def test_an_exception_type_not_in_the_workspace_suggests_types_only(store):
    with pytest.raises(NotFoundError) as err:
        resolve(store, "Caused by: java.net.MalformedURLException: no protocol: x", 50)
    assert "exception type java.net.MalformedURLException" in err.value.message
    assert all(c["kind"] not in ("method", "field") for c in err.value.candidates)


def test_a_member_ref_with_double_colon_is_no_exception_line(store):
    assert len(_refs(store, "Hex::decodeHex")) == 3


TRACE = """Exception in thread "main" p.Selector$SelectorParseException: Did not find balanced marker
\tat p.Hex.decodeHex(Hex.java:5)
\tat Boom.main(Boom.java:14)
Caused by: java.lang.IllegalStateException: x
\t... 3 more"""


def test_a_whole_trace_is_a_usage_error_naming_batch(store):
    with pytest.raises(UsageError) as err:
        resolve(store, TRACE, 50)
    assert "4 frame and exception lines" in err.value.message and "jdx batch" in err.value.message
    assert "\n" not in err.value.message


def test_a_text_with_one_trace_line_resolves_it(store):
    result, _ = resolve(store, "Caused by: p.Selector$SelectorParseException: x\n\t... 3 more\n", 50)
    assert [c["ref"] for c in result["candidates"]] == ["p.Selector$SelectorParseException"]
    assert result["name"] == "Caused by: p.Selector$SelectorParseException: x"


# --- 4: a frame of a class in no artifact ------------------------------------------------------------------------

def test_a_frame_of_a_class_not_in_the_workspace_says_so(store):
    with pytest.raises(NotFoundError) as err:
        resolve(store, "at Boom.main(Boom.java:14)", 50)
    assert "Boom" in err.value.message and "not in the workspace" in err.value.message
    assert err.value.candidates == []


# --- 5: imports Type.MEMBER --------------------------------------------------------------------------------------

@pytest.mark.parametrize("written", ["p.Hex.CONST", "Hex.CONST", "Hex#CONST"])
def test_imports_a_static_member_written_dotted(built, store, written):
    (entry,) = imports(store, written)[0]["imports"]
    assert entry["statement"] == "import static p.Hex.CONST;"
    root, jar, _classes = built
    src = root / "client" / written.replace("#", "_")
    (src / "q").mkdir(parents=True)
    (src / "q" / "Use.java").write_text(f"package q;\n{entry['statement']}\nclass Use {{ int x = CONST; }}\n")
    jdktool.run(["javac", "-cp", str(jar), "-d", str(src / "out"), str(src / "q" / "Use.java")], check=True)


# --- 6: ls --counts leaves out package-info -----------------------------------------------------------------------

def test_ls_counts_no_package_info(built, store):
    names = [n for n in zipfile.ZipFile(built[1]).namelist() if n.startswith("p/") and n.endswith(".class")]
    assert "p/package-info.class" in names
    result, _ = list_packages(store, "p", 1, True, 100)
    assert result["entries"][0]["types"] == len(names) - 1
    assert "package-info" not in {e["name"] for e in result["entries"]}
    nested = [e for e in result["entries"] if e["kind"] == "nested"]
    assert nested and nested[0]["types"] == len([n for n in names if "$" in n])
