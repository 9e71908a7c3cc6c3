"""imports (spec §7.2): the import statement for a type, or `import static` for a static member (declared or
inherited, JLS §8.3, §8.4.8, §9.3; static interface methods are not inherited, §9.4.1), with the access and
DUPLICATE_CLASS notes that decide whether it compiles."""

from __future__ import annotations

import json
import re
import shlex

from jdx.engine import descriptors as d
from jdx.engine.imports_access import (add_note, deprecated, importable_row, importable_type, kotlin_class,
                                      member_access_note, note_export, others_said, overloads_said, private_refusal,
                                      public_heirs, type_access_note, type_row)
from jdx.engine.kotlin_toplevel import (class_members, hidden_decls, importable_members, jvm_names, kotlin_decls,
                                       kotlin_imports, kotlin_package, member_decls, member_import, not_importable,
                                       top_level, top_level_by_jvm_name, top_level_decls, top_level_import)
from jdx.engine.kotlin_nested import companion_id
from jdx.engine.ranking import internal_packages, is_jdk_internal, symbol_key
from jdx.engine.refs import format_type, parse_ref
from jdx.engine.search_index import index_for
from jdx.engine.search import artifacts_by_id
from jdx.engine.search_nav import ACC_PRIVATE, ACC_PROTECTED, ACC_PUBLIC, ACC_STATIC, split_member, types_named
from jdx.errors import AmbiguousError, NotFoundError, UsageError, Warning_
from jdx.graph_schema import queries, queries_search
from jdx.graph_schema import queries_kotlin as qk
from jdx.graph_schema.store import GraphStore


def imports(store: GraphStore, text: str) -> tuple[dict, list[Warning_]]:
    """The import statement for a type (or `import static` for a static member), with duplicate warnings."""
    from jdx.engine.resolve import resolve_type

    text = text.strip()
    if not text:
        raise UsageError("imports needs a type, e.g. jdx imports Gson")
    owner_text, sep, member = split_member(text)
    if sep:
        try:
            owner, others = resolve_type(store, owner_text), ""
        except AmbiguousError as exc:
            owner, others = _only_owner_of(store, exc, member, text)
        answer, warnings = _static_import(store, owner, member)
        if others:
            add_note(answer["imports"][0], f"the only importable type named {owner_text} with a member named "
                                           f"{member} ({others})")
        return answer, warnings
    types = types_named(store, text)
    dropped: list[dict] = []
    if len(types) > 1:
        internal = internal_packages(store)
        # an import names a public type of an exported package: a package-private class or a JDK implementation
        # class is no candidate while one that can be imported exists
        importable = [t for t in types if importable_type(store, t["id"], internal)]
        if importable:
            dropped = _ranked(store, [t for t in types if t not in importable])
        if len(importable) == 1:
            answer, warnings = _type_import(store, type_row(store, importable[0]["id"]))
            if dropped:
                add_note(answer["imports"][0], f"the only importable type named {text} ("
                                               f"{others_said(store, [t['id'] for t in dropped], internal)})")
            return answer, warnings
        types = importable or types
    if len(types) > 1:
        raise _type_ambiguity(store, text, types, dropped)
    if not types:
        top = top_level(store, member, owner_text or None)
        if top:
            answer, warnings = _kotlin_named(store, text, top, _object_members(store, member) if not owner_text else [])
            # `typealias CancellationException` beside `fun CancellationException(...)`: one Kotlin import, both
            names = {e["kotlin_name"] for e in answer["imports"] if e.get("kotlin_name")}
            aliases = [a for a in _aliases(store, text) if format_type(a.id).replace("$", ".") in names]
            if aliases:
                answer["imports"] += _alias_import(store, text, aliases[:1])[0]["imports"]
            return answer, warnings
        # `fetchGreeting`: the JVM name of `@get:JvmName("fetchGreeting") val greeting` (a getter's, a @JvmName)
        if not _aliases(store, text):
            by_jvm = top_level_by_jvm_name(store, member, owner_text or None)
            if by_jvm:
                answer, warnings = top_level_import(store, text, by_jvm)
                for entry in answer["imports"]:
                    if entry.get("language") == "kotlin":
                        said = f"{member} is the JVM name of {entry['kotlin_name']}"
                        entry["note"] = said + (f"; {entry['note']}" if entry.get("note") else "")
                return answer, warnings
        # `toHttpUrl`, `HttpUrl.Companion.toHttpUrl`: a class member by its Kotlin name (its JVM name is another)
        owners = {t["id"] for t in types_named(store, owner_text)} if owner_text else None
        members = member_decls(store, member, owners) if owners is None or owners else []
        if members:
            return _member_import(store, text, members)
        if owners:  # `IOUtils.EOF`, `Channel.Factory.UNLIMITED`: a member by its dotted name (how `import static`
            try:    # writes it), as `Type#name`
                owner = resolve_type(store, owner_text)
            except AmbiguousError as exc:
                owner = _only_owner_of(store, exc, member, f"{owner_text}#{member}", or_none=True)[0]
            except NotFoundError:
                owner = None
            if owner is not None:
                try:
                    return _static_import(store, owner, member)
                except NotFoundError:
                    pass
        aliases = _aliases(store, text)
        if aliases:
            return _alias_import(store, text, aliases)
        statics = _static_owners(store, member) if not owner_text else []
        # `convert`, `parse`: an object's or a companion's member, whatever its JVM name (mangled, not static); the
        # static copy of one (@JvmStatic) is the same declaration
        objects = _object_members(store, member) if not owner_text else []
        hosts = {link.split(":", 1)[1].split("#", 1)[0] for x in objects for link in x["jvm"] or ()}
        statics = [t for t in statics if t["id"] not in hosts]
        if len(statics) == 1 and not objects:  # `wrappedBuffer`: a public static member by its bare name, as
            return _static_import(store, statics[0], member)  # `resolve` finds it
        if statics:
            raise _static_ambiguity(store, member, statics, objects)
        if objects:
            return _kotlin_named(store, text, [], objects)
        external = _external_type(store, text)
        if external is not None:
            return _external_import(external)
        return _type_import(store, _importable_type(store, text))  # raises not-found with did-you-mean
    found = store.rows_cached(queries.TYPE_BY_ID, {"id": types[0]["id"]})[0]
    return _type_import(store, {k[2:]: v for k, v in found.items()})


