"""The Kotlin view of Kotlin classes (spec §12.1, §9.3 step 7) over the JVM answers of show, outline,
signature and members: accessors fold into their property, `$default` synthetics into their function,
@JvmOverloads/@JvmStatic copies into the declaration they come from; `componentN`/`copy` are marked as the
data-class members they are; a suspend function shows no Continuation parameter. JSON keeps the JVM form
and adds the Kotlin one; `--view jvm` leaves every answer exactly as the JVM view prints it."""

from __future__ import annotations

import functools
import json
import re

from jdx.engine.refs import format_member, format_type
from jdx.errors import Warning_
from jdx.graph_schema import queries_kotlin as q
from jdx.kotlin.jvm import MANGLED

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




def mangled_name(d: dict) -> str | None:
    """The JVM name kotlinc mangled for a function or property taking or returning an inline class (its method's or
    getter's), which Java source cannot name (javac reads `-` as an operator); None for any other."""
    for link in d["jvm"] or ():
        role, _, target = link.partition(":")
        if role in ("method", "getter") and "(" in target:
            name = target.split("#", 1)[1].split("(", 1)[0]
            return name if MANGLED.fullmatch(name) else None
    return None


def _default_accessor(name: str, role: str) -> str:
    """The JVM name kotlinc gives a property's getter or setter (JvmAbi.getterName/setterName): `getUrl`, `isOpen`
    for `isOpen` (an `is` prefix and no lower-case letter after it), `setUrl`, `setOpen`."""
    is_prefix = name.startswith("is") and len(name) > 2 and not ("a" <= name[2] <= "z")
    if role == "getter":
        return name if is_prefix else "get" + _capitalized(name)
    return "set" + (name[2:] if is_prefix else _capitalized(name))


def _capitalized(name: str) -> str:
    return name[:1].upper() + name[1:] if "a" <= name[:1] <= "z" else name


def _accessor_names(d: dict) -> list[str]:
    """`@get:JvmName url`, `@set:JvmName changeSecure`: a property accessor's JVM name when it is not the one kotlinc
    derives (`_default_accessor`), an internal one's `$module` suffix and a value-class mangling aside (Java calls
    `url()`, not `getUrl()`). A getter only when the index flagged it `jvm_name` (an annotation class's `val value`
    compiles to `value()`: no @JvmName; kotlin_shard._property_row)."""
    out = []
    for role, word in (("getter", "get"), ("setter", "set")):
        link = next((x for x in d["jvm"] or () if x.startswith(role + ":") and "#" in x and "(" in x), None)
        if link is None or (role == "getter" and "jvm_name" not in (d["flags"] or ())):
            continue
        jvm = link.split("#", 1)[1].split("(", 1)[0]
        default = _default_accessor(d["name"], role)
        if not (jvm == default or (jvm.startswith(default) and jvm[len(default)] in "$-")):
            out.append(_kotlin_only_name(jvm) + f"@{word}:JvmName {jvm}")
    return out


def _kotlin_only_name(jvm_name: str) -> str:
    """`Kotlin-only: ` before the marker of a JVM name Java source cannot write: okhttp's
    `@JvmName("-deprecated_url") fun url()` hides the function from Java (javac reads `-` as an operator)."""
    from jdx.engine.kotlin_toplevel import java_identifier

    return "" if java_identifier(jvm_name) else "Kotlin-only: "


def _markers(d: dict, detail: dict | None = None) -> list[str]:
    flags = set(d["flags"] or ())
    out = [MARKERS[f] for f in ("component", "jvm_static", "jvm_overloads", "jvm_field") if f in flags]
    if d["kind"] == "function" and d["name"] == "copy" and "synthesized" in flags:
        out.append("data class copy")
    if d["kind"] == "property":
        out += _accessor_names(d)
    elif "jvm_name" in flags:
        detail = json.loads(d["detail"] or "{}") if detail is None else detail
        jvm = detail.get("jvm_name")
        if jvm and jvm != d["name"]:  # (a graph of older shards flags okio's `access$newTimeoutException`)
            out.append(_kotlin_only_name(jvm) + f"@JvmName {jvm}")
    mangled = mangled_name(d) if d["kind"] in ("function", "property") and "jvm_name" not in flags else None
    if mangled:
        out.append(f"Kotlin-only: mangled {mangled}")
    return out


