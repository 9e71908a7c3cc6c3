"""The workspace graph's schema: node and relationship tables, as data the DDL, loader and docs share."""

from __future__ import annotations

import re

SCHEMA_VERSION = 22  # 7: graphs built before the COPY chunk fix lacked edges; 8: Method.writer;
# 9: OVERRIDES by erased parameters, bridges folded; Type/Method/Field.artifact_name; 10: KotlinDecl;
# 11: Symbol.rank by tier; 12: Package.jdk_internal; 13: the search index left the graph (search_files.py);
# 14: the *_ADDED twins of the body edge tables (ADDED_TWINS); 15: Method.writer of kotlinc 2's lambda bodies; 16: OVERRIDES that bridges show (bridge_overrides.py)
# 17: Type.permits (PermittedSubclasses, JVMS §4.7.31);
# 18: OVERRIDES of the implementations a class inherits from its superclass (resolution.with_inherited)
# 19: Artifact.module (a JDK module's name, a jar's module-info or Automatic-Module-Name)
# 20: Type.record_components, Method.param_annotations; ANNOTATED_BY.param/site (parameter, type-use and nested
# annotations); INVOKES kind indy, REFERENCES kinds indy_arg and case_label (invokedynamic bootstrap methods and args)
# 21: the search index marks deprecated nested types (their class file's flag, not their InnerClasses flags)
# 22: scalac's `$anonfun$` lambda bodies are lambda bodies (Method.writer; REFERENCES kind lambda, not method_ref);
# Method/Field.position (the member's place in its class file)
# a lambda body's method id (from its `#`): javac's synthetic `lambda$foo$0` or scalac's (2.12+) synthetic
# `$anonfun$foo$1` (`$anonfun$foo$1$adapted` its boxing forwarder) (group `synthetic`), or kotlinc 2's
# `foo$lambda$0` (`foo$lambda$0$lambda$1` nested) for its invokedynamic lambdas, private static but not synthetic;
# one pattern for the graph build (Arrow's RE2, `Method.writer`) and the engine (Python's `re`, `relations.is_lambda`)
LAMBDA_BODY = r"#(?:(?P<synthetic>lambda\$|\$anonfun\$)|[^#(]*\$lambda\$\d+\()"
# what a search index symbol can be
SYMBOL_KINDS = ("class", "interface", "enum", "record", "annotation", "method", "field")

# name -> [(column, kuzu type)]; the first column is the primary key
NODE_TABLES: dict[str, list[tuple[str, str]]] = {
    "Artifact": [
        ("id", "STRING"), ("name", "STRING"), ("kind", "STRING"), ("path", "STRING"),
        ("position", "INT32"), ("classes", "INT32"), ("module", "STRING"),
    ],
    "Package": [("id", "STRING"), ("name", "STRING"), ("jdk_internal", "BOOLEAN")],
    "Type": [
        ("id", "STRING"), ("name", "STRING"), ("fqn", "STRING"), ("simple_name", "STRING"),
        ("package", "STRING"), ("kind", "STRING"), ("access", "INT32"), ("signature", "STRING"),
        ("super", "STRING"), ("interfaces", "STRING[]"), ("permits", "STRING[]"), ("record_components", "STRING[]"),
        ("outer", "STRING"),
        ("inner_name", "STRING"), ("outer_method", "STRING"), ("source_file", "STRING"), ("version", "INT32"),
        ("kotlin", "STRING"),
        ("artifact", "STRING"), ("artifact_name", "STRING"), ("external", "BOOLEAN"), ("shadowed", "BOOLEAN"),
        ("deprecated", "BOOLEAN"), ("annotations", "STRING[]"), ("simple_lower", "STRING"), ("humps", "STRING"),
    ],
    "Method": [
        ("id", "STRING"), ("owner", "STRING"), ("name", "STRING"), ("descriptor", "STRING"),
        ("signature", "STRING"), ("access", "INT32"), ("kind", "STRING"), ("exceptions", "STRING[]"),
        ("param_names", "STRING[]"), ("param_source", "STRING"), ("annotation_default", "STRING"),
        ("first_line", "INT32"), ("last_line", "INT32"), ("position", "INT32"), ("artifact", "STRING"),
        ("artifact_name", "STRING"), ("external", "BOOLEAN"),
        ("shadowed", "BOOLEAN"), ("deprecated", "BOOLEAN"), ("annotations", "STRING[]"), ("writer", "STRING"),
        ("param_annotations", "STRING[]"),
    ],
    "Field": [
        ("id", "STRING"), ("owner", "STRING"), ("name", "STRING"), ("descriptor", "STRING"),
        ("signature", "STRING"), ("access", "INT32"), ("constant", "STRING"), ("position", "INT32"),
        ("artifact", "STRING"), ("artifact_name", "STRING"), ("external", "BOOLEAN"), ("shadowed", "BOOLEAN"),
        ("deprecated", "BOOLEAN"), ("annotations", "STRING[]"),
    ],
    # one Kotlin declaration decoded from @kotlin.Metadata (spec §12.1), owned by the class file that carries it
    "KotlinDecl": [
        ("id", "STRING"), ("owner", "STRING"), ("kind", "STRING"), ("name", "STRING"), ("position", "INT32"),
        ("visibility", "STRING"), ("modality", "STRING"), ("flags", "STRING[]"), ("signature", "STRING"),
        ("detail", "STRING"), ("jvm", "STRING[]"), ("facade", "STRING"), ("artifact", "STRING"),
    ],
}

