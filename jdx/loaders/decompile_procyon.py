"""Corrections of Procyon 0.6's text from the class files it was made from (jdx.loaders.decompile calls these).

- **String concatenation** (javac 9+: `invokedynamic` to `StringConcatFactory.makeConcatWithConstants`, a recipe
  with `\\u0001` for each value and `\\u0002` for each constant argument): Procyon drops the recipe's text after
  the last marker when it is exactly one character (`"[" + x + "]"` prints as `"[" + n`; its check is
  `i < pattern.length() - 1`). No setting avoids it. `fix_concat_recipes` rewrites such a class file before
  Procyon reads it: the recipe ends in a `\\u0002` marker instead, the character becomes a constant argument
  (new constant-pool entries appended, so no index the code uses moves) — the same string at run time, and
  Procyon prints the constant as the literal `"]"`.
- **Interface methods** (`fix_interface_modifiers`): Procyon prints every interface method with a body as
  `default`, static and private ones included. The modifiers are rewritten from the method's access flags,
  matched by name and parameter types; a declaration that cannot be matched with certainty is left alone and
  reported (DECOMPILED_MODIFIERS_UNCERTAIN).
- **Captured variables** (`captured_warnings`): without a LocalVariableTable Procyon names a local or anonymous
  class's captured variable (`val$p`) after the enclosing method's variable, and may give a variable of the
  class's own method the same name (`return p + s;` printed `return s + s;`). Reported as
  DECOMPILED_CAPTURED_NAMES.
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass, field

ACC_PUBLIC, ACC_PRIVATE, ACC_STATIC, ACC_ABSTRACT, ACC_INTERFACE, ACC_SYNTHETIC = \
    0x0001, 0x0002, 0x0008, 0x0400, 0x0200, 0x1000
_WIDE = (5, 6)  # long and double take two constant-pool slots
_SIZES = {3: 4, 4: 4, 5: 8, 6: 8, 7: 2, 8: 2, 9: 4, 10: 4, 11: 4, 12: 4, 15: 3, 16: 2, 17: 4, 18: 4, 19: 2, 20: 2}
_CONCAT_FACTORY = "java/lang/invoke/StringConcatFactory"


class ClassFormatError(ValueError):
    pass


@dataclass
class Member:
    name: str
    descriptor: str
    access: int
    attributes: dict[str, list[bytes]] = field(default_factory=dict)


@dataclass
class ClassFile:
    data: bytes
    cp_count: int
    cp_end: int  # offset just past the constant pool
    entries: dict[int, tuple[int, int]]  # index -> (tag, offset of its body)
    access: int
    name: str
    fields: list[Member]
    methods: list[Member]
    attributes: list[tuple[str, int, int]]  # class attributes: (name, start offset, end offset)

    def utf8(self, index: int) -> str:
        return _modified_utf8(self.utf8_bytes(index))

    def utf8_bytes(self, index: int) -> bytes:
        tag, pos = self.entries[index]
        if tag != 1:
            raise ClassFormatError(f"constant {index} is not Utf8")
        (length,) = struct.unpack_from(">H", self.data, pos)
        return self.data[pos + 2:pos + 2 + length]

    def u2(self, index: int, at: int = 0) -> int:
        return struct.unpack_from(">H", self.data, self.entries[index][1] + at)[0]

    def class_name(self, index: int) -> str:
        return self.utf8(self.u2(index))


def _modified_utf8(raw: bytes) -> str:
    """The JVM's modified UTF-8 (NUL as C0 80, supplementary characters as two 3-byte surrogates)."""
    return raw.replace(b"\xc0\x80", b"\x00").decode("utf-8", "surrogatepass").encode(
        "utf-16", "surrogatepass").decode("utf-16", "replace")


def read_class(data: bytes) -> ClassFile:
    try:
        return _read_class(data)
    except (struct.error, KeyError, IndexError, UnicodeDecodeError) as exc:
        raise ClassFormatError(f"malformed class file: {exc}") from None


