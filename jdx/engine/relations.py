"""Shared ground of the relationship graph (spec §7.3): what a symbol names in the graph, canonical refs of
the methods an answer mentions, artifact filters, lambda attribution and cycle-safe trees.

The command modules build on it: `rel_hierarchy` (hierarchy, implementors), `rel_usages` (usages,
overrides, and `usage_sites`, the engine function `samples` builds on), `rel_calls` (callers, calls).
"""

from __future__ import annotations

import fnmatch
import re
import shlex
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import networkx as nx

from jdx.engine.members import ACC
from jdx.engine.refs import format_member, format_type, parse_ref
from jdx.engine.resolve import resolve_type_ref
from jdx.engine.limits import DEFAULT_LIMIT, check_limit  # noqa: F401  (re-exported)
from jdx.errors import NotFoundError, UsageError
from jdx.graph_schema import queries, queries_graph as q
from jdx.graph_schema.schema import LAMBDA_BODY
from jdx.graph_schema.store import GraphStore



@dataclass
class Target:
    """One graph node a symbol names: its id, canonical ref, kind (type, method, constructor, field)."""

    id: str
    ref: str
    kind: str
    row: dict = field(default_factory=dict)

    @property
    def is_field(self) -> bool:
        return self.kind == "field"


def symbol_name(targets: list[Target], text: str) -> str:
    """What an answer about `targets` calls its symbol: the one target's canonical ref; several overloads of one
    member, `Owner#name` with the owner qualified (`TreeQuery#findByPath` as typed is
    `com.diffplug.common.tree.TreeQuery#findByPath`); anything else as written."""
    if len(targets) == 1:
        return targets[0].ref
    heads = {re.split(r"[(:]", t.ref, maxsplit=1)[0] for t in targets}
    return heads.pop() if len(heads) == 1 and "#" in next(iter(heads)) else text


@dataclass
class Symbol:
    """What a reference names: a type, or every overload / the field of a member reference."""

    text: str
    type_row: dict
    targets: list[Target]
    external: bool = False  # external nodes: the workspace references them, none of its artifacts declares them
    notes: list[str] = field(default_factory=list)  # what the name was read as (a Kotlin property's members)

    @property
    def is_type(self) -> bool:
        return self.targets[0].kind == "type"


def type_target(row: dict) -> Target:
    return Target(row["id"], format_type(row["id"]), "type", row)


def _member_target(entry: dict) -> Target:
    row = entry["row"]
    sep = ":" if entry["is_field"] else ""
    return Target(f"{entry['declaring']}#{row['name']}{sep}{row['descriptor']}", entry["ref"], entry["kind"], row)


def resolve_symbol(store: GraphStore, text: str, *, members_only: bool = False, view: str = "kotlin") -> Symbol:
    """A type, a field, or every overload a member reference names (`Gson#toJson` is all of them: a user
    asking who uses a name means each overload; the answer names which one every site reaches).

    `a.b.C.name` is read as a type first, then as member `name` of `a.b.C` (as the read path does). A name no artifact
    of the workspace declares answers its external node when the workspace's code references one (`Symbol.external`:
    its sites are all the workspace knows of it; `external_notes` says so)."""
    ref = parse_ref(text)
    if ref.is_glob or ref.is_package_glob:
        raise UsageError(f"{text!r} is a glob; this command takes one symbol, e.g. Type or Type#member")
    try:
        return _declared_symbol(store, text, ref, members_only, view)
    except NotFoundError:
        from jdx.engine.external_symbols import external_symbol

        found = external_symbol(store, text, ref, members_only)
        if found is None:
            raise
        return found


