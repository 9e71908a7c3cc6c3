"""The Kotlin view of `members` (spec §12.1): the JVM listing mapped to the Kotlin declarations it compiles from,
and the public Kotlin declarations whose JVM members Java cannot call (reified inline, @InlineOnly) added, marked
`Kotlin-only` (the rest of the Kotlin view: kotlin_view.py)."""

from __future__ import annotations

import json
import re

from jdx.engine.kotlin_consts import with_const_values
from jdx.engine.kotlin_opt_in import opt_in_markers
from jdx.engine.kotlin_signature import deprecation_levels
from jdx.engine.kotlin_view import (CALLED_ROLES, decls_of, enum_rows, holder_fields, jvm_access, keyword_of,
                                    link_access, mark_uncallable, member_kotlin, member_ref, no_arg_constructors,
                                    throws_annotation)
from jdx.engine.members import ACC
from jdx.engine.refs import format_type


def members_view(store, result: dict, access: tuple[str, ...] = ("public", "protected"), sort: str = "kind",
                 opts=None) -> None:
    """`members` of a Kotlin class (spec §9.3 step 7): each JVM member that compiles from a Kotlin declaration
    carries it; the declaration's other members (a property's setter, `$default`, @JvmOverloads copies) fold
    into the first one listed; members of Java supertypes keep their JVM form. An inherited Kotlin declaration
    reads as the class sees it (its supertype's type parameters substituted: `InheritedView`), a `DefaultImpls`
    forwarder carries the interface's declaration it stands for, and kotlinc's bridges of a collection's special
    members (`contains(String)`, `contains(Object)`) the declaration they bridge. An object's `INSTANCE` field and
    the field of the class's companion fold too (`kotlin_companion` names the companion to list);
    `kotlin_keyword` is the class's Kotlin kind word. A declaration only Kotlin calls, its JVM member private or
    synthetic (a reified inline function, an @InlineOnly one: `Registry.firstOf<T>()`, `let`), is listed as `outline`
    lists it, marked `Kotlin-only: …` (`opts`, the engine's MemberOptions, filters it as the JVM members were).
    `--grep` matches a row's Kotlin name too (`_grep_kotlin_names`); a method's `throws` is marked `@Throws(…)`, a
    companion's declaration with a JVM member in the class (@JvmStatic, @JvmField, const) `in companion object`, and
    in the companion's own `members` (`_outer_fields`) a const or @JvmField whose field is the outer class's. An enum
    class's entries and kotlinc's `values()`, `valueOf`, `entries` read as `outline` lists them (`enum_rows`), and
    kotlinc's no-argument copy of an all-defaults primary constructor folds into it (`no_arg_constructors`). The
    extensions declared for the class (`kotlin_extensions`) and for its supertypes (`kotlin_supertype_extensions`)
    are counted by file."""
    from jdx.engine.kotlin_inherited import InheritedView, companion_twin, written_arguments
    from jdx.engine.refs import type_id

    if opts is not None and opts.grep:
        _grep_kotlin_names(store, result, opts)
    items = result["members"]
    ids = [type_id(m["declaring"]) + "#" + m["name"] + (":" if m["kind"] == "field" else "")
           + m["descriptor"] for m in items]
    found = member_kotlin(store, ids)
    inherited = InheritedView(store, type_id(result["type"]), written_arguments(store, result))
    found = {**found, **inherited.forwarders(items, ids, found)}
    found = {**found, **inherited.bridges(items, ids, found)}
    target = type_id(result["type"])
    only = _kotlin_only(store, target, opts)
    own = decls_of(store, target)
    header = next((d for d in own if d["kind"] == "class" and d["owner"] == target), None)
    if header is None and not found and not only:  # (a class header alone gives the view: `members` of an interface
        return  # declaring nothing has its kind word and extensions, of an enum its entries, of a companion its consts)
    keyword = keyword_of(header)
    companion = json.loads(header["detail"] or "{}").get("companion") if header else None
    member_ids = set(ids)
    found = {**found, **{mid: [{**d, "member": mid, "role": "no_arg"}]
                         for mid, d in no_arg_constructors(target, own, member_ids).items()}}
    implicit = {}
    if keyword == "enum class":  # its entries and kotlinc's `values()`, `valueOf`, `entries`, as `outline` lists them
        implicit = {row.pop("_id"): row for rows in enum_rows(target, header, member_ids) for row in rows}
    if keyword == "companion object":
        _outer_fields(store, target, only, opts)
    artefacts = holder_fields(target, keyword, companion) | _inherited_holder_fields(store, target, items, ids, found)
    if companion:
        result["kotlin_companion"] = {"name": companion, "ref": format_type(f"{target}${companion}")}
    if keyword:
        result["kotlin_keyword"] = keyword
    thrown = _exceptions(store, [i for i in ids if i in found])
    deprecated = {mid for item, mid in zip(items, ids) if item.get("deprecated") and found.get(mid)}
    levels = deprecation_levels(store, [found[mid][0] for mid in sorted(deprecated)], deprecated)
    varargs = link_access(store, [rows[0] for rows in found.values() if rows] + [d for d, _, _ in only.items])
    seen: set[str] = set()
    out, folded, internal = [], 0, 0
    said: list[tuple[dict, dict]] = []  # (an entry, its declaration): for their opt-in markers
    # `internal` compiles to public JVM members a Kotlin caller outside the module cannot use: shown with package
    # access, as `outline` does
    hide_internal = "all" not in access and "package" not in access
    for item, mid in zip(items, ids):
        rows = found.get(mid)
        if mid in implicit:
            out.append({**item, "kotlin": {**implicit[mid], "role": _ENUM_ROLES[implicit[mid]["kind"]]}})
            continue
        if rows and rows[0]["role"] == "no_arg" and _main_member(rows[0]) in member_ids:
            folded += 1  # (the constructor's own member carries it)
            continue
        if mid in artefacts and not rows and item["static"]:
            folded += 1
            continue
        if rows and item["static"] and companion_twin(rows[0], mid, target):
            folded += 1
            continue
        if rows:
            row = rows[0]
            if hide_internal and row["visibility"] == "internal":
                internal += row["id"] not in seen
                seen.add(row["id"])
                continue
            if row["id"] in seen:
                folded += 1
                continue
            seen.add(row["id"])
            item = {**item, "kotlin": inherited.entry(row, varargs)}
            if row["id"] in only.markers:  # (its JVM member listed: --access all, --include-synthetic)
                item["kotlin"]["markers"].append(only.markers[row["id"]])
            if companion and row["owner"] == f"{target}${companion}" and mid.split("#", 1)[0] == target:
                # a @JvmStatic copy, a @JvmField or `const val` of the companion: as `outline` marks it
                item["kotlin"]["markers"].append("in companion object" + (
                    "" if companion == "Companion" else f" {companion}"))
            if item["kind"] == "method":
                item["kotlin"]["markers"] += throws_annotation(thrown.get(mid))
            if levels.get(row["id"]) in ("ERROR", "HIDDEN"):
                mark_uncallable(store, item["kotlin"], row, levels[row["id"]])
            said.append((item["kotlin"], row))
        out.append(item)
    extra = False
    for d, role, item in only.items:
        if d["id"] in seen:
            continue
        seen.add(d["id"])
        if hide_internal and d["visibility"] == "internal":
            internal += 1
            continue
        if not only.wanted(d, access):
            continue
        entry = inherited.entry({**d, "role": role}, varargs)
        entry["markers"].append(only.markers[d["id"]])
        out.append({**item, "kotlin": entry})
        said.append((entry, d))
        extra = True
    opt_in = opt_in_markers(store, [d for _, d in said])
    for entry, d in said:
        entry["markers"] += opt_in.get(d["id"], [])
    with_const_values(store, said)
    if extra:  # in the order `members` gives the JVM members (jdx.engine.members.list_members)
        out.sort(key=only.sort_key(sort))
    result["members"] = _by_kotlin_name(out, sort)
    result["view"] = "kotlin"
    extensions = extensions_of(store, target)
    if extensions:
        result["kotlin_extensions"] = extensions
    inherited_extensions = supertype_extensions(store, target)
    if inherited_extensions:
        result["kotlin_supertype_extensions"] = inherited_extensions
    result["folded"] = folded
    if internal:
        result["internal_hidden"] = internal