def _constant_pool(data: bytes) -> ClassFile:
    """A ClassFile of the constant pool alone (members and attributes not read yet)."""
    if data[:4] != b"\xca\xfe\xba\xbe":
        raise ClassFormatError("not a class file")
    (count,) = struct.unpack_from(">H", data, 8)
    pos, index, entries = 10, 1, {}
    while index < count:
        tag = data[pos]
        entries[index] = (tag, pos + 1)
        if tag == 1:
            pos += 3 + struct.unpack_from(">H", data, pos + 1)[0]
        else:
            pos += 1 + _SIZES[tag]
        index += 2 if tag in _WIDE else 1
    if pos > len(data):
        raise ClassFormatError("truncated class file")
    return ClassFile(data, count, pos, entries, 0, "", [], [], [])


def declared_class_name(data: bytes) -> str:
    """The internal name a class file declares (its this_class), read past the constant pool and no further;
    ClassFormatError for bytes that are no class file."""
    try:
        cf = _constant_pool(data)
        return cf.class_name(struct.unpack_from(">H", data, cf.cp_end + 2)[0])
    except (struct.error, KeyError, IndexError, UnicodeDecodeError) as exc:
        raise ClassFormatError(f"malformed class file: {exc}") from None


def _read_class(data: bytes) -> ClassFile:
    cf = _constant_pool(data)
    pos = cf.cp_end
    cf.access, this = struct.unpack_from(">HH", data, pos)
    cf.name = cf.class_name(this)
    (interfaces,) = struct.unpack_from(">H", data, pos + 6)
    pos += 8 + 2 * interfaces

    def attributes() -> list[tuple[str, int, int]]:
        nonlocal pos
        (n,) = struct.unpack_from(">H", data, pos)
        pos += 2
        found = []
        for _ in range(n):
            name, length = struct.unpack_from(">HI", data, pos)
            found.append((cf.utf8(name), pos, pos + 6 + length))
            pos += 6 + length
        if pos > len(data):
            raise ClassFormatError("truncated class file")
        return found

    for members in (cf.fields, cf.methods):
        (n,) = struct.unpack_from(">H", data, pos)
        pos += 2
        for _ in range(n):
            flags, name, desc = struct.unpack_from(">HHH", data, pos)
            pos += 6
            member = Member(cf.utf8(name), cf.utf8(desc), flags)
            for attr, a, b in attributes():
                member.attributes.setdefault(attr, []).append(data[a + 6:b])
            members.append(member)
    cf.attributes = attributes()
    return cf


# ---------------------------------------------------------------- string concatenation recipes

def _one_char(raw: bytes) -> bool:
    """Whether modified-UTF-8 bytes encode exactly one UTF-16 unit (what Procyon's off-by-one drops)."""
    if len(raw) == 1:
        return raw[0] < 0x80
    if len(raw) == 2:
        return raw[0] & 0xE0 == 0xC0 and raw[1] & 0xC0 == 0x80
    if len(raw) == 3:
        return raw[0] & 0xF0 == 0xE0 and raw[1] & 0xC0 == 0x80 and raw[2] & 0xC0 == 0x80
    return False


def _is_concat_bootstrap(cf: ClassFile, handle: int) -> bool:
    tag, _ = cf.entries[handle]
    if tag != 15:
        return False
    ref = cf.u2(handle, 1)
    if cf.entries[ref][0] not in (10, 11):
        return False
    owner, name_type = cf.u2(ref), cf.u2(ref, 2)
    return cf.class_name(owner) == _CONCAT_FACTORY and cf.utf8(cf.u2(name_type)) == "makeConcatWithConstants"


def concat_recipes(data: bytes) -> list[str]:
    """The makeConcatWithConstants recipes of a class file, in BootstrapMethods order."""
    cf = read_class(data)
    return [cf.utf8(cf.u2(args[0])) for handle, args in _bootstrap_methods(cf)
            if args and _is_concat_bootstrap(cf, handle) and cf.entries[args[0]][0] == 8]


def _bootstrap_methods(cf: ClassFile) -> list[tuple[int, list[int]]]:
    found = next(((a, b) for name, a, b in cf.attributes if name == "BootstrapMethods"), None)
    if found is None:
        return []
    pos = found[0] + 6
    (n,) = struct.unpack_from(">H", cf.data, pos)
    pos += 2
    out = []
    for _ in range(n):
        handle, argc = struct.unpack_from(">HH", cf.data, pos)
        out.append((handle, list(struct.unpack_from(f">{argc}H", cf.data, pos + 4))))
        pos += 4 + 2 * argc
    return out


