"""`search`'s Kotlin view: declarations found by their Kotlin names (type aliases, functions and properties whose
JVM member has another name), and private or synthetic JVM members a public Kotlin declaration compiles to, which
rank as public. Each hit is ranked by `search_rank.group_key` as a JVM hit of that name would be.
"""

from __future__ import annotations

from jdx.engine.ranking import internal_packages
from jdx.engine.refs import format_type
from jdx.engine.search_index import index_for
from jdx.engine.search_match import Pattern, fuzzy_budget, levenshtein, owner_test
from jdx.engine.search_rank import (ACC_DEPRECATED, ACC_VARARGS, ALIAS, group_key, match_word, reach_first,
                                    written_name)
from jdx.graph_schema.store import GraphStore

ACC_SYNTHETIC = 0x1000


def kotlin_public(store: GraphStore, groups: list) -> None:
    """A method group private or synthetic on the JVM that compiles from a public Kotlin declaration (a reified
    inline function, an @InlineOnly one) ranks as public: Kotlin callers name it. One a deprecation hid
    (`@Deprecated(level = HIDDEN)`: public and synthetic on the JVM) ranks as non-public and says so (`hidden`):
    no caller can name it; so does one public on the JVM that compiles from an `internal` declaration (okio's
    `internal fun Buffer.toPath()`): another module's Kotlin code cannot call it. So does an `internal` class, and
    what is declared in one (`internal interface DelayWithTimeoutDiagnostics`), as a non-public type's members do."""
    from jdx.engine.kotlin_hits import has_kotlin

    if not has_kotlin(store):
        return
    methods = {f"{g['owner']}#{g['name']}{g['descriptor']}": g for _, g in groups
               if g["kind"] == "method" and g.get("descriptor")}
    if methods:
        _methods_public(store, methods)
    internal = _internal_classes(store, {g["owner"] for _, g in groups if g["pub"]})
    for _, g in groups:
        if g["pub"] and g["owner"] in internal:
            g["pub"] = False


def _methods_public(store: GraphStore, methods: dict[str, dict]) -> None:
    """`kotlin_public` of the method groups (by the id of the member that stands for each) by their declarations."""
    from jdx.engine.kotlin_view import member_kotlin

    found = member_kotlin(store, list(methods))
    for mid, rows in found.items():
        if rows and rows[0]["visibility"] == "internal":
            methods[mid]["pub"] = False
    closed = {mid: g for mid, g in methods.items() if not g["pub"] or (g["access"] or 0) & ACC_SYNTHETIC}
    decls = {mid: rows[0] for mid, rows in found.items()
             if mid in closed and rows and rows[0]["visibility"] == "public"}
    hidden = _hidden(store, [dict(x, main=mid) for mid, x in decls.items()], {mid: closed[mid] for mid in decls})
    for mid, x in decls.items():
        closed[mid]["pub"] = x["id"] not in hidden
        if x["id"] in hidden:
            closed[mid]["hidden"] = True


def _internal_classes(store: GraphStore, type_ids: set[str]) -> set[str]:
    """The types among these ids that are Kotlin `internal` classes or nested in one (public on the JVM)."""
    from jdx.engine.kotlin_hits import kotlin_types_among, type_headers

    around = {t: [t[:i] for i in range(t.rfind("/") + 2, len(t)) if t[i] == "$"] + [t] for t in type_ids}
    kotlin = kotlin_types_among(store, {o for outers in around.values() for o in outers})
    if not kotlin:
        return set()
    closed = {t for t, h in type_headers(store, kotlin).items() if h["visibility"] == "internal"}
    return {t for t, outers in around.items() if any(o in closed for o in outers)}


def alias_rows(store: GraphStore, p: Pattern, art_ids, pkg: str | None, owners, by_id: dict[str, dict],
                fuzzy: bool) -> list[tuple[tuple, dict]]:
    """Kotlin type aliases the pattern matches, ranked as types (search_aliases.py): `typealias kx.Transform<T> =
    (T) -> T`, with the class it expands to when the workspace has it (`expands_to`)."""
    from jdx.engine.search_aliases import alias_matches, group_of

    found = alias_matches(store, p, p.lower if fuzzy else None, art_ids, pkg, owners[0] if owners else None)
    if not found:
        return []
    internal = internal_packages(store)
    typo = p.lower if fuzzy else None
    out = []
    for tier, a in found:
        art = by_id.get(a.artifact, {})
        g = group_of(a, art.get("rank", 1 << 30))
        row = {"kind": ALIAS, "ref": format_type(a.id), "name": a.name, "artifact": art.get("name", ""),
               "origin": art.get("origin", ""), "public": a.public,
               "match": "fuzzy" if fuzzy else match_word(p, tier, None, a.name)}
        if fuzzy:
            row["distance"] = tier
        row["_alias"] = a  # its expansion is looked up only if it is shown (_run)
        out.append((group_key(tier, g, typo, internal, written_name(p, fuzzy), reach_first(p, fuzzy)), row))
    return out


