"""Types declared in the workspace's source directories but absent from the graph (a checkout that is not built):
the not-found answer (spec §16, exit 1) says which file declares the type and why the graph lacks it, and
`source`, `body` and `doc` read that file, labelled `origin: "unbuilt_source"` with the warning SOURCE_ONLY.

Nothing here adds to the graph: structure (members, usages) still comes from bytecode only (spec §11.1); a member
is matched by name, and by its written parameter types when given, in the tree-sitter parse of the file.

A type is looked for by path convention (`demo/App.java`, `demo/App.kt`) in each source directory, then by a
bounded grep for its declaration (`class App`, `object App`, ...) in the files of its package's directory only
(Kotlin files need not be named after their class), never by walking a tree.
"""

from __future__ import annotations

import os
import re
import shlex
from dataclasses import dataclass

from jdx.engine.refs import SymbolRef, parse_ref
from jdx.engine.sources import MAX_SOURCE_BYTES, SourceRoot, kotlin_package, src_dir_roots
from jdx.errors import AmbiguousError, NotFoundError, UsageError, Warning_

ORIGIN = "unbuilt_source"
WARNING = "SOURCE_ONLY"
GREP_FILES_MAX = 200  # files of one package directory looked into for a declaration
GREP_BYTES_MAX = 1 << 20  # a larger file is not grepped
_NAME = re.compile(r"[A-Za-z_$][\w$]*")
_KT_PRIMITIVES = {"int": "Int", "long": "Long", "short": "Short", "byte": "Byte", "char": "Char",
                  "boolean": "Boolean", "float": "Float", "double": "Double"}

_ATTRIBUTE = "unbuilt_source_dirs"  # where an open graph's store keeps them (not its memo: that is cleared when full)


@dataclass(frozen=True)
class SourceDirs:
    """The workspace's directory source roots (`--src`, a project's src/main/java and src/main/kotlin) and the
    project root that file names are shown relative to ("" to show them absolute)."""

    roots: tuple[SourceRoot, ...]
    base: str = ""


def dirs_of(store) -> SourceDirs | None:
    """Where the workspace's own sources are, for not-found answers over `store`: from the `workspace_source_dirs`
    the session gives an open graph's store ((source dirs, project root)), worked out on the first miss."""
    found = getattr(store, _ATTRIBUTE, None)
    ask = getattr(store, "workspace_source_dirs", None)
    if found is None and ask is not None:
        src_dirs, base = ask()
        found = SourceDirs(tuple(r for r in src_dir_roots(src_dirs) if r.kind == "dir"),
                           os.path.realpath(base) if base else "")
        setattr(store, _ATTRIBUTE, found)
    return found


@dataclass
class Declared:
    """A type found in a source file: `fqn` with `$` for nesting, `keys` its path in the parse (["App", "Inner"])."""

    fqn: str
    keys: list[str]
    root: SourceRoot
    rel: str
    data: bytes
    shown: str  # the file as answers name it: relative to the project root, else absolute
    module: str  # the folder whose build would compile it
    test: bool = False  # under src/test/...: the build's test compile would compile it

    @property
    def type_name(self) -> str:
        return self.fqn.replace("$", ".")

    @property
    def is_kotlin(self) -> bool:
        return self.rel.endswith(".kt")


def _declares(data: bytes, name: str) -> bool:
    """A cheap textual check that a file declares a type `name` (class, interface, enum, record, object)."""
    pattern = rb"(?<![\w$])(?:class|interface|enum|record|object)\s+" + re.escape(name.encode()) + rb"(?![\w$])"
    return re.search(pattern, data[:GREP_BYTES_MAX]) is not None


def _read(path: str, limit: int = MAX_SOURCE_BYTES) -> bytes | None:
    try:
        if os.path.getsize(path) > limit:
            return None
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