def fix_concat_recipes(data: bytes) -> tuple[bytes, int, int]:
    try:
        return _fix_concat_recipes(data)
    except (struct.error, KeyError, IndexError, ValueError) as exc:
        if isinstance(exc, ClassFormatError):
            raise
        raise ClassFormatError(f"malformed class file: {exc}") from None


def _fix_concat_recipes(data: bytes) -> tuple[bytes, int, int]:
    """(the class file with every concatenation recipe whose text after its last marker is one character rewritten
    to end in a `\\u0002` marker with that character as a constant argument, recipes rewritten, recipes that needed
    it but could not be: the constant pool has no room). The code is untouched and the new constants come after the
    old ones. ClassFormatError on a malformed class file."""
    cf = read_class(data)
    bsms = _bootstrap_methods(cf)
    todo = []
    for k, (handle, args) in enumerate(bsms):
        if not args or not _is_concat_bootstrap(cf, handle) or cf.entries[args[0]][0] != 8:
            continue
        recipe = cf.utf8_bytes(cf.u2(args[0]))
        last = max(recipe.rfind(b"\x01"), recipe.rfind(b"\x02"))
        if _one_char(recipe[last + 1:]):
            todo.append((k, recipe[:last + 1] + b"\x02", recipe[last + 1:]))
    if not todo:
        return data, 0, 0
    if cf.cp_count + 4 * len(todo) > 0xFFFF:
        return data, 0, len(todo)
    added, index = bytearray(), cf.cp_count
    for k, recipe, tail in todo:
        handle, args = bsms[k]
        ids = []
        for text in (recipe, tail):
            added += struct.pack(">BH", 1, len(text)) + text + struct.pack(">BH", 8, index)
            ids.append(index + 1)
            index += 2
        bsms[k] = (handle, [ids[0], *args[1:], ids[1]])
    table = struct.pack(">H", len(bsms)) + b"".join(struct.pack(f">HH{len(a)}H", h, len(a), *a) for h, a in bsms)
    name, start, end = next(a for a in cf.attributes if a[0] == "BootstrapMethods")
    attr = data[start:start + 2] + struct.pack(">I", len(table)) + table
    out = data[:8] + struct.pack(">H", index) + data[10:cf.cp_end] + bytes(added) + data[cf.cp_end:start] + attr + \
        data[end:]
    return out, len(todo), 0


# ---------------------------------------------------------------- interface methods

def _descriptor_params(descriptor: str) -> list[str]:
    """Parameter types of a method descriptor as simple names with array brackets: `int`, `String[]`."""
    prims = {"B": "byte", "C": "char", "D": "double", "F": "float", "I": "int", "J": "long", "S": "short",
             "Z": "boolean"}
    out = []
    for dims, ref, prim in re.findall(r"(\[*)(?:L([^;]+);|([BCDFIJSZ]))", descriptor[1:descriptor.index(")")]):
        simple = re.sub(r"^\d+", "", re.split(r"[/$]", ref)[-1]) if ref else prims[prim]
        out.append(simple + "[]" * len(dims))
    return out


def _modifiers(access: int) -> str | None:
    """The source modifiers of an interface method with a body; None for a default method."""
    if access & ACC_STATIC:
        return "private static" if access & ACC_PRIVATE else "static"
    if access & ACC_PRIVATE:
        return "private"
    return None


_PARSER = []


def _parser():
    if not _PARSER:
        import tree_sitter
        import tree_sitter_java

        _PARSER.append(tree_sitter.Parser(tree_sitter.Language(tree_sitter_java.language())))
    return _PARSER[0]


_TYPES = ("class_declaration", "interface_declaration", "enum_declaration", "record_declaration",
          "annotation_type_declaration")


def _text(node, src: bytes) -> str:
    return src[node.start_byte:node.end_byte].decode("utf-8", "replace")


def _interfaces(root, src: bytes, top: str, classes: dict[str, ClassFile]):
    """(interface declaration node, its class file or None) for every interface in the text."""
    return [(node, classes.get(name) if name else None) for node, name in _types(root, src, top, classes)
            if node.type == "interface_declaration"]


