"""The Kotlin rules of spec §7.7 as a diff extension (extensions.py): the types' `@Metadata` decoded with
`jdx.kotlin`, declarations paired by class, kind, Kotlin name, arity and receiver (jdx.kotlin.diff).

`pair_members` turns a JVM removal + addition of one Kotlin declaration into `KOTLIN_NAME_CHANGED`
(@JvmName, internal mangling) or `KOTLIN_SUSPEND_CHANGED`, both breaking: the engine offers it only removals whose
old JVM name and descriptor nothing resolves any more; `compare_types` adds nullability, default
arguments, parameter names, val→var and Kotlin types changed behind one JVM descriptor (KOTLIN_TYPE_CHANGED).
Unreadable metadata contributes nothing (the JVM findings stand).
"""

from __future__ import annotations

from jdx.engine.diff.extensions import register
from jdx.engine.diff.findings import Finding
from jdx.engine.diff.forms import member_form, member_id, member_ref
from jdx.engine.diff.kotlin_visibility import decoded_metadata
from jdx.engine.diff.members import kind_of, overridable
from jdx.engine.diff.rules import INFO

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
                    "types": (f.receiver, [p.type for p in f.parameters], f.return_type),
                    "jvm": [f"method:{owner}#{f.jvm[0]}{f.jvm[1]}"] if f.jvm else []})
    for p in decls.properties:
        jvm = [f"getter:{owner}#{p.jvm_getter[0]}{p.jvm_getter[1]}"] if p.jvm_getter else []
        out.append({"owner": owner, "kind": "property", "name": p.name, "visibility": p.visibility,
                    "flags": ["var"] if p.var else [], "signature": render_property(p),
                    "detail": {"receiver": render_type(p.receiver, True) if p.receiver else None,
                               "type": render_type(p.return_type, True)},
                    "types": (p.receiver, [], p.return_type), "jvm": jvm})
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
        return out + _type_changes(old, _type_rows(old, sides[0]), new_rows, sides) + _made_sealed(old, new, sides)


def _made_sealed(old, new, sides) -> list[Finding]:
    """KOTLIN_MADE_SEALED: a Kotlin class or interface sealed in the new metadata and not in the old, whose class file
    has no PermittedSubclasses (TYPE_MADE_SEALED's case): the JVM and javac do not see it, kotlinc does
    (kotlinx.coroutines 1.6.4 -> 1.7.3's `SelectBuilder`)."""
    before, after = decoded_metadata(sides[0], old.name), decoded_metadata(sides[1], new.name)
    if before is None or after is None or before.klass is None or after.klass is None:
        return []
    if after.klass.modality != "sealed" or before.klass.modality == "sealed" or new.name in sides[1].sealed:
        return []
    from jdx.engine.diff.forms import type_form, type_ref

    who = "implement" if after.klass.kind == "interface" else "extend"
    return [Finding("KOTLIN_MADE_SEALED", type_ref(old.name), old.kind, type_form(old), type_form(new),
                    f"Kotlin code outside its module can no longer {who} it (kotlinc refuses); compiled "
                    f"{who}ers and Java sources still work: its class file has no PermittedSubclasses", old.name)]


# KOTLIN_TYPE_CHANGED's note: the JVM descriptor is the same, so nothing compiled notices
_SAME_DESCRIPTOR = "same JVM descriptor: compiled callers, Java or Kotlin, still link and run"


def _type_changes(old, old_rows: list[dict], new_rows: list[dict], sides) -> list[Finding]:
    """KOTLIN_TYPE_CHANGED: a declaration whose JVM method (getter) and its generic signature are the same on both
    sides while its Kotlin types (receiver, parameters, return) are not: kotlinc erased both to one JVM type (an
    `expect`/`actual` pair, a Kotlin-only supertype, a mapped type) or the JVM view already says nothing. Nullability
    alone is KOTLIN_NULLABILITY_CHANGED's; a type alias expanding to the same type is no change."""
    from jdx.kotlin.diff import _shape as shape

    buckets: dict[tuple, tuple[list[dict], list[dict]]] = {}
    for side, rows in enumerate((old_rows, new_rows)):
        for r in rows:
            if r["visibility"] in ("public", "protected") and _jvm_key(r):
                buckets.setdefault(shape(r), ([], []))[side].append(r)
    out = []
    for before, after in buckets.values():
        if len(before) != 1 or len(after) != 1 or _jvm_key(before[0]) != _jvm_key(after[0]):
            continue  # gone, added, ambiguous (spec §3.3) or another JVM descriptor: the JVM findings tell it
        member = _jvm_member(old, _jvm_key(before[0]))
        new_member = _jvm_member(sides[1].types.get(old.name), _jvm_key(after[0]))
        if member is None or new_member is None or member.signature != new_member.signature:
            continue  # GENERIC_SIGNATURE_CHANGED (or the JVM comparison) tells it
        found = _type_change(old, before[0], after[0], member, sides)
        if found is not None:
            out.append(found)
    return out