def _static_owners(store: GraphStore, name: str) -> list[dict]:
    """The Type rows of the types an `import static` can name a public static method or field `name` of (`resolve`'s
    reading of a bare name: declared members): public types, enclosed by public ones, outside the JDK's
    implementation packages; by type id."""
    internal = internal_packages(store)
    owners = sorted({r["owner"] for r in index_for(store).named(name) if r["kind"] in ("method", "field")
                     and r["pub"] and r["access"] & ACC_STATIC and not is_jdk_internal(r["owner"], internal)})
    rows = [{k[2:]: v for k, v in found[0].items()} for o in owners
            if (found := store.rows_cached(queries.TYPE_BY_ID, {"id": o}))]
    return [r for r in rows if importable_row(store, r)]


def _ranked(store: GraphStore, types: list[dict]) -> list[dict]:
    """Index rows of types (`id`, `access`, `artifact`) in the search ranking, each with `jdk_internal`
    (resolve.ranked_types)."""
    from jdx.engine.resolve import ranked_types

    return ranked_types(store, types)


def _type_ambiguity(store: GraphStore, text: str, types: list[dict], dropped: list[dict]) -> AmbiguousError:
    """Several types named `text`: each a candidate in the search ranking (a deprecated one after the others as
    usable), marked as `show`'s are (a JDK internal, not public) and as search marks a deprecated one; the ones no
    import can name left out (`dropped`) are counted, the first named."""
    arts = artifacts_by_id(store)
    said = f" ({others_said(store, [t['id'] for t in dropped], internal_packages(store))})" if dropped else ""
    importable = "importable " if dropped else ""
    return AmbiguousError(f"ambiguous: {len(types)} {importable}types named {text}{said}",
                          candidates=[_type_candidate(t, arts) for t in sorted(_ranked(store, types), key=lambda t: (
                              t["jdk_internal"], not t["access"] & ACC_PUBLIC, deprecated(t["access"]),
                              kotlin_class(store, t["id"])))],
                          hint="re-run with one of the candidates' refs")


