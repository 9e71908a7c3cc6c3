"""Type references to graph types: exact, nested, short names; ambiguity (exit 2) and did-you-mean (exit 1); type
arguments (`List<? extends Number>`) checked against their parameters' bounds (`type_bounds`, exit 3)."""

from __future__ import annotations

import re

from jdx.coords import coordinate_of_path
from jdx.engine import descriptors as d
from jdx.engine.ranking import internal_packages, symbol_key
from jdx.engine.picked_names import picked
from jdx.engine.refs import SymbolRef, parse_ref
from jdx.engine.type_bounds import check_bounds, class_type_params
from jdx.errors import AmbiguousError, NotFoundError, UsageError
from jdx.graph_schema import queries, queries_graph, queries_search
from jdx.graph_schema.store import GraphStore, artifact_rows

_COORD_PART = re.compile(r"[A-Za-z0-9._+-]+")
_LOCAL_NUMBER = re.compile(r"^\d+(?=\D)")  # javac's number before a local class's name (`Outer$1Row`: `Row`)


def _candidate(row: dict, artifacts: dict[str, str]) -> dict:
    out = {"ref": row["fqn"], "kind": row.get("kind", ""), "artifact": artifacts.get(row.get("artifact", ""), "")}
    if row.get("jdk_internal"):
        out["jdk_internal"] = True
    elif row.get("access") is not None and not row["access"] & 1:
        out["public"] = False  # package-private or a private nested class: no code outside can name it
    return out


def ranked_types(store: GraphStore, rows: list[dict]) -> list[dict]:
    """Type rows (`id`, `access`, `artifact`) in the ranking of search and did-you-mean (ranking.symbol_key), each
    with `jdk_internal`: a JDK type no code outside the JDK can use (non-exported package, or not public)."""
    from jdx.engine.search import artifact_table

    order = {a["id"]: a["rank"] for a in artifact_table(store)}
    internal = internal_packages(store)
    keyed = [((*symbol_key(r["id"], bool((r.get("access") or 0) & 1), d.simple_name_of(r["id"]),
                           order.get(r.get("artifact"), 0), internal), r["id"]), r) for r in rows]
    return [dict(r, jdk_internal=key[0] or key[2]) for key, r in sorted(keyed, key=lambda kr: kr[0])]


def _ambiguity_hint(rows: list[dict]) -> str:
    """Re-run with a ref; when all candidates but one are JDK internals, says which one code outside the JDK can use."""
    usable = [r for r in rows if not r["jdk_internal"]]
    if len(usable) == 1:
        others = "the other one is a JDK internal" if len(rows) == 2 else f"the other {len(rows) - 1} are JDK internals"
        return f"re-run with one of the candidates' refs; only {usable[0]['fqn']} is usable outside the JDK ({others})"
    return "re-run with one of the candidates' refs"


def artifact_names(store: GraphStore) -> dict[str, str]:
    return {r["a.id"]: r["a.name"] for r in artifact_rows(store)}


def declaring_artifacts(store: GraphStore, ids: list[str]) -> list[str]:
    """The artifact name of each type or member id's (declaring) type, "" for a type no artifact holds."""
    names = artifact_names(store)
    rows = [store.rows_cached(queries.TYPE_BY_ID, {"id": i.split("#", 1)[0]}) for i in ids]
    return [names.get((r[0]["t.artifact"] or "") if r else "", "") for r in rows]


def resolve_type(store: GraphStore, text: str, near: int = 5) -> dict:
    """The Type row a reference names; raises NotFoundError/AmbiguousError with copy-pasteable candidates (up to
    `near` near names on a miss)."""
    ref = parse_ref(text)
    if ref.member is not None and not ref.ambiguous_dot:
        raise UsageError(f"{text!r} names a member; this command takes a type")
    if ref.is_glob or ref.is_package_glob:
        raise UsageError(f"{text!r} is a glob; this command takes one type")
    return resolve_type_ref(store, ref, text, near)


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


