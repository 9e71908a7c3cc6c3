"""The Kotlin view of Kotlin classes (spec §12.1, §9.3 step 7) over the JVM answers of show, outline,
signature and members: accessors fold into their property, `$default` synthetics into their function,
@JvmOverloads/@JvmStatic copies into the declaration they come from; `componentN`/`copy` are marked as the
data-class members they are; a suspend function shows no Continuation parameter. JSON keeps the JVM form
and adds the Kotlin one; `--view jvm` leaves every answer exactly as the JVM view prints it."""

from __future__ import annotations

import functools
import json

from jdx.engine.refs import format_member, format_type
from jdx.errors import Warning_
from jdx.graph_schema import queries_kotlin as q

VIEWS = ("kotlin", "jvm")
MARKERS = {"component": "data class component", "jvm_static": "@JvmStatic", "jvm_overloads": "@JvmOverloads",
           "jvm_field": "@JvmField"}


def is_kotlin(type_row: dict) -> bool:
    return bool(type_row.get("kotlin"))


def decls_of(store, type_id: str) -> list[dict]:
    return store.rows(q.KOTLIN_DECLS_OF, {"id": type_id})


def member_ref(member_id: str, varargs: bool = False) -> str:
    """A JVM member id (`a/B#m(I)V`, `a/B#f:I`) as its canonical reference (spec §6)."""
    if "@" in member_id:  # a shadowed copy's id prints by the answer's workspace (refs.format_type)
        return _format_ref(member_id, varargs)
    return _plain_ref(member_id, varargs)


@functools.lru_cache(maxsize=1 << 16)
def _plain_ref(member_id: str, varargs: bool) -> str:
    """member_ref of an id whose printed form depends on nothing else: a search line formats every JVM link of
    each declaration it shows, the same ones again and again in a long-lived process."""
    return _format_ref(member_id, varargs)


def _format_ref(member_id: str, varargs: bool) -> str:
    owner, _, rest = member_id.partition("#")
    if "(" not in rest:
        return f"{format_type(owner)}#{rest.split(':', 1)[0]}"
    name, desc = rest[: rest.index("(")], rest[rest.index("("):]
    try:
        return format_member(owner, name, desc, varargs=varargs)
    except ValueError:
        return f"{format_type(owner)}#{rest}"


def _markers(d: dict, detail: dict | None = None) -> list[str]:
    flags = set(d["flags"] or ())
    out = [MARKERS[f] for f in ("component", "jvm_static", "jvm_overloads", "jvm_field") if f in flags]
    if d["kind"] == "function" and d["name"] == "copy" and "synthesized" in flags:
        out.append("data class copy")
    if "jvm_name" in flags:
        detail = json.loads(d["detail"] or "{}") if detail is None else detail
        jvm = detail.get("jvm_name") or next((link.split("#", 1)[1].split("(", 1)[0] for link in d["jvm"] or ()
                                              if link.startswith("getter:")), None)
        if jvm:
            out.append(f"@JvmName {jvm}")
    return out


def kotlin_entry(d: dict) -> dict:
    """One declaration as the JSON of every command carries it."""
    detail = json.loads(d["detail"] or "{}")
    links = [{"role": link.split(":", 1)[0], "ref": member_ref(link.split(":", 1)[1])}
             for link in d["jvm"] or () if not link.startswith("type:")]
    return {"kind": d["kind"], "name": d["name"], "text": d["signature"], "visibility": d["visibility"],
            "modality": d["modality"], "flags": list(d["flags"] or ()), "markers": _markers(d, detail),
            "detail": detail,
            "jvm": links}


def unavailable(type_row: dict) -> Warning_:
    return Warning_("KOTLIN_VIEW_UNAVAILABLE",
                    f"{type_row['fqn']} carries @kotlin.Metadata that could not be read (see `jdx index` warnings); "
                    f"showing its JVM view")


def show_view(store, result: dict, type_row: dict) -> list[Warning_]:
    """Adds the Kotlin declaration line to a `show` result; the JVM `declaration` stays."""
    decls = decls_of(store, type_row["id"])
    header = next((d for d in decls if d["kind"] == "class" and d["owner"] == type_row["id"]), None)
    if not decls or (header is None and result["kotlin"]["kind"] == "class"):
        return [unavailable(type_row)]
    result["view"] = "kotlin"
    result["kotlin"]["declaration"] = header["signature"] if header else None
    result["kotlin"]["declarations"] = {k: sum(1 for d in decls if d["kind"] == k)
                                        for k in ("constructor", "function", "property", "typealias")}
    return []


