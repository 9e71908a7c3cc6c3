"""What the JDK's module descriptors export (JLS §7.7, JVMS §4.7.25), read straight from its `lib/modules`
jimage without a JVM: the packages a module holds (ModulePackages) and those it exports to everyone
(exports without `to`). The rest are the JDK's implementation packages, which search ranks last."""

from __future__ import annotations

import mmap
import struct
from pathlib import Path

MAGIC = 0xCAFEDADA
# location attribute kinds of a jimage entry
_END, _MODULE, _PARENT, _BASE, _EXTENSION, _OFFSET, _COMPRESSED, _UNCOMPRESSED = range(8)


def _hash(name: bytes, seed: int = 0x01000193) -> int:
    h = seed
    for b in name:
        h = ((h * 0x01000193) ^ b) & 0xFFFFFFFF
    return h & 0x7FFFFFFF


class JImage:
    """A read-only view of a jimage file (`lib/modules`): resources by name, uncompressed ones only."""

    def __init__(self, path: Path):
        with open(path, "rb") as f:
            self.m = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        magic, _major, _minor, _flags, _count, self.table, loc_size, str_size = struct.unpack_from("<IHHIIIII",
                                                                                                   self.m, 0)
        if magic != MAGIC:
            raise ValueError(f"{path}: not a jimage")
        self.redirect = 28
        self.offsets = self.redirect + 4 * self.table
        self.locs = self.offsets + 4 * self.table
        self.strs = self.locs + loc_size
        self.index_size = self.strs + str_size

    def close(self) -> None:
        self.m.close()

    def _str(self, off: int) -> str:
        start = self.strs + off
        return self.m[start:self.m.find(b"\0", start)].decode("utf-8")

    def _attrs(self, index: int) -> dict[int, int]:
        (off,) = struct.unpack_from("<I", self.m, self.offsets + 4 * index)
        p, out = self.locs + off, {}
        while (kind := self.m[p] >> 3) != _END:
            n = (self.m[p] & 7) + 1
            out[kind] = int.from_bytes(self.m[p + 1:p + 1 + n], "big")
            p += 1 + n
        return out

    def read(self, name: str) -> bytes | None:
        """`/java.base/module-info.class` -> its bytes; None when absent or compressed."""
        raw = name.encode()
        (v,) = struct.unpack_from("<i", self.m, self.redirect + 4 * (_hash(raw) % self.table))
        if v == 0:
            return None
        index = -1 - v if v < 0 else _hash(raw, v) % self.table
        a = self._attrs(index)
        module, parent, base, ext = (self._str(a.get(k, 0)) for k in (_MODULE, _PARENT, _BASE, _EXTENSION))
        if f"/{module}/" + (f"{parent}/" if parent else "") + base + (f".{ext}" if ext else "") != name:
            return None
        if a.get(_COMPRESSED, 0):
            return None
        start = self.index_size + a.get(_OFFSET, 0)
        return self.m[start:start + a.get(_UNCOMPRESSED, 0)]


def _attributes(data: bytes) -> tuple[dict[int, str], dict[int, int], list[tuple[str | None, int]]]:
    """A module-info.class's constant pool (its Utf8 strings, and the name index of each Module and Package
    constant) and its class attributes as (name, offset of the body)."""
    p = 10
    (count,) = struct.unpack_from(">H", data, 8)
    utf8: dict[int, str] = {}
    named: dict[int, int] = {}  # CONSTANT_Module_info / CONSTANT_Package_info -> its Utf8 index
    i = 1
    while i < count:
        tag = data[p]
        if tag == 1:
            (n,) = struct.unpack_from(">H", data, p + 1)
            utf8[i] = data[p + 3:p + 3 + n].decode("utf-8", "replace")
            p += 3 + n
        elif tag in (7, 8, 16, 19, 20):
            if tag in (19, 20):
                named[i] = struct.unpack_from(">H", data, p + 1)[0]
            p += 3
        elif tag == 15:
            p += 4
        elif tag in (3, 4, 9, 10, 11, 12, 17, 18):
            p += 5
        elif tag in (5, 6):
            p += 9
            i += 1
        else:
            raise ValueError(f"constant pool tag {tag}")
        i += 1
    p += 6  # access, this, super
    (n,) = struct.unpack_from(">H", data, p)
    p += 2 + 2 * n
    for _ in range(2):  # fields, methods (none in a module-info, skipped alike)
        (n,) = struct.unpack_from(">H", data, p)
        p += 2
        for _ in range(n):
            (ac,) = struct.unpack_from(">H", data, p + 6)
            p += 8
            for _ in range(ac):
                p += 6 + struct.unpack_from(">I", data, p + 2)[0]
    (n,) = struct.unpack_from(">H", data, p)
    p += 2
    attributes = []
    for _ in range(n):
        name_index, length = struct.unpack_from(">HI", data, p)
        attributes.append((utf8.get(name_index), p + 6))
        p += 6 + length
    return utf8, named, attributes


def module_packages(data: bytes) -> tuple[set[str], set[str]]:
    """(every package, the packages exported to everyone) of a module-info.class, internal names."""
    utf8, package, attributes = _attributes(data)
    every: set[str] = set()
    exported: set[str] = set()
    for name, body in attributes:
        if name == "ModulePackages":
            (k,) = struct.unpack_from(">H", data, body)
            every.update(utf8[package[x]] for x in struct.unpack_from(f">{k}H", data, body + 2))
        elif name == "Module":
            q = body + 6
            (k,) = struct.unpack_from(">H", data, q)
            q += 2 + 6 * k  # requires
            (k,) = struct.unpack_from(">H", data, q)
            q += 2
            for _ in range(k):
                pkg, _flags, to = struct.unpack_from(">HHH", data, q)
                q += 6 + 2 * to
                every.add(utf8[package[pkg]])
                if to == 0:
                    exported.add(utf8[package[pkg]])
    return every, exported


