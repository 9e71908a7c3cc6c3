"""Commands of the foundation on the registry (spec §7.4, §14.5): cypher, version, doctor."""

from __future__ import annotations

from dataclasses import dataclass

from jdx.commands.registry import Command, Request, argument, option, renderer
from jdx.errors import UsageError

VERSION = "0.1.0"


@dataclass(frozen=True)
class CypherRequest(Request):
    query: str = argument("a read-only Cypher query (schema: jdx schema)", "QUERY")
    limit: int | None = option(None, "--limit", "print at most N rows (default 50); the rest is counted, the cut stated",
                               kind="int", minimum=1)
    param: tuple[str, ...] = option((), "--param", "bind $NAME: NAME=VALUE (repeatable; VALUE read as JSON when it "
                                    "parses, 5, true, [1,2], else as text)", kind="list", metavar="NAME=VALUE")


def cypher_params(pairs) -> dict:
    """`--param NAME=VALUE` pairs as Kùzu parameters: a value that parses as JSON is that value, else text."""
    import json

    out = {}
    for pair in pairs or ():
        name, eq, value = pair.partition("=")
        name = name.strip().lstrip("$")
        if not eq or not name:
            raise UsageError(f"--param {pair!r}: give NAME=VALUE", hint="--param id=java/util/List")
        try:
            out[name] = json.loads(value)
        except ValueError:
            out[name] = value
    return out


def run_cypher(session, req: CypherRequest):
    from jdx.engine.answer import Answer

    if not req.query.strip():
        raise UsageError("empty Cypher query")
    from jdx.errors import Warning_
    from jdx.graph_schema.cypher_guard import check_parameters, check_read_only, is_ordered, picks_unordered

    check_read_only(req.query)  # before the workspace is opened: a refused query costs nothing
    params = cypher_params(req.param)
    check_parameters(req.query, params)
    from jdx.engine.limits import check_limit

    limit = check_limit(req.limit)
    table = user_query(session.store(), req.query, params or None)
    warnings = _position_warnings(session.store(), req.query)
    if not is_ordered(req.query):  # same query, same bytes (spec §8.3): rows in a stable order before any cut
        table = _sorted_rows(table)
    if picks_unordered(req.query):
        warnings.append(Warning_("CYPHER_UNORDERED_LIMIT", "LIMIT/SKIP without ORDER BY picks arbitrary rows, "
                                 "which may differ run to run: add ORDER BY before the LIMIT"))
    total = table.num_rows
    cut = None
    if total > limit:  # never a silent flood: a bounded answer that says how to see the rest (spec §8.3)
        table = table.slice(0, limit)
        cut = {"shown": limit, "total": total, "hint": f"--limit {total}, or LIMIT/SKIP in the query"}
    return Answer({"columns": table.column_names, "types": [column_type(f.type) for f in table.schema],
                   "rows": table.to_pylist(), "total": total}, warnings,
                  truncated=cut, provenance=workspace_provenance(session.store()), anywhere=True)


def user_query(store, query: str, params: dict | None = None):
    """A user's Cypher (`jdx cypher`, notebooks) as Kùzu should answer it: patterns over a twinned table match its
    twin (schema.expand_rel_labels), searched CASE conditions are compared to true (cypher_guard
    .guard_case_conditions), integral sums come back as integers (integral_columns), and a column without an alias
    is named as the query writes it (cypher_guard.written_columns)."""
    from jdx.graph_schema.cypher_guard import guard_case_conditions, written_columns
    from jdx.graph_schema.schema import expand_rel_labels

    try:
        table = integral_columns(store.query(guard_case_conditions(expand_rel_labels(query)), params))
    except UsageError as exc:
        if exc.hint is None:
            exc.hint = _schema_hint(exc.message)
        raise
    return table.rename_columns(written_columns(query, table.column_names))


def _schema_hint(message: str) -> str | None:
    """Kùzu's binder names a table or property the graph lacks: the nearest names it has (`Typo` -> `Type`)."""
    import re

    from jdx.engine.search_match import levenshtein
    from jdx.graph_schema.schema import NODE_TABLES, REL_TABLES

    table = re.search(r"Table (\w+) does not exist", message)
    prop = re.search(r"Cannot find property (\w+) for", message)
    if table:
        wrong, known = table.group(1), list(NODE_TABLES) + list(REL_TABLES)
    elif prop:
        wrong = prop.group(1)
        known = sorted({c for cols in NODE_TABLES.values() for c, _ in cols}
                       | {c for _, cols in REL_TABLES.values() for c, _ in cols})
    else:
        return None
    near = sorted(known, key=lambda n: (levenshtein(n.lower(), wrong.lower()), n))[:3]
    what = "tables" if table else "properties"
    return f"nearest {what}: {', '.join(near)} (jdx schema lists every table and its properties)"


