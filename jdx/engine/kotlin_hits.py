"""The Kotlin view of answers that name symbols one per line (spec §12.1): `search` hits and the headings of the
relationship commands. A hit in a Kotlin class shows the Kotlin declaration it compiles from, next to the
canonical JVM reference an agent re-queries with; the JVM members of one declaration (a property's field,
getter and setter, a facade's copy and its part's method, a companion's @JvmStatic copy, @JvmOverloads
overloads) fold into one hit; a JVM overload group whose members come from several Kotlin declarations splits
into one hit per declaration. Java classes, and every answer under `--view jvm`, are left exactly as they are."""

from __future__ import annotations

from dataclasses import dataclass, field

from jdx.engine.kotlin_index import kotlin_links
from jdx.engine.kotlin_view import kotlin_entry, link_access, member_kotlin, member_ref
from jdx.engine.refs import format_type
from jdx.engine.search_index import group_rows, index_for
from jdx.graph_schema import queries_kotlin as q

ACC_PUBLIC, ACC_VARARGS = 0x0001, 0x0080
# which JVM member stands for a declaration: what a caller names first
MAIN_ROLES = ("method", "facade", "static", "getter", "field", "constructor", "setter", "overload", "default")
_HIDDEN_MARKERS = ("@JvmName",)  # the JVM reference on the line already says it


def has_kotlin(store) -> bool:
    """Whether the graph holds any Kotlin declaration (one query per open graph): a Java-only workspace pays
    nothing for the Kotlin view."""
    key = ("kotlin-decls-present",)
    found = store.memo.get(key)
    if found is None:
        found = store.memo[key] = bool(store.rows(q.KOTLIN_ANY))
    return found


def kotlin_text(d: dict) -> str:
    """A declaration as one search line shows it: Kotlin's default visibility (`public`) left out."""
    text = d["signature"]
    return text.removeprefix("public ")


def qualified_text(store, d: dict, owner: str | None = None) -> str:
    """A declaration's text with the class names it shares with another class qualified, as `outline` shows it
    (`fun java.nio.file.Path.toOkioPath(...): okio.Path`), `owner` the class the line names it in; the defaults an
    override inherits are left to `outline` (they need its supertypes read)."""
    from jdx.engine.kotlin_inherited import _chains

    return _chains(store).qualified_text(d, (owner,) if owner else (), defaults=False) or d["signature"]


def _member_ref(member_id: str, access: int | None) -> str:
    return member_ref(member_id, varargs=bool((access or 0) & ACC_VARARGS))


def main_member(d: dict, owner: str | None = None) -> str | None:
    """The JVM member id that stands for declaration `d`: in its multi-file facade (what callers name) when
    `owner` is the facade's part, else in `owner` when it has one there."""
    links = [link.split(":", 1) for link in d["jvm"] or () if not link.startswith("type:")]
    scopes = (d["facade"],) if d.get("facade") and owner == d["owner"] else ()
    for scope in scopes + ((owner,) if owner else ()) + (None,):
        for role in MAIN_ROLES:
            for r, target in links:
                if r == role and (scope is None or target.split("#", 1)[0] == scope):
                    return target
    return None


def kotlin_types_among(store, type_ids: set[str]) -> set[str]:
    """The Kotlin classes (with @kotlin.Metadata) among these type ids: from the Kotlin links beside the search index
    when the process holds them, else the graph."""
    links = kotlin_links(store)
    if links is not None:
        return {t for t in type_ids if t in links.types}
    return {r["id"] for r in store.rows(q.KOTLIN_TYPES_AMONG, {"ids": sorted(type_ids)})} if type_ids else set()


def type_headers(store, type_ids: set[str]) -> dict[str, dict]:
    """Type id -> its Kotlin class header (the declaration that compiles to the class itself), for those with one."""
    links = kotlin_links(store)
    if links is not None:
        return links.type_headers(sorted(type_ids))
    headers: dict[str, dict] = {}
    for r in store.rows(q.KOTLIN_OF_TYPES, {"ids": sorted(type_ids)}) if type_ids else ():
        headers.setdefault(r["member"], r)
    return headers


