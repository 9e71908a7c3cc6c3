"""JVM descriptors (JVMS §4.3) and generic signatures (JVMS §4.7.9.1). Pure functions, no I/O.

Names come in three spellings throughout jdx:

    internal  java/util/Map$Entry     (class files, descriptors)
    fqn       java.util.Map$Entry     (canonical refs: dots for packages, `$` for nesting)
    simple    Map.Entry               (source-like, package dropped, `$` shown as `.`)

Every parser here raises ``ValueError`` on malformed input and never loops or recurses
without bound.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Union

PRIMITIVES = {
    "B": "byte", "C": "char", "D": "double", "F": "float",
    "I": "int", "J": "long", "S": "short", "Z": "boolean", "V": "void",
}
PRIMITIVE_CODES = {name: code for code, name in PRIMITIVES.items()}
OBJECT = "java/lang/Object"

MAX_ARRAY_DIMS = 255  # JVMS §4.3.2 limit; also bounds our recursion
MAX_NESTING = 64  # generic type-argument nesting; keeps recursion far below Python's limit
MAX_PATH = 300  # nesting plus array dimensions along one path; bounds dataclass __eq__/__hash__ depth

# Characters never legal inside an internal class name (JVMS §4.2.1); `<`/`>` are legal in
# principle but only ever appear when a signature is mistaken for a descriptor.
_BAD_NAME_CHARS = frozenset(".;[<>")
# `$` between two non-`$` characters separates nesting levels; `$Proxy1`, `Foo$$Bar` keep theirs.
_NEST_SEP = re.compile(r"(?<=[^$/])\$(?=[^$])")
_SHADOW_SUFFIX = re.compile(r"@[0-9a-f]{16}$")


def internal_to_fqn(internal: str) -> str:
    """`java/util/Map$Entry` -> `java.util.Map$Entry` (nesting `$` kept)."""
    return internal.replace("/", ".")


def fqn_to_internal(fqn: str) -> str:
    """`java.util.Map$Entry` -> `java/util/Map$Entry`. Dots always become package slashes."""
    return fqn.replace(".", "/")


def package_of(internal: str) -> str:
    """Dotted package of an internal name (`java/util/Map$Entry` -> `java.util`); `` for none."""
    slash = internal.rfind("/")
    return internal[:slash].replace("/", ".") if slash >= 0 else ""


def nested_simple_name(internal: str) -> str:
    """Source-like name without package: `java/util/Map$Entry` -> `Map.Entry`, `Foo$1` -> `Foo.1`."""
    if "@" in internal:  # a shadowed copy's graph id `name@<artifact>` (refs.format_type)
        internal = _SHADOW_SUFFIX.sub("", internal)
    return _NEST_SEP.sub(".", internal[internal.rfind("/") + 1:])


def simple_name_of(internal: str) -> str:
    """Innermost simple name: `java/util/Map$Entry` -> `Entry`, `Foo$1` -> `1`, `$Proxy3` -> `$Proxy3`."""
    return nested_simple_name(internal).rsplit(".", 1)[-1]


def name_segments(name: str) -> list[str]:
    """Name parts with packages and nesting alike split: `java.util.Map$Entry` -> [java, util, Map, Entry].

    Accepts internal, fqn or dotted-nested spellings; `$Proxy3` and `Foo$$Bar` stay whole.
    """
    out: list[str] = []
    for part in name.replace("/", ".").split("."):
        out.extend(_NEST_SEP.sub(".", part).split("."))
    return out


def _check_internal_name(name: str, context: str) -> None:
    # an empty segment is a leading, trailing or doubled slash
    if not name or name[0] == "/" or name[-1] == "/" or "//" in name or not _BAD_NAME_CHARS.isdisjoint(name):
        raise ValueError(f"malformed class name {name!r} in {context!r}")


def _read_field_descriptor(desc: str, pos: int, *, allow_void: bool = False) -> int:
    """Validate one field descriptor starting at pos; return the index just after it."""
    start = pos
    while pos < len(desc) and desc[pos] == "[":
        pos += 1
    if pos - start > MAX_ARRAY_DIMS:
        raise ValueError(f"more than {MAX_ARRAY_DIMS} array dimensions in {desc!r}")
    if pos >= len(desc):
        raise ValueError(f"truncated descriptor {desc!r}")
    c = desc[pos]
    if c == "L":
        end = desc.find(";", pos)
        if end < 0:
            raise ValueError(f"unterminated class type at {pos} in {desc!r}")
        _check_internal_name(desc[pos + 1:end], desc)
        return end + 1
    if c in PRIMITIVES and (c != "V" or (allow_void and pos == start)):
        return pos + 1
    raise ValueError(f"unexpected {c!r} at {pos} in descriptor {desc!r}")


def parse_method_descriptor(desc: str) -> tuple[list[str], str]:
    """`(ILjava/lang/String;)V` -> (['I', 'Ljava/lang/String;'], 'V')."""
    if not isinstance(desc, str) or not desc.startswith("("):
        raise ValueError(f"method descriptor must start with '(': {desc!r}")
    params: list[str] = []
    pos = 1
    while True:
        if pos >= len(desc):
            raise ValueError(f"unterminated parameter list in {desc!r}")
        if desc[pos] == ")":
            break
        end = _read_field_descriptor(desc, pos)
        params.append(desc[pos:end])
        pos = end
    end = _read_field_descriptor(desc, pos + 1, allow_void=True)
    if end != len(desc):
        raise ValueError(f"trailing characters after return type in {desc!r}")
    return params, desc[pos + 1:end]


def split_field_descriptor(desc: str) -> tuple[int, str]:
    """Validate a field descriptor; return (array dimensions, element descriptor): `[[I` -> (2, 'I')."""
    if not isinstance(desc, str) or _read_field_descriptor(desc, 0) != len(desc):
        raise ValueError(f"malformed field descriptor {desc!r}")
    element = desc.lstrip("[")
    return len(desc) - len(element), element


def descriptor_to_java(desc: str, *, qualified: bool = True) -> str:
    """`[Ljava/lang/String;` -> `java.lang.String[]` (or `String[]` unqualified); `V` -> `void`."""
    if desc == "V":
        return "void"
    dims, element = split_field_descriptor(desc)
    if element[0] == "L":
        internal = element[1:-1]
        base = internal_to_fqn(internal) if qualified else nested_simple_name(internal)
    else:
        base = PRIMITIVES[element]
    return base + "[]" * dims


def erase_generics(text: str) -> str:
    """Drop balanced `<...>` groups: `Map<K, List<V>>.Entry` -> `Map.Entry`. ValueError if unbalanced."""
    out, depth = [], 0
    for i, c in enumerate(text):
        if c == "<":
            depth += 1
        elif c == ">":
            depth -= 1
            if depth < 0:
                raise ValueError(f"unbalanced '>' at {i} in {text!r}")
        elif depth == 0:
            out.append(c)
    if depth:
        raise ValueError(f"unbalanced '<' in {text!r}")
    return "".join(out)


def java_to_descriptor(name: str) -> str:
    """`java.lang.String[]` -> `[Ljava/lang/String;`, `int...` -> `[I`, `void` -> `V`.

    Generic arguments are erased; the name is taken as written (dots become slashes, so a
    nested type must be spelled with `$`).
    """
    text = erase_generics(name).strip()
    dims = 0
    if text.endswith("..."):
        text, dims = text[:-3].rstrip(), 1
    while text.endswith("]"):
        head = text[:-1].rstrip()
        if not head.endswith("["):
            raise ValueError(f"unbalanced ']' in type {name!r}")
        text, dims = head[:-1].rstrip(), dims + 1
    if dims > MAX_ARRAY_DIMS:
        raise ValueError(f"more than {MAX_ARRAY_DIMS} array dimensions in {name!r}")
    if text in PRIMITIVE_CODES:
        if text == "void" and dims:
            raise ValueError(f"array of void in {name!r}")
        return "[" * dims + PRIMITIVE_CODES[text]
    internal = text.replace(".", "/")
    if any(c.isspace() or c in "[]()," for c in internal):
        raise ValueError(f"malformed type name {name!r}")
    _check_internal_name(internal, name)
    return "[" * dims + "L" + internal + ";"


@dataclass(frozen=True)
class BaseType:
    """A primitive or `void`; code is the descriptor letter (`I`, `V`, ...)."""
    code: str


@dataclass(frozen=True)
class TypeVar:
    """A use of a type variable: `TT;`."""
    name: str


@dataclass(frozen=True)
class CaptureVar(TypeVar):
    """A wildcard type argument captured (JLS §5.1.10): `members 'List<? extends Number>'` binds E to a fresh variable,
    named as IntelliJ shows it (`capture of ? extends Number`; javac says `CAP#1`); `arg` is the wildcard."""
    arg: "TypeArg | None" = None


def capture(arg: "TypeArg") -> CaptureVar:
    """The capture variable of a wildcard argument (`? extends Number` -> `capture of ? extends Number`)."""
    return CaptureVar("capture of " + render_type_arg(arg, qualified=False), arg)


@dataclass(frozen=True)
class ArrayTypeSig:
    """`[` component."""
    component: "TypeSig"


@dataclass(frozen=True)
class TypeArg:
    """One type argument. wildcard: '' exact, '+' extends, '-' super, '*' unbounded (type None)."""
    wildcard: str
    type: "TypeSig | None"


@dataclass(frozen=True)
class InnerClassSig:
    """An inner-class suffix `.Inner<...>` of a ClassTypeSig."""
    name: str
    args: tuple[TypeArg, ...] = ()


@dataclass(frozen=True)
class ClassTypeSig:
    """`Lpkg/Outer<..>.Inner<..>;` — name is the internal name of the leading part."""
    name: str
    args: tuple[TypeArg, ...] = ()
    inner: tuple[InnerClassSig, ...] = ()

    @property
    def binary_name(self) -> str:
        """Internal binary name of the whole type: `pkg/Outer$Inner`."""
        return self.name + "".join("$" + i.name for i in self.inner)


TypeSig = Union[BaseType, TypeVar, ArrayTypeSig, ClassTypeSig]


@dataclass(frozen=True)
class TypeParam:
    """A formal type parameter `T:Lbound;:Liface;` (class_bound None when written `T::...`)."""
    name: str
    class_bound: TypeSig | None = None
    interface_bounds: tuple[TypeSig, ...] = ()

    @property
    def bounds(self) -> tuple[TypeSig, ...]:
        """All bounds, leftmost (the erasure) first."""
        head = (self.class_bound,) if self.class_bound is not None else ()
        return head + self.interface_bounds


@dataclass(frozen=True)
class ClassSignature:
    """Class `Signature` attribute: type params, superclass, interfaces."""
    type_params: tuple[TypeParam, ...]
    superclass: ClassTypeSig
    interfaces: tuple[ClassTypeSig, ...] = ()


@dataclass(frozen=True)
class MethodSignature:
    """Method `Signature` attribute (or a plain descriptor): type params, params, return, throws."""
    type_params: tuple[TypeParam, ...]
    params: tuple[TypeSig, ...]
    return_type: TypeSig
    throws: tuple[TypeSig, ...] = ()


def _unwrap_array(sig: TypeSig) -> tuple[TypeSig, int]:
    dims = 0
    while isinstance(sig, ArrayTypeSig):
        sig, dims = sig.component, dims + 1
    return sig, dims


def _wrap_array(sig: TypeSig, dims: int) -> TypeSig:
    for _ in range(dims):
        sig = ArrayTypeSig(sig)
    return sig


class _SigReader:
    """Recursive-descent reader over one signature string; depth-limited."""

    def __init__(self, text: str):
        if not isinstance(text, str):
            raise ValueError(f"signature must be a string, got {type(text).__name__}")
        self.text, self.pos, self.depth, self.path = text, 0, 0, 0

    def fail(self, what: str) -> ValueError:
        return ValueError(f"{what} at {self.pos} in signature {self.text!r}")

    def peek(self) -> str:
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def expect(self, c: str) -> None:
        if self.peek() != c:
            raise self.fail(f"expected {c!r}")
        self.pos += 1

    def done(self) -> None:
        if self.pos != len(self.text):
            raise self.fail("trailing characters")

    def identifier(self, stops: str) -> str:
        start = self.pos
        while self.pos < len(self.text) and self.text[self.pos] not in stops:
            self.pos += 1
        if self.pos == start:
            raise self.fail("expected identifier")
        return self.text[start:self.pos]

    def java_type(self) -> TypeSig:
        c = self.peek()
        if c in PRIMITIVES and c != "V" and c:
            self.pos += 1
            return BaseType(c)
        return self.reference_type()

    def reference_type(self) -> TypeSig:
        c = self.peek()
        if c == "L":
            return self.class_type()
        if c == "T":
            self.pos += 1
            name = self.identifier(".;[/<>:")
            self.expect(";")
            return TypeVar(name)
        if c == "[":
            dims = 0
            while self.peek() == "[":
                self.pos += 1
                dims += 1
            self.path += dims
            if dims > MAX_ARRAY_DIMS or self.path > MAX_PATH:
                raise self.fail("too many array dimensions")
            sig = self.java_type()
            self.path -= dims
            return _wrap_array(sig, dims)
        raise self.fail("expected type")

    def class_type(self) -> ClassTypeSig:
        self.expect("L")
        self.depth += 1
        self.path += 1
        if self.depth > MAX_NESTING or self.path > MAX_PATH:
            raise self.fail("type arguments nested too deeply")
        name = self.identifier(".;<>[:")
        _check_internal_name(name, self.text)
        args = self.type_args()
        inner: list[InnerClassSig] = []
        while self.peek() == ".":
            self.pos += 1
            iname = self.identifier(".;<>[/:")
            inner.append(InnerClassSig(iname, self.type_args()))
        self.expect(";")
        self.depth -= 1
        self.path -= 1
        return ClassTypeSig(name, args, tuple(inner))

    def type_args(self) -> tuple[TypeArg, ...]:
        if self.peek() != "<":
            return ()
        self.pos += 1
        args: list[TypeArg] = []
        while self.peek() != ">":
            c = self.peek()
            if c == "*":
                self.pos += 1
                args.append(TypeArg("*", None))
            elif c in "+-" and c:
                self.pos += 1
                args.append(TypeArg(c, self.reference_type()))
            else:
                args.append(TypeArg("", self.reference_type()))
        if not args:
            raise self.fail("empty type argument list")
        self.pos += 1
        return tuple(args)

    def type_params(self) -> tuple[TypeParam, ...]:
        if self.peek() != "<":
            return ()
        self.pos += 1
        params: list[TypeParam] = []
        while self.peek() != ">":
            name = self.identifier(".;[/<>:")
            self.expect(":")
            class_bound = self.reference_type() if self.peek() in ("L", "T", "[") and self.peek() else None
            ifaces: list[TypeSig] = []
            while self.peek() == ":":
                self.pos += 1
                ifaces.append(self.reference_type())
            params.append(TypeParam(name, class_bound, tuple(ifaces)))
        if not params:
            raise self.fail("empty type parameter list")
        self.pos += 1
        return tuple(params)


def parse_type_signature(text: str) -> TypeSig:
    """Parse one JavaTypeSignature (field signature, descriptor, or `V`)."""
    if text == "V":
        return BaseType("V")
    r = _SigReader(text)
    sig = r.java_type()
    r.done()
    return sig


def parse_field_signature(text: str) -> TypeSig:
    """Parse a field `Signature` attribute (a reference type signature)."""
    r = _SigReader(text)
    sig = r.reference_type()
    r.done()
    return sig


def parse_class_signature(text: str) -> ClassSignature:
    """Parse a class `Signature` attribute: `<K:..>Lsuper;Liface;...`."""
    r = _SigReader(text)
    tps = r.type_params()
    superclass = r.class_type()
    ifaces: list[ClassTypeSig] = []
    while r.pos < len(text):
        ifaces.append(r.class_type())
    return ClassSignature(tps, superclass, tuple(ifaces))


def parse_method_signature(text: str) -> MethodSignature:
    """Parse a method `Signature` attribute or a plain method descriptor."""
    r = _SigReader(text)
    tps = r.type_params()
    r.expect("(")
    params: list[TypeSig] = []
    while r.peek() != ")":
        if not r.peek():
            raise r.fail("unterminated parameter list")
        params.append(r.java_type())
    r.pos += 1
    if r.peek() == "V":
        r.pos += 1
        ret: TypeSig = BaseType("V")
    else:
        ret = r.java_type()
    throws: list[TypeSig] = []
    while r.peek() == "^":
        r.pos += 1
        throws.append(r.reference_type())
    r.done()
    return MethodSignature(tps, tuple(params), ret, tuple(throws))


def render_type(sig: TypeSig, qualified: bool = True) -> str:
    """Java source syntax: `java.util.Map<K, V>`, `List<? super E>`, `int[]`.

    Qualified names keep `$` for nesting (`java.util.Map$Entry<K, V>`), like canonical refs.
    """
    if isinstance(sig, BaseType):
        return PRIMITIVES[sig.code]
    if isinstance(sig, TypeVar):
        return sig.name
    if isinstance(sig, ArrayTypeSig):
        component, dims = _unwrap_array(sig)
        return render_type(component, qualified) + "[]" * dims
    head = internal_to_fqn(sig.name) if qualified else nested_simple_name(sig.name)
    text = head + _render_args(sig.args, qualified)
    for inner in sig.inner:
        text += "." + inner.name + _render_args(inner.args, qualified)
    return text


def _render_args(args: tuple[TypeArg, ...], qualified: bool) -> str:
    return "<" + ", ".join(render_type_arg(a, qualified) for a in args) + ">" if args else ""


def render_type_arg(arg: TypeArg, qualified: bool = True) -> str:
    """`?`, `? extends T`, `? super T`, or the plain type."""
    if arg.wildcard == "*" or arg.type is None:
        return "?"
    return {"+": "? extends ", "-": "? super "}.get(arg.wildcard, "") + render_type(arg.type, qualified)


def _is_object(sig: TypeSig | None) -> bool:
    return isinstance(sig, ClassTypeSig) and sig.binary_name == OBJECT and not sig.args


def render_type_params(params: tuple[TypeParam, ...], qualified: bool = True) -> str:
    """`<K, V extends java.lang.Comparable<? super V>>`; a lone `Object` bound is omitted."""
    if not params:
        return ""
    parts = []
    for p in params:
        bounds = [b for b in p.bounds if not (_is_object(b) and len(p.bounds) == 1)]
        parts.append(p.name + (" extends " + " & ".join(render_type(b, qualified) for b in bounds) if bounds else ""))
    return "<" + ", ".join(parts) + ">"


def format_signature(node: TypeSig | TypeArg | ClassSignature | MethodSignature) -> str:
    """Inverse of the parsers: the JVMS signature string for a tree."""
    if isinstance(node, BaseType):
        return node.code
    if isinstance(node, TypeVar):
        return f"T{node.name};"
    if isinstance(node, ArrayTypeSig):
        component, dims = _unwrap_array(node)
        return "[" * dims + format_signature(component)
    if isinstance(node, TypeArg):
        return "*" if node.wildcard == "*" else node.wildcard + format_signature(node.type)
    if isinstance(node, ClassTypeSig):
        text = "L" + node.name + _format_args(node.args)
        for inner in node.inner:
            text += "." + inner.name + _format_args(inner.args)
        return text + ";"
    if isinstance(node, ClassSignature):
        return (_format_type_params(node.type_params) + format_signature(node.superclass)
                + "".join(format_signature(i) for i in node.interfaces))
    if isinstance(node, MethodSignature):
        return (_format_type_params(node.type_params) + "("
                + "".join(format_signature(p) for p in node.params) + ")"
                + format_signature(node.return_type)
                + "".join("^" + format_signature(t) for t in node.throws))
    raise ValueError(f"not a signature node: {node!r}")


def _format_args(args: tuple[TypeArg, ...]) -> str:
    return "<" + "".join(format_signature(a) for a in args) + ">" if args else ""


def _format_type_params(params: tuple[TypeParam, ...]) -> str:
    if not params:
        return ""
    out = []
    for p in params:
        cb = format_signature(p.class_bound) if p.class_bound is not None else ""
        out.append(p.name + ":" + cb + "".join(":" + format_signature(b) for b in p.interface_bounds))
    return "<" + "".join(out) + ">"


RAW = "<raw>"  # env key (no type variable's name): the type is seen raw (JLS §4.8); see raw_env


@dataclass(frozen=True)
class RawView:
    """The value under RAW: the raw type's own type variables with their leftmost bounds, to erase them by."""
    bounds: tuple[tuple[str, TypeSig], ...] = ()


