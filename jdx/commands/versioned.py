"""What an answer about a class says when a multi-release jar also holds that class under `META-INF/versions/N/`
(MULTI_RELEASE_JAR): jdx reads a jar's base entries, while a JVM of Java N or newer loads the versioned class file,
whose members may differ (postgresql's `LazyCleanerImpl`, xz's `CRC64`)."""

from __future__ import annotations

import functools
import os

from jdx.errors import Warning_


def versioned_class_warnings(jar_name: str, jar_path: str, fqns: set[str]) -> list[Warning_]:
    """One MULTI_RELEASE_JAR per class of `fqns` the jar also holds under META-INF/versions/N/, naming the releases."""
    versioned = _versioned_classes(jar_path)
    out = []
    for fqn in sorted(fqns):
        releases = versioned.get(fqn.replace(".", "/") + ".class")
        if releases:
            where = ", ".join(f"META-INF/versions/{n}/" for n in releases)
            out.append(Warning_("MULTI_RELEASE_JAR", f"{fqn}: {jar_name} also holds it under {where} (a "
                                f"multi-release jar): a JVM of Java {releases[0]} or newer loads that class file, "
                                f"this answer describes the base one (javap --multi-release {releases[-1]} shows "
                                "the other)", jar_name))
    return out


@functools.lru_cache(maxsize=32)
def _versioned_entries_of(path: str, stamp: tuple) -> dict[str, list[int]]:
    from jdx.loaders.class_files import versioned_entries

    return versioned_entries(path, None)


def _versioned_classes(path: str) -> dict[str, list[int]]:
    """A multi-release jar's classes under META-INF/versions/N/ (`p/A.class` -> releases), read once per jar file."""
    try:
        st = os.stat(path)
    except OSError:
        return {}
    return _versioned_entries_of(path, (st.st_size, st.st_mtime_ns))
