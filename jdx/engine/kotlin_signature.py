"""What the Kotlin metadata says about callers beyond a declaration's text: `signature`'s Kotlin view of what the JVM
view leaves out as synthetic (a reified inline function's method: kotlinc 2 makes it synthetic, yet Kotlin code calls
it), as `outline` and `members` list it; a deprecation's level, which decides whether Kotlin can call a declaration;
the parameter names the JVM view takes from the metadata where the class file has none."""

from __future__ import annotations

import dataclasses
import json

from jdx.engine.kotlin_view import (CALLED_ROLES, HIDDEN_LEVEL, decls_of, is_kotlin, jvm_access, jvm_deprecated,
                                    member_kotlin, reified_inline)


_REIFIED = "Kotlin-only: reified inline"


def with_reified_inline(store, text: str, found):
    """`found` (a member_resolve.Lookup of `text`, synthetic members left out) with the members it left out that
    compile from a reified inline function: kotlinc 2 makes its method synthetic, yet it is a declaration Kotlin code
    calls (`Iterable<*>.filterIsInstance()`), as `outline` and `members` list it. Any other synthetic member stays
    out (a `$default`, a `@JvmSynthetic` function, one a deprecation hid); a top-level name's note counting the
    Kotlin-only declarations left out counts what is still left out."""
    from jdx.engine.member_resolve import lookup

    def key(e: dict) -> tuple:
        return e["declaring"], e["row"]["name"], e["row"]["descriptor"]

    have = {key(e) for e in found.members}
    every = lookup(store, text, with_hidden=True)
    extra = {f"{e['declaring']}#{e['row']['name']}{e['row']['descriptor']}": e for e in every.members
             if key(e) not in have and not e["is_field"]}
    decls = {i: rows[0] for i, rows in member_kotlin(store, list(extra)).items()
             if rows and rows[0]["role"] in CALLED_ROLES and reified_inline(rows[0])}
    if not decls:
        return found
    only = jvm_access(store, list({d["id"]: d for d in decls.values()}.values()))[1]
    added = {key(extra[i]) for i, d in decls.items() if only.get(d["id"]) == _REIFIED}
    if not added:
        return found
    members = [e for e in every.members if key(e) in have or key(e) in added]
    order = {owner: i for i, owner in enumerate(dict.fromkeys(e["declaring"] for e in members))}
    members.sort(key=lambda e: order[e["declaring"]])  # one `inherited from` group a declaring type
    return dataclasses.replace(found, members=members, notes=_left_out_notes(store, text, found, members))


def _left_out_notes(store, text: str, found, members: list[dict]) -> list[str]:
    """`found`'s notes, the one counting a top-level name's Kotlin-only declarations left out (member_resolve_kotlin)
    counted again over `members`."""
    if not found.notes:
        return found.notes
    from jdx.engine.member_resolve import _member_reading
    from jdx.engine.member_resolve_kotlin import _left_out_note, kotlin_top_level

    ref = _member_reading(text)[0]
    top = kotlin_top_level(store, ref, text)
    if top is None:
        return found.notes
    old = _left_out_note(store, top, found.members)
    new = _left_out_note(store, top, members)
    return [n for n in (new if n == old else n for n in found.notes) if n]


_ERROR_LEVEL = ("DeprecationLevel.ERROR", "errorSince=")
_NOT_DEPRECATING = ("annotations",)  # kotlinc marks every `$annotations` stub deprecated, its property or not


def deprecation_level(annotations) -> str:
    """The level of a deprecated JVM member's Kotlin deprecation, by its annotations: `HIDDEN`, `ERROR` (a compile
    error to call from Kotlin: `@Deprecated(level = ERROR)`, `@DeprecatedSinceKotlin(errorSince)`), else `WARNING`."""
    if any(mark in a for a in annotations or () for mark in HIDDEN_LEVEL):
        return "HIDDEN"
    return "ERROR" if any(mark in a for a in annotations or () for mark in _ERROR_LEVEL) else "WARNING"


def mark_deprecated(entries: list[dict], members: list[dict], levels: dict[str, str]) -> None:
    """Gives each `kotlin_members` entry of `outline` its `deprecated` (a JVM member it compiles to is, as `members`
    says of its JVM members: `members`, the answer's JVM rows) and a deprecation that keeps Kotlin from calling the
    declaration its level instead of `Kotlin-only`: okio's `@Deprecated(level = ERROR) @JvmName("-deprecated_size")
    fun size()` no caller can name (`levels`: declaration id -> level, `deprecation_levels`)."""
    deprecated = {m["ref"] for m in members if m.get("deprecated")}
    for e in entries:
        e["deprecated"] = any(j["ref"] in deprecated for j in e.get("jvm") or () if j["role"] not in _NOT_DEPRECATING)
        level = levels.get(e.pop("_decl", None))
        if e["deprecated"] and level in ("ERROR", "HIDDEN"):
            uncallable_markers(e, level)


