"""Kotlin names in member references (spec §6, §12.1): the JVM name a Kotlin name of a class compiles to (a
property's getter, a function's @JvmName), and a bare `Type#name` naming a property answered by every JVM member
of it (getter, setter, field)."""

from __future__ import annotations

from jdx.engine.kotlin_view import decls_of, member_kotlin, member_ref

_MAIN_ROLES = ("method", "getter", "field", "facade")


def jvm_name_of(store, type_id: str, kotlin_name: str, text: str, entries: list[dict] | None = None) -> str | None:
    """The JVM member name a Kotlin name of this class compiles to (a property's getter, or its field when it
    has none; a function's @JvmName), None when no declaration has that name. `entries` (the class's collected
    members) adds the declarations of its supertypes (`Sub#count`, Kotlin's `sub.count` of `Base`'s property). A
    property's name comes first: the functions sharing its Kotlin name join by their own JVM names
    (`member_resolve_kotlin.renamed_functions`), its other members by `property_members`; several JVM names for
    one Kotlin name otherwise is an ambiguity, never a guess (spec §6)."""
    from jdx.errors import AmbiguousError

    ours = _member_ids(entries) if entries is not None else None
    names: dict[str, dict[str, str]] = {"property": {}, "function": {}}
    for d in named_decls(store, [type_id] if entries is None else _owners(entries), kotlin_name):
        links = [link.split(":", 1) for link in d["jvm"] or ()]
        for role in _MAIN_ROLES:
            target = next((t for r, t in links if r == role and (t in ours if ours is not None
                                                                 else t.split("#", 1)[0] == type_id)), None)
            if target is not None:
                names[d["kind"]].setdefault(_jvm_name(target), member_ref(target))
                break
    found = names["property"] if len(names["property"]) == 1 else {**names["function"], **names["property"]}
    if len(found) > 1:
        raise AmbiguousError(f"{text}: the Kotlin name {kotlin_name!r} compiles to {len(found)} JVM names",
                             candidates=[{"ref": r, "kind": "member"} for _, r in sorted(found.items())])
    return next(iter(found), None)


def named_decls(store, owners, kotlin_name: str) -> list[dict]:
    """The Kotlin functions and properties named `kotlin_name` the classes `owners` (internal names) declare, in
    the owners' order."""
    return [d for owner in owners for d in decls_of(store, owner)
            if d["name"] == kotlin_name and d["kind"] in ("function", "property")]


def _owners(entries: list[dict]) -> list[str]:
    return list(dict.fromkeys(e["declaring"] for e in entries))


def _member_ids(entries: list[dict]) -> set[str]:
    return {member_id(e) for e in entries}


def _jvm_name(target: str) -> str:
    """`a/B#getX()I` -> `getX`, `a/B#x:I` -> `x`."""
    rest = target.split("#", 1)[1]
    return rest.split("(", 1)[0] if "(" in rest else rest.split(":", 1)[0]


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
    where the first of them was found, or after the functions of the name found (`fun size()` beside `val size`,
    whose getter is `getSize()`); a JVM name (`Box#getSize`), a parameter list or a type keeps its JVM meaning. A
    Java class, or a name several properties share, is unchanged."""
    from jdx.engine.member_resolve import canonical_ref

    ids = [member_id(e) for e in found]
    decl = _found_property(store, ids, name) or _property_of(store, visible, name)
    if decl is None:
        return found, []
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
    out += group  # none found: the property after the functions of its name
    added = [f"{roles[i]} {canonical_ref(by_id[i], methods.get(by_id[i]['declaring']), methods)}"
             for i in roles if i not in ids]
    if not added:
        return out, []
    return out, [f"{name} is a Kotlin property: the answer includes its {', '.join(added)} (a ref with parameters "
                 "or a type names one JVM member)"]


def _found_property(store, ids: list[str], name: str) -> dict | None:
    """The one Kotlin property named `name` the members found compile from (a getter, setter or field of it)."""
    decls = member_kotlin(store, ids)
    props = {rows[0]["id"]: rows[0] for rows in (decls.get(i) for i in ids) if rows
             and rows[0]["kind"] == "property" and rows[0]["role"] in _PROPERTY_ROLES and rows[0]["name"] == name}
    return next(iter(props.values())) if len(props) == 1 else None


def _property_of(store, visible: list[dict], name: str) -> dict | None:
    """The one Kotlin property named `name` with a getter, setter or field among the class's members (its own or a
    supertype's), when none was found by that name: `val size` whose getter is `getSize()`, beside `fun size()`."""
    ours = _member_ids(visible)
    props = [d for d in named_decls(store, _owners(visible), name) if d["kind"] == "property"
             and any(r in _PROPERTY_ROLES and t in ours for r, t in (link.split(":", 1) for link in d["jvm"] or ()))]
    return props[0] if len(props) == 1 else None


def delegate_field(field_id: str) -> str | None:
    """The name of a delegated property's field (`x$delegate`, kotlinc's for `val x by lazy {}`), which holds its
    delegate; None for a backing field."""
    name = field_id.split("#", 1)[1].split(":", 1)[0]
    return name if name.endswith("$delegate") else None


def delegate_note(fields) -> str:
    """What a delegated property's field accesses are (`usages`), when one of its `fields` holds its delegate."""
    delegates = [n for n in map(delegate_field, fields) if n]
    return (f"; its field {delegates[0]} holds its delegate: writing it creates the delegate (the constructor's or "
            "<clinit>'s `by` expression), not a write of the property") if delegates else ""
