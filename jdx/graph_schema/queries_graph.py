"""The Cypher of the relationship graph (spec §7.3): hierarchy, overrides, usages, callers and calls.

Each query comes in several forms (`ByIds`): one for a single id (`{id: $id}`, a primary-key lookup), one
for a list (`WHERE x.id IN $ids`, which costs a scan but one round trip) and, for many ids behind a
relationship, an UNWIND of key lookups each expanded to its relationships (a bare node lookup always
UNWINDs); `relations.rows_by_ids` picks by the number of ids. Queries returning method columns also come
in an offset form that a long-lived reader fills from its own method table. User input only ever arrives
as parameters. Method rows carry `id`, `access`, `artifact`: owner, name and descriptor are parts of the
id, so queries do not fetch them again."""

from __future__ import annotations

from dataclasses import dataclass

from jdx.graph_schema.schema import rel_labels


@dataclass(frozen=True)
class ByIds:
    one: str
    many: str
    one_by_one: int = 12  # up to this many ids, run `one` per id rather than `many` once
    unwind: str | None = None  # past `unwind_from` ids: each id's node by key, then its relationships
    unwind_from: int = 100
    # the same forms returning `offset(id(x)) AS <prefix>off` instead of the method columns of `x`
    # (`<prefix>id`, `access`, `artifact`, `external`), which a long-lived reader fills from its method
    # columns by offset (`GraphStore.method_columns`): reading those properties of a few thousand
    # scattered nodes is most of a big answer's time, an edge's own properties are nearly free
    by_offset: "ByIds | None" = None
    prefix: str = ""
    external: bool = False  # the offset form drops `<prefix>external`, which the fill restores

    def form(self, count: int) -> tuple[str, str]:
        """(the query for `count` ids, `id` or `ids`: its parameter)."""
        if count <= self.one_by_one:
            return self.one, "id"
        if self.unwind is not None and count > self.unwind_from:
            return self.unwind, "ids"
        return self.many, "ids"


def _by_ids(var: str, label: str, pattern: str, tail: str, fetch: tuple[str, str] | None = None,
            one_by_one: int = 12, unwind: bool = True) -> ByIds:
    """`pattern` mentions `({var}:{label}{{ID}})`; the forms fill it with a key lookup (up to `one_by_one` ids), an
    IN filter or, for many ids behind a relationship (unless `unwind` is off), an UNWIND of key lookups each
    expanded to its relationships.

    Measured on the JDK graph (350k methods): a key lookup costs ~0.2 ms for a bare node and ~1 ms with
    a relationship; `UNWIND $ids` into key lookups costs a fixed ~10-40 ms (215 methods: 56 ms), an
    `IN` filter a scan (215 methods: 338 ms as a bare node, ~15-35 ms behind a relationship). Callers of
    400 methods (1,074 call edges): IN 243 ms, UNWIND into a key lookup then the edges 63 ms (a fixed
    ~60 ms from 5 ids up), one lookup per id 345 ms; at 100 ids the last two forms cost the same."""
    one = "MATCH " + pattern.replace("{ID}", " {id: $id}") + " " + tail
    node = f"({var}:{label}{{ID}})"
    if pattern == node:
        return ByIds(one, f"UNWIND $ids AS i MATCH ({var}:{label} {{id: i}}) " + tail, one_by_one=150)
    many = "MATCH " + pattern.replace("{ID}", "") + f" WHERE {var}.id IN $ids " + tail
    unwound = (f"UNWIND $ids AS i MATCH ({var}:{label} {{id: i}}) MATCH " + pattern.replace(node, f"({var})") + " "
               + tail) if unwind else None
    light = None
    external = False
    if fetch is not None:
        fetched, prefix = fetch
        cols = _method(fetched, prefix)
        assert cols in tail, tail
        external_col = f", {fetched}.external AS {prefix}external"
        external = cols + external_col in tail
        light_tail = tail.replace(cols + external_col, cols).replace(cols, f"offset(id({fetched})) AS {prefix}off")
        light = _by_ids(var, label, pattern, light_tail, one_by_one=one_by_one, unwind=unwind)
        return ByIds(one, many, one_by_one=one_by_one, unwind=unwound, by_offset=light, prefix=prefix,
                     external=external)
    return ByIds(one, many, one_by_one=one_by_one, unwind=unwound)


