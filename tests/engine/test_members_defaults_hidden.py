"""`members` of an annotation type carries each element's default, as `outline` and `signature` print it (an element
without one is required); and it states what it left out (synthetic members, members of the access levels `--access`
hides) with the flags that show them (spec §8.3). Oracles: `javap -v` (each element's AnnotationDefault; each member's
ACC_SYNTHETIC and access flags) on classes javac compiles here."""

from __future__ import annotations

import re

import pytest

from jdx.engine.members import MemberOptions
from jdx.render import read
from tests.fixtures import jdktool
from tests.fixtures.javac import javac_jar
from tests.service import JdxService, Options

SOURCES = {
    "md/Kind.java": "package md; public enum Kind { A, B }",
    "md/Inner.java": 'package md; public @interface Inner { String value() default "x"; int n() default 1; }',
    "md/Conf.java": """package md;
public @interface Conf {
    String name() default "{default_display_name}";
    int count() default 3;
    long big() default 5L;
    boolean on() default true;
    char c() default 'q';
    double d() default 1.5;
    float f() default -0.25f;
    byte b() default 7;
    short s() default -2;
    Class<?> type() default Object.class;
    Class<?> arr() default int[].class;
    Kind kind() default Kind.B;
    String[] tags() default {"a", "b\\"q"};
    int[] empty() default {};
    Inner inner() default @Inner(n = 2);
    Inner pair() default @Inner(value = "y", n = 3);
    Inner[] many() default {@Inner, @Inner("z")};
    Class<? extends Number>[] types() default {Integer.class, Long.class};
    String required();
    Kind[] kinds();
    String TAG = "t";
}""",
    # an interface may extend an annotation interface: its elements are inherited rows
    "md/Sub.java": "package md; public interface Sub extends Conf { }",
    "md/Animal.java": """package md;
public class Animal {
    public Animal self() { return this; }
    protected Object food() { return null; }
    void walk() { }
    private void nap() { }
}""",
    # bridges (a covariant override, a generic interface's method), a lambda body, private and package members
    "md/Dog.java": """package md;
public class Dog extends Animal implements Comparable<Dog> {
    public static int counter;
    private int secret;
    int pkgField;
    public Dog() { }
    private Dog(int x) { }
    @Override public Dog self() { return this; }
    @Override protected String food() { return ""; }
    public int compareTo(Dog o) { return 0; }
    private void hush() { }
    void pkg() { }
    public Runnable later() { return () -> hush(); }
    private static int helper() { return 1; }
}""",
    "md/Plain.java": "package md; public class Plain { public void a() { } }",
}


@pytest.fixture(scope="module")
def fx(tmp_path_factory, jdx_home):
    """(service over the JDK and the fixture jar, javac's classes directory)."""
    jar, classes = javac_jar(tmp_path_factory.mktemp("memdef"), SOURCES, "md", "md.jar")
    service = JdxService(Options(jars=[str(jar)], cache_dir=str(jdx_home / "cache")))
    yield service, classes
    service.close()


def _javap(classes, fqn: str) -> list[dict]:
    """Each member `javap -p -v` prints (the static initializer left out): name, descriptor, flags, and its
    AnnotationDefault's value lines joined (None without one)."""
    out = jdktool.run(["javap", "-p", "-v", "-cp", str(classes), fqn], capture_output=True, text=True,
                      check=True).stdout
    body = out[out.index("\n{\n") + 3:out.rindex("\n}\n")]  # (the class's attributes follow it)
    members, current, in_default = [], None, False
    for line in body.splitlines():
        if re.match(r"^  \S", line):
            decl = line.strip().rstrip(";")
            head = decl.split("(")[0].split(" = ")[0].split()
            name = head[-1] if head else ""
            current = {"name": "<init>" if name == fqn else name, "static_init": decl == "static {}",
                       "descriptor": None, "flags": "", "default": None}
            members.append(current)
            in_default = False
        elif current is None:
            continue
        elif line.startswith("    descriptor: "):
            current["descriptor"] = line.split(": ", 1)[1]
        elif line.startswith("    flags: "):
            current["flags"] = line
        elif line.startswith("      default_value: "):
            in_default, current["default"] = True, ""
        elif in_default and line.startswith("        "):
            current["default"] += ("\n" if current["default"] else "") + line.strip()
        else:
            in_default = False
    return [m for m in members if not m["static_init"]]


def _descriptor_type(desc: str) -> str:
    """`[I` -> `int[]`, `Ljava/lang/Object;` -> `java.lang.Object`."""
    dims = len(desc) - len(desc.lstrip("["))
    base = desc[dims:]
    prim = {"I": "int", "J": "long", "Z": "boolean", "B": "byte", "S": "short", "C": "char", "F": "float",
            "D": "double", "V": "void"}
    name = prim[base] if base in prim else base[1:-1].replace("/", ".").replace("$", ".")
    return name + "[]" * dims


