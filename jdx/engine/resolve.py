"""Type references to graph types: exact, nested, short names; ambiguity (exit 2) and did-you-mean (exit 1)."""

from __future__ import annotations

import difflib

from jdx.engine.refs import SymbolRef, parse_ref
from jdx.errors import AmbiguousError, NotFoundError, UsageError
from jdx.graph_schema import queries
from jdx.graph_schema.store import GraphStore


def _candidate(row: dict, artifacts: dict[str, str]) -> dict:
    return {"ref": row["fqn"], "kind": row.get("kind", ""), "artifact": artifacts.get(row.get("artifact", ""), "")}


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
            raise AmbiguousError(
                f"ambiguous: {len(rows)} candidates for {text}",
                candidates=[_candidate(r, arts) for r in rows],
                hint="re-run with one of the refs above",
            )
    raise NotFoundError(f"not found: {text}", candidates=did_you_mean(store, ref.type_name))


def did_you_mean(store: GraphStore, name: str, limit: int = 5) -> list[dict]:
    """Camel-hump match, then edit distance, then the same simple name in other packages (spec §16)."""
    rows = store.rows(queries.TYPES_ALL_NAMES)
    simple = name.replace("$", ".").rsplit(".", 1)[-1]
    arts = artifact_names(store)
    picked: list[dict] = []
    seen: set[str] = set()

    def add(row: dict) -> None:
        if row["fqn"] not in seen and len(picked) < limit:
            seen.add(row["fqn"])
            picked.append({"ref": row["fqn"], "artifact": arts.get(row["artifact"], "")})

    humps = "".join(ch for ch in simple if ch.isupper())
    if len(humps) >= 2:
        for row in sorted(rows, key=lambda r: (len(r["simple"]), r["fqn"])):
            if row["humps"].startswith(humps) and row["simple"].lower().startswith(simple[:1].lower()):
                add(row)
                if len(picked) >= 2:
                    break
    by_simple: dict[str, list[dict]] = {}
    for row in rows:
        by_simple.setdefault(row["simple"], []).append(row)
    for match in difflib.get_close_matches(simple, list(by_simple), n=limit, cutoff=0.75):
        for row in sorted(by_simple[match], key=lambda r: r["fqn"]):
            add(row)
    for row in sorted(by_simple.get(simple, []), key=lambda r: r["fqn"]):
        add(row)
    return picked
