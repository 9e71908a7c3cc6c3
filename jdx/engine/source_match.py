"""Binary members to source declarations (spec §11.1: bytecode is the skeleton, sources the flesh).

A method matches a declaration with the same name in the same type (keyed as javac names class files,
see java_parse) whose erased parameter types equal the descriptor's, compared by simple name. Constructors
carry parameters the source does not write: an enum's name and ordinal, an inner class's outer instance,
a local class's captured variables; those are allowed around the written ones. The LineNumberTable range
breaks ties and rescues anonymous classes whose numbering drifted. Members the compiler writes by itself
(default and record canonical constructors, enum `values`/`valueOf`, record accessors, bridges, lambdas)
are *implicit*: no source text, and no mismatch either.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from jdx.engine.java_parse import CALLABLE_KINDS, TYPE_KINDS, Decl, ParsedFile

ACC_STATIC, ACC_BRIDGE, ACC_VARARGS, ACC_SYNTHETIC, ACC_ENUM = 0x0008, 0x0040, 0x0080, 0x1000, 0x4000
_PRIM = {"B": "byte", "C": "char", "D": "double", "F": "float", "I": "int", "J": "long", "S": "short",
         "Z": "boolean", "V": "void"}


def descriptor_params(descriptor: str) -> list[str]:
    """`(ILjava/util/Map$Entry;[Ljava/lang/String;)V` → ["int", "Entry", "String[]"]."""
    out, i = [], 1
    while i < len(descriptor) and descriptor[i] != ")":
        dims = 0
        while descriptor[i] == "[":
            dims, i = dims + 1, i + 1
        if descriptor[i] == "L":
            end = descriptor.index(";", i)
            name = descriptor[i + 1:end].rsplit("/", 1)[-1].rsplit("$", 1)[-1].lstrip("0123456789") or \
                descriptor[i + 1:end].rsplit("/", 1)[-1]  # `Outer$1Local` is `Local` in its source
            i = end + 1
        else:
            name, i = _PRIM[descriptor[i]], i + 1
        out.append(name + "[]" * dims)
    return out


def type_keys(type_id: str, outer_of: dict[str, str], known_top: bool = False) -> list[str]:
    """`java/util/HashMap$Node` → ["HashMap", "Node"]; `p/A$1$1L` → ["A", "1", "1L"] — the path java_parse
    gives the declaration. `outer_of` maps a nested type to its enclosing type (the graph's Type.outer);
    `known_top`: the graph knows the type as top-level (src_locate.is_top_level), so a `$` in its name is part of
    the name (Scala's `JSON$`), not a nesting."""
    chain = []
    cur = type_id
    while cur in outer_of and outer_of[cur] and cur.startswith(outer_of[cur] + "$"):
        chain.append(cur[len(outer_of[cur]) + 1:])
        cur = outer_of[cur]
    top = cur.rsplit("/", 1)[-1]
    if not chain and "$" in top and not known_top:  # no nesting known: fall back on the `$` convention
        parts = top.split("$")
        return parts if all(parts) else [top]
    return [top] + chain[::-1]


def numbered(keys: list[str]) -> bool:
    """The type sits in an anonymous or local class (`["A", "1"]`, `["A", "1Local", "B"]`): javac numbers those
    in text order, so an edit elsewhere renumbers them; a named nested type's path is its name, which no edit moves
    (renamed away, its old class file is no declaration of the file)."""
    return any(k[:1].isdigit() for k in keys[1:])


@dataclass
class Match:
    decl: Decl | None
    implicit: str | None = None  # why the member has no source text (compiler-written)
    # decl None: this many declarations fit by simple names and neither their written (qualified) types, the
    # file's imports nor line numbers tell which is the binary's; a guess would show another overload's text
    ambiguous: int = 0


def _type_decl(parsed: ParsedFile, keys: list[str]) -> Decl | None:
    return next((d for d in parsed.decls if d.kind in TYPE_KINDS.values() and d.path == keys), None)


def _contains(decl: Decl, first: int, last: int) -> bool:
    return first > 0 and decl.start <= first and last <= decl.end


def _fits(written: list[str], binary: list[str], leading: int, trailing_ok: bool) -> bool:
    if len(binary) < leading + len(written):
        return False
    tail = binary[leading + len(written):]
    return binary[leading:leading + len(written)] == written and (not tail or trailing_ok)


def _ctor_fits(decl: Decl, binary: list[str], type_row: dict, type_decl: Decl | None) -> bool:
    return _ctor_offset(decl, binary, type_row, type_decl) is not None


def _ctor_offset(decl: Decl, binary: list[str], type_row: dict, type_decl: Decl | None) -> int | None:
    """Where a written constructor's parameters sit inside the descriptor's, None when they do not: after the
    synthetic leading ones (enum name and ordinal; the outer instance of an inner class), before a local class's
    captures."""
    params = decl.params
    if decl.kind == "compact_constructor":
        params = type_decl.components if type_decl is not None else []
    local = bool(type_row.get("outer")) and (bool(type_row.get("outer_method")) or not type_row.get("inner_name"))
    leading = [0]
    if type_row.get("kind") == "enum":
        leading = [2, 0]
    elif type_row.get("outer") and not (type_row.get("access", 0) & ACC_STATIC):
        leading = [1, 0]
    return next((n for n in leading if _fits(params, binary, n, local)), None)


def _param_match(decl: Decl, row: dict, type_row: dict, type_decl: Decl | None) -> bool:
    binary = descriptor_params(row["descriptor"])
    if row["name"] == "<init>":
        return _ctor_fits(decl, binary, type_row, type_decl)
    return decl.params == binary


def _candidates(parsed: ParsedFile, row: dict, simple: str) -> list[Decl]:
    name = row["name"]
    if name == "<init>":
        return [d for d in parsed.decls if d.kind in ("constructor", "compact_constructor") and d.name == simple]
    if name == "<clinit>":
        return [d for d in parsed.decls if d.kind == "static_initializer"]
    return [d for d in parsed.decls if d.kind == "method" and d.name == name]


def _implicit(row: dict, type_row: dict, type_decl: Decl | None, parsed: ParsedFile, keys: list[str]) -> str | None:
    """Why a method without a declaration has none, when the compiler wrote it; None means mismatch."""
    name, access = row["name"], row.get("access") or 0
    if access & (ACC_SYNTHETIC | ACC_BRIDGE):
        return "compiler-generated (synthetic)"
    kind = type_row.get("kind")
    if name == "<clinit>":
        return "static initializer made of field initializers only"
    params = descriptor_params(row["descriptor"])
    written = [d for d in parsed.decls if d.path == keys and d.kind in ("constructor", "compact_constructor")]
    if name == "<init>":
        if not type_row.get("inner_name") and type_row.get("outer"):
            return "constructor of an anonymous class"
        if not written:
            return "default constructor"
        if kind == "record" and type_decl is not None and params == type_decl.components:
            return "canonical constructor of a record"
    if kind == "enum" and ((name == "values" and not params) or (name == "valueOf" and params == ["String"])):
        return "enum method written by the compiler"
    if kind == "record" and type_decl is not None:
        if not params and name in type_decl.component_names:
            return "record component accessor"
        if (name, params) in (("equals", ["Object"]), ("hashCode", []), ("toString", [])):
            return "record method written by the compiler"
    return None


def match_method(parsed: ParsedFile, row: dict, type_row: dict, keys: list[str],
                 text: list[str] | None = None) -> Match:
    """The declaration of a binary method (`row`: name, descriptor, access, first_line, last_line). `text`, the
    file's lines, tells overloads whose parameter types share simple names apart (`parse(java.io.Reader)` and
    `parse(a.b.Reader)`) by the names as written and the imports; without it, or when even they cannot tell, the
    line numbers decide, else the first is taken (without `text`) or none (`ambiguous`, with it)."""
    type_decl = _type_decl(parsed, keys)
    simple = type_decl.name if type_decl is not None else keys[-1].lstrip("0123456789")
    first, last = row.get("first_line") or -1, row.get("last_line") or -1
    cands = _candidates(parsed, row, simple)
    if row["name"] == "<clinit>":
        mine = [d for d in cands if d.path == keys]
        if len(mine) > 1:  # <clinit> runs every static block and static field initialiser in text order
            return Match(Decl("static_initializer", "<clinit>", keys, mine[0].start, mine[-1].end,
                              start_col=mine[0].start_col, end_col=mine[-1].end_col))
        return Match(mine[0]) if mine else Match(None, _implicit(row, type_row, type_decl, parsed, keys))
    fitting = [d for d in cands if _param_match(d, row, type_row, _type_decl(parsed, d.path))]
    exact = [d for d in fitting if d.path == keys]
    if len(exact) > 1:
        exact = [d for d in exact if _contains(d, first, last)] or exact
    if len(exact) > 1 and text is not None:
        told = written_overload(exact, row, type_row, parsed, text)
        if len(told) != 1:  # none left: the text contradicts itself; several: it cannot tell
            return Match(None, ambiguous=len(told) or len(exact))
        exact = told
    if exact:
        return Match(exact[0])
    by_lines = sorted((d for d in fitting if _contains(d, first, last) and d.path[:1] == keys[:1]),
                      key=lambda d: d.end - d.start)
    if by_lines and numbered(keys):  # anonymous/local numbering drifted: the LineNumberTable decides
        return Match(by_lines[0])
    if len(keys) > 1 and first <= 0:  # no line numbers (decompiled text, javac -g:none): the return type may
        returns = descriptor_params("(" + row["descriptor"][row["descriptor"].index(")") + 1:] + ")")[0]
        siblings = [d for d in fitting if len(d.path) == len(keys) and d.path[:-1] == keys[:-1]
                    and d.path[-1][:1].isdigit() == keys[-1][:1].isdigit() and d.returns == returns]
        if len(siblings) == 1:
            return Match(siblings[0])
    return Match(None, _implicit(row, type_row, type_decl, parsed, keys))


def descriptor_names(descriptor: str) -> list[str]:
    """`(ILjava/util/Map$Entry;[Ljava/io/Reader;)V` → ["int", "java.util.Map$Entry", "java.io.Reader"]: the
    parameters' binary names, array dimensions dropped."""
    out, i = [], 1
    while i < len(descriptor) and descriptor[i] != ")":
        while descriptor[i] == "[":
            i += 1
        if descriptor[i] == "L":
            end = descriptor.index(";", i)
            out.append(descriptor[i + 1:end].replace("/", "."))
            i = end + 1
        else:
            out.append(_PRIM[descriptor[i]])
            i += 1
    return out


_IMPORT = re.compile(r"^\s*import\s+([\w$]+(?:\s*\.\s*[\w$]+)*)\s*;", re.MULTILINE)
_ANNOTATION = re.compile(r"@[\w$.]+(?:\s*\((?:[^()]|\([^()]*\))*\))?")


def single_type_imports(text: list[str]) -> dict[str, str]:
    """simple name → qualified name of a file's single-type imports (`import java.io.Reader;`), which decide
    what an unqualified name means (JLS §6.4.1: they shadow the package's types and on-demand imports)."""
    head = []
    for line in text:
        if re.match(r"\s*(?:(?:public|final|abstract|sealed|non-sealed|strictfp)\s+)*"
                    r"(?:class|interface|enum|record|@interface)\b", line):
            break
        head.append(line)
    found = {}
    for m in _IMPORT.finditer("\n".join(head)):
        name = re.sub(r"\s+", "", m.group(1))
        found[name.rsplit(".", 1)[-1]] = name
    return found


def _written_type(node) -> str:
    """A parameter type as written, qualified as written, without annotations, type arguments or dimensions:
    `final java.io.@A Reader[]` → `java.io.Reader`, `Parsers.Parser<T>` → `Parsers.Parser`."""
    text = _ANNOTATION.sub("", node.text.decode("utf-8", "replace"))
    out, depth = [], 0
    for ch in text:
        depth += ch == "<"
        if depth == 0 and not ch.isspace():
            out.append(ch)
        depth -= ch == ">" and depth > 0
    return "".join(out).replace("...", "").replace("[]", "")


def written_params(text: list[str], decl: Decl) -> list[str] | None:
    """The parameter types of a method or constructor declaration as its text writes them (`_written_type`), read
    again from `text` (the file's lines; the parse keeps only simple names); None when they cannot be read."""
    if decl.kind not in ("method", "constructor") or decl.start < 1 or decl.end > len(text):
        return None
    from jdx.engine.java_parse import parser

    lines = [ln.encode("utf-8") for ln in text[decl.start - 1:decl.end]]
    if decl.end_col >= 0:
        lines[-1] = lines[-1][:decl.end_col]
    lines[0] = lines[0][decl.start_col:] if decl.start_col > 0 else lines[0]
    root = parser().parse(b"class __ {\n" + b"\n".join(lines) + b"\n}").root_node
    stack = [root]
    while stack:
        node = stack.pop(0)
        if node.type in ("method_declaration", "constructor_declaration"):
            params = node.child_by_field_name("parameters")
            if params is None:
                return None
            out = []
            for p in params.named_children:
                if p.type == "formal_parameter":
                    out.append(_written_type(p.child_by_field_name("type")))
                elif p.type == "spread_parameter":
                    out.append(_written_type(next(c for c in p.named_children
                                                  if c.type not in ("modifiers", "variable_declarator"))))
            return out if len(out) == len(decl.params) else None
        stack.extend(node.named_children)
    return None


def _written_fits(written: str, binary: str, imports: dict[str, str], declared: set[str]) -> int:
    """1 when a type written `written` in the file is certainly the class `binary` (binary name, dotted), -1 when
    certainly not, 0 when the text cannot tell (a simple name an on-demand import, the package or a type of the
    file itself, `declared`, which shadows the imports, may give)."""
    if "." not in binary:  # a primitive: the simple names already compared it
        return 0
    head, dot, rest = written.partition(".")
    if head in imports and head not in declared:  # `Reader`, `Outer.Inner` after `import a.b.Reader;`, `a.b.Outer;`
        qualified = imports[head] + dot + rest
    elif dot and head[:1].islower():  # a package-qualified name (`java.io.Reader`)
        qualified = written
    else:  # `Reader`, `Parsers.Parser`: resolved through the package or an on-demand import
        forms = (binary, binary.replace("$", "."))
        return 0 if not dot or any(f.endswith("." + written) for f in forms) else -1
    return 1 if qualified in (binary, binary.replace("$", ".")) else -1


def written_overload(decls: list[Decl], row: dict, type_row: dict, parsed: ParsedFile, text: list[str]) -> list[Decl]:
    """Of declarations whose parameters equal the binary method's by simple names, those its qualified parameter
    types can be: a declaration whose written type is certainly another class is not it, and one whose written
    types certainly are the binary's beats one that only may be (Java cannot compile two overloads of one erasure,
    so the other declaration is another method). Several left: the text cannot tell."""
    binary = descriptor_names(row["descriptor"])
    simple = descriptor_params(row["descriptor"])
    imports = single_type_imports(text)
    declared = {d.name for d in parsed.types()}
    scored = []
    for d in decls:
        written = written_params(text, d)
        offset = 0
        if row["name"] == "<init>":
            offset = _ctor_offset(d, simple, type_row, _type_decl(parsed, d.path)) or 0
        if written is None:
            scored.append((d, 0))
            continue
        fits = [_written_fits(w, binary[offset + i], imports, declared) for i, w in enumerate(written)
                if offset + i < len(binary)]
        if -1 not in fits:
            scored.append((d, fits.count(1)))
    best = max((n for _, n in scored), default=0)
    return [d for d, n in scored if n == best]


def ambiguous_why(count: int, ref: str) -> str:
    """What an ambiguous match (`Match.ambiguous`) says: one clause, no period."""
    return (f"{count} declarations in the text have the parameter types of {ref} by simple name, and neither "
            f"their qualified names, the imports nor line numbers tell which is it")


def match_field(parsed: ParsedFile, name: str, keys: list[str]) -> Decl | None:
    return next((d for d in parsed.decls if d.kind in ("field", "enum_constant") and d.name == name
                 and d.path == keys), None)


RECORD_COMPONENT = "record_component"  # a Decl kind no parse gives: a record header's component (`record_component`)
_BLANKED = re.compile(r"/\*.*?\*/|//[^\n]*|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'", re.S)


def _blank(text: str) -> str:
    """Comments and literals as spaces (line breaks kept), so offsets into the result are offsets into `text`."""
    return _BLANKED.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def record_decl(parsed: ParsedFile, keys: list[str]) -> Decl | None:
    """The declaration of the type `keys` when it is a record, else None."""
    found = _type_decl(parsed, keys)
    return found if found is not None and found.kind == "record" else None


def record_component(parsed: ParsedFile, text: list[str], keys: list[str], name: str) -> Decl | None:
    """The component `name` of the record `keys` as its header writes it (`UserPrincipal user` of `record
    P(UserPrincipal user, GroupPrincipal group)`): the declaration of the record's private final field of that name
    and of its implicit accessor (JLS §8.10.1, §8.10.3), which no member declaration of the body holds. Kind
    RECORD_COMPONENT, its lines (whole lines: a one-line header is shown whole); None when the type is no record with
    that component or the header cannot be read."""
    record = record_decl(parsed, keys)
    if record is None or name not in record.component_names:
        return None
    first, last = record.start, max(record.start, record.header_end)
    if first < 1 or last > len(text):
        return None
    lines = text[first - 1:last]
    head = _blank("\n".join(lines))
    m = re.search(r"(?<![\w$])record\s+" + re.escape(record.name) + r"(?![\w$])\s*", head)
    if m is None:
        return None
    i = m.end()
    if head[i:i + 1] == "<":  # type parameters
        depth = 0
        while i < len(head):
            depth += {"<": 1, ">": -1}.get(head[i], 0)
            i += 1
            if depth == 0:
                break
        while i < len(head) and head[i].isspace():
            i += 1
    if head[i:i + 1] != "(":
        return None
    depth, start, pieces = 0, i + 1, []
    for j in range(i + 1, len(head)):
        ch = head[j]
        if ch in "(<[{":
            depth += 1
        elif ch in ")>]}" and depth:
            depth -= 1
        elif ch == ")":
            pieces.append((start, j))
            break
        elif ch == "," and depth == 0:
            pieces.append((start, j))
            start = j + 1
    else:
        return None
    for a, b in pieces:
        piece = _ANNOTATION.sub(lambda x: " " * len(x.group(0)), head[a:b])
        idents = list(re.finditer(r"[A-Za-z_$][\w$]*", piece))
        if idents and idents[-1].group(0) == name:
            lead = len(head[a:b]) - len(head[a:b].lstrip())
            first_line = first + head.count("\n", 0, a + lead)
            last_line = first + head.count("\n", 0, a + len(head[a:b].rstrip()))
            return Decl(RECORD_COMPONENT, name, keys, first_line, last_line)
    return None


def unmatched_declarations(parsed: ParsedFile, keys: list[str], methods: list[dict], type_row: dict) -> list[Decl]:
    """Methods and constructors the sources declare in this type that the binary lacks."""
    type_decl = _type_decl(parsed, keys)
    out = []
    for d in parsed.decls:
        if d.path != keys or d.kind not in CALLABLE_KINDS:
            continue
        wanted = "<init>" if d.kind != "method" else d.name
        if not any(m["name"] == wanted and _param_match(d, m, type_row, type_decl) for m in methods):
            out.append(d)
    return out


def field_mismatches(parsed: ParsedFile, keys: list[str], fields: list[dict]) -> tuple[list[dict], list[Decl]]:
    """(binary fields the sources do not declare, source fields the binary lacks) of one type. Synthetic
    fields (`this$0`, `$VALUES`, `$assertionsDisabled`) are the compiler's; a record's component fields
    are declared by its header."""
    type_decl = _type_decl(parsed, keys)
    written = {d.name: d for d in parsed.decls if d.path == keys and d.kind in ("field", "enum_constant")}
    components = set(type_decl.component_names) if type_decl is not None else set()
    binary = {f["name"] for f in fields}
    missing = [f for f in fields if not (f.get("access") or 0) & ACC_SYNTHETIC
               and f["name"] not in written and f["name"] not in components]
    extra = [d for name, d in sorted(written.items(), key=lambda x: x[1].start) if name not in binary]
    return missing, extra
