"""Binary members of Kotlin classes to `.kt` declarations (spec §11.1, §12.2): the line table finds the
declaration, the Kotlin name checks it.

A method's LineNumberTable lines (the graph keeps the first and last) fall inside the declaration it was
compiled from: a function's own lines, a property's getter or setter (accessors map to their property), the
header of a function with default arguments for its `$default` synthetic, the class header for a primary
constructor. Lines past the end of the file are code inlined from elsewhere (kotlinc numbers them after the
file's last line, SMAP), so they are ignored. The Kotlin name the member compiles from (its `@Metadata`
declaration, else the JVM name read back: `foo$default` → `foo`, `getX` → `x`) must be the name of the
declaration the lines fall in; when it is not, or no declaration holds the lines, the sources are of another
version (SOURCES_VERSION_MISMATCH). Without line numbers (abstract members, facades' delegating copies)
the name, the parameter count and the receiver decide. Members kotlinc writes by itself (data class
`componentN`/`copy`/`equals`/`hashCode`/`toString`, enum `values`/`valueOf`, default constructors, object
`INSTANCE`) are *implicit*: no source text and no mismatch, as for Java.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from jdx.engine.kotlin_parse import ANONYMOUS_KINDS, TYPE_KINDS, KtDecl, KtParsedFile
from jdx.engine.source_match import ACC_BRIDGE, ACC_SYNTHETIC, descriptor_params

_DATA_MEMBERS = ("copy", "copy$default", "equals", "hashCode", "toString")
_OBJECT_KINDS = ("object", "companion object", "enum entry")


@dataclass
class KtMatch:
    decl: KtDecl | None
    implicit: str | None = None  # why the member has no source text (compiler-written)
    note: str | None = None  # why it is a mismatch: where the line table points instead


def type_decl(parsed: KtParsedFile, keys: list[str]) -> KtDecl | None:
    return next((d for d in parsed.decls if d.kind in TYPE_KINDS and d.path == keys), None)


def file_decl(parsed: KtParsedFile, name: str) -> KtDecl:
    """The whole file, standing for a facade class (`FooKt`, a `@file:JvmName`, a multi-file part)."""
    return KtDecl("file", name, [], 1, max(1, parsed.lines), header_end=1)


def real_lines(row: dict, total: int) -> tuple[int, int]:
    """(first, last) of a method's line table within the file; (-1, -1) without line numbers. Lines past the
    file's end are inlined code; the last line then falls back to the first."""
    first, last = row.get("first_line") or -1, row.get("last_line") or -1
    if first <= 0 or first > total:
        return -1, -1
    return first, last if 0 < last <= total else first


def _contains(d: KtDecl, first: int, last: int) -> bool:
    return d.start <= first and last <= d.end


def _smallest(decls: list[KtDecl]) -> KtDecl:
    return min(decls, key=lambda d: (d.end - d.start, -d.start))


def innermost(parsed: KtParsedFile, first: int, last: int, prefix: list[str] | None = None) -> KtDecl | None:
    """The smallest declaration (type, member, lambda) holding lines first..last."""
    found = [d for d in parsed.decls if d.kind != "enum_constant" and _contains(d, first, last)
             and (prefix is None or d.path[:len(prefix)] == prefix)]
    return _smallest(found) if found else None


def expected(row: dict, link: dict | None) -> list[tuple[str, str]]:
    """(kind, Kotlin name) pairs the JVM method may compile from, most likely first."""
    if link is not None and link.get("kind") in ("function", "property"):
        return [(link["kind"], link["name"])]
    name = row["name"]
    # a default-arguments stub; an inline function's copy for inlining; a value class member's static body
    for suffix in ("$default", "$$forInline", "-impl"):
        if name.endswith(suffix):
            name = name[: -len(suffix)]
    out = [("function", name)]
    for prefix in ("get", "set", "is"):
        rest = name[len(prefix):]
        if name.startswith(prefix) and rest[:1].isupper():
            prop = name if prefix == "is" else rest[:1].lower() + rest[1:]
            out.append(("property", prop))
            if prefix != "is" and rest[:2].isupper():  # `getURL` → `URL`
                out.append(("property", rest))
    return out


