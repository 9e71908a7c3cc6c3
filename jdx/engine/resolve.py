"""Type references to graph types: exact, nested, short names; ambiguity (exit 2) and did-you-mean (exit 1)."""

from __future__ import annotations

import re

from jdx.coords import coordinate_of_path
from jdx.engine import descriptors as d
from jdx.engine.ranking import internal_packages, symbol_key
from jdx.engine.refs import SymbolRef, parse_ref
from jdx.errors import AmbiguousError, NotFoundError, UsageError
from jdx.graph_schema import queries, queries_search
from jdx.graph_schema.store import GraphStore, artifact_rows

_COORD_PART = re.compile(r"[A-Za-z0-9._+-]+")


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
    return {r["a.id"]: r["a.name"] for r in artifact_rows(store)}


def resolve_type(store: GraphStore, text: str) -> dict:
    """The Type row a reference names; raises NotFoundError/AmbiguousError with copy-pasteable candidates."""
    ref = parse_ref(text)
    if ref.member is not None and not ref.ambiguous_dot:
        raise UsageError(f"{text!r} names a member; this command takes a type")
    if ref.is_glob or ref.is_package_glob:
        raise UsageError(f"{text!r} is a glob; this command takes one type")
    return resolve_type_ref(store, ref, text)


def _artifact_coordinate(coord: str, name: str, path: str) -> bool:
    """Whether an artifact is `g:a:v[:classifier]`: named so (a resolved coordinate, a project module) or laid
    out so in a Maven repository or the Gradle cache."""
    parts = coord.split(":")
    if len(parts) == 5:  # Maven's long form g:a:extension:classifier:v, named g:a:v:classifier
        parts = [parts[0], parts[1], parts[4], parts[3]]
        coord = ":".join(parts)
    if name == coord or name.startswith(coord + " "):
        return True
    g, a, v = parts[0], parts[1], parts[2]
    file = f"{a}-{v}" + (f"-{parts[3]}" if len(parts) > 3 else "") + ".jar"
    maven = "/" + "/".join([*g.split("."), a, v, file])
    gradle_dir = f"/files-2.1/{g}/{a}/{v}/"
    return path.endswith(maven) or (gradle_dir in path and path.endswith("/" + file))


def _coordinate_of(name: str, path: str) -> str | None:
    """The `g:a:v[:classifier]` an artifact is known by: its name when it is one, else its Maven repository or
    Gradle cache layout; None when neither names it (a coordinate found must select it back, see
    _artifact_coordinate)."""
    head = name.split(" ", 1)[0]
    if 3 <= len(head.split(":")) <= 4 and all(_COORD_PART.fullmatch(p) for p in head.split(":")):
        found = head
    else:
        found = coordinate_of_path(path)
    return found if found and _artifact_coordinate(found, name, path) else None


def artifact_ref_prefixes(store: GraphStore) -> dict[str, str]:
    """Artifact key (first 16 hex, a shadowed copy's id suffix) -> the prefix a reference names it by
    (spec §6 `g:a:v/`): its coordinate, else its jar's file name; only prefixes that select exactly that
    artifact back (resolve_type_ref) are given."""
    rows = artifact_rows(store)
    named = {}
    for r in rows:
        name, path = r["a.name"] or "", r["a.path"] or ""
        coord = _coordinate_of(name, path)
        jar = path.replace("\\", "/").rsplit("/", 1)[-1]
        named[r["a.id"]] = coord or (jar if jar.endswith(".jar") else None)
    out = {}
    for key, prefix in named.items():
        if prefix and len(_scoped_artifacts(rows, prefix)) == 1:
            out[key[:16]] = prefix
    return out


def _scoped_artifacts(rows: list[dict], scope: str) -> list[dict]:
    """The artifacts a reference's `scope/` prefix selects: a coordinate (_artifact_coordinate) or a jar file
    name."""
    if scope.endswith(".jar"):
        return [r for r in rows if (r["a.path"] or "").replace("\\", "/").rsplit("/", 1)[-1] == scope]
    return [r for r in rows if _artifact_coordinate(scope, r["a.name"] or "", r["a.path"] or "")]


