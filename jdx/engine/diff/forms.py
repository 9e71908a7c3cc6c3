"""Printed forms of a diff's findings: canonical refs (spec §6) and one-line Java-like declarations."""

from __future__ import annotations

from functools import lru_cache

from jdx.engine import descriptors
from jdx.engine.diff.surface import (
    ABSTRACT,
    FINAL,
    NATIVE,
    STATIC,
    SYNCHRONIZED,
    VARARGS_OR_TRANSIENT,
    VOLATILE_OR_BRIDGE,
    Member,
    TypeInfo,
)
from jdx.engine.refs import format_member, format_type


# A diff prints the same few thousand descriptors many times over: each is parsed (and validated) once per process.
descriptor_to_java = lru_cache(maxsize=65536)(descriptors.descriptor_to_java)


@lru_cache(maxsize=65536)
def _method_descriptor(desc: str) -> tuple[tuple[str, ...], str]:
    params, ret = descriptors.parse_method_descriptor(desc)
    return tuple(params), ret


def parse_method_descriptor(desc: str) -> tuple[tuple[str, ...], str]:
    """`(ILjava/lang/String;)V` -> (('I', 'Ljava/lang/String;'), 'V'), memoised."""
    return _method_descriptor(desc)


def member_ref(m: Member, owner: str | None = None) -> str:
    return format_member(owner or m.owner, m.name, m.descriptor, is_field=m.is_field,
                         varargs=not m.is_field and bool(m.access & VARARGS_OR_TRANSIENT))


def member_id(m: Member) -> str:
    return f"{m.owner}#{m.name}:{m.descriptor}" if m.is_field else f"{m.owner}#{m.name}{m.descriptor}"


def type_ref(name: str) -> str:
    return format_type(name)


def java_type(desc: str) -> str:
    return descriptor_to_java(desc)


def param_list(m: Member) -> str:
    params, _ = parse_method_descriptor(m.descriptor)
    return "(" + ", ".join(descriptor_to_java(p) for p in params) + ")"


def _modifiers(level: str, access: int, is_field: bool) -> list[str]:
    words = [] if level == "package" else [level]
    if access & STATIC:
        words.append("static")
    if access & ABSTRACT:
        words.append("abstract")
    if access & FINAL:
        words.append("final")
    if not is_field:
        if access & SYNCHRONIZED:
            words.append("synchronized")
        if access & NATIVE:
            words.append("native")
    else:
        if access & VOLATILE_OR_BRIDGE:
            words.append("volatile")
        if access & VARARGS_OR_TRANSIENT:
            words.append("transient")
    return words


def member_form(m: Member) -> str:
    """`public static java.lang.String valueOf(int) throws java.io.IOException`, `public static final int X = 3`."""
    words = _modifiers(m.level, m.access, m.is_field)
    if m.in_interface and not m.is_field and not m.access & (ABSTRACT | STATIC) and m.level != "private":
        words.insert(1, "default")  # an interface's method with a body (javap and the JLS say so)
    if m.is_field:
        text = " ".join(words + [java_type(m.descriptor), m.name])
        return text + (f" = {descriptors.render_constant(m.descriptor, m.constant)}" if m.constant is not None else "")
    params, ret = parse_method_descriptor(m.descriptor)
    shown = [descriptor_to_java(p) for p in params]
    if m.access & VARARGS_OR_TRANSIENT and shown and shown[-1].endswith("[]"):
        shown[-1] = shown[-1][:-2] + "..."
    head = " ".join(words + ([] if m.name == "<init>" else [descriptor_to_java(ret)]))
    name = type_ref(m.owner).rsplit(".", 1)[-1] if m.name == "<init>" else m.name
    text = f"{head} {name}({', '.join(shown)})".strip()
    if m.exceptions:
        text += " throws " + ", ".join(type_ref(e) for e in m.exceptions)
    if m.default is not None:
        text += f" default {m.default}"
    return text


def type_form(t: TypeInfo) -> str:
    """`public abstract class com.x.A extends com.x.B implements com.x.I`."""
    # on a class 0x20 is ACC_SUPER and 0x100 means nothing: never `synchronized`/`native` (JVMS §4.1)
    access = t.access & ~(SYNCHRONIZED | NATIVE | (ABSTRACT if t.kind in ("interface", "annotation") else 0))
    words = _modifiers(t.level, access, False)
    if t.kind in ("enum", "record"):
        words = [w for w in words if w != "final"]
    kind = {"annotation": "@interface"}.get(t.kind, t.kind)
    text = " ".join(words + [kind, type_ref(t.name)])
    if t.kind == "class" and t.superclass and t.superclass != "java/lang/Object":
        text += " extends " + type_ref(t.superclass)
    if t.interfaces and t.kind != "annotation":
        text += (" extends " if t.kind == "interface" else " implements ") + ", ".join(
            type_ref(i) for i in t.interfaces)
    return text


