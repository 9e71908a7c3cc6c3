"""A type's source file and a member's declaration in it: sources pairing (sources.py) + tree-sitter parse
(java_parse.py) + matching (source_match.py), with SOURCES_VERSION_MISMATCH when the two disagree. Classes
compiled from `.kt` files go to kotlin_source.py (kotlin_parse.py, kotlin_match.py) through the same calls."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

from jdx.engine import source_match as sm
from jdx.engine.java_parse import Decl, ParsedFile, parse_source
from jdx.engine.refs import format_member, format_type
from jdx.engine.sources import SourceRoot, find_file, source_roots
from jdx.errors import Warning_
from jdx.graph_schema import queries
from jdx.graph_schema.store import GraphStore


FILES_KEPT = 64


@dataclass
class SourceContext:
    """What locating sources needs from a service: the graph, the cache, the workspace's artifacts by key
    (kind, path, spec, name) and the --sources / --src flags."""

    store: GraphStore
    cache: Path
    artifacts: dict[str, object]  # key -> jdx.loaders.roots.Artifact
    explicit: list[str] = field(default_factory=list)
    src_dirs: list[str] = field(default_factory=list)
    jvm: object = None  # jdx.engine.ports.JvmTools: decompiler and javap, implemented by the loaders
    _roots: dict[str, list[SourceRoot]] = field(default_factory=dict)
    # the last source files read, so a command touching one file several times (show, samples, a member's
    # body then its doc) reads and decodes it once; bounded, since a batch process may visit thousands; emptied
    # before each request (`forget_files`)
    _files: OrderedDict = field(default_factory=OrderedDict)

    def type_row(self, type_id: str) -> dict | None:
        rows = self.store.rows_cached(queries.TYPE_BY_ID, {"id": type_id})
        return {k[2:]: v for k, v in rows[0].items()} if rows else None

    def artifact_name(self, type_row: dict) -> str:
        art = self.artifacts.get(type_row.get("artifact") or "")
        return art.name if art is not None else ""

    def roots_for(self, artifact_key: str) -> list[SourceRoot]:
        if artifact_key not in self._roots:
            art = self.artifacts.get(artifact_key)
            self._roots[artifact_key] = [] if art is None else source_roots(
                art.kind, art.path, art.spec, self.explicit, self.src_dirs, str(self.cache))
        return self._roots[artifact_key]

    def file(self, artifact_key: str, rel: str) -> "SourceFile | None":
        """The source file `rel` of an artifact from its first root that holds it, None when none does."""
        def find():
            found = find_file(self.roots_for(artifact_key), rel)
            return None if found is None else SourceFile(found[0], rel, found[1], self.cache)

        return self.remembered((artifact_key, rel), find)

    def kotlin_file(self, artifact_key: str, package: str, name: str) -> "SourceFile | None":
        """The `.kt` file `name` of `package` (dotted) in an artifact's roots, wherever it sits in them."""
        from jdx.engine.sources import find_kotlin_file

        def find():
            found = find_kotlin_file(self.roots_for(artifact_key), package, name)
            return None if found is None else SourceFile(found[0], found[1], found[2], self.cache)

        return self.remembered((artifact_key, f"kt:{package}:{name}"), find)

    def forget_files(self) -> None:
        """Drop the files read so far: a long-lived host (daemon, MCP, HTTP) calls it before each request, since a
        source file may have been edited since (the parse cache is keyed by content, so an unchanged file costs a
        read)."""
        self._files.clear()

    def remembered(self, key: tuple, find) -> "SourceFile | None":
        if key in self._files:
            self._files.move_to_end(key)
            return self._files[key]
        file = self._files[key] = find()
        if len(self._files) > FILES_KEPT:
            self._files.popitem(last=False)
        return file


@dataclass
class SourceFile:
    """A source text and where it is; parsed on first use of `parsed` (a line window never parses)."""

    root: SourceRoot
    rel: str  # `java/util/HashMap.java`
    data: bytes
    cache: Path | None = None
    _parsed: ParsedFile | None = None
    _lines: list[str] | None = None

    @property
    def parsed(self) -> ParsedFile:
        if self._parsed is None:
            if self.rel.endswith(".kt"):
                from jdx.engine.kotlin_parse import parse_kotlin

                self._parsed = parse_kotlin(self.data, self.cache)
            else:
                self._parsed = parse_source(self.data, self.cache)
        return self._parsed

    @property
    def is_kotlin(self) -> bool:
        return self.rel.endswith(".kt")

    @property
    def lines(self) -> list[str]:
        if self._lines is None:
            self._lines = self.data.decode("utf-8", "replace").splitlines()
        return self._lines

    @property
    def display(self) -> str:
        return self.root.display(self.rel)