def _types(root, src: bytes, top: str, classes) -> list[tuple[object, str | None]]:
    """(type declaration node, its binary name or None when unknown) for every named type in the text."""
    out = []

    def walk(node, binary: str | None, local: bool):
        for child in node.children:
            if child.type in _TYPES:
                name_node = child.child_by_field_name("name")
                simple = _text(name_node, src) if name_node is not None else ""
                if binary is None:
                    name = top
                elif not local:
                    name = f"{binary}${simple}"
                else:  # a local type: Outer$<n>Simple, when exactly one class file fits
                    fits = [n for n in classes if re.fullmatch(re.escape(binary) + r"\$\d+" + re.escape(simple), n)]
                    name = fits[0] if len(fits) == 1 else None
                out.append((child, name))
                body = child.child_by_field_name("body")
                if body is not None and name is not None:
                    walk(body, name, False)
                elif body is not None:
                    walk(body, "?", True)
            elif child.type in ("method_declaration", "constructor_declaration", "block", "static_initializer",
                                "lambda_expression", "object_creation_expression", "class_body",
                                "field_declaration", "enum_body_declarations", "enum_constant", "enum_body"):
                nested_local = local or child.type in ("method_declaration", "constructor_declaration", "block",
                                                       "static_initializer", "lambda_expression",
                                                       "object_creation_expression", "field_declaration",
                                                       "enum_constant")
                walk(child, binary, nested_local)
            elif child.named_child_count:
                walk(child, binary, local)

    walk(root, None, False)
    return out


def _param_types(method, src: bytes, type_vars: set[str]) -> list[str]:
    params = method.child_by_field_name("parameters")
    types = []
    for p in params.named_children if params is not None else []:
        if p.type not in ("formal_parameter", "spread_parameter"):
            continue
        kind = p.child_by_field_name("type") or next(
            (c for c in p.named_children if c.type not in ("modifiers", "variable_declarator")), None)
        types.append(_erased(_text(kind, src) if kind is not None else "", type_vars, p.type == "spread_parameter"))
    return types


def _erased(type_text: str, type_vars: set[str], varargs: bool = False) -> str:
    """`List<String>` -> `List`, `java.util.Map.Entry<K, V>[]` -> `Entry[]`, a type variable -> `?`."""
    base = type_text
    while "<" in base:  # innermost type arguments first
        stripped = re.sub(r"<[^<>]*>", "", base)
        if stripped == base:
            break
        base = stripped
    dims = len(re.findall(r"\[\s*\]", base)) + (1 if varargs else 0)
    base = re.sub(r"\[\s*\]", "", base)
    base = re.sub(r"@[\w.]+(\([^)]*\))?\s*", "", base).strip().split(".")[-1]
    return ("?" if base in type_vars else base) + "[]" * dims


def _type_vars(node, src: bytes) -> set[str]:
    tp = node.child_by_field_name("type_parameters")
    if tp is None:
        return set()
    return {_text(c.child_by_field_name("name") or c.named_children[0], src) for c in tp.named_children
            if c.type == "type_parameter"}


def _same_params(text_types: list[str], binary_types: list[str]) -> bool:
    prims = {"byte", "char", "double", "float", "int", "long", "short", "boolean"}
    for t, b in zip(text_types, binary_types):
        if t.startswith("?"):  # a type variable: any reference type of the same array depth
            if b.count("[]") < t.count("[]") or (b in prims):
                return False
        elif t != b:
            return False
    return True