def extensions_of(store, type_id: str) -> list[dict]:
    """The public top-level extensions declared for the class (`val KClass<*>.memberProperties`), counted by the file
    facade an importer names (`kotlin.reflect.full.KClasses`: 25), most first: `members` lists what the class declares
    and inherits, and a Kotlin caller also calls these on it. Member extensions of other classes are left out (they
    need that class in scope)."""
    from jdx.graph_schema import queries_kotlin as qk

    name = format_type(type_id).replace("$", ".")
    rows = store.rows(qk.KOTLIN_EXTENSIONS_OF, {"plain": f'"receiver":"{name}"', "generic": f'"receiver":"{name}<',
                                               "nullable": f'"receiver":"{name}?"'})
    if not rows:
        return []
    from jdx.engine.kotlin_toplevel import hidden_decls

    classes = {r["owner"] for r in store.rows(qk.EXTENSION_HOLDERS_THAT_ARE_CLASSES,
                                              {"owners": sorted({r["owner"] for r in rows})})}
    hidden = hidden_decls(store, rows)  # `@Deprecated(level = HIDDEN)`: no caller can use it (outline leaves it out)
    counts: dict[str, int] = {}
    for r in rows:
        if r["owner"] not in classes and r["id"] not in hidden:
            facade = format_type(r["facade"] or r["owner"])
            counts[facade] = counts.get(facade, 0) + 1
    return [{"facade": f, "count": n} for f, n in sorted(counts.items(), key=lambda x: (-x[1], x[0]))]