@dataclass
class Located:
    """Where a binary member's text is in its sources; `decl` None with `implicit` set for compiler-written
    members, None with neither for members the sources lack (a mismatch)."""

    file: SourceFile
    keys: list[str]
    decl: Decl | None
    implicit: str | None = None
    note: str | None = None  # a mismatch: where the line table points instead (Kotlin)
    owner: dict | None = None  # the type whose declaration this is, when not the one asked about (Kotlin)
    ambiguous: int = 0  # decl None: this many overloads fit and the text cannot tell which (source_match.Match)


def outer_chain(ctx: SourceContext, type_id: str) -> dict[str, str]:
    """type id → its enclosing type id, from the type up to its top-level type."""
    out: dict[str, str] = {}
    cur = ctx.type_row(type_id)
    while cur and cur.get("outer") and cur["id"] not in out:
        out[cur["id"]] = cur["outer"]
        cur = ctx.type_row(cur["outer"])
    return out


def top_level(type_id: str, chain: dict[str, str], row: dict | None = None) -> str:
    """The top-level type holding `type_id`, by the graph's nesting (`chain`, from InnerClasses and
    EnclosingMethod). A type the graph knows as top-level (`row` without an InnerClasses entry naming it) is its
    own, `$` in its name or not (Scala's `JSON$`, javac's `class Foo$`); the `$` convention only guesses for a
    type the graph has no row of."""
    cur = type_id
    while chain.get(cur):
        cur = chain[cur]
    if cur == type_id and "$" in cur.rsplit("/", 1)[-1] and not is_top_level(row):
        pkg, _, simple = cur.rpartition("/")
        head = simple.split("$", 1)[0]
        if head:
            cur = f"{pkg}/{head}" if pkg else head
    return cur


def is_top_level(row: dict | None) -> bool:
    """The graph's row of a type no InnerClasses entry of its own class file names as nested (JVMS §4.7.6: every
    nested class has one), and with no enclosing type: a top-level class whatever `$` its name holds."""
    return row is not None and row.get("id") is not None and row.get("inner_name") is None and not row.get("outer")


def source_rel(type_row: dict, top_id: str) -> str | None:
    """`java/util/HashMap.java` for HashMap and its nested types; None for non-Java sources (Kotlin) and for
    names that could leave a source root (`..`, absolute paths: a class file's SourceFile is arbitrary text)."""
    name = type_row.get("source_file") or top_id.rsplit("/", 1)[-1] + ".java"
    if not name.endswith(".java") or "/" in name or "\\" in name:
        return None
    pkg = top_id.rsplit("/", 1)[0] + "/" if "/" in top_id else ""
    rel = pkg + name
    if any(part in ("", ".", "..") for part in rel.split("/")) or "\\" in rel or "\0" in rel:
        return None
    return rel


def source_file(ctx: SourceContext, type_row: dict) -> tuple[SourceFile, list[str]] | None:
    """The parsed source file holding a type and the type's keys in it, or None when no root has it."""
    from jdx.engine import kotlin_source

    if kotlin_source.is_kotlin_source(type_row):
        return kotlin_source.source_file(ctx, type_row)
    chain = outer_chain(ctx, type_row["id"])
    top = top_level(type_row["id"], chain, type_row)
    rel = source_rel(type_row, top)
    if rel is None:
        return None
    file = ctx.file(type_row.get("artifact") or "", rel)
    guess = None if type_row.get("source_file") else source_rel(type_row, top_level(type_row["id"], chain))
    if file is None and guess not in (None, rel):
        # no SourceFile attribute (javac -g:none) to name the file of a top-level `Foo$`: `Foo.java` may hold it
        file = ctx.file(type_row.get("artifact") or "", guess)
    if file is None:
        return None
    return file, sm.type_keys(type_row["id"], chain, is_top_level(type_row))


