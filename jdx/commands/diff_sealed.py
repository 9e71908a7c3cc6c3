"""Which classes of an artifact are `sealed` (spec §7.7, docs/diff.md): the extracted tables do not record a class
file's `PermittedSubclasses` attribute (JVMS §4.7.31), so a diff reads it from the class bytes itself.

Only class files of version 61 (Java 17) or later can carry it, and only one whose constant pool names the attribute
is parsed: most classes cost a header read. A JDK module (`jrt`) is not read (its sealed classes are left unknown).
"""

from __future__ import annotations

import os
import struct
import zipfile
from pathlib import Path

ATTRIBUTE = b"PermittedSubclasses"
JAVA_17 = 61
# constant-pool entry sizes after the tag (JVMS §4.4); 1 (Utf8) has a length of its own, 5 and 6 take two slots
_CP_SIZE = {3: 4, 4: 4, 5: 8, 6: 8, 7: 2, 8: 2, 9: 4, 10: 4, 11: 4, 12: 4, 15: 3, 16: 2, 17: 4, 18: 4, 19: 2, 20: 2}


def sealed_classes(kind: str, path: str) -> frozenset[str]:
    """Internal names of the classes of a jar or class directory that have a PermittedSubclasses attribute; an
    unreadable entry is skipped (the extraction reports it)."""
    if kind == "jar":
        return frozenset(_from_jar(path))
    if kind == "dir":
        return frozenset(_from_dir(Path(path)))
    return frozenset()


def _from_jar(path: str):
    try:
        zf = zipfile.ZipFile(path)
    except (OSError, zipfile.BadZipFile):
        return
    with zf:
        for info in zf.infolist():
            if not info.filename.endswith(".class") or info.filename.startswith("META-INF/"):
                continue
            try:
                with zf.open(info) as f:
                    head = f.read(8)
                    if len(head) < 8 or head[:4] != b"\xca\xfe\xba\xbe" or _major(head) < JAVA_17:
                        continue
                    data = head + f.read()
            except (OSError, zipfile.BadZipFile, RuntimeError, EOFError):
                continue
            name = _sealed_name(data)
            if name is not None:
                yield name


def _from_dir(root: Path):
    for folder, _, files in os.walk(root):
        for file in files:
            if not file.endswith(".class"):
                continue
            try:
                with open(os.path.join(folder, file), "rb") as f:
                    head = f.read(8)
                    if len(head) < 8 or head[:4] != b"\xca\xfe\xba\xbe" or _major(head) < JAVA_17:
                        continue
                    data = head + f.read()
            except OSError:
                continue
            name = _sealed_name(data)
            if name is not None:
                yield name


def _major(head: bytes) -> int:
    return struct.unpack_from(">H", head, 6)[0]


def _sealed_name(data: bytes) -> str | None:
    """The class's internal name when its class attributes include PermittedSubclasses, else None."""
    if ATTRIBUTE not in data:
        return None
    try:
        return _parse(data)
    except (struct.error, IndexError, UnicodeDecodeError, KeyError):
        return None


def _parse(data: bytes) -> str | None:
    count = struct.unpack_from(">H", data, 8)[0]
    utf8: dict[int, bytes] = {}
    classes: dict[int, int] = {}
    pos, i = 10, 1
    while i < count:
        tag = data[pos]
        if tag == 1:
            length = struct.unpack_from(">H", data, pos + 1)[0]
            utf8[i] = data[pos + 3:pos + 3 + length]
            pos += 3 + length
        else:
            if tag == 7:
                classes[i] = struct.unpack_from(">H", data, pos + 1)[0]
            pos += 1 + _CP_SIZE[tag]
            if tag in (5, 6):
                i += 1
        i += 1
    this_class = struct.unpack_from(">H", data, pos + 2)[0]
    interfaces = struct.unpack_from(">H", data, pos + 6)[0]
    pos += 8 + 2 * interfaces
    for _ in range(2):  # fields, then methods: skip each one's attributes
        members = struct.unpack_from(">H", data, pos)[0]
        pos += 2
        for _ in range(members):
            pos = _skip_attributes(data, pos + 6)
    attributes = struct.unpack_from(">H", data, pos)[0]
    pos += 2
    for _ in range(attributes):
        name_index, length = struct.unpack_from(">HI", data, pos)
        if utf8.get(name_index) == ATTRIBUTE:
            return utf8[classes[this_class]].decode("utf-8", "surrogatepass")
        pos += 6 + length
    return None


def _skip_attributes(data: bytes, pos: int) -> int:
    attributes = struct.unpack_from(">H", data, pos)[0]
    pos += 2
    for _ in range(attributes):
        pos += 6 + struct.unpack_from(">I", data, pos + 2)[0]
    return pos