def literal_dollar_names(store: GraphStore) -> frozenset[str]:
    """The workspace's top-level classes whose name holds a `$` that nests nothing (jvm_names.literal_dollars): as
    the graph's build recorded them (manifests.graph_facts), else asked of the graph."""
    if store.facts is not None:
        return frozenset(store.facts["literal_dollars"])
    from jdx.graph_schema.queries_graph import LITERAL_DOLLAR_NAMES

    return frozenset(r["name"] for r in store.rows_cached(LITERAL_DOLLAR_NAMES))


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
        version = name.split(" ")[0].split(":")[2] if name.startswith(f"{g}:{a}:") else None
        if version is None:
            marker = "/" + "/".join([*g.split("."), a]) + "/"
            for m in (marker, f"/files-2.1/{g}/{a}/"):
                if m in path:
                    version = path.split(m, 1)[1].split("/", 1)[0]
                    break
        if version:
            found.append({"coord": f"{g}:{a}:{version}", "artifact": name})
    return found


NOT_IN_WORKSPACE = "not found: {coord} is not in the workspace"


def _resolve_in_coordinate(store: GraphStore, ref: SymbolRef, text: str, near: int = 5) -> dict:
    """Spec §6 `g:a:v/type`: the type as that artifact declares it (a shadowed copy included); exit 1 with the
    versions present when the workspace has no such artifact."""
    coord = ref.coord
    artifacts = _scoped_artifacts(artifact_rows(store), coord)
    if not artifacts:
        others = _versions_present(store, coord) if not coord.endswith(".jar") else []
        raise NotFoundError(
            NOT_IN_WORKSPACE.format(coord=coord)
            + (f" (present: {', '.join(sorted({o['coord'] for o in others}))})" if others else ""),
            candidates=[{"ref": f"{o['coord']}/{ref.type_name}", "artifact": o["artifact"]} for o in others],
            hint=("re-run with one of the candidates' refs" if others else f"add it with --jars <path to {coord}>"
                  if coord.endswith(".jar") else f"add it with --coord {coord}"),
            coordinate=coord if ":" in coord else None)
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
                                 hint="re-run with one of the candidates' refs")
    raise NotFoundError(f"not found: {text} ({coord} is in the workspace; it has no type {ref.type_name})",
                        candidates=did_you_mean(store, ref.type_name, limit=near))


def resolve_type_ref(store: GraphStore, ref: SymbolRef, text: str, near: int = 5) -> dict:
    """The Type row `ref` names; a miss carries up to `near` near type names (a member lookup asks for more,
    to keep only those that have the member)."""
    if ref.coord:
        return _resolve_in_coordinate(store, ref, text, near)
    found = lookup_type(store, ref, text)
    if found is None and "." in ref.type_name and not ref.is_glob:
        found = inherited_member_type(store, ref, text)
    if found is not None:
        return found
    from jdx.engine.external_symbols import external_miss, external_type  # (on a miss only)

    external = external_type(store, ref)  # a short name too (external_type_named)
    miss = (external_miss(text, external["fqn"], external["fqn"]) if external is not None else
            _package_miss(store, ref.type_name, text) or
            NotFoundError(f"not found: {text}", candidates=did_you_mean(store, ref.type_name, limit=near)))
    if external is not None and external["fqn"] != text:  # `ReferenceCountUtil`: the external type it names
        miss.candidates = [external_candidate(external)]
    from jdx.engine import unbuilt_sources  # on a miss only: the cold path of a query that finds its type

    raise unbuilt_sources.not_found(store, ref, text, miss)  # a source directory declaring it says where


def _package_miss(store: GraphStore, name: str, text: str) -> NotFoundError | None:
    """The not-found of a package's name given where a type is wanted (`show java.util.concurrent`): it names the
    package, the one candidate, and how to browse it; None when no artifact holds types of a package `name`."""
    from jdx.engine.search import package_artifacts

    package = name.replace("/", ".")
    held = package_artifacts(store).get(package)
    if not held:
        return None
    return NotFoundError(f"not found: {text} is a package, not a type",
                         candidates=[{"ref": package, "kind": "package", "artifact": held[0]["name"]}],
                         hint=f"jdx ls {package} lists its types")