def _method(var: str, prefix: str) -> str:
    return f"{var}.id AS {prefix}id, {var}.access AS {prefix}access, {var}.artifact AS {prefix}artifact"


TYPE_COLS = ("t.id AS id, t.fqn AS fqn, t.kind AS kind, t.access AS access, t.super AS super, "
             "t.interfaces AS interfaces, t.signature AS signature, t.artifact AS artifact, t.external AS external")

# the nesting columns TYPE_COLS lacks (is a nested type anonymous or local?); asked for nested types only
TYPE_NESTING = ByIds("MATCH (t:Type {id: $id}) RETURN t.id AS id, t.inner_name AS inner_name, t.outer_method AS om",
                     "UNWIND $ids AS i MATCH (t:Type {id: i}) RETURN t.id AS id, t.inner_name AS inner_name, "
                     "t.outer_method AS om", one_by_one=12)  # JDK: 109 ids 6 ms UNWIND, 23 ms one by one
TYPES_BY_IDS = _by_ids("t", "Type", "(t:Type{ID})", f"RETURN {TYPE_COLS}")
# where a listed nested class's file lives (STALE_CLASS_FILE in listings): its artifact and its outer class
TYPE_OUTERS = _by_ids("t", "Type", "(t:Type{ID})",
                      "RETURN t.id AS id, t.artifact AS artifact, t.external AS external, t.outer AS outer")

# direct subtypes (EXTENDS for classes, IMPLEMENTS for interfaces and sub-interfaces); a class shadowed
# by an earlier artifact is not what the JVM loads, so it is no subtype. An IN filter beats the UNWIND of key lookups
# here at every size (a level of `hierarchy java.util.AbstractList`: on the JDK 17 ids 5.0 against 26.7 ms, 25 ids
# 8.2 / 27.3 ms; on a Maven repository's 241k types 66 ids 33 / 188 ms, 148 ids 74 / 181 ms), and key lookups one
# by one beat it only for a few ids (on the JDK 4 ids: 4.2 ms one by one, 2.6 ms IN; at scale 8 ids: 10.2 / 10.4 ms)
SUBTYPES_OF = _by_ids("p", "Type", "(t:Type)-[r:EXTENDS|IMPLEMENTS]->(p:Type{ID})",
                      f"WITH p, r, t WHERE NOT t.shadowed RETURN p.id AS parent, label(r) AS rel, {TYPE_COLS}",
                      one_by_one=6, unwind=False)

# the interfaces below an interface (an interface's superinterfaces are IMPLEMENTS edges, JVMS §4.1), walked through
# interfaces only: `overrides` of an interface's method counts their lambdas without walking every implementing class
# (Iterable: 316 ms through its down graph, 14 ms here); Kùzu's bound on a recursive pattern is 30 levels
SUB_INTERFACES = ("MATCH (s:Type)-[:IMPLEMENTS* 1..30 (r, n | WHERE n.kind = 'interface' AND NOT n.shadowed)]->"
                  "(t:Type {id: $id}) WHERE s.kind = 'interface' AND NOT s.shadowed RETURN DISTINCT s.id AS id")

# the classes no InnerClasses entry nests whose name holds a `$` (Scala's `None$`, `$colon$colon`): that `$` nests
# nothing (jvm_names.literal_dollars); an external type's nesting is unknown, so it is not one of them
LITERAL_DOLLAR_NAMES = ("MATCH (t:Type) WHERE t.outer IS NULL AND NOT t.external AND t.name CONTAINS '$' "
                        "RETURN DISTINCT t.name AS name")

# every subtype edge of the workspace: one pass beats an IN filter over thousands of ids (`hierarchy Object`)
ALL_SUBTYPE_EDGES = ("MATCH (t:Type)-[r:EXTENDS|IMPLEMENTS]->(p:Type) WHERE NOT t.shadowed "
                     f"RETURN p.id AS parent, label(r) AS rel, {TYPE_COLS}")

