"""The pure-Python `@Metadata` decoder (spec §12.1): byte packing, string table, versions, and bad input as a
named warning, never a crash (fuzzed with Hypothesis)."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from jdx.kotlin import MetadataError, decode_metadata
from jdx.kotlin.render import render_class_header, render_function, render_property
from jdx.kotlin.strings import MAX_D1_CHARS, PREDEFINED_STRINGS, unpack_d1
from jdx.kotlin.wire import int32, parse_message, read_varint
from tests.kotlin.corpus import fixtures_jar, metadata_rows, stdlib_jar


def encode_8to7(data: bytes) -> str:
    """The compiler's older packing (BitEncoding.encode8to7 + addModuloByte(1)), written here from its
    description to check the decoder's inverse."""
    bits = int.from_bytes(data, "little")
    n = (len(data) * 8 + 6) // 7
    out = [(bits >> (7 * i)) & 0x7F for i in range(n)]
    return "".join(chr((b + 1) & 0x7F) for b in out)


@given(st.binary(max_size=300))
def test_8to7_packing_round_trips(data):
    packed = encode_8to7(data)
    assume(not packed.startswith("\x00"))  # the format's UTF-8 marker: a first 7-bit group of 0x7F is ambiguous
    assert unpack_d1([packed]) == data


@given(st.binary(max_size=300))
def test_utf8_mode_packing_round_trips(data):
    text = "\x00" + data.decode("latin-1")
    assert unpack_d1([text[:7], text[7:]]) == data


