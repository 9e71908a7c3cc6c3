"""Generic signatures (JVMS §4.7.9.1) as trees: the parser, the Java-source and JVMS printers. Pure functions.

Callers import these through `jdx.engine.descriptors`; the type algebra over the trees (substitution, erasure, raw
types) is there too.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Union

from jdx.engine.jvm_names import (
    MAX_ARRAY_DIMS,
    MAX_NESTING,
    MAX_PATH,
    OBJECT,
    PRIMITIVES,
    _check_internal_name,
    internal_to_fqn,
    nested_simple_name,
)


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


@lru_cache(maxsize=1 << 16)  # a parse is immutable: one per distinct text
def parse_type_signature(text: str) -> TypeSig:
    """Parse one JavaTypeSignature (field signature, descriptor, or `V`)."""
    if text == "V":
        return BaseType("V")
    r = _SigReader(text)
    sig = r.java_type()
    r.done()
    return sig


@lru_cache(maxsize=1 << 16)  # a parse is immutable: one per distinct text
def parse_field_signature(text: str) -> TypeSig:
    """Parse a field `Signature` attribute (a reference type signature)."""
    r = _SigReader(text)
    sig = r.reference_type()
    r.done()
    return sig


@lru_cache(maxsize=1 << 16)  # a parse is immutable: one per distinct text
def parse_class_signature(text: str) -> ClassSignature:
    """Parse a class `Signature` attribute: `<K:..>Lsuper;Liface;...`."""
    r = _SigReader(text)
    tps = r.type_params()
    superclass = r.class_type()
    ifaces: list[ClassTypeSig] = []
    while r.pos < len(text):
        ifaces.append(r.class_type())
    return ClassSignature(tps, superclass, tuple(ifaces))


@lru_cache(maxsize=1 << 16)  # a parse is immutable: one per distinct text
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


# how render_type names classes: True qualified, False simple, or the internal names to qualify (clashing_names)
Qualify = Union[bool, frozenset]


def render_type(sig: TypeSig, qualified: Qualify = True) -> str:
    """Java source syntax: `java.util.Map<K, V>`, `List<? super E>`, `int[]`.

    Qualified names keep `$` for nesting (`java.util.Map$Entry<K, V>`), like canonical refs; `qualified` a set of
    internal names qualifies those alone (`java.nio.file.FileSystem` beside `FileSystem`).
    """
    if isinstance(sig, BaseType):
        return PRIMITIVES[sig.code]
    if isinstance(sig, TypeVar):
        return sig.name
    if isinstance(sig, ArrayTypeSig):
        component, dims = _unwrap_array(sig)
        return render_type(component, qualified) + "[]" * dims
    full = qualified if isinstance(qualified, bool) else (sig.binary_name in qualified or sig.name in qualified)
    head = internal_to_fqn(sig.name) if full else nested_simple_name(sig.name)
    text = head + _render_args(sig.args, qualified)
    for inner in sig.inner:
        text += "." + inner.name + _render_args(inner.args, qualified)
    return text


def _render_args(args: tuple[TypeArg, ...], qualified: Qualify) -> str:
    return "<" + ", ".join(render_type_arg(a, qualified) for a in args) + ">" if args else ""


def render_type_arg(arg: TypeArg, qualified: Qualify = True) -> str:
    """`?`, `? extends T`, `? super T`, or the plain type."""
    if arg.wildcard == "*" or arg.type is None:
        return "?"
    return {"+": "? extends ", "-": "? super "}.get(arg.wildcard, "") + render_type(arg.type, qualified)


def _is_object(sig: TypeSig | None) -> bool:
    return isinstance(sig, ClassTypeSig) and sig.binary_name == OBJECT and not sig.args


def render_type_params(params: tuple[TypeParam, ...], qualified: Qualify = True) -> str:
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


def signature_nodes(*nodes):
    """Every node of signature trees, depth first: type arguments, bounds, array components, a method's type
    parameters, parameters, return type and throws, a class's type parameters and supertypes."""
    stack = list(nodes)
    while stack:
        n = stack.pop()
        yield n
        if isinstance(n, ClassTypeSig):
            stack.extend(n.args)
            stack.extend(a for i in n.inner for a in i.args)
        elif isinstance(n, ArrayTypeSig):
            stack.append(n.component)
        elif isinstance(n, TypeArg):
            if n.type is not None:
                stack.append(n.type)
        elif isinstance(n, TypeParam):
            stack.extend(n.bounds)
        elif isinstance(n, MethodSignature):
            stack.extend((*n.type_params, *n.params, n.return_type, *n.throws))
        elif isinstance(n, ClassSignature):
            stack.extend((*n.type_params, n.superclass, *n.interfaces))
