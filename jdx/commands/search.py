"""Search and navigation (spec §7.2): search, resolve, imports, ls, tree."""

from __future__ import annotations

from dataclasses import dataclass

from jdx.commands.registry import Command, Request, argument, option, renderer
from jdx.errors import UsageError


def _provenance(store, rows: list[dict]) -> list[dict]:
    """A listing's provenance: one entry per artifact it draws on (a row's artifact; a package row's, the artifacts
    holding types of the package), in first-seen order."""
    from jdx.engine.packages import package_artifacts

    seen: list[str] = []
    for r in rows:
        found = [r["artifact"]] if r.get("artifact") else \
            package_artifacts(store, [r["ref"]]) if r.get("kind") == "package" else []
        seen += [a for a in found if a not in seen]
    return [{"artifact": a, "origin": "bytecode"} for a in seen]


def _listing_provenance(store, result: dict) -> list[dict]:
    """`ls` and `tree` list what the workspace graph holds: one entry per artifact the listing draws on."""
    from jdx.engine.packages import listing_artifacts

    return [{"artifact": a, "origin": "bytecode"} for a in listing_artifacts(store, result)]


@dataclass(frozen=True)
class SearchRequest(Request):
    query: str = argument("camel-hump (HMap, gJson), prefix, glob ('*Http*Client') or --regex", "PATTERN")
    kind: tuple = option((), "--kind", "only symbols of these kinds (repeatable or comma list; type = every "
                         "type kind and Kotlin type aliases)",
                         accepts=("class", "interface", "enum", "record", "annotation", "typealias", "method", "field",
                                  "package", "module", "type", "all"))
    regex: bool = option(False, "--regex", "the pattern is a regular expression (RE2) over simple names")
    fuzzy: bool = option(False, "--fuzzy", "fall back to edit distance when nothing matches")
    include: tuple = option((), "--in", "only artifacts matching this glob (name or path; repeatable)")
    package: str | None = option(None, "--package", "only symbols in packages matching this glob", kind="str")
    limit: int = option(50, "--limit", "at most N results (default 50)", minimum=1)
    view: str = option("kotlin", "--view", "kotlin: hits in Kotlin classes as Kotlin declarations, a property's "
                       "accessors folded into it (default) | jvm: the JVM members", choices=("kotlin", "jvm"))
    value: bool = option(False, "--value", "PATTERN is a constant's value, not a name: the static final fields "
                         "whose value it is ('RS256', 42, a glob), equal values first, then those containing it")


def run_search(session, req: SearchRequest):
    from jdx.engine.answer import Answer
    from jdx.engine.search import SearchOptions, parse_kinds, search

    opts = SearchOptions(kinds=parse_kinds(req.kind), regex=req.regex, fuzzy=req.fuzzy, artifact_globs=tuple(req.include),
                         package_glob=req.package, limit=req.limit, view=req.view)
    if req.value:
        from jdx.engine.search_values import search_values

        result, truncated = search_values(session.store(), req.query, opts)
        return Answer(result, [], truncated, _provenance(session.store(), result["matches"]))
    result, truncated = search(session.store(), req.query, opts)
    return Answer(result, _stale(session.store(), result["matches"]), truncated,
                  _provenance(session.store(), result["matches"]))


def _stale(store, matches: list[dict]) -> list:
    """STALE_CLASS_FILE for the matches (types, members) whose class an earlier build left, each marked `stale`."""
    from jdx.engine.refs import type_id
    from jdx.engine.stale_classes import mark_stale

    return mark_stale(store, [(type_id(m["ref"].split("#", 1)[0]), m) for m in matches
                              if m.get("kind") not in ("package", "module", "typealias")])


@dataclass(frozen=True)
class ResolveRequest(Request):
    query: str = argument("a name, Foo.bar fragment, stack-trace frame 'at a.B.c(B.java:12)' or whole pasted trace "
                          "(each line answered)", "NAME")
    limit: int = option(50, "--limit", "at most N candidates (default 50; of each line of a trace)", minimum=1)


def run_resolve(session, req: ResolveRequest):
    from jdx.engine.answer import Answer
    from jdx.engine.search_nav import frame_warnings, resolve
    from jdx.engine.search_trace import resolve_trace, trace_candidates, trace_lines
    from jdx.loaders.class_files import class_smap, line_tables

    lines = trace_lines(req.query)
    if lines is not None:  # a whole stack trace: each line answered in place
        result, warnings = resolve_trace(session.store(), lines, req.limit, line_tables=line_tables, smap=class_smap)
        return Answer(result, warnings, None, _provenance(session.store(), trace_candidates(result)))
    result, truncated = resolve(session.store(), req.query, req.limit, line_tables=line_tables, smap=class_smap)
    return Answer(result, frame_warnings(result), truncated, _provenance(session.store(), result["candidates"]))