def lookup_type(store: GraphStore, ref: SymbolRef, text: str) -> dict | None:
    """The Type row of a binary or written name (`java.util.Map.Entry`, `Map$Entry`, `HashMap`); None when no type
    has that name; AmbiguousError when several share a short name."""
    for fqn in ref.type_candidates():
        rows = store.rows_cached(queries.TYPE_BY_ID, {"id": fqn.replace(".", "/")})
        if rows and not rows[0]["t.external"]:
            return {k[2:]: v for k, v in rows[0].items()}
    # a short name: `HashMap`, `Map$Entry`, or as source and jdx's own output write a nested class, `Map.Entry`
    short = ref.type_name if "." not in ref.type_name else (
        ref.type_name.replace(".", "$") if ref.type_name[:1].isupper() else None)
    if short is not None:
        simple = _LOCAL_NUMBER.sub("", ref.simple_name if short == ref.type_name else short.rsplit("$", 1)[-1])
        rows = store.rows(queries.TYPES_BY_SIMPLE, {"name": simple})
        if "$" in short:
            rows = [r for r in rows if r["fqn"].endswith("." + short) or r["fqn"].endswith("$" + short)]
        if len(rows) == 1:
            found = store.rows(queries.TYPE_BY_ID, {"id": rows[0]["id"]})
            return {k[2:]: v for k, v in found[0].items()}
        if len(rows) > 1:
            arts, rows = artifact_names(store), ranked_types(store, rows)
            if len(usable := [r for r in rows if not r["jdk_internal"]]) == 1:  # the rest JDK internals: picked_names
                picked(text, usable[0]["fqn"], [r["fqn"] for r in rows if r is not usable[0]])
                return {k[2:]: v for k, v in store.rows(queries.TYPE_BY_ID, {"id": usable[0]["id"]})[0].items()}
            raise AmbiguousError(f"ambiguous: {len(rows)} candidates for {text}",
                                 candidates=[_candidate(r, arts) for r in rows], hint=_ambiguity_hint(rows))
    return None


def external_types_named(store: GraphStore, written: str) -> list[dict]:
    """The external types (the workspace's code references them, none of its artifacts declares them) a simple or
    partly qualified name denotes (`ReferenceCountUtil`, `ObjectPool.Handle`, `ObjectPool$Handle`), matched as
    search_nav.types_named matches declared ones: by simple name, the dotted name ending with what was written."""
    simple = re.split(r"[.$]", written)[-1]
    suffix = written.replace("$", ".")
    rows = store.rows_cached(queries_graph.EXTERNAL_TYPES_NAMED, {"name": simple}) if simple else []
    return [r for r in rows if ("." + r["fqn"].replace("$", ".")).endswith("." + suffix)]


def external_type_named(store: GraphStore, ref: SymbolRef) -> dict | None:
    """The Type row of the one external type a short type name denotes (`ReferenceCountUtil`, a member ref's owner; a
    qualified name is external_symbols.external_type's), None when none does; AmbiguousError when several do.
    Declared types are looked up first (lookup_type): a workspace type of the name wins over external ones."""
    if ref.coord or ref.is_glob or ref.is_package_glob:
        return None
    rows = external_types_named(store, ref.type_name)
    if len(rows) > 1:
        raise AmbiguousError(f"ambiguous: {len(rows)} external types named {ref.type_name} (the workspace's code "
                             "references them, but their artifacts are not in the workspace)",
                             candidates=[external_candidate(r) for r in rows],
                             hint="re-run with one of the candidates' refs")
    found = store.rows_cached(queries.TYPE_BY_ID, {"id": rows[0]["id"]}) if rows else []
    return {k[2:]: v for k, v in found[0].items()} if found else None


def external_candidate(row: dict) -> dict:
    """An external type as a candidate: no artifact declares it (`(external)` stands in the artifact's place)."""
    return {"ref": row["fqn"], "kind": row["kind"], "artifact": "(external)", "external": True}


