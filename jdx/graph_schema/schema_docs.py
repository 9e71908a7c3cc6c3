"""What each table and property of the workspace graph means (spec §7.4, `jdx schema`), beside the schema
itself (`schema.py`): a test holds every table and property of `NODE_TABLES` / `REL_TABLES` to a meaning
here, so the graph a notebook user queries is described where it is defined."""

from __future__ import annotations

# a member's place in its class file: fields first, then methods, each in the class file's order (javac's is the
# source's declaration order); null for an external member
POSITION = "place among its class file's fields and methods (fields first; javac keeps the source's order)"
ACCESS = "JVM access flags (0x1 public, 0x2 private, 0x4 protected, 0x8 static, 0x400 abstract, ...)"

NODES: dict[str, tuple[str, dict[str, str]]] = {
    "Artifact": ("a jar, class directory or JDK module of the workspace", {
        "id": "content-hash key of the artifact", "name": "file or module name (gson-2.10.jar, java.base)",
        "kind": "jar | dir | jrt (a JDK module)", "path": "where it was read from",
        "position": "classpath position (0 first; the first of two same-named classes wins) in the order the graph "
                    "was built for: a workspace sharing it in another order has its own in manifest.json",
        "classes": "classes it declares (its Type nodes; module descriptors are none)",
        "module": "the module it is or declares: a JDK module's name, a jar's module-info.class or manifest "
                  "Automatic-Module-Name; null for the unnamed module",
    }),
    "Package": ("a Java package", {"id": "internal name (java/util)", "name": "dotted name (java.util)",
                                   "jdk_internal": "a JDK package its module exports to no one (module "
                                                   "descriptors); null without a JDK"}),
    "Type": ("a class, interface, enum, record or annotation; external types are only referenced", {
        "id": "internal name (java/util/Map$Entry); a shadowed copy has an @artifact suffix",
        "name": "internal name", "fqn": "binary name with dots (java.util.Map$Entry)",
        "simple_name": "innermost name (Entry)", "package": "dotted package name",
        "kind": "class | interface | enum | record | annotation; unknown when external", "access": ACCESS,
        "signature": "generic signature (JVMS 4.7.9), null when not generic", "super": "superclass internal name",
        "interfaces": "direct superinterfaces, internal names",
        "permits": "a sealed type's permitted subclasses (PermittedSubclasses, JVMS 4.7.31), internal names in "
                   "class-file order; null when not sealed",
        "record_components": "a record's components (Record attribute, JVMS 4.7.30) in declaration order, each "
                             "`name:descriptor[:signature]`, then a tab before each annotation's text; null when not "
                             "a record",
        "outer": "enclosing type's internal name",
        "inner_name": "simple name as declared in its outer type ('' for anonymous)",
        "outer_method": "enclosing method of a local or anonymous class", "source_file": "SourceFile attribute",
        "version": "class-file major version", "kotlin": "the raw @kotlin.Metadata values as JSON, null for Java",
        "artifact": "content-hash key of the declaring artifact (Artifact.id)",
        "artifact_name": "readable name of the declaring artifact (Artifact.name)",
        "external": "referenced but not in the workspace",
        "shadowed": "an earlier artifact has the same class (a copy the JVM never loads: `NOT t.shadowed` counts each "
                    "class once)",
        "deprecated": "@Deprecated or the Deprecated attribute", "annotations": "annotations as written",
        "simple_lower": "simple name lower-cased (search)", "humps": "capitals of the simple name (search)",
    }),
    "Method": ("a method, constructor (<init>) or static initializer (<clinit>)", {
        "id": "owner#name(descriptor), e.g. java/util/Map#get(Ljava/lang/Object;)Ljava/lang/Object;",
        "owner": "declaring type's id", "name": "method name", "descriptor": "JVM descriptor",
        "signature": "generic signature, null when not generic", "access": ACCESS + "; 0x40 bridge, 0x1000 synthetic",
        "kind": "method | constructor | initializer", "exceptions": "throws clause, internal names",
        "param_names": "parameter names when the class file has them",
        "param_source": "none | MethodParameters | LocalVariableTable; null for an external method",
        "annotation_default": "default value of an annotation element",
        "first_line": "first line in the LineNumberTable (-1 none)", "last_line": "last line (-1 none)",
        "position": POSITION,
        "artifact": "content-hash key of the declaring artifact", "artifact_name": "readable artifact name",
        "external": "referenced but not declared in the workspace", "shadowed": "its class is a shadowed copy",
        "deprecated": "@Deprecated", "annotations": "annotations as written",
        "writer": "for a lambda body, the method that wrote the lambda",
        "param_annotations": "parameters' annotations, each `index:text` (index among the descriptor's parameters)",
    }),
    "Field": ("a field", {
        "id": "owner#name:descriptor", "owner": "declaring type's id", "name": "field name",
        "descriptor": "JVM type descriptor", "signature": "generic signature", "access": ACCESS,
        "constant": "ConstantValue as text", "position": POSITION,
        "artifact": "content-hash key of the declaring artifact",
        "artifact_name": "readable artifact name", "external": "referenced but not declared in the workspace",
        "shadowed": "its class is a shadowed copy", "deprecated": "@Deprecated", "annotations": "annotations",
    }),
    "KotlinDecl": ("a Kotlin declaration decoded from @kotlin.Metadata (spec §12.1; docs/kotlin.md)", {
        "id": "owner type id + the declaration's position", "owner": "the class file carrying the metadata",
        "kind": "class | object | companion | function | property | constructor | typealias | ...",
        "name": "Kotlin name", "position": "order of declaration in the metadata",
        "visibility": "public | internal | protected | private", "modality": "final | open | abstract | sealed",
        "flags": "suspend, inline, infix, operator, data, const, lateinit, ...",
        "signature": "the declaration as Kotlin text", "detail": "JSON: parameters, receiver, type parameters",
        "jvm": "role:member-id links to the JVM members it compiles to", "facade": "multi-file facade class",
        "artifact": "content-hash key of the declaring artifact",
    }),
}