def _arity(link: dict | None) -> tuple[int | None, bool | None]:
    if link is None or link.get("kind") != "function":
        return None, None
    detail = link.get("detail")
    if isinstance(detail, str):
        try:
            detail = json.loads(detail or "{}")
        except ValueError:
            detail = {}
    detail = detail or {}
    params = detail.get("parameters")
    return (len(params) if isinstance(params, list) else None), bool(detail.get("receiver"))


def _implicit(row: dict, parsed: KtParsedFile, keys: list[str], owner: KtDecl | None, link: dict | None) -> str | None:
    """Why a member without a declaration has none, when kotlinc wrote it; None means a mismatch."""
    name, access = row["name"], row.get("access") or 0
    if access & (ACC_SYNTHETIC | ACC_BRIDGE):
        return "compiler-generated (synthetic)"
    if name == "<clinit>":
        return "class initializer written by the compiler"
    kind = owner.kind if owner is not None else ""
    mods = owner.mods if owner is not None else []
    flags = set((link or {}).get("flags") or ())
    if "data" in mods and (name in _DATA_MEMBERS or (name.startswith("component") and name[9:].isdigit())):
        return "data class member written by the compiler"
    if "synthesized" in flags or "component" in flags:
        return "written by the compiler"
    if "delegation" in flags or ("by" in mods and name not in ("<init>", "<clinit>")
                                 and (link is None or link.get("kind") == "property")):
        return "delegated with `by`: written by the compiler"
    if name in ("box-impl", "unbox-impl", "equals-impl0", "equals-impl", "hashCode-impl", "toString-impl"):
        return "value class member written by the compiler"
    params = descriptor_params(row["descriptor"])
    if kind == "enum class" and ((name == "values" and not params) or (name == "valueOf" and params == ["String"])
                                 or name == "getEntries"):
        return "enum method written by the compiler"
    if name == "<init>":
        if kind in _OBJECT_KINDS:
            return "constructor of an object"
        if owner is not None and not any(d.path == keys and d.kind in ("constructor", "primary constructor")
                                         for d in parsed.decls):
            return "default constructor"
    return None


def _anonymous(parsed: KtParsedFile, row: dict, keys: list[str], first: int, last: int) -> KtMatch:
    """A member of a lambda, anonymous function, object literal or local class: the line table decides."""
    if row["name"] in ("<init>", "<clinit>"):
        return KtMatch(None, "constructor of a lambda, function reference or object literal")
    if first <= 0:
        return KtMatch(None, "written by the compiler for a lambda or a suspend function; no line numbers to find "
                             "its source by")
    top = keys[:1] if type_decl(parsed, keys[:1]) is not None else []  # a facade's lambdas live at the top
    holding = [d for d in parsed.decls if _contains(d, first, last) and d.path[:len(top)] == top]
    named = [d for d in holding if d.kind == "local function" and d.name == row["name"]]
    anon = [d for d in holding if d.kind in ANONYMOUS_KINDS]
    if named:
        return KtMatch(_smallest(named))
    if anon:
        return KtMatch(_smallest(anon))
    inner = _smallest(holding) if holding else None
    return KtMatch(None, note=f"its lines {first}-{last} are in no lambda or local declaration"
                   + (f" (they fall in {inner.kind} {inner.name or '?'})" if inner is not None else ""))