def raw_env(params: tuple[TypeParam, ...] = ()) -> dict:
    """Env of a type seen raw (`class R extends ArrayList`): substitute erases what it is given (JLS §4.8)."""
    return {RAW: RawView(tuple(type_param_bounds(params).items()))}


def is_raw(env: dict | None) -> bool:
    return bool(env) and RAW in env


def erase_sig(node, bounds: dict[str, TypeSig] | None = None):
    """The erasure (JLS §4.6) of a TypeSig, TypeArg or MethodSignature as a tree: `List<E>` -> `List`, a type
    variable -> the erasure of its leftmost bound; a method loses its type parameters."""
    bounds = bounds or {}
    if isinstance(node, MethodSignature):
        inner = {**bounds, **type_param_bounds(node.type_params)}
        return MethodSignature((), tuple(erase_sig(p, inner) for p in node.params), erase_sig(node.return_type, inner),
                               tuple(erase_sig(t, inner) for t in node.throws))
    if isinstance(node, TypeArg):
        return node if node.type is None else TypeArg(node.wildcard, erase_sig(node.type, bounds))
    if isinstance(node, TypeParam):
        return TypeParam(node.name, None if node.class_bound is None else erase_sig(node.class_bound, bounds),
                         tuple(erase_sig(b, bounds) for b in node.interface_bounds))
    if isinstance(node, BaseType):
        return node
    return parse_type_signature(erasure(node, bounds))


