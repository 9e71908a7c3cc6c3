"""Descriptors, names and generic signatures (jdx.engine.descriptors)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jdx.engine.descriptors import (
    ArrayTypeSig,
    BaseType,
    ClassSignature,
    ClassTypeSig,
    InnerClassSig,
    MethodSignature,
    TypeArg,
    TypeParam,
    TypeVar,
    descriptor_to_java,
    erase_generics,
    erased_method_descriptor,
    erasure,
    format_signature,
    fqn_to_internal,
    internal_to_fqn,
    java_to_descriptor,
    name_segments,
    nested_simple_name,
    package_of,
    parse_class_signature,
    parse_field_signature,
    parse_method_descriptor,
    parse_method_signature,
    parse_type_signature,
    render_type,
    render_type_params,
    simple_name_of,
    split_field_descriptor,
    substitute,
    type_arg_env,
    type_param_bounds,
)

OBJ = ClassTypeSig("java/lang/Object")


# ---- names

@pytest.mark.parametrize("internal, fqn, package, simple, nested", [
    ("java/util/Map$Entry", "java.util.Map$Entry", "java.util", "Entry", "Map.Entry"),
    ("com/google/gson/Gson$1", "com.google.gson.Gson$1", "com.google.gson", "1", "Gson$1"),
    ("Foo", "Foo", "", "Foo", "Foo"),
    ("com/sun/proxy/$Proxy12", "com.sun.proxy.$Proxy12", "com.sun.proxy", "$Proxy12", "$Proxy12"),
    ("a/Foo$$Lambda", "a.Foo$$Lambda", "a", "Foo$$Lambda", "Foo$$Lambda"),
    ("a/Outer$Mid$Inner", "a.Outer$Mid$Inner", "a", "Inner", "Outer.Mid.Inner"),
    ("scala/Predef$", "scala.Predef$", "scala", "Predef$", "Predef$"),
])
def test_name_spellings(internal, fqn, package, simple, nested):
    assert internal_to_fqn(internal) == fqn
    assert fqn_to_internal(fqn) == internal
    assert package_of(internal) == package
    assert simple_name_of(internal) == simple
    assert nested_simple_name(internal) == nested


@pytest.mark.parametrize("name, segments", [
    ("java.util.Map$Entry", ["java", "util", "Map", "Entry"]),
    ("java/util/Map$Entry", ["java", "util", "Map", "Entry"]),
    ("Map.Entry", ["Map", "Entry"]),
    ("a.$Proxy1", ["a", "$Proxy1"]),
])
def test_name_segments(name, segments):
    assert name_segments(name) == segments


# ---- descriptors

@pytest.mark.parametrize("desc, params, ret", [
    ("()V", [], "V"),
    ("(ILjava/lang/String;[[J)Ljava/lang/Object;", ["I", "Ljava/lang/String;", "[[J"], "Ljava/lang/Object;"),
    ("([Ljava/util/Map$Entry;Z)[I", ["[Ljava/util/Map$Entry;", "Z"], "[I"),
])
def test_parse_method_descriptor(desc, params, ret):
    assert parse_method_descriptor(desc) == (params, ret)


@pytest.mark.parametrize("desc", [
    "", "V", "(", "()", "(V)V", "()[V", "(I", "(L;)V", "(Ljava/lang/String)V", "(Q)V", "()VV",
    "(Ljava//String;)V", "(Ljava/util/List<Ljava/lang/String;>;)V", "(" + "[" * 256 + "I)V",
    "()Ljava.lang.String;",
])
def test_parse_method_descriptor_rejects(desc):
    with pytest.raises(ValueError):
        parse_method_descriptor(desc)


def test_split_field_descriptor():
    assert split_field_descriptor("[[I") == (2, "I")
    assert split_field_descriptor("Ljava/lang/String;") == (0, "Ljava/lang/String;")
    for bad in ("", "V", "[V", "II", "Ljava/lang/String", "[", "(I)V"):
        with pytest.raises(ValueError):
            split_field_descriptor(bad)


@pytest.mark.parametrize("desc, qualified, simple", [
    ("I", "int", "int"),
    ("V", "void", "void"),
    ("[Ljava/lang/String;", "java.lang.String[]", "String[]"),
    ("Ljava/util/Map$Entry;", "java.util.Map$Entry", "Map.Entry"),
    ("[[Z", "boolean[][]", "boolean[][]"),
    ("LFoo;", "Foo", "Foo"),
])
def test_descriptor_to_java(desc, qualified, simple):
    assert descriptor_to_java(desc) == qualified
    assert descriptor_to_java(desc, qualified=False) == simple


@pytest.mark.parametrize("name, desc", [
    ("int", "I"), ("void", "V"), ("int...", "[I"), ("int[][]", "[[I"),
    ("java.lang.String[]", "[Ljava/lang/String;"), ("java.lang.String ...", "[Ljava/lang/String;"),
    ("java.util.Map$Entry", "Ljava/util/Map$Entry;"), ("java.util.List<java.lang.String>", "Ljava/util/List;"),
    ("java/lang/Object", "Ljava/lang/Object;"), (" long [ ] ", "[J"),
])
def test_java_to_descriptor(name, desc):
    assert java_to_descriptor(name) == desc


@pytest.mark.parametrize("name", ["", "void[]", "a..b", "int]", "List<", "a b", "[]", "java.lang.", "f(x)"])
def test_java_to_descriptor_rejects(name):
    with pytest.raises(ValueError):
        java_to_descriptor(name)


def test_erase_generics():
    assert erase_generics("Map<K, List<V>>.Entry<K>") == "Map.Entry"
    for bad in ("A<", "A>", "A<<B>"):
        with pytest.raises(ValueError):
            erase_generics(bad)


# ---- real JDK signatures

HASHMAP = ("<K:Ljava/lang/Object;V:Ljava/lang/Object;>Ljava/util/AbstractMap<TK;TV;>;"
           "Ljava/util/Map<TK;TV;>;Ljava/lang/Cloneable;Ljava/io/Serializable;")
TO_MAP = ("<T:Ljava/lang/Object;K:Ljava/lang/Object;U:Ljava/lang/Object;>"
          "(Ljava/util/function/Function<-TT;+TK;>;Ljava/util/function/Function<-TT;+TU;>;)"
          "Ljava/util/stream/Collector<TT;*Ljava/util/Map<TK;TU;>;>;")
ENUM = ("<E:Ljava/lang/Enum<TE;>;>Ljava/lang/Object;Ljava/lang/constant/Constable;"
        "Ljava/lang/Comparable<TE;>;Ljava/io/Serializable;")
COLLECTIONS_MAX = "<T:Ljava/lang/Object;:Ljava/lang/Comparable<-TT;>;>(Ljava/util/Collection<+TT;>;)TT;"


def test_hashmap_class_signature():
    sig = parse_class_signature(HASHMAP)
    assert [p.name for p in sig.type_params] == ["K", "V"]
    assert sig.type_params[0].class_bound == OBJ
    assert render_type(sig.superclass) == "java.util.AbstractMap<K, V>"
    assert [render_type(i, False) for i in sig.interfaces] == ["Map<K, V>", "Cloneable", "Serializable"]
    assert render_type_params(sig.type_params) == "<K, V>"
    assert format_signature(sig) == HASHMAP


def test_collectors_to_map_method_signature():
    sig = parse_method_signature(TO_MAP)
    assert [p.name for p in sig.type_params] == ["T", "K", "U"]
    assert render_type(sig.params[0]) == "java.util.function.Function<? super T, ? extends K>"
    assert render_type(sig.return_type) == "java.util.stream.Collector<T, ?, java.util.Map<K, U>>"
    assert render_type(sig.return_type, False) == "Collector<T, ?, Map<K, U>>"
    assert erased_method_descriptor(sig) == (
        "(Ljava/util/function/Function;Ljava/util/function/Function;)Ljava/util/stream/Collector;")
    assert format_signature(sig) == TO_MAP


def test_enum_self_bound():
    sig = parse_class_signature(ENUM)
    e = sig.type_params[0]
    assert e.class_bound == ClassTypeSig("java/lang/Enum", (TypeArg("", TypeVar("E")),))
    assert render_type_params(sig.type_params, False) == "<E extends Enum<E>>"
    assert erasure(TypeVar("E"), type_param_bounds(sig.type_params)) == "Ljava/lang/Enum;"


def test_interface_only_bound_erases_to_it_and_renders_intersection():
    sig = parse_method_signature(COLLECTIONS_MAX)
    t = sig.type_params[0]
    assert t.class_bound == OBJ and len(t.interface_bounds) == 1
    assert render_type_params(sig.type_params, False) == "<T extends Object & Comparable<? super T>>"
    assert erased_method_descriptor(sig) == "(Ljava/util/Collection;)Ljava/lang/Object;"
    sort = parse_method_signature("<T::Ljava/lang/Comparable<-TT;>;>(Ljava/util/List<TT;>;)V")
    assert sort.type_params[0].class_bound is None
    assert erased_method_descriptor(sort) == "(Ljava/util/List;)V"
    assert render_type_params(sort.type_params, False) == "<T extends Comparable<? super T>>"


def test_inner_class_of_generic_outer():
    sig = parse_field_signature("Lcom/x/Outer<TT;>.Inner<TU;>;")
    assert sig == ClassTypeSig("com/x/Outer", (TypeArg("", TypeVar("T")),),
                               (InnerClassSig("Inner", (TypeArg("", TypeVar("U")),)),))
    assert sig.binary_name == "com/x/Outer$Inner"
    assert render_type(sig) == "com.x.Outer<T>.Inner<U>"
    assert erasure(sig) == "Lcom/x/Outer$Inner;"
    assert render_type(substitute(sig, {"T": ClassTypeSig("java/lang/String")}), False) == "Outer<String>.Inner<U>"


def test_method_signature_with_throws_and_arrays():
    text = "<X:Ljava/lang/Throwable;>([[ILjava/util/function/Supplier<+TX;>;)[TX;^TX;^Ljava/io/IOException;"
    sig = parse_method_signature(text)
    assert sig.params[0] == ArrayTypeSig(ArrayTypeSig(BaseType("I")))
    assert render_type(sig.return_type) == "X[]"
    assert [render_type(t) for t in sig.throws] == ["X", "java.io.IOException"]
    assert erased_method_descriptor(sig) == "([[ILjava/util/function/Supplier;)[Ljava/lang/Throwable;"
    assert format_signature(sig) == text


def test_plain_descriptor_parses_as_method_signature():
    sig = parse_method_signature("(ILjava/lang/String;)V")
    assert sig == MethodSignature((), (BaseType("I"), ClassTypeSig("java/lang/String")), BaseType("V"))
    assert parse_type_signature("V") == BaseType("V")
    assert parse_type_signature("[J") == ArrayTypeSig(BaseType("J"))


def test_substitute_string_list():
    """class StringList extends ArrayList<String>: add(E) becomes add(String)."""
    array_list = parse_class_signature(
        "<E:Ljava/lang/Object;>Ljava/util/AbstractList<TE;>;Ljava/util/List<TE;>;")
    string_list = parse_class_signature("Ljava/util/ArrayList<Ljava/lang/String;>;")
    env = type_arg_env(array_list.type_params, string_list.superclass)
    assert env == {"E": ClassTypeSig("java/lang/String")}
    add = substitute(parse_method_signature("(TE;)Z"), env)
    assert render_type(add.params[0]) == "java.lang.String"
    # a method's own type variable shadows the class's
    to_array = substitute(parse_method_signature("<E:Ljava/lang/Object;>([TE;)[TE;"), env)
    assert render_type(to_array.return_type) == "E[]"
    assert render_type(substitute(array_list.superclass, env), False) == "AbstractList<String>"


def test_type_arg_env_wildcards_and_raw():
    params = (TypeParam("A", OBJ), TypeParam("B", OBJ), TypeParam("C", OBJ))
    applied = parse_field_signature("Lx/Y<+Ljava/lang/Number;*-Ljava/lang/Integer;>;")
    assert type_arg_env(params, applied) == {"A": ClassTypeSig("java/lang/Number"), "B": OBJ, "C": OBJ}
    assert type_arg_env(params, ClassTypeSig("x/Y")) == {}


def test_erasure_cycle_and_unknown_fall_back_to_object():
    assert erasure(TypeVar("T"), {"T": TypeVar("U"), "U": TypeVar("T")}) == "Ljava/lang/Object;"
    assert erasure(ArrayTypeSig(TypeVar("Q"))) == "[Ljava/lang/Object;"


@pytest.mark.parametrize("text", [
    "", "<>Ljava/lang/Object;", "<T>Ljava/lang/Object;", "Ljava/lang/Object", "Ljava/util/List<>;",
    "Ljava/util/List<TT>;", "T;", "TT", "<T:Ljava/lang/Object;", "Lx;junk", "Ljava/util/List<Ljava/lang/String;;",
    "L" + "Lx<" * 200, "L" + "a<L" * 70 + "b;" + ">;" * 70, "[" * 300 + "I", "Lx<+>;", "Lx.;", "Lx<I>;",
])
def test_malformed_class_signatures_raise_value_error(text):
    with pytest.raises(ValueError):
        parse_class_signature(text)


@pytest.mark.parametrize("text", ["", "(", "()", "(V)V", "()VV", "()V^", "()V^I", "<T:()V", "(I)V junk"])
def test_malformed_method_signatures_raise_value_error(text):
    with pytest.raises(ValueError):
        parse_method_signature(text)


# ---- properties

idents = st.text(alphabet="abcxyzABCXYZ019_é", min_size=1, max_size=5)
packages = st.lists(st.text(alphabet="abcxyz_", min_size=1, max_size=4), max_size=3)
nested = st.lists(st.one_of(idents, st.integers(1, 30).map(str)), max_size=2)
internal_names = st.builds(
    lambda pkg, top, nest: "/".join(pkg + ["$".join([top] + nest)]), packages, idents, nested)
prim_codes = st.sampled_from("BCDFIJSZ")
field_descs = st.builds(
    lambda dims, elem: "[" * dims + elem,
    st.integers(0, 3), st.one_of(prim_codes, internal_names.map(lambda n: f"L{n};")))
method_descs = st.builds(
    lambda ps, r: "(" + "".join(ps) + ")" + r, st.lists(field_descs, max_size=4), st.one_of(st.just("V"), field_descs))


@given(field_descs)
def test_descriptor_java_round_trip(desc):
    assert java_to_descriptor(descriptor_to_java(desc)) == desc
    assert parse_type_signature(desc) is not None
    assert erasure(parse_type_signature(desc)) == desc


@given(method_descs)
def test_method_descriptor_round_trip(desc):
    params, ret = parse_method_descriptor(desc)
    assert "(" + "".join(params) + ")" + ret == desc
    assert erased_method_descriptor(parse_method_signature(desc)) == desc


base_types = prim_codes.map(BaseType)
type_vars = idents.map(TypeVar)


def _type_args(kids):
    return st.one_of(st.just(TypeArg("*", None)), st.builds(TypeArg, st.sampled_from(["", "+", "-"]), kids))


ref_types = st.recursive(
    st.one_of(type_vars, internal_names.map(ClassTypeSig)),
    lambda kids: st.one_of(
        st.builds(ArrayTypeSig, st.one_of(kids, base_types)),
        st.builds(
            ClassTypeSig, internal_names,
            st.lists(_type_args(kids), max_size=3).map(tuple),
            st.lists(st.builds(InnerClassSig, idents, st.lists(_type_args(kids), max_size=2).map(tuple)),
                     max_size=2).map(tuple),
        ),
    ),
    max_leaves=12,
)
java_types = st.one_of(ref_types, base_types)
# javac always writes at least one bound; an empty one is ambiguous with a following `T...` param
type_params = st.one_of(
    st.builds(TypeParam, idents, ref_types, st.lists(ref_types, max_size=2).map(tuple)),
    st.builds(TypeParam, idents, st.none(), st.lists(ref_types, min_size=1, max_size=2).map(tuple)),
)
tparam_lists = st.lists(type_params, max_size=3).map(tuple)
class_types = ref_types.filter(lambda t: isinstance(t, ClassTypeSig))
method_sigs = st.builds(
    MethodSignature, tparam_lists, st.lists(java_types, max_size=4).map(tuple),
    st.one_of(java_types, st.just(BaseType("V"))),
    st.lists(st.one_of(class_types, type_vars), max_size=2).map(tuple))
class_sigs = st.builds(ClassSignature, tparam_lists, class_types, st.lists(class_types, max_size=3).map(tuple))


@settings(max_examples=30)
@given(method_sigs)
def test_method_signature_round_trip(sig):
    text = format_signature(sig)
    assert parse_method_signature(text) == sig
    for p in sig.params:
        render_type(p, True), render_type(p, False)
    render_type_params(sig.type_params)
    assert substitute(sig, {}) == sig
    assert substitute(sig, {"__none__": OBJ}) == sig
    identity = {p.name: TypeVar(p.name) for p in sig.type_params}
    assert substitute(sig, identity) == sig
    erased = erased_method_descriptor(sig)
    assert parse_method_descriptor(erased)


@settings(max_examples=30)
@given(class_sigs)
def test_class_signature_round_trip(sig):
    assert parse_class_signature(format_signature(sig)) == sig
    assert substitute(sig, {}) == sig
    render_type(sig.superclass, False)


def _type_vars(sig) -> set[str]:
    if isinstance(sig, TypeVar):
        return {sig.name}
    if isinstance(sig, ArrayTypeSig):
        return _type_vars(sig.component)
    if isinstance(sig, ClassTypeSig):
        args = list(sig.args) + [a for i in sig.inner for a in i.args]
        return set().union(*(_type_vars(a.type) for a in args if a.type is not None))
    return set()


@given(ref_types, st.dictionaries(idents, ref_types, max_size=3))
def test_substitute_replaces_exactly_the_bound_variables(sig, env):
    out = substitute(sig, env)
    assert parse_field_signature(format_signature(out)) == out
    used = _type_vars(sig) & env.keys()
    introduced = set().union(*(_type_vars(env[k]) for k in used))
    assert _type_vars(out) == (_type_vars(sig) - env.keys()) | introduced


@given(st.text(max_size=60))
def test_signature_parsers_only_raise_value_error(text):
    for parse in (parse_class_signature, parse_method_signature, parse_field_signature,
                  parse_type_signature, parse_method_descriptor, split_field_descriptor, java_to_descriptor):
        try:
            parse(text)
        except ValueError:
            pass


@given(st.text(alphabet="LT;<>[]()+-*:^./IVZ$ax", max_size=40))
def test_signature_parsers_on_signature_alphabet(text):
    for parse in (parse_class_signature, parse_method_signature, parse_field_signature, parse_type_signature):
        try:
            result = parse(text)
        except ValueError:
            continue
        assert format_signature(result) == text