def match_method(parsed: KtParsedFile, row: dict, keys: list[str], link: dict | None = None,
                 default_impls: bool = False, use_lines: bool = True, declared: bool | None = None) -> KtMatch:
    """The declaration of a binary method (`row`: name, descriptor, access, first_line, last_line) of the
    Kotlin container `keys` ([] for a facade), `link` the Kotlin declaration it compiles from (kind, name,
    detail, flags) when the metadata says. `declared` False: the class's metadata, readable, declares no
    such member, so a method no declaration of that name claims is the compiler's (a bridge to an
    interface's default method, a `by` delegate, a bytecode transformer's helper), not a mismatch."""
    if row["name"].endswith("$default"):
        use_lines = False  # its line table may hold the lines of default values declared elsewhere (`expect`)
    first, last = real_lines(row, parsed.lines) if use_lines else (-1, -1)
    owner = type_decl(parsed, keys)
    if (keys and owner is None) or "$lambda" in row["name"]:
        return _anonymous(parsed, row, keys, first, last)
    name = row["name"]
    if name == "<clinit>":
        return KtMatch(None, _implicit(row, parsed, keys, owner, link))
    if name in ("<init>", "constructor-impl"):  # a value class's constructor body is `constructor-impl`
        ctors = [d for d in parsed.decls if d.path == keys and d.kind in ("constructor", "primary constructor")]
        if first > 0:
            secondary = [d for d in ctors if d.kind == "constructor" and _contains(d, first, last)]
            if secondary:
                return KtMatch(secondary[0])
        primary = [d for d in ctors if d.kind == "primary constructor"]
        if primary and (first <= 0 or owner is None or _contains(owner, first, first)):  # init blocks anywhere
            return KtMatch(primary[0])
        written = len(descriptor_params(row["descriptor"]))
        if first <= 0:
            fit = [d for d in ctors if d.kind == "constructor" and len(d.params) in (written, written - 2)]
            if len(fit) == 1 or (fit and not primary):
                return KtMatch(fit[0])
        implicit = _implicit(row, parsed, keys, owner, link)
        return KtMatch(None, implicit) if implicit else KtMatch(None, note=_where(parsed, first, last, keys))
    wanted = expected(row, link)
    n_params, has_receiver = _arity(link)
    for kind, kname in wanted:
        cands = [d for d in parsed.decls if d.path == keys and d.kind == kind and d.name == kname]
        if not cands:
            continue
        if first > 0:
            holding = [d for d in cands if _contains(d, first, last)]
            if holding:
                return KtMatch(_smallest(holding))
            drifted = _narrow(cands, kind, n_params, has_receiver, row, default_impls)
            if len(drifted) == 1:  # the name is there, its lines moved: another version of the file
                return KtMatch(drifted[0], note=_where(parsed, first, last, keys) + f"; {kind} {kname} is at line "
                               f"{drifted[0].start} of the sources")
            continue
        return KtMatch(_narrow(cands, kind, n_params, has_receiver, row, default_impls)[0])
    implicit = _implicit(row, parsed, keys, owner, link)
    if implicit:
        return KtMatch(None, implicit)
    if declared is False:
        return KtMatch(None, "not a declaration of the class's Kotlin metadata: written by the compiler "
                             "(a bridge, a delegate, an interface default's caller)")
    return KtMatch(None, note=_where(parsed, first, last, keys, wanted[0][1] if wanted else name))


def _narrow(cands: list[KtDecl], kind: str, n_params: int | None, has_receiver: bool | None, row: dict,
            default_impls: bool) -> list[KtDecl]:
    """Overloads of one name told apart by parameter count and receiver (the metadata's, else the JVM's)."""
    narrowed = cands
    if n_params is not None and kind == "function":
        narrowed = [d for d in cands if len(d.params) == n_params] or cands
    if has_receiver is not None and kind == "function":
        narrowed = [d for d in narrowed if bool(d.receiver) == has_receiver] or narrowed
    jvm = descriptor_params(row["descriptor"])[(1 if default_impls else 0):]
    if kind == "function" and n_params is None:
        narrowed = [d for d in narrowed if len(d.params) + bool(d.receiver) == len(jvm)] or narrowed
    if len(narrowed) > 1 and kind == "function":  # same count: the parameter types as Kotlin names
        typed = [d for d in narrowed if _kotlin_names(jvm[bool(d.receiver):bool(d.receiver) + len(d.params)])
                 == [p.removesuffix("...") for p in d.params]]
        narrowed = typed or narrowed
    return narrowed


