"""The `d1` byte packing and the `d2` string table of Kotlin's `@Metadata` (spec §12.1).

`d1` strings hold the protobuf bytes either one byte per char (UTF-8 mode, marked by a leading NUL)
or 7 bits per char (the older 8-to-7 packing, each char shifted by one). The message starts with a
length-delimited `StringTableTypes` that turns `d2` (plus predefined names) into the indexed strings the
protobuf messages point at (JvmNameResolverBase in the Kotlin repository, Apache-2.0).
"""

from __future__ import annotations

from jdx.kotlin.wire import (MetadataError, corrupt, first_bytes, first_int, parse_message, read_varint,
                             repeated_bytes, repeated_ints)

MAX_D1_CHARS = 16 << 20  # the largest stdlib class carries ~60 KB; anything near this is hostile
MAX_STRINGS = 1 << 20
MAX_RANGE_TOTAL = 1 << 20

PREDEFINED_STRINGS = (
    "kotlin/Any", "kotlin/Nothing", "kotlin/Unit", "kotlin/Throwable", "kotlin/Number",
    "kotlin/Byte", "kotlin/Double", "kotlin/Float", "kotlin/Int",
    "kotlin/Long", "kotlin/Short", "kotlin/Boolean", "kotlin/Char",
    "kotlin/CharSequence", "kotlin/String", "kotlin/Comparable", "kotlin/Enum",
    "kotlin/Array", "kotlin/ByteArray", "kotlin/DoubleArray", "kotlin/FloatArray", "kotlin/IntArray",
    "kotlin/LongArray", "kotlin/ShortArray", "kotlin/BooleanArray", "kotlin/CharArray",
    "kotlin/Cloneable", "kotlin/Annotation",
    "kotlin/collections/Iterable", "kotlin/collections/MutableIterable",
    "kotlin/collections/Collection", "kotlin/collections/MutableCollection",
    "kotlin/collections/List", "kotlin/collections/MutableList",
    "kotlin/collections/Set", "kotlin/collections/MutableSet",
    "kotlin/collections/Map", "kotlin/collections/MutableMap",
    "kotlin/collections/Map.Entry", "kotlin/collections/MutableMap.MutableEntry",
    "kotlin/collections/Iterator", "kotlin/collections/MutableIterator",
    "kotlin/collections/ListIterator", "kotlin/collections/MutableListIterator",
)


def _check_size(d1: list) -> None:
    if not isinstance(d1, list) or not all(isinstance(s, str) for s in d1):
        raise corrupt("d1 is not an array of strings")
    if sum(len(s) for s in d1) > MAX_D1_CHARS:
        raise MetadataError("KOTLIN_METADATA_TOO_LARGE", f"d1 holds more than {MAX_D1_CHARS} chars")


def unpack_d1(d1: list[str]) -> bytes:
    """The protobuf bytes packed into `d1` (BitEncoding.decodeBytes)."""
    _check_size(d1)
    if d1 and d1[0]:
        marker = d1[0][0]
        if marker == "\x00":
            text = d1[0][1:] + "".join(d1[1:])
            try:
                return text.encode("latin-1")
            except UnicodeEncodeError:
                raise corrupt("d1 in UTF-8 mode holds a char above U+00FF") from None
        if marker == "\uffff":  # Kotlin 1.0.x wrote this marker before the 8-to-7 data
            d1 = [d1[0][1:], *d1[1:]]
    text = "".join(d1)
    try:
        raw = text.encode("latin-1")
    except UnicodeEncodeError:
        raise corrupt("8-to-7 packed d1 holds a char above U+00FF") from None
    return _decode_7to8(bytes(((b + 0x7F) & 0x7F) for b in raw))


def _decode_7to8(data: bytes) -> bytes:
    """Every 8 input bytes carry 7 bits each, least significant first: 56 bits = 7 output bytes."""
    n = len(data)
    out_len = 7 * n // 8
    full = n // 8
    out = bytearray()
    for g in range(full):
        chunk = data[8 * g:8 * g + 8]
        v = 0
        for i in range(7, -1, -1):
            v = (v << 7) | chunk[i]
        out += v.to_bytes(7, "little")
    rest = data[8 * full:]
    if rest:
        v = 0
        for i in range(len(rest) - 1, -1, -1):
            v = (v << 7) | rest[i]
        out += v.to_bytes(8, "little")[:out_len - len(out)]
    return bytes(out[:out_len])


class NameResolver:
    """Indexed strings of one metadata payload (JvmNameResolverBase.getString)."""

    __slots__ = ("d2", "records", "local_names", "_cache")

    def __init__(self, types: dict[int, list], d2: list[str]):
        if len(d2) > MAX_STRINGS:
            raise MetadataError("KOTLIN_METADATA_TOO_LARGE", f"d2 holds {len(d2)} strings")
        self.d2 = d2
        expanded: list[dict[int, list]] = []
        for raw in repeated_bytes(types, 1):
            record = parse_message(raw)
            count = first_int(record, 1, 1)
            if count < 0 or len(expanded) + count > MAX_RANGE_TOTAL:
                raise MetadataError("KOTLIN_METADATA_TOO_LARGE", "string table records repeat past the limit")
            expanded.extend([record] * count)
        self.records = expanded
        self.local_names = frozenset(repeated_ints(types, 5))
        self._cache: dict[int, str] = {}

    def string(self, index: int) -> str:
        got = self._cache.get(index)
        if got is not None:
            return got
        if index < 0 or index >= len(self.records) and index >= len(self.d2):
            raise corrupt(f"string index {index} outside the table")
        record = self.records[index] if index < len(self.records) else {}
        if 6 in record:
            s = first_bytes(record, 6).decode("utf-8", "replace")
        else:
            pre = first_int(record, 2)
            if pre is not None and 0 <= pre < len(PREDEFINED_STRINGS):
                s = PREDEFINED_STRINGS[pre]
            elif index < len(self.d2):
                s = self.d2[index]
            else:
                raise corrupt(f"string index {index} has no string")
        sub = repeated_ints(record, 4) if 4 in record else ()
        if len(sub) >= 2 and 0 <= sub[0] <= sub[1] <= len(s):
            s = s[sub[0]:sub[1]]
        rep = repeated_ints(record, 5) if 5 in record else ()
        if len(rep) >= 2:
            try:
                s = s.replace(chr(rep[0]), chr(rep[1]))
            except (ValueError, OverflowError):
                raise corrupt("replace_char outside Unicode") from None
        op = first_int(record, 3, 0)
        if op == 1:
            s = s.replace("$", ".")
        elif op == 2:
            if len(s) >= 2:
                s = s[1:-1]
            s = s.replace("$", ".")
        self._cache[index] = s
        return s

    def is_local(self, index: int) -> bool:
        return index in self.local_names


def read_payload(d1: list[str], d2: list) -> tuple[NameResolver, bytes, int]:
    """(names, bytes, offset of the Class/Package/Function message after the string table)."""
    if not isinstance(d2, list) or not all(isinstance(s, str) for s in d2):
        raise corrupt("d2 is not an array of strings")
    data = unpack_d1(d1)
    length, pos = read_varint(data, 0, len(data))
    if pos + length > len(data):
        raise corrupt("string table runs past the end of d1")
    types = parse_message(data, pos, pos + length)
    return NameResolver(types, d2), data, pos + length