def kotlin_name_rows(store: GraphStore, p: Pattern, kinds: set[str], art_ids, pkg: str | None, owners,
                      by_id: dict[str, dict], fuzzy: bool) -> tuple[list[tuple[tuple, dict]], set[tuple]]:
    """Kotlin functions and properties matched by their Kotlin name where their JVM member has another name (not in
    the search index by it: `toHttpUrl`, @JvmName `get`; `lastIndex`, `getLastIndex`), ranked as that name would be,
    and the JVM groups (owner, name, kind) a pattern's JVM name match finds some of them through (each declaration
    counts once). Each is one hit of its declaration, its ref the JVM member that stands for it; one a JVM name
    finds at least as well is left to it (`*` ranks as before); the declaration is read only if the hit is shown
    (`kotlin_name_fields`)."""
    import re

    from jdx.engine.kotlin_toplevel import kotlin_names

    names = kotlin_names(store)
    if names is None:
        return [], set()
    budget = fuzzy_budget(p.lower)
    tiers = names.names.fuzzy(p.lower, budget) if fuzzy else names.names.matching(p)
    if not tiers:
        return [], set()
    found = [(tier, x) for name, tier in tiers.items() for x in names.by_name[name]]
    links = {x["id"]: [link.split(":", 1)[1] for link in x["jvm"] or () if not link.startswith("type:")]
             for _t, x in found}
    listed = names.listed  # a warm search reads no index row twice
    missing = {m for ms in links.values() for m in ms if m not in listed}
    if missing:
        found_rows = index_for(store).members(missing)
        listed.update({m: found_rows.get(m) for m in missing})
    arts = set(art_ids) if art_ids is not None else None
    package_rx = re.compile(pkg) if pkg is not None else None
    owner_ok = owner_test(owners[1], False) if owners is not None else None

    def searched(row: dict | None) -> bool:
        """Whether the JVM member is one this search's filters keep."""
        return row is not None and row["kind"] in kinds and (arts is None or row["artifact"] in arts) and (
            package_rx is None or package_rx.fullmatch(row["package"] or "")) and (
            owner_ok is None or owner_ok(row["owner"]))

    def jvm_tier(name: str) -> int | None:
        if not fuzzy:
            return p.tier(name)
        distance = levenshtein(name.lower(), p.lower) if abs(len(name) - len(p.lower)) <= budget else budget + 1
        return distance if distance <= budget else None

    internal = internal_packages(store)
    typo = p.lower if fuzzy else None
    hidden = _hidden(store, [x for _t, x in found], listed)
    out, twice = [], set()
    for tier, x in found:
        main = listed.get(x["main"])
        if not searched(main):
            continue
        by_jvm = {(r["owner"], r["name"], r["kind"]): t for m in links[x["id"]] if searched(r := listed.get(m))
                  and (t := jvm_tier(r["name"])) is not None}
        if by_jvm and min(by_jvm.values()) <= tier:
            continue  # its JVM hit ranks as well
        twice.update(by_jvm)
        art = by_id.get(main["artifact"], {})
        # a multi-file part's member is public in its facade; one a deprecation hid ranks after what callers can use
        g = {"name": x["name"], "owner": main["owner"], "rank": main["rank"], "kind": main["kind"],
             "pub": (main["pub"] or x["visibility"] == "public") and x["visibility"] != "internal"
             and x["id"] not in hidden,
             "deprecated": bool((main["access"] or 0) & ACC_DEPRECATED)}
        row = {"kind": main["kind"], "ref": main["id"], "name": main["name"], "artifact": art.get("name", ""),
               "origin": art.get("origin", ""), "public": x["visibility"] in ("public", "internal"),
               "match": "fuzzy" if fuzzy else match_word(p, tier, None, x["name"])}
        if main["kind"] == "method":
            row["overloads"] = 1
        if fuzzy:
            row["distance"] = tier
        if x["id"] in hidden:
            row["hidden"] = True
        elif g["deprecated"]:
            row["deprecated"] = True
        row["_renamed"] = (x["id"], main["id"], main["access"], bool(by_jvm))  # by_jvm: search_view shows it too
        out.append((group_key(tier, g, typo, internal, written_name(p, fuzzy), reach_first(p, fuzzy)), row))
    return out, twice


def _hidden(store: GraphStore, decls: list[dict], listed: dict[str, dict | None]) -> set[str]:
    """The ids of the declarations a deprecation hid (`@Deprecated(level = HIDDEN)`: kotlin_toplevel.hidden_decls),
    read for those whose JVM member is synthetic only (a hidden one's always is)."""
    from jdx.engine.kotlin_toplevel import hidden_decls

    synthetic = [x for x in decls if ((listed.get(x["main"]) or {}).get("access") or 0) & ACC_SYNTHETIC]
    if not synthetic:
        return set()
    return hidden_decls(store, synthetic, ({x["id"]: x["main"] for x in synthetic},
                                           {x["main"]: listed[x["main"]]["access"] or 0 for x in synthetic}))


def kotlin_name_fields(store: GraphStore, rows: list[dict]) -> None:
    """The declaration and JVM reference of each shown Kotlin-name hit, as kotlin_hits.search_view gives its hits
    (the @JvmName marker left out: the reference names the JVM member)."""
    if not rows:
        return
    from jdx.engine.kotlin_hits import qualified_text
    from jdx.engine.kotlin_view import kotlin_entry, link_access, member_kotlin, member_ref

    decls = member_kotlin(store, sorted({r["_renamed"][1] for r in rows}))
    flags = link_access(store, [d for ds in decls.values() for d in ds])
    for r in rows:
        decl_id, main, access, _twice = r["_renamed"]
        decl = next((x for x in decls.get(main, ()) if x["id"] == decl_id), None)
        r["ref"] = member_ref(main, varargs=bool((access or 0) & ACC_VARARGS))
        if decl is not None:
            entry = kotlin_entry(decl, flags)
            entry["markers"] = [x for x in entry["markers"]
                                if not x.startswith(("@JvmName", "@get:JvmName", "@set:JvmName"))]
            entry["text"] = qualified_text(store, decl, main.split("#", 1)[0])
            r["kotlin"] = entry