_KINDS = {"ctor": ("constructor",), "method": ("function",), "field": ("property",), "type": ("typealias",)}


def outline_view(store, result: dict, type_row: dict, opts) -> list[Warning_]:
    """The Kotlin declarations of the class in place of the members they compile to; JVM members no
    declaration claims (enum `values`, an object's INSTANCE, Java-only members) stay as JVM rows."""
    import re

    all_decls = decls_of(store, type_row["id"])
    header = next((d for d in all_decls if d["kind"] == "class" and d["owner"] == type_row["id"]), None)
    decls = [d for d in all_decls if d["kind"] != "class"]
    if header is None and not decls:
        return [unavailable(type_row)]
    claimed = {link.split(":", 1)[1] for d in decls for link in d["jvm"] or ()}
    companion = json.loads(header["detail"] or "{}").get("companion") if header else None
    if companion:  # @JvmStatic copies, const and @JvmField fields of the companion live in this class
        claimed |= {link.split(":", 1)[1] for d in decls_of(store, f"{type_row['id']}${companion}")
                    for link in d["jvm"] or ()}
        claimed.add(f"{type_row['id']}#{companion}:L{type_row['id']}${companion};")
    wanted = _KINDS.get(opts.kind)
    grep = re.compile(opts.grep, re.IGNORECASE) if opts.grep else None
    levels = {"all": None}.get(opts.access[0] if len(opts.access) == 1 else "", set(opts.access))
    shown = []
    for d in decls:
        if wanted is not None and d["kind"] not in wanted:
            continue
        if grep and not grep.search(d["name"]):
            continue
        if levels is not None and (d["visibility"] or "public") not in levels and not (
                "package" in levels and d["visibility"] == "internal"):
            continue
        shown.append(kotlin_entry(d))
    result["view"] = "kotlin"
    result["kotlin_declaration"] = header["signature"] if header else None
    result["kotlin_members"] = shown
    is_object = header is not None and header["signature"].split(" object ", 1)[0] != header["signature"]
    result["jvm_only"] = [m["ref"] for m in result["members"] if m.get("_id") not in claimed
                          and not (is_object and m["kind"] == "constructor")]
    return []


def member_kotlin(store, member_ids: list[str]) -> dict[str, list[dict]]:
    """JVM member id -> the Kotlin declarations (with the member's role) it compiles from."""
    from jdx.engine.kotlin_index import kotlin_links

    links = kotlin_links(store)
    if links is not None:
        return links.member_rows(member_ids)
    out: dict[str, list[dict]] = {}
    methods = [i for i in member_ids if "(" in i]
    fields = [i for i in member_ids if "(" not in i]
    for (few, many), ids in (((q.KOTLIN_OF_METHODS, q.KOTLIN_OF_METHODS_MANY), methods),
                             ((q.KOTLIN_OF_FIELDS, q.KOTLIN_OF_FIELDS_MANY), fields)):
        if ids:
            for row in store.rows(few if len(ids) <= q.KOTLIN_IN_UP_TO else many, {"ids": ids}):
                out.setdefault(row["member"], []).append(row)
    return out


def signature_view(store, result: dict, member_ids: list[str]) -> None:
    """Each overload that compiles from a Kotlin declaration carries it (`kotlin`: text, markers, the
    member's role: method, getter, setter, default, overload, static, field)."""
    found = member_kotlin(store, member_ids)
    for item, mid in zip(result["signatures"], member_ids):
        rows = found.get(mid)
        if rows:
            row = rows[0]
            item["kotlin"] = {**kotlin_entry(row), "role": row["role"]}
            result["view"] = "kotlin"


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


def members_view(store, result: dict) -> None:
    """`members` of a Kotlin class (spec §9.3 step 7): each JVM member that compiles from a Kotlin declaration
    carries it; the declaration's other members (a property's setter, `$default`, @JvmOverloads copies) fold
    into the first one listed; members of Java supertypes keep their JVM form."""
    from jdx.engine.refs import type_id

    items = result["members"]
    ids = [type_id(m["declaring"]) + "#" + m["name"] + (":" if m["kind"] == "field" else "")
           + m["descriptor"] for m in items]
    found = member_kotlin(store, ids)
    if not found:
        return
    seen: set[str] = set()
    out, folded = [], 0
    for item, mid in zip(items, ids):
        rows = found.get(mid)
        if rows:
            row = rows[0]
            if row["id"] in seen:
                folded += 1
                continue
            seen.add(row["id"])
            item = {**item, "kotlin": {**kotlin_entry(row), "role": row["role"]}}
        out.append(item)
    result["members"] = out
    result["view"] = "kotlin"
    result["folded"] = folded
