"""Type arguments of `members 'Type<Arg>'` are checked against their parameters' bounds (JLS §4.5), javac the
oracle: each case is the parameter type of `class P { void m(<type> x) {} }`, and `members` refuses it (usage
error, exit 3, one line naming the parameter and its bound) iff javac rejects it. Bounds are class and interface
types, several at once (`T extends Number & Comparable<? super T>`), F-bounds (the argument put into the bound:
`E extends Enum<E>`), arrays are arguments like any reference type, primitives are not, and subtyping goes through
the workspace's hierarchy (`ArrayList<Integer>` is a `List<? extends Number>`).

A wildcard argument is checked as javac does (`? extends U`: U castable to the bound; `? super L`: L within it) and
then captured (JLS §5.1.10): the members read the capture variable where the type variable stood, shown as IntelliJ
shows it, `capture of ? extends Number` (javac's `CAP#1`): `get` returns a `capture of ? extends Number` (a Number to a
caller), and `add` takes one (nothing but null can be passed), which is exactly what javac allows."""

from __future__ import annotations

import re

import pytest

from jdx.engine.members import MemberOptions
from jdx.errors import UsageError
from tests.fixtures.javac import javac_jar
from tests.service import JdxService, Options
from tests.fixtures import jdktool

SOURCES = {
    "b/Multi.java": "package b; public class Multi<T extends Number & Comparable<? super T>> { public T top() "
                    "{ return null; } }",
    "b/Fb.java": "package b; public class Fb<T extends Comparable<T>> { }",
    "b/SuperCmp.java": "package b; public class SuperCmp<T extends Comparable<? super T>> { }",
    "b/Nums.java": "package b; public class Nums<L extends java.util.List<? extends Number>> { }",
    "b/Clone.java": "package b; public class Clone<C extends Cloneable> { }",
    "b/Color.java": "package b; public enum Color { RED, GREEN }",
    "b/IntList.java": "package b; public class IntList extends java.util.ArrayList<Integer> { }",
}

# (the type as jdx takes it, javac rejects it); every name is qualified or in java.lang, so the same text is Java
CASES = [
    ("java.util.EnumSet<String>", True),
    ("java.util.EnumSet<java.time.DayOfWeek>", False),
    ("java.util.EnumSet<b.Color>", False),  # an enum of the workspace, not the JDK
    ("java.lang.Enum<Integer>", True),
    ("java.lang.Enum<java.time.Month>", False),
    ("java.util.Comparator<int>", True),
    ("java.util.List<int[]>", False),
    ("java.util.List<String[][]>", False),
    ("java.util.List<java.util.EnumSet<String>>", True),  # nested arguments are checked too
    ("b.Multi<Integer>", False),
    ("b.Multi<String>", True),  # Comparable, not a Number
    ("b.Multi<java.util.concurrent.atomic.AtomicInteger>", True),  # a Number, not Comparable
    ("b.Fb<java.time.LocalDate>", True),  # LocalDate is a Comparable<ChronoLocalDate>, not a Comparable<LocalDate>
    ("b.SuperCmp<java.time.LocalDate>", False),  # ... which is a Comparable<? super LocalDate>
    ("b.Fb<Comparable>", True),  # raw: not a subtype of Comparable<Comparable>
    ("b.Fb<int[]>", True),
    ("b.Clone<int[]>", False),  # arrays are Cloneable
    ("b.Nums<java.util.ArrayList<Integer>>", False),  # through the hierarchy, arguments substituted
    ("b.Nums<b.IntList>", False),
    ("b.Nums<java.util.ArrayList<String>>", True),
    ("java.util.List<? extends Number>", False),
    ("java.util.EnumSet<?>", False),
    ("java.util.EnumSet<? extends String>", True),  # String is final and no Enum: not castable
    ("java.util.EnumSet<? extends Runnable>", False),  # an interface: castable to Enum
    ("java.util.EnumSet<? super java.time.DayOfWeek>", False),
    ("java.util.EnumSet<? super String>", True),
    ("b.Multi<? extends Integer>", False),
]