def mark_uncallable(store, entry: dict, d: dict, level: str) -> None:
    """`uncallable_markers` of a declaration deprecated at `level`, its Java namesake said (`java_namesake`)."""
    from jdx.engine.kotlin_signature import uncallable_markers

    uncallable_markers(entry, level)
    name_java_namesake(store, entry, d)


def name_java_namesake(store, entry: dict, d: dict) -> None:
    """Ends a `not callable` marker with what Java's call of the function's Kotlin name is (`java_namesake`)."""
    from jdx.engine.kotlin_names import java_namesake

    said = java_namesake(store, d) if entry["markers"] and entry["markers"][-1].endswith(": not callable") else None
    if said:
        entry["markers"][-1] += "; " + said


def kotlin_entry(d: dict, access: dict[str, int] | None = None) -> dict:
    """One declaration as the JSON of every command carries it; `access` (JVM member id -> access flags, as
    `link_access` reads them) gives a varargs method its canonical `...` reference, the JVM rows' own."""
    detail = json.loads(d["detail"] or "{}")
    access = access or {}
    links = [{"role": link.split(":", 1)[0],
              "ref": member_ref(target := link.split(":", 1)[1], bool(access.get(target, 0) & _ACC_VARARGS))}
             for link in d["jvm"] or () if not link.startswith("type:")]
    return {"kind": d["kind"], "name": d["name"], "text": d["signature"], "visibility": d["visibility"],
            "modality": d["modality"], "flags": list(d["flags"] or ()), "markers": _markers(d, detail),
            "detail": detail,
            "jvm": links}


def link_access(store, decls: list[dict]) -> dict[str, int]:
    """JVM method id -> access flags, for the methods of the declarations with a `vararg` parameter (the only ones
    whose reference can be a varargs `...` one): one query, none when no declaration has one."""
    ids = sorted({link.split(":", 1)[1] for d in decls if '"vararg"' in (d["detail"] or "")
                  for link in d["jvm"] or () if "(" in link and not link.startswith("type:")})
    if not ids:
        return {}
    from jdx.engine.kotlin_index import kotlin_links

    links = kotlin_links(store)
    known = {i: links.access[i] for i in ids if i in links.access} if links is not None else {}
    rest = [i for i in ids if i not in known]
    if rest:
        known.update({r["id"]: r["access"] or 0 for r in store.rows(q.METHOD_ACCESS, {"ids": rest})})
    return known


def unavailable(type_row: dict) -> list[Warning_]:
    """Why a Kotlin class has no Kotlin view: KOTLIN_VIEW_UNAVAILABLE when its @kotlin.Metadata does not decode (the
    index warned too); nothing when it does, as kotlinc's synthetic classes (kind 3: lambdas, `$WhenMappings`,
    `$DefaultImpls`) declare nothing in Kotlin and their JVM view is all there is (the card names the kind)."""
    from jdx.kotlin import MetadataError, decode_metadata

    try:
        decode_metadata(type_row.get("kotlin") or "", lambdas=False)
    except MetadataError:
        return [Warning_("KOTLIN_VIEW_UNAVAILABLE",
                         f"{type_row['fqn']} carries @kotlin.Metadata that could not be read (see `jdx index` "
                         f"warnings); showing its JVM view")]
    return []


def show_view(store, result: dict, type_row: dict) -> list[Warning_]:
    """Adds the Kotlin declaration line to a `show` result; the JVM `declaration` stays."""
    decls = decls_of(store, type_row["id"])
    header = next((d for d in decls if d["kind"] == "class" and d["owner"] == type_row["id"]), None)
    if not decls or (header is None and result["kotlin"]["kind"] == "class"):
        return unavailable(type_row)
    result["view"] = "kotlin"
    if header:
        from jdx.engine.kotlin_inherited import _chains

        result["kotlin"]["declaration"] = _chains(store).qualified_text(header) or header["signature"]
    else:
        result["kotlin"]["declaration"] = None
    keyword = keyword_of(header)
    if keyword:  # a file facade has none
        result["kotlin"]["keyword"] = keyword
    counts = {k: sum(1 for d in decls if d["kind"] == k) for k in ("constructor", "function", "property", "typealias")}
    if keyword == "enum class":  # its entries, the rows `outline` lists first (no declaration rows of their own)
        counts = {"enum entry": len(json.loads(header["detail"] or "{}").get("enum_entries") or ()), **counts}
    result["kotlin"]["declarations"] = counts
    return []


