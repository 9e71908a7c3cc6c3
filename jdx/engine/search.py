"""`search`: symbol search over the workspace graph (spec §7.2), ranked the way a user expects.

Ranking key, first difference wins: for a pattern without a qualifier, public types (packages, modules) first,
public members next, the rest last (`ranking.reach`: public is a type's access and that of every class around it;
a non-public type named as the pattern is written, case and all, ranks with the public members; a typo's near
names skip it); then the match tier
(exact simple name, prefix, camel-hump, a later word; a glob
or regex match ranks as camel-hump; --fuzzy ranks by edit distance; a name missing a capital of a camel-hump
pattern ranks after the names that carry them all, search_index.rank_tier), then `ranking.symbol_key` (the JDK's
implementation packages after everything else; then, in the exact tier, a type named as the pattern is
written, case and all, before the other exact matches; public before non-public, then a package named
`internal` after the others, then a deprecated symbol (`@Deprecated`, or declared in a deprecated class) after the
others (a tier's order only, never below a worse tier), then the workspace's and its
dependencies' non-public types before the JDK's; shorter names, fewer nesting levels, origin: workspace class
dirs, then jars, then the JDK, each in classpath order), then name, owner and kind, so equal inputs give equal
bytes. `Type#member` searches the members of the types the qualifier names.
The search index built beside the graph (search_files.py, with each name's words precomputed by
schema.name_words) does the matching, so a query never splits a name.
"""

from __future__ import annotations

import functools
import heapq
from collections import defaultdict
from dataclasses import dataclass, replace

from jdx.engine import search_kotlin
from jdx.engine.ranking import PUBLIC_MEMBER, internal_packages, is_jdk_internal, reach
from jdx.engine.refs import MAX_REF_LENGTH, format_member, format_type, shown_text
from jdx.engine.search_index import index_for, pa_strings, rank_tier, tier_word
from jdx.engine.search_match import (HUMP, TIER_NAMES, Pattern, compile_pattern, empty_member_pattern,
                                     fuzzy_budget, glob_to_regex, levenshtein, name_words, nested_dots,
                                     qualifier_regex)
from jdx.engine.search_rank import (ACC_DEPRECATED, ACC_VARARGS, ALIAS, MEMBER_KINDS, enclosed_flags, group_key,
                                    match_word, reach_first, type_flags, written_name)
from jdx.engine.search_owners import hump_owners, name_facades, names_a_type, owner_tier
from jdx.errors import NotFoundError, UsageError
from jdx.graph_schema import queries_search
from jdx.graph_schema.queries_search import TYPE_KINDS
from jdx.graph_schema.store import GraphStore
from jdx.graph_schema.schema import origin_ranks

SYMBOL_KINDS = TYPE_KINDS + ("method", "field")
ALL_KINDS = SYMBOL_KINDS + (ALIAS, "package", "module")
ACC_PUBLIC = 0x0001
DEFAULT_LIMIT = 50


@dataclass
class SearchOptions:
    kinds: tuple[str, ...] = ()  # empty: every kind
    regex: bool = False
    fuzzy: bool = False
    artifact_globs: tuple[str, ...] = ()  # --in: empty, every artifact
    package_glob: str | None = None
    limit: int = DEFAULT_LIMIT
    view: str = "jvm"  # kotlin: hits in Kotlin classes show their Kotlin declarations (kotlin_hits.py)


