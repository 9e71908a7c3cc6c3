"""The ranking key of search's hits before their refs are built, shared by the JVM hits (search.py) and the
Kotlin view's (search_kotlin.py): the match tier, `ranking.reach` and `ranking.symbol_key`, then name, owner and kind
(search.py's docstring gives the whole order)."""

from __future__ import annotations

from jdx.engine.ranking import reach, symbol_key
from jdx.engine.search_index import rank_tier, tier_word
from jdx.engine.search_match import EXACT, Pattern
from jdx.graph_schema.queries_search import TYPE_KINDS

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
    (`owner_tier`, `search_owners.hump_owners`). `bucketed`: `ranking.reach` comes first, a type named as written
    counting as public (`FindSink` finds `FindOps$FindSink` first: the user named it). A deprecated group
    (`deprecated`) ranks after the others of its reach and tier that are as public, yet before the non-public ones
    and every worse tier's: a caller can still use it, and deprecation orders equal matches only."""
    near = -_common_prefix(g["name"].lower(), typo) if typo is not None else g.get("owner_tier", 0)
    as_written = 0 if tier == EXACT and g["name"] == written and g["kind"] in TYPE_KINDS + (ALIAS,) else 1
    internal_flag, non_public, *rest = symbol_key(g["owner"], g["pub"], g["name"], g["rank"], internal)
    first = reach(g["kind"] not in MEMBER_KINDS, g["pub"] or not as_written, internal_flag) if bucketed else 0
    return (first, rank_tier(tier, g["name"], written if typo is None else None), near, internal_flag, as_written,
            non_public, bool(g.get("deprecated")), *rest, g["name"], g["owner"], g["kind"])


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