def holder_fields(type_id: str, keyword: str | None, companion: str | None) -> set[str]:
    """The static fields a Kotlin caller never names: an object's `INSTANCE` (it writes `Registry.register()`) and the
    field holding the companion object (`IntRange.EMPTY`, not `IntRange.Companion.EMPTY`)."""
    out = {f"{type_id}#INSTANCE:L{type_id};"} if keyword in ("object", "data object") else set()
    if companion:
        out.add(f"{type_id}#{companion}:L{type_id}${companion};")
    return out


def keyword_of(header: dict | None) -> str | None:
    """The Kotlin kind word of a class's header row (`object`, `companion object`, `data class`, `enum class`,
    `sealed interface`, ...): what the Kotlin view prints where the JVM view prints `class`."""
    return json.loads(header["detail"] or "{}").get("keyword") if header else None


_KINDS = {"ctor": ("constructor",), "method": ("function",), "field": ("property",), "type": ("typealias",)}


# a lambda's body compiled to a method of its class (kotlinc 2 `valueOrThrow$lambda$5$lambda$3`, 1.5-1.7 SAM
# conversions `main$lambda-0`): often neither synthetic nor declared by the metadata, yet no declaration of the source
_LAMBDA_BODY = re.compile(r"\$lambda[$-]\d|^lambda\$")


def enum_rows(type_id: str, header: dict, member_ids: set) -> tuple[list[dict], list[dict]]:
    """An enum class's entries (its metadata names them; each compiles to a static field) and the members kotlinc
    writes for every enum (`values()`, `valueOf(String)`, kotlinc 1.9's `entries`) as Kotlin reads them; each row's
    `_id` is its JVM member's id (`outline` and `members` both list them so)."""
    detail = json.loads(header["detail"] or "{}")
    simple = header["name"].rsplit(".", 1)[-1]

    def row(kind: str, name: str, text: str, member: str, marker: list[str]) -> dict:
        ref = member_ref(member)
        return {"kind": kind, "name": name, "text": text, "visibility": "public", "modality": None, "flags": [],
                "markers": marker, "detail": {}, "jvm": [{"role": "field" if kind == "enum entry" else "method",
                                                          "ref": ref}], "_id": member}

    entries = [row("enum entry", name, name, f"{type_id}#{name}:L{type_id};", [])
               for name in detail.get("enum_entries") or () if f"{type_id}#{name}:L{type_id};" in member_ids]
    implicit = []
    for name, text, member in (
            ("values", f"public fun values(): Array<{simple}>", f"{type_id}#values()[L{type_id};"),
            ("valueOf", f"public fun valueOf(value: String): {simple}",
             f"{type_id}#valueOf(Ljava/lang/String;)L{type_id};"),
            ("entries", f"public val entries: EnumEntries<{simple}>",
             f"{type_id}#getEntries()Lkotlin/enums/EnumEntries;")):
        if member in member_ids:
            implicit.append(row("property" if name == "entries" else "function", name, text, member,
                                ["enum class member"]))
    return entries, implicit


NO_ARG = "<init>()V"


def no_arg_constructors(type_id: str, decls: list[dict], member_ids: set) -> dict[str, dict]:
    """`<init>()V` id -> the primary constructor it is kotlinc's no-argument copy of: one with parameters, each
    declaring a default, gets a constructor taking none (the JVM form of calling it with every default, as its
    `$default` twin is); none when a declaration claims that constructor itself (a secondary `constructor()`)."""
    mid = f"{type_id}#{NO_ARG}"
    if mid not in member_ids or any(link.endswith("#" + NO_ARG) for d in decls for link in d["jvm"] or ()):
        return {}
    for d in decls:
        if d["kind"] == "constructor" and "secondary" not in (d["flags"] or ()):
            params = json.loads(d["detail"] or "{}").get("parameters") or ()
            if params and all(p.get("default") for p in params):
                return {mid: d}
    return {}