def _find_top(dirs: SourceDirs, package: str, top: str) -> tuple[SourceRoot, str, bytes] | None:
    """(root, path inside the root's prefix, bytes) of the file declaring the top-level type `top` of `package`."""
    pkg_dir = package.replace(".", "/")
    for root in dirs.roots:
        for ext in (".java", ".kt"):
            rel = (pkg_dir + "/" if pkg_dir else "") + top + ext
            data = root.read(rel)
            if data is not None and kotlin_package(data) == package and _declares(data, top):
                return root, rel, data
    for root in dirs.roots:  # a Kotlin file (or a Java file's second top-level type) named otherwise
        folder = os.path.join(root.path, root.prefix, pkg_dir)
        try:
            names = sorted(n for n in os.listdir(folder) if n.endswith((".kt", ".java")))[:GREP_FILES_MAX]
        except OSError:
            continue
        for n in names:
            data = _read(os.path.join(folder, n), GREP_BYTES_MAX)
            if data is not None and _declares(data, top) and kotlin_package(data) == package:
                return root, (pkg_dir + "/" if pkg_dir else "") + n, data
    return None


def _module_of(root: SourceRoot) -> tuple[str, bool]:
    """The folder a build compiles the root from (`<module>` of `<module>/src/main/java`), and whether the root is
    a test source set (`<module>/src/test/java`)."""
    folder = os.path.normpath(os.path.join(root.path, root.prefix))
    parts = folder.split(os.sep)
    if len(parts) > 3 and parts[-3] == "src":
        return os.sep.join(parts[:-3]), parts[-2] == "test"
    return folder, False


def _declared(dirs: SourceDirs, fqn: str, keys: list[str], found: tuple[SourceRoot, str, bytes]) -> Declared:
    root, rel, data = found
    path = os.path.normpath(os.path.join(root.path, root.prefix, rel))
    shown = os.path.relpath(path, dirs.base) if dirs.base and path.startswith(dirs.base + os.sep) else path
    return Declared(fqn, keys, root, rel, data, shown.replace(os.sep, "/"), *_module_of(root))


def locate(dirs: SourceDirs | None, ref: SymbolRef) -> Declared | None:
    """The source file declaring the type part of `ref`, when one of the directories has it; a simple name
    (`App`) that the default package lacks is found by file name (`located`) when exactly one file declares it."""
    found = located(dirs, ref)
    return found[0] if len(found) == 1 else None


def located(dirs: SourceDirs | None, ref: SymbolRef) -> list[Declared]:
    """Every source file declaring the type part of `ref`: one for a qualified name, and for a simple name
    (`App`, `App$Inner`) with no such type in the default package, each `App.java`/`App.kt` (or other Kotlin file)
    of the source directories whose text declares it (several: an ambiguity the caller reports)."""
    if dirs is None or not dirs.roots or ref.coord or ref.is_glob or ref.is_package_glob:
        return []
    for fqn in ref.type_candidates():
        package, _, name = fqn.rpartition(".")
        keys = name.split("$")
        if not all(_NAME.fullmatch(k) for k in keys + (package.split(".") if package else [])):
            continue
        found = _find_top(dirs, package, keys[0])
        if found is not None and all(_declares(found[2], k) for k in keys[1:]):
            return [_declared(dirs, fqn, keys, found)]
    if "." in ref.type_name:
        return []
    keys = ref.type_name.split("$")
    if not all(_NAME.fullmatch(k) for k in keys):
        return []
    out = []
    for root, rel, data in _files_named(dirs, keys[0]):
        package = kotlin_package(data)
        if _declares(data, keys[0]) and all(_declares(data, k) for k in keys[1:]):
            fqn = (package + "." if package else "") + "$".join(keys)
            out.append(_declared(dirs, fqn, keys, (root, rel, data)))
    return sorted(out, key=lambda d: d.fqn)


WALK_ENTRIES_MAX = 50_000  # directory entries a simple-name lookup looks at, over all source directories


KOTLIN_GREP_MAX = 2_000  # Kotlin files named otherwise that a simple-name lookup reads


