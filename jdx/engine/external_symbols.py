"""Symbols the workspace's code references but none of its artifacts declares (external nodes: a type whose artifact
is missing, or a member a workspace type inherits from a supertype the workspace lacks): `usages`/`callers` answer
their sites with a note saying so (`external_notes`), and a miss says the name is external instead of offering
unrelated near names."""

from __future__ import annotations

import os
import shlex

from jdx.engine import descriptors as d
from jdx.engine.refs import SymbolRef, format_member, format_type, matches_params
from jdx.engine.relations import Artifacts, Symbol, Target, type_target
from jdx.engine.resolve import external_candidate, external_type_named, lookup_type
from jdx.errors import AmbiguousError, NotFoundError, UsageError
from jdx.graph_schema import queries, queries_graph, queries_search
from jdx.graph_schema.store import GraphStore, artifact_rows


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


def external_notes(symbol: Symbol, store: GraphStore | None = None) -> list[str]:
    """The note an answer about an external symbol carries: what the workspace lacks, and what its sites are. A member
    the loaded copy of its class lacks while a shadowed copy declares it (`store` given) is no unknown: its calls
    fail on this classpath (`shadowed_declarers`), and the note says so, naming both copies."""
    if not symbol.external:
        return []
    t = symbol.targets[0]
    unread = unread_class_file(store, symbol.type_row["id"]) if store is not None and (
        symbol.is_type or symbol.type_row.get("external")) else None
    if symbol.is_type:
        why = f"its class file {unread} could not be read" if unread else \
            "no artifact of the workspace declares it (its artifact is missing)"
        return [f"{t.ref} is external: {why}, so its declaration, members and supertypes are unknown; these are the "
                "workspace's references to it"]
    owner = format_type(symbol.type_row["id"])
    name = t.ref if len(symbol.targets) == 1 else f"{owner}#{t.row['name']}"
    unknown = "modifiers, constant value" if t.is_field else "modifiers, what it overrides"
    if symbol.type_row.get("external"):
        why = f"the class file of {owner}, {unread}, could not be read" if unread else \
            f"{owner} is in no artifact of the workspace (its artifact is missing)"
        return [f"{name} is external: {why}, so its declaration ({unknown}) is unknown; these are the workspace's "
                "sites naming it, as the bytecode does"]
    missing = [(x, shadowed_declarers(store, x.id, x.is_field)) for x in symbol.targets] if store is not None else []
    notes = [missing_member_note(x.ref, owner, found, x.is_field) for x, found in missing if found]
    if len(notes) == len(symbol.targets):
        return notes
    return notes + [f"{name} is external: {owner} does not declare it (a supertype the workspace lacks may), so its "
                    f"declaration is unknown; these are the workspace's sites naming it through {owner}"]


def unread_class_file(store: GraphStore, type_id: str) -> str | None:
    """The class file of a type the graph does not declare (`type_id`, its internal name) in one of the workspace's
    class directories: the build met it and could not read it (CORRUPT_CLASS, UNSUPPORTED_CLASS_VERSION, an
    oversized file), so the type is not missing from the workspace, and a rebuild, not a dependency, brings it back.
    None when no class directory holds it (jars are not opened: their unread entries are only the build's
    warnings)."""
    for row in artifact_rows(store):
        folder = row["a.path"] or ""
        path = os.path.join(folder, *type_id.split("/")) + ".class"
        if folder and os.path.isdir(folder) and os.path.isfile(path):
            return path
    return None


def shadowed_declarers(store: GraphStore, member_id: str, is_field: bool) -> list[dict]:
    """The shadowed copies of a loaded class that declare a member it lacks (`Owner#name`, an external node of a
    declared Owner: an earlier artifact's older copy shadows a later one that has it), in classpath order, each
    `{ref, artifact, loaded}`: the member's reference in that copy, the copy's artifact, the loaded copy's. The JVM
    links a call naming `Owner#name` to the loaded copy and fails (NoSuchMethodError, NoSuchFieldError). [] for any
    other member, or when no shadowed copy declares it."""
    from jdx.engine.rel_sites import element_ref

    owner, _, rest = member_id.partition("#")
    if "@" in owner or not rest:
        return []
    copies = store.rows_cached(queries_search.TYPE_COPIES, {"name": owner})
    loaded = next((c for c in copies if not c["shadowed"]), None)
    if loaded is None or len(copies) < 2:
        return []
    arts = Artifacts.of(store)
    query = queries_graph.FIELD_EXTERNAL if is_field else queries_graph.METHOD_EXTERNAL
    out = []
    for c in sorted((c for c in copies if c["shadowed"]), key=lambda c: arts.position(c["artifact"])):
        copy_member = f"{c['id']}#{rest}"
        rows = store.rows(query, {"id": copy_member})
        if rows and not rows[0]["external"]:
            out.append({"ref": element_ref("Field" if is_field else "Method", copy_member),
                        "artifact": arts.name(c["artifact"]), "loaded": arts.name(loaded["artifact"])})
    return out