# the ANNOTATED_BY `site` of an edge that is no annotation: a type a class literal or enum constant in the element's
# annotation values names (`@Test(expected = E.class)`), read by `usages` as a `ref` of that type
ANNOTATION_VALUE_SITE = "annotation value"

# name -> ([(from, to)], [(column, type)])
REL_TABLES: dict[str, tuple[list[tuple[str, str]], list[tuple[str, str]]]] = {
    "CONTAINS": ([("Artifact", "Type"), ("Package", "Type")], []),
    "DECLARES": ([("Type", "Method"), ("Type", "Field"), ("Type", "Type")], []),
    "EXTENDS": ([("Type", "Type")], []),
    "IMPLEMENTS": ([("Type", "Type")], [("position", "INT32")]),
    "INVOKES": ([("Method", "Method")], [("line", "INT32"), ("kind", "STRING"), ("via", "STRING")]),
    "READS": ([("Method", "Field")], [("line", "INT32"), ("kind", "STRING"), ("via", "STRING")]),
    "WRITES": ([("Method", "Field")], [("line", "INT32"), ("kind", "STRING"), ("via", "STRING")]),
    "REFERENCES": ([("Method", "Type")], [("line", "INT32"), ("kind", "STRING")]),
    "OVERRIDES": ([("Method", "Method")], [("direct", "BOOLEAN")]),
    "ANNOTATED_BY": ([("Type", "Type"), ("Method", "Type"), ("Field", "Type")],
                     [("text", "STRING"), ("param", "INT32"), ("site", "STRING")]),
    # a class (or a multi-file facade) -> its Kotlin declarations; a declaration -> the JVM members it compiles to
    "KOTLIN": ([("Type", "KotlinDecl")], []),
    "COMPILES_TO": ([("KotlinDecl", "Method"), ("KotlinDecl", "Field"), ("KotlinDecl", "Type")], [("role", "STRING")]),
}


# The body edge tables whose rows an incremental update appends to a twin, `<name>_ADDED`, with the same ends and
# properties: appending to a big relationship table makes Kùzu's commit rewrite the edge lists of every node group
# the new edges touch, both ways (the JDK methods a jar calls, and the group the jar's own methods join), which cost
# an update of the JDK's graph ~0.45 s of its ~0.9 s commit; a twin that starts empty costs almost nothing to
# append to. A full build leaves the twins empty. Every query over these edges matches both (`rel_labels`); `jdx
# cypher` and notebooks do it for the user (`expand_rel_labels`), and `jdx export` writes each pair as one table.
ADDED = "_ADDED"
ADDED_TWINS = ("INVOKES", "READS", "WRITES", "REFERENCES")


def rel_labels(name: str) -> str:
    """The label alternatives a pattern over relationship table `name` matches: `INVOKES|INVOKES_ADDED`."""
    return f"{name}|{name}{ADDED}" if name in ADDED_TWINS else name


# a label or variable of a pattern: a name, or rewrite_code's stand-in of a backquoted one
_NAME = r"(?:[A-Za-z_]\w*|\x00\d+\x00)"
_REL_PATTERN = re.compile(rf"(\[\s*(?:{_NAME}\s*)?:\s*)({_NAME}(?:\s*\|\s*:?\s*{_NAME})*)")


def expand_rel_labels(query: str) -> str:
    """A user's Cypher with every relationship pattern naming a twinned table (`-[r:INVOKES]->`, `[:READS|WRITES*1..2]`)
    matching its twin too, so a query written against the documented schema sees the rows of artifacts an update
    appended. Labels are rewritten only inside `[...]` right after the optional variable and its colon, and only in
    the query's code: string literals, backquoted names and comments keep their text. Kùzu reads a table's name in
    any case, backquoted or not, so `:invokes` and ``:`INVOKES` `` name the twinned table as `:INVOKES` does."""
    from jdx.graph_schema.cypher_guard import rewrite_code

    return rewrite_code(query, _expanded)


def _expanded(code: str, kept: list[str]) -> str:
    def table(label: str) -> str:
        """The table a label names, in upper case (a backquoted label unquoted)."""
        if label.startswith("\x00"):
            label = kept[int(label.strip("\x00"))].strip("`")
        return label.upper()

    def labels(m: re.Match) -> str:
        names = [n.strip().lstrip(":").strip() for n in m.group(2).split("|")]
        tables = [table(n) for n in names]
        if not any(t in ADDED_TWINS for t in tables):
            return m.group(0)
        out = []
        for n, t in zip(names, tables):
            out.append(n)
            if t in ADDED_TWINS and f"{t}{ADDED}" not in tables:
                out.append(f"{t}{ADDED}")
        return m.group(1) + "|".join(dict.fromkeys(out))
    code = _REL_PATTERN.sub(labels, code)

    # `label(r)` of a twin's row names the documented table (`INVOKES`, never `INVOKES_ADDED`): a user's
    # `WHERE label(r) = 'INVOKES'` sees every call, and a count by label is one row per documented table; a
    # projection item of its own (`RETURN label(r), …`) keeps the name the user wrote as its column's name
    def label(m: re.Match) -> str:
        text = f"regexp_replace({m.group(0)}, '_ADDED$', '')"
        return f"{text} AS `{m.group(0)}`" if _unaliased_item(code, m.start(), m.end()) else text
    return _LABEL_CALL.sub(label, code)