def outline_view(store, result: dict, type_row: dict, opts) -> list[Warning_]:
    """The Kotlin declarations of the class in place of the members they compile to, then its companion's that
    compile to members of this class (`const val`, `@JvmField`, `@JvmStatic` copies: a Java caller names them
    here); JVM members no declaration claims (enum `values`, Java-only members) stay as JVM rows, lambda bodies
    only with `include_synthetic`; an object's INSTANCE and its companion's field fold into the class
    (`holder_fields`)."""
    all_decls = decls_of(store, type_row["id"])
    header = next((d for d in all_decls if d["kind"] == "class" and d["owner"] == type_row["id"]), None)
    decls = [d for d in all_decls if d["kind"] != "class"]
    if header is None and not decls:
        return unavailable(type_row)
    claimed = {link.split(":", 1)[1] for d in decls for link in d["jvm"] or ()}
    no_arg = {d["id"]: mid for mid, d in no_arg_constructors(type_row["id"], decls, {m.get("_id") for m in
                                                                                      result["members"]}).items()}
    claimed |= set(no_arg.values())
    companion = json.loads(header["detail"] or "{}").get("companion") if header else None
    claimed |= holder_fields(type_row["id"], keyword_of(header), companion)  # folded into the class itself
    hosted = []  # the companion's declarations with a JVM member in this class
    if companion:
        for d in decls_of(store, f"{type_row['id']}${companion}"):
            targets = {link.split(":", 1)[1] for link in d["jvm"] or () if not link.startswith("type:")}
            claimed |= targets
            if d["kind"] != "class" and any(t.split("#", 1)[0] == type_row["id"] for t in targets):
                hosted.append(d)
    wanted = _KINDS.get(opts.kind)
    grep = re.compile(opts.grep, re.IGNORECASE) if opts.grep else None
    levels = {"all": None}.get(opts.access[0] if len(opts.access) == 1 else "", set(opts.access))
    from jdx.engine.kotlin_inherited import _chains, mark_inherited_defaults
    from jdx.engine.kotlin_nested import boxed_twins, nested_rows

    chains = _chains(store)
    hidden, kotlin_only = jvm_access(store, decls + hosted)
    access = link_access(store, decls + hosted)
    twins = boxed_twins(type_row["id"], decls, {m.get("_id") for m in result["members"]}) \
        if header is not None and "value" in (header["flags"] or ()) else {}
    claimed |= {t for links in twins.values() for _, t in links}
    shown, by_decl = [], []
    for d in decls + hosted:
        if wanted is not None and d["kind"] not in wanted:
            continue
        if grep and not grep.search(d["name"]):
            continue
        if d["id"] in hidden and not opts.include_synthetic:
            result["hidden_deprecated"] = result.get("hidden_deprecated", 0) + 1
            continue
        if levels is not None and (d["visibility"] or "public") not in levels and not (
                "package" in levels and d["visibility"] == "internal"):
            continue
        entry = kotlin_entry(d, access)
        entry["jvm"] += [{"role": role, "ref": member_ref(t)} for role, t in twins.get(d["id"], ())]
        if d["id"] in no_arg:
            entry["jvm"].append({"role": "no_arg", "ref": member_ref(no_arg[d["id"]])})
        entry["text"] = chains.qualified_text(d, (type_row["id"],)) or entry["text"]
        mark_inherited_defaults(store, d, entry)
        if d["id"] in hidden:
            entry["markers"].append("hidden: synthetic")
        elif d["id"] in kotlin_only:
            entry["markers"].append(kotlin_only[d["id"]])
        entry["_decl"] = d["id"]  # (mark_deprecated reads it)
        by_decl.append((entry, d))
        if d in hosted:
            entry["companion"] = companion
            entry["markers"].append("in companion object" + ("" if companion == "Companion" else f" {companion}"))
        shown.append(entry)
    result["view"] = "kotlin"
    result["kotlin_declaration"] = (chains.qualified_text(header) or header["signature"]) if header else None
    keyword = keyword_of(header)
    if keyword:
        result["kotlin_keyword"] = keyword
    if keyword == "enum class":
        entries, implicit = enum_rows(type_row["id"], header, {m.get("_id") for m in result["members"]})
        claimed |= {e.pop("_id") for e in entries + implicit}

        def kept(e: dict) -> bool:  # an entry is a field to `--kind`, as its JVM member is
            kind = "property" if e["kind"] == "enum entry" else e["kind"]
            return ((wanted is None or kind in wanted) and not (grep and not grep.search(e["name"]))
                    and (levels is None or "public" in levels))

        shown = [e for e in entries if kept(e)] + shown + [e for e in implicit if kept(e)]
    nested, hidden_impls = nested_rows(store, result["members"], opts.include_synthetic)
    claimed |= {e.pop("_id") for e in nested} | hidden_impls
    if hidden_impls:
        result["hidden_default_impls"] = len(hidden_impls)
    deprecated = {m["_id"] for m in result["members"] if m.get("deprecated") and m.get("_id")}
    from jdx.engine.kotlin_signature import deprecation_levels, mark_deprecated

    mark_deprecated(shown + nested, result["members"], deprecation_levels(store, decls + hosted, deprecated))
    from jdx.engine.kotlin_consts import with_const_values
    from jdx.engine.kotlin_opt_in import opt_in_markers

    opt_in = opt_in_markers(store, [d for _, d in by_decl])
    for entry, d in by_decl:
        name_java_namesake(store, entry, d)
        entry["markers"] += opt_in.get(d["id"], [])
    with_const_values(store, by_decl)
    result["kotlin_members"] = shown + nested
    is_object = header is not None and header["signature"].split(" object ", 1)[0] != header["signature"]
    unclaimed = [m for m in result["members"] if m.get("_id") not in claimed
                 and not (is_object and m["kind"] == "constructor")]
    lambdas = set() if opts.include_synthetic else {m["ref"] for m in unclaimed if m["kind"] == "method"
                                                    and not m.get("nested_type") and _LAMBDA_BODY.search(m["name"])}
    result["jvm_only"] = [m["ref"] for m in unclaimed if m["ref"] not in lambdas]
    if lambdas:
        result["hidden_lambdas"] = len(lambdas)
    return []