# every method's columns by node offset, loaded once by a long-lived reader (`GraphStore.method_columns`)
METHOD_COLUMNS = ("MATCH (m:Method) RETURN offset(id(m)) AS o, m.id AS id, m.access AS access, "
                  "m.artifact AS artifact, m.external AS external")

METHODS_BY_IDS = _by_ids("m", "Method", "(m:Method{ID})", f"RETURN {_method('m', '')}, m.external AS external")

# same-named methods of some owners: a caller's canonical ref needs `:Return` beside a bridge twin
METHOD_NAMES_OF_OWNERS = (
    "MATCH (t:Type)-[:DECLARES]->(m:Method) WHERE t.id IN $ids AND m.name IN $names "
    "RETURN t.id AS owner, m.name AS name, m.descriptor AS descriptor"
)

CALLS_INTO = _by_ids("m", "Method", "(c:Method)-[r:INVOKES|INVOKES_ADDED]->(m:Method{ID})",
                     f"RETURN m.id AS target, {_method('c', 'c_')}, r.line AS line, r.kind AS kind, r.via AS via",
                     fetch=("c", "c_"))

CALLS_FROM = _by_ids("c", "Method", "(c:Method{ID})-[r:INVOKES|INVOKES_ADDED]->(m:Method)",
                     f"RETURN c.id AS source, {_method('m', 't_')}, m.external AS t_external, r.line AS line, "
                     "r.kind AS kind, r.via AS via",
                     fetch=("m", "t_"))

READS_INTO = _by_ids("f", "Field", "(c:Method)-[r:READS|READS_ADDED]->(f:Field{ID})",
                     f"RETURN f.id AS target, {_method('c', 'c_')}, r.line AS line, r.kind AS kind, r.via AS via",
                     fetch=("c", "c_"))

WRITES_INTO = _by_ids("f", "Field", "(c:Method)-[r:WRITES|WRITES_ADDED]->(f:Field{ID})",
                      f"RETURN f.id AS target, {_method('c', 'c_')}, r.line AS line, r.kind AS kind, r.via AS via",
                      fetch=("c", "c_"))

REFERENCES_INTO = _by_ids("t", "Type", "(c:Method)-[r:REFERENCES|REFERENCES_ADDED]->(t:Type{ID})",
                          f"RETURN t.id AS target, {_method('c', 'c_')}, r.line AS line, r.kind AS kind",
                          fetch=("c", "c_"))

# the lambdas and method references creating each of these interfaces (REFERENCES kinds lambda, method_ref), counted
# by kind and by the artifact of the code holding them
LAMBDAS_INTO = _by_ids("t", "Type", "(c:Method)-[r:REFERENCES|REFERENCES_ADDED]->(t:Type{ID})",
                       "WITH t, c, r WHERE r.kind IN ['lambda', 'method_ref'] "
                       "RETURN t.id AS target, c.artifact AS artifact, r.kind AS kind, count(*) AS n")

# the method that wrote each lambda body (Method.writer, set at build time from the handle edge into it)
LAMBDA_WRITERS = _by_ids("l", "Method", "(l:Method{ID})",
                         "WITH l WHERE l.writer IS NOT NULL RETURN l.id AS lambda, l.writer AS writer")

# `owner#name(params` (the id up to its parameters' `)`) shared by two or more declared methods of an owner: a bridge
# and its covariant twin, whose canonical refs need `:ReturnType` (`relations.twin_ids`)
TWIN_KEYS = ("MATCH (m:Method) WHERE coalesce(m.external, false) = false "
             "WITH split_part(m.id, ')', 1) AS k, count(*) AS c WHERE c > 1 RETURN k")

# every lambda body and the method that wrote it, loaded once by a long-lived reader (4,924 pairs, ~5 ms on the JDK)
ALL_LAMBDA_WRITERS = "MATCH (l:Method) WHERE l.writer IS NOT NULL RETURN l.id AS lambda, l.writer AS writer"

# methods that override these (every override, transitively; `direct` marks the nearest)
OVERRIDERS_OF = _by_ids("m", "Method", "(o:Method)-[r:OVERRIDES]->(m:Method{ID})",
                        f"RETURN m.id AS target, {_method('o', 'c_')}, r.direct AS direct",
                        fetch=("o", "c_"))