def _jvm_member(t, key: str):
    return None if t is None else next((m for m in t.members.values() if not m.is_field
                                        and m.name + m.descriptor == key), None)


def _type_change(old, o: dict, n: dict, member, sides) -> Finding | None:
    from jdx.kotlin.render import render_type

    (orecv, oparams, oret), (nrecv, nparams, nret) = o["types"], n["types"]
    changes = []
    if _type_key(orecv) != _type_key(nrecv):
        changes.append(f"receiver: {_shown(orecv)} -> {_shown(nrecv)}")
    for i, (a, b) in enumerate(zip(oparams, nparams)):
        if _type_key(a) != _type_key(b):
            name = n["detail"]["parameters"][i]["name"]
            changes.append(f"parameter {name}: {render_type(a, True)} -> {render_type(b, True)}")
    returned = _type_key(oret) != _type_key(nret)
    if returned:
        what = "type" if n["kind"] == "property" else "return"
        changes.append(f"{what}: {render_type(oret, True)} -> {render_type(nret, True)}")
    if not changes:
        return None
    detail, rated = "; ".join(changes), ""
    if returned and len(changes) == 1 and "var" not in n["flags"] and _subtype(nret, oret, sides[1]):
        if overridable(member, old, sides[0]):
            detail += ("; narrowed to a subtype: Kotlin callers still compile, a Kotlin override declaring the old "
                       "type no longer does")
        else:
            detail += ("; narrowed to a subtype, on a member nothing outside the artifact can override: Kotlin "
                       "sources still compile (rated info, not suspicious)")
            rated = INFO
    else:
        detail += "; Kotlin sources written against the old types may no longer compile"
    return Finding("KOTLIN_TYPE_CHANGED", f"{old.name.replace('/', '.')}#{n['name']}", kind_of(member),
                   o["signature"], n["signature"], f"{detail}; {_SAME_DESCRIPTOR}", member_id(member), rated=rated)


def _shown(t) -> str:
    from jdx.kotlin.render import render_type

    return "(none)" if t is None else render_type(t, True)


def _type_key(t, top: bool = True):
    """A Kotlin type's identity as callers see it: type aliases expanded, the top-level nullability left out
    (KOTLIN_NULLABILITY_CHANGED's), a platform type's flexibility and function types' parameter names ignored."""
    if t is None:
        return None
    return (t.classifier, t.kind, tuple((p, _type_key(a, False)) for p, a in t.arguments), t.nullable and not top,
            t.suspend, t.definitely_non_null, t.extension_function, _type_key(t.outer, False))


# Kotlin's mutable collection types and the read-only ones they extend: both erase to one java.util interface
_MUTABLE = {f"kotlin/collections/Mutable{n}": f"kotlin/collections/{n}"
            for n in ("Iterable", "Collection", "List", "Set", "Map", "Iterator", "ListIterator")}
_MUTABLE["kotlin/collections/MutableMap.MutableEntry"] = "kotlin/collections/Map.Entry"


def _subtype(sub, sup, side) -> bool:
    """Whether Kotlin class type `sub` is a proper subtype of `sup` by `side`'s class hierarchy (type arguments
    equal); False when it cannot be told (a type parameter, a class the side does not hold)."""
    if sub is None or sup is None or sub.kind != "class" or sup.kind != "class" or sub.arguments != sup.arguments:
        return False
    if sup.classifier == "kotlin/Any":
        return sub.classifier != "kotlin/Any"
    if _MUTABLE.get(sub.classifier) == sup.classifier:
        return True  # a mutable collection type: one JVM interface, a Kotlin subtype of the read-only one
    jvm = sub.classifier.replace(".", "$")
    return jvm in side.types and sup.classifier.replace(".", "$") in side.ancestors(jvm)[0]


register(KotlinDiff())
