"""A minimal class-file reader used as an independent oracle by the decompilation and javap tests.

It knows nothing of jdx, ASM or javap: the constant pool, the class's name and its fields and methods (name,
descriptor, access) in file order. Its own test checks it against the `javap -p -s` subprocess.
"""

from __future__ import annotations

import re
import shutil
import struct
import zipfile

import pytest

from tests.conftest import GSON, require
from tests.fixtures import jdktool

ACC_BRIDGE = 0x0040
ACC_SYNTHETIC = 0x1000
ACC_ENUM = 0x4000
_WIDE = (5, 6)  # long and double take two constant-pool slots
_SIZES = {3: 4, 4: 4, 5: 8, 6: 8, 7: 2, 8: 2, 9: 4, 10: 4, 11: 4, 12: 4, 15: 3, 16: 2, 17: 4, 18: 4, 19: 2, 20: 2}


def read_class(data: bytes) -> dict:
    """{access, name, super, fields: [(name, descriptor, access)], methods: [...]} of one class file."""
    if data[:4] != b"\xca\xfe\xba\xbe":
        raise ValueError("not a class file")
    pos = 8
    (count,) = struct.unpack_from(">H", data, pos)
    pos += 2
    utf8: dict[int, str] = {}
    classes: dict[int, int] = {}
    index = 1
    while index < count:
        tag = data[pos]
        pos += 1
        if tag == 1:
            (length,) = struct.unpack_from(">H", data, pos)
            utf8[index] = data[pos + 2:pos + 2 + length].decode("utf-8", "replace")
            pos += 2 + length
        else:
            if tag == 7:
                classes[index] = struct.unpack_from(">H", data, pos)[0]
            pos += _SIZES[tag]
            index += 1 if tag in _WIDE else 0
        index += 1
    access, this, super_ = struct.unpack_from(">HHH", data, pos)
    pos += 6
    (interfaces,) = struct.unpack_from(">H", data, pos)
    pos += 2 + 2 * interfaces

    def members() -> list[tuple[str, str, int]]:
        nonlocal pos
        (n,) = struct.unpack_from(">H", data, pos)
        pos += 2
        out = []
        for _ in range(n):
            flags, name, desc, attributes = struct.unpack_from(">HHHH", data, pos)
            pos += 8
            for _ in range(attributes):
                (length,) = struct.unpack_from(">I", data, pos + 2)
                pos += 6 + length
            out.append((utf8[name], utf8[desc], flags))
        return out

    fields = members()
    methods = members()
    return {"access": access, "name": utf8[classes[this]], "super": utf8.get(classes.get(super_, 0), ""),
            "fields": fields, "methods": methods}


def param_count(descriptor: str) -> int:
    return len(re.findall(r"\[*(?:L[^;]+;|[BCDFIJSZ])", descriptor[1:descriptor.index(")")]))


def class_bytes(jar, internal_name: str) -> bytes:
    with zipfile.ZipFile(jar) as zf:
        return zf.read(internal_name + ".class")


@pytest.mark.parametrize("name", ["com/google/gson/Gson", "com/google/gson/stream/JsonReader",
                                  "com/google/gson/FieldNamingPolicy"])
def test_reader_lists_what_javap_lists(name):
    require(GSON)
    if shutil.which("javap") is None:
        pytest.skip("javap is not installed")
    parsed = read_class(class_bytes(GSON, name))
    out = jdktool.run(["javap", "-p", "-s", "-classpath", str(GSON), name.replace("/", ".")],
                         capture_output=True, text=True, check=True).stdout
    javap_descriptors = [line.split("descriptor:", 1)[1].strip() for line in out.splitlines()
                         if line.strip().startswith("descriptor:")]
    ours = [d for _, d, _ in parsed["fields"]] + [d for _, d, _ in parsed["methods"]]
    assert parsed["name"] == name
    assert ours == javap_descriptors


def test_reader_rejects_what_is_not_a_class_file():
    with pytest.raises(ValueError):
        read_class(b"PK\x03\x04 not a class")