_LABEL_CALL = re.compile(r"(?<![\w.$])label\s*\(\s*[A-Za-z_]\w*\s*\)", re.IGNORECASE)
_PROJECTION = re.compile(r"(?:\bRETURN|\bWITH|\bDISTINCT|,)\s*$", re.IGNORECASE)
_CLAUSE = re.compile(r"\b(RETURN|WITH|MATCH|WHERE|UNWIND|ORDER|SKIP|LIMIT|CALL|UNION|YIELD)\b", re.IGNORECASE)
_ITEM_END = re.compile(r"\s*(?:$|[,;]|(?:ORDER|SKIP|LIMIT|UNION|WHERE|MATCH|OPTIONAL|UNWIND|WITH|RETURN|CALL)\b)",
                       re.IGNORECASE)


def _unaliased_item(code: str, start: int, end: int) -> bool:
    """Whether code[start:end] is a whole RETURN/WITH item with no `AS` (outside any brackets)."""
    before = code[:start]
    depth = sum(before.count(c) for c in "([{") - sum(before.count(c) for c in ")]}")
    if depth or not _PROJECTION.search(before) or not _ITEM_END.match(code, end):
        return False
    clauses = [m.group(1).upper() for m in _CLAUSE.finditer(before)]
    return bool(clauses) and clauses[-1] in ("RETURN", "WITH")


def _rel_ddl(name: str, pairs: list[tuple[str, str]], cols: list[tuple[str, str]]) -> str:
    ends = ", ".join(f"FROM {a} TO {b}" for a, b in pairs)
    props = "".join(f", {c} {t}" for c, t in cols)
    return f"CREATE REL TABLE {name}({ends}{props})"


def ddl() -> list[str]:
    """CREATE statements for every table, in dependency order."""
    out = []
    for name, cols in NODE_TABLES.items():
        body = ", ".join(f"{c} {t}" for c, t in cols)
        out.append(f"CREATE NODE TABLE {name}({body}, PRIMARY KEY({cols[0][0]}))")
    for name, (pairs, cols) in REL_TABLES.items():
        out.append(_rel_ddl(name, pairs, cols))
        if name in ADDED_TWINS:
            out.append(_rel_ddl(f"{name}{ADDED}", pairs, cols))
    return out


# a word of an identifier: an acronym before a capitalised word, a (capitalised) lower-case run with its
# digits, an acronym with its digits, or leading digits; `_`, `$` and anything else separate words
_WORD = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z][a-z0-9]*|[A-Z]+[0-9]*|[0-9]+[a-z]*")
ORIGIN_TIERS = {"dir": 0, "jar": 1, "jrt": 2}  # search ranks workspace code, then dependencies, then the JDK
RANK_TIER = 1 << 20


def origin_ranks(kinds: list[str]) -> list[int]:
    """Per classpath position (artifact kinds in classpath order), its search rank: workspace
    dirs, then jars, then the JDK, each in classpath order. A rank is tier * 2^20 + its place among the
    artifacts of its tier, so adding a jar leaves the JDK's ranks (and every earlier jar's) as they were:
    an incremental update rewrites only the ranks that moved."""
    seen = dict.fromkeys(ORIGIN_TIERS.values(), 0)
    ranks = []
    for kind in kinds:
        tier = ORIGIN_TIERS.get(kind, 1)
        ranks.append(tier * RANK_TIER + seen[tier])
        seen[tier] += 1
    return ranks


def name_words(name: str) -> str:
    """The words of an identifier in their original case, each after one space: `HttpURLConnection` ->
    ` Http URL Connection`. Search's camel-hump patterns are regexes over this form (a space marks a
    word start), so the search index stores it once instead of every query splitting every name."""
    if name.isascii():
        return "".join(" " + w for w in _WORD.findall(name))
    return "".join(" " + w for w in _unicode_words(name))


def _unicode_words(name: str) -> list[str]:
    """name_words for identifiers with non-ASCII letters (rare): the same boundaries, by character class."""
    words: list[str] = []
    for i, c in enumerate(name):
        if not c.isalnum():
            words.append("")
            continue
        prev = name[i - 1] if i else ""
        nxt = name[i + 1] if i + 1 < len(name) else ""
        starts = (not words or not words[-1] or (c.isupper() and (prev.islower() or prev.isdigit()))
                  or (c.isupper() and prev.isupper() and nxt.islower())
                  or (c.isalpha() and prev.isdigit() and not words[-1][:1].isalpha()))
        if starts:
            words.append(c)
        else:
            words[-1] += c
    return [w for w in words if w]