ACC_PRIVATE = 0x0002


def inherited_member_type(store: GraphStore, ref: SymbolRef, text: str) -> dict | None:
    """`Outer.Inner` where Outer inherits the member type Inner from a supertype (JLS §8.5: `HashMap.Entry` is
    `Map.Entry`, `Representer.RepresentDate` is `SafeRepresenter.RepresentDate`), as javac resolves it: the member
    types of that name Outer's direct supertypes declare or, not declaring one, inherit; two different ones are
    ambiguous (javac: "reference to Inner is ambiguous"). Private member types are not inherited."""
    prefix, _, inner = ref.type_name.rpartition(".")
    if not prefix or not inner[:1].isupper():
        return None
    try:
        outer = lookup_type(store, parse_ref(prefix), prefix)
    except AmbiguousError:
        return None
    if outer is None:
        return None
    rows = {outer["id"]: outer}
    for row in store.rows_cached(queries.SUPERTYPES_CLOSURE, {"id": outer["id"]}):
        rows[row["id"]] = row
    memo: dict[str, set[str]] = {}

    def inherited(type_id: str, depth: int = 0) -> set[str]:
        if type_id in memo or depth > 30:
            return memo.get(type_id, set())
        memo[type_id] = set()
        row = rows.get(type_id) or {}
        found: set[str] = set()
        for sup in [row.get("super"), *(row.get("interfaces") or [])]:
            if not sup or sup not in rows:
                continue
            own = store.rows_cached(queries.TYPE_BY_ID, {"id": f"{sup}${inner}"})
            if own and not own[0]["t.external"] and not (own[0]["t.access"] or 0) & ACC_PRIVATE:
                found.add(own[0]["t.id"])
            else:
                found |= inherited(sup, depth + 1)
        memo[type_id] = found
        return found

    hits = sorted(inherited(outer["id"]))
    if len(hits) == 1:
        return {k[2:]: v for k, v in store.rows_cached(queries.TYPE_BY_ID, {"id": hits[0]})[0].items()}
    if len(hits) > 1:
        arts = artifact_names(store)
        found = ranked_types(store, [{k[2:]: v for k, v in store.rows_cached(queries.TYPE_BY_ID, {"id": h})[0].items()}
                                     for h in hits])
        raise AmbiguousError(f"ambiguous: {text}: {outer['fqn']} inherits {len(hits)} member types "
                             f"named {inner}", candidates=[_candidate(r, arts) for r in found],
                             hint=_ambiguity_hint(found))
    return None


NEAR_POOL = 25  # near names a qualified miss orders by package before keeping `limit` of them
NEAR_ELSEWHERE = 2  # near names of other packages a miss keeps room for after its own package's types


def did_you_mean(store: GraphStore, name: str, limit: int = 5) -> list[dict]:
    """Near type names (spec §16): the matcher and ranking of `search --fuzzy` (search.near_names). A qualified
    name (`com.acme.app.Nope`) ranks near names of its package first, then those sharing more of its package's
    leading segments (the search ranking within each); when none of the package itself (a subpackage is not it) is
    near, its own types (nearest names first) come before near names elsewhere, leaving room for the NEAR_ELSEWHERE
    nearest of them."""
    from jdx.engine.search import near_names

    package = _written_package(name)
    found = near_names(store, name, limit=max(limit, NEAR_POOL) if package else limit)
    if package:
        segments = package.split(".")

        def package_of(c: dict) -> list[str]:
            return c["id"].rsplit("/", 1)[0].split("/") if "/" in c["id"] else []

        def shared(c: dict) -> tuple[bool, int]:
            """(in the package itself, leading package segments in common): a subpackage is not the package."""
            theirs = package_of(c)
            n = 0
            while n < min(len(theirs), len(segments)) and theirs[n] == segments[n]:
                n += 1
            return theirs == segments, n
        found.sort(key=lambda c: tuple(-x for x in shared(c)))  # stable: the search ranking within a tier
        if not found or package_of(found[0]) != segments:
            own = _package_types(store, package, name)
            if not own:  # a package no artifact holds: near names of unrelated packages are no help
                return _absent_package(store, package, name, [c for c in found if _related(package_of(c), segments)],
                                       limit)
            own = own[:max(0, limit - min(NEAR_ELSEWHERE, len(found)))]
            found = own + [c for c in found if all(c["ref"] != o["ref"] for o in own)]
    return [{"ref": c["ref"], "kind": c["kind"], "artifact": c["artifact"]} for c in found[:limit]]


