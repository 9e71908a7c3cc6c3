"""The lambdas and method references that create an interface (REFERENCES kinds `lambda`, `method_ref`: an
invokedynamic of LambdaMetafactory, JLS §15.27.4): implementations no class file holds, which `implementors` and
`overrides` count beside the classes they list (`usages --kind impl` lists them)."""

from __future__ import annotations

import networkx as nx

from jdx.engine.members import ACC
from jdx.engine.refs import format_type
from jdx.engine.relations import ArtifactFilter, Artifacts, rows_by_ids
from jdx.graph_schema import queries_graph as q
from jdx.graph_schema.store import GraphStore

LAMBDA_KINDS = ("lambda", "method_ref")  # REFERENCES kinds of an invokedynamic creating a functional interface


def lambda_implementations(store: GraphStore, root: dict, interfaces: list[str], filter: ArtifactFilter,
                           arts: Artifacts) -> dict | None:
    """The lambdas and method references (REFERENCES kinds lambda, method_ref) whose code `filter` keeps that create
    an instance of the interface `root` (JLS §15.27.4: no class file implements it, so `implementors` lists none of
    them), and of its sub-interfaces among `interfaces`, which create one too; None when there are none (or `root`
    is a class; an external type's kind is unknown: its lambdas say it is an interface)."""
    if root.get("kind") != "interface" and not root.get("external"):
        return None
    counts: dict[str, dict[str, int]] = {}
    for r in rows_by_ids(store, q.LAMBDAS_INTO, [root["id"], *interfaces]):
        if filter.accepts(arts, r["artifact"]):
            mine = counts.setdefault(r["target"], dict.fromkeys(LAMBDA_KINDS, 0))
            mine[r["kind"]] += r["n"]
    if not counts:
        return None
    own = counts.pop(root["id"], dict.fromkeys(LAMBDA_KINDS, 0))
    name = format_type(root["id"])
    out = {"count": sum(own.values()), **own,
           "command": " ".join(x for x in (f"jdx usages {name} --kind impl", filter.describe()) if x)}
    subs = sorted(((sum(c.values()), format_type(t)) for t, c in counts.items()), key=lambda x: (-x[0], x[1]))
    if subs:
        out["sub_interfaces"] = [{"type": t, "count": n} for n, t in subs]
    return out


def interface_lambdas(store: GraphStore, type_id: str, filter: ArtifactFilter) -> dict | None:
    """`lambda_implementations` of a type by id (`overrides` of an interface's abstract method: each lambda of the
    interface or of a sub-interface implements it)."""
    rows = rows_by_ids(store, q.TYPES_BY_IDS, [type_id])
    if not rows:
        return None
    subs = sorted(r["id"] for r in store.rows(q.SUB_INTERFACES, {"id": type_id}))
    return lambda_implementations(store, rows[0], subs, filter, Artifacts.of(store))


# an interface's abstract redeclaration of a public Object method is no functional method (JLS §9.8)
_OBJECT_METHODS = frozenset(("equals(Ljava/lang/Object;)Z", "hashCode()I", "toString()Ljava/lang/String;"))


def method_lambdas(store: GraphStore, method_id: str, access: int, filter: ArtifactFilter) -> dict | None:
    """`interface_lambdas` of an interface's abstract method's owner: the lambdas and method references of that
    interface (or of a sub-interface) each implement the method, as no class file does (`overrides` lists those)."""
    owner, _, rest = method_id.partition("#")
    if not access & ACC["abstract"] or access & ACC["static"] or rest in _OBJECT_METHODS:
        return None
    return interface_lambdas(store, owner, filter)


def sub_interfaces(g: nx.DiGraph, root: str, types) -> list[str]:
    """The interfaces among the subtypes in `g` (the down graph of `root`; `types`: its rows, rel_hierarchy's)."""
    return sorted(n for n in g if n != root and (types.rows.get(n) or {}).get("kind") == "interface")
