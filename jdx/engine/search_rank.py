"""The ranking key of search's hits before their refs are built, shared by the JVM hits (search.py) and the
Kotlin view's (search_kotlin.py): the match tier, `ranking.reach` and `ranking.symbol_key`, then name, owner and kind
(search.py's docstring gives the whole order)."""

from __future__ import annotations

from jdx.engine.ranking import PUBLIC_MEMBER, reach, symbol_key
from jdx.engine.search_index import index_for, pa_strings, rank_tier, tier_word
from jdx.engine.search_match import EXACT, Pattern
from jdx.graph_schema.queries_search import TYPE_KINDS
from jdx.graph_schema.store import GraphStore

ALIAS = "typealias"  # a Kotlin type alias (search_aliases.py): the Kotlin view only; `--kind type` includes it
MEMBER_KINDS = {"method", "field"}
ACC_VARARGS = 0x0080
ACC_DEPRECATED = 0x20000  # ASM's flag for the Deprecated attribute (`@Deprecated`), kept in the index's `access`


def match_word(p: Pattern, tier: int, fuzzy_lower: str | None, name: str) -> str:
    if fuzzy_lower is not None:
        return "fuzzy"
    return p.mode if p.mode in ("glob", "regex") else tier_word(tier, name, written_name(p, False))


def group_key(tier: int, g: dict, typo: str | None = None, internal=None, written: str | None = None,
              bucketed: bool = False) -> tuple:
    """The ranking key of a group before its ref is built (ranking.symbol_key; name, owner and kind break
    ties). In the exact tier a type named `written` (the pattern as typed, case and all) comes first after the
    JDK-internal split, as in IntelliJ's Go to Class/Symbol: `Version` puts the class before `version()` and
    `VERSION`, `Module` before the packages `java.lang.module` and `...databind.module`. For a typo
    (`typo`, lower-cased), names of one edit distance sharing a longer prefix with it come first: `Charet` is
    nearer `Charset` than `Caret`; members of a camel-hump qualifier's types, those of its better-matched types
    (`owner_tier`, `search_owners.hump_owners`). `bucketed`: `ranking.reach` comes first; a non-public type named as
    written ranks with the public members, after every public type (`FindSink` lists `FindOps$FindSink` after the
    public `FindSink…` types, yet before the non-public symbols: the user named it). After public before non-public,
    a public symbol in a package named `internal` (a library's shaded or implementation code:
    `org.jose4j.base64url.internal.apache.commons.codec.binary.Base64`) after the others. A deprecated group
    (`deprecated`, or `in_deprecated`: declared in a deprecated class) ranks after the others of its reach and tier
    that are as public, yet before the non-public ones and every worse tier's: a caller can still use it, and
    deprecation orders equal matches only."""
    near = -_common_prefix(g["name"].lower(), typo) if typo is not None else g.get("owner_tier", 0)
    as_written = 0 if tier == EXACT and g["name"] == written and g["kind"] in TYPE_KINDS + (ALIAS,) else 1
    internal_flag, non_public, *rest = symbol_key(g["owner"], g["pub"], g["name"], g["rank"], internal)
    first = 0
    if bucketed:
        first = reach(g["kind"] not in MEMBER_KINDS, g["pub"], internal_flag)
        if not as_written and not internal_flag:
            first = min(first, PUBLIC_MEMBER)
    return (first, rank_tier(tier, g["name"], written if typo is None else None), near, internal_flag, as_written,
            non_public, internal_named(g["owner"]), bool(g.get("deprecated") or g.get("in_deprecated")), *rest,
            g["name"], g["owner"], g["kind"])


def internal_named(owner: str) -> bool:
    """Is a type or member id (`a/internal/B`) in a package with an `internal` segment, which by convention no
    caller outside its library uses?"""
    return "/internal/" in "/" + owner.rpartition("/")[0] + "/"


def type_flags(store: GraphStore) -> tuple[frozenset[str], frozenset[str]]:
    """(the non-public types, the deprecated types) of the search index by id, once per open graph: what a nested
    type or a member takes from the types around it (`enclosed_flags`)."""
    key = ("search-type-flags",)
    found = store.memo.get(key)
    if found is None:
        import pyarrow.compute as pc

        table = index_for(store).table
        types = table.filter(pc.is_in(table.column("kind"), value_set=pa_strings(list(TYPE_KINDS))))
        closed = types.filter(pc.invert(pc.fill_null(types.column("pub"), False))).column("owner")
        deprecated = types.filter(pc.not_equal(pc.bit_wise_and(pc.fill_null(types.column("access"), 0),
                                                               ACC_DEPRECATED), 0)).column("owner")
        found = store.memo[key] = (frozenset(closed.to_pylist()), frozenset(deprecated.to_pylist()))
    return found


def enclosed_flags(flags: tuple[frozenset[str], frozenset[str]], owner: str, member: bool) -> tuple[bool, bool]:
    """(closed, in a deprecated type) of a type (`owner` its id) or a member (`owner` its declaring type): closed
    when a type it is nested in is not public (`jdk/jshell/Util$Pair`'s Util: no code outside the package reaches
    it, whatever its own flags say); a member's own type counts as around it for deprecation (StrBuilder#isEmpty).
    Whether a member's own type lets code outside its package reach it is the index's `public` (a public method of
    a package-private class is, through the access bridges of its public subclasses)."""
    closed, deprecated = flags
    around = [owner[:i] for i in range(owner.rfind("/") + 2, len(owner)) if owner[i] == "$"]
    return any(t in closed for t in around), any(t in deprecated for t in [*around, *([owner] if member else [])])


def reach_first(p: Pattern, fuzzy: bool) -> bool:
    """Whether `ranking.reach` ranks before the match tier: not for a typo's near names (the distance decides) nor
    for a qualified pattern (`Gson#to`, `java.util.*Map`), whose qualifier already says where to look."""
    return not fuzzy and p.qualifier is None


def written_name(p: Pattern, fuzzy: bool) -> str | None:
    """The name a type must have, case and all, to rank first in the exact tier (None: no such rule applies)."""
    return p.name if p.mode == "hump" and not fuzzy else None


def _common_prefix(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n
