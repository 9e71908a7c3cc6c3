"""Which classes a one-line declaration prints qualified (spec §9.3): jdx prints simple names for brevity, except
where one would name two classes: `public static okio.FileSystem get(java.nio.file.FileSystem)`. Pure functions."""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from jdx.engine.generic_signatures import ClassTypeSig, signature_nodes
from jdx.engine.jvm_names import _NEST_SEP, nested_simple_name, simple_name_of


def _enclosing(internal: str) -> list[str]:
    """A class and the classes it is nested in: `okio/FileSystem$Companion` -> itself, `okio/FileSystem`."""
    return [internal] + [internal[: m.start()] for m in _NEST_SEP.finditer(internal)]


def clashing_names(names: Iterable[str], context: Iterable[str] = ()) -> frozenset[str]:
    """Of the classes a line names (internal names), those to print qualified: each whose simple name another class
    of the line prints too (both are qualified), and each a reader would take for a context class of the same
    simple name (the declaring class, a class it is nested in, the queried class): `java.nio.file.FileSystem` in a
    member of `okio.FileSystem`. Every other class, `java.lang`'s and the context's own included, stays simple."""
    return _clashing(tuple(names), tuple(context))


@lru_cache(maxsize=1 << 16)  # members answers render the same lines again and again
def _clashing(names: tuple[str, ...], context: tuple[str, ...]) -> frozenset[str]:
    by_simple: dict[str, set[str]] = {}
    for n in names:
        by_simple.setdefault(nested_simple_name(n), set()).add(n)
    read_as: dict[str, set[str]] = {}
    for c in context:
        for e in _enclosing(c):
            for shown in (nested_simple_name(e), simple_name_of(e)):
                read_as.setdefault(shown, set()).add(e)
    out: set[str] = set()
    for simple, group in by_simple.items():
        if len(group) > 1:
            out |= group
        elif simple in read_as and not group <= read_as[simple]:
            out |= group
    return frozenset(out)


def class_names(*nodes) -> list[str]:
    """The internal names of the classes signature trees mention (type arguments and bounds included)."""
    return [n.binary_name for n in signature_nodes(*nodes) if isinstance(n, ClassTypeSig)]