def _type_candidate(t: dict, arts: dict[str, dict]) -> dict:
    out = {"ref": format_type(t["id"]), "kind": t["kind"], "artifact": arts.get(t["artifact"], {}).get("name", "")}
    if t["jdk_internal"]:
        out["jdk_internal"] = True
    elif not t["access"] & ACC_PUBLIC:
        out["public"] = False
    if deprecated(t["access"]):
        out["deprecated"] = True
    return out


def _static_ambiguity(store: GraphStore, name: str, owners: list[dict], objects: list[dict]) -> AmbiguousError:
    """Several types with a public static member `name` (or Kotlin objects' members `objects` beside): each
    `Type#name` a candidate, in the search ranking, then each object's Kotlin name (`_place_candidates`)."""
    arts = artifacts_by_id(store)
    internal = internal_packages(store)
    owners = sorted(owners, key=lambda t: (*symbol_key(t["id"], True, d.simple_name_of(t["id"]),
                                                       arts.get(t["artifact"], {}).get("rank", 0), internal), t["id"]))
    kinds: dict[str, str] = {}
    old: dict[str, bool] = {}  # deprecated: every static member of that name the type declares is
    for r in index_for(store).named(name):
        if r["kind"] in ("method", "field"):
            kinds.setdefault(r["owner"], r["kind"])
            if r["access"] & ACC_STATIC:
                old[r["owner"]] = old.get(r["owner"], True) and deprecated(r["access"])
    places = _places(store, objects)
    also = f" and {len(places)} Kotlin object{'s' if len(places) > 1 else ''} a member of that name" if places else ""
    return AmbiguousError(f"ambiguous: {len(owners)} types have a public static member named {name}{also}",
                          candidates=[{"ref": f"{format_type(t['id'])}#{name}", "kind": kinds.get(t["id"], "method"),
                                       "artifact": arts.get(t["artifact"], {}).get("name", ""),
                                       **({"deprecated": True} if old.get(t["id"]) else {})} for t in owners]
                          + _place_candidates(store, places),
                          hint="re-run with one of the candidates' refs")


def _external_type(store: GraphStore, text: str) -> dict | None:
    """The external type `text` names (qualified or not; AmbiguousError for a short name several have): one the
    workspace's code references but none of its artifacts declares."""
    from jdx.engine.external_symbols import external_type

    return external_type(store, parse_ref(text))


NEEDS_ARTIFACT = "code using it compiles only with that artifact on the classpath"


def _external_import(row: dict) -> tuple[dict, list[Warning_]]:
    """The import of an external type: its statement, with the note that its artifact is missing (what compiles
    against it needs that artifact); its declaration, so its access, is unknown."""
    fqn = row["fqn"]
    said = f"{fqn} is external: the workspace's code references it, but its artifact is not in the workspace"
    place = place_note(fqn, row.get("package") or "") or NEEDS_ARTIFACT
    entry = {"ref": fqn, "statement": f"import {fqn.replace('$', '.')};", "kind": row["kind"],
             "artifact": "(external)", "external": True, "note": f"{said}; {place}"}
    return {"type": fqn, "imports": [entry]}, []


NEAR_IMPORTABLE = 5  # did-you-mean of a miss: near names an import can name, of the NEAR_POOL nearest


def _importable_type(store: GraphStore, text: str) -> dict:
    """The type `text` names (resolve_type); its miss's did-you-mean keeps the NEAR_IMPORTABLE nearest names an import
    can name (`_importable_ref`) of the NEAR_POOL nearest (the types source files declare, unbuilt, are left as
    they are)."""
    from jdx.engine.resolve import NEAR_POOL, resolve_type

    try:
        return resolve_type(store, text, near=NEAR_POOL)
    except NotFoundError as miss:
        if not any("file" in c for c in miss.candidates):
            internal = internal_packages(store)
            miss.candidates = [c for c in miss.candidates
                               if _importable_ref(store, c["ref"], internal)][:NEAR_IMPORTABLE]
        raise


def _importable_ref(store: GraphStore, ref: str, internal: frozenset[str] | None) -> bool:
    """May an import name this near name: not a JDK implementation class nor a declared type `importable_row`
    rejects (`java.util.stream.SpinedBuffer`, package-private); an external type (the workspace's reference) may."""
    found = store.rows_cached(queries.TYPE_BY_ID, {"id": ref.replace(".", "/")})
    if not found or found[0]["t.external"]:
        return True
    return not is_jdk_internal(ref, internal) and importable_row(store, {k[2:]: v for k, v in found[0].items()})