def _related(theirs: list[str], segments: list[str]) -> bool:
    """A package near a written one that no artifact holds: sharing its first two segments (its only one), or a typo
    of it (edit distance up to 2: `java.utl`)."""
    from jdx.engine.search_match import levenshtein

    n = min(2, len(segments))
    return theirs[:n] == segments[:n] or levenshtein(".".join(theirs), ".".join(segments)) <= 2


def _absent_package(store: GraphStore, package: str, name: str, related: list[dict], limit: int) -> list[dict]:
    """Did-you-mean of a name in a package none of the workspace's artifacts holds: the external types the workspace
    references in it (they answer `usages`), nearest first, then near names of related packages (`_related`)."""
    from jdx.engine.search_match import levenshtein

    simple = re.split(r"[.$#/]", name.strip())[-1].lower()
    rows = store.rows_cached(queries_graph.EXTERNAL_TYPES_IN_PACKAGE, {"package": package})
    rows = sorted(rows, key=lambda r: (levenshtein(r["name"].lower(), simple), r["fqn"]))
    out = [external_candidate(r) for r in rows]
    return (out + [{"ref": c["ref"], "kind": c["kind"], "artifact": c["artifact"]} for c in related])[:limit]


def _written_package(name: str) -> str:
    """The package a written type name names (`com.acme.app` of `com.acme.app.Nope` or `com.acme.app.Main.Nope`):
    its dotted segments before the first capitalised one, the simple name excluded; "" for an unqualified name."""
    parts = name.strip().replace("/", ".").split(".")[:-1]
    out = []
    for part in parts:
        if not part or part[:1].isupper() or "$" in part:
            break
        out.append(part)
    return ".".join(out)


def _package_types(store: GraphStore, package: str, name: str) -> list[dict]:
    """The top-level types of `package`, nearest to `name`'s simple name first (edit distance, case ignored), public
    before non-public, then by name."""
    from jdx.engine.search import artifacts_by_id
    from jdx.engine.search_match import levenshtein

    simple = re.split(r"[.$#/]", name.strip())[-1].lower()
    arts = artifacts_by_id(store)
    rows = [r for r in store.rows_cached(queries_search.TYPES_IN_PACKAGE, {"package": package})
            if r["name"] not in ("package-info", "module-info") and not r["name"][:1].isdigit()]
    rows.sort(key=lambda r: (levenshtein(r["name"].lower(), simple), not (r["access"] or 0) & 1, r["fqn"]))
    return [{"ref": r["fqn"], "kind": r["kind"], "artifact": arts.get(r["artifact"], {}).get("name", "")}
            for r in rows]


def _split_args(text: str) -> list[str]:
    """`String, Map<K, V>` -> [`String`, `Map<K, V>`]: the top-level comma-separated parts."""
    parts, depth, start = [], 0, 0
    for i, c in enumerate(text):
        if c == "<":
            depth += 1
        elif c == ">":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts]