def uncallable_markers(entry: dict, level: str) -> None:
    """An entry's markers for a declaration deprecated at `level` ERROR or HIDDEN: not `Kotlin-only` (Kotlin cannot
    call it either), its level said instead, `not callable` when Java cannot name its JVM member."""
    only = [m for m in entry["markers"] if m.startswith("Kotlin-only: ")]
    entry["markers"] = [m.removeprefix("Kotlin-only: ") for m in entry["markers"]] + [
        f"deprecated at level {level}: " + ("not callable" if only else "Kotlin cannot call it")]


def deprecation_levels(store, decls: list[dict], deprecated: set[str] | None = None) -> dict[str, str]:
    """Declaration id -> the deprecation level (`deprecation_level`) of the first of its JVM members callers name that
    is deprecated (of those in `deprecated`, ids, when given: one query per class declaring one of them, none when
    none is), for the declarations with one. A property's `@Deprecated` is on its `$annotations` method, not on its
    accessors (which have the Deprecated attribute only): its annotations count too."""
    links = {d["id"]: [t for r, t in declaration_links(d)
                       if r in CALLED_ROLES and (deprecated is None or t in deprecated)] for d in decls}
    held = {d["id"]: [t for r, t in declaration_links(d) if r == "annotations"] for d in decls if links[d["id"]]}
    rows = member_rows(store, [t for targets in [*links.values(), *held.values()] for t in targets])
    out = {}
    for i, targets in links.items():
        row = next((rows[t] for t in targets if t in rows and jvm_deprecated(rows[t])), None)
        if row is not None:
            out[i] = deprecation_level([*(row.get("m.annotations") or ()), *annotations_of(rows, held.get(i, ()))])
    return out


def property_annotations(store, decl: dict) -> list[str]:
    """The annotations of a Kotlin property as written (`@Deprecated(...)`), which kotlinc puts on its synthetic
    `$annotations` method (an interface property's in its DefaultImpls); [] for any other declaration."""
    held = [t for r, t in declaration_links(decl) if r == "annotations"]
    return annotations_of(member_rows(store, held), held) if held else []


def declaration_links(decl: dict) -> list[tuple[str, str]]:
    return [(r, t) for r, _, t in (link.partition(":") for link in decl["jvm"] or ())]


def member_rows(store, member_ids: list[str]) -> dict[str, dict]:
    """The method rows (`m.*`) of these member ids: one query per class declaring one."""
    from jdx.graph_schema import queries

    owners = sorted({t.split("#", 1)[0] for t in member_ids})
    return {row.get("m.id"): row for owner in owners for row in store.rows(queries.MEMBERS_OF, {"id": owner})}


def annotations_of(rows: dict[str, dict], member_ids) -> list[str]:
    return [a for t in member_ids if t in rows for a in rows[t].get("m.annotations") or ()]


METADATA_NAMES = "Kotlin metadata"  # the `param_names_from` of names read from @kotlin.Metadata (as render/cards.py)
_NAMED_ROLES = ("method", "facade", "static")  # the JVM members taking exactly a function's Kotlin parameters


class MetadataParamNames:
    """The JVM view's names for the parameters a Kotlin class's class file leaves unnamed (an abstract or interface
    method keeps no LocalVariableTable: javap's `arg0`) as its `@kotlin.Metadata` declares them, the Kotlin view's:
    `names(owner, row, count)` as src_params' namer answers, for a function's method, its facade or @JvmStatic
    copy, an extension's receiver `$receiver` and a suspend function's continuation `$completion` (kotlinc's
    names); None for any other member (a `$default`, an @JvmOverloads copy: no guess)."""

    def __init__(self, store):
        self.store = store
        self.by_member: dict[str, dict[str, dict]] = {}  # class -> JVM member id -> the function it compiles from

    def names(self, owner: str, row: dict, count: int) -> list[str] | None:
        if owner not in self.by_member:
            found = self.by_member[owner] = {}
            for d in decls_of(self.store, owner):
                if d["kind"] == "function":
                    for role, _, target in (link.partition(":") for link in d["jvm"] or ()):
                        if role in _NAMED_ROLES:
                            found.setdefault(target, d)
        d = self.by_member[owner].get(f"{owner}#{row['name']}{row['descriptor']}")
        if d is None:
            return None
        detail = json.loads(d["detail"] or "{}")
        names = [p["name"] for p in detail.get("parameters") or ()]
        names = (["$receiver"] if detail.get("receiver") else []) + names + (
            ["$completion"] if "suspend" in (d["flags"] or ()) else [])
        return names if len(names) == count else None


def metadata_param_names(store, type_rows: list[dict], rows: list[dict]) -> MetadataParamNames | None:
    """A MetadataParamNames when one of `type_rows` is a Kotlin class and a method of `rows` (theirs) has parameters
    its class file leaves unnamed, else None (nothing to read)."""
    unnamed = any((r.get("param_source") or "none") == "none" and not (r.get("descriptor") or "()").startswith("()")
                  for r in rows)
    return MetadataParamNames(store) if unnamed and any(is_kotlin(t) for t in type_rows) else None
