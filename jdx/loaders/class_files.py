"""One class file's bytes, read where a class path lookup reads it: a jar entry, a class directory's file, or the
JDK's runtime image. For query-time needs of a single class (a stack frame's line tables); extraction reads whole
artifacts through the embedded JVM instead."""

from __future__ import annotations

import struct
import zipfile
import zlib
from pathlib import Path


def class_bytes(kind: str, path: str, module: str | None, internal_name: str) -> bytes | None:
    """A class file's bytes from a jar, a class directory or the JDK's runtime image; None when unreadable."""
    entry = internal_name + ".class"
    try:
        if kind == "jar":
            with zipfile.ZipFile(path) as zf:
                return zf.read(entry)
        if kind == "dir":
            return Path(path, entry).read_bytes()
        if kind == "jrt":
            from jdx.loaders.jdk_modules import JImage
            from jdx.loaders.jvm import find_java_home

            name = module or path.removeprefix("jrt:/").strip("/")
            image = JImage(find_java_home().home / "lib" / "modules")
            try:
                data = image.read(f"/{name}/{entry}")
                return None if data is None else bytes(data)
            finally:
                image.close()
    except (OSError, KeyError, ValueError, zipfile.BadZipFile, zlib.error, struct.error):
        return None
    except Exception:  # noqa: BLE001 - no JDK found: the ranges still answer
        return None
    return None


def parse_line_tables(data: bytes) -> dict[tuple[str, str], frozenset[int]]:
    """{(name, descriptor): its LineNumberTable lines} for every method of a class file (empty for one without
    code); ValueError when `data` is no class file."""
    from jdx.loaders.decompile_procyon import read_class

    cf = read_class(data)  # (ClassFormatError is a ValueError)
    out = {}
    for method in cf.methods:
        lines: set[int] = set()
        for code in method.attributes.get("Code", ()):
            lines |= _code_lines(code, cf)
        out[(method.name, method.descriptor)] = frozenset(lines)
    return out


def _code_lines(code: bytes, cf) -> set[int]:
    """The lines of a Code attribute's LineNumberTables (the attribute's body, past its name and length)."""
    (code_len,) = struct.unpack_from(">I", code, 4)
    p = 8 + code_len
    (handlers,) = struct.unpack_from(">H", code, p)
    p += 2 + 8 * handlers
    (attrs,) = struct.unpack_from(">H", code, p)
    p += 2
    lines: set[int] = set()
    for _ in range(attrs):
        name, length = struct.unpack_from(">HI", code, p)
        if cf.utf8(name) == "LineNumberTable":
            (n,) = struct.unpack_from(">H", code, p + 6)
            lines.update(struct.unpack_from(">H", code, p + 8 + 4 * k + 2)[0] for k in range(n))
        p += 6 + length
    return lines


def line_tables(kind: str, path: str, module: str | None, internal_name: str) -> dict | None:
    """The line tables of one class's methods (`parse_line_tables`) read from its artifact; None when unreadable."""
    data = class_bytes(kind, path, module, internal_name)
    if data is None:
        return None
    try:
        return parse_line_tables(data)
    except (ValueError, struct.error, IndexError, KeyError):
        return None
