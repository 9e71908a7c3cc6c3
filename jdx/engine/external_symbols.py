"""Symbols the workspace's code references but none of its artifacts declares (external nodes: a type whose artifact
is missing, or a member a workspace type inherits from a supertype the workspace lacks): `usages`/`callers` answer
their sites with a note saying so (`external_notes`), and a miss says the name is external instead of offering
unrelated near names."""

from __future__ import annotations

import shlex

from jdx.engine import descriptors as d
from jdx.engine.refs import SymbolRef, format_member, format_type, matches_params
from jdx.engine.relations import Symbol, Target, type_target
from jdx.engine.resolve import external_candidate, external_type_named, lookup_type
from jdx.errors import AmbiguousError, NotFoundError, UsageError
from jdx.graph_schema import queries, queries_graph
from jdx.graph_schema.store import GraphStore


def external_symbol(store: GraphStore, text: str, ref, members_only: bool) -> Symbol | None:
    """The external type, or the external members, a reference names (each reading of `a.b.C.name` in turn), None when
    there are none: the members only calls, reads and writes name (their owner's artifact is missing, or a workspace
    type inherits them from a supertype the workspace lacks), matched as declared ones are."""
    for reading in ref.alternatives() if ref.member is None else (ref,):
        if reading.member is None:
            row = None if members_only else external_type(store, reading)
            if row is not None:
                return Symbol(text, row, [type_target(row)], external=True)
            continue
        owner, found = external_members(store, reading)
        if members_only and found and all(e["is_field"] for e in found):
            raise UsageError(f"{text!r} names a field; this command takes a method "
                             f"(for fields: jdx usages {shlex.quote(text)})")
        entries = [e for e in found if not (members_only and e["is_field"])]
        if entries:
            return Symbol(text, owner, [external_target(owner, e) for e in entries], external=True)
        if owner is not None and owner.get("external"):
            raise _external_member_miss(store, text, reading, owner, members_only)
    return None


def external_reference_miss(store: GraphStore, text: str) -> NotFoundError | None:
    """The not-found of a name `resolve` finds no declaration of, when it names an external symbol (a type the
    workspace references, or a member it names on one): it says so and points at `usages`; None otherwise."""
    from jdx.engine.refs import parse_ref
    from jdx.errors import RefSyntaxError

    try:
        symbol = external_symbol(store, text, parse_ref(text), False)
    except (RefSyntaxError, UsageError):
        return None
    except NotFoundError as exc:  # an external type without the member named: its own miss
        return exc
    if symbol is None:
        return None
    miss = external_miss(text, format_type(symbol.type_row["id"]), text)
    if symbol.is_type and symbol.type_row["fqn"] != text:  # `ReferenceCountUtil`: the external type, a candidate
        miss.candidates = [external_candidate(symbol.type_row)]
    return miss


def external_target(owner: dict, entry: dict) -> Target:
    row = entry["row"]
    return Target(row["id"], format_member(owner["id"], row["name"], row["descriptor"], is_field=entry["is_field"]),
                  entry["kind"], row)


def _external_member_miss(store: GraphStore, text: str, ref, owner: dict, methods_only: bool) -> NotFoundError:
    """`Ext#nope` where Ext is external: the members the workspace names on it are all there is to suggest (those of
    the name first), never "no type Ext"."""
    every = sorted((e for e in external_members_of(store, owner["id"]) if not (methods_only and e["is_field"])),
                   key=lambda e: e["row"]["name"] != ref.member)
    name = format_type(owner["id"])
    why = "none of the members the workspace names on it fits" if every else "the workspace names none of its members"
    return NotFoundError(f"not found: {text} ({name} is external: its artifact is not in the workspace; {why})",
                         candidates=[{"ref": external_target(owner, e).ref, "kind": e["kind"]} for e in every[:5]])