RELS: dict[str, tuple[str, dict[str, str]]] = {
    "CONTAINS": ("an artifact or package contains a type", {}),
    "DECLARES": ("a type declares a method, field or nested type", {}),
    "EXTENDS": ("a class extends its superclass (interfaces have none: their superinterfaces are IMPLEMENTS)", {}),
    "IMPLEMENTS": ("a class implements an interface, or an interface extends a superinterface",
                   {"position": "index in the implements (an interface's extends) clause"}),
    "INVOKES": ("a method body calls a method (resolved as the JVM links it)", {
        "line": "source line of the call (-1 none)", "kind": "invokevirtual | invokestatic | ... | handle | indy "
                                                       "(an invokedynamic site's bootstrap method)",
        "via": "the subtype or sub-interface the call named, when not the declaring type"}),
    "READS": ("a method body reads a field", {"line": "source line", "kind": "getfield | getstatic | handle_get",
                                              "via": "the type the access named, when not the declaring one"}),
    "WRITES": ("a method body writes a field", {"line": "source line", "kind": "putfield | putstatic | handle_put",
                                                "via": "the type the access named, when not the declaring one"}),
    "REFERENCES": ("a method body or signature names a type", {
        "line": "source line", "kind": "new | checkcast | instanceof | class | catch | throws | indy_arg (a class "
                                       "among an invokedynamic's bootstrap arguments) | case_label (a pattern "
                                       "switch's case type) | lambda (the functional interface a lambda "
                                       "creates an instance of: a LambdaMetafactory invokedynamic's return "
                                       "type) | method_ref (the same for a method reference) | ..."}),
    "KOTLIN": ("a class file's Kotlin declarations", {}),
    "COMPILES_TO": ("a Kotlin declaration to a JVM member or class it compiles to",
                    {"role": "method, getter, setter, field, $default, @JvmOverloads copy, ..."}),
    "OVERRIDES": ("a method overrides a supertype's method (JLS §8.4.8.1: name and erased parameters, or through "
                  "a generic supertype as its bridge says; bridges folded), or, inherited by a class from its "
                  "superclass, a method of that class's interfaces", {"direct": "the nearest overridden declaration "
                                                                      "(false for an inherited implementation)"}),
    "ANNOTATED_BY": ("a type, method or field carries an annotation (on itself, a parameter, a type use, or nested "
                     "in another annotation's values)", {
        "text": "the annotation as written", "param": "the parameter's index for a parameter's annotation, else null",
        "site": "where, when not on the element itself: `parameter N`, `type use in <field type | return type | "
                "parameter N | receiver type | throws N | type parameter N | bound of type parameter N | extends | "
                "implements N | code>` (then ` (type argument 0, array element, ...)` when inside that type), or "
                "`[<outer site>, ]in @<outer binary name>` for one nested in another's "
                "values; `annotation value`: no annotation but a type a class literal or enum constant in the "
                "element's annotation values names (`@Test(expected = E.class)`: a `ref` usage of E); null on the "
                "element itself"}),
}

EXAMPLES = (
    ("implementations of an interface",
     "MATCH (t:Type)-[:IMPLEMENTS]->(:Type {id: 'java/util/Map'}) RETURN t.fqn, t.artifact_name ORDER BY t.fqn, "
     "t.artifact_name"),
    ("most-called methods of one artifact (callers in shadowed copies, rows of their own, left out)",
     "MATCH (c:Method)-[:INVOKES]->(m:Method) WHERE m.artifact_name = 'java.base' AND NOT c.shadowed "
     "RETURN m.id, count(c) AS calls ORDER BY calls DESC, m.id LIMIT 10"),
    ("what overrides a method",
     "MATCH (o:Method)-[:OVERRIDES]->(:Method {id: 'java/lang/Object#toString()Ljava/lang/String;'}) "
     "RETURN o.owner ORDER BY o.owner LIMIT 10"),
)
