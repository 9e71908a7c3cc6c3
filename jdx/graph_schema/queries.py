"""Every Cypher text jdx runs, named and parameterised (user input only ever arrives as parameters)."""

from __future__ import annotations

from jdx.graph_schema.schema import NODE_TABLES, REL_TABLES, rel_labels

TYPE_BY_ID = "MATCH (t:Type {id: $id}) RETURN t.*"
TYPES_BY_SIMPLE = (
    "MATCH (t:Type) WHERE t.simple_name = $name AND NOT t.external AND NOT t.shadowed "
    "RETURN t.id AS id, t.fqn AS fqn, t.kind AS kind, t.artifact AS artifact, t.access AS access ORDER BY t.fqn"
)
TYPES_ALL_NAMES = (
    "MATCH (t:Type) WHERE NOT t.external AND NOT t.shadowed "
    "RETURN t.id AS id, t.fqn AS fqn, t.simple_name AS simple, t.humps AS humps, t.artifact AS artifact"
)
SUPERTYPES_CLOSURE = (
    "MATCH (t:Type {id: $id})-[:EXTENDS|IMPLEMENTS*1..30]->(s:Type) RETURN DISTINCT s.id AS id, s.super AS super, "
    "s.interfaces AS interfaces, s.signature AS signature, s.kind AS kind, s.external AS external, s.access AS access"
)
# which of some types declare, or have a supertype declaring, a member of a name (a cheap pre-check before
# the member walk of `Simple#member` candidates)
TYPES_DECLARING = (
    "MATCH (t:Type)-[:DECLARES]->(m) WHERE t.id IN $ids AND m.name = $name "
    "RETURN DISTINCT t.id AS id"
)
TYPES_INHERITING = (
    "MATCH (t:Type)-[:EXTENDS|IMPLEMENTS*1..30]->(s:Type)-[:DECLARES]->(m) WHERE t.id IN $ids "
    "AND m.name = $name RETURN DISTINCT t.id AS id"
)
METHODS_OF_TYPES = (
    "MATCH (t:Type)-[:DECLARES]->(m:Method) WHERE t.id IN $ids "
    "RETURN t.id AS owner, m.name AS name, m.descriptor AS descriptor, m.signature AS signature, "
    "m.access AS access, m.exceptions AS exceptions, m.deprecated AS deprecated, m.param_names AS param_names, "
    "m.param_source AS param_source, CASE WHEN m.deprecated THEN m.annotations END AS deprecation "
    "ORDER BY owner, name, descriptor"
)
FIELDS_OF_TYPES = (
    "MATCH (t:Type)-[:DECLARES]->(f:Field) WHERE t.id IN $ids "
    "RETURN t.id AS owner, f.name AS name, f.descriptor AS descriptor, f.signature AS signature, "
    "f.access AS access, f.constant AS constant, f.deprecated AS deprecated, f.position AS position, "
    "CASE WHEN f.deprecated THEN f.annotations END AS deprecation ORDER BY owner, name, descriptor"
)
NESTED_TYPES_OF = (
    "MATCH (t:Type {id: $id})-[:DECLARES]->(n:Type) RETURN n.id AS id, n.kind AS kind, n.access AS access, "
    "n.inner_name AS inner_name, n.outer_method AS outer_method, n.signature AS signature ORDER BY n.id"
)
MEMBERS_OF = "MATCH (t:Type {id: $id})-[:DECLARES]->(m:Method) RETURN m.* ORDER BY m.name, m.descriptor"
FIELDS_OF = "MATCH (t:Type {id: $id})-[:DECLARES]->(f:Field) RETURN f.* ORDER BY f.name, f.descriptor"
ARTIFACTS = "MATCH (a:Artifact) RETURN a.* ORDER BY a.position"


def export_node(label: str) -> str:
    cols = ", ".join(f"n.{c} AS {c}" for c, _ in NODE_TABLES[label])
    return f"MATCH (n:{label}) RETURN {cols} ORDER BY n.{NODE_TABLES[label][0][0]}"


def export_rel(name: str, src: str, dst: str) -> str:
    """Every edge of `name` from `src` to `dst`, ordered by every column: two calls of one method to the same callee
    (lines 143 and 144) are no tie Kùzu may break either way, so an export is the same bytes each time."""
    columns = [c for c, _ in REL_TABLES[name][1]]
    props = "".join(f", r.{c} AS {c}" for c in columns)
    return (f"MATCH (a:{src})-[r:{rel_labels(name)}]->(b:{dst}) RETURN a.id AS `from`, b.id AS `to`{props} "
            f"ORDER BY `from`, `to`" + "".join(f", {c}" for c in columns))