def search_view(store, matches: list[dict], limit: int | None = None) -> tuple[list[dict], int]:
    """(hits, change in the number of hits) for `search` in the Kotlin view. Each hit carries `_key` (owner,
    name, kind, descriptor, access) of the JVM group it stands for; hits of Kotlin classes gain `kotlin`. Hits
    past `limit` are counted but not rendered (the caller drops them)."""
    if not matches or not has_kotlin(store):
        return matches, 0
    # the Kotlin links are held beside the search index the search has loaded; without them the graph answers
    links = kotlin_links(store)
    kotlin_owners = kotlin_types_among(store, {m["_key"][0] for m in matches if "_key" in m})
    if not kotlin_owners:
        return matches, 0
    members = [m for m in matches if "_key" in m and m["_key"][0] in kotlin_owners and m["kind"] in ("method", "field")]
    types = [m for m in matches if "_key" in m and m["_key"][0] in kotlin_owners and m["kind"] not in ("method", "field")]
    groups: dict[tuple, list[dict]] = {}
    if members:
        names, member_owners = sorted({m["_key"][1] for m in members}), sorted({m["_key"][0] for m in members})
        found = group_rows(index_for(store), names, member_owners)
        for r in found:
            groups.setdefault((r["owner"], r["name"], r["kind"]), []).append(r)
    access = {r["id"]: r["access"] for rows in groups.values() for r in rows}
    decls = member_kotlin(store, list(access))
    headers = type_headers(store, {m["_key"][0] for m in types}) if types else {}
    # members that stand for a declaration found through another one (a property's getter found by its
    # field): their access decides the varargs form of the reference
    mains = {}
    for d_rows in decls.values():
        for d in d_rows:
            for link in d["jvm"] or ():
                t = link.split(":", 1)[1]
                if "(" in t and t not in access:
                    mains[t] = None
    if mains and links is not None:
        access.update({t: links.access[t] for t in mains if t in links.access})
        mains = {t: None for t in mains if t not in links.access}
    if mains:
        access.update({r["id"]: r["access"] for r in store.rows(q.METHOD_ACCESS, {"ids": sorted(mains)})})
    out: list[dict] = []
    seen: set[str] = set()
    room = len(matches) * 4 if limit is None else limit

    def shown() -> bool:
        return len(out) < room

    for m in matches:
        key = m.get("_key")
        if key is None or key[0] not in kotlin_owners:
            out.append(m)
            continue
        owner, name, kind = key[0], key[1], m["kind"]
        if kind not in ("method", "field"):
            header = headers.get(owner)
            out.append({**m, "kotlin": kotlin_entry(header)} if header and shown() else m)
            continue
        rows = groups.get((owner, name, kind))
        if not rows:
            out.append(m)
            continue
        found: dict[str, dict] = {}
        unclaimed = []
        for r in rows:
            ds = decls.get(r["id"])
            if ds:
                found.setdefault(ds[0]["id"], ds[0])
            else:
                unclaimed.append(r)
        for d in sorted(found.values(), key=lambda d: (d["owner"], d["position"])):
            if d["id"] in seen:
                continue
            seen.add(d["id"])
            if not shown():  # past the limit: counted, never rendered
                out.append(m)
                continue
            target = main_member(d, owner) or rows[0]["id"]
            hit = {**m, "kind": "method" if "(" in target else "field", "ref": _member_ref(target, access.get(target)),
                   "name": target.split("#", 1)[1].split("(", 1)[0].split(":", 1)[0],
                   "public": d["visibility"] in ("public", "internal")}
            hit.pop("overloads", None)
            if hit["kind"] == "method":
                hit["overloads"] = 1
            entry = kotlin_entry(d, {k: v or 0 for k, v in access.items()})
            entry["markers"] = [x for x in entry["markers"] if not x.startswith(_HIDDEN_MARKERS)]
            entry["text"] = qualified_text(store, d, owner)
            hit["kotlin"] = entry
            out.append(hit)
        if unclaimed and not shown():
            out.append(m)
        elif unclaimed:  # members of the group no Kotlin declaration claims stay one JVM hit
            rest = dict(m)
            if kind == "method":
                rest["overloads"] = len(unclaimed)
                one = unclaimed[0]
                rest["ref"] = (_member_ref(one["id"], one["access"]) if len(unclaimed) == 1
                               else f"{format_type(owner)}#{name}")
            out.append(rest)
    return out, len(out) - len(matches)