def javap_value_as_source(text: str) -> str:
    """javap's AnnotationDefault value (`5l`, `(byte) 7`, `class [I`, `Lmd/Kind;.B`, `["a","b"]`, `@md.Inner(` with
    its elements on lines of their own) as Java source writes it (`5L`, `7`, `int[].class`, `md.Kind.B`, `{"a", "b"}`,
    `@md.Inner(n=2)`)."""
    pos = 0

    def skip() -> None:
        nonlocal pos
        while pos < len(text) and text[pos] in " \n":
            pos += 1

    def quoted(q: str) -> str:
        nonlocal pos
        end = pos + 1
        while text[end] != q:
            end += 2 if text[end] == "\\" else 1
        token, pos = text[pos:end + 1], end + 1
        return token

    def scalar() -> str:
        nonlocal pos
        m = re.compile(r"(\((?:byte|short)\) )?([^,\]\)\n]+)").match(text, pos)
        pos = m.end()
        token = m.group(2).strip()
        if token.startswith("class "):
            return _descriptor_type(token[len("class "):]) + ".class"
        if token.startswith("L") and ";." in token:  # an enum constant
            owner, _, constant = token.partition(";.")
            return _descriptor_type(owner + ";") + "." + constant
        if token[-1:] == "l":
            return token[:-1] + "L"
        if token[-1:] == "d":
            return token[:-1]
        return token

    def value() -> str:
        nonlocal pos
        skip()
        c = text[pos]
        if c in "\"'":
            return quoted(c)
        if c == "[":
            pos += 1
            items = []
            skip()
            while text[pos] != "]":
                items.append(value())
                skip()
                if text[pos] == ",":
                    pos += 1
                skip()
            pos += 1
            return "{" + ", ".join(items) + "}"
        if c == "@":
            m = re.compile(r"@[\w.$]+").match(text, pos)
            pos = m.end()
            name = m.group()
            if pos < len(text) and text[pos] == "(":
                pos += 1
                pairs = []
                skip()
                while text[pos] != ")":
                    key = re.compile(r"\w+").match(text, pos)
                    pos = key.end() + 1  # (the `=`)
                    pairs.append(f"{key.group()}={value()}")
                    skip()
                pos += 1
                return f"{name}({', '.join(pairs)})"
            return name
        return scalar()

    shown = value()
    skip()
    assert pos == len(text), f"unparsed javap value: {text!r}"
    return shown


def test_the_javap_value_reader():
    """The oracle's reader on javap's spellings."""
    assert javap_value_as_source('[@md.Inner,@md.Inner(\nvalue="z"\n)]') == '{@md.Inner, @md.Inner(value="z")}'
    assert javap_value_as_source("[class Ljava/lang/Integer;,class [[J]") == "{java.lang.Integer.class, long[][].class}"
    assert javap_value_as_source("(short) -2") == "-2" and javap_value_as_source("5l") == "5L"


@pytest.mark.parametrize("fqn", ["md.Conf", "md.Sub"])
def test_members_carry_each_element_default_as_javap_reads_it(fx, fqn):
    """Declared (`md.Conf`) and inherited (`md.Sub extends Conf`) rows: every element's default is javap's
    AnnotationDefault, written as source writes it; an element without one (required) has none."""
    service, classes = fx
    oracle = {(m["name"], m["descriptor"]): m["default"] for m in _javap(classes, "md.Conf")
              if m["descriptor"].startswith("(")}
    assert sum(v is None for v in oracle.values()) == 2 and len(oracle) == 20  # (required(), kinds())
    r = service.members(fqn, MemberOptions()).result
    got = {(m["name"], m["descriptor"]): m.get("default") for m in r["members"] if m["declaring"] == "md.Conf"
           and m["kind"] == "method"}
    assert got == {k: None if v is None else javap_value_as_source(v) for k, v in oracle.items()}
    assert not any("default" in m for m in r["members"] if m["declaring"] != "md.Conf")


def test_members_defaults_read_as_outline_prints_them(fx):
    """The same spelling as `outline` (text and data), so an agent tells a required element from an optional one."""
    service, _ = fx
    outline = service.outline("md.Conf").result
    want = {m["name"]: m["default"] for m in outline["members"] if m["kind"] == "method"}
    r = service.members("md.Conf", MemberOptions(inherited=False)).result
    assert {m["name"]: m.get("default") for m in r["members"] if m["kind"] == "method"} == want
    lines = read.members(r, False, None, None)
    assert '  method public String name() default "{default_display_name}"' in lines
    assert "  method public String required()" in lines
    assert '  method public Inner[] many() default {@md.Inner, @md.Inner(value="z")}' in lines
    assert '  field public static final String TAG = "t"' in lines