def _aliases(store: GraphStore, text: str) -> list:
    """The Kotlin type aliases `text` names: a qualified name the alias of exactly that name when there is one."""
    from jdx.engine.search_aliases import aliases_named

    found = aliases_named(store, text)
    exact = [a for a in found if format_type(a.id).replace("$", ".") == text.replace("$", ".")]
    return exact or found


def _alias_import(store: GraphStore, text: str, aliases: list) -> tuple[dict, list[Warning_]]:
    """`imports demo.ShapeList`: a Kotlin type alias, imported by Kotlin as a class is (`import demo.ShapeList`).
    It compiles to no class, so Java has no import of it: Java writes the type it expands to."""
    from jdx.engine.search_aliases import expands_to

    arts = artifacts_by_id(store)
    refs = sorted({format_type(a.id) for a in aliases})
    if len(refs) > 1:
        raise AmbiguousError(f"ambiguous: {len(refs)} Kotlin type aliases named {text}",
                             candidates=[{"ref": format_type(a.id), "kind": "typealias",
                                          "artifact": arts.get(a.artifact, {}).get("name", "")} for a in aliases],
                             hint="re-run with one of the names above")
    a = aliases[0]
    dotted = refs[0].replace("$", ".")
    target = expands_to(store, a)
    entry = {"ref": refs[0], "kotlin_name": dotted, "language": "kotlin", "kind": "typealias",
             "statement": f"import {dotted}" if a.package else f"// {a.name}: in the unnamed package",
             "artifact": arts.get(a.artifact, {}).get("name", ""), "declarations": [a.declaration()]}
    visibility = a.row["visibility"] or "public"
    closed = not_importable(dotted, {visibility}) if a.package else None
    if closed:
        entry["statement"], entry["importable"] = closed, False
    else:
        entry["note"] = (f"a type alias: Java has no import of it, it writes the expansion {a.expansion}"
                         + (f" (the class {target})" if target else ""))
    return {"type": refs[0], "imports": [entry]}, []


def _type_import(store: GraphStore, row: dict) -> tuple[dict, list[Warning_]]:
    fqn = row["fqn"]
    if row.get("outer") and not row.get("inner_name"):
        raise UsageError(f"{fqn} is a local or anonymous class: it cannot be imported")
    if row.get("outer_method"):
        raise UsageError(f"{fqn} is a local class (declared inside a method): it cannot be imported")
    if refused := private_refusal(store, row):
        top = format_type(row["id"].split("$", 1)[0])
        raise UsageError(refused, hint=f"jdx show {shlex.quote(top)} names the types nested in it")
    source_name = d.source_fqn(fqn)  # `scala.None$` is a class's whole name: no nesting to write as `.`
    entry = {"ref": fqn, "statement": f"import {source_name};", "kind": row["kind"],
             "artifact": artifacts_by_id(store).get(row["artifact"], {}).get("name", "")}
    if place := place_note(fqn, row.get("package") or ""):
        entry["note"] = place
    elif closed := type_access_note(store, row):
        entry["note"] = entry["restricted"] = closed  # another package's import of it does not compile
    else:
        note_export(store, row, entry)
    return {"type": fqn, "imports": [entry]}, _duplicates(store, row)


def place_note(fqn: str, package: str) -> str | None:
    """What its package says of a type's import: none from a named package to the unnamed one, none of java.lang's
    top-level types."""
    if not package:
        return "in the unnamed package: it cannot be imported from a named package"
    if package == "java.lang" and "$" not in fqn:
        return "java.lang is imported implicitly: no import needed"
    return None


def _only_owner_of(store: GraphStore, exc: AmbiguousError, member: str, text: str,
                   or_none: bool = False) -> tuple[dict | None, str]:
    """`Simple#member` with several types named `Simple`: only those that declare or inherit `member`; when none
    does, `exc` ((None, "") with `or_none`). Of several, the one an import can name when only one can, with what
    `others_said` of the rest (else "")."""
    from jdx.engine.member_resolve import lookup

    try:
        found = lookup(store, text)
    except NotFoundError:
        if or_none:
            return None, ""
        raise exc from None
    except AmbiguousError as many:
        return _only_importable_owner(store, many, text)
    return type_row(store, found.target["id"]), ""