def _files_named(dirs: SourceDirs, top: str):
    """(root, path inside the root's prefix, bytes) of each `<top>.java`/`<top>.kt` under the source directories,
    and of each other `.kt` file whose text names `top` (Kotlin files need not be named after their classes: at most
    KOTLIN_GREP_MAX read), in a walk bounded by WALK_ENTRIES_MAX entries (a simple name has no package to go to)."""
    wanted, budget, kotlin_reads = {top + ".java", top + ".kt"}, WALK_ENTRIES_MAX, KOTLIN_GREP_MAX
    name = top.encode()
    for root in dirs.roots:
        base = os.path.join(root.path, root.prefix)
        stack = [""]
        while stack and budget > 0:
            rel_dir = stack.pop()
            try:
                with os.scandir(os.path.join(base, rel_dir)) as it:
                    entries = sorted(it, key=lambda e: e.name)
            except OSError:
                continue
            budget -= len(entries)
            for e in entries:
                rel = rel_dir + "/" + e.name if rel_dir else e.name
                if e.name in wanted and e.is_file():
                    data = _read(e.path, GREP_BYTES_MAX)
                    if data is not None:
                        yield root, rel, data
                elif e.name.endswith(".kt") and kotlin_reads > 0 and e.is_file():
                    kotlin_reads -= 1
                    data = _read(e.path, GREP_BYTES_MAX)
                    if data is not None and name in data:
                        yield root, rel, data
                elif not e.name.startswith(".") and e.is_dir(follow_symlinks=False):
                    stack.append(rel)


def _build(module: str, test: bool) -> tuple[str, str] | None:
    """(the build command that compiles the module's main or test sources, the class directory it writes)."""
    if os.path.isfile(os.path.join(module, "pom.xml")):
        return ("mvn test-compile", "target/test-classes") if test else ("mvn compile", "target/classes")
    if any(os.path.isfile(os.path.join(module, n)) for n in ("build.gradle.kts", "build.gradle")):
        return ("gradle testClasses", "build/classes/java/test") if test else ("gradle classes", "build/classes")
    return None


def _why(module: str, test: bool = False, fqn: str | None = None, unread: str | None = None) -> tuple[str, str]:
    """(why the graph lacks the type, the provenance detail): the build that would compile it, when known; a file
    under src/test/... is compiled by the test compile, into the test class directory. A class directory that holds
    the class (`fqn`'s file) is compiled but not on this workspace's classpath: another module's test classes are on
    no module's classpath but its own (Maven, Gradle). `unread`: the class file is in one of the workspace's own class
    directories, and the build could not read it (external_symbols.unread_class_file)."""
    if unread:
        return (f"its class file {os.path.relpath(unread)} could not be read (recompile it)",
                "compiled, but its class file could not be read; matched by name in the source text")
    known = _build(module, test)
    if known is None:
        return ("it is not compiled into the workspace",
                "not compiled: no class of it is in the workspace; matched by name in the source text")
    build, classes = known
    directory = os.path.join(module, *classes.split("/"))
    if fqn and os.path.isfile(os.path.join(directory, *fqn.split(".")) + ".class"):
        where = "another module's test classes, which only that module's own --tests classpath holds" if test \
            else "a module this workspace does not depend on"
        return (f"its compiled class in {os.path.relpath(directory)} is not on this workspace's classpath ({where}: "
                f"run jdx from {os.path.relpath(module)}{' with --tests' if test else ''})",
                "compiled, not on the workspace's classpath; matched by name in the source text")
    if os.path.isdir(directory):
        return (f"its module's {classes} lacks it (rebuild: {build})",
                f"not compiled: its module's {classes} lacks it; matched by name in the source text")
    if test:
        return (f"its module's tests are not compiled (no {classes}; {build})",
                f"not compiled: no {classes}; matched by name in the source text")
    return (f"its module is not built ({build})",
            "not compiled: the module is not built; matched by name in the source text")