def strip_keys(matches: list[dict]) -> None:
    for m in matches:
        m.pop("_key", None)


# --- the relationship commands: headings and lines naming a Kotlin declaration ---------------------------------
_ROLE_MARKERS = {"getter": "getter", "setter": "setter", "default": "$default", "overload": "@JvmOverloads copy",
                 "static": "@JvmStatic copy", "field": "backing field"}


def line_entry(row: dict, access: dict[str, int] | None = None) -> dict:
    """The `kotlin` object of a line naming one JVM member: the declaration it compiles from, with the member's
    role (a property's `getter`, a function's `$default`), as `search` hits carry it."""
    entry = kotlin_entry(row, access)
    entry["markers"] = [x for x in entry["markers"] if not x.startswith(_HIDDEN_MARKERS)]
    entry["role"] = row["role"]
    roles = {link.split(":", 1)[0] for link in row["jvm"] or ()}
    if row["role"] in _ROLE_MARKERS and not (row["role"] == "field" and "getter" not in roles):
        marker = _ROLE_MARKERS[row["role"]]  # `@JvmOverloads copy` says more than the declaration's `@JvmOverloads`
        entry["markers"] = [x for x in entry["markers"] if not marker.startswith(x + " ")] + [marker]
    return entry


def members_of(store, ids: list[str]) -> dict[str, dict]:
    """JVM member id -> the `kotlin` object of the declaration it compiles from (members of Kotlin classes)."""
    if not ids or not has_kotlin(store):
        return {}
    found = member_kotlin(store, sorted(set(ids)))
    access = link_access(store, [rows[0] for rows in found.values()])
    return {mid: line_entry(rows[0], access) for mid, rows in found.items()}


def types_of(store, fqns: list[str]) -> dict[str, dict]:
    """Class name -> the `kotlin` object of its class header (Kotlin classes)."""
    if not fqns or not has_kotlin(store):
        return {}
    from jdx.engine.kotlin_index import kotlin_links

    links = kotlin_links(store)
    wanted = set(fqns) if links is None else set(fqns) & links.class_names()  # a long-lived reader asks for Kotlin's
    if not wanted:
        return {}
    out: dict[str, dict] = {}
    for r in store.rows(q.KOTLIN_HEADERS_BY_FQN, {"fqns": sorted(wanted)}):
        out.setdefault(r["member"], line_entry(r))
    return out


def one_declaration(found: dict[str, dict], ids: list[str]) -> dict | None:
    """The declaration every one of `ids` compiles from (a function's @JvmOverloads copies), or None."""
    entries = [found.get(i) for i in ids]
    if not entries or any(e is None for e in entries):
        return None
    names = {(e["name"], e["text"]) for e in entries}
    if len(names) != 1:
        return None
    main = dict(entries[0])
    main["markers"] = [x for x in main["markers"] if x not in _ROLE_MARKERS.values()]
    return main


# --- what a Kotlin caller calls: the sites `usages`, `callers` and `samples` report in the Kotlin view -------------
# A Kotlin caller that omits a defaulted argument calls the function's `$default` stub, and a property is used through
# its getter and setter; the JVM members a declaration forwards through (its `$default` stub, its @JvmOverloads
# copies) are its own code, not usages of it.
_FORWARDING = ("default", "overload")
_FUNCTION_MAINS = ("method", "facade", "static", "constructor")