def fix_interface_modifiers(text: str, top: str, files: list[tuple[str, bytes]]) -> tuple[str, list[str]]:
    """The text with each interface method Procyon printed `default` but whose class file says static or private
    given those modifiers; and one note per declaration it could not match with certainty (left as printed)."""
    if "default " not in text:
        return text, []
    classes = {}
    for name, data in files:
        try:
            cf = read_class(data)
        except ClassFormatError:
            continue
        classes[cf.name] = cf
    if not any(cf.access & ACC_INTERFACE for cf in classes.values()):
        return text, []
    src = text.encode("utf-8")
    tree = _parser().parse(src)
    edits: list[tuple[int, int, str]] = []
    notes: list[str] = []
    for iface, cf in _interfaces(tree.root_node, src, top, classes):
        body = iface.child_by_field_name("body")
        if body is None:
            continue
        outer_vars = _type_vars(iface, src)
        for method in body.named_children:
            if method.type != "method_declaration":
                continue
            mods = next((c for c in method.children if c.type == "modifiers"), None)
            keyword = next((c for c in mods.children if c.type == "default"), None) if mods is not None else None
            if keyword is None:
                continue
            name_node = method.child_by_field_name("name")
            if name_node is None:
                continue
            name = _text(name_node, src)
            label = f"{(cf.name if cf else '?').replace('/', '.')}#{name}"
            if cf is None:
                notes.append(f"{label}: the interface's class file is not known")
                continue
            types = _param_types(method, src, outer_vars | _type_vars(method, src))
            candidates = [m for m in cf.methods if m.name == name and not m.access & ACC_ABSTRACT
                          and len(_descriptor_params(m.descriptor)) == len(types)]
            wanted = {_modifiers(m.access) for m in candidates}
            if len(wanted) > 1:
                candidates = [m for m in candidates if _same_params(types, _descriptor_params(m.descriptor))]
                wanted = {_modifiers(m.access) for m in candidates}
            if len(wanted) != 1:
                notes.append(f"{label}({', '.join(types)}): no single method of the class file matches; its "
                             "modifiers are left as printed")
                continue
            new = wanted.pop()
            if new is not None:
                edits.append((keyword.start_byte, keyword.end_byte, new))
    for start, end, new in sorted(edits, reverse=True):
        src = src[:start] + new.encode() + src[end:]
    return src.decode("utf-8"), notes


# ---------------------------------------------------------------- captured variables

def captured_classes(files: list[tuple[str, bytes]]) -> list[str]:
    """The classes among `files` with captured-variable fields (`val$x`) and no LocalVariableTable in any of their
    methods: where Procyon's names for captured and own variables may coincide."""
    found = []
    for _, data in files:
        try:
            cf = read_class(data)
        except ClassFormatError:
            continue
        if not any(f.name.startswith("val$") for f in cf.fields):
            continue
        coded = [m for m in cf.methods if "Code" in m.attributes]
        try:
            if coded and not any(_has_lvt(code, cf) for m in coded for code in m.attributes["Code"]):
                found.append(cf.name)
        except (struct.error, KeyError, IndexError, ClassFormatError):
            continue
    return sorted(found)


def code_attributes(code: bytes, cf: ClassFile) -> list[tuple[str, int]]:
    """(name, offset of its body) of each attribute of a Code attribute's body (LineNumberTable,
    LocalVariableTable, ...), past the bytecode and the exception table."""
    (length,) = struct.unpack_from(">I", code, 4)
    pos = 8 + length
    (exceptions,) = struct.unpack_from(">H", code, pos)
    pos += 2 + 8 * exceptions
    (n,) = struct.unpack_from(">H", code, pos)
    pos += 2
    out = []
    for _ in range(n):
        name, size = struct.unpack_from(">HI", code, pos)
        out.append((cf.utf8(name), pos + 6))
        pos += 6 + size
    return out


def _has_lvt(code: bytes, cf: ClassFile) -> bool:
    return any(name == "LocalVariableTable" for name, _ in code_attributes(code, cf))


# ---------------------------------------------------------------- naming captured parameters

def _oplen(code: bytes, pc: int) -> int:
    op = code[pc]
    if op == 0xAA:  # tableswitch
        pad = (4 - (pc + 1) % 4) % 4
        low, high = struct.unpack_from(">ii", code, pc + 1 + pad + 4)
        return 1 + pad + 12 + 4 * (high - low + 1)
    if op == 0xAB:  # lookupswitch
        pad = (4 - (pc + 1) % 4) % 4
        (pairs,) = struct.unpack_from(">i", code, pc + 1 + pad + 4)
        return 1 + pad + 8 + 8 * pairs
    if op == 0xC4:  # wide
        return 6 if code[pc + 1] == 0x84 else 4
    if op in (0x10, 0x12, 0xA9, 0xBC) or 0x15 <= op <= 0x19 or 0x36 <= op <= 0x3A:
        return 2
    if op in (0x11, 0x13, 0x14, 0x84, 0xBB, 0xBD, 0xC0, 0xC1, 0xC6, 0xC7) or 0x99 <= op <= 0xA8 or \
            0xB2 <= op <= 0xB8:
        return 3
    if op == 0xC5:
        return 4
    if op in (0xB9, 0xBA, 0xC8, 0xC9):
        return 5
    return 1


