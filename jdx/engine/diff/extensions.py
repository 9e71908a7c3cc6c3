"""Where the Kotlin rules of spec §7.7 plug into the comparison (the `KOTLIN_*` ids of `rules.py`).

The Java comparison calls every registered extension at three points:
- `pair_members`: the second pairing pass, on what the first pass (name and arity) left unpaired — a JVM rename
  (`KOTLIN_NAME_CHANGED`: `@JvmName`, `internal` mangling) or a `suspend` flip (`KOTLIN_SUSPEND_CHANGED`). It
  returns its findings and the members it did not pair; an ambiguous bucket must stay unpaired (§3.3). It is offered
  only removals that are MEMBER_REMOVED on their own (no method of the old JVM name and descriptor resolves any
  more), so what it pairs is a link break: both rules are breaking (docs/diff.md).
- `compare_members`: extra findings on one member present on both sides (nullability, default arguments, parameter
  names as Kotlin callers write them, a `val` becoming `var`).
- `compare_types`: extra findings on one type present on both sides.
The type's `@Metadata` arrives as `TypeInfo.kotlin` (the extractor's decoded JSON text, None for Java classes).
"""

from __future__ import annotations

from typing import Protocol

from jdx.engine.diff.findings import Finding
from jdx.engine.diff.surface import Member, Surface, TypeInfo


class DiffExtension(Protocol):
    def pair_members(self, old_type: TypeInfo, new_type: TypeInfo, removed: list[Member], added: list[Member],
                     sides: tuple[Surface, Surface]) -> tuple[list[Finding], list[Member], list[Member]]: ...

    def compare_members(self, old: Member, new: Member, sides: tuple[Surface, Surface]) -> list[Finding]: ...

    def compare_types(self, old: TypeInfo, new: TypeInfo, sides: tuple[Surface, Surface]) -> list[Finding]: ...


# modules that register an extension when imported (the Kotlin view adds "jdx.engine.diff.kotlin" here)
BUILTIN: tuple[str, ...] = ("jdx.engine.diff.kotlin",)
_REGISTERED: list[DiffExtension] = []
_loaded: list[bool] = []


def register(extension: DiffExtension) -> None:
    """Adds an extension once."""
    if extension not in _REGISTERED:
        _REGISTERED.append(extension)


def unregister(extension: DiffExtension) -> None:
    if extension in _REGISTERED:
        _REGISTERED.remove(extension)


def extensions() -> tuple[DiffExtension, ...]:
    """Every registered extension, the built-in modules imported on first use."""
    if not _loaded:
        import importlib

        for name in BUILTIN:
            importlib.import_module(name)
        _loaded.append(True)
    return tuple(_REGISTERED)