def not_found(store, ref: SymbolRef, text: str, miss: NotFoundError) -> NotFoundError:
    """`miss` (a type not in the graph), or, when a source directory declares the type, a not-found that says
    where and why, with only the near candidates of the same package."""
    all_found = located(dirs_of(store), ref)
    if not all_found:
        return miss
    if len(all_found) > 1:
        return NotFoundError(
            f"not found in the graph: {len(all_found)} types named {ref.type_name} are declared in source files "
            "whose modules are not built; re-run with one of the candidates' refs",
            candidates=[{"ref": f.type_name, "file": f.shown} for f in all_found],
            result={"declared_in_files": [{"type": f.type_name, "file": f.shown,
                                     "language": "kotlin" if f.is_kotlin else "java"} for f in all_found]})
    found = all_found[0]
    why, _ = _why(found.module, found.test, found.fqn, _unread(store, found))
    if ref.member is not None:
        step = f"jdx body {shlex.quote(text)} reads its text from the file"
    else:
        step = f"jdx source {shlex.quote(found.type_name)} reads the file"
    package = found.fqn.rpartition(".")[0]
    near = [c for c in miss.candidates if c.get("ref", "").rpartition(".")[0] == package]
    return NotFoundError(
        f"not found in the graph: {text if ref.member is not None else found.type_name} is declared in "
        f"{found.shown}, but {why}, so show, members and usages cannot see it; {step}",
        candidates=near, result={"declared_in": {"type": found.type_name, "file": found.shown,
                                                 "language": "kotlin" if found.is_kotlin else "java"}})


def member_not_compiled(store, type_name: str, ref: SymbolRef, text: str, miss: NotFoundError) -> NotFoundError:
    """`miss` (a member the compiled type `type_name` lacks), or, when the type's file in the workspace's source
    directories declares a member of that name (and written parameters), a not-found saying the class file is older
    than the source: `phone` added to Client.java and not recompiled."""
    member = ref.member
    if member is None or member == "<init>":
        return miss
    try:
        found = locate(dirs_of(store), parse_ref(type_name))
        f = _parse(found, None) if found is not None else None
    except Exception:  # noqa: BLE001 - a file that cannot be read or parsed: the plain not-found stands
        return miss
    if f is None:
        return miss
    decls = [d for d in f.parsed.decls if d.path == found.keys and d.name == member and
             d.kind in ("method", "function", "field", "property", "enum_constant")]
    if ref.params is not None:
        decls = [d for d in decls if d.kind in ("method", "function") and _params_fit(ref.params, d, found.is_kotlin)]
    if not decls:
        return miss
    known = _build(found.module, found.test)
    rebuild = f" (rebuild: {known[0]})" if known else " (recompile it)"
    return NotFoundError(f"not found in the graph: {text} is declared in {found.shown} but not in the compiled "
                         f"class{rebuild}", candidates=[])


def _unread(store, found: Declared) -> str | None:
    """The class file of a type a source file declares that the workspace holds and the build could not read."""
    from jdx.engine.external_symbols import unread_class_file

    return unread_class_file(store, found.fqn.replace(".", "/")) if store is not None else None


def explained(exc: NotFoundError) -> bool:
    """Whether a not-found names the source file of its type (not_found): `source`/`body`/`doc` can read it."""
    return isinstance(exc.result, dict) and ("declared_in" in exc.result or "declared_in_files" in exc.result)


# --- source, body and doc from the file -------------------------------------------------------------------------


@dataclass
class _File:
    found: Declared
    parsed: object
    lines: list[str]
    detail: str

    def type_decl(self):
        return next((d for d in self.parsed.types() if d.path == self.found.keys), None)


def _open(ctx, text: str) -> tuple[_File, SymbolRef]:
    """The parsed file of the type `text` names and the reading of `text` it declares (`a.b.C.m`: the type
    `a.b.C.m`, else the member `m` of `a.b.C`)."""
    for reading in parse_ref(text).alternatives():
        all_found = located(dirs_of(ctx.store), reading)
        if len(all_found) > 1:
            raise AmbiguousError(f"ambiguous: {len(all_found)} candidates for {text}",
                                 candidates=[{"ref": _retyped(text, reading, f), "file": f.shown}
                                             for f in all_found],
                                 hint="re-run with one of the candidates' refs")
        for found in all_found:
            f = _parse(found, ctx.cache, ctx.store)
            if reading.member is not None or f.type_decl() is not None:
                return f, reading
    raise NotFoundError(f"not found: {text}")


