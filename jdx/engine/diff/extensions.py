"""Where the Kotlin rules of spec §7.7 plug into the comparison (the `KOTLIN_*` ids of `rules.py`).

The Java comparison calls every registered extension at three points:
- `pair_members`: the second pairing pass, on what the first pass (name and arity) left unpaired — a JVM rename
  (`KOTLIN_NAME_CHANGED`: `@JvmName`, `internal` mangling) or a `suspend` flip (`KOTLIN_SUSPEND_CHANGED`). It
  returns its findings and the members it did not pair; an ambiguous bucket must stay unpaired (§3.3).
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


EXTENSIONS: list[DiffExtension] = []


def register(extension: DiffExtension) -> None:
    """Adds an extension once (the Kotlin view registers itself on import)."""
    if extension not in EXTENSIONS:
        EXTENSIONS.append(extension)