def generic_form(signature: str | None, kind: str) -> str:
    """A Signature attribute as Java: `<T> (java.util.List<T>, int): java.util.List<java.lang.String>` (method),
    `<T> (java.util.List<T>)` (constructor: no return type), `<T> extends java.io.OutputStream` (class),
    `java.util.List<java.lang.String>` (field); `(none)` when absent. Unparseable text is shown as it is."""
    from jdx.engine import descriptors as d

    if signature is None:
        return "(none)"
    try:
        if kind in ("method", "constructor"):
            sig = d.parse_method_signature(signature)
            head = d.render_type_params(sig.type_params)
            text = f"({', '.join(d.render_type(p) for p in sig.params)})"
            if kind == "method":
                text += f": {d.render_type(sig.return_type)}"
            return f"{head} {text}" if head else text
        if kind == "class":
            sig = d.parse_class_signature(signature)
            parts = [d.render_type_params(sig.type_params), "extends " + d.render_type(sig.superclass)]
            if sig.interfaces:
                parts.append("implements " + ", ".join(d.render_type(i) for i in sig.interfaces))
            return " ".join(p for p in parts if p)
        return d.render_type(d.parse_field_signature(signature))
    except ValueError:
        return signature


def _canon(node, env: dict[str, str]):
    """A signature tree with its type variables renamed by env and `? extends Object` written `?`."""
    d = descriptors
    if isinstance(node, d.TypeVar):
        return d.TypeVar(env.get(node.name, node.name))
    if isinstance(node, d.BaseType):
        return node
    if isinstance(node, d.ArrayTypeSig):
        return d.ArrayTypeSig(_canon(node.component, env))
    if isinstance(node, d.TypeArg):
        if node.wildcard == "+" and node.type == d.ClassTypeSig(d.OBJECT):
            return d.TypeArg("*", None)  # JLS §4.5.1: `? extends Object` is `?`
        return node if node.type is None else d.TypeArg(node.wildcard, _canon(node.type, env))
    if isinstance(node, d.ClassTypeSig):
        return d.ClassTypeSig(node.name, tuple(_canon(a, env) for a in node.args),
                              tuple(d.InnerClassSig(i.name, tuple(_canon(a, env) for a in i.args))
                                    for i in node.inner))
    if isinstance(node, d.TypeParam):
        return d.TypeParam(env.get(node.name, node.name),
                           None if node.class_bound is None else _canon(node.class_bound, env),
                           tuple(_canon(b, env) for b in node.interface_bounds))
    raise ValueError(f"not a signature node: {node!r}")


def _positional(params, prefix: str, env: dict[str, str]) -> dict[str, str]:
    # a type parameter's name is not part of the API (JLS §13.4.4, §13.4.13): its position is
    return {**env, **{p.name: f"?{prefix}{i}" for i, p in enumerate(params)}}


def _owner_env(owner_signature: str | None) -> dict[str, str]:
    if owner_signature is None:
        return {}
    try:
        return _positional(descriptors.parse_class_signature(owner_signature).type_params, "C", {})
    except ValueError:
        return {}


def class_generic_key(t: TypeInfo, common: frozenset[str]) -> tuple:
    """What of a class's generic signature can matter between two versions: its type parameters (renamed by
    position) and the generic form of each direct supertype in `common` (those both versions name). A supertype
    added or removed is SUPERTYPE_ADDED/REMOVED's, so a class whose only change is a new parameterized interface
    (raw before: no Signature at all; `Callable<Integer>` after) keeps its key. A class with no Signature reads
    as raw supertypes. Unparseable text is itself."""
    d = descriptors
    if t.signature is None:
        return (), tuple(sorted((s, s) for s in (t.superclass, *t.interfaces) if s is not None and s in common))
    try:
        sig = d.parse_class_signature(t.signature)
    except ValueError:
        return (t.signature,), ()
    env = _positional(sig.type_params, "C", {})
    params = tuple(_canon(p, env) for p in sig.type_params)
    supers = []
    for s in (sig.superclass, *sig.interfaces):
        if s.binary_name in common:
            canon = _canon(s, env)
            raw = not s.args and not any(i.args for i in s.inner)
            supers.append((s.binary_name, s.binary_name if raw else d.format_signature(canon)))
    return params, tuple(sorted(supers))