def _retyped(text: str, reading: SymbolRef, found: Declared) -> str:
    """`text` with its type part qualified as `found` names it: `App#run` -> `demo.App#run`."""
    return found.type_name + text[len(reading.type_name):] if text.startswith(reading.type_name) else found.type_name


def _parse(found: Declared, cache, store=None) -> _File:
    if found.is_kotlin:
        from jdx.engine.kotlin_parse import parse_kotlin

        parsed = parse_kotlin(found.data, cache)
    else:
        from jdx.engine.java_parse import parse_source

        parsed = parse_source(found.data, cache)
    return _File(found, parsed, found.data.decode("utf-8", "replace").splitlines(),
                 _why(found.module, found.test, found.fqn, _unread(store, found))[1])


def _warning(f: _File) -> Warning_:
    return Warning_(WARNING, f"{f.found.type_name} is not in the graph: the text is read from {f.found.shown} "
                    f"({f.detail.split('; ', 1)[0]}); its members are matched by name, unchecked against bytecode")


LABEL = "unbuilt source"  # what provenance lines name instead of a sources jar


def _header(f: _File, a: int, b: int) -> str:
    return f"source: {LABEL} ({f.found.shown}:{a}-{b})   ⚠ {f.detail}"


def _params_fit(written: tuple[str, ...], decl, kotlin: bool) -> bool:
    have = [p.split("<", 1)[0].rsplit(".", 1)[-1] for p in decl.params]
    want = [p.split("<", 1)[0].rsplit(".", 1)[-1] for p in written]
    if kotlin:
        want = [_KT_PRIMITIVES.get(w, w) for w in want]
    return have == want


def _member_ref(f: _File, decl) -> str:
    name = "<init>" if decl.kind in ("constructor", "compact_constructor", "primary constructor") else decl.name
    owner = f.found.type_name
    if decl.kind in ("field", "property", "enum_constant"):
        return f"{owner}#{name}"
    return f"{owner}#{name}({', '.join(decl.params)})"


def _members(f: _File, ref: SymbolRef, text: str, require_one: bool) -> list:
    """The declarations `ref`'s member names in the type: methods (or constructors) by name and written
    parameters, else fields and properties by name."""
    decls = [d for d in f.parsed.decls if d.path == f.found.keys]
    member, kotlin = ref.member, f.found.is_kotlin
    if member in ("<init>", f.found.keys[-1]):
        named = [d for d in decls if d.kind in ("constructor", "compact_constructor", "primary constructor")]
    else:
        named = [d for d in decls if d.kind in ("method", "function") and d.name == member]
        if not named and ref.params is None:
            named = [d for d in decls if d.kind in ("field", "property", "enum_constant") and d.name == member]
    found = named if ref.params is None else [d for d in named if _params_fit(ref.params, d, kotlin)]
    if not found:
        others = [{"ref": _member_ref(f, d), "kind": d.kind} for d in named]
        raise NotFoundError(f"not found: {text} ({f.found.shown} declares {f.found.type_name} but no "
                            f"{'such overload of ' if named else 'member '}{member})", candidates=others)
    if require_one and len(found) > 1:
        raise AmbiguousError(f"ambiguous: {len(found)} candidates for {text}",
                             candidates=[{"ref": _member_ref(f, d), "kind": d.kind} for d in found],
                             hint="re-run with one of the candidates' refs")
    return found


def _type_or_fail(f: _File, text: str):
    decl = f.type_decl()
    if decl is None:
        raise NotFoundError(f"not found: {text} ({f.found.shown} has no declaration of {f.found.type_name} "
                            "that parses)")
    return decl


def _provenance(f: _File, symbol: str, a: int, b: int) -> list[dict]:
    return [{"symbol": symbol, "artifact": None, "origin": ORIGIN, "file": f.found.shown, "lines": [a, b],
             "detail": f.detail}]