def _declared_symbol(store: GraphStore, text: str, ref, members_only: bool, view: str = "kotlin") -> Symbol:
    from jdx.engine.member_resolve import lookup

    type_miss: NotFoundError | None = None
    if ref.member is None and not members_only:
        try:
            row = resolve_type_ref(store, ref, text)
            return Symbol(text, row, [type_target(row)])
        except NotFoundError as exc:
            type_miss = exc
    try:  # a bare `launch`: a Kotlin top-level name, else (of a command taking methods) a type's is a usage error
        found = lookup(store, text, kotlin_properties=view != "jvm")  # --view jvm: `Box#size` is the field
    except NotFoundError as exc:
        # `gx.Nope`, `Nope`: neither a type nor a member of a type `gx`; the type's did-you-mean is the useful one
        if type_miss is not None and ("(no type " in exc.message or not ref.ambiguous_dot):
            raise type_miss from None
        raise
    if members_only and all(e["is_field"] for e in found.members):
        raise UsageError(f"{text!r} names a field; this command takes a method (for fields: jdx usages {shlex.quote(text)})")
    entries = [e for e in found.members if not (members_only and e["is_field"])]
    return Symbol(text, found.target, [_member_target(e) for e in entries], notes=found.notes)


def rows_by_ids(store: GraphStore, query: q.ByIds, ids: Iterable[str]) -> list[dict]:
    """Rows of a two-form query for a set of ids: a primary-key lookup per id when they are few, the
    list form once when they are many (`queries_graph._by_ids` has the costs and the thresholds). A
    reader that has loaded its method columns runs the offset form and fills the method columns from them."""
    ids = sorted(set(ids))
    if not ids:
        return []
    columns = store.method_columns() if query.by_offset is not None else None
    cypher, param = (query.by_offset if columns is not None else query).form(len(ids))
    if param == "ids":
        names, values = store.value_rows(cypher, {"ids": ids})
    else:
        values = []
        for i in ids:
            names, more = store.value_rows(cypher, {"id": i})
            values.extend(more)
    if columns is not None:
        return _fill_methods(names, values, columns, query.prefix, query.external)
    out = [dict(zip(names, v)) for v in values]
    if query.by_offset is not None:
        store.count_method_rows(len(out))
    return out


def _fill_methods(names: list[str], values: list[list], columns: tuple[list, list, list, list], prefix: str,
                  external: bool) -> list[dict]:
    """Offset-form rows (column names, values) -> the rows the plain form returns (same keys, same order)."""
    if not values:
        return []
    ids, access, artifact, ext = columns
    cut = names.index(prefix + "off")
    keys = [prefix + "id", prefix + "access", prefix + "artifact"] + ([prefix + "external"] if external else [])
    filled = names[:cut] + keys + names[cut + 1:]
    out = []
    for v in values:
        o = v[cut]
        v[cut:cut + 1] = (ids[o], access[o], artifact[o], ext[o]) if external else (ids[o], access[o], artifact[o])
        out.append(dict(zip(filled, v)))
    return out


def split_method_id(method_id: str) -> tuple[str, str, str]:
    """`java/util/List#size()I` -> (`java/util/List`, `size`, `()I`)."""
    owner, _, rest = method_id.partition("#")
    cut = rest.index("(")
    return owner, rest[:cut], rest[cut:]


def with_parts(row: dict, prefix: str = "") -> dict:
    """Adds `owner`, `name`, `descriptor` (with `prefix`) to a method row, taken from its id."""
    if prefix + "name" not in row:
        row[prefix + "owner"], row[prefix + "name"], row[prefix + "descriptor"] = split_method_id(row[prefix + "id"])
    return row


def method_ref(row: dict, prefix: str = "", twins: bool = False) -> str:
    """Canonical ref of a method row whose columns carry `prefix` (`c_id`, `c_access`, ...)."""
    owner, name, descriptor = split_method_id(row[prefix + "id"])
    return format_member(owner, name, descriptor, varargs=bool((row[prefix + "access"] or 0) & ACC["varargs"]),
                         with_return=twins)


def sort_key(row: dict, prefix: str = "") -> tuple[str, str, str]:
    """Orders method rows as their canonical refs would, without formatting them (owner, name, descriptor)."""
    owner, name, descriptor = split_method_id(row[prefix + "id"])
    return owner.replace("/", "."), name, descriptor