# the JVM members a declaration's callers name (not its `$default`, `$annotations` or backing field): when every one
# is synthetic and deprecated, kotlinc hid the declaration (`@Deprecated(level = HIDDEN)`,
# `@DeprecatedSinceKotlin(hiddenSince)`); synthetic and not hidden, it is one only Kotlin calls (a reified inline
# function, @JvmSynthetic), as is a public inline function whose method is private (an @InlineOnly function) and a
# sealed class's constructor (private on the JVM; subclasses call a synthetic twin taking a DefaultConstructorMarker)
CALLED_ROLES = ("method", "getter", "setter", "constructor", "facade", "static", "overload")
_ACC_PRIVATE, _ACC_VARARGS, _ACC_SYNTHETIC, _ACC_DEPRECATED = 0x0002, 0x0080, 0x1000, 0x20000
HIDDEN_LEVEL = ("DeprecationLevel.HIDDEN", "hiddenSince=")


def reified_inline(d: dict) -> bool:
    """Whether a declaration is an inline function with a reified type parameter: kotlinc keeps its JVM method from
    Java (synthetic from kotlinc 2, private from kotlinc 1.3), as Java could not supply the type argument."""
    if d["kind"] != "function" or "inline" not in (d["flags"] or ()):
        return False
    return any(p.get("reified") for p in json.loads(d["detail"] or "{}").get("type_parameters") or ())


def _hidden(row: dict, reified: bool) -> bool:
    """Whether a synthetic JVM member is one a deprecation hid: a reified inline function's is synthetic anyway, so
    for it only the annotation's level says so."""
    if not jvm_deprecated(row):
        return False
    return not reified or any(mark in a for a in row.get("m.annotations") or () for mark in HIDDEN_LEVEL)