def _generic_head(text: str, whole: str) -> tuple[str, str | None]:
    """`java.util.List<String>` -> (`java.util.List`, `String`); no `<`: (text, None). Unbalanced brackets or
    anything after the closing `>` (`Outer<A>.Inner`, `List<A>[]`) is a usage error."""
    at = text.find("<")
    if at < 0:
        if ">" in text:
            raise UsageError(f"{whole!r}: unbalanced '>'")
        return text, None
    depth = 0
    for i in range(at, len(text)):
        depth += {"<": 1, ">": -1}.get(text[i], 0)
        if depth == 0:
            rest = text[i + 1:].strip()
            if rest.startswith(">"):
                raise UsageError(f"{whole!r}: unbalanced '>'")
            if rest:
                raise UsageError(f"{whole!r}: type arguments go on the last name only (`pkg.Type<Arg, ...>`)")
            inner = text[at + 1:i].strip()
            if not inner:
                raise UsageError(f"{whole!r}: empty type argument list")
            return text[:at].strip(), inner
    raise UsageError(f"{whole!r}: unbalanced '<'")


def _type_argument(store: GraphStore, text: str, whole: str, depth: int = 0) -> d.TypeArg:
    """One written type argument as a signature tree: a class type (its own arguments checked alike), an array or a
    wildcard (`?`, `? extends T`, `? super T`); primitives and names the workspace lacks are usage errors."""
    if depth > d.MAX_NESTING:
        raise UsageError(f"{whole!r}: type arguments nested too deeply")
    if not text:
        raise UsageError(f"{whole!r}: empty type argument")
    if text.startswith("?"):
        bound = _WILDCARD.fullmatch(text)
        if bound is None or (bound.group(1) is not None and not bound.group(2).strip()):
            raise UsageError(f"{whole!r}: malformed wildcard {text!r}: write `?`, `? extends T` or `? super T`")
        if bound.group(1) is None:
            return d.TypeArg("*", None)
        inner = _type_argument(store, bound.group(2).strip(), whole, depth + 1)
        if inner.wildcard:
            raise UsageError(f"{whole!r}: a wildcard's bound is a type, not a wildcard: {text!r}")
        return d.TypeArg("+" if bound.group(1) == "extends" else "-", inner.type)
    dims = 0
    while text.endswith("[]"):
        text, dims = text[:-2].rstrip(), dims + 1
    if text in d.PRIMITIVE_CODES:
        if not dims:
            box = {"int": "Integer", "char": "Character"}.get(text, text.title())
            raise UsageError(f"{whole!r}: type argument {text!r} is primitive: use {box}")
        return d.TypeArg("", _array_of(d.BaseType(d.PRIMITIVE_CODES[text]), dims))
    head, args = _generic_head(text, whole)
    row = _type_argument_row(store, head, whole)
    applied = d.ClassTypeSig(row["id"], _applied_args(store, row, args, whole, depth + 1) if args else ())
    return d.TypeArg("", _array_of(applied, dims))


_WILDCARD = re.compile(r"\?\s*(?:(extends|super)\b(.*))?", re.S)


def _array_of(sig: d.TypeSig, dims: int) -> d.TypeSig:
    for _ in range(dims):
        sig = d.ArrayTypeSig(sig)
    return sig


# Kotlin's names for the classes a type argument of theirs compiles to (`ArrayDeque<Int>` is `ArrayDeque<Integer>`)
KOTLIN_TYPE_ARGUMENTS = {"Int": "java/lang/Integer", "Any": "java/lang/Object", "Char": "java/lang/Character",
                         "Nothing": "java/lang/Void", **{f"kotlin.{k}": v for k, v in (
                             ("Int", "java/lang/Integer"), ("Any", "java/lang/Object"), ("Char", "java/lang/Character"),
                             ("Long", "java/lang/Long"), ("Short", "java/lang/Short"), ("Byte", "java/lang/Byte"),
                             ("Boolean", "java/lang/Boolean"), ("Float", "java/lang/Float"),
                             ("Double", "java/lang/Double"), ("String", "java/lang/String"),
                             ("Nothing", "java/lang/Void"))}}