def _type_vars(node, into: set[str]) -> set[str]:
    """The names of the type variables `node` (a signature tree) uses."""
    d = descriptors
    if isinstance(node, d.TypeVar):
        into.add(node.name)
    elif isinstance(node, d.ArrayTypeSig):
        _type_vars(node.component, into)
    elif isinstance(node, d.TypeArg):
        if node.type is not None:
            _type_vars(node.type, into)
    elif isinstance(node, d.ClassTypeSig):
        for a in (*node.args, *(a for i in node.inner for a in i.args)):
            _type_vars(a, into)
    elif isinstance(node, d.TypeParam):
        for b in node.bounds:
            _type_vars(b, into)
    return into


def signature_arity(signature: str | None, descriptor: str) -> int:
    """How many parameters a method's Signature lists (its descriptor's when it has none or it does not parse): fewer
    than the descriptor when javac leaves out parameters no source writes (JVMS §4.7.9.1: an inner class's outer
    instance, an enum's name and ordinal, a local or anonymous class's captured variables)."""
    for text in (signature, descriptor):
        if text is not None:
            try:
                return len(descriptors.parse_method_signature(text).params)
            except ValueError:
                continue
    return 0


def _last(params: tuple, last: int | None) -> tuple:
    return params if last is None else params[len(params) - last:]


def generic_key_lined_up(signature: str | None, descriptor: str, owner_signature: str | None, last: int) -> str:
    """The generic key (`generic_key`) of a method compared with a version whose Signature lists another number of
    parameters: only its last `last` parameters, those both line up with (a Signature leaves out leading ones: an
    outer instance, an enum's name and ordinal), and a method without a Signature read as its descriptor (raw
    types). Unparseable text is itself."""
    d = descriptors
    try:
        sig = d.parse_method_signature(signature if signature is not None else descriptor)
    except ValueError:
        return signature or descriptor
    env = _positional(sig.type_params, "M", _owner_env(owner_signature))
    return d.format_signature(d.MethodSignature(
        tuple(_canon(p, env) for p in sig.type_params), tuple(_canon(p, env) for p in _last(sig.params, last)),
        _canon(sig.return_type, env), tuple(_canon(t, env) for t in sig.throws)))


def generic_key_beside_return(signature: str | None, descriptor: str, owner_signature: str | None = None,
                              last: int | None = None) -> str:
    """The generic key of a method whose erased return type changed (RETURN_TYPE_CHANGED already reports it, its
    generic form with it, spec §7.7: no avalanche): parameters and throws, and only the type parameters they still
    name (a `<T extends X> T get()` whose bound moved is that one return change). A method without a Signature
    reads as its descriptor (raw types). `last`: only the last `last` parameters (`generic_key_lined_up`).
    Unparseable text is itself."""
    d = descriptors
    try:
        sig = d.parse_method_signature(signature if signature is not None else descriptor)
    except ValueError:
        return signature or descriptor
    sig = d.MethodSignature(sig.type_params, _last(sig.params, last), sig.return_type, sig.throws)
    rest = (*sig.params, *sig.throws)
    by_name = {p.name: p for p in sig.type_params}
    named: set[str] = set()
    todo: set[str] = set()
    for node in rest:
        _type_vars(node, todo)
    while todo:  # a kept type parameter's bounds keep the ones they name (`<T, L extends List<T>>`)
        name = todo.pop()
        if name not in named:
            named.add(name)
            if name in by_name:
                _type_vars(by_name[name], todo)
    kept = tuple(p for p in sig.type_params if p.name in named)
    env = _positional(kept, "M", _owner_env(owner_signature))
    return d.format_signature(d.MethodSignature(
        tuple(_canon(p, env) for p in kept), tuple(_canon(p, env) for p in sig.params), d.BaseType("V"),
        tuple(_canon(t, env) for t in sig.throws)))


def generic_key(signature: str | None, kind: str, owner_signature: str | None = None) -> str | None:
    """The Signature attribute with what cannot matter to a user taken out, for comparing two versions: type
    parameters renamed by position (the owner class's too), `? extends Object` as `?`. Unparseable text is itself."""
    if signature is None:
        return None
    d = descriptors
    try:
        if kind == "class":
            sig = d.parse_class_signature(signature)
            env = _positional(sig.type_params, "C", {})
            return d.format_signature(d.ClassSignature(
                tuple(_canon(p, env) for p in sig.type_params), _canon(sig.superclass, env),
                tuple(_canon(i, env) for i in sig.interfaces)))
        env = _owner_env(owner_signature)
        if kind == "method":
            sig = d.parse_method_signature(signature)
            env = _positional(sig.type_params, "M", env)
            return d.format_signature(d.MethodSignature(
                tuple(_canon(p, env) for p in sig.type_params), tuple(_canon(p, env) for p in sig.params),
                _canon(sig.return_type, env), tuple(_canon(t, env) for t in sig.throws)))
        return d.format_signature(_canon(d.parse_field_signature(signature), env))
    except ValueError:
        return signature


