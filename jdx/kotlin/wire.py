"""A bounded protobuf wire-format reader for Kotlin's `@Metadata` payload (spec §12.1).

Only what `metadata.proto` / `jvm_metadata.proto` use: varints (int32, enums, bools), length-delimited
fields (messages, strings, packed int32 lists), and skipping of fixed32/fixed64 values. A message is read
into {field number: [raw values]}; sub-messages are read on demand by the decoder. Every read is checked
against the buffer's end and the nesting depth is capped, so truncated or hostile bytes raise
`MetadataError`, never IndexError or RecursionError.
"""

from __future__ import annotations

MAX_DEPTH = 64  # Kotlin types nest (arguments, bounds, outer types); real metadata stays far below this


class MetadataError(ValueError):
    """Unreadable metadata; `code` is the named warning (spec §16)."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


def corrupt(message: str) -> MetadataError:
    return MetadataError("KOTLIN_METADATA_CORRUPT", message)


def read_varint(buf: bytes, pos: int, end: int) -> tuple[int, int]:
    """(value, next position); a value is at most 10 bytes."""
    result = 0
    shift = 0
    while True:
        if pos >= end:
            raise corrupt("truncated varint")
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if b < 0x80:
            return result, pos
        shift += 7
        if shift >= 70:
            raise corrupt("varint longer than 10 bytes")


def int32(v: int) -> int:
    """A varint as protobuf's int32 (negative values are sign-extended to 64 bits on the wire)."""
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v & 0x80000000 else v


def parse_message(buf: bytes, pos: int = 0, end: int | None = None) -> dict[int, list]:
    """Fields of one message: varints as int, length-delimited values as bytes, fixed values skipped."""
    if end is None:
        end = len(buf)
    fields: dict[int, list] = {}
    while pos < end:
        b = buf[pos]
        if b < 0x80:
            key = b
            pos += 1
        else:
            key, pos = read_varint(buf, pos, end)
        number, wire = key >> 3, key & 7
        if number == 0:
            raise corrupt("field number 0")
        if wire == 0:
            b = buf[pos] if pos < end else 0x80
            if b < 0x80 and pos < end:
                value = b
                pos += 1
            else:
                value, pos = read_varint(buf, pos, end)
        elif wire == 2:
            b = buf[pos] if pos < end else 0x80
            if b < 0x80 and pos < end:
                length = b
                pos += 1
            else:
                length, pos = read_varint(buf, pos, end)
            if pos + length > end:
                raise corrupt(f"field {number}: {length} bytes past the end")
            value = buf[pos:pos + length]
            pos += length
        elif wire == 5:
            pos += 4
            if pos > end:
                raise corrupt("truncated fixed32")
            continue
        elif wire == 1:
            pos += 8
            if pos > end:
                raise corrupt("truncated fixed64")
            continue
        else:
            raise corrupt(f"field {number}: unsupported wire type {wire}")
        got = fields.get(number)
        if got is None:
            fields[number] = [value]
        else:
            got.append(value)
    return fields


def first_int(fields: dict[int, list], number: int, default: int | None = None) -> int | None:
    """The last value of an optional int32 field (protobuf: the last occurrence wins)."""
    got = fields.get(number)
    if got is None:
        return default
    v = got[-1]
    if v.__class__ is int:
        return v if v < 0x80000000 else int32(v)
    raise corrupt(f"field {number}: expected a number")


def first_bytes(fields: dict[int, list], number: int) -> bytes | None:
    got = fields.get(number)
    if not got:
        return None
    v = got[-1]
    if not isinstance(v, bytes):
        raise corrupt(f"field {number}: expected bytes")
    return v


def repeated_bytes(fields: dict[int, list], number: int) -> list[bytes]:
    out = fields.get(number) or []
    for v in out:
        if not isinstance(v, bytes):
            raise corrupt(f"field {number}: expected bytes")
    return out


def repeated_ints(fields: dict[int, list], number: int) -> list[int]:
    """A repeated int32, packed or not (parsers must accept both)."""
    out: list[int] = []
    for v in fields.get(number) or ():
        if isinstance(v, bytes):
            pos, end = 0, len(v)
            while pos < end:
                x, pos = read_varint(v, pos, end)
                out.append(int32(x))
        else:
            out.append(int32(v))
    return out