@dataclass(frozen=True)
class ImportsRequest(Request):
    query: str = argument("a type (Gson, java.util.Map.Entry) or a static member (Collections#emptyList)", "TYPE",
                          required=False)
    names: tuple = option((), "", "more types or static members: one import block for all of them, each one's notes "
                          "and errors after it (the worst decides the exit code)", kind="list", metavar="[TYPE...]")

    def validate(self) -> None:
        if not self.query.strip() and not any(n.strip() for n in self.names):
            raise UsageError("imports needs a type, e.g. jdx imports Gson")

    def asked(self) -> str:
        return " ".join((self.query, *self.names)) if self.query else " ".join(self.names)

    def all_names(self) -> list[str]:
        return [n for n in (self.query, *self.names) if n]


def run_imports(session, req: ImportsRequest):
    from jdx.engine.answer import Answer
    from jdx.engine.imports import imports
    from jdx.engine.imports_block import imports_block

    names = req.all_names()
    if len(names) == 1:
        result, warnings = imports(session.store(), names[0])
        return Answer(result, warnings, None, _import_provenance(result["imports"]))
    result, warnings, exit_code = imports_block(session.store(), names)
    entries = [e for n in result["names"] for e in n.get("imports", ())]
    provenance = _import_provenance(entries)
    return Answer(result, warnings, None, [p for i, p in enumerate(provenance) if p not in provenance[:i]], exit_code)


def _import_provenance(entries: list[dict]) -> list[dict]:
    return [{"symbol": e["ref"], "artifact": e["artifact"], "origin": "bytecode"} for e in entries]


@dataclass(frozen=True)
class LsRequest(Request):
    query: str = argument("a package (java.util) or glob ('java.util.*')", "[PACKAGE-GLOB]", required=False)
    depth: int = option(1, "--depth", "levels of subpackages to show (default 1)", minimum=1)
    counts: bool = option(False, "--counts", "show type counts")
    limit: int = option(100, "--limit", "at most N entries under the package (default 100)", minimum=1)


def run_ls(session, req: LsRequest):
    from jdx.engine.answer import Answer
    from jdx.engine.packages import list_packages

    glob = req.query or None
    result, truncated = list_packages(session.store(), glob, req.depth, req.counts, req.limit)
    return Answer(result, [], truncated, _listing_provenance(session.store(), result))


@dataclass(frozen=True)
class TreeRequest(Request):
    query: str = argument("artifact names to expand ('gson*', 'java.base')", "[ARTIFACT-GLOB]", required=False)
    depth: int | None = option(None, "--depth", "1 artifacts, 2 +packages, 3 +types (default 1, or 2 with a glob)",
                               kind="int", minimum=1)
    counts: bool = option(False, "--counts", "show type counts")
    limit: int = option(200, "--limit", "at most N lines (default 200)", minimum=1)


def run_tree(session, req: TreeRequest):
    from jdx.engine.answer import Answer
    from jdx.engine.packages import artifact_tree

    glob = req.query or None
    result, truncated = artifact_tree(session.store(), glob, req.depth, req.counts, req.limit)
    return Answer(result, [], truncated, _listing_provenance(session.store(), result))



COMMANDS = (
    Command("search", "Find types, methods, fields, packages and modules by name, best match first.",
            "jdx search HMap --kind class", SearchRequest, run_search, renderer("search", "search", brief=True),
            next_hint="show or members on a type found, signature on a member"),
    Command("resolve", "What is this identifier, stack frame or stack trace: every candidate with kind and artifact.",
            "jdx resolve 'at a.B.c(B.java:12)'", ResolveRequest, run_resolve, renderer("search", "resolve", brief=True),
            next_hint="body on the resolved member"),
    Command("imports", "The import statements to add for types or static members, one block for several.",
            "jdx imports Entry 'Collections#emptyList'", ImportsRequest, run_imports,
            renderer("imports", "imports", brief=True), comment="// "),
    Command("ls", "Browse packages and their types.", "jdx ls java.util.function --counts", LsRequest, run_ls,
            renderer("search", "ls"), next_hint="show on a type listed"),
    Command("tree", "Artifacts, their packages and types as a tree.", "jdx tree java.sql --depth 3", TreeRequest,
            run_tree, renderer("search", "tree"), next_hint="ls on a package"),
)