@dataclass
class KotlinSites:
    """How the Kotlin view reads a symbol's sites. `stubs`: `$default` stub id -> the target its calls count for;
    `own`: id of a member that forwards (a `$default` stub, an @JvmOverloads copy) -> its declaration; `decl_of`:
    target or stub id -> its declaration. A property named by the reference (`prop` its representative target
    id, `members` its JVM members) has its accessors' calls as reads (`getters`) and writes (`setters`), its field
    accesses (`fields`) from outside its accessors (`accessors`). `companions`: of `stubs`, a `@JvmStatic` companion
    function's method on the companion when the reference named its static copy (it forwards to nothing)."""

    stubs: dict[str, str] = field(default_factory=dict)
    own: dict[str, str] = field(default_factory=dict)
    decl_of: dict[str, str] = field(default_factory=dict)
    prop: str | None = None
    getters: dict[str, str] = field(default_factory=dict)
    setters: dict[str, str] = field(default_factory=dict)
    fields: list[str] = field(default_factory=list)
    accessors: set[str] = field(default_factory=set)
    members: set[str] = field(default_factory=set)  # every JVM member of the property
    companions: dict[str, str] = field(default_factory=dict)
    inline_names: dict[str, frozenset[str]] = field(default_factory=dict)  # an inline function's target id -> names

    def forwarded(self, rows: list[dict], target_ids) -> dict[str, str]:
        """`$default` stub id -> the one of `target_ids` its own call (among the CALLS_INTO `rows`) forwards to: a
        stub's callers are its function's, whichever JVM member (a facade's copy, a part's method) that one is; a
        companion's method counts for the static copy named."""
        wanted = set(target_ids)
        out = {r["c_id"]: r["target"] for r in rows if r["c_id"] in self.stubs and r["target"] in wanted}
        out.update({s: t for s, t in self.companions.items() if t in wanted and s not in out})
        return out

    def forwarding(self, caller_id: str, target_id: str) -> bool:
        """Whether a call from `caller_id` into `target_id` is the declaration forwarding to itself, or an inline
        function's own code (`copied_body`)."""
        decl = self.decl_of.get(target_id)
        return decl is not None and self.own.get(caller_id) == decl or self.copied_body(caller_id, target_id)

    def copied_body(self, caller_id: str, target_id: str) -> bool:
        """Whether an inlined site of inline function `target_id` lies in a class kotlinc copied its body into: an
        anonymous object regenerated in it (`FlowKt__TransformKt$map$$inlined$unsafeTransform$1`, kotlinc 1.3's
        `Client$map$$inlined$unsafe$1`) or its own object copied at a call
        (`FlowKt__MergeKt$flatMapConcat$$inlined$map$1`). Its lambda's code there maps to the function's own lines
        (the SMAP's `54#2:223`, no call line): the function's code, whose call is the site that inlined it, never a
        caller of its own."""
        names = self.inline_names.get(target_id)
        if not names:
            return False
        cls = caller_id.split("#", 1)[0].rsplit(".", 1)[-1]
        return any(f"${n}$$inlined$" in cls or f"$$inlined${n}$" in cls for n in names)


def _links(d: dict) -> list[tuple[str, str]]:
    return [tuple(link.split(":", 1)) for link in d["jvm"] or () if not link.startswith("type:")]


def kotlin_sites(store, target_ids: list[str], member_name: str | None = None) -> KotlinSites | None:
    """The Kotlin reading of the sites of `target_ids` (the members one reference names, `member_name` its member
    part), or None when none of them compiles from a Kotlin declaration (Java answers pay one cached query)."""
    if not target_ids or not has_kotlin(store):
        return None
    decls = member_kotlin(store, sorted(set(target_ids)))
    if not decls:
        return None
    out = KotlinSites()
    props = [rows[0] for mid, rows in decls.items() if rows[0]["kind"] == "property"
             and rows[0]["role"] in ("field", "getter", "setter") and rows[0]["name"] == member_name]
    if props and len({d["id"] for d in props}) == 1:
        d = props[0]
        out.members = {m for _r, m in _links(d)}
        mine = [t for t in target_ids if t in out.members]
        out.prop = next((t for t in mine if "(" not in t), mine[0])
        for role, member in _links(d):
            if role == "getter":
                out.getters[member] = out.prop
            elif role == "setter":
                out.setters[member] = out.prop
            elif role == "field":
                out.fields.append(member)
        out.accessors = set(out.getters) | set(out.setters)
        return out
    for tid in target_ids:
        rows = decls.get(tid)
        if not rows or rows[0]["role"] == "default" or rows[0]["kind"] not in ("function", "constructor"):
            continue
        d = rows[0]
        links = _links(d)
        out.decl_of[tid] = d["id"]
        if "inline" in (d["flags"] or ()):
            out.inline_names[tid] = frozenset({tid.split("#", 1)[1].split("(", 1)[0], d["name"]})
        for role, member in links:
            if role in _FORWARDING:
                out.own[member] = d["id"]
        mains = [m for r in _FUNCTION_MAINS for role, m in links if role == r and m in target_ids]
        main = mains[0] if mains else tid

        def through(member: str) -> bool:
            """`member`'s calls count as calls of `main` (False: it is a target itself, or already counted)."""
            if member in target_ids or member in out.stubs:
                return False
            out.stubs[member], out.decl_of[member] = main, d["id"]
            return True

        statics = [m for role, m in links if role == "static"]
        for role, member in links:
            if role == "default" or role == "static":
                through(member)
            elif role == "method" and statics and through(member):
                out.companions[member] = main
        # a `@JvmStatic` companion function: its static copy on the outer class forwards to the companion's method;
        # Kotlin callers call the companion's method, Java callers may call either: one function, both its callers
        for static in statics:
            out.own[static] = d["id"]
    return out if out.stubs or out.own or out.inline_names else None