_KOTLIN_PRIMITIVES = {"int": "Int", "long": "Long", "double": "Double", "float": "Float", "boolean": "Boolean",
                      "byte": "Byte", "short": "Short", "char": "Char", "Object": "Any"}


def _kotlin_names(params: list[str]) -> list[str]:
    """JVM parameter simple names as Kotlin writes them: `int` → `Int`, `Object` → `Any`, `int[]` → `IntArray`."""
    out = []
    for p in params:
        base = p.removesuffix("[]")
        k = _KOTLIN_PRIMITIVES.get(base, base)
        out.append(k if base == p else (f"{k}Array" if base in _KOTLIN_PRIMITIVES and base != "Object" else "Array"))
    return out


def _where(parsed: KtParsedFile, first: int, last: int, keys: list[str], name: str = "") -> str:
    if first <= 0:
        return f"the sources declare no {name or 'such member'} there" if name else "no line numbers to find it by"
    inner = innermost(parsed, first, last, keys)
    span = f"{first}-{last}" if last != first else str(first)
    if inner is None:
        return f"its line table (line {span}) is outside every declaration of the sources"
    return f"its line table (line {span}) falls in {inner.kind} {inner.name or '(anonymous)'} (line {inner.start})"


def match_field(parsed: KtParsedFile, name: str, keys: list[str], link: dict | None = None,
                access: int = 0) -> KtMatch:
    """A JVM field: a property's backing field (or `@JvmField`, `const`), an enum entry, an object's
    `INSTANCE`, a companion's static reference; `$delegate` fields belong to their property."""
    prop = link["name"] if link is not None and link.get("kind") == "property" else name.split("$", 1)[0]
    found = next((d for d in parsed.decls if d.path == keys and d.kind == "property" and d.name == prop), None)
    if found is not None:
        return KtMatch(found)
    entry = next((d for d in parsed.decls if d.path == keys and d.kind == "enum_constant" and d.name == name), None)
    if entry is not None:
        return KtMatch(entry)
    nested = next((d for d in parsed.decls if d.path == keys + [name] and d.kind == "companion object"), None)
    if nested is not None:
        return KtMatch(nested)
    if access & ACC_SYNTHETIC or name in ("INSTANCE", "$VALUES", "$$delegatedProperties") or name.startswith("$"):
        return KtMatch(None, "field written by the compiler")
    return KtMatch(None, note="the sources declare no such property")


def unmatched_declarations(parsed: KtParsedFile, keys: list[str], kotlin_decls: list[dict]) -> list[KtDecl]:
    """Functions and properties the sources declare in this container that the binary's metadata lacks
    (`expect` declarations compile to nothing and are skipped)."""
    have: dict[tuple[str, str], list[int]] = {}
    for d in kotlin_decls:
        if d["kind"] in ("function", "property"):
            n, _ = _arity(d)
            have.setdefault((d["kind"], d["name"]), []).append(n if n is not None else -1)
    out = []
    for d in parsed.decls:
        if d.path != keys or d.kind not in ("function", "property") or "expect" in d.mods:
            continue
        arities = have.get((d.kind, d.name))
        if arities is None or (d.kind == "function" and -1 not in arities and len(d.params) not in arities):
            out.append(d)
    return out


# --- a declaration's signature against the binary method's (spec §11.1): name and line table found the
# declaration; its parameter and return types, `suspend` and `@JvmName` must also compile to the method, else the
# sources are of another version (`fun f(x: Long)` in the sources, `f(int)` in the jar) and the member is a mismatch.

