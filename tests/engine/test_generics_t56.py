"""Generics trial fixes (T56).

A bridge collapses only the supertype method of its own descriptor: `Object get()`, javac's bridge from a
`Supplier<String>` to an inherited `Comparable get()`, leaves that method a member (oracle: reflection's
getMethods() on a javac-compiled fixture). `signature`, `show` and `hierarchy` take type arguments as `members` does:
checked alike (same errors and exit codes), substituted in the signatures and supertypes."""

from __future__ import annotations

import pytest

from jdx.engine.members import MemberOptions
from jdx.errors import JdxError
from tests.engine.test_members_reflection import compare, reflect  # noqa: F401  (`reflect` is a fixture)
from tests.fixtures import jdktool
from tests.service import JdxService, Options

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)

SOURCES = {
    # Sub inherits Box's `Comparable get()` for Supplier<String>'s `Object get()`: javac bridges the two in Sub
    "Box": "package g; public class Box<T extends Comparable<T>> { public T get() { return null; }\n"
           "  public static class Inner<T extends Comparable<T>> extends Box<T> {} }",
    "Sub": "package g; public class Sub<X> extends Box.Inner<String> implements java.util.function.Supplier<String> {\n"
           "  public X get2() { return null; } }",
    # the reverse: C's bridge `set(Object)` stands for I's `set(Object)`, which B's `set(String)` implements
    "I": "package g; public interface I<T> { void set(T t); }",
    "B": "package g; public class B { public void set(String s) {} }",
    "C": "package g; public class C extends B implements I<String> {}",
}
CLASSES = ["g.Sub", "g.C", "g.Box", "g.Box$Inner"]


@pytest.fixture(scope="module")
def world(jdx_home, tmp_path_factory):
    folder = tmp_path_factory.mktemp("generics_t56")
    (folder / "g").mkdir()
    for name, text in SOURCES.items():
        (folder / "g" / f"{name}.java").write_text(text + "\n")
    classes = folder / "classes"
    jdktool.run(["javac", "-d", str(classes), *(str(folder / "g" / f"{n}.java") for n in SOURCES)], check=True,
                capture_output=True)
    javap = jdktool.run(["javap", "-p", "-v", "-cp", str(classes), "g.Sub"], capture_output=True, text=True,
                        check=True).stdout
    jar = folder / "g.jar"
    jdktool.run(["jar", "cf", str(jar), "-C", str(classes), "g"], check=True)
    service = JdxService(Options(jars=[str(jar)], cache_dir=str(jdx_home / "cache")))
    yield {"service": service, "jar": jar, "javap": javap}
    service.close()


@pytest.fixture(scope="module")
def jdk(jdx_home):
    """One service on the JDK alone for the module (opening one per test cost ~2 s each)."""
    service = JdxService(Options(cache_dir=str(jdx_home / "cache")))
    yield service
    service.close()


def test_the_fixture_has_a_bridge_and_no_real_get(world):
    javap = world["javap"]
    assert "public java.lang.Object get();" in javap and "ACC_BRIDGE" in javap
    assert "public java.lang.Comparable get();" not in javap and "public java.lang.String get();" not in javap


def test_members_equal_reflection_beside_a_bridge_to_an_inherited_method(world, reflect):  # noqa: F811
    checked, failures = compare(world["service"], reflect, CLASSES, [world["jar"]])
    assert checked == len(CLASSES)
    assert not failures, "\n".join(failures)


def test_the_inherited_method_reads_in_the_queried_types_terms(world):
    r = world["service"].members("g.Sub<java.lang.Integer>", MemberOptions(kind="method")).result
    get = [m for m in r["members"] if m["name"] == "get"]
    assert [(m["declaring"], m["text"]) for m in get] == [("g.Box", "public String get()")]
    assert r["hidden"] == [{"count": 1, "what": "synthetic", "show": "--include-synthetic"}]
    assert world["service"].signature("g.Sub#get").result["signatures"][0]["declaring"] == "g.Box"


APPLIED = ["java.util.Map<java.lang.String, java.util.List<java.lang.Integer>>#computeIfAbsent",
           "java.util.HashMap<java.lang.String, java.lang.Integer>#put",
           "java.util.ArrayList<? extends java.lang.Number>#get",
           "java.util.concurrent.ConcurrentSkipListMap<java.lang.String, java.lang.Integer>#getOrDefault"]


def _unnamed(item: dict) -> str:
    """A signature's text without its parameter names, as `members` writes it."""
    head = item["text"][: item["text"].index("(")]
    rest = item["text"][item["text"].index(")") + 1:]
    return f"{head}({', '.join(p['type'] for p in item['params'])}){rest}"