# methods these override
OVERRIDDEN_BY = _by_ids("m", "Method", "(m:Method{ID})-[r:OVERRIDES]->(o:Method)",
                        f"RETURN m.id AS source, {_method('o', 't_')}, r.direct AS direct",
                        fetch=("o", "t_"))

# a member's type annotations (JVMS 4.7.20; ClassExtractor.typeUse): `site` says on which of its types, and where
# inside it (` (type argument 0)`) when not on the type itself
TYPE_USES_OF_METHOD = ("MATCH (m:Method {id: $id})-[r:ANNOTATED_BY]->(:Type) WHERE r.site STARTS WITH 'type use in ' "
                       "RETURN r.text AS text, r.site AS site")
TYPE_USES_OF_FIELD = ("MATCH (m:Field {id: $id})-[r:ANNOTATED_BY]->(:Type) WHERE r.site STARTS WITH 'type use in ' "
                      "RETURN r.text AS text, r.site AS site")

ANNOTATED_WITH = _by_ids("t", "Type", "(x)-[r:ANNOTATED_BY]->(t:Type{ID})",
                         "RETURN t.id AS target, label(x) AS label, x.id AS id, x.artifact AS artifact, "
                         "r.text AS text, r.site AS site")

# declarations whose erased descriptor or generic signature names a type (`usages --kind signature`): parameters,
# return types, field types, type arguments and bounds. `$d` is `Lpkg/T;`, `$g` is `Lpkg/T<` (a parameterized use),
# `$i` is `>.Inner` for a nested type (`Lpkg/Outer<TT;>.Inner;` names `pkg/Outer$Inner`; `$d` again otherwise);
# javac's synthetic members (bridges, lambda bodies, `this$0`) are no source's declarations. A scan of the name
# columns: on the JDK graph (226k methods) ~60 ms warm.
_NAMING = ("NOT {v}.shadowed AND coalesce({v}.external, false) = false AND {v}.access & 4096 = 0 AND "
           "({v}.descriptor CONTAINS $d OR {v}.signature CONTAINS $d OR {v}.signature CONTAINS $g "
           "OR {v}.signature CONTAINS $i)")
METHODS_NAMING = ("MATCH (c:Method) WHERE " + _NAMING.format(v="c") + " RETURN "
                  + _method("c", "c_") + ", c.descriptor AS descriptor, c.signature AS signature")
FIELDS_NAMING = ("MATCH (f:Field) WHERE " + _NAMING.format(v="f")
                 + " RETURN f.id AS id, f.artifact AS artifact, f.descriptor AS descriptor, f.signature AS signature")
TYPES_NAMING = ("MATCH (t:Type) WHERE NOT t.shadowed AND coalesce(t.external, false) = false AND t.access & 4096 = 0 "
                "AND (t.signature CONTAINS $d OR t.signature CONTAINS $g OR t.signature CONTAINS $i) "
                "RETURN t.id AS id, t.artifact AS artifact, "
                "t.signature AS signature")

# members the loaded classes lack, named by calls (`usages` of a shadowed copy's member: the calls inside its
# artifact name the loaded copy's class, which does not declare it)
EXTERNAL_METHODS_NAMED = ("MATCH (m:Method) WHERE m.external AND m.name = $name AND m.descriptor = $descriptor "
                          "RETURN m.id AS id")
EXTERNAL_FIELDS_NAMED = ("MATCH (f:Field) WHERE f.external AND f.name = $name AND f.descriptor = $descriptor "
                         "RETURN f.id AS id")
# the members the workspace names on a type without declaring them (external nodes: calls, reads and writes name
# them; no DECLARES edge reaches them), for `usages`/`callers` of a member of a type whose artifact is missing
EXTERNAL_METHODS_OF = ("MATCH (m:Method) WHERE m.external AND m.owner = $owner "
                       "RETURN m.id AS id, m.name AS name, m.descriptor AS descriptor, m.access AS access, "
                       "m.artifact AS artifact ORDER BY m.id")
