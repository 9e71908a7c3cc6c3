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


def type_keys(type_id: str, outer_of: dict[str, str]) -> list[str]:
    """`java/util/HashMap$Node` → ["HashMap", "Node"]; `p/A$1$1L` → ["A", "1", "1L"] — the path java_parse
    gives the declaration. `outer_of` maps a nested type to its enclosing type (the graph's Type.outer)."""
    chain = []
    cur = type_id
    while cur in outer_of and outer_of[cur] and cur.startswith(outer_of[cur] + "$"):
        chain.append(cur[len(outer_of[cur]) + 1:])
        cur = outer_of[cur]
    top = cur.rsplit("/", 1)[-1]
    if not chain and "$" in top:  # no outer recorded: fall back on the `$` convention
        parts = top.split("$")
        return parts if all(parts) else [top]
    return [top] + chain[::-1]


@dataclass
class Match:
    decl: Decl | None
    implicit: str | None = None  # why the member has no source text (compiler-written)


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
    """A written constructor's parameters inside the descriptor's: after the synthetic leading ones
    (enum name and ordinal; the outer instance of an inner class), before a local class's captures."""
    params = decl.params
    if decl.kind == "compact_constructor":
        params = type_decl.components if type_decl is not None else []
    local = bool(type_row.get("outer")) and (bool(type_row.get("outer_method")) or not type_row.get("inner_name"))
    leading = [0]
    if type_row.get("kind") == "enum":
        leading = [2, 0]
    elif type_row.get("outer") and not (type_row.get("access", 0) & ACC_STATIC):
        leading = [1, 0]
    return any(_fits(params, binary, n, local) for n in leading)


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


def match_method(parsed: ParsedFile, row: dict, type_row: dict, keys: list[str]) -> Match:
    """The declaration of a binary method (`row`: name, descriptor, access, first_line, last_line)."""
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
    if exact:
        return Match(exact[0])
    by_lines = sorted((d for d in fitting if _contains(d, first, last) and d.path[:1] == keys[:1]),
                      key=lambda d: d.end - d.start)
    if by_lines and len(keys) > 1:  # anonymous/local numbering drifted: the LineNumberTable decides
        return Match(by_lines[0])
    if len(keys) > 1 and first <= 0:  # no line numbers (decompiled text, javac -g:none): the return type may
        returns = descriptor_params("(" + row["descriptor"][row["descriptor"].index(")") + 1:] + ")")[0]
        siblings = [d for d in fitting if len(d.path) == len(keys) and d.path[:-1] == keys[:-1]
                    and d.path[-1][:1].isdigit() == keys[-1][:1].isdigit() and d.returns == returns]
        if len(siblings) == 1:
            return Match(siblings[0])
    return Match(None, _implicit(row, type_row, type_decl, parsed, keys))


def match_field(parsed: ParsedFile, name: str, keys: list[str]) -> Decl | None:
    return next((d for d in parsed.decls if d.kind in ("field", "enum_constant") and d.name == name
                 and d.path == keys), None)


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
