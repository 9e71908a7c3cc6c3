"""One ranking of candidate symbols for search, ambiguity lists and did-you-mean (spec §7.2, §16).

After the match quality (exact, prefix, camel-hump, word; or the edit distance of a typo), what the user
most likely means comes first: workspace code, dependencies and the JDK's exported API before the JDK's
implementation packages, public before non-public (the workspace's own before the JDK's, which no one can use),
shorter simple names and fewer nesting levels first, then classpath order. An unqualified search puts one split
before the match quality (`reach`): public types first, public members next, the rest last. Which JDK packages
are implementation packages the JDK's module descriptors say
(`Package.jdk_internal`: held by a module, exported to no one: `sun.font`, `jdk.internal.misc`,
`com.sun.tools.javac.util`; `sun.misc` is exported by jdk.unsupported); a graph without them falls back to
the naming rule (`sun.*`, an `internal` segment under `jdk`, `com.sun`, `java`, `javax`). Internals stay
findable: an explicit package, `--package` or `--in` brings them up, since the ranking only orders what
matched."""

from __future__ import annotations

import re

from jdx.graph_schema import queries_search
from jdx.graph_schema.schema import ORIGIN_TIERS, RANK_TIER
from jdx.graph_schema.store import GraphStore

# the naming rule of the JDK's implementation packages, when the graph lacks the module descriptors' word
_INTERNAL = re.compile(r"(?:sun|(?:jdk|com[./]sun|javax?)(?:[./][^./]+)*?[./]internal)(?:[./]|$)")
# the search rank of the JDK's artifacts starts here (graph_schema.schema.origin_ranks)
JDK_RANK = ORIGIN_TIERS["jrt"] * RANK_TIER


def internal_packages(store: GraphStore) -> frozenset[str] | None:
    """Dotted names of the JDK packages no module exports, from the graph; None when the graph does not say."""
    key = ("jdk-internal-packages",)
    if key not in store.memo:
        rows = store.rows_cached(queries_search.JDK_PACKAGES)
        store.memo[key] = frozenset(r["name"] for r in rows if r["internal"]) if rows else None
    return store.memo[key]


def package_of(name: str) -> str:
    """`java/util/Map$Entry`, `java.util.Map$Entry`, `java.util.Map#get(java.lang.Object)` -> `java.util`."""
    owner = name.split("#", 1)[0].replace("/", ".")
    return owner.rsplit(".", 1)[0] if "." in owner else ""


def is_jdk_internal(name: str, internal: frozenset[str] | None = None, is_package: bool = False) -> bool:
    """Is a package, type (binary or internal name) or member ref in a JDK implementation package?
    `internal`: the module descriptors' answer (`internal_packages`); None uses the naming rule."""
    package = name.replace("/", ".") if is_package else package_of(name)
    if internal is not None:
        return package in internal
    return _INTERNAL.match(package + ".") is not None


def nesting(name: str) -> int:
    """How deep a type is nested (`Map$Entry` is 1); member refs count their owner's depth."""
    owner = name.split("#", 1)[0]
    return owner.rsplit("/", 1)[-1].rsplit(".", 1)[-1].count("$")


def symbol_key(owner: str, public: bool, simple: str, artifact_rank: int,
               internal: frozenset[str] | None = None) -> tuple:
    """The ranking key after the match tier: (internal, non-public, the JDK's non-public, length, nesting, classpath
    order). A non-public type no one outside the JDK can use (`java.util.stream.ReduceOps$1ReducingSink`) comes after
    the workspace's own non-public ones, whatever its length; the artifact's rank says it is the JDK's (no query)."""
    return (is_jdk_internal(owner, internal), not public, not public and artifact_rank >= JDK_RANK, len(simple),
            nesting(owner), artifact_rank)


# `reach`: what an unqualified search lists first, whatever the match tier
PUBLIC_TYPE, PUBLIC_MEMBER, NOT_PUBLIC = 0, 1, 2


def reach(is_type: bool, public: bool, internal: bool) -> int:
    """The first ranking key of an unqualified search: public types (packages and modules too) outside the JDK's
    implementation packages, then public members, then the rest, each by its match tier. An agent searching a
    concept (`visitor`) wants `ParseTreeVisitor` before sixteen non-public fields named `visitor` and the JDK's
    internal `Visitor`s, as IntelliJ's Search Everywhere lists Classes before Symbols."""
    if internal or not public:
        return NOT_PUBLIC
    return PUBLIC_TYPE if is_type else PUBLIC_MEMBER
