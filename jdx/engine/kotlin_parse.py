"""Kotlin source files to declarations with tree-sitter-kotlin (spec §12.2; DESIGN.md: tree-sitter-kotlin in
place of kotlin-compiler-embeddable): classes, objects, companion objects, enum entries, functions (with their
receiver), properties (class parameters declared `val`/`var` included), secondary constructors, `init` blocks,
type aliases, and the lambdas and object literals inside them, each with its line range and KDoc comment.

Types are keyed the way kotlinc names their class files: a nested class, object or enum entry with a body by
its name (`Vec` → `Companion`), a companion object by its name or `Companion`; top-level functions and
properties live at the file level (path `[]`), where their facade class (`GeometryKt`, a `@file:JvmName`,
a multi-file part) finds them. Lambdas and object literals get no key: their classes are paired by the
line table (kotlin_source.py).

tree-sitter-kotlin 1.1 rejects a one-line type body whose last member is not followed by a newline or `;`
(`object A { fun f() = 1 }`); when a parse has errors the file is parsed again with the blank before each
such `}` read as `;`, which keeps every byte offset, and the parse with fewer errors is kept. Results are
cached on disk by the file's content hash, like Java parses.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path

from jdx.engine.java_parse import Decl, ParsedFile, content_key
from jdx.engine.java_parse import count_errors, line_of  # tree-sitter helpers, the same for both grammars

PARSE_VERSION = 6  # bump when KtDecl or the walk changes: cached parses of older versions are ignored
TYPE_KINDS = ("class", "interface", "fun interface", "enum class", "annotation class", "object",
              "companion object", "enum entry")
CALLABLE_KINDS = ("function", "constructor", "primary constructor")
ANONYMOUS_KINDS = ("lambda", "anonymous function", "object literal", "local function", "function reference")
_TYPE_NODES = ("user_type", "nullable_type", "function_type", "parenthesized_type", "non_nullable_type",
               "dynamic")
_CONTAINER_NODES = {"class_declaration", "object_declaration", "companion_object"}


@dataclass
class KtDecl(Decl):
    """A Kotlin declaration; `params` are simple type names as written (`Int`, `List`, `String`), `mods`
    the modifier keywords (`override`, `data`, `suspend`, `expect`, `val`, `var`, `vararg` …)."""

    receiver: str = ""  # extension functions and properties: the receiver's simple type name
    param_names: list[str] = field(default_factory=list)
    mods: list[str] = field(default_factory=list)


@dataclass
class KtParsedFile(ParsedFile):
    imports: dict[str, str] = field(default_factory=dict)  # simple name or alias → qualified name
    star_imports: list[str] = field(default_factory=list)  # `import a.b.*` → `a.b`
    jvm_name: str = ""  # `@file:JvmName("…")`
    lines: int = 0

    def types(self) -> list[Decl]:
        return [d for d in self.decls if d.kind in TYPE_KINDS]


_PARSER = None
_MEMO: dict[str, KtParsedFile] = {}
_MEMO_MAX = 256


def _parser():
    global _PARSER
    if _PARSER is None:
        import tree_sitter
        import tree_sitter_kotlin

        _PARSER = tree_sitter.Parser(tree_sitter.Language(tree_sitter_kotlin.language()))
    return _PARSER


def parse_kotlin(data: bytes, cache: Path | None = None) -> KtParsedFile:
    """The declarations of one `.kt` file; memoised in-process and on disk (`<cache>/srcmap/`) by content hash."""
    key = content_key(data)
    hit = _MEMO.get(key)
    if hit is not None:
        return hit
    file = cache / "srcmap" / f"{key}.kt{PARSE_VERSION}.json" if cache is not None else None
    parsed = _load(file) if file is not None else None
    if parsed is None:
        try:
            parsed = _parse(data)
        except Exception:  # noqa: BLE001 - a file the grammar or the walk cannot take: no declarations, counted
            parsed = KtParsedFile([], "", 1, lines=data.count(b"\n") + 1)  # as one error (SOURCE_PARSE_ERROR)
        if file is not None:
            _store(file, parsed)
    if len(_MEMO) >= _MEMO_MAX:
        _MEMO.pop(next(iter(_MEMO)))
    _MEMO[key] = parsed
    return parsed


def _load(file: Path) -> KtParsedFile | None:
    try:
        raw = json.loads(file.read_text())
        return KtParsedFile([KtDecl(**d) for d in raw["decls"]], raw["package"], raw["errors"], raw["imports"],
                            raw["star_imports"], raw["jvm_name"], raw["lines"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _store(file: Path, parsed: KtParsedFile) -> None:
    try:
        file.parent.mkdir(parents=True, exist_ok=True)
        tmp = file.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps({"decls": [asdict(d) for d in parsed.decls], "package": parsed.package,
                                   "errors": parsed.errors, "imports": parsed.imports,
                                   "star_imports": parsed.star_imports, "jvm_name": parsed.jvm_name,
                                   "lines": parsed.lines}, separators=(",", ":")))
        os.replace(tmp, file)
    except OSError:
        pass  # a read-only cache costs a re-parse, nothing else


_ONE_LINE_BODY_END = re.compile(rb"(?<=[^\s{;])[ \t](?=\})")


def _parse(data: bytes) -> KtParsedFile:
    tree = _parser().parse(data)
    errors = count_errors(tree.root_node)
    if errors:
        patched = _ONE_LINE_BODY_END.sub(b";", data)
        if patched != data:
            again = _parser().parse(patched)
            fewer = count_errors(again.root_node)
            if fewer < errors:
                tree, errors = again, fewer
    walker = _Walker()
    root = tree.root_node
    out = KtParsedFile([], "", errors, lines=data.count(b"\n") + (0 if data.endswith(b"\n") or not data else 1))
    for child in root.named_children:
        t = child.type
        if t == "package_header":
            ident = next((c for c in child.named_children if c.type in ("qualified_identifier", "identifier")), None)
            out.package = _dotted(ident) if ident is not None else ""
        elif t == "import":
            _import(child, out)
        elif t == "file_annotation":
            name = _file_jvm_name(child)
            if name:
                out.jvm_name = name
        else:
            walker.member(child, [])
    out.decls = walker.decls
    return out


def _dotted(node) -> str:
    if node.type == "qualified_identifier":
        return ".".join(c.text.decode() for c in node.named_children if c.type == "identifier")
    return node.text.decode()


def _import(node, out: KtParsedFile) -> None:
    named = node.named_children
    ident = next((c for c in named if c.type in ("qualified_identifier", "identifier")), None)
    if ident is None:
        return
    path = _dotted(ident)
    rest = node.text.decode()[ident.end_byte - node.start_byte:]
    if rest.lstrip().startswith(".*") or rest.lstrip().startswith("*"):
        out.star_imports.append(path)
        return
    alias = next((c for c in named if c.type == "identifier" and c.start_byte > ident.end_byte), None)
    out.imports[alias.text.decode() if alias is not None else path.rsplit(".", 1)[-1]] = path


def _file_jvm_name(node) -> str:
    text = node.text.decode()
    m = re.search(r"JvmName\s*\(\s*(?:name\s*=\s*)?\"([^\"]+)\"", text)
    return m.group(1) if m else ""


def _kdoc(node) -> tuple[str | None, int | None]:
    prev = node.prev_named_sibling
    if prev is not None and prev.type == "block_comment" and prev.text.startswith(b"/**") \
            and prev.text != b"/**/":
        return prev.text.decode("utf-8", "replace"), line_of(prev.start_point)
    return None, None


def _head(node):
    """The first node of a declaration: tree-sitter-kotlin 1.1 reads `@Suppress("X")` on its own line before
    `internal class C` as an annotated expression of its own; such annotations belong to the declaration."""
    first, prev = node, node.prev_named_sibling
    while prev is not None and prev.type in ("annotated_expression", "annotation") and prev.text.startswith(b"@") \
            and prev.end_point[0] >= first.start_point[0] - 1:
        first, prev = prev, prev.prev_named_sibling
    return first


def _mods(node) -> list[str]:
    """Modifier keywords of a declaration (annotations left out), plus `val`/`var` for properties."""
    out = []
    for c in node.children:
        if c.type == "modifiers":
            for m in c.named_children:
                if m.type != "annotation":
                    out.extend(m.text.decode().split())
        elif c.type in ("val", "var"):
            out.append(c.type)
    return out


def simple_type(node) -> str:
    """A type node as a simple name: `kotlin.collections.List<T>?` → `List`, `(Int) -> Unit` → `Function1`."""
    t = node.type
    if t in ("nullable_type", "non_nullable_type", "parenthesized_type"):
        inner = next((c for c in node.named_children if c.type in _TYPE_NODES or c.type == "type_modifiers"), None)
        inner = next((c for c in node.named_children if c.type in _TYPE_NODES), inner)
        return simple_type(inner) if inner is not None else node.text.decode()
    if t == "user_type":
        ids = [c for c in node.named_children if c.type in ("identifier", "type_identifier")]
        return ids[-1].text.decode() if ids else node.text.decode()
    if t == "function_type":
        params = next((c for c in node.named_children if c.type == "function_type_parameters"), None)
        n = len(params.named_children) if params is not None else 0
        return f"Function{n}"
    return node.text.decode()


def _receiver(node, before) -> str:
    """The receiver type of an extension: a type node before `before` (the name or variable declaration)."""
    for c in node.named_children:
        if before is not None and c.start_byte >= before.start_byte:
            break
        if c.type in _TYPE_NODES:
            return simple_type(c)
    return ""


def _params(node) -> tuple[list[str], list[str], bool]:
    """(simple types, names, vararg) of `function_value_parameters`, `class_parameters` or a setter."""
    types, names, varargs, pending_vararg = [], [], False, False
    for p in node.named_children:
        if p.type == "parameter_modifiers":
            pending_vararg = "vararg" in p.text.decode().split()
            continue
        if p.type not in ("parameter", "class_parameter"):
            continue
        ident = next((c for c in p.named_children if c.type == "identifier"), None)
        typ = next((c for c in p.named_children if c.type in _TYPE_NODES), None)
        is_vararg = pending_vararg or "vararg" in _mods(p)
        pending_vararg = False
        types.append((simple_type(typ) if typ is not None else "") + ("..." if is_vararg else ""))
        names.append(ident.text.decode() if ident is not None else "")
        varargs |= is_vararg
    return types, names, varargs


def _class_kind(node) -> str:
    if node.type == "object_declaration":
        return "object"
    if node.type == "companion_object":
        return "companion object"
    mods = _mods(node)
    tokens = [c.type for c in node.children if not c.is_named]
    if "interface" in tokens:
        return "fun interface" if "fun" in tokens else "interface"
    if "enum" in mods:
        return "enum class"
    if "annotation" in mods:
        return "annotation class"
    return "class"


def _delegate_lambda(node):
    """tree-sitter-kotlin 1.1 reads `class C : A(), I by d { … }` as `d { … }`, a call with a trailing lambda
    that swallows the class body; that lambda, when it ends where the class does."""
    specs = next((c for c in node.named_children if c.type == "delegation_specifiers"), None)
    last = specs.named_children[-1] if specs is not None and specs.named_child_count else None
    deleg = last.named_children[0] if last is not None and last.named_child_count else None
    call = deleg.named_children[-1] if deleg is not None and deleg.type == "explicit_delegation" else None
    if call is None or call.type != "call_expression" or call.end_byte != node.end_byte:
        return None
    lam = call.named_children[-1]
    if lam.type == "annotated_lambda":
        lam = next((c for c in lam.named_children if c.type == "lambda_literal"), None)
    return lam if lam is not None and lam.type == "lambda_literal" else None


class _Walker:
    """Collects declarations in source order."""

    def __init__(self) -> None:
        self.decls: list[KtDecl] = []

    def _add(self, kind: str, name: str, path: list[str], node, **extra) -> KtDecl:
        head = _head(node)
        doc, doc_start = _kdoc(head)
        decl = KtDecl(kind, name, path, line_of(head.start_point), line_of(node.end_point), doc=doc, doc_start=doc_start,
                      start_col=head.start_point[1], end_col=node.end_point[1], **extra)
        self.decls.append(decl)
        return decl

    def member(self, node, path: list[str]) -> None:
        t = node.type
        if t in _CONTAINER_NODES:
            self.type_decl(node, path)
        elif t == "function_declaration":
            self.function(node, path)
        elif t == "property_declaration":
            self.property(node, path)
        elif t == "secondary_constructor":
            fvp = next((c for c in node.named_children if c.type == "function_value_parameters"), None)
            types, names, varargs = _params(fvp) if fvp is not None else ([], [], False)
            self._add("constructor", "<init>", path, node, params=types, param_names=names, varargs=varargs,
                      mods=_mods(node))
            self.nested(node, path)
        elif t == "anonymous_initializer":
            self._add("initializer", "init", path, node)
            self.nested(node, path)
        elif t == "type_alias":
            name = node.child_by_field_name("type")
            self._add("typealias", name.text.decode() if name is not None else "", path, node, mods=_mods(node))
        elif t == "enum_entry":
            self.enum_entry(node, path)
        elif t == "ERROR":  # a recovered fragment: the declarations inside it still count
            for c in node.named_children:
                self.member(c, path)
        else:
            self.nested(node, path)

    def type_decl(self, node, path: list[str]) -> None:
        kind = _class_kind(node)
        name_node = node.child_by_field_name("name")
        name = name_node.text.decode() if name_node is not None else ("Companion" if kind == "companion object" else "")
        body = next((c for c in node.named_children if c.type in ("class_body", "enum_class_body")), None)
        swallowed = _delegate_lambda(node) if body is None else None
        if swallowed is not None:  # `…, I by d { … }` read as a call with a trailing lambda: that is the body
            body = swallowed
        ctor = next((c for c in node.named_children if c.type == "primary_constructor"), None)
        header_end = line_of(body.start_point) if body is not None else line_of(node.end_point)
        own = path + [name]
        decl = self._add(kind, name, own, node, header_end=header_end, mods=_mods(node))
        if ctor is not None:
            params = next((c for c in ctor.named_children if c.type == "class_parameters"), None)
            types, names, varargs = _params(params) if params is not None else ([], [], False)
            decl.params, decl.param_names, decl.varargs = types, names, varargs
            self.decls.append(KtDecl("primary constructor", "<init>", own, decl.start, line_of(ctor.end_point),
                                     params=types, param_names=names, varargs=varargs, start_col=decl.start_col,
                                     end_col=ctor.end_point[1], mods=_mods(ctor)))
            if params is not None:
                for p in params.named_children:
                    if p.type == "class_parameter" and any(c.type in ("val", "var") for c in p.children):
                        ident = next((c for c in p.named_children if c.type == "identifier"), None)
                        typ = next((c for c in p.named_children if c.type in _TYPE_NODES), None)
                        self.decls.append(KtDecl("property", ident.text.decode() if ident is not None else "", own,
                                                 line_of(p.start_point), line_of(p.end_point),
                                                 params=[simple_type(typ)] if typ is not None else [],
                                                 start_col=p.start_point[1], end_col=p.end_point[1],
                                                 mods=_mods(p)))
        for c in node.named_children:
            if c.type == "delegation_specifiers":
                if any(s.named_child_count and s.named_children[0].type == "explicit_delegation"
                       for s in c.named_children):
                    decl.mods.append("by")  # `: Channel<E> by channel`: kotlinc writes the delegating members
                if swallowed is None:
                    self.nested(c, path)
        if body is not None:
            for c in body.named_children:
                self.member(c, own)

    def enum_entry(self, node, path: list[str]) -> None:
        ident = next((c for c in node.named_children if c.type == "identifier"), None)
        name = ident.text.decode() if ident is not None else ""
        body = next((c for c in node.named_children if c.type == "class_body"), None)
        self._add("enum_constant", name, path, node)
        if body is not None:
            own = path + [name]
            self.decls.append(KtDecl("enum entry", name, own, line_of(node.start_point), line_of(node.end_point),
                                     header_end=line_of(body.start_point), start_col=node.start_point[1],
                                     end_col=node.end_point[1]))
            for c in body.named_children:
                self.member(c, own)
        for c in node.named_children:
            if c.type == "value_arguments":
                self.nested(c, path)

    def function(self, node, path: list[str]) -> None:
        name_node = node.child_by_field_name("name")
        fvp = next((c for c in node.named_children if c.type == "function_value_parameters"), None)
        types, names, varargs = _params(fvp) if fvp is not None else ([], [], False)
        ret = None
        if fvp is not None:
            ret = next((c for c in node.named_children if c.start_byte >= fvp.end_byte and c.type in _TYPE_NODES),
                       None)
        self._add("function", name_node.text.decode() if name_node is not None else "", path, node, params=types,
                  param_names=names, varargs=varargs, receiver=_receiver(node, name_node),
                  returns=simple_type(ret) if ret is not None else "", mods=_mods(node))
        self.nested(node, path)

    def property(self, node, path: list[str]) -> None:
        var = next((c for c in node.named_children if c.type in ("variable_declaration",
                                                                 "multi_variable_declaration")), None)
        if var is None or var.type == "multi_variable_declaration":  # `val (a, b) = …` only exists in bodies
            self.nested(node, path)
            return
        ident = next((c for c in var.named_children if c.type == "identifier"), None)
        typ = next((c for c in var.named_children if c.type in _TYPE_NODES), None)
        self._add("property", ident.text.decode() if ident is not None else "", path, node,
                  params=[simple_type(typ)] if typ is not None else [], receiver=_receiver(node, var),
                  mods=_mods(node))
        self.nested(node, path)

    def nested(self, node, path: list[str]) -> None:
        """Lambdas, anonymous functions and object literals anywhere inside a declaration (their classes are
        paired by line), and local classes; an explicit stack, since expressions nest deep."""
        stack = list(reversed(node.named_children))
        while stack:
            item = stack.pop()
            t = item.type
            if t == "lambda_literal":
                self.decls.append(KtDecl("lambda", "", path, line_of(item.start_point), line_of(item.end_point),
                                         start_col=item.start_point[1], end_col=item.end_point[1]))
            elif t == "anonymous_function":
                self.decls.append(KtDecl("anonymous function", "", path, line_of(item.start_point),
                                         line_of(item.end_point), start_col=item.start_point[1],
                                         end_col=item.end_point[1]))
            elif t == "function_declaration":  # a local function, or a member of an object literal
                name = item.child_by_field_name("name")
                self.decls.append(KtDecl("local function", name.text.decode() if name is not None else "", path,
                                         line_of(item.start_point), line_of(item.end_point),
                                         start_col=item.start_point[1], end_col=item.end_point[1]))
            elif t == "callable_reference" or (t == "navigation_expression"
                                                and any(c.type == "::" for c in item.children)):
                # `::foo`, `Type::foo` compile to a class (or a method) of their own
                self.decls.append(KtDecl("function reference", "", path, line_of(item.start_point),
                                         line_of(item.end_point), start_col=item.start_point[1],
                                         end_col=item.end_point[1]))
            elif t == "object_literal":
                self.decls.append(KtDecl("object literal", "", path, line_of(item.start_point), line_of(item.end_point),
                                         start_col=item.start_point[1], end_col=item.end_point[1]))
            stack.extend(reversed(item.named_children))