SUPERTYPE_EXTENSIONS = 8  # the nearest supertypes whose extensions a `members` answer counts (one scan each)


def supertype_extensions(store, type_id: str) -> list[dict]:
    """The public top-level extensions declared for the class's supertypes (`extensions_of` each), which a Kotlin
    caller calls on the class too (a DSL builder implementing its `*Keys` interface: `ScriptCompilationConfiguration {
    defaultImports(…) }`): {receiver, facade, count} of the nearest `SUPERTYPE_EXTENSIONS` supertypes outside the Java
    platform (`_platform`: Object, `java.io.Closeable`, the JDK types Kotlin maps to its own, whose extensions are
    everyone's), by receiver in walk order, most first within."""
    from jdx.engine import members as jm
    from jdx.graph_schema import queries

    rows = store.rows(queries.TYPE_BY_ID, {"id": type_id})
    if not rows:
        return []
    walk = jm.supertype_walk(store, {k[2:]: v for k, v in rows[0].items()})
    supers = [row["id"] for row, _ in walk if row["id"] != type_id and not _platform(row)][:SUPERTYPE_EXTENSIONS]
    return [{"receiver": format_type(s), **e} for s in supers for e in extensions_of(store, s)]


def _platform(row: dict) -> bool:
    """Whether a type row of a supertype walk is the Java platform's (or outside the workspace): no Kotlin
    declarations of its own."""
    return bool(row.get("external") or row["id"].startswith(("java/", "javax/", "jdk/")))


_ENUM_ROLES = {"enum entry": "field", "function": "method", "property": "getter"}


def _main_member(row: dict) -> str | None:
    """The JVM member a constructor declaration compiles to itself (its `constructor` link)."""
    return next((link.split(":", 1)[1] for link in row["jvm"] or () if link.startswith("constructor:")), None)


def _outer_fields(store, target: str, only: "_KotlinOnly", opts) -> None:
    """A companion's properties whose only JVM member is a static field of its outer class (a `const val`, an
    `@JvmField`: kotlin-reflect lists them as the companion's; a Java caller names them in the outer class) join
    `only`'s rows as the companion's own, with that field, marked `JVM field in <outer>` (filtered by `opts` as
    `_kotlin_only` filters its rows, by the field)."""
    from jdx.engine import members as jm

    outer = target.rsplit("$", 1)[0]
    hosted = []
    for d in decls_of(store, target):
        targets = [link.split(":", 1)[1] for link in d["jvm"] or () if not link.startswith("type:")]
        fields = [t for t in targets if t.split("#", 1)[0] == outer and "(" not in t]
        if d["kind"] == "property" and fields and not any(t.split("#", 1)[0] == target for t in targets):
            hosted.append((d, fields[0]))
    if not hosted or (opts is not None and (opts.kind not in ("all", "field") or opts.static is False)):
        return
    if opts is not None and opts.from_type and target not in _from_ids(store, opts.from_type, [target]):
        return
    grep = re.compile(opts.grep, re.IGNORECASE) if opts is not None and opts.grep else None
    rows = {f"{outer}#{f['name']}:{f['descriptor']}": f for f in jm.declared_members(store, [({"id": outer}, {})])[1]
            .get(outer, ())}
    where = "JVM field in " + format_type(outer).rsplit(".", 1)[-1].replace("$", ".")
    for d, fid in hosted:
        f = rows.get(fid)
        if f is None or (grep and not (grep.search(d["name"]) or grep.search(f["name"]))):
            continue
        item = {"ref": member_ref(fid), "kind": "field", "declaring": format_type(target), "name": f["name"],
                "descriptor": f["descriptor"], "access": jm.access_level(f["access"]),
                "static": bool(f["access"] & _ACC_STATIC), "text": jm.render_field(f, {}, (target,)),
                "deprecated": bool(f.get("deprecated"))}
        only.items.append((d, "field", item))
        only.markers[d["id"]] = where