def _source_info(f: _File, a: int, b: int) -> dict:
    return {"label": LABEL, "how": ORIGIN, "file": f.found.shown, "lines": [a, b]}


def source(ctx, text: str, lines: str | None, around: str | None, context: int | None):
    """`jdx source <type>` of a type only a source file declares: the file, `--lines`, or `--around <member>`."""
    from jdx.engine.src_source import DEFAULT_AROUND_CONTEXT, line_range

    f, ref = _open(ctx, text)
    if ref.member is not None:
        from jdx.engine.src_source import member_hint

        raise UsageError(f"{text!r} names a member; this command takes a type", hint=member_hint(text))
    total = len(f.lines)
    if lines:
        a, b = line_range(lines, total, f.found.shown)
    elif around:
        _type_or_fail(f, text)
        member_text = around if "#" in around else f"{f.found.type_name}#{around}"
        decl = _members(f, parse_ref(member_text), member_text, require_one=True)[0]
        n = DEFAULT_AROUND_CONTEXT if context is None else context
        a, b = max(1, decl.start - n), min(total, decl.end + n)
    else:
        a, b = 1, total
    result = {"ref": f.found.type_name, "artifact": None, "origin": ORIGIN, "header": _header(f, a, b),
              "source": _source_info(f, a, b), "engine": None, "total_lines": total, "first_line": a,
              "text": f.lines[a - 1:b]}
    return result, [_warning(f)], _provenance(f, f.found.type_name, a, b)


def body(ctx, text: str, opts):
    """`jdx body` of a type only a source file declares, or of one of its members matched by name."""
    from jdx.engine.src_body import cut, with_opening

    f, ref = _open(ctx, text)
    type_decl = _type_or_fail(f, text)
    if ref.member is None:
        decl, symbol, kind = with_opening(type_decl), f.found.type_name, type_decl.kind
    else:
        decl = _members(f, ref, text, require_one=True)[0]
        symbol, kind = _member_ref(f, decl), _kind_word(decl)
    start = decl.doc_start if opts.with_doc and decl.doc_start else decl.start
    a, b = max(1, start - opts.context), min(len(f.lines), decl.end + opts.context)
    doc_step = f"jdx doc {shlex.quote(symbol)}" if decl.doc else None
    result = {"ref": symbol, "kind": kind, "declaring": f.found.type_name, "enclosing": None, "artifact": None,
              "origin": ORIGIN, "header": _header(f, a, b), "source": _source_info(f, a, b), "engine": None,
              "implicit": None, "signature": None, "first_line": a, "text": cut(f.lines, decl, a, b),
              "next": doc_step}
    return result, [_warning(f)], _provenance(f, symbol, a, b)


def _kind_word(decl) -> str:
    return {"function": "method", "property": "field", "enum_constant": "field", "compact_constructor": "constructor",
            "primary constructor": "constructor"}.get(decl.kind, decl.kind)


def doc(ctx, text: str, opts):
    """`jdx doc` of a type only a source file declares, or of every member `text` names (all overloads when no
    parameters are written): the comment above each declaration, nothing inherited (no graph to walk)."""
    from jdx.engine import javadoc as jd

    f, ref = _open(ctx, text)
    type_decl = _type_or_fail(f, text)
    if ref.member is None:
        pairs = [(f.found.type_name, type_decl.kind, type_decl)]
    else:
        pairs = [(_member_ref(f, d), _kind_word(d), d) for d in _members(f, ref, text, require_one=False)]
    items, warnings, provenance = [], [_warning(f)], []
    for symbol, kind, decl in pairs:
        raw = decl.doc
        source = None
        if raw:
            end = decl.start - 1 if decl.start > decl.doc_start else decl.start
            source = {"label": LABEL, "file": f.found.shown, "lines": [decl.doc_start, end]}
        parsed, links = None, None
        if raw and f.found.is_kotlin:
            from jdx.engine import kdoc

            parsed, links = kdoc.parse(raw, None)
        elif raw:
            parsed = jd.parse(raw)
        item = {"ref": symbol, "kind": kind, "declaring": f.found.type_name, "raw": raw, "source": source,
                "inherited_from": None, "text": jd.render(parsed) if parsed else [],
                "first_sentence": jd.first_sentence(parsed) if parsed else ""}
        if f.found.is_kotlin:
            item["links"] = links or []
        if not item["text"]:
            warnings.append(Warning_("NO_DOC", f"{symbol} has no {'KDoc' if f.found.is_kotlin else 'javadoc'}"))
        prov = {"symbol": symbol, "artifact": None, "origin": ORIGIN, "detail": f.detail}
        if source:
            prov.update(file=f.found.shown, lines=source["lines"])
        provenance.append(prov)
        if not opts.raw:
            item.pop("raw")
        items.append(item)
    return {"query": text, "docs": items}, warnings, provenance