def _instructions(code_attr: bytes) -> list[tuple[int, bytes]]:
    """(opcode, the instruction's bytes) of a Code attribute's code, in order."""
    (length,) = struct.unpack_from(">I", code_attr, 4)
    code = code_attr[8:8 + length]
    out, pc = [], 0
    while pc < len(code):
        n = _oplen(code, pc)
        out.append((code[pc], code[pc:pc + n]))
        pc += n
    if pc != len(code):
        raise ClassFormatError("code runs past its end")
    return out


def _load_slot(op: int, ins: bytes) -> int | None:
    """The local slot a single-value load reads (iload/lload/fload/dload/aload, short and wide forms)."""
    if 0x1A <= op <= 0x2D:
        return (op - 0x1A) % 4
    if 0x15 <= op <= 0x19:
        return ins[1]
    if op == 0xC4 and 0x15 <= ins[1] <= 0x19:
        return struct.unpack_from(">H", ins, 2)[0]
    return None


def _param_slots(descriptor: str, static: bool) -> list[int]:
    """The first local slot of each parameter."""
    slots, slot = [], 0 if static else 1
    for dims, kind in re.findall(r"(\[*)(L[^;]+;|[BCDFIJSZ])", descriptor[1:descriptor.index(")")]):
        slots.append(slot)
        slot += 2 if not dims and kind in "JD" else 1
    return slots


def _member_ref(cf: ClassFile, index: int) -> tuple[str, str, str]:
    """(owner, name, descriptor) of a Fieldref / Methodref constant."""
    owner, name_type = cf.u2(index), cf.u2(index, 2)
    return cf.class_name(owner), cf.utf8(cf.u2(name_type)), cf.utf8(cf.u2(name_type, 2))


def _captured_by_constructor(cf: ClassFile) -> dict[str, dict[int, str]]:
    """{constructor descriptor: {parameter index: captured name}} from `aload_0; xload k; putfield val$<name>`."""
    found: dict[str, dict[int, str]] = {}
    for m in cf.methods:
        if m.name != "<init>" or "Code" not in m.attributes:
            continue
        slots = _param_slots(m.descriptor, False)
        ins = _instructions(m.attributes["Code"][0])
        names: dict[int, str] = {}
        for k in range(2, len(ins)):
            op, raw = ins[k]
            if op != 0xB5 or ins[k - 2][0] != 0x2A:
                continue
            owner, name, _ = _member_ref(cf, struct.unpack_from(">H", raw, 1)[0])
            slot = _load_slot(*ins[k - 1])
            if owner == cf.name and name.startswith("val$") and slot in slots:
                names[slots.index(slot)] = name[4:]
        found[m.descriptor] = names
    return found


def enclosing_label(files: list[tuple[str, bytes]], name: str) -> str:
    """`q.Cap$1J (in q.Cap#same)`: a capturing class and the method it is declared in, when the class file says."""
    for _, data in files:
        try:
            cf = read_class(data)
        except ClassFormatError:
            continue
        if cf.name == name:
            where = _enclosing_method(cf)
            if where is not None:
                method = where[0].replace("/", ".") + "#" + ("new" if where[1] == "<init>" else where[1])
                return f"{name.replace('/', '.')} (in {method})"
    return name.replace("/", ".")


def _enclosing_method(cf: ClassFile) -> tuple[str, str, str] | None:
    found = next(((a, b) for name, a, b in cf.attributes if name == "EnclosingMethod"), None)
    if found is None:
        return None
    owner, method = struct.unpack_from(">HH", cf.data, found[0] + 6)
    if method == 0:
        return None
    return cf.class_name(owner), cf.utf8(cf.u2(method)), cf.utf8(cf.u2(method, 2))


