"""show / outline / signature and member-reference resolution, on the JDK and on compiled fixtures."""

from __future__ import annotations

import pytest

from jdx.engine import cards
from jdx.engine.descriptors import descriptor_to_java
from jdx.engine.member_resolve import collect, lookup, resolve_members
from jdx.engine.members import MemberOptions, list_members
from jdx.engine.resolve import resolve_type
from tests.service import JdxService, Options
from jdx.errors import AmbiguousError, NotFoundError, UsageError
from tests.fixtures.build import fixtures_jar

JDK_TYPES = ["java.util.HashMap", "java.util.ArrayList", "java.lang.String", "java.lang.Thread",
             "java.util.Optional", "java.util.Map$Entry", "java.util.concurrent.ConcurrentHashMap",
             "java.util.stream.Stream", "java.lang.Integer", "java.util.Collections", "java.lang.StringBuilder"]
FIXTURE_TYPES = ["fx.Box", "fx.Dog", "fx.Animal", "fx.StringList", "fx.Outer", "fx.Outer$Inner", "fx.Outer$1",
                 "fx.Config", "fx.Level", "fx.Point", "fx.Shape", "fx.Square", "fx.NoDebug", "fx.WithParams"]


@pytest.fixture(scope="module")
def store(jdx_home):
    """JDK plus fixtures.jar: one graph for every test here."""
    service = JdxService(Options(jars=[str(fixtures_jar(jdx_home))], cache_dir=str(jdx_home / "cache")))
    yield service.store()
    service.close()


def show(store, text):
    return cards.show_type(store, text, None)[0]


def outline(store, text, **kw):
    return cards.outline_type(store, text, cards.OutlineOptions(**kw))[0]


def sigs(store, text):
    return cards.member_signatures(store, text, None)[0]["signatures"]


# --- show ------------------------------------------------------------------------------------------

def test_show_hashmap_is_the_class_card(store):
    r, warnings, provenance = cards.show_type(store, "java.util.HashMap", None)
    assert r["declaration"] == "public class HashMap<K, V>"
    assert r["extends"] == ["java.util.AbstractMap<K, V>", "java.lang.Object"]
    assert r["implements"] == ["java.util.Map<K, V>", "java.lang.Cloneable", "java.io.Serializable"]
    assert r["artifact"] == "java.base" and r["language"] == "java" and r["source_file"] == "HashMap.java"
    assert "java.util.HashMap$Node" in {n["ref"] for n in r["nested"]}
    assert r["outer"] is None and r["next"] == "jdx members java.util.HashMap"
    assert r["counts"]["public_methods"] >= 20 and r["counts"]["constructors"] == 4
    assert warnings == [] and provenance[0]["file"] == "java/util/HashMap.java"


@pytest.mark.parametrize("name", JDK_TYPES[:6] + FIXTURE_TYPES)
def test_show_counts_equal_the_outline(store, name):
    """Two views of the declared members must agree: the card's counts and the outline's rows."""
    counts = show(store, name)["counts"]
    rows = outline(store, name)["members"]
    by_kind = {k: [m for m in rows if m["kind"] == k and not m.get("nested_type")] for k in ("method", "field",
                                                                                             "constructor")}
    assert counts["methods"] == len(by_kind["method"])
    assert counts["public_methods"] == sum(1 for m in by_kind["method"] if m["access"] == "public")
    assert counts["fields"] == len(by_kind["field"])
    assert counts["constructors"] == len(by_kind["constructor"])
    assert counts["synthetic"] == outline(store, name)["hidden_synthetic"]


def test_show_interfaces_extend_their_superinterfaces(store):
    r = show(store, "java.util.List")
    assert r["kind"] == "interface" and r["implements"] == []
    assert r["extends"][0].startswith("java.util.") and r["extends"][0].endswith("<E>")
    assert r["declaration"] == "public interface List<E>"


