"""`.kt` sources of Kotlin classes (spec §11.1, §12.2): which file holds a class (its SourceFile attribute,
looked up in the artifact's source roots by package), where in it a JVM member's declaration is
(kotlin_match.py), and SOURCES_VERSION_MISMATCH when the two disagree.

A JVM member is located in the container of the Kotlin declaration it compiles from, which the metadata
links name: a companion's `@JvmStatic` copy in the outer class and a `const` field there belong to the
companion; a multi-file facade's delegating copy (`CollectionsKt#listOf`) belongs to its part
(`CollectionsKt__CollectionsKt`), whose file and line table are used; `Foo$DefaultImpls` methods belong to
the interface `Foo`. A facade class (`FooKt`, `@file:JvmName`) stands for the top level of its file.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from jdx.engine import kotlin_match as km
from jdx.engine import source_match as sm
from jdx.engine.kotlin_parse import KtDecl
from jdx.engine.refs import format_member, format_type
from jdx.errors import Warning_
from jdx.graph_schema import queries
from jdx.graph_schema import queries_kotlin as qk

if TYPE_CHECKING:
    from jdx.engine.src_locate import SourceFile

FILE_LEVEL = (2, 4, 5)  # file facade, multi-file facade, multi-file part: the file's top level


def is_kotlin_source(type_row: dict) -> bool:
    """A class compiled from `.kt` (a multi-file facade has no SourceFile: its parts do)."""
    return (type_row.get("source_file") or "").endswith(".kt") or (
        not type_row.get("source_file") and bool(type_row.get("kotlin")) and metadata_kind(type_row) == 4)


def metadata_kind(type_row: dict) -> int | None:
    try:
        return int(json.loads(type_row.get("kotlin") or "{}").get("k"))
    except (ValueError, TypeError, AttributeError):
        return None


def _file_level(type_row: dict) -> bool:
    k = metadata_kind(type_row)
    if k is not None:
        return k in FILE_LEVEL
    return not type_row.get("outer") and type_row["id"].rsplit("/", 1)[-1].endswith("Kt")


def facade_parts(ctx, type_row: dict) -> list[str]:
    """The part classes of a multi-file facade, from the graph's Kotlin declarations, else its metadata."""
    owners = sorted({d["owner"] for d in ctx.store.rows_cached(qk.KOTLIN_DECLS_OF, {"id": type_row["id"]})
                     if d["owner"] != type_row["id"]})
    return owners or metadata_parts(type_row)


def metadata_parts(type_row: dict) -> list[str]:
    """The part classes a multi-file facade's @Metadata names (`d1`, internal names), read from the class row."""
    try:
        names = json.loads(type_row.get("kotlin") or "{}").get("d1") or []
    except ValueError:
        names = []
    pkg = type_row["id"].rsplit("/", 1)[0] + "/" if "/" in type_row["id"] else ""
    return [n if "/" in n else pkg + n for n in names if isinstance(n, str) and n]


def kotlin_keys(ctx, type_row: dict) -> list[str]:
    """The container path of a Kotlin class in its file: [] for facades, ["Vec", "Companion"] for a
    companion; `Foo$DefaultImpls` is `Foo`."""
    from jdx.engine.src_locate import outer_chain

    if _file_level(type_row):
        return []
    keys = sm.type_keys(type_row["id"], outer_chain(ctx, type_row["id"]))
    if len(keys) > 1 and keys[-1] == "DefaultImpls" and metadata_kind(type_row) in (3, None):
        keys = keys[:-1]
    if keys and _top_is_file_level(ctx, type_row):
        keys = ["", *keys[1:]]  # a lambda or object literal of a facade: no class of the file holds it
    return keys


def _top_is_file_level(ctx, type_row: dict) -> bool:
    from jdx.engine.src_locate import outer_chain, top_level

    top = top_level(type_row["id"], outer_chain(ctx, type_row["id"]))
    row = ctx.type_row(top) if top != type_row["id"] else None
    return row is not None and _file_level(row)


def source_file(ctx, type_row: dict):
    """(SourceFile, keys) of a Kotlin class, None when no root holds its `.kt` file. A multi-file facade
    answers with its first part's file."""
    row = type_row
    if metadata_kind(type_row) == 4:
        parts = [p for p in (ctx.type_row(p) for p in facade_parts(ctx, type_row)) if p is not None]
        if not parts:
            return None
        row = parts[0]
    name = row.get("source_file") or ""
    if not name.endswith(".kt") or "/" in name or "\\" in name or name in (".kt", "..kt"):
        return None
    package = row["package"] if row.get("package") is not None else row["id"].rpartition("/")[0].replace("/", ".")
    file = ctx.kotlin_file(row.get("artifact") or "", package, name)
    if file is None:
        return None
    return file, kotlin_keys(ctx, row)


def _links(ctx, query: str, member_id: str | None) -> list[dict]:
    if not member_id:
        return []
    return ctx.store.rows_cached(query, {"id": member_id})


def _owner(ctx, type_row: dict, link: dict | None) -> dict:
    if link is not None and link["owner"] != type_row["id"]:
        return ctx.type_row(link["owner"]) or type_row
    return type_row