def raw_params_wildcarded(old: tuple[str | None, str, str | None], new: tuple[str | None, str, str | None]) -> bool:
    """Whether two versions of a method differ only in parameters whose raw type became its unbounded-wildcard
    parameterization (`Class` -> `Class<?>`, `Map[]` -> `Map<?, ?>[]`): a raw argument converts to it without an
    unchecked warning, a parameterized one is contained by it, and a subclass overriding the old form still
    overrides (JLS §8.4.2: its signature is the erasure of the new one), so no call or override stops compiling.
    Each side is (Signature, descriptor, the owner class's Signature); a method without a Signature reads as its
    descriptor (raw types). Any other change (a return type, a bound, a type parameter) is not one."""
    changed = _changed_params(old, new)
    return bool(changed) and all(_wildcarded(o, n) for o, n in changed)


def params_widened(old: tuple[str | None, str, str | None], new: tuple[str | None, str, str | None]) -> bool:
    """Whether two versions of a method differ only in parameter types the new one widens: each new type a supertype
    of the old by type-argument containment alone (JLS §4.10.2, §4.5.1: `Collection<Iterator<? extends E>>` ->
    `Collection<? extends Iterator<? extends E>>`, `List<T>` -> `List<?>`), or raw types made `?` ones. Every
    argument a call passed before is still accepted; only an override (or a hiding static method) of the old form
    clashes with the new one (same erasure, not a subsignature), so it breaks no caller of a member nothing outside
    can override. Sides as for `raw_params_wildcarded`."""
    changed = _changed_params(old, new)
    return bool(changed) and all(_wildcarded(o, n) or _subtype(o, n) for o, n in changed)


def _changed_params(old: tuple[str | None, str, str | None], new: tuple[str | None, str, str | None]) -> list:
    """The (old, new) parameter types that differ, canonical (type variables by position), when nothing else of the
    two methods' signatures does (type parameters, return type, throws, arity); [] otherwise."""
    d = descriptors
    sigs = []
    for signature, descriptor, owner in (old, new):
        try:
            sig = d.parse_method_signature(signature if signature is not None else descriptor)
        except ValueError:
            return []
        env = _positional(sig.type_params, "M", _owner_env(owner))
        sigs.append((tuple(_canon(p, env) for p in sig.type_params), tuple(_canon(p, env) for p in sig.params),
                     _canon(sig.return_type, env), tuple(_canon(t, env) for t in sig.throws)))
    (o_tp, o_params, o_ret, o_throws), (n_tp, n_params, n_ret, n_throws) = sigs
    if (o_tp, o_ret, o_throws) != (n_tp, n_ret, n_throws) or len(o_params) != len(n_params):
        return []
    return [(o, n) for o, n in zip(o_params, n_params) if o != n]


def _subtype(old, new) -> bool:
    """Whether `old` is `new` or, as the same generic class, a subtype of it by its type arguments alone: each of
    `new`'s arguments contains `old`'s (JLS §4.10.2). No class hierarchy is consulted: a narrower answer, never a
    wrong one."""
    d = descriptors
    if old == new:
        return True
    if not isinstance(old, d.ClassTypeSig) or not isinstance(new, d.ClassTypeSig) or old.name != new.name:
        return False
    if [i.name for i in old.inner] != [i.name for i in new.inner]:
        return False
    olds = (old.args, *(i.args for i in old.inner))
    news = (new.args, *(i.args for i in new.inner))
    return all(len(o) == len(n) and all(_contains(a, b) for a, b in zip(o, n)) for o, n in zip(olds, news))


def _contains(old, new) -> bool:
    """Whether type argument `new` contains `old` (JLS §4.5.1): `?` contains any; `? extends T` contains `S` and
    `? extends S` when S is a subtype of T; `? super T` contains `S` and `? super S` when T is a subtype of S; an exact
    argument only itself."""
    if old == new or new.wildcard == "*":
        return True
    if new.wildcard == "+" and old.wildcard in ("", "+"):
        return _subtype(old.type, new.type)
    if new.wildcard == "-" and old.wildcard in ("", "-"):
        return _subtype(new.type, old.type)
    return False


def _wildcarded(old, new) -> bool:
    """Whether `new` is the raw class type `old` with every type argument (of it and its inner classes) `?`."""
    d = descriptors
    if isinstance(old, d.ArrayTypeSig) and isinstance(new, d.ArrayTypeSig):
        return _wildcarded(old.component, new.component)
    if not isinstance(old, d.ClassTypeSig) or not isinstance(new, d.ClassTypeSig) or old.name != new.name:
        return False
    if old.args or any(i.args for i in old.inner) or [i.name for i in old.inner] != [i.name for i in new.inner]:
        return False
    args = (*new.args, *(a for i in new.inner for a in i.args))
    return bool(args) and all(a.wildcard == "*" for a in args)