def reader_index(store: GraphStore, name: str, make: Callable[[tuple[list, list, list, list]], object]):
    """An index a long-lived reader derives once from its method columns (`GraphStore.method_columns`) and keeps
    (a read-only graph never changes); None for a reader without them, which queries instead."""
    columns = store.method_columns()
    if columns is None:
        return None
    found = store.reader_indexes.get(name)
    if found is None:
        found = store.reader_indexes[name] = make(columns)
    return found


def _twin_keys(store: GraphStore) -> set[str]:
    """`owner#name(params)` of every declared method that shares it with another method of its owner. A declared
    method is one that is not external, and its id is its owner's id, `#`, name and descriptor (the graph build's
    keys), so the key is the id up to its parameters' `)`. Counted by the graph database: 0.07 s over the JDK's
    227k methods, 0.55 s over a Maven repository's 2.1M (a Python loop over the method columns: 0.14 s, 1.8-2.8 s)."""
    table = store.query(q.TWIN_KEYS)
    return {k + ")" for k in table["k"].to_pylist()}


def twin_ids(store: GraphStore, rows: Iterable[dict], prefix: str = "") -> set[str]:
    """Ids among `rows` that share name and parameters with another method of their owner (a bridge and
    its covariant twin): their canonical refs need `:ReturnType`. One query for all owners, or none for a
    long-lived reader, which holds every such key (`_twin_keys`)."""
    keys = reader_index(store, "twin-keys", lambda _columns: _twin_keys(store))
    if keys is not None:
        ids = {r[prefix + "id"] for r in rows}
        return {i for i in ids if i[: i.index(")") + 1] in keys}
    rows = [with_parts(r, prefix) for r in rows]
    if not rows:
        return set()
    owners = sorted({r[prefix + "owner"] for r in rows})
    names = sorted({r[prefix + "name"] for r in rows})
    seen: dict[tuple[str, str, str], int] = {}
    for m in store.rows(q.METHOD_NAMES_OF_OWNERS, {"ids": owners, "names": names}):
        key = (m["owner"], m["name"], m["descriptor"][: m["descriptor"].index(")") + 1])
        seen[key] = seen.get(key, 0) + 1
    out = set()
    for r in rows:
        desc = r[prefix + "descriptor"]
        if seen.get((r[prefix + "owner"], r[prefix + "name"], desc[: desc.index(")") + 1]), 0) > 1:
            out.add(r[prefix + "id"])
    return out


@dataclass
class Artifacts:
    """The workspace's artifacts: names for output, classpath positions for ordering, globs for filters."""

    names: dict[str, str]
    positions: dict[str, int]
    paths: dict[str, str]

    @classmethod
    def of(cls, store: GraphStore) -> "Artifacts":
        from jdx.graph_schema.store import artifact_rows

        rows = artifact_rows(store)
        return cls({r["a.id"]: r["a.name"] for r in rows}, {r["a.id"]: r["a.position"] for r in rows},
                   {r["a.id"]: r["a.path"] or "" for r in rows})

    def name(self, artifact_id: str | None) -> str:
        """An artifact's name; `(external)` for nodes the workspace only references."""
        return self.names.get(artifact_id or "", "(external)")

    def position(self, artifact_id: str | None) -> int:
        return self.positions.get(artifact_id or "", 1 << 30)