def _part_row(ctx, part_id: str, row: dict) -> dict:
    """The part's own copy of a facade method (its line table is the real one), else the facade's row."""
    for r in ctx.store.rows_cached(queries.MEMBERS_OF, {"id": part_id}):
        if r["m.name"] == row["name"] and r["m.descriptor"] == row["descriptor"]:
            return {k[2:]: v for k, v in r.items()}
    return dict(row, first_line=-1, last_line=-1)


def locate_method(ctx, type_row: dict, row: dict):
    from jdx.engine.src_locate import Located

    links = _links(ctx, qk.KOTLIN_OF_METHOD, row.get("id"))
    link = links[0] if links else None
    owner = _owner(ctx, type_row, link)
    lines_row = row
    if owner is not type_row and metadata_kind(type_row) == 4:
        lines_row = _part_row(ctx, owner["id"], row)
    elif metadata_kind(type_row) == 4:  # a facade copy the metadata does not link: find it in the parts
        for part in facade_parts(ctx, type_row):
            candidate = _part_row(ctx, part, row)
            if candidate.get("first_line", -1) not in (-1, None):
                owner, lines_row = ctx.type_row(part) or owner, candidate
                break
        else:
            lines_row = dict(row, first_line=-1, last_line=-1)
    found = source_file(ctx, owner)
    if found is None:
        return None
    file, keys = found
    if "$$inlined$" in owner["id"]:
        return Located(file, keys, None, "a class copied by the compiler from an inline function it inlined; "
                       "its code is that function's", owner=owner)
    default_impls = type_row["id"].endswith("$DefaultImpls") and owner is type_row
    declared = None
    if link is None:
        holder = owner["id"][: -len("$DefaultImpls")] if default_impls else owner["id"]
        decls = [d for d in ctx.store.rows_cached(qk.KOTLIN_DECLS_OF, {"id": holder}) if d["owner"] == holder]
        if default_impls:  # DefaultImpls methods carry no link: the interface's function of that name and arity
            link = _interface_function(decls, row)
            if link is None and decls:
                match = km.KtMatch(None, "DefaultImpls copy of a method the interface inherits")
                return Located(file, keys, None, match.implicit, owner=owner)
        elif decls:
            declared = False
    match = km.match_method(file.parsed, lines_row, keys, link, default_impls=default_impls, declared=declared)
    decl, note = match.decl, match.note
    if match.implicit is None and not row["name"].startswith("<") and (decl is None or decl.kind == "function"):
        decl, note = _by_signature(file, keys, row, lines_row, decl, note, default_impls)
    return Located(file, keys, decl, match.implicit, note=note, owner=owner)


def _by_signature(file, keys: list[str], row: dict, lines_row: dict, decl, note: str | None, default_impls: bool):
    """(declaration, note) of a binary method checked against the sources' signatures (spec §11.1): the function
    the line table and Kotlin name found must compile to the method's JVM name and descriptor; when it does not,
    the one function of that (JVM) name that does is taken, with where the line table points as the note, else
    none (a SOURCES_VERSION_MISMATCH: `fun f(x: Long)` in the sources, `f(int)` in the jar)."""
    data = file.data
    why = km.signature_note(data, decl, row, default_impls) if decl is not None else None
    if decl is not None and why is None:
        return decl, note
    fits = [d for d in km.functions_named(file.parsed, data, keys, row)
            if d is not decl and km.signature_fits(data, d, row, default_impls)]
    if len(fits) == 1:
        first, last = km.real_lines(lines_row, file.parsed.lines)
        if first > 0 and not (fits[0].start <= first and last <= fits[0].end):
            lines = f"{first}-{last}" if last != first else str(first)
            return fits[0], (f"its line table (line {lines}) is outside fun {fits[0].name}, at line "
                             f"{fits[0].start} of the sources")
        return fits[0], None
    return None, why or note


def _interface_function(decls: list[dict], row: dict) -> dict | None:
    """The interface's function a `DefaultImpls` method implements: same name, one parameter fewer (the
    interface instance), a receiver counted as a parameter."""
    name = row["name"].removesuffix("$default")
    params = sm.descriptor_params(row["descriptor"])[1:]
    if row["name"].endswith("$default"):
        params = params[:-2]
    for d in decls:
        if d["kind"] != "function" or d["name"] != name:
            continue
        detail = json.loads(d["detail"] or "{}")
        written = ([detail["receiver"]] if detail.get("receiver") else []) + \
            [p.get("type") or "" for p in detail.get("parameters") or []]
        if len(written) in (len(params), len(params) - 1) and all(  # a suspend function's Continuation
                _same_type(w, j) for w, j in zip(written, params)):
            return d
    return None


def _same_type(kotlin: str, jvm: str) -> bool:
    """A Kotlin parameter type (`kotlinx.coroutines.Job?`, `T`, `(Int) -> Unit`) against a JVM simple name: the
    erasure `kotlin_match.jvm_erasure` is sure of, else a qualified type's simple name, else any (type parameters,
    function types, unqualified user types)."""
    erased = km.jvm_erasure(kotlin, set())
    if erased is not None:
        return erased == jvm
    base = kotlin.split("<", 1)[0].rstrip("?").strip()
    return "(" in kotlin or "->" in kotlin or "." not in base or base.rsplit(".", 1)[-1] == jvm