def locate_method(ctx: SourceContext, type_row: dict, row: dict) -> Located | None:
    from jdx.engine import kotlin_source

    if kotlin_source.is_kotlin_source(type_row):
        return kotlin_source.locate_method(ctx, type_row, row)
    found = source_file(ctx, type_row)
    if found is None:
        return None
    file, keys = found
    match = sm.match_method(file.parsed, row, type_row, keys, file.lines)
    return Located(file, keys, match.decl, match.implicit, ambiguous=match.ambiguous)


def locate_type(ctx: SourceContext, type_row: dict) -> Located | None:
    from jdx.engine import kotlin_source

    if kotlin_source.is_kotlin_source(type_row):
        return kotlin_source.locate_type(ctx, type_row)
    found = source_file(ctx, type_row)
    if found is None:
        return None
    file, keys = found
    decl = next((d for d in file.parsed.types() if d.path == keys), None)
    return Located(file, keys, decl, None if decl is not None or len(keys) == 1 else "not found in its file")


def locate_field(ctx: SourceContext, type_row: dict, name: str, row: dict | None = None) -> Located | None:
    from jdx.engine import kotlin_source

    if kotlin_source.is_kotlin_source(type_row):
        return kotlin_source.locate_field(ctx, type_row, row or {"name": name})
    found = source_file(ctx, type_row)
    if found is None:
        return None
    file, keys = found
    decl = sm.match_field(file.parsed, name, keys)
    if decl is None:  # a record component's private field: its declaration is the header's component
        decl = sm.record_component(file.parsed, file.lines, keys, name)
    return Located(file, keys, decl)


def mismatch_warnings(ctx: SourceContext, type_row: dict, file: SourceFile, keys: list[str],
                      missing: list[dict] | None = None, notes: dict | None = None) -> list[Warning_]:
    """SOURCES_VERSION_MISMATCH (spec §11.1) for `missing` binary methods the sources lack and for every
    method the sources declare in this type that the binary lacks. Anonymous classes are skipped: their
    numbering is javac's, not a fact of the API, so only the first direction is checked there. Kotlin files:
    kotlin_source.mismatch_warnings. Either way, a source file edited after its class file was compiled says so
    (`stale_source`)."""
    stale = stale_source(ctx, type_row, file)
    if file.is_kotlin:
        from jdx.engine import kotlin_source

        return stale + kotlin_source.mismatch_warnings(ctx, type_row, file, keys, missing, notes)
    return stale + _java_mismatches(ctx, type_row, file, keys, missing)


def stale_source(ctx: SourceContext, type_row: dict, file: SourceFile) -> list[Warning_]:
    """SOURCES_VERSION_MISMATCH when a project's source file was modified after the class file compiled from it
    (an edit not yet recompiled): the text may differ from the bytecode every other answer reads, inside the same
    lines where no structural check can see it. Only a class directory with a source directory has both times."""
    art = ctx.artifacts.get(type_row.get("artifact") or "")
    if art is None or art.kind != "dir" or file.root.kind != "dir":
        return []
    class_file = Path(art.path, *type_row["id"].split(".")[:-1], type_row["id"].rsplit(".", 1)[-1] + ".class")
    try:
        compiled = class_file.stat().st_mtime
        edited = Path(file.root.path, file.root.prefix, file.rel).stat().st_mtime
    except OSError:
        return []
    if edited <= compiled + 1.0:  # a build writes the class after reading its source; allow a coarse clock
        return []
    name = class_file.name
    return [Warning_("SOURCES_VERSION_MISMATCH",
                     f"{file.display} was modified after {name} was compiled: the text shown may differ from the "
                     f"bytecode the other answers read (recompile to bring them together)", ctx.artifact_name(type_row))]


def window_mismatches(windows: list[tuple[dict | None, str]]) -> list[Warning_]:
    """SOURCES_VERSION_MISMATCH, once per message, for the (window, artifact name) pairs whose window's lines are not
    the ones compiled: `mismatch` (the line table puts them in another method) or `stale`
    (`src_source.source_window`)."""
    out, seen = [], set()
    for win, artifact in windows:
        for message in (win or {}).get("stale"), (win or {}).get("mismatch"):
            if message and message not in seen:
                seen.add(message)
                out.append(Warning_("SOURCES_VERSION_MISMATCH", message, artifact))
    return out


