"""The engine's one door to the JVM at query time (DESIGN.md §3): decompilation and javap.

Queries read the graph and never start a JVM, except `body`/`source` falling back to a decompiler or
`--engine javap`. The engine calls this port; `jdx.loaders.jvm_tools` implements it with the embedded JVM,
and tests may pass a fake.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Protocol

from jdx.errors import ToolFailed  # noqa: F401 - the port's failure, re-exported

_SHADOW_SUFFIX = re.compile(r"@[0-9a-f]{16}$")


def jvm_name(type_id: str) -> str:
    """The JVM internal name inside a graph type id: a shadowed copy's id carries its artifact as a suffix."""
    return _SHADOW_SUFFIX.sub("", type_id)


class Decompiled(Protocol):
    text: str  # Java source text of the whole top-level class
    engine: str  # "vineflower" | "procyon"
    engine_version: str
    cached: bool
    warnings: list  # Warning_s (artifact left empty) for what is known wrong in `text` and not corrected


class JvmTools(Protocol):
    def decompile_class(self, cache: Path, artifact_kind: str, artifact_path: str, internal_name: str,
                        classpath: list[tuple[str, str]], *, timeout: float, engine: str | None) -> Decompiled:
        """The decompiled top-level class; raises a JdxError whose `code` names the failure
        (DECOMPILER_UNAVAILABLE, DECOMPILE_TIMEOUT, DECOMPILE_FAILED)."""

    def javap(self, cache: Path, args: list[str]) -> tuple[int, str, str]:
        """(exit code, stdout, stderr) of the JDK's javap run in process; raises ToolFailed."""

    def class_entry(self, artifact_kind: str, artifact_path: str, internal_name: str) -> str | None:
        """Where a jar (its entry) or a class directory (the path under it) holds the class file declaring
        `internal_name`: the path its name gives, else the one found by its this_class (MISPLACED_CLASS); None
        when there is none."""
