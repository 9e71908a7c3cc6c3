"""What a usages answer says about the symbol beside its sites (spec §3.3: never guess silently): a compile-time
constant's inlined uses, which no bytecode holds; a member asked through a type that only inherits it. `usages`,
`callers` and `samples` carry these notes."""

from __future__ import annotations

from jdx.engine.descriptors import render_constant
from jdx.engine.refs import format_type
from jdx.engine.relations import Symbol, Target

_STATIC_FINAL = 0x8 | 0x10
_CONSTANT_DESCRIPTORS = frozenset(("B", "C", "D", "F", "I", "J", "S", "Z", "Ljava/lang/String;"))
_VALUE_SHOWN = 40


def is_inlined_constant(target: Target) -> bool:
    """A `static final` primitive or String field with a ConstantValue: javac and kotlinc (`const val`) copy the
    value into every use (JLS §13.1), so those uses read no field in bytecode."""
    row = target.row or {}
    return (target.is_field and row.get("constant") is not None
            and (row.get("access") or 0) & _STATIC_FINAL == _STATIC_FINAL
            and row.get("descriptor") in _CONSTANT_DESCRIPTORS)


def constant_notes(symbol: Symbol) -> list[str]:
    """The note an answer about a compile-time constant carries: its count misses every inlined use."""
    out = []
    for t in symbol.targets:
        if is_inlined_constant(t):
            value = render_constant(t.row.get("descriptor") or "", t.row["constant"])
            value = value if len(value) <= _VALUE_SHOWN else value[:_VALUE_SHOWN] + "…"
            out.append(f"{t.ref} is a compile-time constant (= {value}): javac and kotlinc copy the value into "
                       "each use, so those uses read no field and are not in the bytecode; the count covers only "
                       "uses that were not inlined (reflection, other compilers, ...). For the uses in code, search "
                       f"the sources for the name: grep -rnw '{t.row['name']}' <source dirs>; without sources, "
                       f"javap -c -p of the classes shows the value where it was inlined (jdx search --value finds "
                       "only declarations)")
    return out


def inherited_asked(symbol: Symbol) -> str | None:
    """The asked type's id when the member asked through it is only inherited (`XMLStreamWriter2#writeStartElement`,
    declared by `XMLStreamWriter`); None when the type declares it, or a type was asked."""
    asked = (symbol.type_row or {}).get("id")
    if symbol.is_type or not asked or any(t.id.split("#", 1)[0] == asked for t in symbol.targets):
        return None
    if {t.id.split("#", 1)[0] for t in symbol.targets} <= _facade_parts(symbol.type_row):
        return None  # a Kotlin multi-file facade's function is its part's (kotlin-stdlib's facades extend the parts)
    return asked


def _facade_parts(type_row: dict) -> set[str]:
    """The parts of a Kotlin multi-file class facade (@Metadata kind 4), else nothing."""
    if not type_row.get("kotlin"):
        return set()
    from jdx.engine.kotlin_source import metadata_kind, metadata_parts

    return set(metadata_parts(type_row)) if metadata_kind(type_row) == 4 else set()


def inherited_note(symbol: Symbol, through: int, what: str = "usages", marked: str | None = None) -> list[str]:
    """A member asked through a type that only inherits it answers the declaration's usages (the JVM links a call
    of `HttpURI#toString()` to `Object#toString()`): say so, and how many of them (`through`) name the asked type."""
    asked = inherited_asked(symbol)
    if asked is None:
        return []
    declared = sorted({t.id.split("#", 1)[0] for t in symbol.targets})
    name = format_type(asked)
    member = symbol.targets[0].ref.split("#", 1)[1]  # one target: its parameters (the type may declare an overload)
    member = member if len(symbol.targets) == 1 else member.split("(", 1)[0]
    return [f"{name} declares no {member}: these are the {what} of "
            f"what it inherits from {', '.join(format_type(d) for d in declared)}; {through} of them call it through "
            f"{name} ({marked or f'marked via {name}'})"]