def jvm_access(store, decls: list[dict]) -> tuple[set[str], dict[str, str]]:
    """(ids of the declarations no Kotlin or Java caller can name: each JVM member they compile to for callers is
    synthetic and deprecated, as `members` (which leaves synthetic members out) sees them; declaration id -> the
    marker of those only Kotlin calls, their members synthetic or private: `Kotlin-only: reified inline`)."""
    from jdx.graph_schema import queries

    called = {}
    for d in decls:
        targets = [link.split(":", 1)[1] for link in d["jvm"] or () if link.split(":", 1)[0] in CALLED_ROLES]
        if targets:
            called[d["id"]] = targets
    owners = {t.split("#", 1)[0] for targets in called.values() for t in targets}
    rows = {row.get("m.id"): row for owner in owners for row in store.rows(queries.MEMBERS_OF, {"id": owner})}
    hidden, kotlin_only = set(), {}
    for d in decls:
        targets = [rows.get(t) for t in called.get(d["id"], ())]
        if not targets or None in targets:
            continue
        access = [r.get("m.access") or 0 for r in targets]
        reified = reified_inline(d)
        if all(a & _ACC_SYNTHETIC for a in access) and all(_hidden(r, reified) for r in targets):
            hidden.add(d["id"])
        elif all(a & (_ACC_SYNTHETIC | _ACC_PRIVATE) for a in access) and d["visibility"] != "private":
            reason = kotlin_only_reason(d, access[0], _sealed_twin(rows, called[d["id"]]))
            if reason:
                kotlin_only[d["id"]] = "Kotlin-only: " + reason
    return hidden, kotlin_only


_MARKER = "Lkotlin/jvm/internal/DefaultConstructorMarker;"


def _sealed_twin(rows: dict, targets: list[str]) -> bool:
    """Whether a constructor private on the JVM has the synthetic twin kotlinc gives a sealed class's constructor (its
    parameters and a DefaultConstructorMarker): what the subclasses call."""
    return len(targets) == 1 and "#<init>(" in targets[0] and (
        (rows.get(targets[0].replace(")V", _MARKER + ")V")) or {}).get("m.access") or 0) & _ACC_SYNTHETIC != 0


def jvm_deprecated(row: dict) -> bool:
    """Whether a JVM member row (`m.*`) is deprecated: its Deprecated attribute or access flag."""
    return bool(row.get("m.deprecated") or (row.get("m.access") or 0) & _ACC_DEPRECATED)


def kotlin_only_reason(d: dict, access: int, sealed: bool = False) -> str | None:
    """Why Java cannot call the JVM member (`access`) of a public or internal declaration that is synthetic or
    private: `reified inline` (kotlinc 2 makes its method synthetic, 1.3 private), `synthetic` (@JvmSynthetic),
    `inline-only` (an @kotlin.internal.InlineOnly function's method is private), `sealed` (a sealed class's
    constructor, private on the JVM: `sealed` says it has the synthetic twin its Kotlin subclasses call); None for
    any other private member, whose reason is not known (no guess)."""
    if reified_inline(d):
        return "reified inline"
    if access & _ACC_SYNTHETIC:
        return "synthetic"
    if d["kind"] == "function" and "inline" in (d["flags"] or ()):
        return "inline-only"
    return "sealed" if sealed else None


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
    member's role: method, getter, setter, default, overload, static, field), its `throws` as `@Throws(…)` among its
    annotations; a property named by its Kotlin name lists its accessors too (`_with_accessors`)."""
    from jdx.engine.kotlin_inherited import _chains, mark_inherited_defaults
    from jdx.engine.kotlin_signature import deprecation_level, property_annotations

    found = member_kotlin(store, member_ids)
    every = _with_accessors(store, result, member_ids, found)
    if every is not member_ids:
        member_ids, found = every, member_kotlin(store, every)
    firsts = list({rows[0]["id"]: rows[0] for rows in found.values() if rows}.values())
    only = jvm_access(store, firsts)[1] if firsts else {}
    access = link_access(store, firsts)
    for item, mid in zip(result["signatures"], member_ids):
        rows = found.get(mid)
        if rows:
            row = rows[0]
            item["kotlin"] = {**kotlin_entry(row, access), "role": row["role"]}
            if row["id"] in only:  # as `outline` says it: `Kotlin-only: reified inline` is why the method is synthetic
                item["kotlin"]["markers"].append(only[row["id"]])
                item["synthetic"] = [x for x in item.get("synthetic") or () if x != "synthetic"]
            item["kotlin"]["text"] = _chains(store).qualified_text(row, (mid.split("#", 1)[0],)) or \
                item["kotlin"]["text"]
            mark_inherited_defaults(store, row, item["kotlin"])
            # a property's own annotations are its `$annotations` method's (its accessors have none of them)
            held = row["kind"] == "property" and row["role"] != "annotations"
            annotations = [*(item.get("annotations") or ()), *(property_annotations(store, row) if held else ())]
            level = deprecation_level(annotations) if item.get("deprecated") else None
            if level in ("ERROR", "HIDDEN"):
                mark_uncallable(store, item["kotlin"], row, level)
            written = kotlin_annotations(annotations) + throws_annotation(item.get("throws"))
            if written:  # spec §7.1: a signature carries its annotations (`@kotlin.Deprecated(...)`), as --view jvm
                item["kotlin"]["annotations"] = written
            result["view"] = "kotlin"


def throws_annotation(throws) -> list[str]:
    """The JVM method's checked exceptions as Kotlin writes them (`@Throws(IOException::class)`), what a Java caller
    must catch; none for none. kotlin.jvm.Throws itself has source retention: the `Exceptions` attribute is all."""
    if not throws:
        return []
    return [f"@Throws({', '.join(t.rsplit('.', 1)[-1].replace('$', '.') + '::class' for t in throws)})"]


_ACCESSORS = ("getter", "setter")


def _with_accessors(store, result: dict, member_ids: list[str], found: dict) -> list[str]:
    """`signature Type#name` of a property by its Kotlin name lists every accessor it compiles to: the JVM members
    named `name` may be its private backing field alone (okhttp's `OkHttpClient#routeDatabase`, whose getter is
    `getRouteDatabase()`); its getter and setter join, before the field, as `Request#url` lists `url()` (`@get:JvmName`)
    before its field. The member ids of the result's signatures, those added included; a `--limit` cut adds none."""
    from jdx.engine.cards import member_signatures

    items = result["signatures"]
    if result.get("total", len(items)) != len(items):
        return member_ids
    present = set(member_ids)
    out: list[tuple[dict, str]] = []
    for item, mid in zip(items, member_ids):
        d = (found.get(mid) or [None])[0]
        extra = []
        if d is not None and d["kind"] == "property" and d["name"] == result["name"]:
            for link in d["jvm"] or ():
                role, _, target = link.partition(":")
                if role in _ACCESSORS and target not in present:
                    present.add(target)
                    extra += [(s, target) for s in member_signatures(store, member_ref(target))[0]["signatures"][:1]]
        # a setter after the getter found, a getter before the field found
        out += [(item, mid)] + extra if d is not None and d["role"] in _ACCESSORS else extra + [(item, mid)]
    if len(out) == len(items):
        return member_ids
    result["signatures"] = [item for item, _ in out]
    result["total"] = len(out)
    result["next"] = None  # (as for any name of several members)
    return [mid for _, mid in out]


