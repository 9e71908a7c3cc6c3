"""JVM descriptors (JVMS §4.3) and generic signatures (JVMS §4.7.9.1). Pure functions, no I/O.

The names every caller imports: names and descriptors (`jvm_names`), signature trees, their parser and printers
(`generic_signatures`), which classes a line prints qualified (`clashing_names`), and here the type algebra over
the trees: substitution, erasure, raw types (JLS §4.5, §4.6, §4.8).

Names come in three spellings throughout jdx:

    internal  java/util/Map$Entry     (class files, descriptors)
    fqn       java.util.Map$Entry     (canonical refs: dots for packages, `$` for nesting)
    simple    Map.Entry               (source-like, package dropped, `$` shown as `.`)

Every parser raises ``ValueError`` on malformed input and never loops or recurses without bound.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from jdx.engine.clashing_names import class_names, clashing_names  # noqa: F401  (re-exported)
from jdx.engine.generic_signatures import (  # noqa: F401  (re-exported)
    ArrayTypeSig,
    BaseType,
    CaptureVar,
    ClassSignature,
    ClassTypeSig,
    InnerClassSig,
    MethodSignature,
    Qualify,
    TypeArg,
    TypeParam,
    TypeSig,
    TypeVar,
    _unwrap_array,
    _wrap_array,
    capture,
    format_signature,
    parse_class_signature,
    parse_field_signature,
    parse_method_signature,
    parse_type_signature,
    render_type,
    render_type_arg,
    render_type_params,
    signature_nodes,
)
from jdx.engine.jvm_names import (  # noqa: F401  (re-exported)
    MAX_ARRAY_DIMS,
    MAX_NESTING,
    MAX_PATH,
    OBJECT,
    PRIMITIVE_CODES,
    PRIMITIVES,
    descriptor_to_java,
    erase_generics,
    fqn_to_internal,
    internal_to_fqn,
    java_to_descriptor,
    literal_dollars,
    name_segments,
    nested_simple_name,
    package_of,
    parse_method_descriptor,
    provided_once,
    simple_name_of,
    source_fqn,
    split_field_descriptor,
)


def takes_outer_instance(outer: str | None, local_or_anonymous: bool, access: int, kind: str | None) -> bool:
    """Whether the constructors of a nested class take its outer class's instance as a hidden first parameter
    (JLS §8.8.1, JVMS §4.7.6): a member class (InnerClasses names an outer and no enclosing method) that is not
    `static`; member interfaces, enums and records are implicitly static. Local and anonymous classes also take
    captured values, in no order certain enough to drop: False for them. `kind` None is a class."""
    return bool(outer) and not local_or_anonymous and not access & 0x0208 and kind in ("class", None)


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
    return {n.name for n in signature_nodes(node) if isinstance(n, TypeVar)}


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


_CHAR_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t", "\\": "\\\\", "'": "\\'"}


def _unseen(ch: str) -> bool:
    """A character a terminal does not show as itself: controls, format characters (zero-width space, BOM), line and
    paragraph separators, spaces other than ' ' (no-break space), private-use, unassigned and surrogate code points."""
    import unicodedata

    cat = unicodedata.category(ch)
    return cat in ("Cc", "Cf", "Zl", "Zp", "Co", "Cn", "Cs") or (cat == "Zs" and ch != " ")


def _shown(literal: str) -> str:
    """A string or char literal with every unseen character as `\\uXXXX`, as javap -constants prints it (a raw one is
    never part of an escape sequence the extractor wrote, so escaping it cannot change the value)."""
    if literal.isascii() and literal.isprintable():
        return literal
    return "".join(f"\\u{ord(c):04x}" if _unseen(c) else c for c in literal)


# the extractor writes a NaN or an infinity as the constant expression the JDK declares it with (Double.java:
# `NaN = 0.0d / 0.0`); shown by the name an agent writes (javap -constants prints `NaNd`, `Infinityf`)
_NOT_FINITE = {"0.0d / 0.0": "Double.NaN", "1.0 / 0.0": "Double.POSITIVE_INFINITY",
               "-1.0 / 0.0": "Double.NEGATIVE_INFINITY", "0.0f / 0.0f": "Float.NaN",
               "1.0f / 0.0f": "Float.POSITIVE_INFINITY", "-1.0f / 0.0f": "Float.NEGATIVE_INFINITY"}


def render_constant(descriptor: str, value: str) -> str:
    """A ConstantValue as the Java literal of its field's type: the class file holds a `boolean` or `char` constant
    as an int (JVMS §4.7.2), so `Z` `1` is `true` and `C` `47` is `'/'`; characters a terminal does not show as
    themselves (controls, DEL, zero-width and format characters, line separators, no-break spaces) as `\\uXXXX`, as
    javap -constants prints them; every other value is already its literal."""
    if descriptor not in ("Z", "C"):
        return _shown(value) if value[:1] in ("\"", "'") else _NOT_FINITE.get(value, value)
    try:
        number = int(value)
    except ValueError:
        return value
    if descriptor == "Z":
        return "false" if number == 0 else "true"
    if not 0 <= number <= 0xFFFF:
        return value
    char = chr(number)
    if char in _CHAR_ESCAPES:
        return f"'{_CHAR_ESCAPES[char]}'"
    return _shown(f"'{char}'")