def _left_out(classes, fqn: str, levels: tuple[str, ...], kinds: tuple[str, ...]) -> tuple[int, int, bool]:
    """javap's count of the members a declared listing at `levels` leaves out: (synthetic ones, the others of an
    access level not in `levels`, whether some synthetic one is of such a level)."""
    synthetic = hidden = 0
    outside = False
    for m in _javap(classes, fqn):
        kind = "field" if not m["descriptor"].startswith("(") else "constructor" if m["name"] == "<init>" else "method"
        if kind not in kinds:
            continue
        level = next((a for a in ("public", "protected", "private") if f"ACC_{a.upper()}" in m["flags"]), "package")
        if "ACC_SYNTHETIC" in m["flags"]:
            synthetic += 1
            outside |= level not in levels
        elif level not in levels:
            hidden += 1
    return synthetic, hidden, outside


@pytest.mark.parametrize("kinds,kind", [(("field", "constructor", "method"), "all"), (("field",), "field"),
                                         (("method",), "method")])
def test_hidden_counts_equal_javap(fx, kinds, kind):
    """`members --declared md.Dog`: the synthetic members (two bridges, a lambda body) and the private and package
    members left out are javap's, stated with the flags that show them, in --json and in the footer."""
    service, classes = fx
    synthetic, hidden, outside = _left_out(classes, "md.Dog", ("public", "protected"), kinds)
    assert kind != "all" or (synthetic, hidden, outside) == (4, 6, True)  # (the oracle sees the fixture)
    r = service.members("md.Dog", MemberOptions(inherited=False, kind="ctor" if kind == "constructor" else kind)).result
    want = ([{"count": synthetic, "what": "synthetic",
              "show": "--include-synthetic --access all" if outside else "--include-synthetic"}] if synthetic else []) \
        + ([{"count": hidden, "what": r.get("hidden", [{}])[-1].get("what"), "show": "--access all"}] if hidden else [])
    assert r.get("hidden", []) == want
    footer = read.members(r, False, None, None)[-1]
    for h in want:
        assert f" · {h['count']} {h['what']} hidden ({h['show']})" in footer


def test_hidden_names_the_access_levels(fx):
    service, _ = fx
    r = service.members("md.Dog", MemberOptions(inherited=False, kind="field")).result
    assert r["hidden"] == [{"count": 2, "what": "package or private", "show": "--access all"}]
    r = service.members("md.Dog", MemberOptions(inherited=False, access=("public",), grep="^food$")).result
    assert r["hidden"] == [{"count": 1, "what": "synthetic", "show": "--include-synthetic --access all"},
                           {"count": 1, "what": "protected", "show": "--access all"}]


def test_nothing_left_out_says_nothing(fx):
    service, _ = fx
    r = service.members("md.Plain", MemberOptions()).result
    assert "hidden" not in r and " hidden " not in read.members(r, False, None, None)[-1]
    r = service.members("md.Dog", MemberOptions(access=("all",), include_synthetic=True)).result
    assert "hidden" not in r


@pytest.mark.parametrize("fqn", ["md.Dog", "md.Sub", "java.lang.String", "java.lang.StringBuilder", "java.util.HashMap",
                                 "java.time.LocalDate", "java.util.stream.Collectors"])
def test_what_is_left_out_is_what_the_flags_show(fx, fqn):
    """Inherited members too: the listing plus every member it says it left out is the listing with the flags it
    names, member for member (a bridge listed still stands for the erased twin it implements:
    `Comparable.compareTo(Object)` is no extra member of `md.Dog --include-synthetic`)."""
    service, _ = fx
    base = service.members(fqn, MemberOptions()).result
    every = service.members(fqn, MemberOptions(access=("all",), include_synthetic=True)).result
    assert len(base["members"]) + sum(h["count"] for h in base.get("hidden", [])) == len(every["members"])
    synthetic = next((h for h in base.get("hidden", []) if h["what"] == "synthetic"), None)
    if synthetic and synthetic["show"] == "--include-synthetic":
        more = service.members(fqn, MemberOptions(include_synthetic=True)).result
        assert len(more["members"]) == len(base["members"]) + synthetic["count"]
    assert sum("synthetic" in m for m in every["members"]) == (synthetic or {}).get("count", 0)
    assert not [m for m in every["members"] if m["declaring"] == "java.lang.Comparable"]