def _only_importable_owner(store: GraphStore, many: AmbiguousError, text: str) -> tuple[dict, str]:
    """Of an ambiguity's `Type#member` candidates, the owner an import can name when only one can, with what
    `others_said` of the rest (the rule `imports Type` follows); several: the ambiguity of those alone, counting the
    rest; none: `many`."""
    internal = internal_packages(store)
    usable = [c for c in many.candidates if importable_type(store, _owner_id(c["ref"]), internal)]
    if not usable:
        raise many
    others = others_said(store, [c["ref"] for c in many.candidates if c not in usable], internal) \
        if len(usable) < len(many.candidates) else ""
    if len(usable) > 1:
        said = f" importable candidates for {text} ({others})" if others else f" candidates for {text}"
        raise AmbiguousError(f"ambiguous: {len(usable)}{said}", candidates=usable, hint=many.hint) from None
    return type_row(store, _owner_id(usable[0]["ref"])), others


def _owner_id(ref: str) -> str:
    """The internal name of a `Type#member` ref's type."""
    return ref.split("#", 1)[0].replace(".", "/")


def _static_import(store: GraphStore, owner: dict, member: str) -> tuple[dict, list[Warning_]]:
    if not member or member == "<clinit>":
        raise UsageError("import static needs a static method or field name, e.g. java.util.Collections#emptyList")
    if member == "<init>":
        return _constructor_import(store, owner)
    # `HttpUrl.Companion#toHttpUrl` (@JvmName `get`), `Duration.Companion#parse` (`parse-UwyO8pc`): an object's or a
    # companion's member by its Kotlin name, whatever its JVM names (a namesake JVM member may be a hidden one's)
    members = class_members(store, owner["id"], member) if owner.get("kotlin") else []
    if members and importable_members(store, members):
        return _member_import(store, f"{owner['fqn']}#{member}", members)
    rows = [r for q in (queries_search.MEMBERS_NAMED, queries_search.FIELDS_NAMED)
            for r in store.rows(q, {"owners": [owner["id"]], "name": member})]
    inherited_from = None
    if not rows and owner.get("kotlin"):
        from jdx.engine.kotlin_refs import jvm_name_of

        jvm = jvm_name_of(store, owner["id"], member, f"{owner['fqn']}#{member}")
        if jvm is not None and jvm != member:  # `fx.Util#perimeter`: a Kotlin property by its Kotlin name
            return _static_import(store, owner, jvm)
        # a multi-file facade inheriting its parts' members (`kotlin.collections.CollectionsKt#emptyList`)
        ids = [r["id"] for n in dict.fromkeys((member, *jvm_names(member))) for r in index_for(store).named(n)
               if r["kind"] in ("method", "field") and r["access"] & ACC_STATIC
               and d.package_of(r["owner"]) == owner.get("package")]
        parts = [x for x in top_level_decls(store, ids) if x["facade"] == owner["id"]
                 and member in (x["name"], x["member"].split("#", 1)[1].split("(", 1)[0].split(":", 1)[0])]
        if parts:
            return {"type": owner["fqn"], "imports": kotlin_imports(store, parts)}, []
        companion = companion_id(store, owner["id"])  # `Duration#parse`: Kotlin writes its companion's members so
        members = class_members(store, companion, member) if companion else []
        if members:
            return _member_import(store, f"{owner['fqn']}#{member}", members)
    if not rows:  # `Sub#s`: a static member of a supertype is one of the subtype's, imported through it
        inherited_from, rows = _inherited_statics(store, owner, member)
    if not rows:
        raise NotFoundError(f"not found: {owner['fqn']}#{member}",
                            hint=f"jdx members {shlex.quote(owner['fqn'])} --static lists its static members")
    static = [r for r in rows if r["access"] & ACC_STATIC]
    if owner.get("kotlin"):  # an object's or a companion's member: Kotlin imports it there (Java its static copy)
        members = [x for x in kotlin_decls(store, [r["id"] for r in rows]) if not x["top_level"]
                   and x["name"] == member]
        if members and importable_members(store, members):
            return _member_import(store, f"{owner['fqn']}#{member}", members)
    if not static:  # no import names an instance member: the lesser answer is its type's import, said so
        answer, warnings = _type_import(store, owner)
        entry = answer["imports"][0]
        kind = "field" if all(r["kind"] == "field" for r in rows) else "method"
        said = f"{member} is an instance {kind}: no import names it; use it on an instance of {entry['ref']}"
        if not any(r["access"] & ACC_PUBLIC for r in rows):
            said += f"; {member_access_note(rows, owner['id'], owner.get('package') or '')}"
        entry["note"] = said + (f" ({entry['note']})" if entry.get("note") else "")
        answer["member"] = f"{owner['fqn']}#{member}"
        return answer, warnings
    if all(r["access"] & ACC_PRIVATE for r in static):  # javac: "cannot find symbol" (private: not inherited, and
        raise UsageError(  # an import is outside the class body that alone may use it, JLS §6.6.1, §7.5.3)
            f"{owner['fqn']}#{member} is private: no import can name it (only code inside "
            f"{format_type(owner['id'].split('$', 1)[0])} can use it)",
            hint=f"jdx members {shlex.quote(owner['fqn'])} --static lists its static members")
    if refused := private_refusal(store, owner):  # javac: "Secret has private access in Outer"
        heirs = public_heirs(store, owner, member, all(r["kind"] == "field" for r in static)) \
            if any(r["access"] & ACC_PUBLIC for r in static) else []
        raise UsageError(f"{owner['fqn']}#{member}: {refused}", hint=f"import it through a public subclass: import "
                         f"static {d.source_fqn(heirs[0])}.{member};" if heirs else None)
    source_owner = d.source_fqn(owner["fqn"])
    entry = {"ref": f"{owner['fqn']}#{member}", "statement": f"import static {source_owner}.{member};",
             "kind": static[0]["kind"], "artifact": artifacts_by_id(store).get(owner["artifact"], {}).get("name", "")}
    declaring = inherited_from or owner["id"]
    notes = overloads_said(static, declaring)
    if inherited_from:
        notes.append(f"inherited from {format_type(inherited_from)}")
    if not any(r["access"] & ACC_PUBLIC for r in static):
        notes.append(member_access_note(static, declaring, owner.get("package") or ""))
        entry["restricted"] = notes[-1]
    closed = _closed_owner_notes(store, owner, member, static, entry)
    if closed:  # with the public subclass to import it through, when one is
        entry.setdefault("restricted", "; ".join(closed))
    notes += closed
    if notes:
        entry["note"] = "; ".join(notes)
    note_export(store, owner, entry)
    top = top_level_decls(store, [r["id"] for r in static]) if owner.get("kotlin") else []
    entries = kotlin_imports(store, top) if top else [entry]
    return {"type": owner["fqn"], "imports": entries}, _duplicates(store, owner)