def _type_argument_row(store: GraphStore, name: str, whole: str) -> dict:
    """The type a type argument names; a simple name is first tried in java.lang, as Java's implicit import. A short
    name never picks a JDK type no code outside the JDK can use (`java.awt.TexturePaintContext$Int`); Kotlin's
    `Int`, `Any`, `kotlin.Long`, ... name the classes they compile to when nothing usable is named so."""
    if "." not in name and "/" not in name and ":" not in name:
        rows = store.rows_cached(queries.TYPE_BY_ID, {"id": "java/lang/" + name})
        if rows and not rows[0]["t.external"]:
            return {k[2:]: v for k, v in rows[0].items()}
    try:
        row = resolve_type(store, name)
        if "." in name or not ranked_types(store, [row])[0]["jdk_internal"]:
            return row
        miss: Exception = NotFoundError(f"not found: {name}", candidates=[])
    except AmbiguousError as exc:
        usable = [c for c in exc.candidates if not c.get("jdk_internal")]
        if len(usable) == 1:
            return resolve_type(store, usable[0]["ref"])
        if usable:
            raise AmbiguousError(f"ambiguous: {whole!r}: type argument {name!r} names {len(usable)} types: qualify it",
                                 candidates=usable) from exc
        miss = exc
    except NotFoundError as exc:
        miss = exc
    kotlin = store.rows_cached(queries.TYPE_BY_ID, {"id": KOTLIN_TYPE_ARGUMENTS.get(name, "")})
    if kotlin and not kotlin[0]["t.external"]:
        return {k[2:]: v for k, v in kotlin[0].items()}
    near = [c for c in getattr(miss, "candidates", [])[:3] if not c.get("jdk_internal")]
    raise NotFoundError(f"not found: {whole!r}: type argument {name!r} is not a type in the workspace",
                        candidates=near) from miss


def _applied_args(store: GraphStore, row: dict, written: str, whole: str, depth: int) -> tuple[d.TypeArg, ...]:
    params = class_type_params(row)
    parts = _split_args(written)
    name = d.internal_to_fqn(row["id"])
    if not params:
        raise UsageError(f"{whole!r}: {name} is not generic; it takes no type arguments")
    if len(parts) != len(params):
        raise UsageError(f"{whole!r}: {name} takes {len(params)} type argument{'s' if len(params) != 1 else ''} "
                         f"<{', '.join(p.name for p in params)}>, given {len(parts)}")
    args = tuple(_type_argument(store, p, whole, depth) for p in parts)
    check_bounds(store, name, params, args, whole)
    return args


def resolve_applied_type(store: GraphStore, text: str) -> tuple[dict, dict[str, d.TypeSig]]:
    """`java.util.List<String>`: the Type row and its type parameters bound to the arguments given ({} when none
    are), a wildcard argument to its capture (`d.CaptureVar`); wrong arity, arguments out of their parameter's
    bounds, primitives and malformed arguments are usage errors (exit 3), an argument type the workspace lacks is
    not found (exit 1, its near names the candidates)."""
    head, written = _generic_head(text, text)
    row = resolve_type(store, head if written is not None else text)
    if written is None:
        return row, {}
    args = _applied_args(store, row, written, text, 0)
    return row, {p.name: a.type if not a.wildcard else d.capture(a) for p, a in zip(class_type_params(row), args)}


def applied_owner(text: str) -> str | None:
    """The type of a member reference as written when type arguments are on it (`java.util.Map<String, Integer>` of
    `java.util.Map<String, Integer>#get`, `...Map<String, Integer>::get` or `...Map<String, Integer>.get(Object)`),
    else None: the reference grammar reads past them (`parse_ref`), so the caller applies them
    (`resolve_applied_type`). A coordinate or jar prefix (`g:a:v/`) stays on the type."""
    slash = text.find("/")
    start = slash + 1 if slash > 0 and not any(c in text[:slash] for c in "<#(`") else 0
    depth, last_dot, end = 0, -1, None
    for i in range(start, len(text)):
        c = text[i]
        if c in "<>":
            depth += 1 if c == "<" else -1
        elif depth:
            continue
        elif c == "#" or text.startswith("::", i):
            end = i
            break
        elif c in "(:`":
            break
        elif c == ".":
            last_dot = i
    cut = last_dot if end is None else end
    owner = text[:cut] if cut > 0 else ""
    return owner if "<" in owner[start:] else None
