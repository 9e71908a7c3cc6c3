"""Cypher of the Kotlin view (spec §12.1): a class's Kotlin declarations and the declaration a JVM member
compiles from."""

from __future__ import annotations

_DECL = ("k.id AS id, k.owner AS owner, k.kind AS kind, k.name AS name, k.position AS position, "
         "k.visibility AS visibility, k.modality AS modality, k.flags AS flags, k.signature AS signature, "
         "k.detail AS detail, k.jvm AS jvm, k.facade AS facade")
# the declarations that may be renamed (their Kotlin name no JVM name): every property (`getX`, `@get:JvmName`), the
# functions flagged @JvmName
RENAMED_DECLS = ("MATCH (k:KotlinDecl) WHERE k.kind = 'property' OR (k.kind = 'function' AND "
                 "list_contains(k.flags, 'jvm_name')) RETURN k.id AS id, k.owner AS owner, k.kind AS kind, k.name AS name, "
                 "k.visibility AS visibility, k.jvm AS jvm, k.facade AS facade ORDER BY k.owner, k.position")
KOTLIN_DECLS_OF = f"MATCH (t:Type {{id: $id}})-[:KOTLIN]->(k:KotlinDecl) RETURN {_DECL} ORDER BY k.owner, k.position"


def _compiles_to(label: str, var: str) -> tuple[str, str]:
    """The declarations JVM members of `label` compile from, for `$ids`: (an IN filter, key lookups). The IN filter
    scans the member table, its cost growing with the ids (a Maven repository's 2.8M members: 3 ids 57 ms, 42 ids
    179 ms, 200 ids 540 ms); the key lookups cost about the same for any number (~100 ms there, 6-8 ms on the JDK)."""
    tail = f"RETURN {var}.id AS member, r.role AS role, {_DECL} ORDER BY member, k.owner, k.position"
    return (f"MATCH (k:KotlinDecl)-[r:COMPILES_TO]->({var}:{label}) WHERE {var}.id IN $ids {tail}",
            f"UNWIND $ids AS i MATCH (k:KotlinDecl)-[r:COMPILES_TO]->({var}:{label} {{id: i}}) {tail}")


KOTLIN_OF_METHODS, KOTLIN_OF_METHODS_MANY = _compiles_to("Method", "m")
KOTLIN_OF_FIELDS, KOTLIN_OF_FIELDS_MANY = _compiles_to("Field", "f")
KOTLIN_IN_UP_TO = 12  # ids: past this many, the `_MANY` forms
KOTLIN_TOP_LEVEL_NAMED = (
    "MATCH (k:KotlinDecl) WHERE k.name = $name AND k.owner STARTS WITH $prefix AND k.kind IN ['function', 'property'] "
    "RETURN k.owner AS owner, k.facade AS facade ORDER BY owner, k.position"
)
KOTLIN_OF_METHOD = (  # one member, by its primary key: no scan of every COMPILES_TO edge
    f"MATCH (k:KotlinDecl)-[r:COMPILES_TO]->(m:Method {{id: $id}}) RETURN m.id AS member, r.role AS role, {_DECL} "
    f"ORDER BY k.owner, k.position"
)
KOTLIN_OF_FIELD = (
    f"MATCH (k:KotlinDecl)-[r:COMPILES_TO]->(f:Field {{id: $id}}) RETURN f.id AS member, r.role AS role, {_DECL} "
    f"ORDER BY k.owner, k.position"
)
KOTLIN_ANY = "MATCH (k:KotlinDecl) RETURN k.id AS id LIMIT 1"
KOTLIN_TYPES_AMONG = "MATCH (t:Type) WHERE t.id IN $ids AND t.kotlin IS NOT NULL RETURN t.id AS id"
KOTLIN_OF_TYPES = (  # class headers: the declaration that compiles to each type
    f"MATCH (k:KotlinDecl)-[r:COMPILES_TO]->(t:Type) WHERE t.id IN $ids AND r.role = 'type' RETURN t.id AS member, "
    f"r.role AS role, {_DECL} ORDER BY member, k.owner, k.position"
)
METHOD_ACCESS = "MATCH (m:Method) WHERE m.id IN $ids RETURN m.id AS id, m.access AS access"
KOTLIN_HEADERS_BY_FQN = (  # the class header of each named Kotlin class
    f"MATCH (t:Type)-[:KOTLIN]->(k:KotlinDecl) WHERE t.fqn IN $fqns AND k.kind = 'class' AND k.owner = t.id "
    f"RETURN t.fqn AS member, 'type' AS role, {_DECL} ORDER BY member, k.position"
)
KOTLIN_CLASS_NAMES = (  # every class KOTLIN_HEADERS_BY_FQN can find a header of
    "MATCH (t:Type)-[:KOTLIN]->(k:KotlinDecl) WHERE k.kind = 'class' AND k.owner = t.id RETURN DISTINCT t.fqn AS fqn"
)
# the in-memory links of a long-lived process (jdx.engine.kotlin_index): every COMPILES_TO edge once, then
# declarations by primary key
KOTLIN_TYPE_IDS = "MATCH (t:Type) WHERE t.kotlin IS NOT NULL RETURN t.id AS id"
KOTLIN_LINKS = ("MATCH (k:KotlinDecl)-[r:COMPILES_TO]->(m) RETURN m.id AS member, r.role AS role, k.id AS decl, "
                "k.owner AS owner, k.position AS position, m.access AS access")