def _closed_owner_notes(store: GraphStore, owner: dict, member: str, static: list[dict], entry: dict) -> list[str]:
    """A static member of a type another package cannot name (javac: "KeyPairUtil is not public in org.jose4j.keys;
    cannot be accessed from outside package"): who may use that type, and for a public member the nearest public
    subclasses it is imported through instead (`through` in JSON)."""
    closed = type_access_note(store, owner)
    if closed is None:
        return []
    notes = [f"{format_type(owner['id'])} is {closed}"]
    heirs = public_heirs(store, owner, member, all(r["kind"] == "field" for r in static)) \
        if any(r["access"] & ACC_PUBLIC for r in static) else []
    if heirs:
        entry["through"] = heirs[:HEIRS_LISTED]
        more = f" (or through {', '.join(heirs[1:HEIRS_NAMED])}{', …' if len(heirs) > HEIRS_NAMED else ''})" \
            if len(heirs) > 1 else ""
        sub = "subtype" if owner.get("kind") in ("interface", "annotation") else "subclass"
        notes.append(f"import it through a public {sub}: import static {d.source_fqn(heirs[0])}.{member};{more}")
    return notes


HEIRS_NAMED, HEIRS_LISTED = 3, 20  # the public subclasses a note names, and JSON `through` lists