def one_declaration_member(store, members: list[dict]) -> dict | None:
    """Of the JVM members a bare `Type#name` names (a member_resolve.Lookup's `members`), the one that stands for all
    when every one compiles from one Kotlin declaration (a function's @JvmOverloads copies: one source text, one
    KDoc): the member of the declaration's main role (`method`, `static`, `facade`: every parameter), as `usages`
    names the one declaration (kotlin_hits.one_declaration); None otherwise: an ambiguity stays one (spec §6)."""
    if len(members) < 2 or any(m.get("is_field") for m in members):
        return None
    ids = [f"{m['declaring']}#{m['row']['name']}{m['row']['descriptor']}" for m in members]
    found = member_kotlin(store, ids)
    firsts = [found.get(i) for i in ids]
    if any(not rows for rows in firsts) or len({rows[0]["id"] for rows in firsts}) != 1:
        return None
    main = [m for m, rows in zip(members, firsts) if rows[0]["role"] in ("method", "static", "facade", "constructor")]
    return main[0] if len(main) == 1 else None


# annotations the Kotlin text already says (nullability in the types, @JvmName/@JvmStatic/... as markers)
_SAID = ("org.jetbrains.annotations.NotNull", "org.jetbrains.annotations.Nullable", "kotlin.jvm.JvmName",
         "kotlin.jvm.JvmStatic", "kotlin.jvm.JvmOverloads", "kotlin.jvm.JvmField", "kotlin.Metadata")


def kotlin_annotations(annotations: list[str]) -> list[str]:
    """The JVM member's annotations a Kotlin signature shows: all but those its text already carries."""
    return [a for a in annotations if a.lstrip("@").split("(", 1)[0] not in _SAID
            and not a.lstrip("@").startswith("kotlin.jvm.internal.")]