def module_name(data: bytes) -> str | None:
    """The name a module-info.class declares (its Module attribute, JVMS §4.7.25); None without one."""
    utf8, named, attributes = _attributes(data)
    for name, body in attributes:
        if name == "Module":
            return utf8.get(named.get(struct.unpack_from(">H", data, body)[0], 0))
    return None


_DESCRIPTOR_MAX = 1 << 20  # a module-info.class or manifest bigger than this is no descriptor jdx reads


def _jar_descriptors(z, infos: dict) -> list[bytes]:
    """A jar's module-info.class bytes: the root's, then each release's under META-INF/versions, highest first."""
    versions = sorted((int(n.split("/")[2]), n) for n in infos
                      if n.startswith("META-INF/versions/") and n.endswith("/module-info.class")
                      and n.split("/")[2].isdigit() and n.count("/") == 3)
    out = []
    for name in ["module-info.class", *(n for _v, n in reversed(versions))]:
        info = infos.get(name)
        if info is not None and info.file_size <= _DESCRIPTOR_MAX:
            out.append(z.read(info))
    return out


def jar_module_exports(path: str) -> tuple[str, set[str]] | None:
    """(module name, the packages it exports to everyone, internal names) of a jar whose module-info.class
    (`jar_module`'s) declares them; None for an automatic or unnamed module, or a jar that cannot be read."""
    import zipfile

    try:
        with zipfile.ZipFile(path) as z:
            for data in _jar_descriptors(z, {i.filename: i for i in z.infolist()}):
                name = module_name(data)
                if name:
                    return name, module_packages(data)[1]
    except (OSError, zipfile.BadZipFile, ValueError, KeyError, IndexError, struct.error, EOFError,
            RuntimeError, NotImplementedError):
        return None
    return None


def jar_module(path: str) -> str | None:
    """The module a jar declares: its module-info.class (at the root, else the highest release's under
    META-INF/versions), else its manifest's Automatic-Module-Name; None for neither, or a jar that cannot be read
    (the extraction reports that one)."""
    import zipfile

    try:
        with zipfile.ZipFile(path) as z:
            infos = {i.filename: i for i in z.infolist()}
            for data in _jar_descriptors(z, infos):
                found = module_name(data)
                if found:
                    return found
            info = infos.get("META-INF/MANIFEST.MF")
            if info is not None and info.file_size <= _DESCRIPTOR_MAX:
                return _manifest_value(z.read(info).decode("utf-8", "replace"), "Automatic-Module-Name")
    except (OSError, zipfile.BadZipFile, ValueError, KeyError, IndexError, struct.error, EOFError,
            RuntimeError, NotImplementedError):
        return None
    return None


def artifact_module(kind: str, path: str, name: str) -> str | None:
    """The module an artifact is, or declares: a JDK module's own name, a jar's (`jar_module`), a class
    directory's module-info.class; None for the unnamed module."""
    if kind == "jrt":
        return name
    if kind == "jar":
        return jar_module(path)
    try:
        descriptor = Path(path) / "module-info.class"
        if descriptor.is_file() and descriptor.stat().st_size <= _DESCRIPTOR_MAX:
            return module_name(descriptor.read_bytes())
    except (OSError, ValueError, KeyError, IndexError, struct.error):
        return None
    return None


def _manifest_value(text: str, key: str) -> str | None:
    """A main-section attribute of a JAR manifest (continuation lines start with one space)."""
    lines: list[str] = []
    for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        if not line:
            break  # the main section ends at the first blank line
        if line.startswith(" ") and lines:
            lines[-1] += line[1:]
        else:
            lines.append(line)
    for line in lines:
        k, sep, v = line.partition(":")
        if sep and k.strip().lower() == key.lower():
            return v.strip() or None
    return None


def _descriptors(home: Path, modules: list[str]) -> dict[str, tuple[set[str], set[str]]] | None:
    """Module -> (every package, packages exported to all) of the JDK at `home`, from its module descriptors; None
    when they cannot be read (no jimage, compressed descriptors)."""
    try:
        image = JImage(home / "lib" / "modules")
    except (OSError, ValueError):
        return None
    try:
        out = {}
        for module in modules:
            data = image.read(f"/{module}/module-info.class")
            if data is None:
                return None
            out[module] = module_packages(data)
        return out
    except (struct.error, KeyError, ValueError, IndexError):
        return None
    finally:
        image.close()


def internal_packages(home: Path, modules: list[str]) -> set[str] | None:
    """Dotted names of the packages the JDK at `home` holds but exports to no one; None when its module
    descriptors cannot be read (no jimage, compressed descriptors)."""
    found = _descriptors(home, modules)
    if found is None:
        return None
    return {p.replace("/", ".") for every, exported in found.values() for p in every - exported}


def package_modules(home: Path, modules: list[str]) -> dict[str, str]:
    """Package (internal name) -> the module of the JDK at `home` holding it; {} when its descriptors cannot be
    read."""
    out: dict[str, str] = {}
    for module, (every, _exported) in (_descriptors(home, modules) or {}).items():
        for package in sorted(every):
            out.setdefault(package, module)
    return out
