"""The LineNumberTable lines of a class's methods, read from its class file when a stack frame asks.

The graph keeps a method's first and last line only. A constructor's range also spans the field initializers javac
copies into every constructor, and a synthetic accessor constructor carries the line of the private one it calls,
so ranges alone cannot say which method a frame's line is in; the line table can (the frame's line is one of the
running method's). Only the frame's class is read (a jar entry, a class-directory file or a runtime-image resource),
once per resolve; None when it cannot be read, and the caller falls back to the ranges.
"""

from __future__ import annotations

import struct

_SKIP = {3: 4, 4: 4, 5: 8, 6: 8, 7: 2, 8: 2, 9: 4, 10: 4, 11: 4, 12: 4, 15: 3, 16: 2, 17: 4, 18: 4, 19: 2, 20: 2}


def parse_line_tables(data: bytes) -> dict[tuple[str, str], frozenset[int]]:
    """{(name, descriptor): lines} for every method with code; ValueError when `data` is no class file."""
    try:
        return _parse(data)
    except (struct.error, IndexError, UnicodeDecodeError, KeyError) as exc:
        raise ValueError(f"unreadable class file: {exc}") from None


def _parse(data: bytes) -> dict[tuple[str, str], frozenset[int]]:
    if data[:4] != b"\xca\xfe\xba\xbe":
        raise ValueError("not a class file")
    (count,) = struct.unpack_from(">H", data, 8)
    utf8: dict[int, str] = {}
    p, i = 10, 1
    while i < count:
        tag = data[p]
        if tag == 1:
            (n,) = struct.unpack_from(">H", data, p + 1)
            utf8[i] = data[p + 3:p + 3 + n].decode("utf-8", errors="replace")  # modified UTF-8: names only matter
            p += 3 + n
        else:
            p += 1 + _SKIP[tag]
        i += 2 if tag in (5, 6) else 1
    p += 6  # access, this, super
    (n,) = struct.unpack_from(">H", data, p)
    p += 2 + 2 * n  # interfaces
    for _ in range(2):  # fields, then methods
        (members,) = struct.unpack_from(">H", data, p)
        p += 2
        out: dict[tuple[str, str], frozenset[int]] = {}
        for _m in range(members):
            _acc, name, desc, attrs = struct.unpack_from(">HHHH", data, p)
            p += 8
            lines: set[int] = set()
            for _a in range(attrs):
                aname, alen = struct.unpack_from(">HI", data, p)
                if utf8.get(aname) == "Code":
                    lines |= _code_lines(data, p + 6, utf8)
                p += 6 + alen
            out[(utf8[name], utf8[desc])] = frozenset(lines)
    return out
    return out


def _code_lines(data: bytes, p: int, utf8: dict[int, str]) -> set[int]:
    (code_len,) = struct.unpack_from(">I", data, p + 4)
    p += 8 + code_len
    (exc,) = struct.unpack_from(">H", data, p)
    p += 2 + 8 * exc
    (attrs,) = struct.unpack_from(">H", data, p)
    p += 2
    lines: set[int] = set()
    for _ in range(attrs):
        aname, alen = struct.unpack_from(">HI", data, p)
        if utf8.get(aname) == "LineNumberTable":
            (n,) = struct.unpack_from(">H", data, p + 6)
            lines.update(struct.unpack_from(">H", data, p + 8 + 4 * k + 2)[0] for k in range(n))
        p += 6 + alen
    return lines


def method_lines(artifact: dict | None, internal_name: str, read_class) -> dict[tuple[str, str], frozenset[int]] | None:
    """The line tables of `internal_name`'s methods from the artifact row (`kind`, `path`, `module`) holding it;
    `read_class(kind, path, module, internal_name)` gives the class file's bytes or None (the commands layer passes
    loaders.class_files.class_bytes: the engine reads no artifact itself)."""
    if not artifact or not artifact.get("path") or read_class is None:
        return None
    data = read_class(artifact.get("kind", ""), artifact["path"], artifact.get("module"), internal_name)
    if data is None:
        return None
    try:
        return parse_line_tables(data)
    except ValueError:
        return None
