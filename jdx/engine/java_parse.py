"""Java source files to declarations with tree-sitter-java: every type, method, constructor, initializer and
field with its line range, erased parameter types and javadoc.

Types are keyed the way javac names their class files, so a binary class finds its source declaration
without guessing: a member class by its name (`HashMap` → `Node`), an anonymous class by its number within
the enclosing class (`1`), a local class by number and name (`1Local`). javac numbers anonymous and local
classes per enclosing class in attribution order, which is source order except that the arguments of
`new X(args) { … }` are attributed before its body; the walk below follows that order.

Parameter types are erased the way javac erases them for descriptors (type variables to their first
bound, generics dropped, varargs to arrays) and reduced to simple names (`Map.Entry` → `Entry`), which is
what a binary descriptor is compared with. Results are cached on disk by the file's content hash.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path

PARSE_VERSION = 5  # bump when Decl or the walk changes: cached parses of older versions are ignored
TYPE_KINDS = {"class_declaration": "class", "interface_declaration": "interface", "enum_declaration": "enum",
              "record_declaration": "record", "annotation_type_declaration": "annotation"}
CALLABLE_KINDS = ("method", "constructor", "compact_constructor")
_PRIMITIVES = {"integral_type", "floating_point_type", "boolean_type", "void_type"}


@dataclass
class Decl:
    """One declaration. Lines are 1-based and inclusive; `start` includes annotations and modifiers,
    `doc_start` is the first line of the javadoc comment before it (None without one)."""

    kind: str  # class|interface|enum|record|annotation|method|constructor|compact_constructor|initializer|static_initializer|field|enum_constant
    name: str
    path: list[str]  # keys of the enclosing types, outermost first; a type's path ends with its own key
    start: int
    end: int
    params: list[str] = field(default_factory=list)  # erased simple type names (`Object`, `int[]`, `Entry`)
    varargs: bool = False
    doc: str | None = None
    doc_start: int | None = None
    header_end: int = 0  # types: the line of the body's opening brace
    components: list[str] = field(default_factory=list)  # records: erased component types
    component_names: list[str] = field(default_factory=list)
    returns: str = ""  # methods: the erased simple return type (`void`, `Object`, `Entry[]`)
    start_col: int = 0  # byte columns: a declaration sharing a line with other code is cut there
    end_col: int = -1
    # anonymous classes: where the expression that opens the body starts (`new Runnable() {`, an enum
    # constant `RED(1) {`), so the body can be shown with its header; 0 for every other declaration
    head_start: int = 0
    head_col: int = 0
    # fields: static (an interface's implicitly) and written with an initializer: <clinit> runs it unless the
    # class file holds it as a ConstantValue
    static_init: bool = False


@dataclass
class ParsedFile:
    decls: list[Decl]
    package: str
    errors: int  # tree-sitter ERROR/MISSING nodes: 0 for well-formed Java

    def types(self) -> list[Decl]:
        return [d for d in self.decls if d.kind in TYPE_KINDS.values()]


_PARSER = None
_MEMO: dict[str, ParsedFile] = {}
_MEMO_MAX = 256


def parser():
    """The process's tree-sitter Java parser (made on first use)."""
    global _PARSER
    if _PARSER is None:
        import tree_sitter
        import tree_sitter_java

        _PARSER = tree_sitter.Parser(tree_sitter.Language(tree_sitter_java.language()))
    return _PARSER


def content_key(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:32]


def parse_source(data: bytes, cache: Path | None = None) -> ParsedFile:
    """The declarations of one Java file; memoised in-process and on disk (`<cache>/srcmap/`) by content hash."""
    key = content_key(data)
    hit = _MEMO.get(key)
    if hit is not None:
        return hit
    file = cache / "srcmap" / f"{key}.v{PARSE_VERSION}.json" if cache is not None else None
    parsed = _load(file) if file is not None else None
    if parsed is None:
        parsed = _parse(data)
        if file is not None:
            _store(file, parsed)
    if len(_MEMO) >= _MEMO_MAX:
        _MEMO.pop(next(iter(_MEMO)))
    _MEMO[key] = parsed
    return parsed


