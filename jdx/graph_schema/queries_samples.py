"""The Cypher of `samples` (spec §7.3): what ranking a call site needs to know about its enclosing method.

Lists of ids are UNWOUND into primary-key lookups: on the JDK graph, 215 caller ids take ~70 ms this way
and ~450 ms as a `WHERE m.id IN $ids` scan of the Method table.
"""

from __future__ import annotations

from jdx.graph_schema.queries_graph import ByIds

# the enclosing methods of candidate sites: their length (LineNumberTable), flags and annotations
CALLERS_BY_IDS = (
    "UNWIND $ids AS i MATCH (m:Method {id: i}) "
    "RETURN m.id AS id, m.first_line AS first_line, m.last_line AS last_line, m.access AS access, "
    "m.annotations AS annotations"
)

# annotations of the classes declaring the shortlisted callers (a @Generated class is not an example)
TYPE_ANNOTATIONS = "UNWIND $ids AS i MATCH (t:Type {id: i}) RETURN t.id AS id, t.annotations AS annotations"

# the methods and constructors a type declares, the targets of `samples <type>`
DECLARED_CALLABLES = (
    "MATCH (t:Type {id: $id})-[:DECLARES]->(m:Method) WHERE m.kind <> 'initializer' "
    "RETURN m.id AS id, m.name AS name, m.descriptor AS descriptor, m.access AS access, m.kind AS kind "
    "ORDER BY m.id"
)

# the enclosing method of a site, as `source_match.match_method` reads it
CALLER_ROW = ("MATCH (m:Method {id: $id}) RETURN m.id AS id, m.name AS name, m.descriptor AS descriptor, "
              "m.signature AS signature, m.access AS access, m.kind AS kind, m.param_names AS param_names")

# how many calls each candidate's enclosing method makes (a method making one call on one or two lines is a
# trivial delegate: a poor example)
# (a key lookup per id, or an IN filter: `UNWIND $ids AS i MATCH (m:Method {id: i})-[r]->()` in one pattern scanned
# every call edge whatever the ids, ~0.8 s and ~280 MB of Kùzu's buffer pool on the JDK's graph)
CALLS_MADE = ByIds(
    "MATCH (m:Method {id: $id})-[r:INVOKES|INVOKES_ADDED]->(:Method) WHERE r.kind <> 'handle' "
    "RETURN m.id AS id, count(r) AS n",
    "MATCH (m:Method)-[r:INVOKES|INVOKES_ADDED]->(:Method) WHERE m.id IN $ids AND r.kind <> 'handle' "
    "RETURN m.id AS id, count(r) AS n")
