"""Kotlin class names to JVM descriptors, as the compiler omits what it can recompute (ClassMapperLite and
JvmProtoBufUtil in the Kotlin repository, Apache-2.0; spec §12.1)."""

from __future__ import annotations

import re

from jdx.kotlin.model import KmType

# kotlinc's JVM name of a function taking or returning an inline (value) class: the name, `-`, a 7-character hash of
# the inline-class types (`delay-VtjQ1oo`, `get-pVg5ArA`); `name` is the declaration's own
MANGLED = re.compile(r"(?P<name>[\w$]+)-[\w-]{7}")


def _build() -> dict[str, str]:
    m: dict[str, str] = {}
    for k, d in (("Boolean", "Z"), ("Char", "C"), ("Byte", "B"), ("Short", "S"), ("Int", "I"), ("Float", "F"),
                 ("Long", "J"), ("Double", "D")):
        m[f"kotlin/{k}"] = d
        m[f"kotlin/{k}Array"] = "[" + d
    m["kotlin/Unit"] = "V"

    def add(kotlin: str, java: str) -> None:
        m[f"kotlin/{kotlin}"] = f"L{java};"

    add("Any", "java/lang/Object")
    add("Nothing", "java/lang/Void")
    add("Annotation", "java/lang/annotation/Annotation")
    for k in ("String", "CharSequence", "Throwable", "Cloneable", "Number", "Comparable", "Enum"):
        add(k, f"java/lang/{k}")
    for k in ("Iterator", "Collection", "List", "Set", "Map", "ListIterator"):
        add(f"collections/{k}", f"java/util/{k}")
        add(f"collections/Mutable{k}", f"java/util/{k}")
    add("collections/Iterable", "java/lang/Iterable")
    add("collections/MutableIterable", "java/lang/Iterable")
    add("collections/Map.Entry", "java/util/Map$Entry")
    add("collections/MutableMap.MutableEntry", "java/util/Map$Entry")
    for i in range(23):
        add(f"Function{i}", f"kotlin/jvm/functions/Function{i}")
        add(f"reflect/KFunction{i}", "kotlin/reflect/KFunction")
    for k in ("Char", "Byte", "Short", "Int", "Float", "Long", "Double", "String", "Enum"):
        add(f"{k}.Companion", f"kotlin/jvm/internal/{k}CompanionObject")
    return m


CLASS_MAP = _build()


def map_class(name: str) -> str:
    """A Kotlin class name (`a/b/C.D`) as the JVM descriptor the compiler assumes by default."""
    got = CLASS_MAP.get(name)
    return got if got is not None else "L" + name.replace(".", "$") + ";"


def default_type(t: KmType | None) -> str | None:
    """The default descriptor of a type, or None when it is not a plain class (the compiler then writes one)."""
    if t is None or t.kind != "class":
        return None
    return map_class(t.classifier)


def default_method_desc(types: list[KmType | None], ret: KmType | None, constructor: bool = False) -> str | None:
    parts = []
    for t in types:
        d = default_type(t)
        if d is None:
            return None
        parts.append(d)
    r = "V" if constructor else default_type(ret)
    if r is None:
        return None
    return "(" + "".join(parts) + ")" + r


def jvm_internal_name(name: str) -> str:
    """`a/b/C.D` -> `a/b/C$D` (a local class name's leading `.` is dropped)."""
    return name.lstrip(".").replace(".", "$")