def test_show_nested_outer_and_anonymous(store):
    entry = show(store, "java.util.Map.Entry")
    assert entry["ref"] == "java.util.Map$Entry" and entry["outer"] == {"ref": "java.util.Map", "method": None}
    assert entry["declaration"] == "public static interface Map.Entry<K, V>"
    assert entry["next"] == "jdx members 'java.util.Map$Entry'"  # `$` quoted for the shell
    outer = show(store, "fx.Outer")
    assert [(n["name"], n["role"]) for n in outer["nested"]] == [
        ("Outer.Hidden", "member"), ("Outer.Inner", "member"), ("Outer.Nested", "member"),
        ("Outer$1Counter", "local"), ("Outer$1", "anonymous")]
    anon = show(store, "fx.Outer$1")
    assert anon["declaration"] == "anonymous class Outer$1"
    assert anon["outer"] == {"ref": "fx.Outer", "method": "fx.Outer#task()"}
    assert anon["implements"] == ["java.lang.Runnable"]
    assert show(store, "fx.Outer$1Counter")["declaration"] == "local class Counter"


def test_show_generic_supertype_chain_is_substituted(store):
    r = show(store, "fx.StringList")
    assert r["extends"][:2] == ["java.util.ArrayList<java.lang.String>", "java.util.AbstractList<java.lang.String>"]
    assert r["extends"][-1] == "java.lang.Object"
    assert show(store, "fx.Level")["extends"] == ["java.lang.Enum<fx.Level>", "java.lang.Object"]


def test_show_kinds_modifiers_annotations(store):
    assert show(store, "fx.Level")["declaration"] == "public enum Level"
    assert show(store, "fx.Point")["declaration"] == "public record Point(int x, int y)"
    assert show(store, "fx.Animal")["modifiers"] == ["public", "abstract"]
    config = show(store, "fx.Config")
    assert config["declaration"] == "public @interface Config"
    assert any(a.startswith("@java.lang.annotation.Retention(") for a in config["annotations"])
    legacy = show(store, "fx.Legacy")
    assert legacy["deprecated"] and legacy["annotations"] == ['@java.lang.Deprecated(since="1.5")']
    kt = show(store, "fx.KtThing")
    assert kt["language"] == "kotlin" and kt["kotlin"] == {"kind": "class", "metadata_version": "1.9.0"}


def test_show_unresolved_supertype_is_a_warning(jdx_home):
    """A supertype the workspace lacks is a warning (its members are not listed), except java.lang.Object: absent
    only from a workspace left without the JDK (`--no-jdk`), where the warning came with every answer."""
    service = JdxService(Options(jars=[str(fixtures_jar(jdx_home))], jdk=False, cache_dir=str(jdx_home / "cache")))
    try:
        dog, point = service.show("fx.Dog"), service.show("fx.Point")
        hierarchy = service.hierarchy("fx.Point")
    finally:
        service.close()
    assert dog.result["extends"] == ["fx.Animal", "java.lang.Object"] and dog.warnings == []
    assert [(w.code, w.message) for w in point.warnings] == [
        ("UNRESOLVED_SUPERTYPE", "java.lang.Record is not in the workspace: inherited members may be incomplete"),
        ("UNRESOLVED_SUPERTYPE", "java.lang.Comparable is not in the workspace: inherited members may be incomplete")]
    assert "java.lang.Object" not in " ".join(w.message for w in hierarchy.warnings)


def test_show_misses_and_member_refs(store):
    with pytest.raises(NotFoundError) as exc:
        show(store, "java.util.HashMpa")
    assert "java.util.HashMap" in [c["ref"] for c in exc.value.candidates]
    with pytest.raises(UsageError):
        show(store, "java.util.HashMap#put")


# --- outline ---------------------------------------------------------------------------------------

def test_outline_has_parameter_names_and_hides_synthetic(store):
    rows = {m["ref"]: m for m in outline(store, "java.util.HashMap")["members"]}
    put = rows["java.util.HashMap#put(java.lang.Object, java.lang.Object)"]
    assert put["text"] == "public V put(K key, V value)" and put["param_names_from"] == "LocalVariableTable"
    assert put["line"] and put["line"] > 0
    assert not any(m["synthetic"] for m in rows.values())
    dog = outline(store, "fx.Dog", include_synthetic=True)
    bridges = [m["text"] for m in dog["members"] if "bridge" in m["synthetic"]]
    assert sorted(bridges) == ["public Animal self()", "public Object food()"]
    assert outline(store, "fx.Dog")["hidden_synthetic"] == 2