def column_type(t) -> str:
    """A column's type as Cypher names it (INT64, STRING, BOOL, DOUBLE, STRING[], NODE, REL, MAP), from its Arrow
    type: a null or empty column still says what it holds."""
    import pyarrow as pa

    if pa.types.is_list(t) or pa.types.is_large_list(t):
        return column_type(t.value_type) + "[]"
    if pa.types.is_struct(t):
        names = {t.field(i).name for i in range(t.num_fields)}
        return "REL" if "_SRC" in names else "NODE" if "_LABEL" in names else "MAP"
    named = {"string": "STRING", "large_string": "STRING", "bool": "BOOL", "double": "DOUBLE", "float": "FLOAT",
             "null": "NULL"}
    return named.get(str(t), str(t).upper())


def integral_columns(table):
    """`table` with each decimal column of scale 0 whose values fit an int64 as int64: Kùzu sums integers as
    INT128, a decimal to Arrow, which JSON would carry as a string (`"s": "1"`) and Python as a Decimal."""
    import pyarrow as pa

    for i, field in enumerate(table.schema):
        if pa.types.is_decimal(field.type) and field.type.scale == 0:
            try:
                table = table.set_column(i, field.name, table.column(i).cast(pa.int64()))
            except (pa.ArrowInvalid, OverflowError):
                pass  # a value past int64 stays a decimal
    return table


def _position_warnings(store, query: str) -> list:
    """CYPHER_ARTIFACT_POSITION when `query` names `position` and the graph's Artifact.position is not this
    workspace's classpath order (a graph shared with the same artifacts in another order keeps its builder's)."""
    from jdx.errors import Warning_
    from jdx.graph_schema.cypher_guard import names_word
    from jdx.graph_schema.store import workspace_positions

    order = workspace_positions(store) if names_word(query, "position") else None
    if not order:
        return []
    stored = store.rows("MATCH (a:Artifact) RETURN a.id AS id, a.position AS position")
    if all(order.get(r["id"]) == r["position"] for r in stored):
        return []
    return [Warning_("CYPHER_ARTIFACT_POSITION", "Artifact.position holds the classpath order of the workspace that "
                     "built this shared graph (the same artifacts in another order), not this workspace's: this "
                     "answer's provenance lists the artifacts in this workspace's order (also ws.artifacts, and "
                     "jdx export's Artifact table)")]


def workspace_provenance(store) -> list[dict]:
    """An answer that may draw on any part of the workspace graph: one entry per artifact, in classpath order, the
    JDK's modules one entry (`modules` counts them): `cypher 'RETURN 1'` carried 70 entries of JDK modules."""
    from jdx.engine.search import artifact_table

    out: list[dict] = []
    arts = sorted(artifact_table(store), key=lambda a: a["position"])
    modules = [a["name"] for a in arts if a["kind"] == "jrt"]
    for a in arts:
        if a["kind"] != "jrt" or len(modules) < 2:
            out.append({"artifact": a["name"], "origin": "bytecode"})
        elif a["name"] == modules[0]:
            out.append({"artifact": f"the JDK's {len(modules)} modules ({modules[0]} … {modules[-1]})",
                        "origin": "bytecode", "modules": len(modules)})
    return out


def _sorted_rows(table):
    """`table`'s rows sorted by every column, left to right (nulls last; lists, nodes and maps by their
    JSON)."""
    import json

    if table.num_columns == 0 or table.num_rows < 2:
        return table
    import pyarrow as pa
    import pyarrow.compute as pc

    names = table.column_names
    if len(set(names)) == len(names) and all(pa.types.is_integer(t) or pa.types.is_floating(t) or pa.types.is_string(t)
                                             or pa.types.is_boolean(t) or pa.types.is_large_string(t)
                                             for t in table.schema.types):
        return table.take(pc.sort_indices(table, [(n, "ascending") for n in names]))
    columns = [table.column(i).to_pylist() for i in range(table.num_columns)]

    def cell(value):
        if value is None:
            return (4, 0, "")
        if isinstance(value, bool):
            return (1, int(value), "")
        if isinstance(value, (int, float)):
            return (1, value, "")
        if isinstance(value, str):
            return (2, 0, value)
        return (3, 0, json.dumps(value, sort_keys=True, default=str))
    order = sorted(range(table.num_rows), key=lambda i: [cell(c[i]) for c in columns])
    return table.take(order)


@dataclass(frozen=True)
class NoArgs(Request):
    pass


def run_version(session, _req):
    import platform

    from jdx.engine.answer import Answer
    from jdx.graph_schema.schema import SCHEMA_VERSION
    from jdx.graph_schema.store import backend_name

    return Answer({"jdx": VERSION, "python": platform.python_version(), "graph_backend": backend_name(),
                   "schema": SCHEMA_VERSION})


