"""Kotlin names in member references (spec §6, §12.1): the JVM name a Kotlin name of a class compiles to (a
property's getter, a function's @JvmName), and a bare `Type#name` naming a property answered by every JVM member
of it (getter, setter, field)."""

from __future__ import annotations

from jdx.engine.kotlin_view import decls_of, member_kotlin, member_ref

_MAIN_ROLES = ("method", "getter", "field", "facade")


def jvm_name_of(store, type_id: str, kotlin_name: str, text: str) -> str | None:
    """The JVM member name a Kotlin name of this class compiles to (a property's getter, or its field when it
    has none; a function's @JvmName), None when no declaration has that name; several JVM names for one
    Kotlin name is an ambiguity, never a guess (spec §6)."""
    from jdx.errors import AmbiguousError

    names: dict[str, str] = {}
    for d in decls_of(store, type_id):
        if d["name"] != kotlin_name or d["kind"] not in ("function", "property"):
            continue
        links = [link.split(":", 1) for link in d["jvm"] or ()]
        for role in _MAIN_ROLES:
            target = next((t for r, t in links if r == role and t.split("#", 1)[0] == type_id), None)
            if target is not None:
                rest = target.split("#", 1)[1]
                name = rest.split("(", 1)[0] if "(" in rest else rest.split(":", 1)[0]
                names.setdefault(name, member_ref(target))
                break
    if len(names) > 1:
        raise AmbiguousError(f"{text}: the Kotlin name {kotlin_name!r} compiles to {len(names)} JVM names",
                             candidates=[{"ref": r, "kind": "member"} for _, r in sorted(names.items())])
    return next(iter(names), None)


_PROPERTY_ROLES = ("getter", "setter", "field")  # the order a property's members are listed in


def member_id(entry: dict) -> str:
    """The graph id of a collected member: `a/B#m(I)V`, `a/B#f:I`."""
    row = entry["row"]
    return f"{entry['declaring']}#{row['name']}{':' if entry['is_field'] else ''}{row['descriptor']}"


def property_members(store, found: list[dict], visible: list[dict], name: str,
                      methods: dict) -> tuple[list[dict], list[str]]:
    """(members, notes) of a bare `Type#name` of a Kotlin class: when `name` is a property's Kotlin name, the members
    found give way to every member the type has of the property: its getter, setter and field, in that order
    (`Box#size` is `getSize()` beside the private field `size`, so `callers` and `usages` reach the getter's calls),
    where the first of them was found; a JVM name (`Box#getSize`), a parameter list or a type keeps its JVM
    meaning. A Java class, or a name several declarations share, is unchanged."""
    from jdx.engine.member_resolve import canonical_ref

    ids = [member_id(e) for e in found]
    decls = member_kotlin(store, ids)
    props = {rows[0]["id"]: rows[0] for rows in (decls.get(i) for i in ids) if rows
             and rows[0]["kind"] == "property" and rows[0]["role"] in _PROPERTY_ROLES and rows[0]["name"] == name}
    if len(props) != 1:
        return found, []
    decl = next(iter(props.values()))
    links = [link.split(":", 1) for link in decl["jvm"] or ()]
    by_id = {member_id(e): e for e in visible}
    roles = {t: role for role in _PROPERTY_ROLES for r, t in links if r == role and t in by_id}
    group = [by_id[t] for t in roles]
    out: list[dict] = []
    for e, i in zip(found, ids):
        if i not in roles:
            out.append(e)
        elif group:
            out += group  # the property where its first member was found
            group = []
    added = [f"{roles[i]} {canonical_ref(by_id[i], methods.get(by_id[i]['declaring']), methods)}"
             for i in roles if i not in ids]
    if not added:
        return out, []
    return out, [f"{name} is a Kotlin property: the answer includes its {', '.join(added)} (a ref with parameters "
                 "or a type names one JVM member)"]