@dataclass
class Captures:
    """What `name_captured_parameters` found: per class with `val$` fields, the names it gave and whether every
    captured variable was named from a parameter of the enclosing method."""
    # capturing class -> (the enclosing method (class, name, descriptor), the names given its parameters)
    named: dict[str, tuple[tuple[str, str, str], set[str]]] = field(default_factory=dict)
    unnamed: list[str] = field(default_factory=list)  # capturing classes with a captured variable left unnamed


def name_captured_parameters(files: list[tuple[str, bytes]]) -> tuple[list[tuple[str, bytes]], Captures]:
    """Class files with a MethodParameters attribute added to each method (of classes without local variable
    names) whose parameter a local or anonymous class captures, naming that parameter as javac named the capturing
    field (`val$p`: `p`), so Procyon prints the captured variable under its source name. Only the exact javac
    shapes are trusted: the constructor stores its parameter with `aload_0; xload; putfield val$p`, and every
    creation in the enclosing method passes the parameter with a plain load right before the constructor call."""
    classes: dict[str, tuple[int, ClassFile]] = {}
    for k, (_, data) in enumerate(files):
        try:
            cf = read_class(data)
        except ClassFormatError:
            continue
        classes[cf.name] = (k, cf)
    captures = Captures()
    wanted: dict[tuple[str, str, str], dict[int, str]] = {}  # (class, method, descriptor) -> {param: name}
    conflict: set[tuple[str, str, str]] = set()
    for name, (_, cf) in sorted(classes.items()):
        fields = {f.name[4:] for f in cf.fields if f.name.startswith("val$")}
        if not fields:
            continue
        try:
            named = _captured_names(cf, classes, fields)
        except (ClassFormatError, struct.error, KeyError, IndexError, ValueError):
            named = None
        if named is None:
            captures.unnamed.append(name)
            continue
        method, params = named
        have = wanted.setdefault(method, {})
        for index, value in params.items():
            if have.get(index, value) != value:
                conflict.add(method)
            have[index] = value
        captures.named[name] = (method, set(params.values()))
    out = list(files)
    for method, params in sorted(wanted.items()):
        owner = classes[method[0]]
        if method in conflict:
            captures.unnamed += [n for n, (_, cf) in classes.items() if n in captures.named and
                                 _enclosing_method(cf) == method]
            continue
        try:
            out[owner[0]] = (out[owner[0]][0], _with_parameter_names(read_class(out[owner[0]][1]), method, params))
        except (ClassFormatError, struct.error, KeyError, IndexError):
            captures.unnamed += [n for n, (_, cf) in classes.items() if n in captures.named and
                                 _enclosing_method(cf) == method]
    for name in captures.unnamed:
        captures.named.pop(name, None)
    captures.unnamed = sorted(set(captures.unnamed))
    return out, captures


def _captured_names(cf: ClassFile, classes: dict, fields: set[str]):
    """((enclosing class, method, descriptor), {parameter index of that method: name}) when every captured variable
    of `cf` is a parameter passed the javac way, else None."""
    where = _enclosing_method(cf)
    if where is None or where[0] not in classes:
        return None
    outer = classes[where[0]][1]
    method = next((m for m in outer.methods if (m.name, m.descriptor) == where[1:]), None)
    if method is None or "Code" not in method.attributes or "MethodParameters" in method.attributes or \
            _has_lvt(method.attributes["Code"][0], outer):
        return None
    slots = _param_slots(method.descriptor, bool(method.access & ACC_STATIC))
    by_ctor = _captured_by_constructor(cf)
    ins = _instructions(method.attributes["Code"][0])
    params: dict[int, str] = {}
    seen = set()
    for k, (op, raw) in enumerate(ins):
        if op != 0xB7:
            continue
        owner, name, desc = _member_ref(outer, struct.unpack_from(">H", raw, 1)[0])
        if owner != cf.name or name != "<init>":
            continue
        captured = by_ctor.get(desc)
        if not captured or set(captured.values()) != fields:
            return None
        count = len(_param_slots(desc, False))
        first = min(captured)
        if k < count - first:
            return None
        for index in range(first, count):  # plain loads from the first captured argument to the call
            op_, raw_ = ins[k - (count - index)]
            slot = _load_slot(op_, raw_)
            if slot is None:
                return None
            if index in captured:
                if slot not in slots:
                    return None
                params[slots.index(slot)] = captured[index]
        seen.add(desc)
    if not seen or set(params.values()) != fields or len(set(params.values())) != len(params):
        return None
    return where, params