_JVM_PRIMITIVE = {"Int": ("int", "Integer"), "Long": ("long", "Long"), "Double": ("double", "Double"),
                  "Float": ("float", "Float"), "Boolean": ("boolean", "Boolean"), "Byte": ("byte", "Byte"),
                  "Short": ("short", "Short"), "Char": ("char", "Character")}
_JVM_ARRAYS = {"IntArray": "int[]", "LongArray": "long[]", "DoubleArray": "double[]", "FloatArray": "float[]",
               "BooleanArray": "boolean[]", "ByteArray": "byte[]", "ShortArray": "short[]", "CharArray": "char[]"}
_JVM_SAME = {"String": "String", "Any": "Object", "CharSequence": "CharSequence", "Number": "Number",
             "Throwable": "Throwable", "Comparable": "Comparable", "Iterable": "Iterable", "MutableIterable": "Iterable",
             "Collection": "Collection", "MutableCollection": "Collection", "List": "List", "MutableList": "List",
             "Set": "Set", "MutableSet": "Set", "Map": "Map", "MutableMap": "Map", "Iterator": "Iterator",
             "MutableIterator": "Iterator", "Sequence": "Sequence"}
_JVM_NAME = re.compile(r'@(?:kotlin\.jvm\.)?JvmName\(\s*(?:name\s*=\s*)?"([^"]*)"\s*\)')
_JVM_OVERLOADS = re.compile(r"@(?:kotlin\.jvm\.)?JvmOverloads\b")
_TYPE_ANNOTATION = re.compile(r"@[\w.:]+(?:\([^()]*\))?\s*")


@dataclass
class KtSignature:
    """What the sources write for one function, read back from its text: the types as written (`Int?`)."""

    header: str  # `fun f(x: Long): Long`, whitespace collapsed, for messages
    jvm_name: str | None  # `@JvmName("…")`
    overloads: bool  # `@JvmOverloads`
    receiver: str | None
    params: list[str]
    defaults: list[bool]
    varargs: list[bool]
    returns: str | None  # None: an expression body without a written type (inferred, not known here)
    type_params: set[str]
    suspend: bool
    context: bool  # `context(…)` receivers: extra JVM parameters this reading does not follow


def _decl_bytes(data: bytes, d: KtDecl) -> bytes:
    lines = data.split(b"\n")[d.start - 1:d.end]
    if not lines:
        return b""
    if d.end_col is not None and d.end_col >= 0:
        lines[-1] = lines[-1][:d.end_col]
    lines[0] = lines[0][d.start_col or 0:]
    return b"\n".join(lines)


def read_signature(data: bytes, d: KtDecl) -> KtSignature | None:
    """The written signature of function `d` of the file `data`; None when its text does not parse as one."""
    from jdx.engine.kotlin_parse import _TYPE_NODES, _parser

    text = _decl_bytes(data, d)
    if not text:
        return None
    try:
        root = _parser().parse(text).root_node
    except Exception:  # noqa: BLE001 - an unreadable declaration: nothing to check
        return None
    node, stack = None, [root]
    while stack:
        n = stack.pop(0)
        if n.type == "function_declaration":
            node = n
            break
        stack[:0] = list(n.children)
    if node is None:
        return None
    name = node.child_by_field_name("name")
    fvp = next((c for c in node.named_children if c.type == "function_value_parameters"), None)
    if fvp is None:
        return None
    receiver = next((c for c in node.named_children if c.type in _TYPE_NODES
                     and (name is None or c.end_byte <= name.start_byte)), None)
    ret = next((c for c in node.named_children if c.start_byte >= fvp.end_byte and c.type in _TYPE_NODES), None)
    body = next((c for c in node.named_children if c.type == "function_body"), None)
    head = text[:fvp.start_byte].decode(errors="replace")
    params, defaults, varargs, pending = [], [], [], False
    children = list(fvp.children)
    for i, p in enumerate(children):
        if p.type == "parameter_modifiers":
            pending = "vararg" in p.text.decode(errors="replace").split()
            continue
        if p.type != "parameter":
            continue
        typ = next((c for c in p.named_children if c.type in _TYPE_NODES), None)
        params.append(typ.text.decode(errors="replace") if typ is not None else "")
        defaults.append(i + 1 < len(children) and children[i + 1].type == "=")
        varargs.append(pending)
        pending = False
    if ret is not None:
        returns = ret.text.decode(errors="replace")
    elif body is not None and body.text.startswith(b"="):
        returns = None
    else:
        returns = "Unit"
    tparams = next((c for c in node.named_children if c.type == "type_parameters"), None)
    names = {_type_param_name(c) for c in (tparams.named_children if tparams is not None else [])
             if c.type == "type_parameter"}
    jvm_name = _JVM_NAME.search(head)
    end = body.start_byte if body is not None else node.end_byte
    header = " ".join(text[:end].decode(errors="replace").split())
    return KtSignature(header if len(header) <= 200 else header[:197] + "...", jvm_name.group(1) if jvm_name else None,
                       bool(_JVM_OVERLOADS.search(head)), receiver.text.decode(errors="replace") if receiver else None,
                       params, defaults, varargs, returns, names - {""}, "suspend" in d.mods,
                       "context(" in head.replace(" ", ""))


