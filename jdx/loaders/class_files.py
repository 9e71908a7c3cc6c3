"""One class file's bytes, read where a class path lookup reads it: a jar entry, a class directory's file, or the
JDK's runtime image. For query-time needs of a single class (a stack frame's line tables, decompiling, javap);
extraction reads whole artifacts through the embedded JVM instead.

A class file jdx indexed away from the path its name gives (MISPLACED_CLASS: a Spring Boot jar's
`BOOT-INF/classes/`, a war's `WEB-INF/classes/`, a jmod's `classes/`, a class directory given one level off) is
found by what it declares (`class_entry`): jdx reads such a class, so it shows its code too."""

from __future__ import annotations

import functools
import os
import struct
import zipfile
import zlib
from pathlib import Path

VERSIONED = "META-INF/versions/"  # a multi-release jar's versioned entries: jdx indexes the base ones only


def declared_name(data: bytes) -> str | None:
    """The internal name a class file declares (its this_class), read past the constant pool and no further; None
    for bytes that are no class file."""
    from jdx.loaders.decompile_procyon import ClassFormatError, declared_class_name

    try:
        return declared_class_name(data)
    except ClassFormatError:
        return None


def versioned_entries(jar: str, entries: set[str] | None) -> dict[str, list[int]]:
    """Of `entries` (`p/A.class`; None: every one), those a multi-release jar holds under `META-INF/versions/N/`
    (which jdx does not read): entry -> its releases, ascending; nothing for an unreadable jar."""
    import re

    try:
        with zipfile.ZipFile(jar) as zf:
            names = zf.namelist()
    except (OSError, zipfile.BadZipFile):
        return {}
    out: dict[str, list[int]] = {}
    for name in names:
        match = re.match(r"META-INF/versions/(\d+)/(.+)$", name)
        if match and (entries is None or match.group(2) in entries) and match.group(2) != "module-info.class":
            out.setdefault(match.group(2), []).append(int(match.group(1)))
    return {entry: sorted(releases) for entry, releases in sorted(out.items())}


def _by_path_order(entries, canonical: str) -> list[str]:
    """Class files that may declare the class, in the order extraction keeps one of several copies (the path its
    name gives, else path order; extractor.duplicated_classes): those ending in its path (`BOOT-INF/classes/p/A.class`)
    before the others, so the usual layouts never read a second file."""
    suffix = "/" + canonical
    found = [e for e in entries if e.endswith(".class") and not e.startswith(VERSIONED)]
    return sorted(found, key=lambda e: (not e.endswith(suffix), e))


def class_entry(kind: str, path: str, internal_name: str) -> str | None:
    """Where a jar (its entry) or a class directory (the file's path under it) holds the class file declaring
    `internal_name`: the path its name gives, else the class file found there by its this_class (MISPLACED_CLASS);
    None when there is none or the artifact is unreadable."""
    canonical = internal_name + ".class"
    try:
        if kind == "jar":
            st = os.stat(path)
            return _jar_entries(path, (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino), canonical)
        if kind == "dir":
            if Path(path, canonical).is_file():
                return canonical
            files = [os.path.relpath(os.path.join(folder, name), path).replace(os.sep, "/")
                     for folder, _, names in os.walk(path) for name in names if name.endswith(".class")]
            for rel in _by_path_order(files, canonical):
                try:
                    if declared_name(Path(path, rel).read_bytes()) == internal_name:
                        return rel
                except OSError:
                    continue
    except (OSError, ValueError, zipfile.BadZipFile, zlib.error):
        return None
    return None


@functools.lru_cache(maxsize=64)
def _jar_entries(path: str, _stamp: tuple, canonical: str) -> str | None:
    with zipfile.ZipFile(path) as zf:
        names = zf.namelist()
        if canonical in names:
            return canonical
        internal_name = canonical.removesuffix(".class")
        for entry in _by_path_order(names, canonical):
            try:
                if declared_name(zf.read(entry)) == internal_name:
                    return entry
            except (OSError, KeyError, zipfile.BadZipFile, zlib.error):
                continue
    return None


def relocated_class_files(kind: str, path: str, internal_name: str) -> list[tuple[str, bytes]]:
    """(the path its name gives, bytes) of a top-level class held elsewhere (`class_entry`) and of its nested
    classes beside it (the class files of its folder that declare `<name>$...`), sorted; [] when it is not there."""
    entry = class_entry(kind, path, internal_name)
    if entry is None:
        return []
    folder = entry.rpartition("/")[0]
    found: dict[str, bytes] = {}
    try:
        if kind == "jar":
            with zipfile.ZipFile(path) as zf:
                for name in zf.namelist():
                    if name.endswith(".class") and name.rpartition("/")[0] == folder:
                        _keep_member(found, zf.read(name), internal_name)
        else:
            for file in Path(path, folder).iterdir():
                if file.name.endswith(".class"):
                    _keep_member(found, file.read_bytes(), internal_name)
    except (OSError, KeyError, zipfile.BadZipFile, zlib.error):
        return []
    return sorted(found.items())


def _keep_member(found: dict[str, bytes], data: bytes, internal_name: str) -> None:
    name = declared_name(data)
    if name is not None and (name == internal_name or name.startswith(internal_name + "$")):
        found.setdefault(name + ".class", data)


def class_bytes(kind: str, path: str, module: str | None, internal_name: str) -> bytes | None:
    """A class file's bytes from a jar, a class directory or the JDK's runtime image (a class jdx indexed away from
    the path its name gives read where it is: `class_entry`); None when unreadable."""
    entry = internal_name + ".class"
    try:
        if kind in ("jar", "dir"):
            try:
                return _read(kind, path, entry)
            except (KeyError, FileNotFoundError):
                moved = class_entry(kind, path, internal_name)
                return None if moved in (None, entry) else _read(kind, path, moved)
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


def _read(kind: str, path: str, entry: str) -> bytes:
    if kind == "jar":
        with zipfile.ZipFile(path) as zf:
            return zf.read(entry)
    return Path(path, entry).read_bytes()


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
    from jdx.loaders.decompile_procyon import code_attributes

    lines: set[int] = set()
    for name, at in code_attributes(code, cf):
        if name == "LineNumberTable":
            (n,) = struct.unpack_from(">H", code, at)
            lines.update(struct.unpack_from(">H", code, at + 2 + 4 * k + 2)[0] for k in range(n))
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


def class_smap(kind: str, path: str, module: str | None, internal_name: str) -> str | None:
    """A class's SourceDebugExtension text (kotlinc's SMAP: where inlined lines came from), read from its artifact;
    None without one or when unreadable."""
    from jdx.loaders.decompile_procyon import read_class

    data = class_bytes(kind, path, module, internal_name)
    try:
        cf = read_class(data) if data is not None else None
    except (ValueError, struct.error, IndexError, KeyError):
        return None
    found = next(((a, b) for name, a, b in (cf.attributes if cf else ()) if name == "SourceDebugExtension"), None)
    return data[found[0] + 6:found[1]].decode("utf-8", "replace") if found else None