@pytest.mark.parametrize("query", APPLIED)
def test_signature_substitutes_type_arguments_as_members_does(jdk, query):
    service = jdk
    owner, name = query.split("#")
    listed = {m["descriptor"]: m for m in service.members(owner, MemberOptions(grep=f"^{name}$")).result["members"]}
    r = service.signature(query).result
    assert r["type_arguments"] == service.members(owner).result["type_arguments"]
    assert r["signatures"]
    for item in r["signatures"]:
        descriptor = item["ref"].split("#", 1)[1]
        member = next(m for m in listed.values() if m["ref"].split("#", 1)[1] == descriptor)
        assert _unnamed(item).replace("default ", "") == member["text"].replace("default ", "")


def test_signature_text_of_a_nested_argument(jdk):
    service = jdk
    item = service.signature(APPLIED[0]).result["signatures"][0]
    assert item["returns"] == "List<Integer>"
    assert [p["type"] for p in item["params"]] == ["String", "Function<? super String, ? extends List<Integer>>"]


@pytest.mark.parametrize("query, declared", [
    ("java.util.HashMap<java.lang.String, java.lang.Integer>#put(String, Integer)", "put(java.lang.Object, java.lang.Object)"),
    ("java.util.HashMap<java.lang.String, java.lang.Integer>#put(Object, Object)", "put(java.lang.Object, java.lang.Object)"),
    ("java.util.ArrayList<java.lang.String>#add(int, String)", "add(int, java.lang.Object)"),
])
def test_parameters_written_in_the_applied_types_terms_name_the_method(jdk, query, declared):
    """The parameter list as the applied type has it (what `members 'HashMap<String, Integer>'` prints) names the
    method, as its erasure does; a list the type does not have is not found."""
    service = jdk
    [item] = service.signature(query).result["signatures"]
    assert item["ref"].split("#", 1)[1] == declared
    wrong = query.replace("(String, Integer)", "(Integer, Integer)").replace("(int, String)", "(int, Integer)")
    if wrong != query:
        with pytest.raises(JdxError) as info:
            service.signature(wrong)
        assert info.value.exit_code == 1, info.value.message


BAD = ["java.util.Map<java.lang.String>", "java.lang.String<java.lang.Integer>", "java.util.List<int>",
       "java.util.List<com.nope.X>", "java.util.List<java.lang.String", "java.util.List<>"]


def _error(call) -> tuple[type, str, int]:
    with pytest.raises(JdxError) as info:
        call()
    return type(info.value), info.value.message, info.value.exit_code


@pytest.mark.parametrize("text", BAD)
def test_invalid_type_arguments_fail_as_members_fails(jdk, text):
    service = jdk
    want = _error(lambda: service.members(text))
    assert want[2] in (1, 3)
    assert _error(lambda: service.show(text)) == want
    assert _error(lambda: service.outline(text)) == want
    assert _error(lambda: service.hierarchy(text)) == want
    if text.endswith(">"):  # (an unbalanced one is no member reference: the ref grammar refuses it first)
        assert _error(lambda: service.signature(text + ("#get" if "List" in text else "#length"))) == want


def test_show_and_hierarchy_substitute_the_supertypes(jdk):
    service = jdk
    text = "java.util.concurrent.ConcurrentSkipListMap<java.lang.String, java.lang.Integer>"
    card = service.show(text).result
    assert card["extends"][0] == "java.util.AbstractMap<java.lang.String, java.lang.Integer>"
    assert "java.util.concurrent.ConcurrentNavigableMap<java.lang.String, java.lang.Integer>" in card["implements"]
    assert card["type_arguments"] == {"K": "java.lang.String", "V": "java.lang.Integer"}
    assert card["next"] == f"jdx members '{text}'"
    assert card["ref"] == "java.util.concurrent.ConcurrentSkipListMap"
    from jdx.engine.rel_hierarchy import HierarchyOptions

    up = service.hierarchy(text, HierarchyOptions(down=False)).result
    assert up["type_arguments"] == card["type_arguments"]
    seen = {e["type"]: e["as_seen"] for e in up["up"]}
    assert seen["java.util.AbstractMap"] == "java.util.AbstractMap<java.lang.String, java.lang.Integer>"
    plain = service.show("java.util.concurrent.ConcurrentSkipListMap").result
    assert plain["extends"][0] == "java.util.AbstractMap<K, V>" and "type_arguments" not in plain