def _java_mismatches(ctx: SourceContext, type_row: dict, file: SourceFile, keys: list[str],
                     missing: list[dict] | None) -> list[Warning_]:
    if file.parsed.errors:
        return parse_errors(ctx, type_row, file, missing)
    methods = [{k.split(".", 1)[1]: v for k, v in r.items()}
               for r in ctx.store.rows_cached(queries.MEMBERS_OF, {"id": type_row["id"]})]
    binary = ctx.artifact_name(type_row)
    out = []
    for row in missing or []:
        ref = format_member(type_row["id"], row["name"], row["descriptor"])
        out.append(Warning_("SOURCES_VERSION_MISMATCH",
                            f"{binary} declares {ref} which is absent from {file.root.label} "
                            f"({file.display}). Structure shown from bytecode.", binary))
    numbered = any(k[:1].isdigit() for k in keys[1:])
    if numbered:
        return out
    for decl in sm.unmatched_declarations(file.parsed, keys, methods, type_row):
        name = format_type(type_row["id"]) + "#" + (decl.name if decl.kind == "method" else "<init>")
        out.append(Warning_("SOURCES_VERSION_MISMATCH",
                            f"{file.root.label} declares {name}({', '.join(decl.params)}) (line {decl.start}) "
                            f"which is absent from {binary}. Structure shown from bytecode.", binary))
    fields = [{k.split(".", 1)[1]: v for k, v in r.items()}
              for r in ctx.store.rows_cached(queries.FIELDS_OF, {"id": type_row["id"]})]
    absent, extra = sm.field_mismatches(file.parsed, keys, fields)
    for f in absent:
        out.append(Warning_("SOURCES_VERSION_MISMATCH",
                            f"{binary} declares field {format_type(type_row['id'])}#{f['name']} which is absent from "
                            f"{file.root.label} ({file.display}). Structure shown from bytecode.", binary))
    for decl in extra:
        out.append(Warning_("SOURCES_VERSION_MISMATCH",
                            f"{file.root.label} declares field {format_type(type_row['id'])}#{decl.name} "
                            f"(line {decl.start}) which is absent from {binary}. Structure shown from bytecode.",
                            binary))
    return out


def parse_errors(ctx: SourceContext, type_row: dict, file: SourceFile, missing: list[dict] | None = None,
                 refs: list[str] | None = None) -> list[Warning_]:
    """SOURCE_PARSE_ERROR for a Java file tree-sitter could not fully parse, instead of comparing its declarations
    with the binary: one per `missing` method (or `refs`) not found in what did parse (the syntax errors may hide it:
    no version mismatch is claimed), else one saying the declarations read from the file may be incomplete."""
    binary = ctx.artifact_name(type_row)
    n = file.parsed.errors
    head = f"{file.root.label} ({file.display}): {n} region{'s' if n != 1 else ''} tree-sitter could not parse"
    named = [format_member(type_row["id"], r["name"], r["descriptor"]) for r in missing or []] + list(refs or [])
    if named:
        return [Warning_("SOURCE_PARSE_ERROR", f"{head}; {ref} was not found in what did parse", binary)
                for ref in named]
    return [Warning_("SOURCE_PARSE_ERROR", f"{head}; the text shown is as written, but the declarations found in the "
                     f"file may be incomplete (not compared with {binary})", binary)]


def line_drift(ctx: SourceContext, type_row: dict, row: dict | None, loc: Located | None) -> Warning_ | None:
    """SOURCES_VERSION_MISMATCH when the class file's LineNumberTable puts a Java method outside the declaration
    found for it (the sources are another version: the text shown is not what was compiled). A constructor's
    table also holds the lines of field initializers, so it need only meet its declaration; `<clinit>` gathers
    lines from the whole class and is not checked. None without line numbers (javac -g:none) or a declaration."""
    if row is None or loc is None or loc.decl is None or loc.file.is_kotlin or row.get("name") == "<clinit>":
        return None
    first, last, d = row.get("first_line") or -1, row.get("last_line") or -1, loc.decl
    if first <= 0 or last <= 0:
        return None
    fits = first <= d.end and last >= d.start if row["name"] == "<init>" else d.start <= first and last <= d.end
    if fits:
        return None
    binary = ctx.artifact_name(type_row)
    ref = format_member(type_row["id"], row["name"], row["descriptor"])
    lines = f"line {first}" if first == last else f"lines {first}-{last}"
    return Warning_("SOURCES_VERSION_MISMATCH",
                    f"{binary} compiled {ref} from {lines}, but {loc.file.root.label} ({loc.file.display}) has it "
                    f"at lines {d.start}-{d.end}: the lines differ, the sources are another version", binary)