def _exceptions(store, method_ids: list[str]) -> dict[str, list[str]]:
    """JVM method id -> the exceptions its `throws` clause names (`java.io.IOException`), for those with any."""
    from jdx.engine.members import declared_members

    owners = sorted({i.split("#", 1)[0] for i in method_ids if "(" in i})
    if not owners:
        return {}
    methods = declared_members(store, [({"id": o}, {}) for o in owners])[0]
    wanted = set(method_ids)
    return {key: [format_type(e) for e in m["exceptions"]] for o in owners for m in methods.get(o, ())
            if m.get("exceptions") and (key := f"{o}#{m['name']}{m['descriptor']}") in wanted}


def _inherited_holder_fields(store, target: str, items: list[dict], ids: list[str], found: dict) -> set[str]:
    """`holder_fields` of the Kotlin supertypes whose static fields the class inherits (`Deferred` inherits `Job`'s
    companion field `Key`, which Kotlin code writes `Job.Key` or `Job`): one header read per such supertype."""
    from jdx.engine.refs import type_id

    owners = sorted({type_id(i["declaring"]) for i, mid in zip(items, ids)
                     if i["kind"] == "field" and i["static"] and not found.get(mid)} - {target})
    out: set[str] = set()
    for owner in owners:
        header = next((d for d in decls_of(store, owner) if d["kind"] == "class" and d["owner"] == owner), None)
        if header is not None:
            out |= holder_fields(owner, keyword_of(header), json.loads(header["detail"] or "{}").get("companion"))
    return out


def _grep_kotlin_names(store, result: dict, opts) -> None:
    """`--grep` in the Kotlin view matches the Kotlin name a row shows as well as its JVM name: list_members kept
    the members whose JVM name matches; those whose declaration's Kotlin name matches join them in list_members'
    order (`--grep '^toHttpUrl$'` lists `HttpUrl.get(String)`, shown as `String.toHttpUrl()`)."""
    from dataclasses import replace

    from jdx.engine.members import list_members
    from jdx.engine.refs import type_id

    grep = re.compile(opts.grep, re.IGNORECASE)
    applied = result.get("type_arguments")
    text = result["type"] + (f"<{', '.join(applied.values())}>" if applied else "")
    every = list_members(store, text, replace(opts, grep=None))["members"]
    kept = {m["ref"] for m in result["members"]}
    missing = {type_id(m["declaring"]) + "#" + m["name"] + (":" if m["kind"] == "field" else "") + m["descriptor"]:
               m["ref"] for m in every if m["ref"] not in kept}
    joined = {missing[i] for i, rows in member_kotlin(store, list(missing)).items()
              if any(grep.search(r["name"]) for r in rows)}
    if joined:
        result["members"] = [m for m in every if m["ref"] in kept or m["ref"] in joined]


class _KotlinOnly:
    """The declarations of a `members` answer's class and its supertypes that only Kotlin calls (jvm_access): their JVM
    member is private or synthetic, so the JVM members leave them out. `items`: (declaration row, the role of its JVM
    member, that member as a `members` item), `markers`: declaration id -> `Kotlin-only: …`."""

    def __init__(self):
        self.items: list[tuple[dict, str, dict]] = []
        self.markers: dict[str, str] = {}
        self.depth: dict[str, int] = {}

    def __bool__(self) -> bool:
        return bool(self.items)

    @staticmethod
    def wanted(d: dict, access: tuple[str, ...]) -> bool:
        """--access by the declaration's Kotlin visibility (internal is package, as `outline` has it)."""
        return "all" in access or {"internal": "package"}.get(d["visibility"], d["visibility"]) in access

    def sort_key(self, sort: str):
        order = {"constructor": 0, "field": 1, "method": 2}
        if sort == "name":
            return lambda x: (x["name"], x["ref"])
        if sort == "declaring":
            return lambda x: (self.depth.get(x["declaring"], 99), x["name"], x["ref"])
        return lambda x: (self.depth.get(x["declaring"], 99), order[x["kind"]], x["name"], x["ref"])


_ACC_STATIC, _ACC_VARARGS = 0x8, 0x80


