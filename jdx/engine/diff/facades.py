"""KOTLIN_FACADE_MOVED (spec §7.7, docs/diff.md): a top-level Kotlin function or property accessor gone from one file
facade (`SelectKt`) while another facade of the same package (`OnTimeoutKt`) gained the same JVM name and
descriptor: the declaration moved to another file. Kotlin sources import it by package and name, so they compile
unchanged; callers compiled against the old facade fail to link (NoSuchMethodError). It replaces the removal's
MEMBER_REMOVED; the new facade's TYPE_ADDED (or MEMBER_ADDED) stands."""

from __future__ import annotations

from dataclasses import replace

from jdx.engine.diff.findings import Finding
from jdx.engine.diff.forms import member_form, type_ref
from jdx.engine.diff.kotlin_visibility import decoded_metadata
from jdx.engine.diff.surface import STATIC, Member, Surface


def _facade(side: Surface, name: str) -> bool:
    """Whether `name` is a Kotlin file facade (`@Metadata(k = 2)`) or multi-file class facade (`k = 4`) of `side`."""
    t = side.types.get(name)
    meta = decoded_metadata(side, name) if t is not None and t.kotlin else None
    return meta is not None and (meta.package is not None or bool(meta.facade_parts))


def facade_moves(found: list[Finding], old: Surface, new: Surface) -> list[Finding]:
    """`found` with each MEMBER_REMOVED of a facade's method that one other facade of its package now declares
    (and did not before) as KOTLIN_FACADE_MOVED."""
    candidates: dict[str, list[str]] | None = None
    out = []
    for f in found:
        owner, _, key = f.id.partition("#")
        if f.rule != "MEMBER_REMOVED" or f.kind != "method" or not _facade(old, owner):
            out.append(f)
            continue
        if candidates is None:
            candidates = _facades_by_package(new)
        package = owner.rpartition("/")[0]
        moved = [(name, m) for name in candidates.get(package, ()) if name != owner
                 and (m := _static_method(new, name, key)) is not None and _static_method(old, name, key) is None]
        if len(moved) != 1:
            out.append(f)  # none, or several: no guessing which (spec §3.3)
            continue
        name, m = moved[0]
        inline = ("; an inline function: Kotlin callers compiled against the old version carry its body and still "
                  "run, Java callers do not" if _inline(old, owner, key) else "")
        out.append(replace(f, rule="KOTLIN_FACADE_MOVED", new=member_form(m), detail=(
            f"moved to file facade {type_ref(name)}: Kotlin sources unchanged (same package and name); callers "
            f"compiled against {type_ref(owner)} fail to link (NoSuchMethodError){inline}")))
    return out


def _inline(side: Surface, owner: str, key: str) -> bool:
    """Whether the facade's function of JVM name and descriptor `key` is `inline` (kotlinc copies its body into
    Kotlin callers, which then call nothing of the facade)."""
    meta = decoded_metadata(side, owner)
    parts = [decoded_metadata(side, p) for p in meta.facade_parts] if meta is not None and meta.facade_parts else [meta]
    return any(f.inline and f.jvm is not None and f.jvm[0] + f.jvm[1] == key
               for part in parts if part is not None and part.package is not None for f in part.package.functions)


def _facades_by_package(side: Surface) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for name in sorted(side.types):
        if side.types[name].kotlin and _facade(side, name):
            out.setdefault(name.rpartition("/")[0], []).append(name)
    return out


def _static_method(side: Surface, owner: str, key: str) -> Member | None:
    t = side.types.get(owner)
    return None if t is None else next((m for m in t.members.values() if not m.is_field and m.access & STATIC
                                        and m.level == "public" and m.name + m.descriptor == key), None)