def locate_field(ctx, type_row: dict, row: dict):
    from jdx.engine.src_locate import Located

    fid = row.get("id") or f"{type_row['id']}#{row['name']}:{row.get('descriptor', '')}"
    links = _links(ctx, qk.KOTLIN_OF_FIELD, fid)
    link = links[0] if links else None
    owner = _owner(ctx, type_row, link)
    found = source_file(ctx, owner)
    if found is None:
        return None
    file, keys = found
    match = km.match_field(file.parsed, row["name"], keys, link, row.get("access") or 0)
    return Located(file, keys, match.decl, match.implicit, note=match.note, owner=owner)


def locate_type(ctx, type_row: dict):
    from jdx.engine.src_locate import Located

    found = source_file(ctx, type_row)
    if found is None:
        return None
    file, keys = found
    if not keys:
        return Located(file, keys, km.file_decl(file.parsed, type_row["id"].rsplit("/", 1)[-1]))
    decl = km.type_decl(file.parsed, keys)
    if decl is None:
        return Located(file, keys, None, "lambda, object literal or local class; not a declaration of its own")
    return Located(file, keys, decl)


def mismatch_warnings(ctx, type_row: dict, file, keys: list[str], missing: list[dict] | None = None,
                      notes: dict | None = None) -> list[Warning_]:
    """SOURCES_VERSION_MISMATCH for `missing` binary members the sources lack (with where the line table
    points instead) and for functions and properties the sources declare in this container that the
    binary's Kotlin metadata does not."""
    binary = ctx.artifact_name(type_row)
    out = []
    for row in missing or []:
        ref = row.get("ref") or (format_member(type_row["id"], row["name"], row["descriptor"])
                                 if "(" in row["descriptor"] else f"{format_type(type_row['id'])}#{row['name']}")
        why = (notes or {}).get(row["name"] + row["descriptor"])
        out.append(Warning_("SOURCES_VERSION_MISMATCH",
                            f"{binary} declares {ref} which is absent from {file.root.label} ({file.display})"
                            + (f": {why}" if why else "") + ". Structure shown from bytecode.", binary))
    if (keys and km.type_decl(file.parsed, keys) is None) or file.parsed.errors:
        return out  # a lambda or local class, or a file with unparsed regions: only the first direction
    decls = [d for d in ctx.store.rows_cached(qk.KOTLIN_DECLS_OF, {"id": type_row["id"]})
             if d["owner"] == type_row["id"]]
    if not decls:
        return out  # no readable metadata: nothing to compare the sources with
    for d in km.unmatched_declarations(file.parsed, keys, decls):
        out.append(Warning_("SOURCES_VERSION_MISMATCH",
                            f"{file.root.label} declares {_describe(type_row, d)} (line {d.start}) which is "
                            f"absent from {binary}. Structure shown from bytecode.", binary))
    return out


def _describe(type_row: dict, d: KtDecl) -> str:
    owner = format_type(type_row["id"])
    if d.kind == "function":
        recv = f"{d.receiver}." if d.receiver else ""
        return f"fun {owner}#{recv}{d.name}({', '.join(d.params)})"
    return f"{'var' if 'var' in d.mods else 'val'} {owner}#{d.name}"


_OUTLINE_KINDS = {"function": ("function",), "property": ("property",), "typealias": ("typealias",),
                  "constructor": ("primary constructor", "constructor")}


def declaration_lines(ctx, type_row: dict, entries: list[dict]) -> SourceFile | None:
    """`outline` of a Kotlin class with sources: each Kotlin declaration entry gets `line`, the first line of
    its declaration in the `.kt` file (overloads told apart by parameter count and receiver); returns the
    file read, None without sources (a multi-file facade's parts are several files: none)."""
    if metadata_kind(type_row) == 4:
        return None
    found = source_file(ctx, type_row)
    if found is None:
        return None
    file, keys = found
    if keys and km.type_decl(file.parsed, keys) is None:
        return None
    for e in entries:
        kinds = _OUTLINE_KINDS.get(e["kind"])
        if kinds is None:
            continue
        cands = [d for d in file.parsed.decls if d.path == keys and d.kind in kinds
                 and (d.name == e["name"] or e["kind"] == "constructor")]
        detail = e.get("detail") or {}
        if len(cands) > 1 and e["kind"] in ("function", "constructor"):
            n = len(detail.get("parameters") or [])
            cands = [d for d in cands if len(d.params) == n
                     and (e["kind"] == "constructor" or bool(d.receiver) == bool(detail.get("receiver")))] or cands
        if len(cands) > 1:  # same count: the parameter types' simple names
            written = [(p.get("type") or "").split("<", 1)[0].rstrip("?").rsplit(".", 1)[-1]
                       for p in detail.get("parameters") or []]
            cands = [d for d in cands if [t.removesuffix("...") for t in d.params] == written] or cands
        if len(cands) == 1:
            e["line"] = cands[0].start
    return file