def test_outline_parameter_name_sources(store):
    nodebug = {m["name"]: m for m in outline(store, "fx.NoDebug")["members"]}
    assert nodebug["add"]["text"] == "public int add(int arg0, int arg1)"
    assert nodebug["add"]["param_names_from"] == "none"
    assert nodebug["join"]["text"] == "public static String join(String arg0, Object... arg1)"
    withp = {m["name"]: m for m in outline(store, "fx.WithParams")["members"]}
    assert withp["lookup"]["text"] == "public <K, V> V lookup(Map<K, V> table, K key)"
    assert withp["lookup"]["param_names_from"] == "MethodParameters"
    level = {m["name"]: m for m in outline(store, "fx.Level")["members"]}
    # the enum's synthetic name and ordinal have no LocalVariableTable entry; the real parameter keeps its name
    assert level["<init>"]["text"] == "private Level(int weight)"
    assert level["<init>"]["param_names_from"] == "LocalVariableTable"


def test_outline_filters(store):
    def names(**kw):
        return [m["name"] for m in outline(store, "fx.Box", **kw)["members"]]

    assert names(kind="field") == ["LIMIT", "NAME", "value", "hits"]  # declaration order (Box.java)
    assert names(kind="field", static=True) == ["LIMIT", "NAME"]
    assert names(kind="ctor") == ["<init>", "<init>"]
    assert names(kind="method", access=("public",), grep="^s") == ["size"]
    assert names(access=("private",)) == ["hits"]
    assert [m["text"] for m in outline(store, "fx.Outer", kind="type")["members"]] == [
        "private static Hidden", "public Inner", "public static Nested<T>"]
    shape = {m["name"]: m["text"] for m in outline(store, "fx.Shape")["members"]}
    assert shape == {"area": "public double area()", "describe": "public default String describe()",
                     "unit": "public static Shape unit()"}
    config = {m["name"]: m["default"] for m in outline(store, "fx.Config")["members"]}
    assert config == {"level": "fx.Level.LOW", "name": None, "retries": "3", "tags": '{"a", "b"}',
                      "type": "java.lang.Object.class"}
    for bad in (dict(kind="nope"), dict(access=("friends",)), dict(grep="(")):
        with pytest.raises(UsageError):
            outline(store, "fx.Box", **bad)


# --- member references ------------------------------------------------------------------------------

def refs(store, text, **kw):
    return [m["ref"] for m in resolve_members(store, text, **kw)[1]]


def test_every_reference_form_names_the_same_member(store):
    want = ["java.util.HashMap#put(java.lang.Object, java.lang.Object)"]
    for text in ("java.util.HashMap#put", "java.util.HashMap::put", "java.util.HashMap.put", "HashMap#put",
                 "java.util.HashMap#put(Object, Object)", "java.util.HashMap#put(K, V)",
                 "java.util.HashMap#put(java.lang.Object,java.lang.Object):java.lang.Object",
                 "java.util.HashMap#put(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;"):
        assert refs(store, text) == want, text
    assert refs(store, "java.util.Map.Entry.getKey") == ["java.util.Map$Entry#getKey()"]
    assert refs(store, "java.util.HashMap#HashMap(int)") == refs(store, "java.util.HashMap#<init>(int)") == [
        "java.util.HashMap#<init>(int)"]
    assert refs(store, "fx.Box#LIMIT") == ["fx.Box#LIMIT"]
    assert refs(store, "fx.Box#size(int, String...)") == refs(store, "fx.Box#size(int, String[])") == [
        "fx.Box#size(int, java.lang.String...)"]


def test_overloads_inheritance_and_generic_substitution(store):
    assert refs(store, "java.util.HashMap#remove") == ["java.util.HashMap#remove(java.lang.Object)",
                                                       "java.util.HashMap#remove(java.lang.Object, java.lang.Object)"]
    assert refs(store, "java.util.ArrayList#stream") == ["java.util.Collection#stream()"]
    assert refs(store, "fx.StringList#add") == ["fx.StringList#add(java.lang.String)",
                                               "java.util.ArrayList#add(int, java.lang.Object)"]
    assert refs(store, "fx.StringList#add(int, String)") == ["java.util.ArrayList#add(int, java.lang.Object)"]
    [item] = sigs(store, "fx.StringList#add(int, String)")
    assert item["text"] == "public void add(int index, String element)" and item["declaring"] == "java.util.ArrayList"
    assert refs(store, "fx.Square#describe") == ["fx.Shape#describe()"]
    assert refs(store, "java.lang.Integer#<clinit>") == ["java.lang.Integer#<clinit>()"]