@dataclass
class ArtifactFilter:
    """`--in` / `--exclude` artifact globs, matched against an artifact's name, its path and its file name (names and
    file names in any case; a `--coord` artifact is named `g:a:v`; its jar `HikariCP-5.1.0.jar` is what a user has
    seen)."""

    include: list[str] = field(default_factory=list)
    exclude: list[str] = field(default_factory=list)

    def _hit(self, globs: list[str], name: str, path: str) -> bool:
        file = path.rstrip("/").rsplit("/", 1)[-1] if path else ""
        return any(fnmatch.fnmatchcase(name, g) or fnmatch.fnmatchcase(name.lower(), g.lower())
                   or (path and fnmatch.fnmatchcase(path, g)) or (file and fnmatch.fnmatchcase(file.lower(), g.lower()))
                   for g in globs)

    def active(self) -> bool:
        """Whether the filter can refuse anything (no `--in` and no `--exclude`: it accepts every artifact)."""
        return bool(self.include or self.exclude)

    def accepts(self, arts: Artifacts, artifact_id: str | None) -> bool:
        if not self.active():
            return True
        name, path = arts.name(artifact_id), arts.paths.get(artifact_id or "", "")
        if self.include and not self._hit(self.include, name, path):
            return False
        return not (self.exclude and self._hit(self.exclude, name, path))

    def check(self, arts: Artifacts, store: GraphStore | None = None) -> None:
        """An `--in` glob that matches no artifact of the workspace is a not-found naming it, with the nearest names
        (as `search --in` does), never an empty answer that looks like "no uses": a typo, or a name the workspace
        spells otherwise (`org.antlr:antlr4-runtime:4.11.1` given by --coord, `antlr4-runtime-4.11.1.jar` by --jars),
        or a package (`--in com.acme.fx`: the artifacts declaring it are the candidates)."""
        for glob in self.include:
            if not any(self._hit([glob], name, arts.paths.get(key, "")) for key, name in arts.names.items()):
                from jdx.engine.search_match import levenshtein
                from jdx.errors import NotFoundError

                bare = glob.strip("*").lower()
                declaring = _package_artifacts(store, arts, glob.strip("*").strip(".")) if store is not None else []
                if declaring:
                    raise NotFoundError(f"not found: no artifact matches --in {glob}; {glob.strip('*').strip('.')} "
                                        f"is a package, declared in {', '.join(declaring)}",
                                        candidates=[{"ref": n, "kind": "artifact"} for n in declaring],
                                        hint=f"--in takes an artifact's name: --in {shlex.quote(declaring[0])}")
                holding = sorted(n for n in set(arts.names.values()) if bare and bare in n.lower())
                # the workspace's own artifacts before the JDK's modules (`--in otel*`: not java.se, jdk.jfr)
                jdk = {n for key, n in arts.names.items() if arts.paths.get(key, "").startswith("jrt:")}
                near = holding[:5] or sorted(set(arts.names.values()), key=lambda n: (
                    n in jdk, levenshtein(n.lower(), glob.lower()), n))[:5]
                # a glob matches a whole name (`jetty-server` is not `jetty-server-12.1.13.jar`): say how to widen it
                hint = (f"a glob matches the whole name: --in {shlex.quote(f'*{bare}*')}" if holding else
                        "jdx tree lists the workspace's artifacts by name")
                raise NotFoundError(f"not found: no artifact matches --in {glob}",
                                    candidates=[{"ref": n, "kind": "artifact"} for n in near], hint=hint)

    def describe(self) -> str:
        parts = [f"--in {g}" for g in self.include] + [f"--exclude {g}" for g in self.exclude]
        return " ".join(parts)


def _package_artifacts(store: GraphStore, arts: Artifacts, package: str) -> list[str]:
    """The names of the artifacts that declare types in `package` (a dotted name), in classpath order."""
    if "." not in package or any(c in package for c in "/*?[ "):
        return []
    rows = store.rows(q.PACKAGE_ARTIFACTS, {"package": package})
    found = {r["a"] for r in rows if r["a"] in arts.names}
    return [arts.names[a] for a in sorted(found, key=arts.position)][:5]


_LAMBDA_BODY = re.compile(LAMBDA_BODY)  # the graph build's pattern (Method.writer), so the two cannot drift


def is_lambda(row: dict, prefix: str = "") -> bool:
    """A lambda body: javac's synthetic `lambda$foo$0` for a lambda written in `foo` (scalac's `$anonfun$foo$1`),
    or kotlinc 2's private `foo$lambda$0` (its invokedynamic lambdas; nested ones `foo$lambda$0$lambda$1`), which it
    does not mark synthetic."""
    found = _LAMBDA_BODY.search(row[prefix + "id"])
    if found is None:
        return False
    access = row[prefix + "access"] or 0
    return bool(access & (ACC["synthetic"] if found.group("synthetic") else ACC["private"] | ACC["synthetic"]))


def is_lambda_name(name: str) -> bool:
    """A method name a compiler gives lambda bodies (`is_lambda` without the access check)."""
    return _LAMBDA_BODY.search(f"#{name}(") is not None


