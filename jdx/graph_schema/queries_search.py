"""Cypher of search and navigation.

Name regexes are written into the query text as quoted literals, never passed as parameters: Kùzu 0.11
compiles a parameter regex once per row (measured: 1.7 s instead of 25 ms over 124k names). `literal()`
quotes every value, so user text can never leave its string; queries with literals run unprepared (no
prepared statement is kept per pattern, so a long-lived process does not grow).
"""

from __future__ import annotations

TYPE_KINDS = ("class", "interface", "enum", "record", "annotation")


def literal(value) -> str:
    """A Cypher literal: strings quoted with `\\` and `'` escaped; lists element-wise; ints as digits."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(literal(v) for v in value) + "]"
    text = str(value).replace("\\", "\\\\").replace("'", "\\'")
    return f"'{text}'"


def _match_and_tier(p) -> tuple[str, str]:
    """WHERE condition on the Name `n` and the tier expression, per pattern mode."""
    if p.mode == "hump":
        lower = literal(p.lower)
        where = f"(n.lower STARTS WITH {lower} OR n.words =~ {literal(p.anywhere)})"
        tier = (f"CASE WHEN n.lower = {lower} THEN 0 WHEN n.lower STARTS WITH {lower} THEN 1 "
                f"WHEN n.words =~ {literal(p.anchored)} THEN 2 ELSE 3 END")
        return where, tier
    return f"n.id =~ {literal(p.anywhere)}", "2"


def _filters(kinds, artifacts, package_regex, owner_regexes) -> str:
    parts = [f"r.kind IN {literal(list(kinds))}"]
    if artifacts is not None:
        parts.append(f"x.artifact IN {literal(list(artifacts))}")
    if package_regex is not None:
        parts.append(f"r.package =~ {literal(package_regex)}")
    if owner_regexes is not None:
        types_rx, members_rx = owner_regexes
        parts.append(f"(CASE WHEN r.kind IN ['method', 'field'] THEN r.owner =~ {literal(members_rx)} "
                     f"ELSE r.owner =~ {literal(types_rx)} END)")
    return " AND ".join(parts)


_GROUP = ("WITH tier, n.id AS name, r.kind AS kind, r.owner AS owner, max(CASE WHEN r.public THEN 1 ELSE 0 END) AS pub, "
          "min(r.rank) AS rank, count(*) AS overloads, min(x.descriptor) AS descriptor, min(x.access) AS access, "
          "min(x.artifact) AS artifact ")
_ORDER = "ORDER BY tier, pub DESC, size(name), rank, name, owner, kind"


def search_symbols(p, kinds, artifacts=None, package_regex=None, owner_regexes=None, limit: int = 50) -> str:
    """The best `limit` symbol groups (a method's overloads in one owner are one group), ranked."""
    where, tier = _match_and_tier(p)
    return (f"MATCH (n:Name)-[r:NAMES]->(x) WHERE {where} AND {_filters(kinds, artifacts, package_regex, owner_regexes)} "
            f"WITH n, r, x, {tier} AS tier " + _GROUP +
            f"RETURN tier, name, kind, owner, pub, rank, overloads, descriptor, access, artifact {_ORDER} "
            f"LIMIT {int(limit)}")


def count_symbols(p, kinds, artifacts=None, package_regex=None, owner_regexes=None) -> str:
    where, _tier = _match_and_tier(p)
    return (f"MATCH (n:Name)-[r:NAMES]->(x) WHERE {where} AND {_filters(kinds, artifacts, package_regex, owner_regexes)} "
            "RETURN count(DISTINCT [n.id, r.kind, r.owner]) AS total")


def fuzzy_symbols(lower: str, budget: int, kinds, artifacts=None, package_regex=None, limit: int = 50) -> str:
    """Names within `budget` edits of `lower` (case-insensitive), nearest first, then the usual ranking."""
    n = len(lower)
    where = (f"size(n.lower) >= {n - budget} AND size(n.lower) <= {n + budget} "
             f"AND levenshtein(n.lower, {literal(lower)}) <= {int(budget)}")
    return (f"MATCH (n:Name)-[r:NAMES]->(x) WHERE {where} AND {_filters(kinds, artifacts, package_regex, None)} "
            f"WITH n, r, x, levenshtein(n.lower, {literal(lower)}) AS tier " + _GROUP +
            f"RETURN tier, name, kind, owner, pub, rank, overloads, descriptor, access, artifact {_ORDER} "
            f"LIMIT {int(limit)}")


PACKAGES = "MATCH (p:Package) RETURN p.name AS name ORDER BY name"
# types per (artifact, package): what ls and tree browse
PACKAGE_TYPES = (
    "MATCH (t:Type) WHERE NOT t.external AND NOT t.shadowed "
    "RETURN t.artifact AS artifact, t.package AS package, count(*) AS types ORDER BY artifact, package"
)
TYPES_IN_PACKAGE = (
    "MATCH (t:Type) WHERE t.package = $package AND NOT t.external AND NOT t.shadowed AND t.outer IS NULL "
    "RETURN t.fqn AS fqn, t.simple_name AS name, t.kind AS kind, t.access AS access, t.artifact AS artifact "
    "ORDER BY fqn"
)
# resolve / imports: exact names
SYMBOLS_NAMED = (
    "MATCH (n:Name {id: $name})-[r:NAMES]->(x) "
    "RETURN r.kind AS kind, r.owner AS owner, r.public AS pub, r.rank AS rank, x.id AS id, x.descriptor AS descriptor, "
    "x.access AS access, x.artifact AS artifact ORDER BY rank, owner, id"
)
TYPE_COPIES = (
    "MATCH (t:Type) WHERE t.name = $name AND NOT t.external "
    "RETURN t.id AS id, t.artifact AS artifact, t.shadowed AS shadowed, t.access AS access, t.kind AS kind, "
    "t.outer AS outer, t.inner_name AS inner_name ORDER BY shadowed, id"
)
MEMBERS_NAMED = (
    "MATCH (t:Type)-[:DECLARES]->(m:Method) WHERE t.id IN $owners AND m.name = $name "
    "RETURN 'method' AS kind, t.id AS owner, m.id AS id, m.descriptor AS descriptor, m.access AS access, "
    "m.artifact AS artifact, m.first_line AS first_line, m.last_line AS last_line ORDER BY id"
)
FIELDS_NAMED = (
    "MATCH (t:Type)-[:DECLARES]->(f:Field) WHERE t.id IN $owners AND f.name = $name "
    "RETURN 'field' AS kind, t.id AS owner, f.id AS id, f.descriptor AS descriptor, f.access AS access, "
    "f.artifact AS artifact ORDER BY id"
)


def matching_names(p) -> str:
    """Every Name the pattern matches, with its tier (the graph half of the RE2-vs-Python differential test)."""
    where, tier = _match_and_tier(p)
    return f"MATCH (n:Name) WHERE {where} RETURN n.id AS name, {tier} AS tier"


ALL_NAMES = "MATCH (n:Name) RETURN n.id AS name, n.words AS words"