def test_bridges_answer_only_when_named(store):
    assert refs(store, "fx.Dog#self") == ["fx.Dog#self():fx.Dog"]  # `:Ret` because a bridge twin exists
    assert refs(store, "fx.Dog#self():fx.Animal") == ["fx.Dog#self():fx.Animal"]
    assert refs(store, "fx.Dog#food") == ["fx.Dog#food():java.lang.String"]  # Animal's protected food() is hidden
    assert refs(store, "fx.Box#compareTo") == ["fx.Box#compareTo(fx.Box)"]
    assert refs(store, "fx.Box#compareTo(Object)") == ["fx.Box#compareTo(java.lang.Object)"]
    # StringBuilder overrides every public append covariantly; only the package-private one is inherited
    inherited = [r for r in refs(store, "java.lang.StringBuilder#append") if r.startswith("java.lang.Abstract")]
    assert inherited == ["java.lang.AbstractStringBuilder#append(java.lang.AbstractStringBuilder)"]


def test_require_one_raises_ambiguous_with_every_candidate(store):
    with pytest.raises(AmbiguousError) as exc:
        resolve_members(store, "java.util.HashMap#remove", require_one=True)
    assert exc.value.exit_code == 2
    assert [c["ref"] for c in exc.value.candidates] == refs(store, "java.util.HashMap#remove")
    with pytest.raises(AmbiguousError) as exc:
        resolve_members(store, "List#size")  # the type part is ambiguous: candidates are re-runnable member refs
    assert "java.util.List#size" in [c["ref"] for c in exc.value.candidates]


def test_misses_suggest_close_members(store):
    cases = {
        "java.util.HashMap#pt": "java.util.HashMap#put(java.lang.Object, java.lang.Object)",
        "java.util.HashMap#PUT": "java.util.HashMap#put(java.lang.Object, java.lang.Object)",
        "java.util.HashMap#put(int)": "java.util.HashMap#put(java.lang.Object, java.lang.Object)",
        "java.util.HashMap#containsKy": "java.util.HashMap#containsKey(java.lang.Object)",
        "fx.Square#unit": "fx.Shape#unit()",
        "java.util.HashMpa#put": "java.util.HashMap#put",
    }
    for text, expected in cases.items():
        with pytest.raises(NotFoundError) as exc:
            resolve_members(store, text)
        got = [c["ref"] for c in exc.value.candidates]
        assert expected in got and len(got) <= 5, (text, got)
        assert exc.value.exit_code == 1
    with pytest.raises(NotFoundError) as exc:
        resolve_members(store, "fx.Square#unit")
    assert exc.value.message == "not found: fx.Square#unit (fx.Shape#unit() is a static interface method, not inherited)"


def test_types_and_globs_are_usage_errors(store):
    for text in ("java.util.HashMap", "java.util.Map.Entry", "java.util.*", "java.util.HashMap#put*"):
        with pytest.raises(UsageError):
            resolve_members(store, text)


@pytest.mark.parametrize("name", JDK_TYPES + FIXTURE_TYPES)
def test_every_member_ref_resolves_back_to_itself(store, name):
    """Round trip: each ref `members` prints finds its member, and the canonical ref lookup prints for it
    names exactly that member (one match, never ambiguous), bridges included."""
    listed = list_members(store, name, MemberOptions(access=("all",), include_synthetic=True))["members"]
    assert listed
    for m in listed:
        ref = m["ref"]
        matches = [e for e in lookup(store, ref).members
                   if (e["row"]["name"], e["row"]["descriptor"]) == (m["name"], m["descriptor"])]
        if not matches and m["kind"] != "field":  # a bridge answers to its ref only with its return type
            ret = m["descriptor"][m["descriptor"].index(")") + 1:]
            matches = [e for e in lookup(store, f"{ref}:{descriptor_to_java(ret)}").members
                       if (e["row"]["name"], e["row"]["descriptor"]) == (m["name"], m["descriptor"])]
        assert len(matches) == 1, m["ref"]
        canonical = matches[0]["ref"]
        [again] = lookup(store, canonical, require_one=True).members
        assert (again["row"]["name"], again["row"]["descriptor"], again["ref"]) == \
            (m["name"], m["descriptor"], canonical)


def test_a_field_beside_a_same_named_method_gets_its_type(store):
    # a bare name is the accessor: code outside the record cannot use its private field x
    assert refs(store, "fx.Point#x") == ["fx.Point#x()"]
    assert refs(store, "fx.Point#x:int") == ["fx.Point#x:int"]
    assert refs(store, "fx.Point#x()") == ["fx.Point#x()"]
    assert refs(store, "fx.Point#x():int") == ["fx.Point#x()"]