def type_vars_of(node) -> set[str]:
    """Names of the type variables a signature tree mentions (a method's own included)."""
    out: set[str] = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, TypeVar):
            out.add(n.name)
        elif isinstance(n, ArrayTypeSig):
            stack.append(n.component)
        elif isinstance(n, TypeArg):
            if n.type is not None:
                stack.append(n.type)
        elif isinstance(n, ClassTypeSig):
            stack.extend(n.args)
            stack.extend(a for i in n.inner for a in i.args)
        elif isinstance(n, TypeParam):
            stack.extend(n.bounds)
        elif isinstance(n, MethodSignature):
            stack.extend((*n.type_params, *n.params, n.return_type, *n.throws))
        elif isinstance(n, ClassSignature):
            stack.extend((*n.type_params, n.superclass, *n.interfaces))
    return out


def _fresh(name: str, taken: set[str]) -> str:
    """`V` -> `V1` (`V2`, ... when taken)."""
    i = 1
    while f"{name}{i}" in taken:
        i += 1
    return f"{name}{i}"


def _own_params_env(node, env: dict) -> tuple[object, dict]:
    """A generic declaration's own type parameters shadow env; those a substituted type would capture (an
    inherited `<V> andThen` in `Clash<V> extends Function<String, V>`) are renamed first (`V` -> `V1`).
    (node renamed, the env its body takes)."""
    own = {p.name for p in node.type_params}
    inner_env = {k: v for k, v in env.items() if k not in own}
    used = type_vars_of(node)
    brought: set[str] = set()
    for k in used - own:
        if k in inner_env:
            brought |= type_vars_of(inner_env[k])
    clash = own & brought
    if not clash:
        return node, inner_env
    taken = used | brought | set(own)
    rename: dict[str, TypeSig] = {}
    for p in node.type_params:
        if p.name in clash:
            new = _fresh(p.name, taken)
            taken.add(new)
            rename[p.name] = TypeVar(new)
    # the renaming is itself a substitution, with nothing of env in it and nothing to capture
    params = tuple(TypeParam(rename[p.name].name if p.name in rename else p.name,
                             None if p.class_bound is None else substitute(p.class_bound, rename),
                             tuple(substitute(b, rename) for b in p.interface_bounds)) for p in node.type_params)
    if isinstance(node, MethodSignature):
        node = MethodSignature(params, tuple(substitute(p, rename) for p in node.params),
                               substitute(node.return_type, rename), tuple(substitute(t, rename) for t in node.throws))
    else:
        node = ClassSignature(params, substitute(node.superclass, rename),
                              tuple(substitute(i, rename) for i in node.interfaces))
    return node, inner_env