def run_doctor(session, _req):
    """Every piece jdx needs, found or not, and where from; exit 4 when one it cannot work without is missing."""
    import sys

    from jdx.dirs import config_dir
    from jdx.engine.answer import Answer
    from jdx.errors import NoIndexError
    from jdx.graph_schema.store import backend_version
    from jdx.loaders import jvm

    checks = []

    def check(name: str, ok: bool, detail: str) -> None:
        checks.append({"check": name, "ok": ok, "detail": detail})

    home = None
    try:
        home = jvm.find_java_home()
        check("jvm", True, f"{home.home} (from {home.source})")
        check("javac", home.javac is not None, str(home.javac) if home.javac else jvm.INSTALL_JDK)
        src = home.home / "lib" / "src.zip"
        check("jdk sources", src.is_file(), str(src) if src.is_file() else
              "no lib/src.zip (Debian/Ubuntu: apt-get install openjdk-17-source)")
    except NoIndexError as exc:
        check("jvm", False, exc.message)
    try:
        asm, how = jvm.find_asm(session.cache)
        for name, found, detail in jvm.asm_checks(asm, how, home):  # where, its version, and the JDK's class files
            check(name, found, detail)
    except NoIndexError as exc:
        check("asm", False, exc.message)
    version = jvm.jpype_version()
    check("jpype", version is not None, f"jpype {version}" if version else "pip install jpype1")
    try:
        check("graph backend", True, backend_version())
    except NoIndexError as exc:
        check("graph backend", False, exc.message)
    usable = session.cache.is_dir() or not session.cache.exists()  # made on first use
    check("cache dir", usable, str(session.cache) if usable else f"{session.cache} is a file, not a directory: set "
          "JDX_CACHE_DIR (or --cache-dir) to a directory")
    check("config dir", True, str(config_dir()))
    from jdx.loaders.maven_repo import gradle_cache, local_repository
    from jdx.loaders.maven_resolver import INSTALL_MAVEN, maven_lib

    lib = maven_lib()
    check("maven resolver", lib is not None, f"{lib} (Maven Resolver, offline)" if lib else INSTALL_MAVEN)
    repo, repo_how = local_repository()
    check("maven repository", True, f"{repo} (from {repo_how}){'' if repo.is_dir() else ', absent'}")
    gradle, gradle_how = gradle_cache()
    check("gradle cache", True, f"{gradle} (from {gradle_how}){'' if gradle.is_dir() else ', absent'}")
    from jdx.loaders.decompile import available_engines

    engines = available_engines()  # body/source/doc of a class without sources: its decompiled text
    check("decompiler", bool(engines), "; ".join(f"{name} {version} ({jar})" for name, version, jar in engines)
          + ("" if any(e[0] == "vineflower" for e in engines) else
             f"{'; ' if engines else ''}vineflower not found (JDX_VINEFLOWER_JAR, or in ~/.m2 or the Gradle cache)")
          + ("" if engines else "; procyon not found (apt-get install procyon-decompiler): without a decompiler, "
             "body and source of a class without sources show javap's bytecode"))
    try:
        sel = session.selection()
        check("workspace", True, f"{sel.spec.name or '(ad hoc)'} via {sel.how}")
        if sel.spec.project or sel.spec.coords:
            from jdx.errors import JdxError

            try:
                arts = session.artifacts()
                missing = [w.message for w in session.root_warnings if w.code in ("DEPENDENCY_MISSING", "POM_INVALID",
                                                                                 "POM_TOO_LARGE", "PROJECT_NOT_BUILT",
                                                                                 "MAVEN_RESOLVER_UNAVAILABLE")]
                check("classpath", True, "; ".join(sel.details) + f"; {len(arts)} artifacts"
                      + (f"; missing: {' | '.join(missing)}" if missing else ""))
            except JdxError as exc:
                check("classpath", False, exc.message)
        from jdx.errors import ArtifactReadError

        try:  # a root named by the workspace that is missing fails every query (exit 5): said here too
            session.check_roots()
        except ArtifactReadError as exc:
            check("roots", False, f"{exc.message}: every query of this workspace fails (exit 5) until it is fixed")
    except NoIndexError as exc:
        check("workspace", False, exc.message)
    ok = all(c["ok"] for c in checks if c["check"] in ("jvm", "asm", "jpype", "graph backend", "cache dir"))
    if not all(c["ok"] for c in checks if c["check"] == "roots"):
        ok = False
    return Answer({"ok": ok, "checks": checks, "python": sys.version.split()[0]}, exit_code=0 if ok else 4)



COMMANDS = (
    Command("cypher", "Run a read-only Cypher query on the workspace graph (tables and properties: jdx schema).",
            'jdx cypher "MATCH (t:Type) RETURN count(t)"', CypherRequest, run_cypher, renderer("manage", "table", brief=True)),
    Command("version", "The jdx version, Python, graph backend and schema.", "jdx version --json", NoArgs,
            run_version, renderer("manage", "version"), needs_workspace=False, forwarded=False),
    Command("doctor", "Diagnose the environment: JVM, ASM, javac, graph backend, directories.", "jdx doctor",
            NoArgs, run_doctor, renderer("manage", "doctor"), needs_workspace=False, forwarded=False),
)