KOTLIN_DECLS_BY_ID = f"UNWIND $ids AS i MATCH (k:KotlinDecl {{id: i}}) RETURN {_DECL}"
# type aliases (search, resolve): every `typealias` row once per open graph, with its owner class's artifact; the
# owners among them that are classes (a nested alias is named after its class, a top-level one after its package)
KOTLIN_TYPE_ALIASES = (
    f"MATCH (t:Type)-[:KOTLIN]->(k:KotlinDecl) WHERE k.kind = 'typealias' AND t.id = k.owner "
    f"RETURN {_DECL}, t.artifact AS artifact, t.access AS owner_access ORDER BY k.owner, k.position"
)
KOTLIN_CLASSES_AMONG = (
    "MATCH (t:Type)-[:KOTLIN]->(k:KotlinDecl) WHERE t.id IN $ids AND k.kind = 'class' AND k.owner = t.id "
    "RETURN DISTINCT t.id AS id"
)
# the inherited view (kotlin_members.members_view): a class's raw @kotlin.Metadata, to decode its supertype chain
KOTLIN_METADATA_OF = "MATCH (t:Type {id: $id}) RETURN t.kotlin AS kotlin"
# the DefaultImpls forwarders among some methods: kotlinc 1.3 gives a class implementing a Kotlin interface a method
# that calls the interface's `$DefaultImpls` static copy of each default body it inherits
KOTLIN_DEFAULT_IMPLS_CALLS = (
    "MATCH (c:Method)-[:INVOKES|INVOKES_ADDED]->(m:Method) WHERE c.id IN $ids "  # (not UNWIND: see CALLS_MADE)
    "AND m.name = c.name AND m.owner ENDS WITH $suffix RETURN c.id AS member, m.id AS target ORDER BY member, target"
)
# a multi-file part's facade (search names a part's member in its facade) and the facades' access flags
FACADES_OF_PARTS = ("MATCH (k:KotlinDecl) WHERE k.owner IN $ids AND k.facade IS NOT NULL "
                    "RETURN DISTINCT k.owner AS part, k.facade AS facade")
TYPE_ACCESS = "MATCH (t:Type) WHERE t.id IN $ids RETURN t.id AS id, t.access AS access"
# the public extensions declared for a class (`members`' pointer to them), counted by the class file holding them: a
# receiver written `K`, `K<...>` or `K?` (the detail's JSON as the loader writes it, no spaces); member extensions of
# other classes are told apart by EXTENSION_HOLDERS_THAT_ARE_CLASSES
KOTLIN_EXTENSIONS_OF = (
    "MATCH (k:KotlinDecl) WHERE k.visibility = 'public' AND (k.detail CONTAINS $plain OR k.detail CONTAINS $generic "
    f"OR k.detail CONTAINS $nullable) RETURN {_DECL} ORDER BY owner, k.position")
EXTENSION_HOLDERS_THAT_ARE_CLASSES = (
    "MATCH (k:KotlinDecl) WHERE k.owner IN $owners AND k.kind = 'class' RETURN DISTINCT k.owner AS owner")

