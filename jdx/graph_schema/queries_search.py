"""Cypher of search and navigation (the search index itself lives beside the graph: search_files.py).

Values that vary per query are written into the text as quoted literals where Kùzu would otherwise prepare
them anew (a parameter regex is compiled once per row in Kùzu 0.11). `literal()` quotes every value, so user
text can never leave its string; queries with literals run unprepared (no prepared statement is kept per
pattern, so a long-lived process does not grow).
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


# the names among `$names` within `$budget` edits of `$lower` (case ignored): the search index's typo matches
FUZZY_AMONG = "UNWIND $names AS n WITH n WHERE levenshtein(lower(n), $lower) <= $budget RETURN n AS name"


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
# the simple names of the top-level classes of several packages at once (one scan: the Kotlin view's default imports)
TYPE_NAMES_IN_PACKAGES = (
    "MATCH (t:Type) WHERE t.package IN $packages AND NOT t.external AND NOT t.shadowed AND t.outer IS NULL "
    "RETURN t.package AS package, t.simple_name AS name"
)
# which of `$fqns` (top-level classes named by a source directory's files) the graph holds (unbuilt_sources)
TYPES_PRESENT = "MATCH (t:Type) WHERE t.fqn IN $fqns AND NOT t.external RETURN DISTINCT t.fqn AS fqn"
# the newest class file version of each artifact (`session.newer_than_jdk`: class files the workspace's JDK is too
# old for)
ARTIFACT_VERSIONS = ("MATCH (a:Artifact)-[:CONTAINS]->(t:Type) RETURN a.name AS name, a.kind AS kind, "
                     "a.position AS position, max(t.version) AS version ORDER BY position")
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
# constant fields whose ConstantValue text holds `$needle`, or a char/boolean stored as one of `$stored`
# (search --value; Python decides the match)
CONSTANTS_CONTAINING = (
    "MATCH (f:Field) WHERE f.constant IS NOT NULL AND NOT f.external AND NOT f.shadowed "
    "AND (f.constant CONTAINS $needle OR (f.descriptor IN ['C', 'Z'] AND f.constant IN $stored)) "
    "RETURN f.owner AS owner, f.name AS name, f.descriptor AS descriptor, f.access AS access, f.constant AS constant, "
    "f.artifact AS artifact ORDER BY owner, name"
)

# the class a fully qualified name stands for on the classpath (its first copy), for DUPLICATE_CLASS
VISIBLE_TYPE_BY_FQN = ("MATCH (t:Type) WHERE t.fqn = $fqn AND NOT t.external AND NOT t.shadowed "
                       "RETURN t.name AS name, t.fqn AS fqn LIMIT 1")


# the JDK's packages with the module descriptors' word on them (ranking: implementation packages last)
JDK_PACKAGES = "MATCH (p:Package) WHERE p.jdk_internal IS NOT NULL RETURN p.name AS name, p.jdk_internal AS internal"
