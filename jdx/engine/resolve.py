"""Type references to graph types: exact, nested, short names; ambiguity (exit 2) and did-you-mean (exit 1)."""

from __future__ import annotations

from jdx.engine import descriptors as d
from jdx.engine.ranking import internal_packages, symbol_key
from jdx.engine.refs import SymbolRef, parse_ref
from jdx.errors import AmbiguousError, NotFoundError, UsageError
from jdx.graph_schema import queries
from jdx.graph_schema.store import GraphStore


def _candidate(row: dict, artifacts: dict[str, str]) -> dict:
    return {"ref": row["fqn"], "kind": row.get("kind", ""), "artifact": artifacts.get(row.get("artifact", ""), "")}


def ranked_types(store: GraphStore, rows: list[dict]) -> list[dict]:
    """Type rows (`id`, `access`, `artifact`) in the ranking of search and did-you-mean (ranking.symbol_key)."""
    from jdx.engine.search import artifact_table

    order = {a["id"]: a["rank"] for a in artifact_table(store)}
    internal = internal_packages(store)
    return sorted(rows, key=lambda r: (*symbol_key(r["id"], bool((r.get("access") or 0) & 1),
                                                   d.simple_name_of(r["id"]), order.get(r.get("artifact"), 0),
                                                   internal), r["id"]))


def artifact_names(store: GraphStore) -> dict[str, str]:
    return {r["a.id"]: r["a.name"] for r in store.rows_cached(queries.ARTIFACTS)}


def resolve_type(store: GraphStore, text: str) -> dict:
    """The Type row a reference names; raises NotFoundError/AmbiguousError with copy-pasteable candidates."""
    ref = parse_ref(text)
    if ref.member is not None and not ref.ambiguous_dot:
        raise UsageError(f"{text!r} names a member; this command takes a type")
    if ref.is_glob or ref.is_package_glob:
        raise UsageError(f"{text!r} is a glob; this command takes one type")
    return resolve_type_ref(store, ref, text)


def resolve_type_ref(store: GraphStore, ref: SymbolRef, text: str) -> dict:
    for fqn in ref.type_candidates():
        rows = store.rows_cached(queries.TYPE_BY_ID, {"id": fqn.replace(".", "/")})
        if rows and not rows[0]["t.external"]:
            return {k[2:]: v for k, v in rows[0].items()}
    if "." not in ref.type_name:
        simple = ref.simple_name
        rows = store.rows(queries.TYPES_BY_SIMPLE, {"name": simple})
        if "$" in ref.type_name:
            rows = [r for r in rows if r["fqn"].endswith("." + ref.type_name) or r["fqn"].endswith("$" + ref.type_name)]
        if len(rows) == 1:
            found = store.rows(queries.TYPE_BY_ID, {"id": rows[0]["id"]})
            return {k[2:]: v for k, v in found[0].items()}
        if len(rows) > 1:
            arts = artifact_names(store)
            rows = ranked_types(store, rows)
            raise AmbiguousError(
                f"ambiguous: {len(rows)} candidates for {text}",
                candidates=[_candidate(r, arts) for r in rows],
                hint="re-run with one of the refs above",
            )
    raise NotFoundError(f"not found: {text}", candidates=did_you_mean(store, ref.type_name))


def did_you_mean(store: GraphStore, name: str, limit: int = 5) -> list[dict]:
    """Near type names (spec §16): the matcher and ranking of `search --fuzzy` (search.near_names)."""
    from jdx.engine.search import near_names

    return [{"ref": c["ref"], "artifact": c["artifact"]} for c in near_names(store, name, limit=limit)]