def is_bridge(row: dict, prefix: str = "") -> bool:
    """A compiler bridge (`compareTo(Object)` forwarding to `compareTo(String)`): a method no source declares, so
    the answers that list it as a caller say what it is."""
    access = row.get(prefix + "access") or 0
    return "(" in row[prefix + "id"] and access & (ACC["bridge"] | ACC["synthetic"]) == ACC["bridge"] | ACC["synthetic"]


def through_access_bridges(store: GraphStore, rows: list[dict]) -> list[dict]:
    """CALLS_INTO `rows` with javac's access bridges seen through. A public class that inherits a public method from a
    non-public superclass gets a synthetic bridge of the same name and descriptor calling it (Trove's
    `TObjectIntIterator#hasNext()` of the package-private `TIterator`), and a call written against the public class
    links to that bridge: such a call is the method's, named through the bridge's class (`via`), and the bridge's own
    forwarding call is no caller."""
    bridges = {r["c_id"]: r["target"] for r in rows if is_bridge(r, "c_") and r["c_id"] != r["target"]
               and r["c_id"].split("#", 1)[1] == r["target"].split("#", 1)[1]}
    if not bridges:
        return rows
    through = [{**r, "target": bridges[r["target"]], "via": r.get("via") or r["target"].split("#", 1)[0]}
               for r in rows_by_ids(store, q.CALLS_INTO, sorted(bridges))]
    return [r for r in rows if r["c_id"] not in bridges] + through


def lambda_writers(store: GraphStore, lambda_ids: Iterable[str]) -> dict[str, dict]:
    """For each lambda body id, the method that wrote it (`Method.writer`, the method whose handle edge
    reaches the body; nested lambdas followed outward), as a method row with `c_` columns. Bodies no handle reaches map
    to nothing and stay as they are."""
    pending = sorted(set(lambda_ids))
    direct: dict[str, dict] = {}
    held = reader_index(store, "lambda-writers", lambda columns: _writer_rows(store, columns))
    while pending:
        if held is not None:
            writer_of = {lam: held[lam]["id"] for lam in pending if lam in held}
            rows = {held[lam]["id"]: held[lam] for lam in writer_of}
        else:
            writer_of = {r["lambda"]: r["writer"] for r in rows_by_ids(store, q.LAMBDA_WRITERS, pending)}
            rows = {r["id"]: r for r in rows_by_ids(store, q.METHODS_BY_IDS, writer_of.values())}
        nxt = []
        for lam in sorted(writer_of):
            row = rows.get(writer_of[lam])
            if row is None or lam in direct:
                continue
            direct[lam] = {"c_id": row["id"], "c_access": row["access"], "c_artifact": row["artifact"]}
            if is_lambda(direct[lam], "c_") and row["id"] not in direct:
                nxt.append(row["id"])
        pending = sorted(set(nxt) - set(direct))
    out = {}
    for lam in direct:
        seen = {lam}
        writer = direct[lam]
        while is_lambda(writer, "c_") and writer["c_id"] in direct and writer["c_id"] not in seen:
            seen.add(writer["c_id"])
            writer = direct[writer["c_id"]]
        out[lam] = writer
    return out


def _writer_rows(store: GraphStore, columns: tuple[list, list, list, list]) -> dict[str, dict]:
    """Lambda body id -> the row (`id`, `access`, `artifact`) of the method that wrote it, for a long-lived reader:
    one query for every lambda of the graph (~5 ms on the JDK) instead of two lookups per lambda and answer; a
    writer the graph does not hold is left out, as its lookup would find nothing."""
    table = store.query(q.ALL_LAMBDA_WRITERS)
    writers = dict(zip(table["lambda"].to_pylist(), table["writer"].to_pylist()))
    wanted = set(writers.values())
    ids, access, artifact, _external = columns
    found = {m: {"id": m, "access": access[o], "artifact": artifact[o]} for o, m in enumerate(ids) if m in wanted}
    return {lam: found[w] for lam, w in writers.items() if w in found}


