"""JVM names and descriptors (JVMS §4.2, §4.3). Pure functions, no I/O.

Names come in three spellings throughout jdx:

    internal  java/util/Map$Entry     (class files, descriptors)
    fqn       java.util.Map$Entry     (canonical refs: dots for packages, `$` for nesting)
    simple    Map.Entry               (source-like, package dropped, `$` shown as `.`; `Foo$1`, `Foo$1Row` kept)

Every parser here raises ``ValueError`` on malformed input and never loops or recurses
without bound. Callers import these through `jdx.engine.descriptors`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

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


# the internal names of the top-level classes whose own name holds a `$` that nests nothing (Scala's `None$` and
# `$colon$colon`, the JDK's generated `BoundMethodHandle$Species_L`), while an answer is made (`literal_dollars`)
_LITERAL: ContextVar[Callable[[], frozenset[str]] | None] = ContextVar("literal_dollars", default=None)


@contextmanager
def provided_once(var: ContextVar, provider: Callable[[], object]) -> Iterator[None]:
    """While answering: `var` holds a function giving `provider()`, which it calls at most once, when first asked
    (what an answer may need of the workspace graph, asked only if it does)."""
    cache: list = []

    def once():
        if not cache:
            cache.append(provider())
        return cache[0]

    token = var.set(once)
    try:
        yield
    finally:
        var.reset(token)


def literal_dollars(provider: Callable[[], frozenset[str]]):
    """While answering: `provider()` gives the top-level class names holding a literal `$` (the workspace graph's
    classes no InnerClasses entry nests), asked on the first name with a `$` after its first character; without it
    a `$` between two other characters is read as nesting."""
    return provided_once(_LITERAL, provider)


def _nesting(simple: str, package: str) -> list[str]:
    """`Map$Entry` -> [Map, Entry]; a top-level class holding a literal `$` keeps it whole (`$less$colon$less`, and
    [List$, Foo] for a class nested in `List$`)."""
    provider = _LITERAL.get() if "$" in simple[1:] else None
    names = provider() if provider is not None else frozenset()
    if names:
        for cut in [len(simple)] + [i for i in range(len(simple) - 1, 0, -1) if simple[i] == "$"]:
            if package + simple[:cut] in names:
                rest = simple[cut:]
                return [simple[:cut]] + (_NEST_SEP.split(rest[1:]) if rest else [])
    return _NEST_SEP.split(simple)


def _joined(parts: list[str]) -> str:
    """[Map, Entry] -> `Map.Entry`; a class no source names keeps javac's binary name, as javap and stack traces print
    it: an anonymous `Foo$1`, a local `Foo$1Row` (its `Row` names nothing outside its block), `Foo$1Row.Cell` for a
    member of one."""
    out = parts[0]
    for part in parts[1:]:
        out += ("$" if part[:1].isdigit() else ".") + part
    return out


def _parts(internal: str) -> list[str]:
    """The nesting of a class's internal name (or a shadowed copy's graph id `name@<artifact>`, refs.format_type)."""
    if "@" in internal:
        internal = _SHADOW_SUFFIX.sub("", internal)
    cut = internal.rfind("/") + 1
    return _nesting(internal[cut:], internal[:cut])


def nested_simple_name(internal: str) -> str:
    """Source-like name without package: `java/util/Map$Entry` -> `Map.Entry`; `Foo$1`, `Foo$1Row` as they are."""
    return _joined(_parts(internal))


def source_fqn(fqn: str) -> str:
    """A type as Java source names it: `java.util.Map$Entry` -> `java.util.Map.Entry`, `scala.None$` as it is (and
    `a.Foo$1Row`, a local class, as javac names it)."""
    package, dot, simple = fqn.rpartition(".")
    return package + dot + _joined(_nesting(simple, package.replace(".", "/") + "/" if dot else ""))


def simple_name_of(internal: str) -> str:
    """Innermost simple name: `java/util/Map$Entry` -> `Entry`, `Foo$1` -> `1`, `Foo$1Row` -> `1Row`, `$Proxy3` ->
    `$Proxy3`."""
    return _parts(internal)[-1]


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