def _load(file: Path) -> ParsedFile | None:
    try:
        raw = json.loads(file.read_text())
        return ParsedFile([Decl(**d) for d in raw["decls"]], raw["package"], raw["errors"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _store(file: Path, parsed: ParsedFile) -> None:
    try:
        file.parent.mkdir(parents=True, exist_ok=True)
        tmp = file.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps({"decls": [asdict(d) for d in parsed.decls], "package": parsed.package,
                                   "errors": parsed.errors}, separators=(",", ":")))
        os.replace(tmp, file)
    except OSError:
        pass  # a read-only cache costs a re-parse, nothing else


def _parse(data: bytes) -> ParsedFile:
    tree = parser().parse(data)
    walker = _Walker()
    root = tree.root_node
    package = ""
    for child in root.children:
        if child.type == "package_declaration":
            package = "".join(c.text.decode() for c in child.named_children if c.type != "annotation")
        elif child.type in TYPE_KINDS:
            walker.type_decl(child, [], [], member=True)
    return ParsedFile(walker.decls, package, count_errors(root))


def count_errors(root) -> int:
    if not root.has_error:
        return 0
    count, stack = 0, [root]
    while stack:
        node = stack.pop()
        if node.type == "ERROR" or node.is_missing:
            count += 1
        stack.extend(c for c in node.children if c.has_error or c.is_missing)
    return count


def line_of(point) -> int:
    return point[0] + 1


def _javadoc(node) -> tuple[str | None, int | None]:
    prev = node.prev_sibling
    if prev is not None and prev.type == "block_comment" and prev.text.startswith(b"/**"):
        return prev.text.decode("utf-8", "replace"), line_of(prev.start_point)
    return None, None


def _type_params(node, scope: list[dict]) -> dict:
    """`<K, V extends Comparable<V>>` → {"K": "Object", "V": "Comparable"}; bounds erased in `scope`."""
    out: dict[str, str] = {}
    tps = node.child_by_field_name("type_parameters")
    if tps is None:
        return out
    params = [p for p in tps.named_children if p.type == "type_parameter"]
    names = [next((c.text.decode() for c in p.named_children if c.type in ("type_identifier", "identifier")), "")
             for p in params]
    local = {n: "Object" for n in names}
    for p, name in zip(params, names):
        bound = next((c for c in p.named_children if c.type == "type_bound"), None)
        first = next((c for c in bound.named_children if c.type != "annotation"), None) if bound else None
        local[name] = erase(first, [local] + scope, frozenset({name})) if first is not None else "Object"
        out[name] = local[name]
    return out


def erase(node, scope: list[dict], seen: frozenset = frozenset()) -> str:
    """A type node's erasure as a simple name: type variables to their bound, generics and annotations
    dropped, qualified names to their last segment (`java.util.Map.Entry<K,V>` → `Entry`)."""
    t = node.type
    if t in _PRIMITIVES:
        return node.text.decode()
    if t == "generic_type":
        return erase(node.named_children[0], scope, seen)
    if t == "array_type":
        dims = node.child_by_field_name("dimensions")
        count = dims.text.count(b"[") if dims is not None else 1
        return erase(node.child_by_field_name("element"), scope, seen) + "[]" * count
    if t == "scoped_type_identifier":
        ids = [c for c in node.named_children if c.type == "type_identifier"]
        return ids[-1].text.decode() if ids else node.text.decode().rsplit(".", 1)[-1]
    if t == "annotated_type":
        inner = [c for c in node.named_children if c.type not in ("annotation", "marker_annotation")]
        return erase(inner[-1], scope, seen) if inner else node.text.decode()
    name = node.text.decode()
    if t == "type_identifier":
        for env in scope:
            if name in env:
                return env[name] if name not in seen else "Object"
    return name.rsplit(".", 1)[-1]


def _params(node, scope: list[dict]) -> tuple[list[str], bool, list[str]]:
    """(erased parameter types, varargs, names) of a method, constructor or record header."""
    fp = node.child_by_field_name("parameters")
    out, names, varargs = [], [], False
    if fp is None:
        return out, varargs, names
    for p in fp.named_children:
        if p.type == "formal_parameter":
            typ = erase(p.child_by_field_name("type"), scope)
            dims = p.child_by_field_name("dimensions")
            if dims is not None:
                typ += "[]" * dims.text.count(b"[")
            out.append(typ)
            name = p.child_by_field_name("name")
            names.append(name.text.decode() if name is not None else "")
        elif p.type == "spread_parameter":
            typ = next(c for c in p.named_children if c.type not in ("modifiers", "variable_declarator"))
            out.append(erase(typ, scope) + "[]")
            decl = next((c for c in p.named_children if c.type == "variable_declarator"), None)
            name = decl.child_by_field_name("name") if decl is not None else None
            names.append(name.text.decode() if name is not None else "")
            varargs = True
    return out, varargs, names


class _Walker:
    """Collects declarations in source order, numbering anonymous and local classes as javac does."""

    def __init__(self) -> None:
        self.decls: list[Decl] = []
        self.counters: dict[tuple, int] = {}

    def _next(self, path: list[str], name: str) -> int:
        key = (tuple(path), name)
        self.counters[key] = self.counters.get(key, 0) + 1
        return self.counters[key]

    def type_decl(self, node, path: list[str], scope: list[dict], member: bool) -> None:
        name_node = node.child_by_field_name("name")
        name = name_node.text.decode() if name_node is not None else ""
        key = name if member else f"{self._next(path, name)}{name}"
        self._type_body(node, TYPE_KINDS[node.type], name, path + [key], scope)

    def anonymous(self, body, path: list[str], scope: list[dict], doc_node=None) -> None:
        key = str(self._next(path, ""))
        self._type_body(body, "class", "", path + [key], scope, header=doc_node)

    def _type_body(self, node, kind: str, name: str, path: list[str], scope: list[dict], header=None) -> None:
        doc, doc_start = _javadoc(node) if header is None else (None, None)
        tps = _type_params(node, scope) if node.type in TYPE_KINDS else {}
        inner = [tps] + scope
        body = node.child_by_field_name("body") if node.type in TYPE_KINDS else node
        decl = Decl(kind, name, path, line_of(node.start_point), line_of(node.end_point), doc=doc, doc_start=doc_start,
                    header_end=line_of(body.start_point) if body is not None else line_of(node.end_point),
                    start_col=node.start_point[1], end_col=node.end_point[1])
        if header is not None:
            decl.head_start, decl.head_col = line_of(header.start_point), header.start_point[1]
        self.decls.append(decl)
        if node.type == "record_declaration":
            decl.components, _, decl.component_names = _params(node, inner)
        if body is None:
            return
        for child in body.named_children:
            if child.type == "enum_body_declarations":
                for m in child.named_children:
                    self.member(m, path, inner)
            else:
                self.member(child, path, inner)

    def member(self, node, path: list[str], scope: list[dict]) -> None:
        t = node.type
        if t in TYPE_KINDS:
            self.type_decl(node, path, scope, member=True)
            return
        doc, doc_start = _javadoc(node)
        start, end = line_of(node.start_point), line_of(node.end_point)
        cols = {"start_col": node.start_point[1], "end_col": node.end_point[1]}
        if t in ("method_declaration", "constructor_declaration", "annotation_type_element_declaration",
                 "compact_constructor_declaration"):
            kind = {"method_declaration": "method", "annotation_type_element_declaration": "method",
                    "constructor_declaration": "constructor"}.get(t, "compact_constructor")
            name_node = node.child_by_field_name("name")
            mscope = [_type_params(node, scope)] + scope
            params, varargs, _ = _params(node, mscope)
            rtype = node.child_by_field_name("type")
            self.decls.append(Decl(kind, name_node.text.decode() if name_node is not None else "", path, start, end,
                                   params, varargs, doc, doc_start, returns=erase(rtype, mscope) if rtype else "",
                                   **cols))
            self.nested(node, path, mscope)
        elif t in ("field_declaration", "constant_declaration"):
            mods = next((c for c in node.children if c.type == "modifiers"), None)
            static = t == "constant_declaration" or (mods is not None
                                                     and any(c.type == "static" for c in mods.children))
            for d in node.named_children:
                if d.type == "variable_declarator":
                    self.decls.append(Decl("field", d.child_by_field_name("name").text.decode(), path, start, end,
                                           doc=doc, doc_start=doc_start,
                                           static_init=static and d.child_by_field_name("value") is not None))
            self.nested(node, path, scope)
        elif t == "enum_constant":
            self.decls.append(Decl("enum_constant", node.child_by_field_name("name").text.decode(), path, start, end,
                                   doc=doc, doc_start=doc_start))
            args = node.child_by_field_name("arguments")
            if args is not None:
                self.nested(args, path, scope)
            body = node.child_by_field_name("body")
            if body is not None:
                self.anonymous(body, path, scope, doc_node=node)
        elif t == "static_initializer":
            self.decls.append(Decl("static_initializer", "<clinit>", path, start, end, doc=doc, doc_start=doc_start,
                                   **cols))
            self.nested(node, path, scope)
        elif t == "block":
            self.decls.append(Decl("initializer", "", path, start, end))
            self.nested(node, path, scope)

    def nested(self, node, path: list[str], scope: list[dict]) -> None:
        """Anonymous and local classes anywhere inside a member, in javac's numbering order: a pre-order
        walk with an explicit stack, since expressions nest deeper than Python's recursion limit (the
        JDK's generated charset tables concatenate thousands of string literals)."""
        stack: list = list(reversed(node.named_children))
        while stack:
            item = stack.pop()
            if isinstance(item, tuple):  # a creation expression's anonymous body, after its arguments
                self.anonymous(item[0], path, scope, doc_node=item[1])
                continue
            t = item.type
            if t == "object_creation_expression":
                body = next((c for c in item.named_children if c.type == "class_body"), None)
                if body is not None:
                    stack.append((body, item))
                stack.extend(reversed([c for c in item.named_children if c.type != "class_body"]))
            elif t in TYPE_KINDS:
                self.type_decl(item, path, scope, member=False)
            else:
                stack.extend(reversed(item.named_children))