def _kotlin_named(store: GraphStore, text: str, top: list[dict], objects: list[dict]) -> tuple[dict, list[Warning_]]:
    """`imports seconds`: a Kotlin name's top-level declarations (`top`) and objects' and companions' members
    (`objects`), by the place a Kotlin import names (a package, an object). The places with a declaration another
    module can call (`_not_callable`) that no deprecation hid answer (several: an ambiguity); a top-level one of
    the others is listed after, as such."""
    places = _places(store, top + objects)
    closed = _not_callable(store, top + objects) if len(places) > 1 else set()
    usable = {p: decls for p, decls in places.items() if any(x["id"] not in closed for x in decls)
              and len(hidden_decls(store, decls)) < len(decls)}
    chosen = usable or places
    if len(chosen) > 1:
        where = f"{len(chosen)} packages" if not objects else f"{len(chosen)} packages and objects"
        raise AmbiguousError(f"ambiguous: Kotlin {'top-level ' if not objects else ''}declarations named {text} in "
                             f"{where}", candidates=_place_candidates(store, chosen),
                             hint="re-run with one of the names above")
    place, decls = next(iter(chosen.items()))
    answer, warnings = (top_level_import(store, text, decls) if decls[0]["top_level"] else
                        _member_import(store, text, decls))
    for other in places:
        if other != place and places[other][0]["top_level"]:
            answer["imports"] += kotlin_imports(store, places[other])
    return answer, warnings


def _not_callable(store: GraphStore, decls: list[dict]) -> set[str]:
    """The ids of the declarations another module's Kotlin code cannot call, so no place an import names for it:
    internal or private ones (`okio.internal.toPath`), and those deprecated at level ERROR or HIDDEN (okio's
    `-DeprecatedOkio.buffer`)."""
    from jdx.engine.kotlin_signature import deprecation_levels

    levels = deprecation_levels(store, decls)
    return {x["id"] for x in decls if x["visibility"] in ("internal", "private")
            or levels.get(x["id"]) in ("ERROR", "HIDDEN")}


def _places(store: GraphStore, decls: list[dict]) -> dict[str, list[dict]]:
    """Kotlin declarations by what a Kotlin import names them in: a top-level one's package, a member's class
    (`a.B.Companion`), in that order."""
    places: dict[str, list[dict]] = {}
    for x in decls:
        place = kotlin_package(store, x["owner"]) if x["top_level"] else format_type(x["owner"]).replace("$", ".")
        places.setdefault(place, []).append(x)
    return dict(sorted(places.items()))


def _place_candidates(store: GraphStore, places: dict[str, list[dict]]) -> list[dict]:
    """A candidate per place (`_places`): the Kotlin name an import names (`kotlin.time.Duration.Companion.seconds`)."""
    arts = artifacts_by_id(store)
    return [{"ref": f"{p}.{decls[0]['name']}" if p else decls[0]["name"], "kind": decls[0]["kind"],
             "artifact": arts.get(decls[0]["artifact"], {}).get("name", "")} for p, decls in places.items()]


def _object_members(store: GraphStore, name: str) -> list[dict]:
    """The functions and properties named `name` of Kotlin objects and companions (an import names them there:
    `import kotlin.time.Duration.Companion.seconds`), whatever their JVM names (a getter, a mangled one)."""
    from jdx.engine.kotlin_hits import has_kotlin

    if not re.fullmatch(r"[\w$]+", name) or not has_kotlin(store):
        return []
    owners = sorted({r["owner"] for r in store.rows_cached(qk.KOTLIN_TOP_LEVEL_NAMED, {"name": name, "prefix": ""})})
    return [x for o in owners if (members := class_members(store, o, name)) and importable_members(store, members)
            for x in members]


