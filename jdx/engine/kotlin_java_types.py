"""Java classes as the Kotlin view's supertype chain reads them (docs/kotlin.md): a Java class between Kotlin
classes (`C : JavaMid<String>`, `JavaMid<T> extends KotlinTop<T>`) passes its generic signature's arguments on as the
platform types Kotlin sees (`String!`, `T!`); a type with no Kotlin text the renderer can give stays unknown. A type
argument a query writes (`members 'Box<String>'`) reads as the Kotlin type the caller means (`written_type`)."""

from __future__ import annotations

from jdx.engine import descriptors

_JAVA_TO_KOTLIN = {"java/lang/Object": "kotlin/Any", "java/lang/Character": "kotlin/Char",
                   "java/lang/Integer": "kotlin/Int", "java/lang/annotation/Annotation": "kotlin/Annotation",
                   **{f"java/lang/{k}": f"kotlin/{k}" for k in (
                       "String", "CharSequence", "Throwable", "Cloneable", "Number", "Comparable", "Enum", "Boolean",
                       "Byte", "Short", "Long", "Float", "Double")}}
_PRIMITIVE_ARRAYS = {"Z": "Boolean", "C": "Char", "B": "Byte", "S": "Short", "I": "Int", "F": "Float", "J": "Long",
                     "D": "Double"}
# Java types Kotlin sees as `(Mutable)List<..>!` or `Array<(out) ..>!`: a form the Kotlin renderer has no text for
_MUTABILITY_FLEXIBLE = frozenset({"java/lang/Iterable", "java/util/Iterator", "java/util/Collection", "java/util/List",
                                  "java/util/Set", "java/util/Map", "java/util/Map$Entry", "java/util/ListIterator"})


class _Unreadable(Exception):
    """A Java type with no Kotlin text the renderer can give."""


def java_class(row: dict):
    """A Java class as the Kotlin supertype chain reads it (`KmClass`: type parameters and supertypes in Kotlin
    terms; a supertype's argument with no Kotlin text is left unknown)."""
    from jdx.kotlin.model import KmClass, KmType, KmTypeParameter

    try:
        sig = descriptors.parse_class_signature(row["signature"]) if row.get("signature") else None
    except ValueError:
        return None
    if sig is None:  # not generic: its supertypes are plain (or raw)
        names = [row.get("super"), *(row.get("interfaces") or [])]
        supers, params = [descriptors.ClassTypeSig(n) for n in names if n], ()
    else:
        supers, params = [sig.superclass, *sig.interfaces], sig.type_params
    return KmClass(row["id"], type_parameters=[KmTypeParameter(i, p.name) for i, p in enumerate(params)],
                   supertypes=[KmType(_kotlin_name(s.binary_name), arguments=[_supertype_arg(a) for a in _args(s)])
                               for s in supers])


def _args(sig) -> tuple:
    return sig.inner[-1].args if sig.inner else sig.args


def _supertype_arg(arg) -> tuple:
    try:
        return _kotlin_arg(arg)
    except _Unreadable:
        return "", None  # its parameter stays unknown (substitute._arguments)


def _kotlin_arg(arg) -> tuple:
    """A Java type argument as Kotlin sees it: `? extends T` is `out T!`, `?` is `*`."""
    return ("*", None) if arg.type is None else ({"+": "out", "-": "in"}.get(arg.wildcard, ""),
                                                _kotlin_type(arg.type))


def _kotlin_type(sig):
    """A Java type signature as the platform type Kotlin sees (`String` is `String!`, `T` is `T!`)."""
    from jdx.kotlin.model import KmType

    if isinstance(sig, descriptors.TypeVar):
        return KmType(sig.name, "typeparam", flexible_upper=KmType(sig.name, "typeparam", nullable=True))
    if isinstance(sig, descriptors.ArrayTypeSig) and isinstance(sig.component, descriptors.BaseType):
        name, args = f"kotlin/{_PRIMITIVE_ARRAYS[sig.component.code]}Array", []
    elif isinstance(sig, descriptors.ClassTypeSig) and sig.binary_name not in _MUTABILITY_FLEXIBLE and not (
            sig.inner and (sig.args or any(i.args for i in sig.inner[:-1]))):  # no generic outer class
        name, args = _kotlin_name(sig.binary_name), [_kotlin_arg(a) for a in _args(sig)]
    else:
        raise _Unreadable(sig)
    return KmType(name, arguments=args, flexible_upper=KmType(name, arguments=args, nullable=True))


def _kotlin_name(internal: str) -> str:
    """`java/lang/String` -> `kotlin/String`; `a/B$C` -> `a/B.C` (the metadata's spelling)."""
    name = _JAVA_TO_KOTLIN.get(internal)
    if name is None:
        package = descriptors.package_of(internal).replace(".", "/")
        name = (package + "/" if package else "") + descriptors.nested_simple_name(internal)
    return name


# Java's collection interfaces under the names a Kotlin caller writes (kotlin-reflect's JavaToKotlinClassMap: read-only)
_COLLECTIONS = {"java/lang/Iterable": "kotlin/collections/Iterable",
                "java/util/Iterator": "kotlin/collections/Iterator",
                "java/util/Collection": "kotlin/collections/Collection", "java/util/List": "kotlin/collections/List",
                "java/util/Set": "kotlin/collections/Set", "java/util/Map": "kotlin/collections/Map",
                "java/util/Map$Entry": "kotlin/collections/Map.Entry",
                "java/util/ListIterator": "kotlin/collections/ListIterator"}


def written_type(sig):
    """A type argument written in a query (`members 'Box<String>'`, a JVM type) as the Kotlin type it stands for:
    `String` is `kotlin.String` (not `String!`: the caller named it), `int[]` is `IntArray`, `String[]` is
    `Array<String>`, `List<? extends Number>` is `List<out Number>`; None for a type with no Kotlin text."""
    from jdx.kotlin.model import KmType

    if isinstance(sig, descriptors.ArrayTypeSig):
        if isinstance(sig.component, descriptors.BaseType):
            return KmType(f"kotlin/{_PRIMITIVE_ARRAYS[sig.component.code]}Array")
        element = written_type(sig.component)
        return None if element is None else KmType("kotlin/Array", arguments=[("", element)])
    if not isinstance(sig, descriptors.ClassTypeSig) or (
            sig.inner and (sig.args or any(i.args for i in sig.inner[:-1]))):  # no generic outer class
        return None
    args = []
    for a in _args(sig):
        if a.type is None:
            args.append(("*", None))
            continue
        inner = written_type(a.type)
        if inner is None:
            return None
        args.append(({"+": "out", "-": "in"}.get(a.wildcard, ""), inner))
    return KmType(_COLLECTIONS.get(sig.binary_name) or _kotlin_name(sig.binary_name), arguments=args)
