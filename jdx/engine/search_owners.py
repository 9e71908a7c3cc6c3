"""The types a member search's qualifier names (`search 'OM#readValue'`, `CHM.putIfAbsent`): read literally, or
as a camel-hump pattern over type names when, literally, it names nothing; and the tier each type matched with, by
which `search` ranks its members."""

from __future__ import annotations

import re

from jdx.engine.search_index import index_for
from jdx.engine.search_match import GLOB_CHARS, HUMP, Pattern, compile_pattern, qualifier_regex
from jdx.graph_schema import queries_kotlin as qk
from jdx.graph_schema.queries_search import TYPE_KINDS
from jdx.graph_schema.store import GraphStore


def hump_owners(store: GraphStore, p: Pattern) -> dict[str, int] | None:
    """type id -> tier of the types whose simple name the qualifier's last segment matches as a camel-hump pattern
    (`OM#readValue`, `CHM.putIfAbsent`: ObjectMapper, ConcurrentHashMap), within what the segments before it name
    (`databind.OMapper`); None when the qualifier is no such pattern. Asked only when the qualifier, read literally
    (a type or a package), names nothing or finds nothing: an exact qualifier keeps its exact answer."""
    if p.qualifier is None or p.mode == "regex":
        return None
    outer, _, simple = p.qualifier.rpartition(".")
    if not re.fullmatch(r"[A-Za-z_][\w$]*", simple) or any(c in outer for c in GLOB_CHARS):
        return None
    index = index_for(store)
    # types start with a capital (the rare lower-case class is named exactly, so literally): the names' other
    # symbols (methods, fields) are never taken
    tiers = {n: t for n, t in index.matching(compile_pattern(simple)).items() if n[:1].isupper() or n[:1] == "_"}
    if not tiers:
        return None
    within = (qualifier_regex(outer, member=False),) * 2 if outer else None
    found: dict[str, int] = {}
    for r in index.rows(tiers, TYPE_KINDS, None, None, within):
        found[r["owner"]] = min(tiers[r["name"]], found.get(r["owner"], tiers[r["name"]]))
    return found or None



def owner_tier(g: dict, owner_tiers: dict[str, int]) -> int:
    """The tier of the hump-matched type a group is a member of (or nested in)."""
    tier = owner_tiers.get(g["owner"])
    return tier if tier is not None else owner_tiers.get(g["owner"].rpartition("$")[0], HUMP)



def names_a_type(store: GraphStore, qualifier: str) -> bool:
    """Whether a search qualifier names a type of the workspace (a glob is taken to)."""
    simple = re.split(r"[.$]", qualifier)[-1]
    if any(c in simple for c in "*?"):
        return True
    owner = re.compile(qualifier_regex(qualifier, member=True))
    return any(r["kind"] in TYPE_KINDS and owner.fullmatch(r["owner"]) for r in index_for(store).named(simple))




def name_facades(store: GraphStore, matches: list[dict]) -> None:
    """Kotlin-view hits whose reference names a member of a multi-file part (`ArraysKt___ArraysKt`, a package-private
    class) name it in its facade (`ArraysKt`), what callers write: the facade inherits it (kotlinc's
    `-Xmultifile-parts-inherit`, as kotlin-stdlib is built) or has a copy (then the hit names the copy already); the
    hit is public only if the facade is too (docs/kotlin.md); a private one keeps its part (`FlowKt__ShareKt#launchSharing$FlowKt__ShareKt`:
    no facade method of that name exists). One query for the facades, one for their access, and
    only when a hit's owner is named as kotlinc names a part (`<Facade>__<File>`)."""
    parts: dict[str, list[dict]] = {}
    for m in matches:
        owner = m["ref"].split("#", 1)[0] if "kotlin" in m and "#" in m["ref"] else ""
        if "__" in owner.rsplit(".", 1)[-1]:
            parts.setdefault(owner.replace(".", "/"), []).append(m)  # a part is a top-level class
    if not parts:
        return
    facades = {r["part"]: r["facade"] for r in store.rows(qk.FACADES_OF_PARTS, {"ids": sorted(parts)})}
    access = {r["id"]: r["access"] or 0 for r in store.rows(qk.TYPE_ACCESS, {"ids": sorted(set(facades.values()))})}
    for part, hits in parts.items():
        facade = facades.get(part)
        if facade is None or facade not in access:
            continue
        for m in hits:
            if m["kotlin"].get("visibility") == "private":  # a private member is the part's own: no facade has it
                continue
            m["ref"] = facade.replace("/", ".") + "#" + m["ref"].split("#", 1)[1]
            m["public"] = bool(m["public"] and access[facade] & 0x0001)