def _member_import(store: GraphStore, text: str, decls: list[dict]) -> tuple[dict, list[Warning_]]:
    """kotlin_toplevel.member_import of the declarations no deprecation hid (all when it hid all: `Companion#seconds`
    is `val Int.seconds`, not the hidden `fun seconds(value: Int)`); a companion's member that is no extension may
    also be called on its class (`Duration.parse(...)`), which the Kotlin entry says."""
    hidden = hidden_decls(store, decls)
    decls = [x for x in decls if x["id"] not in hidden] or decls
    answer, warnings = member_import(store, text, decls)
    owner = decls[0]["owner"]
    outer = owner.rsplit("$", 1)[0]
    if "$" in owner and companion_id(store, outer) == owner and not any(
            json.loads(x["detail"] or "{}").get("receiver") for x in decls):
        dotted = format_type(outer).replace("$", ".")
        call = f"{dotted.rsplit('.', 1)[-1]}.{decls[0]['name']}" + ("(…)" if decls[0]["kind"] == "function" else "")
        said = f"in the companion of {dotted}: or import {dotted} and write {call}"
        for entry in answer["imports"]:
            if entry.get("language") == "kotlin":
                entry["note"] = f"{entry['note']}; {said}" if entry.get("note") else said
    return answer, warnings


def _constructor_import(store: GraphStore, owner: dict) -> tuple[dict, list[Warning_]]:
    """`Imp#<init>`: no import names a constructor; the answer is its type's import, said so."""
    if not store.rows(queries_search.MEMBERS_NAMED, {"owners": [owner["id"]], "name": "<init>"}):
        raise NotFoundError(f"not found: {owner['fqn']} has no constructor",
                            hint=f"jdx members {shlex.quote(owner['fqn'])} lists its members")
    answer, warnings = _type_import(store, owner)
    entry = answer["imports"][0]
    simple = d.source_fqn(entry["ref"]).rsplit(".", 1)[-1]
    said = f"constructors are not imported: import the type and call new {simple}(...)"
    entry["note"] = said + (f" ({entry['note']})" if entry.get("note") else "")
    answer["member"] = f"{owner['fqn']}#<init>"
    return answer, warnings


def _inherited_statics(store: GraphStore, owner: dict, member: str) -> tuple[str | None, list[dict]]:
    """(declaring supertype, its static members named `member`) for the nearest supertype that declares one the
    owner inherits: superclasses' static methods and fields, superinterfaces' static fields; never a static
    interface method (JLS §9.4.1.1), a private member, or a package-private one of another package (§8.2)."""
    known = {r["id"]: r for r in store.rows_cached(queries.SUPERTYPES_CLOSURE, {"id": owner["id"]})
             if not r["external"]}
    chain, row = [], owner
    while row.get("super") in known and row["super"] not in chain:
        chain.append(row["super"])
        row = known[row["super"]]
    interfaces = sorted(i for i in known if i not in chain)
    order = chain + interfaces
    if not order:
        return None, []
    package = owner.get("package") or ""
    rows = [r for q in (queries_search.MEMBERS_NAMED, queries_search.FIELDS_NAMED)
            for r in store.rows(q, {"owners": order, "name": member})]
    for sid in order:
        found = [r for r in rows if r["owner"] == sid and r["access"] & ACC_STATIC and not r["access"] & ACC_PRIVATE
                 and (r["kind"] == "field" or sid in chain)
                 and (r["access"] & (ACC_PUBLIC | ACC_PROTECTED) or d.package_of(sid) == package)]
        if found:
            return sid, found
    return None, []


def duplicate_class_warnings(store: GraphStore, fqn: str) -> list[Warning_]:
    """DUPLICATE_CLASS for the class `fqn` (dotted, `$` for nesting) when several artifacts provide it."""
    rows = store.rows(queries_search.VISIBLE_TYPE_BY_FQN, {"fqn": fqn})
    return _duplicates(store, rows[0]) if rows else []


def _duplicates(store: GraphStore, row: dict) -> list[Warning_]:
    """DUPLICATE_CLASS when several artifacts provide the FQN: the first on the classpath wins."""
    copies = store.rows(queries_search.TYPE_COPIES, {"name": row["name"]})
    if len(copies) < 2:
        return []
    arts = artifacts_by_id(store)
    copies.sort(key=lambda c: (c["shadowed"], arts.get(c["artifact"], {}).get("position", 0)))
    names = [arts.get(c["artifact"], {}).get("name", "?") for c in copies]
    return [Warning_("DUPLICATE_CLASS", f"{row['fqn']} is provided by {len(copies)} artifacts: {names[0]} (loaded), "
                                       + ", ".join(f"{n} (shadowed)" for n in names[1:]), names[0])]