def substitute(node, env: dict[str, TypeSig]):
    """Replace type variables by env entries in a TypeSig, TypeArg, TypeParam or MethodSignature.

    A method's own type parameters shadow env (`<T> void f(T)` inside `class C<T>`), and are renamed where a
    substituted type would capture them (`<V> f(V, T)` with T -> V reads `<V1> f(V1, V)`). An env of a raw type
    (raw_env) erases instead (JLS §4.8).
    """
    if not env:
        return node
    if RAW in env:
        return erase_sig(node, dict(env[RAW].bounds))
    if isinstance(node, TypeVar):
        return env.get(node.name, node)
    if isinstance(node, BaseType):
        return node
    if isinstance(node, ArrayTypeSig):
        component, dims = _unwrap_array(node)
        return _wrap_array(substitute(component, env), dims)
    if isinstance(node, TypeArg):
        return node if node.type is None else TypeArg(node.wildcard, substitute(node.type, env))
    if isinstance(node, ClassTypeSig):
        return ClassTypeSig(
            node.name, tuple(substitute(a, env) for a in node.args),
            tuple(InnerClassSig(i.name, tuple(substitute(a, env) for a in i.args)) for i in node.inner),
        )
    if isinstance(node, TypeParam):
        cb = None if node.class_bound is None else substitute(node.class_bound, env)
        return TypeParam(node.name, cb, tuple(substitute(b, env) for b in node.interface_bounds))
    if isinstance(node, MethodSignature):
        node, inner_env = _own_params_env(node, env)
        return MethodSignature(
            tuple(substitute(p, inner_env) for p in node.type_params),
            tuple(substitute(p, inner_env) for p in node.params),
            substitute(node.return_type, inner_env),
            tuple(substitute(t, inner_env) for t in node.throws),
        )
    if isinstance(node, ClassSignature):
        node, inner_env = _own_params_env(node, env)
        return replace(
            node,
            type_params=tuple(substitute(p, inner_env) for p in node.type_params),
            superclass=substitute(node.superclass, inner_env),
            interfaces=tuple(substitute(i, inner_env) for i in node.interfaces),
        )
    raise ValueError(f"not a signature node: {node!r}")


