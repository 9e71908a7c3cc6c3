"""Cypher of search and navigation.

Name regexes are written into the query text as quoted literals, never passed as parameters: Kùzu 0.11
compiles a parameter regex once per row (measured: 1.7 s instead of 25 ms over 124k names). `literal()`
quotes every value, so user text can never leave its string; queries with literals run unprepared (no
prepared statement is kept per pattern, so a long-lived process does not grow).
"""

from __future__ import annotations

from jdx.graph_schema.schema import SYMBOL_KINDS

TYPE_KINDS = SYMBOL_KINDS[:5]


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


def _name_filter(p) -> str:
    """WHERE condition on the Name `n` for a compiled pattern (hump: prefix or any word; glob/regex: the name)."""
    if p.mode == "hump":
        return f"(n.lower STARTS WITH {literal(p.lower)} OR n.words =~ {literal(p.anywhere)})"
    return f"n.id =~ {literal(p.anywhere)}"


def _filters(kinds, artifacts, package_regex, owner_regexes) -> str:
    parts = [f"s.kind IN {literal(list(kinds))}"]
    if artifacts is not None:
        parts.append(f"s.artifact IN {literal(list(artifacts))}")
    if package_regex is not None:
        parts.append(f"s.package =~ {literal(package_regex)}")
    if owner_regexes is not None:
        types_rx, members_rx = owner_regexes
        parts.append(f"((s.kind IN ['method', 'field'] AND s.owner =~ {literal(members_rx)}) OR "
                     f"(NOT s.kind IN ['method', 'field'] AND s.owner =~ {literal(types_rx)}))")
    return " AND ".join(parts)


# plain projections only: ranking, grouping and counting happen in Python (with Kùzu 0.11.3, CASE inside an
# aggregate after a regex filter returned values of other rows)
_SYMBOL_COLUMNS = ("RETURN n.id AS name, n.words AS words, s.kind AS kind, s.owner AS owner, s.public AS pub, "
                   "s.rank AS rank, s.descriptor AS descriptor, s.access AS access, s.artifact AS artifact")


def search_symbols(p, kinds, artifacts=None, package_regex=None, owner_regexes=None, limit: int | None = None) -> str:
    """Symbols whose simple name the pattern matches, within the filters (at most `limit` rows, unordered)."""
    cap = f" LIMIT {int(limit)}" if limit is not None else ""
    return (f"MATCH (n:Name)-[:NAMES]->(s:Symbol) WHERE {_name_filter(p)} AND "
            f"{_filters(kinds, artifacts, package_regex, owner_regexes)} {_SYMBOL_COLUMNS}{cap}")


def symbols_of_names(names, kinds, artifacts=None, package_regex=None, owner_regexes=None) -> str:
    """Every symbol of the given simple names, within the filters."""
    return (f"MATCH (n:Name)-[:NAMES]->(s:Symbol) WHERE n.id IN {literal(list(names))} AND "
            f"{_filters(kinds, artifacts, package_regex, owner_regexes)} {_SYMBOL_COLUMNS}")


def tier_symbols(p, tier: int, kinds, artifacts=None, package_regex=None, owner_regexes=None, limit: int = 100) -> str:
    """The best `limit` rows of one hump tier in ranking order (public, shorter, earlier artifact, name, owner,
    kind): for a tier with too many names to list."""
    lower = literal(p.lower)
    where = {
        0: f"n.lower = {lower}",
        1: f"n.lower STARTS WITH {lower} AND n.lower <> {lower}",
        2: f"n.words =~ {literal(p.anchored)} AND NOT n.lower STARTS WITH {lower}",
        3: f"n.words =~ {literal(p.anywhere)} AND NOT n.words =~ {literal(p.anchored)} "
           f"AND NOT n.lower STARTS WITH {lower}",
    }[tier] if p.mode == "hump" else _name_filter(p)
    return (f"MATCH (n:Name)-[:NAMES]->(s:Symbol) WHERE {where} AND "
            f"{_filters(kinds, artifacts, package_regex, owner_regexes)} {_SYMBOL_COLUMNS} "
            f"ORDER BY pub DESC, size(name), rank, name, owner, kind LIMIT {int(limit)}")


def overloads(names, owners) -> str:
    """Rows per (name, owner, kind) among the given names and owners: overload counts of chosen groups."""
    return (f"MATCH (s:Symbol) WHERE s.name IN {literal(sorted(set(names)))} AND s.owner IN "
            f"{literal(sorted(set(owners)))} RETURN s.name AS name, s.owner AS owner, s.kind AS kind, count(*) AS n")


def count_groups(p, kinds, artifacts=None, package_regex=None, owner_regexes=None) -> str:
    """How many (kind, owner, name) groups the pattern matches within the filters (a plain count of `first` rows)."""
    return (f"MATCH (n:Name)-[:NAMES]->(s:Symbol) WHERE {_name_filter(p)} AND s.first AND "
            f"{_filters(kinds, artifacts, package_regex, owner_regexes)} RETURN count(*) AS total")


def fuzzy_symbols(lower: str, budget: int, kinds, artifacts=None, package_regex=None) -> str:
    """Symbols whose lower-cased name is within `budget` edits of `lower`."""
    n = len(lower)
    where = (f"size(n.lower) >= {n - budget} AND size(n.lower) <= {n + budget} "
             f"AND levenshtein(n.lower, {literal(lower)}) <= {int(budget)}")
    return (f"MATCH (n:Name)-[:NAMES]->(s:Symbol) WHERE {where} AND {_filters(kinds, artifacts, package_regex, None)} "
            f"{_SYMBOL_COLUMNS}")


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
    "MATCH (n:Name {id: $name})-[:NAMES]->(s:Symbol) "
    "RETURN s.kind AS kind, s.owner AS owner, s.public AS pub, s.rank AS rank, s.id AS id, s.descriptor AS descriptor, "
    "s.access AS access, s.artifact AS artifact ORDER BY rank, owner, id"
)
DUPLICATED_FQNS = "MATCH (t:Type) WHERE t.shadowed AND NOT t.external RETURN DISTINCT t.fqn AS fqn"
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
    """Every Name the pattern matches with its per-kind group counts (also the graph half of the RE2-vs-Python
    differential test)."""
    counts = "".join(f", n.n_{k} AS n_{k}" for k in SYMBOL_KINDS)
    return f"MATCH (n:Name) WHERE {_name_filter(p)} RETURN n.id AS name, n.words AS words{counts}"


ALL_NAMES = "MATCH (n:Name) RETURN n.id AS name, n.words AS words"
# the in-memory index of a long-lived process (engine/search_index.py)
INDEX_NAMES = "MATCH (n:Name) RETURN n.id AS name, n.words AS words"
INDEX_SYMBOLS = (
    "MATCH (s:Symbol) RETURN s.name AS name, s.kind AS kind, s.owner AS owner, s.package AS package, "
    "s.public AS pub, s.rank AS rank, s.descriptor AS descriptor, s.access AS access, s.artifact AS artifact, "
    "s.first AS first"
)

# the JDK's packages with the module descriptors' word on them (ranking: implementation packages last)
JDK_PACKAGES = "MATCH (p:Package) WHERE p.jdk_internal IS NOT NULL RETURN p.name AS name, p.jdk_internal AS internal"
