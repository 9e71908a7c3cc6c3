"""Maven coordinates of jars by where they lie: a Maven repository's layout or the Gradle cache's. Standard
library only; shared by the loaders (naming discovered jars) and the engine (printing a shadowed copy's scope)."""

from __future__ import annotations

from pathlib import Path


def coordinate_of_path(path: str) -> str | None:
    """`g:a:v[:cls]` of a jar in a Maven repository (`…/g/r/o/u/p/a/v/a-v[-cls].jar`) or in the Gradle cache
    (`…/files-2.1/g.r.o.u.p/a/v/<sha1>/a-v[-cls].jar`); None elsewhere."""
    parts = Path(path).parts
    if len(parts) < 4 or not parts[-1].endswith(".jar"):
        return None
    stem = parts[-1][:-4]
    if len(parts) >= 6 and parts[-6] == "files-2.1":
        group, artifact, version = parts[-5], parts[-4], parts[-3]
        return _with_classifier(group, artifact, version, stem)
    artifact, version = parts[-3], parts[-2]
    if not stem.startswith(f"{artifact}-{version}"):
        return None
    marker = next((i for i in range(len(parts) - 4, 0, -1) if parts[i] == "repository"), None)
    if marker is None:
        return None
    group = ".".join(parts[marker + 1:-3])
    return _with_classifier(group, artifact, version, stem) if group else None


def _with_classifier(group: str, artifact: str, version: str, stem: str) -> str | None:
    base = f"{artifact}-{version}"
    if stem == base:
        return f"{group}:{artifact}:{version}"
    if stem.startswith(base + "-"):
        return f"{group}:{artifact}:{version}:{stem[len(base) + 1:]}"
    return None