def type_arg_env(params: tuple[TypeParam, ...], applied: ClassTypeSig) -> dict[str, TypeSig]:
    """Env binding a supertype's type params to the arguments a subclass applied.

    `class StringList extends ArrayList<String>`: params of ArrayList (`<E>`) with applied
    `ArrayList<String>` give {'E': String}. Raw use or a count mismatch gives {} (erasure).
    Wildcard arguments bind to their bound (`? extends T` -> T, `?`/`? super T` -> Object).
    """
    args = applied.inner[-1].args if applied.inner else applied.args
    if len(args) != len(params):
        return {}
    return {p.name: a.type if a.wildcard in ("", "+") and a.type is not None else ClassTypeSig(OBJECT)
            for p, a in zip(params, args)}


def type_param_bounds(*param_lists: tuple[TypeParam, ...]) -> dict[str, TypeSig]:
    """Leftmost bound of each type variable; later lists (a method's) shadow earlier (its class's)."""
    bounds: dict[str, TypeSig] = {}
    for params in param_lists:
        for p in params:
            bounds[p.name] = p.bounds[0] if p.bounds else ClassTypeSig(OBJECT)
    return bounds


def erasure(sig: TypeSig, bounds: dict[str, TypeSig] | None = None) -> str:
    """Erased field descriptor of a type: type variables erase to their leftmost bound, else Object."""
    bounds = bounds or {}
    seen: set[str] = set()
    dims = 0
    while True:
        if isinstance(sig, ArrayTypeSig):
            dims += 1
            sig = sig.component
        elif isinstance(sig, TypeVar):
            if sig.name in seen or sig.name not in bounds:
                return "[" * dims + "L" + OBJECT + ";"  # unknown or cyclic bound: Object
            seen.add(sig.name)
            sig = bounds[sig.name]
        elif isinstance(sig, BaseType):
            return "[" * dims + sig.code
        elif isinstance(sig, ClassTypeSig):
            return "[" * dims + "L" + sig.binary_name + ";"
        else:
            raise ValueError(f"not a type signature: {sig!r}")


def erased_method_descriptor(sig: MethodSignature, class_bounds: dict[str, TypeSig] | None = None) -> str:
    """Descriptor a method signature erases to, given its class's type-variable bounds."""
    bounds = dict(class_bounds or {})
    bounds.update(type_param_bounds(sig.type_params))
    return ("(" + "".join(erasure(p, bounds) for p in sig.params) + ")"
            + erasure(sig.return_type, bounds))