@pytest.mark.parametrize("name", JDK_TYPES + FIXTURE_TYPES)
def test_member_collection_agrees_with_members(store, name):
    """Member lookup sees what `members --access all` lists, except supertype methods a covariant bridge
    overrides (which `members` keeps: see Dog#food, StringBuilder#append)."""
    listed = {(m["declaring"], m["name"], m["descriptor"])
              for m in list_members(store, name, MemberOptions(access=("all",)))["members"]}
    target = resolve_type(store, name)
    found = collect(store, target)
    mine = {(e["declaring"].replace("/", "."), e["row"]["name"], e["row"]["descriptor"]) for e in found.visible
            if e["declaring"] != "java/lang/Object" and e["row"]["name"] != "<clinit>"}
    listed = {x for x in listed if x[0] != "java.lang.Object"}
    assert mine <= listed
    for declaring, mname, desc in listed - mine:  # each one is overridden by a real same-named method below
        assert any(e["row"]["name"] == mname for e in found.visible if e["declaring"] != declaring.replace(".", "/")), \
            (declaring, mname, desc)


# --- signature ---------------------------------------------------------------------------------------

def test_signature_carries_names_generics_throws_annotations_defaults(store):
    [size] = sigs(store, "fx.Box#size")
    assert size["text"] == "public synchronized int size(int limit, String... labels)"
    assert size["params"] == [{"name": "limit", "type": "int"}, {"name": "labels", "type": "String..."}]
    assert size["annotations"] == ['@fx.Config(name="size", retries=1)'] and size["returns"] == "int"
    [get] = sigs(store, "fx.Box#get")
    assert get["throws"] == ["IOException"] and get["returns"] == "T"
    [mapped] = sigs(store, "fx.Box#map")
    assert mapped["text"] == "public <R extends Comparable<? super R>> Box<R> map(Function<? super T, ? extends R> fn)"
    [tags] = sigs(store, "fx.Config#tags")
    assert tags["default"] == '{"a", "b"}' and tags["params"] == [] and tags["param_names_from"] is None
    [stop] = sigs(store, "java.lang.Thread#stop")
    assert stop["deprecated"] and stop["annotations"][0].startswith("@java.lang.Deprecated(")
    [limit] = sigs(store, "fx.Box#LIMIT")
    assert (limit["kind"], limit["type"], limit["constant"]) == ("field", "int", "10")
    [ctor] = sigs(store, "fx.Point#<init>")
    assert ctor["text"] == "public Point(int x, int y)" and ctor["param_names_from"] == "MethodParameters"
    [nodebug] = sigs(store, "fx.NoDebug#add")
    assert nodebug["param_names_from"] == "none" and [p["name"] for p in nodebug["params"]] == ["arg0", "arg1"]


def test_signature_provenance_points_at_source_lines(store):
    result, warnings, provenance = cards.member_signatures(store, "java.util.HashMap#put", None)
    assert warnings == [] and result["next"] == "jdx outline java.util.HashMap"
    [p] = provenance
    assert p["symbol"] == "java.util.HashMap#put(java.lang.Object, java.lang.Object)"
    assert p["file"] == "java/util/HashMap.java" and p["origin"] == "bytecode" and p["lines"][0] > 0


@pytest.mark.parametrize("name", JDK_TYPES + FIXTURE_TYPES)
def test_every_outline_ref_names_exactly_its_row(store, name):
    """Outline refs are canonical: each one resolves to one member, that row (bridges and clashing fields too).
    The exception is javac's access bridge (StringBuilder#length() re-exporting AbstractStringBuilder's): it has
    the very name and descriptor of the inherited method it stands for, and the ref names that method."""
    rows = [m for m in outline(store, name, include_synthetic=True)["members"] if not m.get("nested_type")]
    for m in rows:
        [again] = lookup(store, m["ref"], require_one=True).members
        if again["ref"] != m["ref"] and "bridge" in m["synthetic"]:
            assert again["ref"].split("#")[1] == m["ref"].split("#")[1]
            assert again["declaring"] != m["ref"].split("#")[0].replace(".", "/")  # a supertype's method
            continue
        assert (again["ref"], again["row"]["name"], again["kind"]) == (m["ref"], m["name"], m["kind"])