def _type_param_name(node) -> str:
    ident = next((c for c in node.named_children if c.type in ("identifier", "type_identifier")), None)
    return ident.text.decode(errors="replace") if ident is not None else ""


def jvm_erasure(written: str, type_params: set[str], vararg: bool = False, returned: bool = False) -> str | None:
    """The JVM simple type name a written Kotlin type compiles to, when it is certain: `Int` → `int`, `Int?` →
    `Integer`, `String` → `String`, `IntArray` → `int[]`, `Unit` → `void` as a return type; None for what the
    text alone cannot tell (type parameters, type aliases, value classes, function types)."""
    t = _TYPE_ANNOTATION.sub("", written).strip()
    nullable = False
    while True:
        if t.endswith("?"):
            t, nullable = t[:-1].strip(), True
        elif t.startswith("(") and t.endswith(")") and "->" not in t:
            t = t[1:-1].strip()
        else:
            break
    if not t or "->" in t or t.startswith("dynamic"):
        return None
    base, _, args = t.partition("<")
    base = base.strip().removeprefix("kotlin.collections.").removeprefix("kotlin.")
    if "." in base:
        return None  # a qualified user type: as written, its JVM name is not told here
    if vararg:
        if base in _JVM_PRIMITIVE and not nullable:
            return _JVM_PRIMITIVE[base][0] + "[]"
        inner = jvm_erasure(written, type_params)
        if inner is None:
            return None
        return (_JVM_PRIMITIVE[base][1] if base in _JVM_PRIMITIVE else inner) + "[]"
    if base in type_params:
        return None
    if base in _JVM_PRIMITIVE:
        return _JVM_PRIMITIVE[base][1 if nullable else 0]
    if base in _JVM_ARRAYS:
        return _JVM_ARRAYS[base]
    if base == "Array" and args:
        arg = args.rsplit(">", 1)[0].strip()
        arg = arg.removeprefix("out ").removeprefix("in ").strip()
        if arg == "*":
            return "Object[]"
        inner = jvm_erasure(arg, type_params)
        if inner is None:
            return None
        inner = _JVM_PRIMITIVE.get(arg.rstrip("?").removeprefix("kotlin."), (None, inner))[1]  # Array<Int>: Integer[]
        return inner + "[]"
    if base == "Unit":
        return None if nullable else ("void" if returned else "Unit")
    if base == "Nothing":
        return "Void" if returned and not nullable else None
    return _JVM_SAME.get(base)


def _descriptor_return(descriptor: str) -> str:
    return descriptor_params("(" + descriptor[descriptor.index(")") + 1:] + ")")[0]