def _with_parameter_names(cf: ClassFile, method: tuple[str, str, str], params: dict[int, str]) -> bytes:
    """The class file with a MethodParameters attribute on `method` naming the parameters in `params` (the others
    unnamed); new constants appended after the old ones."""
    data = cf.data
    count = len(_param_slots(method[2], True))
    names = sorted(set(params.values()) | {"MethodParameters"})
    index = {n: cf.cp_count + k for k, n in enumerate(names)}
    if cf.cp_count + len(names) > 0xFFFF or count > 255:
        return data
    added = b"".join(struct.pack(">BH", 1, len(n.encode())) + n.encode() for n in names)
    attr = struct.pack(">HIB", index["MethodParameters"], 1 + 4 * count, count) + b"".join(
        struct.pack(">HH", index[params[k]] if k in params else 0, 0) for k in range(count))
    # find the method_info and its attribute count
    pos = cf.cp_end + 6
    (interfaces,) = struct.unpack_from(">H", data, pos)
    pos += 2 + 2 * interfaces
    for group in ("fields", "methods"):
        (n,) = struct.unpack_from(">H", data, pos)
        pos += 2
        for _ in range(n):
            flags, name, desc, attrs = struct.unpack_from(">HHHH", data, pos)
            if group == "methods" and (cf.utf8(name), cf.utf8(desc)) == method[1:]:
                out = data[:8] + struct.pack(">H", cf.cp_count + len(names)) + data[10:cf.cp_end] + added + \
                    data[cf.cp_end:pos + 6] + struct.pack(">H", attrs + 1) + attr + data[pos + 8:]
                return out
            pos += 8
            for _ in range(attrs):
                (length,) = struct.unpack_from(">I", data, pos + 2)
                pos += 6 + length
    return data


_DECLARED = ("formal_parameter", "spread_parameter", "variable_declarator", "catch_formal_parameter")


def names_declared_in(text: str, top: str, files: list[tuple[str, bytes]],
                      method: tuple[str, str, str]) -> dict[str, int] | None:
    """How many times each name is declared (parameters, variables, fields, catch and lambda parameters) inside the
    text's declaration of `method` (class, name, descriptor), local classes included; None when the text has no
    single declaration that matches it by name and parameter types."""
    classes = {}
    for _, data in files:
        try:
            cf = read_class(data)
        except ClassFormatError:
            continue
        classes[cf.name] = cf
    src = text.encode("utf-8")
    root = _parser().parse(src).root_node
    owners = [node for node, name in _types(root, src, top, classes) if name == method[0]]
    if len(owners) != 1 or owners[0].child_by_field_name("body") is None:
        return None
    owner = owners[0]
    if owner.child_by_field_name("name") is None:
        return None
    simple = _text(owner.child_by_field_name("name"), src)
    kind, name = ("constructor_declaration", simple) if method[1] == "<init>" else ("method_declaration", method[1])
    binary = _descriptor_params(method[2])
    found = []
    for node in owner.child_by_field_name("body").named_children:
        if node.type != kind or node.child_by_field_name("name") is None or \
                _text(node.child_by_field_name("name"), src) != name:
            continue
        types = _param_types(node, src, _type_vars(owner, src) | _type_vars(node, src))
        if len(types) == len(binary) and _same_params(types, binary):
            found.append(node)
    if len(found) != 1:
        return None
    return _declared_under(found[0], src)


def _declared_under(top_node, src: bytes) -> dict[str, int]:
    counts: dict[str, int] = {}
    stack = [top_node]
    while stack:
        node = stack.pop()
        names = []
        if node.type in _DECLARED:
            name = node.child_by_field_name("name")
            names = [name] if name is not None else []
        elif node.type == "lambda_expression":
            params = node.child_by_field_name("parameters")
            if params is not None and params.type == "identifier":
                names = [params]
            elif params is not None and params.type == "inferred_parameters":
                names = [c for c in params.named_children if c.type == "identifier"]
        for name in names:
            key = _text(name, src)
            counts[key] = counts.get(key, 0) + 1
        stack.extend(node.children)
    return counts