def link_error(is_field: bool) -> str:
    return "NoSuchFieldError" if is_field else "NoSuchMethodError"


def missing_member_note(ref: str, owner: str, found: list[dict], is_field: bool) -> str:
    """What a member the loaded copy of its class lacks is (`shadowed_declarers` found it in a shadowed copy)."""
    where = ", ".join(f"{f['artifact']} ({f['ref']})" for f in found)
    return (f"{ref} is missing from the copy of {owner} the JVM loads ({found[0]['loaded']}); the shadowed "
            f"cop{'ies' if len(found) > 1 else 'y'} in {where} declare{'' if len(found) > 1 else 's'} it: the calls "
            f"listed name it and would fail on this classpath ({link_error(is_field)})")


def shadowed_member_miss(store: GraphStore, text: str, ref: SymbolRef) -> NotFoundError | None:
    """The not-found of `Owner#name` when the loaded Owner lacks it and a shadowed copy of Owner declares it (the
    workspace's code names it: `signature`, `resolve`): the shadowed copies' references are its candidates (marked
    shadowed), DUPLICATE_CLASS its warning, and the message says which copy the JVM loads; None otherwise."""
    from jdx.engine.imports import duplicate_class_warnings

    owner, entries = external_members(store, ref)
    if owner is None or owner.get("external"):
        return None
    found = [(e, f) for e in entries for f in shadowed_declarers(store, e["row"]["id"], e["is_field"])] or \
        _declared_by_shadowed(store, owner["id"], ref)
    if not found:
        return None
    name, (entry, first) = format_type(owner["id"]), found[0]
    return NotFoundError(
        f"not found: {text} (the copy of {name} the JVM loads, in {first['loaded']}, does not declare it; the "
        f"shadowed copy in {first['artifact']} does, so calls naming it fail on this classpath: "
        f"{link_error(entry['is_field'])})",
        candidates=[{"ref": f["ref"], "kind": e["kind"], "artifact": f["artifact"], "shadowed": True}
                    for e, f in found],
        warnings=duplicate_class_warnings(store, name),
        hint=f"jdx signature {shlex.quote(first['ref'])} shows the shadowed copy's declaration; "
             f"jdx usages {shlex.quote(text)} lists the calls that would fail")


def _declared_by_shadowed(store: GraphStore, owner_id: str, ref: SymbolRef) -> list[tuple[dict, dict]]:
    """`shadowed_declarers`' pairs for a member no code of the workspace names (no external node): the shadowed
    copies of the loaded `owner_id` that declare a member `ref` names (guava 33's `ImmutableMultimap#builderWithExpected
    Keys` behind guava 31's class), as (entry, declarer) in classpath order."""
    from jdx.engine.rel_sites import element_ref

    copies = store.rows_cached(queries_search.TYPE_COPIES, {"name": owner_id})
    loaded = next((c for c in copies if not c["shadowed"]), None)
    if loaded is None or len(copies) < 2:
        return []
    arts = Artifacts.of(store)
    out = []
    for c in sorted((c for c in copies if c["shadowed"]), key=lambda c: arts.position(c["artifact"])):
        for is_field, query in ((False, queries.MEMBERS_OF), (True, queries.FIELDS_OF)):
            for row in store.rows(query, {"id": c["id"]}):
                row = {k.split(".", 1)[-1]: v for k, v in row.items()}
                if row["name"] != ref.member or not _fits(ref, row["descriptor"], is_field):
                    continue
                kind = "field" if is_field else "constructor" if row["name"] == "<init>" else "method"
                out.append(({"row": row, "is_field": is_field, "kind": kind},
                            {"ref": element_ref("Field" if is_field else "Method", row["id"]),
                             "artifact": arts.name(c["artifact"]), "loaded": arts.name(loaded["artifact"])}))
    return out


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