def external_notes(symbol: Symbol) -> list[str]:
    """The note an answer about an external symbol carries: what the workspace lacks, and what its sites are."""
    if not symbol.external:
        return []
    t = symbol.targets[0]
    if symbol.is_type:
        return [f"{t.ref} is external: no artifact of the workspace declares it (its artifact is missing), so its "
                "declaration, members and supertypes are unknown; these are the workspace's references to it"]
    owner = format_type(symbol.type_row["id"])
    name = t.ref if len(symbol.targets) == 1 else f"{owner}#{t.row['name']}"
    unknown = "modifiers, constant value" if t.is_field else "modifiers, what it overrides"
    if symbol.type_row.get("external"):
        return [f"{name} is external: {owner} is in no artifact of the workspace (its artifact is missing), so its "
                f"declaration ({unknown}) is unknown; these are the workspace's sites naming it, as the bytecode does"]
    return [f"{name} is external: {owner} does not declare it (a supertype the workspace lacks may), so its "
            f"declaration is unknown; these are the workspace's sites naming it through {owner}"]


def external_miss(text: str, fqn: str, asked: str) -> NotFoundError:
    """Not-found of a type (or a member of one) the workspace's code references but none of its artifacts declares."""
    return NotFoundError(f"not found: {text} ({fqn} is external: the workspace's code references it, but its artifact "
                         "is not in the workspace)",
                         hint=f"jdx usages {shlex.quote(asked)} lists the workspace's sites naming it")


def external_type(store: GraphStore, ref: SymbolRef) -> dict | None:
    """The Type row of the external node `ref` names: a type the workspace's code references but none of its artifacts
    declares (its artifact is missing), by its qualified name or a short one (resolve.external_type_named:
    AmbiguousError when several have it); None when there is none, or the name is declared (`resolve.lookup_type`,
    tried first)."""
    if ref.coord or ref.is_glob or ref.is_package_glob:
        return None
    for fqn in ref.type_candidates():
        rows = store.rows_cached(queries.TYPE_BY_ID, {"id": fqn.replace(".", "/")})
        if rows:
            return {k[2:]: v for k, v in rows[0].items()} if rows[0]["t.external"] else None
    return external_type_named(store, ref)  # `ReferenceCountUtil`: a short name of one


def external_members(store: GraphStore, ref: SymbolRef) -> tuple[dict | None, list[dict]]:
    """(the owner's Type row, the external member nodes of it that `ref` names): members the workspace's calls, reads
    and writes name on a type whose artifact is missing, or on a workspace type that does not declare them (a
    supertype's artifact is missing), matched by name and, when written, parameters, descriptor or field type, as
    declared members are. Each is `{row, is_field, kind}`; (None, []) when the owner is neither declared nor
    external."""
    if ref.coord or ref.member is None or ref.is_glob:
        return None, []
    try:
        owner = lookup_type(store, ref, str(ref))
    except AmbiguousError:
        owner = None
    owner = owner or external_type(store, ref)
    if owner is None:
        return None, []
    every = external_members_of(store, owner["id"])
    name = ref.member
    if name == d.simple_name_of(owner["id"]) and all(e["row"]["name"] != name for e in every):
        name = "<init>"  # `Foo#Foo(int)`: the constructor, as in Java
    return owner, [e for e in every if e["row"]["name"] == name and _fits(ref, e["row"]["descriptor"], e["is_field"])]


def external_members_of(store: GraphStore, owner_id: str) -> list[dict]:
    """Every external member node of a type (`{row, is_field, kind}`): methods, then fields, by id."""
    out = []
    for is_field, query in ((False, queries_graph.EXTERNAL_METHODS_OF), (True, queries_graph.EXTERNAL_FIELDS_OF)):
        for row in store.rows(query, {"owner": owner_id}):
            kind = "field" if is_field else {"<init>": "constructor", "<clinit>": "initializer"}.get(row["name"],
                                                                                                    "method")
            out.append({"row": row, "is_field": is_field, "kind": kind})
    return out


def _fits(ref: SymbolRef, descriptor: str, is_field: bool) -> bool:
    """Does a member reference fit an external member's descriptor? Parentheses name methods, `name:Type` a field; an
    external member's flags are unknown (no varargs), and it has no generic signature."""
    if ref.params is None and ref.return_type is None and ref.descriptor is None:
        return True
    if is_field != (ref.params is None and ref.descriptor is None):
        return False
    return matches_params(ref, descriptor)