def check_depth(depth: int | None, default: int | None) -> int | None:
    if depth is None:
        return default
    if depth < 1:
        raise UsageError("--depth must be at least 1")
    return depth


@dataclass
class TreeWalk:
    """A tree rendered from a directed graph that `load` grows on demand (successors of the given nodes):
    each node expanded once (later occurrences say `seen`), an edge back to an ancestor says `cycle`,
    output bounded by `limit` entries and `depth` levels. Only nodes that will be shown are expanded, so
    time and output both stay bounded by `limit`; `total` then counts what the walked levels hold and
    `lower_bound` says deeper levels were not walked."""

    graph: nx.DiGraph
    order: Callable[[str], tuple]
    load: Callable[[list[str]], None]
    limit: int
    depth: int | None
    shown: int = 0
    total: int = 0
    lower_bound: bool = False
    expanded: set[str] = field(default_factory=set)
    loaded: set[str] = field(default_factory=set)
    cut: int = 0  # the entries the limit left out of the level `_walk` last walked

    def ensure(self, nodes: list[str]) -> None:
        todo = sorted(n for n in set(nodes) if n not in self.loaded)
        if todo:
            self.loaded.update(todo)
            self.load(todo)

    def children(self, node: str) -> list[str]:
        return sorted(self.graph.successors(node), key=self.order) if node in self.graph else []

    def walk(self, root: str, make: Callable[[str, str, dict], dict]) -> list[dict]:
        """Tree entries below `root`; `make(parent, child, edge_data)` builds each entry's payload."""
        self.ensure([root])
        return self._walk(root, [root], 1, make)

    def _deeper(self, level: int) -> bool:
        return self.depth is None or level < self.depth

    def _walk(self, node: str, path: list[str], level: int, make) -> list[dict]:
        out = []
        self.expanded.add(node)
        kids = self.children(node)
        room = max(self.limit - self.shown, 0)
        if self._deeper(level):
            self.ensure([c for c in kids[:room] if c not in path and c not in self.expanded])
        cut = 0
        for i, child in enumerate(kids):
            self.total += 1
            if self.shown >= self.limit:
                cut += 1
                if self._deeper(level) and child not in self.expanded:
                    self.lower_bound = True
                continue
            self.shown += 1
            entry = make(node, child, self.graph.edges[node, child])
            if child in path:
                entry["cycle"] = True
            elif child in self.expanded:
                entry["seen"] = True
            elif self._deeper(level):
                entry["children"] = self._walk(child, path + [child], level + 1, make)
                if self.cut:  # a shown entry whose own entries the limit cut: never read as complete
                    entry["not_shown"] = self.cut
            out.append(entry)
        self.cut = cut
        return out


def namesake_ids(store: GraphStore, member_id: str, is_field: bool) -> list[str]:
    """For a member of a shadowed copy (`Owner@key#name`: an earlier artifact provides Owner), the external members
    that the calls written against it reach instead: `Owner#name` when the loaded Owner lacks it, and the member
    named through another class of that artifact (`Sub#name`: Sub or its shadowed copy `Sub@key` is there). The JVM
    would link those calls to the loaded classes and fail; they are this copy's call sites. [] for any other
    member."""
    owner, _, rest = member_id.partition("#")
    if "@" not in owner or not rest:
        return []
    key = owner.split("@", 1)[1]
    name, descriptor = rest.split(":", 1) if is_field else (rest[:rest.index("(")], rest[rest.index("("):])
    query = q.EXTERNAL_FIELDS_NAMED if is_field else q.EXTERNAL_METHODS_NAMED
    found = [r["id"] for r in store.rows(query, {"name": name, "descriptor": descriptor})]
    if not found:
        return []
    owners = {i.split("#", 1)[0] for i in found}
    types = {r["id"]: r["artifact"] for r in store.rows(q.TYPES_PRESENT_BY_ID, {
        "ids": sorted({owner} | owners | {f"{o}@{key}" for o in owners})})}
    home = types.get(owner)
    return sorted(i for i in found if f"{i.split('#', 1)[0]}@{key}" in types
                  or (home is not None and types.get(i.split("#", 1)[0]) == home))