# --- a source directory none of whose classes is compiled ------------------------------------------------------

UNCOMPILED = "SOURCES_NOT_COMPILED"
SAMPLE_FILES = 20  # source files of one directory whose types are looked up in the graph
SAMPLE_ENTRIES = 2_000  # directory entries walked to find them
_KT_TOP = re.compile(rb"^(?:[a-z]+[ \t]+)*(?:class|interface|object)[ \t]+([A-Za-z_][\w]*)", re.M)


def _sampled_types(root: SourceRoot) -> list[str]:
    """Top-level class names declared by the first SAMPLE_FILES `.java`/`.kt` files of a source directory (a
    sorted, bounded walk): a Java file's own name, a Kotlin file's first class and its `FileKt` facade."""
    out: list[str] = []
    files, budget, stack = 0, SAMPLE_ENTRIES, [os.path.join(root.path, root.prefix)]
    while stack and budget > 0 and files < SAMPLE_FILES:
        folder = stack.pop()
        try:
            with os.scandir(folder) as it:
                entries = sorted(it, key=lambda e: e.name, reverse=True)
        except OSError:
            continue
        budget -= len(entries)
        for e in entries:
            if e.name.endswith((".java", ".kt")) and e.name not in ("package-info.java", "module-info.java") \
                    and e.is_file() and files < SAMPLE_FILES:
                data = _read(e.path, GREP_BYTES_MAX)
                if data is None:
                    continue
                files += 1
                package = kotlin_package(data)
                prefix = package + "." if package else ""
                stem = e.name.rsplit(".", 1)[0]
                if e.name.endswith(".java"):
                    out.append(prefix + stem)
                else:
                    first = _KT_TOP.search(data)
                    if first:
                        out.append(prefix + first.group(1).decode())
                    out.append(prefix + stem[:1].upper() + stem[1:] + "Kt")
            elif not e.name.startswith(".") and e.is_dir(follow_symlinks=False):
                stack.append(e.path)
    return out


def uncompiled_warnings(store, dirs: list[str]) -> list[Warning_]:
    """SOURCES_NOT_COMPILED for each source directory (`--src`) none of whose sampled classes is in the graph:
    answers about the workspace (usages, callers, hierarchy) then count compiled code only, and say so instead
    of looking complete. A directory whose classes are partly compiled is not reported (a stale build is the
    build's business; `show` of a missing type names its file)."""
    from jdx.graph_schema.queries_search import TYPES_PRESENT

    out = []
    for d in dirs:
        roots = src_dir_roots([d])  # the directory itself first; a file's package is read from its text
        names = sorted(set(_sampled_types(roots[0]))) if roots else []
        if not names:
            continue
        if not store.rows(TYPES_PRESENT, {"fqns": names}):
            out.append(Warning_(UNCOMPILED, f"--src {d}: no class its files declare is compiled into the "
                                            f"workspace ({len(names)} sampled), so usages, callers and hierarchy see "
                                            "compiled classes only; compile it and add its class directory with "
                                            "--jars (source, body and doc read the files)", d))
    return out
