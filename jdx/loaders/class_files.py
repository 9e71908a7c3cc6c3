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
