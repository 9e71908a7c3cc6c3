"""One ranking of candidate symbols for search, ambiguity lists and did-you-mean (spec §7.2, §16).

After the match quality (exact, prefix, camel-hump, word; or the edit distance of a typo), what the user
most likely means comes first: workspace code, dependencies and the JDK's exported API before the JDK's
implementation packages (`sun.*`, `com.sun.*.internal.*`, `jdk.internal.*`, `jdk.*.internal.*`), public before non-public,
shorter simple names and fewer nesting levels first, then classpath order. Internals stay findable: an
explicit package, `--package` or `--in` brings them up, since the ranking only orders what matched."""

from __future__ import annotations

import re

# the JDK's implementation packages: no module exports them (unqualified)
# (the naming rule of the JDK's module descriptors: `sun.*`, and an `internal` segment under `jdk`, `com.sun`,
# `java`, `javax`; `jdk.internal.*` included)
_INTERNAL = re.compile(r"(?:sun|(?:jdk|com[./]sun|javax?)(?:[./][^./]+)*?[./]internal)(?:[./]|$)")


def is_jdk_internal(name: str) -> bool:
    """Is a package, binary name (`a.b.C`), internal name (`a/b/C`) or member ref (`a.b.C#m(x.Y)`) in a JDK
    implementation package?"""
    return _INTERNAL.match(name.split("#", 1)[0]) is not None


def nesting(name: str) -> int:
    """How deep a type is nested (`Map$Entry` is 1); member refs count their owner's depth."""
    owner = name.split("#", 1)[0]
    return owner.rsplit("/", 1)[-1].rsplit(".", 1)[-1].count("$")


def symbol_key(owner: str, public: bool, simple: str, artifact_rank: int) -> tuple:
    """The ranking key after the match tier: (internal, non-public, length, nesting, classpath order)."""
    return (is_jdk_internal(owner), not public, len(simple), nesting(owner), artifact_rank)