EXTERNAL_FIELDS_OF = ("MATCH (f:Field) WHERE f.external AND f.owner = $owner "
                      "RETURN f.id AS id, f.name AS name, f.descriptor AS descriptor, f.access AS access, "
                      "f.artifact AS artifact ORDER BY f.id")
# the external types of a package (did-you-mean of a name in a package no artifact of the workspace holds)
# the artifacts declaring a package's types (`--in com.acme.fx` names a package, not an artifact)
PACKAGE_ARTIFACTS = "MATCH (t:Type) WHERE t.package = $package AND NOT t.external RETURN DISTINCT t.artifact AS a"
EXTERNAL_TYPES_IN_PACKAGE = ("MATCH (t:Type) WHERE t.external AND t.package = $package "
                             "RETURN t.fqn AS fqn, t.simple_name AS name, t.kind AS kind ORDER BY fqn")
# the external types of a simple name (`imports`/`resolve` of `ReferenceCountUtil`, a type the workspace references)
EXTERNAL_TYPES_NAMED = ("MATCH (t:Type) WHERE t.external AND t.simple_name = $name "
                        "RETURN t.id AS id, t.fqn AS fqn, t.kind AS kind ORDER BY fqn")
TYPES_PRESENT_BY_ID = "MATCH (t:Type) WHERE t.id IN $ids RETURN t.id AS id, t.artifact AS artifact"
# every sealed type, with the subclasses it permits (SEALED_SUBTYPE_MISSING below a hierarchy's root): a scan, 2 ms
# on the JDK's 47, where an IN list of a big tree's ids costs seconds (1.7 s for java.lang.Object's 26k subtypes)
SEALED_TYPES = ("MATCH (t:Type) WHERE t.permits IS NOT NULL AND size(t.permits) > 0 "
                "RETURN t.id AS id, t.permits AS permits")
TYPES_LOADED_BY_ID = "MATCH (t:Type) WHERE t.id IN $ids AND NOT t.external RETURN t.id AS id"
METHOD_EXTERNAL = "MATCH (m:Method {id: $id}) RETURN m.external AS external"
FIELD_EXTERNAL = "MATCH (f:Field {id: $id}) RETURN f.external AS external"

# `throws` clauses (the graph keeps them on the method; REFERENCES kind throws may be absent)
OVERRIDERS_COUNT = "MATCH (o:Method)-[:OVERRIDES]->(m:Method {id: $id}) RETURN count(o) AS n"


def count_nodes(label: str) -> str:
    """Rows of node table `label` (`jdx schema`)."""
    return f"MATCH (n:{label}) RETURN count(n) AS n"


def count_rels(name: str) -> str:
    """Rows of relationship table `name` and of its incremental twin (`jdx schema`)."""
    return f"MATCH ()-[r:{rel_labels(name)}]->() RETURN count(r) AS n"


# anonymous classes among these types, with their superclass, enclosing class and method (EnclosingMethod) and
# Kotlin metadata: the candidates for a Kotlin lambda class (`rel_kotlin_lambdas.kotlin_lambda_writers`)
ANONYMOUS_CLASSES = _by_ids("t", "Type", "(t:Type{ID})",
                            "WITH t WHERE t.inner_name = '' AND t.outer IS NOT NULL "
                            "RETURN t.id AS id, t.super AS super, t.outer AS outer, t.outer_method AS om, "
                            "t.kotlin AS kotlin")

# the anonymous classes these types declare (nested in them), as ANONYMOUS_CLASSES returns them, with the declaring
# type: the candidates for the Kotlin lambda classes a method writes (`rel_kotlin_lambdas.kotlin_lambda_code`)
NESTED_ANONYMOUS = _by_ids("o", "Type", "(o:Type{ID})-[:DECLARES]->(t:Type)",
                           "WITH o, t WHERE t.inner_name = '' AND t.outer IS NOT NULL "
                           "RETURN o.id AS declaring, t.id AS id, t.super AS super, t.outer AS outer, "
                           "t.outer_method AS om, t.kotlin AS kotlin")

# the ids of the methods these types declare
DECLARED_METHOD_IDS = _by_ids("t", "Type", "(t:Type{ID})-[:DECLARES]->(m:Method)", "RETURN m.id AS id")
