"""The symbol reference grammar of spec §6 (jdx.engine.refs)."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from jdx.engine.descriptors import fqn_to_internal, parse_method_descriptor
from jdx.engine.refs import SymbolRef, format_member, format_type, matches_params, parse_ref
from jdx.errors import RefSyntaxError, UsageError

GSON = "com.google.gson.Gson"


def fields(ref: SymbolRef) -> dict:
    """The interesting fields, defaults dropped, for compact table expectations."""
    out = {}
    for name, default in (("coord", None), ("member", None), ("params", None), ("varargs", False),
                          ("return_type", None), ("descriptor", None), ("is_glob", False),
                          ("is_package_glob", False), ("ambiguous_dot", False)):
        value = getattr(ref, name)
        if value != default:
            out[name] = value
    return {"type_name": ref.type_name, **out}


# Every row of the spec §6 "Accepted forms" table, in order.
SPEC_FORMS = [
    ("Gson", {"type_name": "Gson"}),
    (GSON, {"type_name": GSON, "ambiguous_dot": True}),
    (GSON + "$1", {"type_name": GSON + "$1", "ambiguous_dot": True}),
    ("java.util.Map.Entry", {"type_name": "java.util.Map.Entry", "ambiguous_dot": True}),
    ("com.google.code.gson:gson:2.14.0/" + GSON,
     {"type_name": GSON, "coord": "com.google.code.gson:gson:2.14.0", "ambiguous_dot": True}),
    ("Gson#toJson", {"type_name": "Gson", "member": "toJson"}),
    ("Gson#toJson(Object)", {"type_name": "Gson", "member": "toJson", "params": ("Object",)}),
    ("Gson#toJson(java.lang.Object)", {"type_name": "Gson", "member": "toJson", "params": ("java.lang.Object",)}),
    ("Gson#toJson(Object):String",
     {"type_name": "Gson", "member": "toJson", "params": ("Object",), "return_type": "String"}),
    ("Gson#toJson(Ljava/lang/Object;)Ljava/lang/String;",
     {"type_name": "Gson", "member": "toJson", "params": ("java.lang.Object",), "return_type": "java.lang.String",
      "descriptor": "(Ljava/lang/Object;)Ljava/lang/String;"}),
    ("Gson::toJson", {"type_name": "Gson", "member": "toJson"}),
    ("Gson#<init>(Excluder,FieldNamingStrategy)",
     {"type_name": "Gson", "member": "<init>", "params": ("Excluder", "FieldNamingStrategy")}),
    ("Gson#excluder", {"type_name": "Gson", "member": "excluder"}),
    ("com.google.gson.*", {"type_name": "com.google.gson.*", "is_glob": True, "is_package_glob": True}),
]

MORE_FORMS = [
    ("com.google.**", {"type_name": "com.google.**", "is_glob": True, "is_package_glob": True}),
    ("*Http*Client", {"type_name": "*Http*Client", "is_glob": True}),
    ("com.x.*Client#exec*", {"type_name": "com.x.*Client", "member": "exec*", "is_glob": True}),
    ("  Gson#toJson( Object ,  int )\t", {"type_name": "Gson", "member": "toJson", "params": ("Object", "int")}),
    ("Gson#toJson()", {"type_name": "Gson", "member": "toJson", "params": ()}),
    ("Gson#toJson(  )", {"type_name": "Gson", "member": "toJson", "params": ()}),
    ("Gson.toJson(Object)", {"type_name": "Gson", "member": "toJson", "params": ("Object",)}),
    (GSON + ".toJson(Object, java.lang.reflect.Type)",
     {"type_name": GSON, "member": "toJson", "params": ("Object", "java.lang.reflect.Type")}),
    ("java.util.Map.Entry::getKey", {"type_name": "java.util.Map.Entry", "member": "getKey"}),
    ("java.util.Map$Entry#getKey()", {"type_name": "java.util.Map$Entry", "member": "getKey", "params": ()}),
    ("java/util/Map$Entry#getKey", {"type_name": "java.util.Map$Entry", "member": "getKey"}),
    ("Foo#<clinit>", {"type_name": "Foo", "member": "<clinit>"}),
    ("Foo.<init>", {"type_name": "Foo", "member": "<init>"}),
    ("a.Foo.<init>(int)", {"type_name": "a.Foo", "member": "<init>", "params": ("int",)}),
    ("Arrays#asList(Object...)", {"type_name": "Arrays", "member": "asList", "params": ("Object[]",), "varargs": True}),
    ("F#m(int[][], String [], Map.Entry<K, V>[])",
     {"type_name": "F", "member": "m", "params": ("int[][]", "String[]", "Map.Entry[]")}),
    ("F#m(Map<String, List<Integer>>, java.util.List<? extends T>)",
     {"type_name": "F", "member": "m", "params": ("Map", "java.util.List")}),
    ("F#m(final String s, int... xs)", {"type_name": "F", "member": "m", "params": ("String", "int[]"), "varargs": True}),
    ("F#m(Ljava/lang/Object;I[J)",
     {"type_name": "F", "member": "m", "params": ("java.lang.Object", "int", "long[]")}),
    ("F#m(I)V", {"type_name": "F", "member": "m", "params": ("int",), "return_type": "void", "descriptor": "(I)V"}),
    ("F#m():java.util.List<String>[]", {"type_name": "F", "member": "m", "params": (), "return_type": "java.util.List[]"}),
    ("F#m():void", {"type_name": "F", "member": "m", "params": (), "return_type": "void"}),
    ("F#m(int) : long", {"type_name": "F", "member": "m", "params": ("int",), "return_type": "long"}),
    ("F#count:int", {"type_name": "F", "member": "count", "return_type": "int"}),
    ("a.F.count:int", {"type_name": "a.F", "member": "count", "return_type": "int"}),
    ("List<String>#size", {"type_name": "List", "member": "size"}),
    ("F#`my test`()", {"type_name": "F", "member": "my test", "params": ()}),
    ("F#`a``b`", {"type_name": "F", "member": "a`b"}),
    ("F#`x*`", {"type_name": "F", "member": "x*"}),
    ("a.F.`with space`", {"type_name": "a.F", "member": "with space"}),
    ("F#lambda$main$0", {"type_name": "F", "member": "lambda$main$0"}),
    ("com.x.package-info", {"type_name": "com.x.package-info", "ambiguous_dot": True}),
    ("org.ow2:asm:jar:9.7/org.objectweb.asm.ClassReader#accept",
     {"type_name": "org.objectweb.asm.ClassReader", "coord": "org.ow2:asm:jar:9.7", "member": "accept"}),
    ("g:a:1.0/Foo::bar(Ljava/lang/Object;)V",
     {"type_name": "Foo", "coord": "g:a:1.0", "member": "bar", "params": ("java.lang.Object",),
      "return_type": "void", "descriptor": "(Ljava/lang/Object;)V"}),
    ("Ñandú#año", {"type_name": "Ñandú", "member": "año"}),
    ("gson-2.11.0.jar/com.google.gson.Gson#<init>()",  # a jar by file name: a shadowed copy's printed form
     {"type_name": GSON, "coord": "gson-2.11.0.jar", "member": "<init>", "params": ()}),
    ("java/util/Map$Entry", {"type_name": "java.util.Map$Entry", "ambiguous_dot": True}),
]


@pytest.mark.parametrize("text, expected", SPEC_FORMS + MORE_FORMS, ids=[t for t, _ in SPEC_FORMS + MORE_FORMS])
def test_accepted_forms(text, expected):
    ref = parse_ref(text)
    assert fields(ref) == expected
    assert ref.raw == text


def test_dotted_member_alternatives():
    ref = parse_ref("a.b.C.foo")
    assert [(r.type_name, r.member) for r in ref.alternatives()] == [("a.b.C.foo", None), ("a.b.C", "foo")]
    assert parse_ref("Gson").alternatives() == (parse_ref("Gson"),)
    assert parse_ref("Gson#toJson").alternatives() == (parse_ref("Gson#toJson"),)
    assert len(parse_ref("com.x.*").alternatives()) == 1


def test_type_candidates_fewest_dollars_first():
    assert parse_ref("java.util.Map.Entry").type_candidates() == [
        "java.util.Map.Entry", "java.util.Map$Entry", "java.util$Map$Entry", "java$util$Map$Entry"]
    assert parse_ref("Gson").type_candidates() == ["Gson"]
    assert parse_ref("Gson$1").type_candidates() == ["Gson$1"]
    assert parse_ref("Map.Entry#getKey").type_candidates() == ["Map.Entry", "Map$Entry"]
    assert parse_ref("com.*").type_candidates() == ["com.*"]


def test_ref_properties():
    assert parse_ref("java.util.Map$Entry").simple_name == "Entry"
    assert parse_ref("com.google.**").package == "com.google"
    assert parse_ref("com.google.**").is_recursive_glob
    assert not parse_ref("com.google.*").is_recursive_glob
    assert parse_ref("Gson").package is None
    assert parse_ref("*").is_package_glob and parse_ref("*").package == ""


MALFORMED = [
    ("", "empty reference"),
    ("   \t ", "empty reference"),
    ("Gson#toJson(Object", "unbalanced '(' at column 12"),
    ("  Gson#toJson(Object", "unbalanced '(' at column 14"),
    ("Gson#toJson(Object))", "unexpected ')' after the parameter list: expected ':ReturnType' or the end at column 20"),
    ("Gson#toJson(Object)x", "unexpected 'x' after the parameter list"),
    ("Gson#toJson(Object(int))", "unexpected '(' inside parameter list"),
    ("Gson#", "missing member name at column 6"),
    ("Gson::", "missing member name"),
    ("#toJson", "missing type name at column 1"),
    ("::toJson", "missing type name"),
    ("toJson(Object)", "needs a type and member"),
    ("com..Gson", "empty name segment at column 5"),
    (".Gson", "empty name segment at column 1"),
    ("Gson.", "empty name segment"),
    ("Gson#toJson(,)", "empty parameter at column 13"),
    ("Gson#toJson(int,)", "empty parameter"),
    ("Gson#toJson(int...,int)", "'...' is only allowed on the last parameter"),
    ("Gson#toJson():int...", "'...' is only allowed in a parameter list"),
    ("Gson#toJson(void)", "'void' is not a valid parameter type"),
    ("Gson#toJson(int[)", "unbalanced '['"),
    ("Gson#toJson(int])", "unexpected ']'"),
    ("Gson#toJson(List<String)", "unbalanced '<'"),
    ("Gson#toJson(a b c)", "unexpected 'c'"),
    ("Gson#toJson(*)", "expected a type name"),
    ("Gson#toJson(Ljava/lang/Object;Q)", "malformed descriptor parameter list"),
    ("Gson#toJson(Ljava/lang/Object;)Q", "JVM descriptor"),
    ("Gson#toJson():", "empty return type"),
    ("Gson #toJson", "unexpected whitespace at column 5"),
    ("Gson#to Json", "unexpected ' ' after member name"),
    ("Gson<", "unbalanced '<' at column 5"),
    ("Gson>", "unbalanced '>' at column 5"),
    ("Gson#<foo>", "only <init> and <clinit>"),
    ("Gson#`unterminated", "unterminated '`'"),
    ("Gson#``", "empty quoted member name"),
    ("Gson:toJson", "needs a type and member"),
    ("com.google.*#foo", "a package glob cannot have a member"),
    ("g:a:v/", "missing type after coordinate"),
    ("lib-1.0.jar/", "missing type after jar name"),
    ("g:a:b:c:d:e/Foo", "coordinate must be group:artifact:version"),
    ("g::v/Foo", "unexpected '/'"),
    ("g:a b:v/Foo", "malformed coordinate segment"),
    ("Gson[]", "unexpected '['"),
    ("Gson#toJson(Object)#x", "unexpected '#x' after the parameter list: expected ':ReturnType' or the end at column 20"),
    ("Gs\x00on", "unexpected U+0000 at column 3"),
    ("Gson#to\u200bJson", "U+200B"),
    ("x" * 10_001, "the limit is 10000"),
    (".".join(["a"] * 300), "the limit is 256"),
]


@pytest.mark.parametrize("text, message", MALFORMED, ids=[repr(t)[:40] for t, _ in MALFORMED])
def test_malformed_refs(text, message):
    with pytest.raises(RefSyntaxError) as info:
        parse_ref(text)
    assert message in str(info.value)
    assert isinstance(info.value, UsageError)
    assert info.value.code == "BAD_REFERENCE" and info.value.exit_code == 3


def test_non_string_is_a_ref_syntax_error():
    with pytest.raises(RefSyntaxError):
        parse_ref(None)  # type: ignore[arg-type]


def test_format_type():
    assert format_type("java/util/Map$Entry") == "java.util.Map$Entry"
    assert format_type("Foo") == "Foo"


@pytest.mark.parametrize("args, kwargs, text", [
    (("com/google/gson/Gson", "toJson", "(Ljava/lang/Object;)Ljava/lang/String;"), {},
     "com.google.gson.Gson#toJson(java.lang.Object)"),
    (("com/google/gson/Gson", "toJson", "(Ljava/lang/Object;Ljava/lang/reflect/Type;)Ljava/lang/String;"), {},
     "com.google.gson.Gson#toJson(java.lang.Object, java.lang.reflect.Type)"),
    (("com/google/gson/Gson", "toJson", "(Ljava/lang/Object;)Ljava/lang/String;"), {"with_return": True},
     "com.google.gson.Gson#toJson(java.lang.Object):java.lang.String"),
    (("com/google/gson/Gson", "excluder", "Lcom/google/gson/internal/Excluder;"), {"is_field": True},
     "com.google.gson.Gson#excluder"),
    (("com/google/gson/Gson", "excluder", "Lcom/google/gson/internal/Excluder;"), {"with_return": True},
     "com.google.gson.Gson#excluder:com.google.gson.internal.Excluder"),
    (("com/google/gson/Gson", "<init>", "()V"), {}, "com.google.gson.Gson#<init>()"),
    (("java/util/Arrays", "asList", "([Ljava/lang/Object;)Ljava/util/List;"), {"varargs": True},
     "java.util.Arrays#asList(java.lang.Object...)"),
    (("java/util/Arrays", "x", "([[I)V"), {"varargs": True}, "java.util.Arrays#x(int[]...)"),
    (("java/util/Map$Entry", "getKey", "()Ljava/lang/Object;"), {}, "java.util.Map$Entry#getKey()"),
    (("a/K", "my test", "()V"), {}, "a.K#`my test`()"),
    (("a/K", "a`b*", "I"), {}, "a.K#`a``b*`"),
])
def test_format_member(args, kwargs, text):
    assert format_member(*args, **kwargs) == text


def test_format_member_rejects_bad_descriptors():
    for desc in ("(I", "Q", ""):
        with pytest.raises(ValueError):
            format_member("a/B", "m", desc)
    with pytest.raises(ValueError):
        format_member("a/B", "m", "()V", is_field=True)


ENTRY = "Ljava/util/Map$Entry;"


@pytest.mark.parametrize("ref, desc, expected", [
    ("G#m(Object)", "(Ljava/lang/Object;)V", True),
    ("G#m(java.lang.Object)", "(Ljava/lang/Object;)V", True),
    ("G#m(lang.Object)", "(Ljava/lang/Object;)V", False),
    ("G#m(javax.lang.Object)", "(Ljava/lang/Object;)V", False),
    ("G#m(String)", "(Ljava/lang/Object;)V", False),
    ("G#m(Entry)", f"({ENTRY})V", True),
    ("G#m(Map.Entry)", f"({ENTRY})V", True),
    ("G#m(Map$Entry)", f"({ENTRY})V", True),
    ("G#m(java.util.Map.Entry)", f"({ENTRY})V", True),
    ("G#m(java.util.Map$Entry)", f"({ENTRY})V", True),
    ("G#m(util.Map.Entry)", f"({ENTRY})V", False),
    ("G#m(Map)", f"({ENTRY})V", False),
    ("G#m(Other.Entry)", f"({ENTRY})V", False),
    ("G#m(Map.Entry)", "(Lx/Entry;)V", False),
    ("G#m(int)", "(I)V", True),
    ("G#m(long)", "(I)V", False),
    ("G#m(Integer)", "(I)V", False),
    ("G#m(int)", "(Ljava/lang/Integer;)V", False),
    ("G#m(int[])", "([I)V", True),
    ("G#m(int...)", "([I)V", True),
    ("G#m(int)", "([I)V", False),
    ("G#m(int[][])", "([I)V", False),
    ("G#m(Object...)", "([Ljava/lang/Object;)V", True),
    ("G#m(List<String>)", "(Ljava/util/List;)V", True),
    ("G#m()", "()V", True),
    ("G#m()", "(I)V", False),
    ("G#m(int, int)", "(I)V", False),
    ("G#m", "(IJ)V", True),
    ("G#m():void", "()V", True),
    ("G#m():int", "()V", False),
    ("G#m():String", "()Ljava/lang/String;", True),
    ("G#m():java.lang.Object", "()Ljava/lang/String;", False),
    ("G#m(I)V", "(I)V", True),
    ("G#m(I)V", "(I)I", False),
    ("G#f", "I", True),
    ("G#f:int", "I", True),
    ("G#f:long", "I", False),
    ("G#f()", "I", False),
    ("G#m(int)", "(I", False),
])
def test_matches_params(ref, desc, expected):
    assert matches_params(parse_ref(ref), desc, False) is expected


def test_matches_params_with_generic_signature():
    put = parse_ref("Map#put(K, V)")
    desc, sig = "(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;", "(TK;TV;)TV;"
    assert not matches_params(put, desc)
    assert matches_params(put, desc, signature=sig)
    assert matches_params(parse_ref("Map#put(Object, V):V"), desc, signature=sig)
    assert not matches_params(put, desc, signature="(TA;TB;)TB;")
    assert matches_params(parse_ref("A#toArray(T[])"), "([Ljava/lang/Object;)V", signature="<T:Ljava/lang/Object;>([TT;)V")
    assert matches_params(parse_ref("Map#put(Object, Object)"), desc, signature="garbage")


# ---- properties

segment = st.text(alphabet="abcxyzABCXYZ0189_é", min_size=1, max_size=5)
prims = st.sampled_from("BCDFIJSZ")


def _owners(min_packages: int):
    package = st.lists(st.text(alphabet="abcxyz_", min_size=1, max_size=4), min_size=min_packages, max_size=3)
    nest = st.lists(st.one_of(segment, st.integers(1, 9).map(str)), max_size=2)
    return st.builds(lambda pkg, top, n: "/".join(pkg + ["$".join([top] + n)]), package, segment, nest)


def _method_descs(owner_names):
    field = st.builds(lambda dims, e: "[" * dims + e, st.integers(0, 3),
                      st.one_of(prims, owner_names.map(lambda n: f"L{n};")))
    return st.builds(lambda ps, r: "(" + "".join(ps) + ")" + r,
                     st.lists(field, max_size=4), st.one_of(st.just("V"), field))


owners = _owners(0)
field_descs = st.builds(lambda dims, e: "[" * dims + e, st.integers(0, 3),
                        st.one_of(prims, owners.map(lambda n: f"L{n};")))
method_descs = _method_descs(owners)
# in the default package a qualified name is indistinguishable from a simple one
packaged_method_descs = _method_descs(_owners(1))
# JVM member names: anything but . ; [ / (and < > outside <init>/<clinit>)
member_names = st.one_of(
    st.sampled_from(["<init>", "<clinit>", "toJson", "lambda$main$0", "access$000"]),
    st.text(st.characters(blacklist_characters=".;[/<>", blacklist_categories=("Cs",)), min_size=1, max_size=8),
)


@settings(max_examples=100)
@given(owners, member_names, method_descs, st.booleans(), st.booleans())
def test_format_member_round_trips_through_parse(owner, name, desc, varargs, with_return):
    text = format_member(owner, name, desc, varargs=varargs, with_return=with_return)
    ref = parse_ref(text)
    assert ref.type_name == format_type(owner)
    assert fqn_to_internal(ref.type_candidates()[0]) == owner
    assert ref.member == name
    assert not ref.is_glob and ref.coord is None
    assert len(ref.params) == len(parse_method_descriptor(desc)[0])
    assert matches_params(ref, desc, varargs)
    params = parse_method_descriptor(desc)[0]
    assert ref.varargs == (varargs and bool(params) and params[-1].startswith("["))


@given(owners, member_names, field_descs, st.booleans())
def test_format_field_round_trips_through_parse(owner, name, desc, with_return):
    ref = parse_ref(format_member(owner, name, desc, is_field=True, with_return=with_return))
    assert (ref.type_name, ref.member, ref.params) == (format_type(owner), name, None)
    assert matches_params(ref, desc)


@given(owners, packaged_method_descs, packaged_method_descs)
def test_distinct_descriptors_do_not_both_match_a_qualified_ref(owner, desc, other):
    ref = parse_ref(format_member(owner, "m", desc, with_return=True))
    assert matches_params(ref, other) == (other == desc)


@given(owners)
def test_format_type_round_trips_through_parse(owner):
    ref = parse_ref(format_type(owner))
    assert ref.type_name == format_type(owner)
    assert ref.member is None
    assert fqn_to_internal(ref.type_name) == owner
    assert ref.alternatives()[0] is ref


def _check_total(text: str) -> None:
    try:
        ref = parse_ref(text)
    except RefSyntaxError as e:
        assert e.message
        return
    ref.alternatives(), ref.type_candidates(), ref.simple_name
    again = parse_ref(str(ref))  # the printed form means the same thing
    assert fields(again) == fields(ref)


@pytest.mark.soak  # 150 generated texts (~2 s)
@settings(max_examples=150)
@given(st.text())
def test_parse_ref_only_raises_ref_syntax_error(text):
    _check_total(text)


@settings(max_examples=300)
@given(st.text(alphabet="aZ1$_.#:/()<>[],;* `?\t-LIV", max_size=40))
def test_parse_ref_on_grammar_alphabet(text):
    _check_total(text)


@given(st.text(min_size=1, max_size=20), st.sampled_from(["", "#", "::", ".", "(", ")", "<", "`", ":"]))
@example(junk=")0\x1b", sep="(")  # text after a parameter list holding a control character: a TypeError once
def test_parse_ref_on_prefixed_junk(junk, sep):
    _check_total("com.x.Foo" + sep + junk)
    _check_total(junk + sep + "Foo")


type_texts = st.lists(segment, min_size=1, max_size=4).map(".".join)
param_texts = st.sampled_from(["int", "long[]", "String", "java.lang.String[][]", "Map.Entry<K, V>",
                               "java.util.List<? extends T>", " Object ", "final int x", "byte []"])
written_refs = st.builds(
    lambda coord, type_, sep, member, params, varargs, ret: (
        coord + type_ + sep + member
        + ("" if params is None else "(" + ", ".join(params + (["Object..."] if varargs else [])) + ")")
        + ("" if ret is None or params is None else ":" + ret)),
    st.sampled_from(["", "g:a:1.0/"]), type_texts, st.sampled_from(["#", "::", "."]),
    st.one_of(segment, st.sampled_from(["<init>", "`a b`", "f*"])),
    st.one_of(st.none(), st.lists(param_texts, max_size=3)), st.booleans(),
    st.one_of(st.none(), st.sampled_from(["void", "int[]", "java.util.List<String>"])),
)


@given(written_refs)
def test_generated_refs_parse_and_print_canonically(text):
    ref = parse_ref(text)
    assert ref.member is not None or text.endswith(ref.type_name.rpartition(".")[2])
    _check_total(text)