@pytest.fixture(scope="module")
def service(tmp_path_factory, jdx_home):
    root = tmp_path_factory.mktemp("bounds")
    jar, classes = javac_jar(root, SOURCES, "b", "bounds.jar")
    svc = JdxService(Options(jars=[str(jar)], cache_dir=str(jdx_home / "cache")))
    svc.classes = classes
    yield svc
    svc.close()


@pytest.fixture(scope="module")
def javac_rejected(service, tmp_path_factory) -> set[int]:
    """Which CASES javac rejects: one probe file each, one javac run (it reports errors file by file)."""
    root = tmp_path_factory.mktemp("probes")
    files = []
    for i, (text, _) in enumerate(CASES):
        files.append(root / f"P{i}.java")
        files[-1].write_text(f"class P{i} {{ void m({text} x) {{ }} }}\n")
    out = jdktool.run(["javac", "-Xlint:none", "-Xmaxerrs", "1000", "-cp", str(service.classes), "-d",
                          str(root / "out"), *map(str, files)], capture_output=True, text=True)
    return {int(n) for n in re.findall(r"P(\d+)\.java:\d+: error", out.stderr)}


@pytest.mark.parametrize("index", range(len(CASES)), ids=[text for text, _ in CASES])
def test_members_refuses_what_javac_rejects(service, javac_rejected, index):
    text, rejected = CASES[index]
    assert (index in javac_rejected) == rejected, f"javac {'accepts' if rejected else 'rejects'} {text}"
    if rejected:
        with pytest.raises(UsageError):
            service.members(text, MemberOptions())
    else:
        assert service.members(text, MemberOptions()).result["members"]


@pytest.mark.parametrize("text, message", [
    ("java.util.EnumSet<String>", "String is not within the bound of E (E extends Enum<E>) of java.util.EnumSet"),
    ("b.Multi<String>", "String is not within the bound of T (T extends Number & Comparable<? super T>) of b.Multi"),
    ("java.util.EnumSet<? super String>", "? super String is not within the bound of E (E extends Enum<E>)"),
    ("java.util.List<java.util.EnumSet<String>>", "String is not within the bound of E (E extends Enum<E>)"),
])
def test_the_error_names_the_parameter_and_its_bound(service, text, message):
    with pytest.raises(UsageError, match=re.escape(message)):
        service.members(text, MemberOptions())


@pytest.mark.parametrize("text, message", [
    ("java.util.List<? extends>", "malformed wildcard '? extends'"),
    ("java.util.List<? extend Number>", "malformed wildcard"),
    ("java.util.List<? super int>", "'int' is primitive"),
    ("java.util.List<? extends ? super Integer>", "a wildcard's bound is a type, not a wildcard"),
])
def test_malformed_wildcards_are_usage_errors(service, text, message):
    with pytest.raises(UsageError, match=re.escape(message)):
        service.members(text, MemberOptions())


def test_out_of_bounds_exits_3_in_one_line(run_jdx, service):
    r = run_jdx("members", "java.lang.Enum<Integer>", "--jars", service.options.jars[0])
    assert r.code == 3 and len(r.err.strip().splitlines()) == 1, r.err
    assert "Integer is not within the bound of E (E extends Enum<E>)" in r.err


def _texts(service, type_text: str, name: str) -> list[str]:
    members = service.members(type_text, MemberOptions()).result["members"]
    return sorted(m["text"] for m in members if m["name"] == name)


def test_a_wildcard_argument_is_captured(service):
    answer = service.members("java.util.List<? extends Number>", MemberOptions()).result
    assert answer["type_arguments"] == {"E": "? extends java.lang.Number"}
    assert _texts(service, "java.util.List<? extends Number>", "get") == [
        "public capture of ? extends Number get(int)"]
    assert "public boolean add(capture of ? extends Number)" in _texts(
        service, "java.util.List<? extends Number>", "add")
    assert _texts(service, "java.util.List<? super Integer>", "iterator") == [
        "public Iterator<capture of ? super Integer> iterator()"]
    assert _texts(service, "java.util.List<?>", "get") == ["public capture of ? get(int)"]
    # a nested wildcard is an ordinary argument, not captured
    assert _texts(service, "java.util.List<java.util.List<? extends Number>>", "get") == [
        "public List<? extends Number> get(int)"]
    assert _texts(service, "b.Multi<Integer>", "top") == ["public Integer top()"]