def through_name(member_id: str) -> str:
    """The JVM method name a site calls through (`topLevel$default`, `getLabel`, `Companion.origin`), as its `via`
    shows it."""
    owner, _, rest = member_id.partition("#")
    name = rest.split("(", 1)[0]
    if owner.endswith("$Companion") and not name.endswith("$default"):
        return "Companion." + name
    return "$default constructor" if name == "<init>" else name  # its descriptor ends in DefaultConstructorMarker


_TWIN_ROLES = {"method": "facade", "facade": "method", "getter": "getter", "setter": "setter", "default": "default"}


def facade_twins(store, ids) -> dict[str, tuple[str, str]]:
    """Member id -> (the facade's copy, the part's method) of the Kotlin declaration of a multi-file facade
    (`@file:JvmMultifileClass`) it compiles to, for those of `ids` that are one of the two: the facade's public
    static copy (what callers call) only calls the part's method, which holds the code. A function's pair, its
    `$default` stubs', or a property accessor's; a facade whose parts it inherits (kotlin-stdlib's) has no copies,
    so no pairs."""
    ids = sorted(set(ids))
    if not ids or not has_kotlin(store):
        return {}
    out = {}
    for mid, rows in member_kotlin(store, ids).items():
        d = rows[0]
        facade, part, twin = d.get("facade"), d["owner"], _TWIN_ROLES.get(rows[0]["role"])
        if not facade or twin is None or mid.split("#", 1)[0] not in (facade, part):
            continue
        mine = mid.split("#", 1)[0]
        other = next((m for role, m in (link.split(":", 1) for link in d["jvm"] or () if not link.startswith("type:"))
                      if role == twin and m != mid and m.split("#", 1)[0] in (facade, part)
                      and m.split("#", 1)[0] != mine), None)
        if other is not None:
            out[mid] = (mid, other) if mine == facade else (other, mid)
    return out


def twin_rows(rows: list[dict], pairs: dict[str, tuple[str, str]], ids: list[str]) -> list[dict]:
    """CALLS_INTO `rows` read as calls of `ids`: the facade copy's own call of its part's method left out, a call of
    the twin of one of `ids` (its facade copy, its part's method) made a call of that one, `via` the class it
    names (an inlined body names the part's method: its source is the part's)."""
    twin_of = {}
    for i in ids:
        if i in pairs:
            facade, part = pairs[i]
            twin_of[part if i == facade else facade] = i
    out = []
    for r in rows:
        pair = pairs.get(r["target"]) or pairs.get(twin_of.get(r["target"], ""))
        if pair and (r["c_id"], r["target"]) == pair:
            continue  # the copy forwarding to the part's method: the function itself
        if r["target"] in twin_of and r["target"] not in ids:
            via = r["via"] or (r["target"].split("#", 1)[0] if r["kind"] != "inline" else None)
            r = {**r, "target": twin_of[r["target"]], "via": via}
        out.append(r)
    return out