def _versions_present(store: GraphStore, coord: str) -> list[dict]:
    """Artifacts of the same group:artifact as `coord` in any other version, as coordinates."""
    g, a = coord.split(":")[:2]
    found = []
    for row in artifact_rows(store):
        name, path = row["a.name"] or "", row["a.path"] or ""
        version = None
        if name.startswith(f"{g}:{a}:"):
            version = name.split(" ")[0].split(":")[2]
        else:
            marker = "/" + "/".join([*g.split("."), a]) + "/"
            for m in (marker, f"/files-2.1/{g}/{a}/"):
                if m in path:
                    version = path.split(m, 1)[1].split("/", 1)[0]
                    break
        if version:
            found.append({"coord": f"{g}:{a}:{version}", "artifact": name})
    return found


def _resolve_in_coordinate(store: GraphStore, ref: SymbolRef, text: str, near: int = 5) -> dict:
    """Spec §6 `g:a:v/type`: the type as that artifact declares it (a shadowed copy included); exit 1 with the
    versions present when the workspace has no such artifact."""
    coord = ref.coord
    artifacts = _scoped_artifacts(artifact_rows(store), coord)
    if not artifacts:
        others = _versions_present(store, coord) if not coord.endswith(".jar") else []
        raise NotFoundError(
            f"not found: {coord} is not in the workspace"
            + (f" (present: {', '.join(sorted({o['coord'] for o in others}))})" if others else ""),
            candidates=[{"ref": f"{o['coord']}/{ref.type_name}", "artifact": o["artifact"]} for o in others],
            hint=("re-run with one of the refs above" if others else f"add it with --jars <path to {coord}>"
                  if coord.endswith(".jar") else f"add it with --coord {coord}"))
    ids = {r["a.id"] for r in artifacts}
    for fqn in ref.type_candidates():
        for copy in store.rows(queries_search.TYPE_COPIES, {"name": fqn.replace(".", "/")}):
            if copy["artifact"] in ids:
                found = store.rows(queries.TYPE_BY_ID, {"id": copy["id"]})
                return {k[2:]: v for k, v in found[0].items()}
    if "." not in ref.type_name:
        rows = [r for r in store.rows(queries.TYPES_BY_SIMPLE, {"name": ref.simple_name}) if r["artifact"] in ids]
        if len(rows) == 1:
            found = store.rows(queries.TYPE_BY_ID, {"id": rows[0]["id"]})
            return {k[2:]: v for k, v in found[0].items()}
        if len(rows) > 1:
            arts = artifact_names(store)
            raise AmbiguousError(f"ambiguous: {len(rows)} candidates for {text}",
                                 candidates=[{**_candidate(r, arts), "ref": f"{coord}/{r['fqn']}"}
                                             for r in ranked_types(store, rows)],
                                 hint="re-run with one of the refs above")
    raise NotFoundError(f"not found: {text} ({coord} is in the workspace; it has no type {ref.type_name})",
                        candidates=did_you_mean(store, ref.type_name, limit=near))


def resolve_type_ref(store: GraphStore, ref: SymbolRef, text: str, near: int = 5) -> dict:
    """The Type row `ref` names; a miss carries up to `near` near type names (a member lookup asks for more,
    to keep only those that have the member)."""
    if ref.coord:
        return _resolve_in_coordinate(store, ref, text, near)
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
    raise NotFoundError(f"not found: {text}", candidates=did_you_mean(store, ref.type_name, limit=near))


def did_you_mean(store: GraphStore, name: str, limit: int = 5) -> list[dict]:
    """Near type names (spec §16): the matcher and ranking of `search --fuzzy` (search.near_names)."""
    from jdx.engine.search import near_names

    return [{"ref": c["ref"], "artifact": c["artifact"]} for c in near_names(store, name, limit=limit)]
