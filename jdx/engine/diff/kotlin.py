"""The Kotlin rules of spec §7.7 as a diff extension (extensions.py): the types' `@Metadata` decoded with
`jdx.kotlin`, declarations paired by class, kind, Kotlin name, arity and receiver (jdx.kotlin.diff).

`pair_members` turns a JVM removal + addition of one Kotlin declaration into `KOTLIN_NAME_CHANGED`
(@JvmName, internal mangling) or `KOTLIN_SUSPEND_CHANGED`, both breaking: the engine offers it only removals whose
old JVM name and descriptor nothing resolves any more; `compare_types` adds nullability, default
arguments, parameter names and val→var. Unreadable metadata contributes nothing (the JVM findings stand).
"""

from __future__ import annotations

from jdx.engine.diff.extensions import register
from jdx.engine.diff.findings import Finding
from jdx.engine.diff.forms import member_form, member_id, member_ref
from jdx.engine.diff.kotlin_visibility import decoded_metadata
from jdx.engine.diff.members import kind_of

# jdx.kotlin is imported by the functions below, on the first pair of types that both carry metadata: a diff of
# Java artifacts does not pay for it
_PAIRED = ("KOTLIN_NAME_CHANGED", "KOTLIN_SUSPEND_CHANGED")
_GONE = "the old JVM method is gone: compiled callers fail to link (NoSuchMethodError)"


def _type_rows(t, surface) -> list[dict]:
    """A class's declarations; a multi-file facade's are its parts' (the members it delegates to)."""
    meta = decoded_metadata(surface, t.name)
    if meta is not None and meta.facade_parts:
        return [r for part in meta.facade_parts for r in _rows(t.name, decoded_metadata(surface, part))]
    return _rows(t.name, meta)


def _rows(owner: str, meta) -> list[dict]:
    """The declarations of one class's decoded metadata in the `kotlin` table's row form (what jdx.kotlin.diff
    reads), linked to `owner`'s JVM members."""
    from jdx.kotlin.render import render_function, render_property, render_type

    if meta is None:
        return []
    decls = meta.klass or meta.package
    if decls is None:
        return []
    out = []
    for f in decls.functions:
        out.append({"owner": owner, "kind": "function", "name": f.name, "visibility": f.visibility,
                    "flags": ["suspend"] if f.suspend else [], "signature": render_function(f),
                    "detail": {"receiver": render_type(f.receiver, True) if f.receiver else None,
                               "returns": render_type(f.return_type, True),
                               "parameters": [{"name": p.name, "type": render_type(p.type, True),
                                               **({"default": True} if p.declares_default else {})}
                                              for p in f.parameters]},
                    "jvm": [f"method:{owner}#{f.jvm[0]}{f.jvm[1]}"] if f.jvm else []})
    for p in decls.properties:
        jvm = [f"getter:{owner}#{p.jvm_getter[0]}{p.jvm_getter[1]}"] if p.jvm_getter else []
        out.append({"owner": owner, "kind": "property", "name": p.name, "visibility": p.visibility,
                    "flags": ["var"] if p.var else [], "signature": render_property(p),
                    "detail": {"receiver": render_type(p.receiver, True) if p.receiver else None,
                               "type": render_type(p.return_type, True)}, "jvm": jvm})
    return out


def _jvm_key(row: dict) -> str | None:
    for link in row["jvm"]:
        return link.split("#", 1)[1]
    return None


class KotlinDiff:
    def pair_members(self, old_type, new_type, removed, added, sides):
        if not old_type.kotlin or not new_type.kotlin:
            return [], removed, added
        from jdx.kotlin.diff import _compare as compare_pair
        from jdx.kotlin.diff import _shape as shape

        old_rows, new_rows = _type_rows(old_type, sides[0]), _type_rows(new_type, sides[1])
        by_old = {_jvm_key(r): r for r in old_rows if _jvm_key(r)}
        by_new = {_jvm_key(r): r for r in new_rows if _jvm_key(r)}
        gone = {m.name + m.descriptor: m for m in removed if not m.is_field}
        came = {m.name + m.descriptor: m for m in added if not m.is_field}
        olds: dict[tuple, list[dict]] = {}
        news: dict[tuple, list[dict]] = {}
        for k in gone:
            if k in by_old:
                olds.setdefault(shape(by_old[k]), []).append(by_old[k])
        for k in came:
            if k in by_new:
                news.setdefault(shape(by_new[k]), []).append(by_new[k])
        out, used_old, used_new = [], set(), set()
        for key, before in olds.items():
            after = news.get(key)
            if not after or len(before) != 1 or len(after) != 1:
                continue  # an ambiguous bucket is never paired (spec §3.3)
            found = [f for f in compare_pair(key[0], before[0], after[0]) if f.rule in _PAIRED]
            if not found:
                continue
            om, nm = gone[_jvm_key(before[0])], came[_jvm_key(after[0])]
            used_old.add(id(om))
            used_new.add(id(nm))
            # the engine offers only removals nothing else resolves: the old JVM method is gone (breaking)
            out += [Finding(f.rule, member_ref(om), kind_of(om), member_form(om), member_form(nm),
                            f"{f.detail}; {_GONE}; Kotlin: {f.declaration}", member_id(om)) for f in found]
        return (out, [m for m in removed if id(m) not in used_old], [m for m in added if id(m) not in used_new])

    def compare_members(self, old, new, sides):
        return []

    def compare_types(self, old, new, sides):
        if not old.kotlin or not new.kotlin:
            return []
        from jdx.kotlin.diff import kotlin_findings

        new_rows = _type_rows(new, sides[1])
        out = []
        for f in kotlin_findings(_type_rows(old, sides[0]), new_rows):
            if f.rule in _PAIRED:
                continue  # a JVM rename: pair_members reports it in place of a removal and an addition
            row = next((r for r in new_rows if r["signature"] == f.declaration), None)
            key = _jvm_key(row) if row else None
            symbol = f"{old.name.replace('/', '.')}#{row['name'] if row else ''}"
            out.append(Finding(f.rule, symbol, "method" if key and "(" in key else "field", None,
                               f.declaration, f.detail, f"{old.name}#{key}" if key else old.name))
        return out


register(KotlinDiff())