def test_varints_and_negative_int32():
    assert read_varint(b"\xac\x02", 0, 2) == (300, 2)
    assert int32(read_varint(b"\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 0, 10)[0]) == -1
    with pytest.raises(MetadataError):
        read_varint(b"\xff\xff", 0, 2)
    with pytest.raises(MetadataError):
        parse_message(b"\x0a\x05ab")  # a 5-byte field with 2 bytes left


def test_predefined_strings_cover_the_kotlin_builtins():
    assert len(PREDEFINED_STRINGS) == 44
    assert PREDEFINED_STRINGS[0] == "kotlin/Any" and PREDEFINED_STRINGS[-1] == "kotlin/collections/MutableListIterator"


def _stdlib_rows():
    return dict(metadata_rows(stdlib_jar("2.0.21")))

@pytest.mark.soak  # slow: the soak runs it (.ci/run)

def test_stdlib_pair_and_list_of_render_as_kotlin():
    rows = _stdlib_rows()
    pair = decode_metadata(rows["kotlin/Pair"])
    assert pair.kind == "class" and pair.version[0] in (1, 2)
    assert render_class_header(pair.klass) == \
        "public data class Pair<out A, out B>(val first: A, val second: B) : Serializable"
    part = decode_metadata(rows["kotlin/collections/CollectionsKt__CollectionsKt"])
    assert part.kind == "multi-file class part" and part.facade == "kotlin/collections/CollectionsKt"
    shown = {render_function(f) for f in part.package.functions}
    assert "public fun <T> listOf(vararg elements: T): List<T>" in shown
    assert "public val <T> List<T>.lastIndex: Int" in {render_property(p) for p in part.package.properties}
    facade = decode_metadata(rows["kotlin/collections/CollectionsKt"])
    assert facade.kind == "multi-file class facade" and "kotlin/collections/CollectionsKt__CollectionsKt" in \
        facade.facade_parts


@pytest.mark.soak  # every stdlib class (~3 s): the soak runs it whole; the default tier decodes the fixtures
def test_every_stdlib_class_decodes():
    for name, raw in _stdlib_rows().items():
        meta = decode_metadata(raw)
        assert meta.kind in ("class", "file facade", "synthetic class", "multi-file class facade",
                             "multi-file class part"), name


def test_fixture_constructs():
    rows = dict(metadata_rows(fixtures_jar()))
    meta = {n: decode_metadata(r) for n, r in rows.items()}
    assert meta["kx/FunctionsKt"].version[:2] == (1, 1)  # kotlinc 1.3 writes metadata 1.1
    fns = {f.name: f for f in meta["kx/FunctionsKt"].package.functions}
    assert fns["fetch"].suspend
    assert fns["fetch"].jvm[1].endswith("Lkotlin/coroutines/Continuation;)Ljava/lang/Object;")
    assert fns["fetch"].return_type.nullable and [p.declares_default for p in fns["fetch"].parameters] == [False, True]
    assert fns["castOrNull"].inline and fns["castOrNull"].type_parameters[0].reified
    assert fns["castOrNull"].receiver.nullable and fns["dot"].infix and fns["plus"].operator
    assert fns["gcd"].tailrec and fns["nativeHash"].external
    assert [(p.crossinline, p.noinline) for p in fns["run2"].parameters] == [(True, False), (False, True)]
    assert render_function(fns["higher"]) == \
        "public fun <T> higher(block: suspend Point.(Int) -> T, plain: ((String) -> Unit)?): T?"
    part = meta["kx/ShapeUtils__ShapesKt"].package
    sides = next(f for f in part.functions if f.name == "sides")
    assert sides.jvm == ("sumOfSides", "([Lkx/Shape;)I")  # @JvmName
    props = {p.name: p for p in part.properties}
    assert props["MAX_SIDES"].const and props["counter"].var and props["counter"].setter.visibility == "private"
    assert [a.name for a in part.type_aliases] == ["ShapeList", "Transform"]
    canvas = meta["kx/Canvas"].klass
    assert canvas.companion == "Factory" and meta["kx/Canvas$Factory"].klass.kind == "companion object"
    hidden = next(p for p in canvas.properties if p.name == "hidden")
    assert hidden.visibility == "internal" and hidden.jvm_getter == ("getHidden$main", "()Z")
    registry = meta["kx/Registry"].klass
    names = next(p for p in registry.properties if p.name == "names")
    assert names.jvm_field == ("names", "Ljava/util/List;") and names.jvm_getter is None  # @JvmField
    assert next(p for p in registry.properties if p.name == "last").lateinit
    assert meta["kx/Shape"].klass.modality == "sealed" and meta["kx/Point"].klass.data
    assert meta["kx/Color"].klass.enum_entries == ["RED", "GREEN"]
    assert [(t.name, t.variance) for t in meta["kx/Source"].klass.type_parameters] == [("T", "out")]
    assert meta["kx/Circle$Arc"].klass.inner


# --- bad input: a named warning, never another exception


@pytest.mark.parametrize("raw, code", [
    ({"k": 1, "mv": [3, 0, 0], "d1": ["\x00"], "d2": []}, "KOTLIN_METADATA_VERSION"),
    ({"k": 1, "mv": "1.9", "d1": ["\x00"], "d2": []}, "KOTLIN_METADATA_VERSION"),
    ({"k": 1, "mv": [], "d1": ["\x00"], "d2": []}, "KOTLIN_METADATA_VERSION"),
    ({"k": 9, "mv": [1, 9, 0]}, "KOTLIN_METADATA_KIND"),
    ({"k": 1, "mv": [1, 9, 0]}, "KOTLIN_METADATA_CORRUPT"),  # a class without its data
    ({"k": 1, "mv": [1, 9, 0], "d1": ["\x00\x05\x0a"], "d2": []}, "KOTLIN_METADATA_CORRUPT"),
    ({"k": 1, "mv": [1, 9, 0], "d1": ["\x00\u0100"], "d2": []}, "KOTLIN_METADATA_CORRUPT"),
    ({"k": 1, "mv": [1, 9, 0], "d1": "not a list", "d2": []}, "KOTLIN_METADATA_CORRUPT"),
    ({"k": 1, "mv": [1, 9, 0], "d1": ["\x00" + "a" * (MAX_D1_CHARS + 1)], "d2": []}, "KOTLIN_METADATA_TOO_LARGE"),
    ("{not json", "KOTLIN_METADATA_CORRUPT"),
    ("[1, 2]", "KOTLIN_METADATA_CORRUPT"),
])
def test_bad_metadata_is_a_named_warning(raw, code):
    with pytest.raises(MetadataError) as info:
        decode_metadata(raw)
    assert info.value.code == code


def test_huge_string_table_is_refused():
    with pytest.raises(MetadataError) as info:
        decode_metadata({"k": 2, "mv": [1, 9, 0], "d1": ["\x00\x00"], "d2": [""] * (1 << 20 | 1)})
    assert info.value.code == "KOTLIN_METADATA_TOO_LARGE"


def test_metadata_on_a_java_class_with_garbage():
    """A Java class may carry a hand-written @kotlin.Metadata (tests/fixtures/kotlin): no crash."""
    with pytest.raises(MetadataError):
        decode_metadata({"k": 1, "mv": [1, 9, 0], "d1": ["hello"], "d2": ["x"]})


def _decodes_or_names(raw) -> None:
    try:
        decode_metadata(raw)
    except MetadataError as e:
        assert e.code.startswith("KOTLIN_METADATA_")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(1, 5), st.binary(max_size=400), st.lists(st.text(max_size=12), max_size=20), st.booleans())
def test_random_payloads_never_crash(k, payload, d2, utf8):
    d1 = "\x00" + payload.decode("latin-1") if utf8 else encode_8to7(payload)
    _decodes_or_names({"k": k, "mv": [1, 9, 0], "d1": [d1], "d2": d2})


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mutated_real_payloads_never_crash(data):
    rows = sorted(metadata_rows(fixtures_jar()))
    name, raw = data.draw(st.sampled_from(rows))
    meta = json.loads(raw)
    d1 = "".join(meta.get("d1") or ["\x00"])
    if len(d1) > 1:
        cut = data.draw(st.integers(1, len(d1) - 1))
        op = data.draw(st.sampled_from(["truncate", "flip", "insert"]))
        byte = chr(data.draw(st.integers(0, 255)))
        d1 = d1[:cut] if op == "truncate" else d1[:cut] + byte + d1[cut + (op == "flip"):]
    meta["d1"] = [d1]
    if data.draw(st.booleans()) and meta.get("d2"):
        meta["d2"] = meta["d2"][: data.draw(st.integers(0, len(meta["d2"])))]
    _decodes_or_names(meta)


def test_decoder_package_imports_nothing_else_of_jdx():
    """A leaf package: loaders (shards) and the engine (views) both use it (DESIGN.md §3)."""
    import ast
    from pathlib import Path

    import jdx.kotlin

    for path in Path(jdx.kotlin.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("jdx."):
                assert node.module.startswith("jdx.kotlin"), f"{path.name} imports {node.module}"