def _kotlin_only(store, target: str, opts) -> _KotlinOnly:
    """The Kotlin-only declarations `members` of `target` lists (`_KotlinOnly`): those of the class (a file facade's
    include its parts'), and with `opts.inherited` those of the Kotlin classes above it, each with the JVM member it
    compiles to, filtered by `opts` (--kind, --static, --from, --grep by its Kotlin or its JVM name; --access is the
    caller's, by Kotlin visibility). A member of a supertype is listed as inherited from it; a facade's part that is no superclass (kotlinc
    1.3) as the class's own. A constructor (a sealed class's) is left out: only its subclasses call it."""
    from jdx.engine import members as jm
    from jdx.graph_schema import queries

    got = _KotlinOnly()
    if opts is None:
        return got
    rows = store.rows(queries.TYPE_BY_ID, {"id": target})
    if not rows:
        return got
    start = {k[2:]: v for k, v in rows[0].items()}
    walk = jm.supertype_walk(store, start) if opts.inherited else [(start, {})]
    walk_ids = [row["id"] for row, _ in walk]
    got.depth = {format_type(t): i for i, t in enumerate(walk_ids)}
    decls: dict[str, dict] = {}
    for row, _ in walk:
        if row["id"] == target or not _platform(row):
            for d in decls_of(store, row["id"]):
                if d["kind"] in ("function", "property") and d["visibility"] != "private":
                    decls.setdefault(d["id"], d)
    if not decls:
        return got
    called = {}
    for d in decls.values():
        links = [link.split(":", 1) for link in d["jvm"] or ()]
        targets = [(r, t) for r, t in links if r in CALLED_ROLES and "(" in t]
        if targets:
            called[d["id"]] = targets
    owners = sorted({t.split("#", 1)[0] for targets in called.values() for _, t in targets})
    methods = jm.declared_members(store, [({"id": o}, {}) for o in owners])[0]
    by_id = {f"{o}#{m['name']}{m['descriptor']}": m for o in owners for m in methods.get(o, ())}
    # the cheap test first (each JVM member private or synthetic), jvm_access's own for those left
    candidates = [decls[i] for i, targets in called.items()
                  if all(by_id.get(t) is not None and by_id[t]["access"] & (ACC["synthetic"] | ACC["private"])
                         for _, t in targets)]
    if not candidates:
        return got
    markers = {i: m for i, m in jvm_access(store, candidates)[1].items() if m != "Kotlin-only: sealed"}
    got.markers = markers
    grep = re.compile(opts.grep, re.IGNORECASE) if opts.grep else None
    from_ids = _from_ids(store, opts.from_type, walk_ids) if opts.from_type else None
    for d in candidates:
        if d["id"] not in markers:
            continue
        role, mid = called[d["id"]][0]
        m = by_id[mid]
        owner, name = mid.split("#", 1)[0], m["name"]
        declaring = owner if owner in walk_ids else target
        access = m["access"]
        if opts.kind not in ("all", "method"):
            continue
        if opts.static is not None and bool(access & _ACC_STATIC) != opts.static:
            continue
        if from_ids is not None and declaring not in from_ids:
            continue
        if grep and not (grep.search(name) or grep.search(d["name"])):
            continue
        text = jm.render_method(m, jm.d.simple_name_of(owner), {}, (target,))[0]
        item = {"ref": member_ref(mid, bool(access & _ACC_VARARGS)), "kind": "method",
                "declaring": format_type(declaring), "name": name, "descriptor": m["descriptor"],
                "access": jm.access_level(access), "static": bool(access & _ACC_STATIC), "text": text,
                "deprecated": bool(m.get("deprecated"))}
        got.items.append((d, role, item))
    return got


def _from_ids(store, text: str, walk_ids: list[str]) -> set[str]:
    """`--from`'s supertype among the walk's (list_members has checked it is one)."""
    from jdx.engine.resolve import resolve_type
    from jdx.errors import AmbiguousError

    try:
        return {resolve_type(store, text)["id"]}
    except AmbiguousError as exc:
        named = {c.get("ref") for c in exc.candidates}
        return {t for t in walk_ids if format_type(t) in named}


def _by_kotlin_name(items: list[dict], sort: str) -> list[dict]:
    """The members in `--sort` order by the names a Kotlin caller writes: a property sits by its name, not by its
    getter's (`val routeDatabase` among the r's, not by `getRouteDatabase`), a deprecated `@JvmName("-deprecated_x")`
    function beside its `val x`. The groups the JVM order made (declaring type, then kind) stay as they were."""
    group: list[int] = []
    last = None
    for item in items:
        key = (None if sort == "name" else item["declaring"], item["kind"] if sort == "kind" else None)
        if key != last:
            group.append(len(group))
            last = key
        else:
            group.append(group[-1])
    def entry(i: int) -> tuple:  # enum entries keep the JVM order: declaration order, their ordinals
        return (0, i) if (items[i].get("kotlin") or {}).get("kind") == "enum entry" and sort != "name" else (1, 0)

    order = sorted(range(len(items)), key=lambda i: (group[i], *entry(i), (items[i].get("kotlin") or {}).get("name")
                                                      or items[i]["name"], items[i]["ref"]))
    return [items[i] for i in order]