def _plain_name(name: str) -> str:
    for suffix in ("$default", "$$forInline"):
        name = name.removesuffix(suffix)
    return name


def signature_note(data: bytes, d: KtDecl, row: dict, default_impls: bool = False) -> str | None:
    """Why function `d` of the sources does not compile to the binary method `row` (name, descriptor): its
    `@JvmName`, its arity (an extension receiver, `suspend`'s Continuation, `@JvmOverloads`, a `$default` stub's
    masks counted), a parameter or return type whose erasure is certain. None when it fits or cannot be told."""
    if d.kind != "function":
        return None
    sig = read_signature(data, d)
    if sig is None or sig.context:
        return None
    name = _plain_name(row["name"])
    jvm = descriptor_params(row["descriptor"])
    if default_impls:
        jvm = jvm[1:]
    stub = row["name"].endswith("$default")
    written = ([sig.receiver] if sig.receiver is not None else []) + sig.params
    varargs = ([False] if sig.receiver is not None else []) + sig.varargs
    defaults = ([False] if sig.receiver is not None else []) + sig.defaults
    cont = ["Continuation"] if sig.suspend else []
    if stub:  # f$default(owner?, params…, mask ints…, Object)
        masks = max(1, -(-len(sig.params) // 32))
        jvm = jvm[:-1 - masks] if len(jvm) > masks else []
        if len(jvm) == len(written) + len(cont) + 1:
            jvm = jvm[1:]
    why = []
    if sig.jvm_name is not None and sig.jvm_name != name:
        why.append(f'its @JvmName("{sig.jvm_name}") names it {sig.jvm_name}')
    elif sig.jvm_name is None and "-" not in name and name.split("$", 1)[0] != d.name.strip("`"):
        why.append(f"it compiles to {d.name}, not {name}")
    erased = [jvm_erasure(w, sig.type_params, v) for w, v in zip(written, varargs)] + cont
    shapes = [erased]
    if sig.overloads and not stub:  # @JvmOverloads: the trailing defaulted parameters dropped one by one
        dropped = [i for i, has in enumerate(defaults) if has]
        for k in range(1, len(dropped) + 1):
            gone = set(dropped[-k:])
            shapes.append([e for i, e in enumerate(erased[:len(written)]) if i not in gone] + cont)
    mangled = "-" in row["name"] and sig.jvm_name is None  # value-class parameters: erased to what they wrap
    if not mangled and not any(len(s) == len(jvm) and all(e is None or e == j for e, j in zip(s, jvm))
                               for s in shapes):
        shown = ", ".join("?" if e is None else e for e in erased)
        why.append(f"its parameters compile to ({shown}), not ({', '.join(jvm)})")
    if not why and not mangled:
        want = "Object" if sig.suspend else (jvm_erasure(sig.returns, sig.type_params, returned=True)
                                               if sig.returns is not None else None)
        got = _descriptor_return(row["descriptor"])
        if want is not None and want != got:
            why.append(f"it returns {want}, not {got}")
    if not why:
        return None
    return f"line {d.start} of the sources declares `{sig.header}`: " + "; ".join(why)


def signature_fits(data: bytes, d: KtDecl, row: dict, default_impls: bool = False) -> bool:
    return signature_note(data, d, row, default_impls) is None


def functions_named(parsed: KtParsedFile, data: bytes, keys: list[str], row: dict) -> list[KtDecl]:
    """Functions of container `keys` the binary method `row` may compile from by its JVM name: those of that name
    and those whose `@JvmName` is that name."""
    name = _plain_name(row["name"])
    out = []
    for d in parsed.decls:
        if d.path != keys or d.kind != "function":
            continue
        if d.name.strip("`") == name.split("$", 1)[0]:
            out.append(d)
            continue
        head = _decl_bytes(data, d).split(b"fun", 1)[0].decode(errors="replace")
        m = _JVM_NAME.search(head)
        if m and m.group(1) == name:
            out.append(d)
    return out