def parse_kinds(values: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """--kind values (repeatable, comma lists); `type` stands for every type kind and Kotlin's type aliases (IntelliJ's
    Go to Class lists them too); `class`, `interface`, ... name what the JVM declares, so no alias."""
    out: list[str] = []
    for value in values:
        for k in value.split(","):
            k = k.strip().lower()
            if not k or k == "all":
                continue
            if k == "type":
                out.extend(TYPE_KINDS + (ALIAS,))
            elif k in ALL_KINDS:
                out.append(k)
            else:
                raise UsageError(f"--kind {k!r}: use {'|'.join(ALL_KINDS)}, type or all")
    return tuple(dict.fromkeys(out))


def artifact_table(store: GraphStore) -> list[dict]:
    """Artifacts in classpath order with their search rank and origin word."""
    from jdx.graph_schema.store import artifact_rows

    rows = artifact_rows(store)
    rank = dict(zip((r["a.id"] for r in rows), origin_ranks([r["a.kind"] for r in rows])))
    origin = {"dir": "workspace", "jar": "dependency", "jrt": "jdk"}
    return [{"id": r["a.id"], "name": r["a.name"], "kind": r["a.kind"], "position": r["a.position"],
             "classes": r["a.classes"], "rank": rank[r["a.id"]], "origin": origin.get(r["a.kind"], "dependency"),
             "module": r.get("a.module")} for r in rows]


def artifacts_by_id(store: GraphStore) -> dict[str, dict]:
    """`artifact_table`'s rows by artifact id."""
    return {a["id"]: a for a in artifact_table(store)}


def select_artifacts(store: GraphStore, globs: tuple[str, ...]) -> list[dict] | None:
    """Artifacts `--in` accepts, matched as every other command's `--in` (name, path or file name; None: no
    filter); a glob matching none is a not-found with the nearest names."""
    if not globs:
        return None
    from jdx.engine.relations import ArtifactFilter, Artifacts

    found, arts = ArtifactFilter(list(globs)), Artifacts.of(store)
    found.check(arts, store)
    return [a for a in artifact_table(store) if found.accepts(arts, a["id"])]


def package_regex(glob: str | None) -> str | None:
    if glob is None:
        return None
    if not glob.strip():
        raise UsageError("--package needs a package name or glob, e.g. java.util or 'com.google.*'")
    return glob_to_regex(glob)


def _group(rows: list[dict], tier_of, flags: tuple[frozenset[str], frozenset[str]]) -> list[tuple[int, dict]]:
    """Index rows -> (tier, group): one group per (name, kind, owner), a method's overloads together; public when
    any overload is public and no type it is nested in is closed, deprecated when every one is (`@Deprecated`, the
    index's ACC_DEPRECATED), `in_deprecated` when a type around it is (`search_rank.enclosed_flags` of `flags`), the
    best rank of its rows. Rows the Python matcher rejects are dropped."""
    groups: dict[tuple[str, str, str], dict] = {}
    tiers: dict[str, int | None] = {}
    for r in rows:
        name = r["name"]
        if name not in tiers:
            tiers[name] = tier_of(name, r["words"])
        if tiers[name] is None:
            continue
        key = (name, r["kind"], r["owner"])
        g = groups.get(key)
        deprecated = bool((r["access"] or 0) & ACC_DEPRECATED)
        if g is None:
            groups[key] = dict(r, overloads=1, deprecated=deprecated)
        else:
            g["overloads"] += 1
            g["pub"] = g["pub"] or r["pub"]
            g["deprecated"] = g["deprecated"] and deprecated
            g["rank"] = min(g["rank"], r["rank"])
            if r["descriptor"] and (g["descriptor"] is None or r["descriptor"] < g["descriptor"]):
                g["descriptor"], g["access"] = r["descriptor"], r["access"]
    for g in groups.values():
        closed, g["in_deprecated"] = enclosed_flags(flags, g["owner"], g["kind"] in MEMBER_KINDS)
        g["pub"] = g["pub"] and not closed
        # public through its public subclasses' access bridges: the index says so of a non-public class's method
        g["through_subclasses"] = g["pub"] and g["kind"] in MEMBER_KINDS and g["owner"] in flags[0]
    return [(tiers[k[0]], g) for k, g in groups.items()]


def _symbol_row(row: dict, tier: int, arts: dict[str, dict], mode: str, written: str | None = None,
                internal=None) -> dict:
    kind, owner, name = row["kind"], row["owner"], row["name"]
    overloads = row["overloads"]
    if kind in TYPE_KINDS:
        ref = format_type(owner)
    elif kind == "method" and overloads == 1:
        try:
            ref = format_member(owner, name, row["descriptor"], varargs=bool((row["access"] or 0) & ACC_VARARGS))
        except ValueError:
            ref = format_type(owner) + "#" + name
    else:
        ref = format_type(owner) + "#" + name
    art = arts.get(row["artifact"] or "", {})
    out = {"kind": kind, "ref": ref, "name": name, "artifact": art.get("name", ""), "origin": art.get("origin", ""),
           "public": bool(row["pub"]), "match": mode if mode in ("glob", "regex", "fuzzy") else
           TIER_NAMES[row["owner_tier"]] if row.get("owner_tier", tier) > tier else tier_word(tier, name, written)}
    if kind == "method":
        out["overloads"] = overloads
    if jdk_internal(out["origin"], owner, internal):
        out["jdk_internal"] = True
    if row.get("through_subclasses"):  # its class is not public; javac re-exports it in the public subclasses
        out["through_subclasses"] = True
    if row.get("hidden"):  # a Kotlin declaration a deprecation hid (search_kotlin.kotlin_public)
        out["hidden"] = True
    elif row.get("deprecated"):  # @Deprecated, usable still: `hidden` says more of what a deprecation hid
        out["deprecated"] = True
    if mode == "fuzzy":
        out["distance"] = tier  # edits between the pattern and the name (case ignored)
    out["_key"] = (owner, name)  # the group, for the Kotlin view; dropped before the answer leaves the engine
    return out


def jdk_internal(origin: str, name: str, internal=None, is_package: bool = False) -> bool:
    """Is a symbol of the JDK (`origin`) in a package its module does not export (`ranking.is_jdk_internal`): its
    JSON `jdk_internal`, text `(JDK internal)` (a library's `sun.`-like package is no JDK's)."""
    return origin == "jdk" and is_jdk_internal(name, internal, is_package)


def _sort_key(row: dict, tier: int, rank: int, internal=None, written: str | None = None,
              bucketed: bool = False) -> tuple:
    """A package's or module's ranking key, shaped like group_key's (its ref stands in for the owner; no type)."""
    inside = is_jdk_internal(row["ref"], internal, is_package=True)
    return (reach(True, row["public"], inside) if bucketed else 0, rank_tier(tier, row["name"], written), 0, inside,
            1, not row["public"], False, False, False, len(row["name"]), 0, rank, row["name"], row["ref"], row["kind"])


def _named_rows(store: GraphStore, p: Pattern, kinds: set[str], arts: list[dict] | None,
                fuzzy_lower: str | None = None) -> list[tuple[tuple, dict]]:
    """Packages and modules (few: matched in Python with the same compiled regexes)."""
    out: list[tuple[tuple, dict]] = []
    written = written_name(p, fuzzy_lower is not None)
    bucketed = reach_first(p, fuzzy_lower is not None)
    if "package" in kinds:
        holders = package_artifacts(store)
        wanted = None if arts is None else {a["id"] for a in arts}
        for full, last, words in _package_names(store):
            held = [a for a in holders.get(full, ()) if wanted is None or a["id"] in wanted]
            if wanted is not None and not held:  # --in keeps a package an artifact it names holds
                continue
            tier = _tier(p, full, last, fuzzy_lower, words)
            if tier is not None:
                row = {"kind": "package", "ref": full, "name": last, "artifact": held[0]["name"] if held else "",
                       "artifacts": [a["name"] for a in held], "origin": held[0]["origin"] if held else "",
                       "public": True, "match": match_word(p, tier, fuzzy_lower, last)}
                if jdk_internal(row["origin"], full, internal_packages(store), is_package=True):
                    row["jdk_internal"] = True
                if fuzzy_lower is not None:
                    row["distance"] = tier
                out.append((_sort_key(row, tier, -1, internal_packages(store), written, bucketed), row))
    if "module" in kinds:  # a JDK module, or a jar or class directory that declares one (Artifact.module)
        for a in arts if arts is not None else artifact_table(store):
            module = a["name"] if a["kind"] == "jrt" else a.get("module")
            if not module:
                continue
            tier = _tier(p, module, module, fuzzy_lower)
            if tier is not None:
                row = {"kind": "module", "ref": module, "name": module, "artifact": a["name"],
                       "origin": a["origin"], "public": True, "match": match_word(p, tier, fuzzy_lower, module)}
                if fuzzy_lower is not None:
                    row["distance"] = tier
                out.append((_sort_key(row, tier, a["rank"], internal_packages(store), written, bucketed), row))
    return out


def package_artifacts(store: GraphStore) -> dict[str, list[dict]]:
    """The artifacts (artifact_table rows, classpath order) holding types of each package, once per open graph."""
    key = ("search-package-artifacts",)
    found = store.memo.get(key)
    if found is None:
        by_id = {a["id"]: a for a in artifact_table(store)}
        held: dict[str, set[str]] = {}
        for r in store.rows_cached(queries_search.PACKAGE_TYPES):
            if r["package"] and r["artifact"] in by_id:
                held.setdefault(r["package"], set()).add(r["artifact"])
        found = store.memo[key] = {pkg: sorted((by_id[i] for i in ids), key=lambda a: (a["position"], a["name"]))
                                   for pkg, ids in held.items()}
    return found


def _package_names(store: GraphStore) -> list[tuple[str, str, str]]:
    """(package, last segment, its words) for every named package, computed once per open graph."""
    key = ("search-package-names",)
    found = store.memo.get(key)
    if found is None:
        found = store.memo[key] = [(r["name"], r["name"].rsplit(".", 1)[-1], name_words(r["name"].rsplit(".", 1)[-1]))
                                   for r in store.rows_cached(queries_search.PACKAGES) if r["name"]]
    return found


def _tier(p: Pattern, full: str, last: str, fuzzy_lower: str | None, words: str | None = None) -> int | None:
    if fuzzy_lower is not None:
        budget = fuzzy_budget(fuzzy_lower)
        if abs(len(last) - len(fuzzy_lower)) > budget:  # cheaper than the distance, and implied by it
            return None
        d = levenshtein(last.lower(), fuzzy_lower)
        return d if d <= budget else None
    if p.qualifier is not None:
        # dotted patterns name the whole package (`java.util.*`, `java.util.concurrent`)
        return HUMP if _package_rx(p.text, p.mode == "regex").fullmatch(full) else None
    if p.spans_dots(full):  # a glob's `*` runs over dots: the whole package name, as well as its last segment
        return HUMP
    return p.tier(last, words if words is not None else name_words(last.replace(".", " ")))


@functools.lru_cache(maxsize=32)
def _package_rx(text: str, regex: bool):
    """A dotted pattern as the regex a whole package name must match (compiled once, not once per package)."""
    import re

    return re.compile(text if regex else glob_to_regex(text, case_sensitive=True))


def search(store: GraphStore, text: str, opts: SearchOptions) -> tuple[dict, dict | None]:
    """(result, truncation) for `search`; nothing found raises NotFoundError with did-you-mean candidates. A nested
    type written by its binary name (`Outer$Inner`, as jdx prints it) is the name a `$` may be part of, else
    `Outer.Inner`."""
    if not text.strip():
        raise UsageError("search needs a pattern, e.g. jdx search HMap or jdx search '*Http*Client'")
    if len(text) > MAX_REF_LENGTH:  # as a reference is: a 5 MB pattern kept a server busy for minutes
        raise UsageError(f"search pattern is {len(text)} characters long; the limit is {MAX_REF_LENGTH}")
    if opts.limit < 1:
        raise UsageError("--limit must be at least 1")
    if not opts.regex and empty_member_pattern(text):
        raise UsageError(f"search {text.strip()!r}: a member pattern names a type, a member or both, e.g. "
                         "jdx search 'Gson#toJson', jdx search 'Gson#' (its members) or jdx search '#toJson'")
    dotted = None if opts.regex else nested_dots(text.strip())
    if dotted is None or dotted == text.strip():
        return _search(store, text, opts)
    try:
        return _search(store, text, opts)
    except NotFoundError:
        result, cut = _search(store, dotted, opts)
        result["pattern"] = text.strip()
        return result, cut


def _search(store: GraphStore, text: str, opts: SearchOptions) -> tuple[dict, dict | None]:
    p = compile_pattern(text, regex=opts.regex)
    kinds = set(opts.kinds or ALL_KINDS)
    if p.member:  # `Type#member` names a member (spec §6): no type, package or module is one
        kinds &= MEMBER_KINDS
        if not kinds:
            raise UsageError(f"{text}: `#` names a method or field, which --kind {','.join(opts.kinds)} leaves out "
                             "(use --kind method or field, or Type.Name for a nested type)")
    if opts.view != "kotlin" and opts.kinds and set(opts.kinds) <= {ALIAS}:
        raise UsageError("--kind typealias: type aliases are Kotlin declarations, found in the Kotlin view "
                         "(drop --view jvm)")
    arts = select_artifacts(store, opts.artifact_globs)
    limit = opts.limit
    if opts.view == "kotlin":
        from jdx.engine.kotlin_hits import has_kotlin

        if has_kotlin(store):  # members folded into one Kotlin declaration leave room: rank a few more
            opts = replace(opts, limit=opts.limit * 2)
    # a qualifier naming no type or package is read as camel humps at once; one that does, only if it found nothing
    from jdx.engine.search_inherited import inherited_matches

    owner_tiers = None if p.qualifier is None or _names_literally(store, p.qualifier) else hump_owners(store, p)
    result = _run(store, p, kinds, arts, opts, fuzzy=False, owner_tiers=owner_tiers)
    inherited, hint = ([], None)
    if result["total"] == 0 and p.qualifier is not None:  # `THashMap.size` reads as `THashMap#size` here
        inherited, hint = inherited_matches(store, p if p.member or not names_a_type(store, p.qualifier)
                                            else replace(p, member=True), kinds)
    # (a type that inherits the member is what was meant: `THashMap#size` is THash's, no hump of other types')
    if result["total"] == 0 and not inherited and owner_tiers is None and (owner_tiers := hump_owners(store, p)):
        result = _run(store, p, kinds, arts, opts, fuzzy=False, owner_tiers=owner_tiers)
    if result["total"] == 0 and not inherited and opts.fuzzy and p.mode == "hump":
        result = _run(store, p, kinds, arts, opts, fuzzy=True)
    if result["total"] == 0:
        # `ArrayList#stream`: Collection declares it
        raise NotFoundError(f"not found: nothing matches {shown_text(text)}" + _scope_words(opts),
                            candidates=inherited or _did_you_mean(store, p, kinds, arts, opts),
                            hint=hint or ("try a shorter pattern, or a glob like '*Name*'" if opts.fuzzy else
                                          "try --fuzzy, a shorter pattern, or a glob like '*Name*'"))
    if opts.view == "kotlin":
        from jdx.engine.kotlin_hits import search_view

        # room for the hits _drop_repeated drops: those of declarations a JVM name finds too
        renamed = sum(1 for m in result["matches"] if m.get("_renamed", (0, 0, 0, False))[3])
        unshown = {id(m) for m in result["matches"]}  # search_view leaves a JVM group it does not show as it is
        result["matches"], change = search_view(store, result["matches"], limit + renamed)
        name_facades(store, result["matches"])  # a multi-file part's member is named in its facade
        result["total"] += change - _drop_repeated(result["matches"], result["_twice"], unshown)
        del result["matches"][limit:]
        if change or any("kotlin" in m for m in result["matches"]):
            result["view"] = "kotlin"
    result.pop("_twice", None)
    for m in result["matches"]:
        m.pop("_key", None)
        m.pop("_renamed", None)
    truncated = None
    if result["total"] > len(result["matches"]):
        truncated = {"shown": len(result["matches"]), "total": result["total"],
                     "hint": f"--limit {result['total']}, or narrow with --kind, --package or --in"}
    return result, truncated


def _drop_repeated(matches: list[dict], twice: set[tuple], unshown: set[int]) -> int:
    """Drops (and counts) what repeats a declaration found both by its Kotlin name and by a JVM name the pattern
    matches too (`size`: the property, and its getter `getSize`): the later hit search_view shows of it, and a JVM
    group of `twice` left unshown (past the limit, it stands for its declarations)."""
    def key(m: dict) -> tuple:
        k = m["kotlin"]
        return k["kind"], k["text"], tuple(x["ref"] for x in k["jvm"])

    renamed = {key(m) for m in matches if "_renamed" in m and "kotlin" in m}
    if not renamed:
        return 0
    seen: set[tuple] = set()
    kept = []
    for m in matches:
        if "kotlin" not in m:
            if id(m) in unshown and "_key" in m and (*m["_key"], m["kind"]) in twice:
                continue
        elif m["kind"] in ("method", "field") and (k := key(m)) in renamed:
            if k in seen:
                continue
            seen.add(k)
        kept.append(m)
    dropped = len(matches) - len(kept)
    matches[:] = kept
    return dropped


def _scope_words(opts: SearchOptions) -> str:
    parts = []
    if opts.kinds:
        parts.append("--kind " + ",".join(opts.kinds))
    if opts.package_glob:
        parts.append(f"--package {opts.package_glob}")
    parts.extend(f"--in {g}" for g in opts.artifact_globs)
    return f" ({' '.join(parts)})" if parts else ""


def _run(store: GraphStore, p: Pattern, kinds: set[str], arts: list[dict] | None, opts: SearchOptions,
         fuzzy: bool, owner_tiers: dict[str, int] | None = None) -> dict:
    """One search of `p`; `owner_tiers`: the types a camel-hump qualifier names and their tiers (`hump_owners`),
    which stand for the qualifier's literal owners: a hit ranks by its name's tier, then by its owner's."""

    symbol_kinds = [k for k in SYMBOL_KINDS if k in kinds]
    art_ids = [a["id"] for a in arts] if arts is not None else None
    pkg = package_regex(opts.package_glob)
    owners = None
    if owner_tiers is not None:
        owners = (frozenset(owner_tiers), frozenset(owner_tiers))
    elif p.spanning is not None:  # `java.util.*Map`: owners under the qualifier too; p.spans decides below
        owners = (qualifier_regex(p.qualifier + "*", member=False), qualifier_regex(p.qualifier + "*", member=True))
    elif p.qualifier is not None:  # a typo's near names stay in the qualifier's types too
        owners = (qualifier_regex(p.qualifier, member=False), qualifier_regex(p.qualifier, member=True))
    by_id = {a["id"]: a for a in artifact_table(store)}
    ranked: list[tuple[tuple, dict]] = []
    extra = 0  # matches counted but not fetched: they rank below everything fetched
    twice: set[tuple] = set()  # JVM groups that find a declaration also found by its Kotlin name
    if symbol_kinds:
        if fuzzy:
            index = index_for(store)
            distance = _findable(index.fuzzy(p.lower, fuzzy_budget(p.lower)))  # `rows` keeps the kinds
            groups = _group(index.rows(distance, symbol_kinds, art_ids, pkg, owners), lambda n, _w: distance[n],
                            type_flags(store))
            total = len(groups)
        else:
            groups, total = _best_groups(store, p, opts.limit, (symbol_kinds, art_ids, pkg, owners),
                                         reach_first(p, False))
        for _, g in groups if owner_tiers is not None else ():
            g["owner_tier"] = owner_tier(g, owner_tiers)
        if p.spanning is not None and not fuzzy:  # the whole dotted name decides; the qualifier's own first
            groups = [(t, g) for t, g in groups if p.spans(_dotted(g))]
            total = len(groups)
            for _, g in groups:
                g["owner_tier"] = p.depth(_dotted(g))
        if opts.view == "kotlin":
            search_kotlin.kotlin_public(store, groups)
        typo = p.lower if fuzzy else None
        internal = internal_packages(store)
        written, bucketed = written_name(p, fuzzy), reach_first(p, fuzzy)
        best = heapq.nsmallest(opts.limit, groups,
                               key=lambda tg: group_key(tg[0], tg[1], typo, internal, written, bucketed))
        for tier, g in best:
            ranked.append((group_key(tier, g, typo, internal, written, bucketed),
                           _symbol_row(g, tier, by_id, "fuzzy" if fuzzy else p.mode, written, internal)))
        extra = total - len(best)
    spans = (lambda rows: rows) if p.spanning is None or fuzzy else (
        lambda rows: [kr for kr in rows if p.spans(kr[1]["ref"].split("(", 1)[0].replace("#", ".").replace("$", "."))])
    if ALIAS in kinds and opts.view == "kotlin":
        ranked.extend(spans(search_kotlin.alias_rows(store, p, art_ids, pkg, owners, by_id, fuzzy)))
    if opts.view == "kotlin" and {"method", "field"} & kinds:
        found, twice = search_kotlin.kotlin_name_rows(store, p, kinds, art_ids, pkg, owners, by_id, fuzzy)
        ranked.extend(spans(found))
    if pkg is None:
        ranked.extend(_named_rows(store, p, kinds, arts, p.lower if fuzzy else None))
    ranked.sort(key=lambda kr: kr[0])
    matches = [row for _, row in ranked[: opts.limit]]
    for row in matches:
        if "_alias" in row:
            from jdx.engine.search_aliases import alias_fields

            row.update(alias_fields(store, row.pop("_alias")))
    total = len(ranked) + extra
    if twice:  # a JVM group not fetched stands for a declaration counted by its Kotlin name
        fetched = {(*row["_key"], row["kind"]) for row in matches if "_key" in row}
        total -= len(twice - fetched)
        twice &= fetched
    search_kotlin.kotlin_name_fields(store, [row for row in matches if "_renamed" in row])
    return {"pattern": p.text, "mode": "fuzzy" if fuzzy else p.mode, "kinds": sorted(kinds) if opts.kinds else [],
            "matches": matches, "total": total, "_twice": twice}


def _dotted(g: dict) -> str:
    """A group's whole dotted name: the type's (`java.util.Map.Entry`), or its owner's and the member's."""
    owner = g["owner"].replace("/", ".").replace("$", ".")
    return owner if g["kind"] in TYPE_KINDS else f"{owner}.{g['name']}"


NO_TYPES = frozenset({"package-info", "module-info"})  # the classes javac writes for a package's or module's annotations


def _findable(names: dict[str, int]) -> dict[str, int]:
    """A name -> tier map without the names of `package-info` and `module-info` classes, which no one searches for."""
    return {n: t for n, t in names.items() if n not in NO_TYPES} if not NO_TYPES.isdisjoint(names) else names


def _best_groups(store: GraphStore, p: Pattern, limit: int, filters: tuple,
                 bucketed: bool = False) -> tuple[list[tuple[int, dict]], int]:
    """The groups that can rank in the top `limit`, and the number of all matching groups.

    Names are matched first (the search index, tiers computed in Python); symbols are then taken tier by
    tier, best first, until `limit` groups are in hand: later tiers cannot outrank a complete earlier tier.
    The rest is only counted (`first` rows in Arrow), so a broad pattern (`get`) does not move every symbol
    it matches into Python. `bucketed` (`ranking.reach` first): every matching type is taken at once, the members
    tier by tier until `limit` public ones and public types are in hand (a later tier's public member outranks an
    earlier tier's non-public one)."""
    index = index_for(store)
    tiers = _findable(index.matching(p))
    kinds, art_ids, pkg, owners = filters
    flags = type_flags(store)
    if art_ids is not None or pkg is not None or owners is not None:
        found = _group(index.rows(tiers, *filters), lambda name, _words: tiers[name], flags)
        return found, len(found)
    found = []
    wanted = list(kinds)
    if bucketed and (types := [k for k in kinds if k not in MEMBER_KINDS]):
        names = sorted(n for n in tiers if n in type_names(store))
        found.extend(_group(index.rows(names, types, *filters[1:]), lambda n, _w: tiers[n], flags))
        wanted = [k for k in kinds if k in MEMBER_KINDS]
    by_tier: dict[int, list[str]] = defaultdict(list)  # by the tier a name ranks in (rank_tier), not its match tier
    for name, tier in tiers.items():
        by_tier[rank_tier(tier, name, written_name(p, False))].append(name)
    internal = internal_packages(store) if bucketed else None
    for tier in sorted(by_tier):
        if (sum(1 for _t, g in found if reach(g["kind"] not in MEMBER_KINDS, g["pub"],
                                              is_jdk_internal(g["owner"], internal)) <= PUBLIC_MEMBER)
                if bucketed else len(found)) >= limit or not wanted:
            break
        found.extend(_group(index.rows(sorted(by_tier[tier]), wanted, *filters[1:]), lambda n, _w: tiers[n], flags))
    return found, index.count(tiers, kinds)


def type_names(store: GraphStore) -> frozenset[str]:
    """The simple names some type of the search index has (class, interface, ...), once per open graph."""
    key = ("search-type-names",)
    found = store.memo.get(key)
    if found is None:
        import pyarrow.compute as pc

        table = index_for(store).table
        typed = pc.is_in(table.column("kind"), value_set=pa_strings(list(TYPE_KINDS)))
        found = store.memo[key] = frozenset(pc.unique(table.column("name").filter(typed)).to_pylist())
    return found


def _names_literally(store: GraphStore, qualifier: str) -> bool:
    """Whether a search qualifier, read literally, names a type or a package of the workspace (`HashMap`,
    `java.util`, `util`), so that it can find something without camel humps."""
    return names_a_type(store, qualifier) or any(
        full == qualifier or full.endswith("." + qualifier) for full, _last, _words in _package_names(store))


def _did_you_mean(store: GraphStore, p: Pattern, kinds: set[str], arts, opts: SearchOptions) -> list[dict]:
    """Up to 5 near names (edit distance) for a search that found nothing; a qualified pattern's among the
    qualifier's types only (`ObjectMapper#readVlue`), unless no type is named so (`OMapper.readValue`)."""
    if p.mode != "hump" or not p.lower:
        return []
    fuzzy_opts = SearchOptions(kinds=opts.kinds, artifact_globs=opts.artifact_globs, package_glob=opts.package_glob,
                               limit=5, view=opts.view)
    found = _run(store, p, kinds, arts, fuzzy_opts, fuzzy=True)["matches"]
    if not found and p.qualifier is not None and not names_a_type(store, p.qualifier):
        found = _run(store, replace(p, qualifier=None), kinds, arts, fuzzy_opts, fuzzy=True)["matches"]
    return [{"ref": m["ref"], "kind": m["kind"], "artifact": m["artifact"]} for m in found]


def near_names(store: GraphStore, name: str, kinds: tuple[str, ...] = TYPE_KINDS, limit: int = 5) -> list[dict]:
    """Did-you-mean for a name nothing matched: `search --fuzzy`'s matcher (case-insensitive edit distance on
    the simple name, then the search ranking), then camel-hump matches (`HMap` -> `HashMap`) to fill up. Each
    carries `id`, the type's internal name (its package, for resolve.did_you_mean)."""
    import re

    simple = re.split(r"[.$#/]", name.strip())[-1]
    if not simple or not re.fullmatch(r"[\w$]+", simple):
        return []
    p = compile_pattern(simple)
    if p.mode != "hump" or not p.lower:
        return []
    opts = SearchOptions(kinds=kinds, limit=limit)
    out: list[dict] = []
    for fuzzy in (True, False):
        for m in _run(store, p, set(kinds), None, opts, fuzzy=fuzzy)["matches"]:
            if len(out) < limit and all(o["ref"] != m["ref"] for o in out):
                out.append({"ref": m["ref"], "kind": m["kind"], "artifact": m["artifact"],
                            "id": m["_key"][0] if "_key" in m else m["ref"].replace(".", "/")})
    return out
