"""`usages` (spec §7.3), and `usage_sites`: every place the workspace uses a symbol (`overrides`: rel_overrides).

A call site is an INVOKES edge, resolved at build time to the declaration the JVM links, so a call
through a subclass or sub-interface owner (`via`) already lands on the declaring member. A lambda body
(`lambda$foo$0`) is javac's synthetic method; its sites are reported under the method that wrote the
lambda (found through the handle edge into the body) and marked `in_lambda`. A method reference
(`Foo::bar`, a handle edge) is a usage of `bar`, marked `method_ref`. A lambda or method reference is an `impl`
usage (detail `lambda`, or `method-ref` marked `method_ref`) of the functional interface it creates an instance of,
at its line, after the named subtypes that implement it (within an artifact's group: those are what a reader looks
for, not the dozens of lambdas around them). When `--limit` cuts, the artifacts it cut or left out are named with
their counts.

In the Kotlin view (spec §12.1) a symbol is what a Kotlin caller means by it (`kotlin_hits.kotlin_sites`): a
function's sites include the calls of its `$default` stub (`via foo$default`), never the stub's or an
@JvmOverloads copy's own forwarding call; a property's are its getter's calls (reads), its setter's (writes) and
accesses to its field from outside its accessors.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from jdx.engine.kotlin_hits import KotlinSites, facade_twins, kotlin_sites, through_name, twin_rows
from jdx.engine.kotlin_refs import delegate_field, delegate_note
from jdx.engine.kotlin_view import member_ref
from jdx.engine.member_render import ACC
from jdx.engine.refs import format_type, parse_ref
from jdx.engine.rel_sites import (element_ref, in_shadowed_copy, narrow_hint, shadowed_sites_note, signature_sites,
                                  type_row_as_caller, usage_site)
from jdx.engine.enum_bodies import mark_declaring_classes
from jdx.engine.rel_hierarchy import ANONYMOUS, subtype_marks
from jdx.engine.stale_classes import mark_stale
from jdx.engine.rel_overrides import (distinct_pairs, lookup_orders, method_owner, overridden_callers_notes,
                                      override_how)
from jdx.engine.external_symbols import external_notes
from jdx.engine.usage_notes import constant_notes, inherited_asked, inherited_note
from jdx.engine.rel_kotlin_lambdas import kotlin_lambda_writers
from jdx.engine.relations import (ArtifactFilter, Artifacts, Symbol, Target, check_limit, is_bridge, is_lambda,
                                  lambda_writers, method_ref, namesake_ids, resolve_symbol, rows_by_ids, sort_key,
                                  split_method_id, symbol_name, through_access_bridges, twin_ids)
from jdx.errors import RefSyntaxError, UsageError, Warning_
from jdx.graph_schema import queries_graph as q
from jdx.graph_schema.queries import FIELDS_OF_TYPES
from jdx.graph_schema.schema import ANNOTATION_VALUE_SITE
from jdx.graph_schema.store import GraphStore

_CONSTANTS_SHOWN = 5  # the most-read constants an enum's usages name with their counts

KINDS = ("call", "ref", "impl", "override", "read", "write", "new", "throw", "annotation", "signature")
# what `all` (the default) asks: every kind but `signature`, asked by name (a common type's declarations run to tens of
# thousands: `java.lang.String` 55k on the JDK, 1.5 s where its other usages take 0.3-0.6 s)
ALL = tuple(k for k in KINDS if k != "signature")
# which kinds each symbol kind can have; the rest are empty by construction
KINDS_OF = {"type": ("ref", "impl", "new", "throw", "annotation", "signature"), "method": ("call", "override"),
            "constructor": ("call", "new"), "initializer": (), "field": ("read", "write")}
# the usage kind of a REFERENCES edge's kind, `ref` for the rest: a lambda or method reference creates an instance of
# a class implementing the interface (JLS §15.27.4, §15.13.3), so it is where the interface is implemented
REFERENCE_USAGES = {"new": "new", "throws": "throw", "lambda": "impl", "method_ref": "impl"}
# a subtype's flags (`rel_hierarchy.subtype_marks`) its `impl` row carries: what no source names, what outside code
# cannot
SUBTYPE_MARKS = ("anonymous", "local", "declared_in", "enum_constant", "inlined_copy", "synthetic", "public")


@dataclass
class UsageOptions:
    kinds: tuple[str, ...] = ("all",)
    filter: ArtifactFilter = field(default_factory=ArtifactFilter)
    limit: int | None = None
    context: int | None = None
    view: str = "kotlin"  # jvm: the JVM members' own sites, nothing read as Kotlin


def parse_kinds(values: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """`--kind call,new --kind read` -> ('call', 'new', 'read'); `all` (the default) stands for every kind."""
    out: list[str] = []
    for v in values:
        for k in filter(None, (x.strip() for x in v.split(","))):
            if k not in KINDS and k != "all":
                raise UsageError(f"--kind {k!r}: use {'|'.join(KINDS)}|all")
            out.append(k)
    return tuple(dict.fromkeys(out)) or ("all",)


def _via(row: dict) -> str | None:
    return format_type(row["via"]) if row.get("via") else None


def _through(row: dict, member_id: str) -> dict:
    """`via` and `through` of a site that reaches the symbol through another JVM member (a `$default` stub, an
    accessor): `via` names it after any subtype the call names."""
    return {"via": ", ".join(x for x in (_via(row), through_name(member_id)) if x), "through": member_ref(member_id)}


def kotlin_reading(store: GraphStore, symbol: Symbol, view: str = "kotlin") -> KotlinSites | None:
    """How the Kotlin view reads the sites of a member symbol; None for a type, under `--view jvm`, for Java."""
    if view != "kotlin" or symbol.is_type:
        return None
    try:
        ref = parse_ref(symbol.text)
        name = ref.member if ref.member is not None else symbol.text.rsplit(".", 1)[-1]
    except RefSyntaxError:
        name = None
    return kotlin_sites(store, [t.id for t in symbol.targets], name)


def _chaining_callers(store: GraphStore, rows: list[dict], by_id: dict[str, Target]) -> set[int]:
    """Indexes of rows that are a constructor calling `this(...)` or `super(...)`: calls, not allocations.
    The superclass of every calling class is fetched in one batch."""
    candidates = []
    for i, r in enumerate(rows):
        # a constructor's call: its id holds `#<init>(` (owners never hold `#`)
        if r["kind"] == "invokespecial" and "#<init>(" in r["c_id"] and by_id[r["target"]].kind == "constructor":
            candidates.append((i, r["c_id"].split("#", 1)[0], r["target"].split("#", 1)[0]))
    if not candidates:
        return set()
    supers = {t["id"]: t["super"] for t in rows_by_ids(store, q.TYPES_BY_IDS, {c[1] for c in candidates})}
    return {i for i, owner, target in candidates if owner == target or supers.get(owner) == target}


def _property_sites(store: GraphStore, target: Target, kt: KotlinSites, kinds: set[str]) -> list[dict]:
    """Sites of a Kotlin property: its getter's calls are reads, its setter's writes, and its field's accesses
    count from outside its accessors (a multi-file facade's accessor copies call the part's: not usages); a delegated
    property's field holds its delegate (`_delegate_how`)."""
    sites: list[dict] = []
    for query, kind in ((q.READS_INTO, "read"), (q.WRITES_INTO, "write")):
        if kt.fields and kind in kinds:
            for r in rows_by_ids(store, query, kt.fields):
                if r["c_id"] not in kt.accessors:
                    how = _delegate_how(r, r["target"]) or {"via": _via(r)}
                    sites.append(usage_site(r, kind, target, r["kind"], method_ref=r["kind"][:6] == "handle", **how))
    accessors = {**{m: "read" for m in kt.getters}, **{m: "write" for m in kt.setters}}
    wanted = sorted(m for m, kind in accessors.items() if kind in kinds)
    for r in rows_by_ids(store, q.CALLS_INTO, wanted) if wanted else ():
        if r["c_id"] not in kt.accessors:
            sites.append(usage_site(r, accessors[r["target"]], target, r["kind"], method_ref=r["kind"] == "handle",
                               **_through(r, r["target"])))
    if "override" in kinds and accessors:  # `override val isActive`: one site per overriding class, by its getter
        rows = distinct_pairs(rows_by_ids(store, q.OVERRIDERS_OF, sorted(accessors)), "target", "c_id")
        orders = lookup_orders(store, sorted({method_owner(r["c_id"]) for r in rows}))
        first = {}
        for r in sorted(rows, key=lambda r: (accessors[r["target"]] != "read", r["c_id"])):
            first.setdefault(method_owner(r["c_id"]), r)
        for r in first.values():
            sites.append(usage_site({**r, "line": -1}, "override", target, override_how(orders, r)))
    return sites


def _delegate_how(row: dict, field_id: str) -> dict | None:
    """`via` and `through` of an access to a delegated property's field: its write (in the constructor or
    `<clinit>`) creates the delegate, never a write of the property's value; None for a backing field."""
    name = delegate_field(field_id)
    if name is None:
        return None
    return {"via": ", ".join(x for x in (_via(row), f"its delegate {name}") if x), "through": member_ref(field_id)}


def _member_sites(store: GraphStore, targets: list[Target], kinds: set[str],
                  kt: KotlinSites | None = None, view: str = "kotlin") -> list[dict]:
    """Sites of fields (reads, writes) and methods (calls, allocations, overrides) among `targets`;
    a bare name can be both (`AbstractShape#sides` is a field and a method). `kt`: the Kotlin reading. In the
    Kotlin view a multi-file facade's function is one, as `callers` reads it (`kotlin_hits.facade_twins`): the
    calls of its facade copy and of its part's method (kotlinc's inlined sites name the part), never the copy's
    own call of the part's method."""
    sites: list[dict] = []
    if kt is not None and kt.prop is not None:
        sites += _property_sites(store, next(t for t in targets if t.id == kt.prop), kt, kinds)
        targets = [t for t in targets if t.id not in kt.members]
    by_id = {t.id: t for t in targets}
    namesakes = shadowed_namesakes(store, targets)
    fields = sorted(t.id for t in targets if t.is_field)
    methods = sorted(t.id for t in targets if not t.is_field)
    stubs = sorted(kt.stubs) if kt is not None and methods else []
    reached = {**by_id, **{s: by_id[kt.stubs[s]] for s in stubs}, **namesakes}
    named = sorted(n for n, t in namesakes.items() if t.is_field)
    for query, kind in ((q.READS_INTO, "read"), (q.WRITES_INTO, "write")):
        if fields and kind in kinds:
            for r in rows_by_ids(store, query, fields + named):
                via = _namesake_via(r["target"], reached[r["target"]]) if r["target"] in namesakes else _via(r)
                sites.append(usage_site(r, kind, reached[r["target"]], r["kind"], via=via,
                                   method_ref=r["kind"].startswith("handle")))
    if methods and kinds & {"call", "new"}:
        stubs += sorted(n for n, t in namesakes.items() if not t.is_field)
        pairs = facade_twins(store, methods) if view == "kotlin" else {}
        twins = sorted({x for m in methods if m in pairs for x in pairs[m]} - set(methods) - set(stubs))
        rows = through_access_bridges(store, rows_by_ids(store, q.CALLS_INTO, methods + stubs + twins))
        if pairs:
            rows = twin_rows(rows, pairs, methods)
        if kt is not None:
            reached.update({s: by_id[t] for s, t in kt.forwarded(rows, methods).items()})
            rows = [r for r in rows if not kt.forwarding(r["c_id"], r["target"])]
        chaining = _chaining_callers(store, rows, reached)
        for i, r in enumerate(rows):
            target = reached[r["target"]]
            kind = "new" if target.kind == "constructor" and i not in chaining else "call"
            if kind in kinds:
                how = {"via": _namesake_via(r["target"], target)} if r["target"] in namesakes else \
                    _through(r, r["target"]) if r["target"] in stubs else {"via": _via(r)}
                # the handle to a lambda body is its writer handing it over, no method reference written
                writes = r["kind"] == "handle" and is_lambda({"id": target.id, "access": target.row.get("access")})
                sites.append(usage_site(r, kind, target, r["kind"], method_ref=r["kind"] == "handle" and not writes,
                                   **how, **({"writes_lambda": True} if writes else {})))
    if methods and "override" in kinds:
        rows = distinct_pairs(rows_by_ids(store, q.OVERRIDERS_OF, methods), "target", "c_id")
        orders = lookup_orders(store, sorted({method_owner(r["c_id"]) for r in rows}))
        for r in rows:
            r["line"] = -1
            sites.append(usage_site(r, "override", by_id[r["target"]], override_how(orders, r)))
    return sites


def shadowed_namesakes(store: GraphStore, targets: list[Target]) -> dict[str, Target]:
    """`relations.shadowed_namesakes` of each target: external member id -> the target it stands for."""
    return {n: t for t in targets for n in namesake_ids(store, t.id, t.is_field)}


def _namesake_via(named: str, target: Target) -> str | None:
    """`via Sub` for a call that names the shadowed member through another class of its artifact."""
    owner = method_owner(named)
    return None if owner == method_owner(target.id).split("@", 1)[0] else format_type(owner)


def _shadowed_notes(store: GraphStore, symbol: Symbol) -> list[str]:
    """What `usages` of a shadowed copy's member lists: the JVM loads the first copy on the classpath, so calls
    naming the class link to that copy; those written against this one that the loaded copy lacks are listed."""
    out = []
    for t in symbol.targets:
        owner, _, rest = t.id.partition("#")
        if "@" not in owner or symbol.is_type:
            continue
        loaded_owner = owner.split("@", 1)[0]
        loaded = loaded_owner + "#" + rest
        member = element_ref("Field" if t.is_field else "Method", loaded)
        if _declared(store, loaded, t.is_field):
            out.append(f"this copy is shadowed (an earlier artifact provides {format_type(loaded_owner)}): calls "
                       f"naming {member} link to the loaded copy's declaration: jdx usages '{member}'")
        else:
            out.append(f"this copy is shadowed (an earlier artifact provides {format_type(loaded_owner)}, without "
                       f"this member): the calls listed name it and would fail on this classpath "
                       f"({'NoSuchFieldError' if t.is_field else 'NoSuchMethodError'})")
    return out


def _declared(store: GraphStore, member_id: str, is_field: bool) -> bool:
    rows = store.rows(q.FIELD_EXTERNAL if is_field else q.METHOD_EXTERNAL, {"id": member_id})
    return bool(rows) and not rows[0]["external"]


def _type_sites(store: GraphStore, target: Target, kinds: set[str]) -> list[dict]:
    sites: list[dict] = []
    ids = [target.id]
    if kinds & {"ref", "new", "throw", "impl"}:  # `throw` is declaration-level (spec §7.3): REFERENCES kind throws
        for r in rows_by_ids(store, q.REFERENCES_INTO, ids):
            kind = REFERENCE_USAGES.get(r["kind"], "ref")
            if kind in kinds:
                ref = r["kind"] == "method_ref"
                sites.append(usage_site(r, kind, target, "method-ref" if ref else r["kind"], method_ref=ref))
    if "impl" in kinds:
        subtypes = rows_by_ids(store, q.SUBTYPES_OF, ids)
        marks = subtype_marks(store, [r["id"] for r in subtypes]) if subtypes else {}
        for r in subtypes:
            row = type_row_as_caller(r)
            row["ref"] = r["fqn"]
            # an interface's superinterface is an IMPLEMENTS edge, but the source says `extends` (JLS §9.1.3)
            rel = "extends" if r["rel"] == "EXTENDS" or r.get("kind") in ("interface", "annotation") else "implements"
            tier, flags = marks.get(r["id"], (ANONYMOUS, {}))
            sites.append(usage_site(row, "impl", target, rel, tier=tier, **flags))
    if "ref" in kinds:  # a sealed type's `permits` clause naming it (PermittedSubclasses): its source names it
        sealed = sorted(r["id"] for r in store.rows_cached(q.SEALED_TYPES, {}) if target.id in (r["permits"] or ()))
        for r in rows_by_ids(store, q.TYPES_BY_IDS, sealed) if sealed else ():
            row = type_row_as_caller(r)
            row["ref"] = r["fqn"]
            sites.append(usage_site(row, "ref", target, "permits"))
    if kinds & {"annotation", "ref"}:
        for r in rows_by_ids(store, q.ANNOTATED_WITH, ids):
            row = type_row_as_caller(r)
            row["ref"] = element_ref(r["label"], r["id"])
            if r.get("site") == ANNOTATION_VALUE_SITE:  # a class literal or enum constant in the element's annotations
                if "ref" in kinds:
                    sites.append(usage_site(row, "ref", target, ANNOTATION_VALUE_SITE))
                continue
            if "annotation" not in kinds:
                continue
            # where on the element, when not on it itself: `parameter 0`, `type use in return type`, `in @Tag$List`
            text = r["text"] or ""
            sites.append(usage_site(row, "annotation", target, f"{r['site']}: {text}" if r.get("site") else text))
    if "signature" in kinds:
        sites += signature_sites(store, target)
    return sites


def _attribute_lambdas(store: GraphStore, sites: list[dict], view: str = "kotlin") -> list[dict]:
    """Sites inside lambda bodies move to the method that wrote the lambda, marked `in_lambda`: javac's bodies, and in
    the Kotlin view the methods of kotlinc's lambda classes (`rel_kotlin_lambdas.kotlin_lambda_writers`). A suspend function's
    continuation is the function's own code: its sites are the function's, its call resuming the function none."""
    lambdas = [s["row"]["c_id"] for s in sites if "ref" not in s["row"] and is_lambda(s["row"], "c_")]
    writers = lambda_writers(store, lambdas) if lambdas else {}
    for s in sites:
        row = s["row"]
        if "ref" not in row and is_lambda(row, "c_"):
            s["lambda"] = split_method_id(row["c_id"])[1]
            s["in_lambda"] = True
            writer = writers.get(row["c_id"])
            if writer is not None:
                s["row"] = {**writer, "line": row.get("line", -1)}
    if view != "kotlin":
        return sites
    classes = kotlin_lambda_writers(store, [s["row"]["c_id"] for s in sites if "ref" not in s["row"]])
    out = []
    for s in sites:
        row = s["row"]
        enclosing = classes.get(row["c_id"]) if "ref" not in row else None
        # the class's own plumbing (a bridge `invoke`, `create` calling its constructor) is the class's, not a usage
        if enclosing is None or s["target_id"].split("#", 1)[0] == enclosing.lambda_class:
            out.append(s)
            continue
        if enclosing.resumes is not None and enclosing.resumes == row.get("target"):
            continue  # the state machine resuming its suspend function (`callers` leaves it out alike)
        if enclosing.in_lambda:  # a lambda class on the way out (a suspend function's state machine in a lambda too)
            s["lambda"], s["in_lambda"] = enclosing.body, True
        s["row"] = {**enclosing.row, "line": row.get("line", -1)}
        out.append(s)
    return out


def _collect(store: GraphStore, symbol: Symbol, kinds: tuple[str, ...],
             filter: ArtifactFilter | None, kt: KotlinSites | None = None,
             view: str = "kotlin") -> list[tuple[dict, dict]]:
    """(site, caller row) pairs, sorted; canonical refs still without the bridge-twin `:ReturnType`."""
    wanted = set(ALL) | set(kinds) - {"all"} if "all" in kinds else set(kinds)
    if symbol.is_type:
        raw = _type_sites(store, symbol.targets[0], wanted)
    else:
        raw = _member_sites(store, symbol.targets, wanted, kt, view)
    arts = Artifacts.of(store)
    if filter is not None and filter.active():  # before lambda attribution: a lambda lives in its writer's file
        raw = [s for s in raw if filter.accepts(arts, s["row"].get("c_artifact"))]
    raw = _attribute_lambdas(store, raw, view)
    # named subtypes first in their group (public ones before the rest), all of a row's sites together
    named = {s["row"]["c_id"]: s["tier"] for s in raw if s.get("tier", ANONYMOUS) < ANONYMOUS}
    for s in raw:
        row = s["row"]
        s["sort"] = (in_shadowed_copy(row["c_id"]), arts.position(row.get("c_artifact")),
                     named.get(row["c_id"], ANONYMOUS),
                     (row["ref"], "", "") if "ref" in row else sort_key(row, "c_"),
                     s["line"], s["kind"], s["target"], row["c_id"], s["detail"], s.get("via") or "",
                     bool(s.get("method_ref")))  # total: two sites on one line differ by instruction or via
    raw.sort(key=lambda s: s["sort"])
    return [(s, s["row"]) for s in raw]


def usage_pairs(store: GraphStore, symbol: Symbol, kinds: tuple[str, ...] = ("all",),
                filter: ArtifactFilter | None = None, view: str = "kotlin") -> list[tuple[dict, dict]]:
    """The sites of `usage_sites` before their canonical refs are formatted, as (site, caller row) pairs:
    `site` has `kind`, `line`, `target`, `detail`, `in_lambda`, `method_ref`; the row `c_id`, `c_access`,
    `c_artifact`. For callers that pick a few of thousands of sites (`samples`) and `finish_pairs` those."""
    return _collect(store, symbol, kinds, filter, kotlin_reading(store, symbol, view), view)


def finish_pairs(store: GraphStore, pairs: list[tuple[dict, dict]]) -> list[dict]:
    """`usage_sites` rows of some `usage_pairs`."""
    done = _finished(pairs, Artifacts.of(store))
    _with_twins(store, done)
    mark_declaring_classes(store, [s for s, _ in done], "caller_id")
    return [s for s, _ in done]


def usage_sites(store: GraphStore, symbol: Symbol, kinds: tuple[str, ...] = ("all",),
                filter: ArtifactFilter | None = None, view: str = "kotlin") -> list[dict]:
    """Every usage site of a resolved symbol (`relations.resolve_symbol`), sorted by artifact (classpath
    order), caller ref, line.

    Each site: `caller` (canonical ref of the enclosing method, or of the subtype / annotated element
    for `impl` / `annotation`; a lambda's `impl` is its method's), `caller_id`, `line` (-1 when unknown), `kind`
    (call, ref, impl, override, read, write, new, throw, annotation), `detail` (the instruction or reference kind),
    `artifact` (name), `target` (which overload or field the site reaches), `in_lambda`, `lambda`
    (the synthetic body's name, when in a lambda), `method_ref`, `via` (the subtype named at the call, and in the
    Kotlin view the JVM method the site calls through), `through` (that method's reference)."""
    return finish_pairs(store, _collect(store, symbol, kinds, filter, kotlin_reading(store, symbol, view), view))


def _finished(pairs: list[tuple[dict, dict]], arts: Artifacts) -> list[tuple[dict, dict]]:
    return [(_finish(s, arts), row) for s, row in pairs]


def _finish(s: dict, arts: Artifacts) -> dict:
    row = s["row"]
    out = {"caller": row.get("ref") or method_ref(row, "c_"), "caller_id": row["c_id"], "line": s["line"],
           "kind": s["kind"], "detail": s["detail"], "artifact": arts.name(row.get("c_artifact")),
           "target": s["target"],
           "in_lambda": bool(s.get("in_lambda")), "method_ref": bool(s.get("method_ref"))}
    if "ref" not in row and is_bridge(row, "c_"):
        out["bridge"] = True
    if s.get("lambda"):
        out["lambda"] = s["lambda"]
    if s.get("writes_lambda"):
        out["lambda_writer"] = True
    if s.get("via"):
        out["via"] = s["via"]
    if s.get("through"):
        out["through"] = s["through"]
    if in_shadowed_copy(row["c_id"]):
        out["shadowed"] = True
    out.update((k, s[k]) for k in SUBTYPE_MARKS if k in s)
    return out


def _with_twins(store: GraphStore, pairs: list[tuple[dict, dict]]) -> None:
    """Callers whose owner has a same-named, same-parameter twin (bridges) get `:ReturnType`."""
    twins = twin_ids(store, [row for _, row in pairs if "ref" not in row], "c_")
    for site, row in pairs:
        if row["c_id"] in twins:
            site["caller"] = method_ref(row, "c_", twins=True)


def _cut_sites(pairs: list[tuple[dict, dict]], limit: int) -> int:
    """How many sites of the last shown enclosing method `limit` left out (its sites sort together)."""
    if not 0 < limit < len(pairs):
        return 0
    key = _caller_key(pairs[limit - 1][1])
    return next((n for n, (_s, row) in enumerate(pairs[limit:]) if _caller_key(row) != key), len(pairs) - limit)


def _caller_key(row: dict) -> tuple:
    return row.get("c_artifact"), row.get("ref") or row["c_id"]


def _groups(sites: list[dict], totals: dict[tuple[str, bool], int], more: int = 0) -> list[dict]:
    """Sites grouped by artifact (its shadowed class copies' sites a group of their own, `shadowed`, after the live
    ones), then by enclosing method, in the order `usage_sites` sorted them;
    `count` is what is shown, `total` what the artifact (or its shadowed copies) has; `more`: the last method's
    sites the limit left out
    (`more_sites`: a row cut partway says so)."""
    groups: list[dict] = []
    for s in sites:
        key = (s["artifact"], bool(s.get("shadowed")))
        if not groups or (groups[-1]["artifact"], bool(groups[-1].get("shadowed"))) != key:
            groups.append({"artifact": s["artifact"], "count": 0, "total": totals[key], "callers": []}
                          | ({"shadowed": True} if key[1] else {}))
        g = groups[-1]
        g["count"] += 1
        if not g["callers"] or g["callers"][-1]["caller"] != s["caller"]:
            g["callers"].append({"caller": s["caller"], "caller_id": s["caller_id"], "sites": []}
                                | ({"bridge": True} if s.get("bridge") else {})
                                | {k: s.pop(k) for k in SUBTYPE_MARKS if k in s})  # the row's, not the site's
        g["callers"][-1]["sites"].append(s)
    if more and groups:
        groups[-1]["callers"][-1]["more_sites"] = more
    return groups


def _notes(store: GraphStore, symbol: Symbol, kt: KotlinSites | None = None,
           wanted: frozenset = frozenset()) -> list[str]:
    """What the answer includes and leaves to other symbols (spec §3.3: never guess silently)."""
    if symbol.external:  # no declaration: what it inherits, overrides or holds is unknown (or a shadowed copy holds)
        return external_notes(symbol, store) + (_symbol_notes(symbol, kt, wanted) if symbol.is_type else [])
    # what the name was read as (a Kotlin top-level name's left-out declarations, a companion's member); a property's
    # reading is _symbol_notes' own
    read_as = symbol.notes if kt is None or kt.prop is None else []
    return read_as + _symbol_notes(symbol, kt, wanted) + constant_notes(symbol)


def _symbol_notes(symbol: Symbol, kt: KotlinSites | None = None, wanted: frozenset = frozenset()) -> list[str]:
    if kt is not None and kt.prop is not None:
        return ["a Kotlin property: calls of its getter are reads, of its setter writes, a property overriding it one "
                "override; its field's accesses from outside its accessors are included (--view jvm: the field's own "
                "accesses)" + delegate_note(kt.fields)]
    if symbol.is_type:
        ref = symbol.targets[0].ref
        declared = "" if "signature" in wanted else ("; declarations whose parameter, return or field types name "
                                                     "the type: --kind signature")
        return [f"calls of the type's methods and constructors are usages of those members: jdx usages '{ref}#<name>'"
                + declared]
    t = symbol.targets[0]
    if all(x.kind == "method" for x in symbol.targets):
        owner = format_type(t.id.split("#", 1)[0])
        static = all(x.row.get("access", 0) & ACC["static"] for x in symbol.targets)  # hidden, never overridden
        return [f"calls through {owner} and through subtypes that inherit the declaration are included"
                + ("" if static else "; calls of overriding methods are theirs (--kind override lists the overrides)")]
    return []


def usages(store: GraphStore, text: str, opts: UsageOptions) -> tuple[dict, list[Warning_], dict | None]:
    """(result, warnings, truncation) of `usages`."""
    limit = check_limit(opts.limit)
    kinds = parse_kinds(opts.kinds)
    symbol = resolve_symbol(store, text, view=opts.view)
    wanted = set(ALL) | set(kinds) - {"all"} if "all" in kinds else set(kinds)
    kt = kotlin_reading(store, symbol, opts.view)
    pairs = _collect(store, symbol, kinds, opts.filter, kt, opts.view)
    shown = finish_pairs(store, pairs[:limit])
    sites = [s for s, _ in pairs]
    warnings = []
    targets = symbol.targets
    if kt is not None and kt.prop is not None:  # a property is one symbol, whichever of its members the name hit
        targets = [t for t in targets if t.id not in kt.members or t.id == kt.prop]
    possible = {k for t in targets for k in (("read", "write", "override") if kt is not None and t.id == kt.prop
                                             else KINDS_OF.get(t.kind, ()))}
    if not (wanted & possible):
        warnings.append(Warning_("KIND_NOT_APPLICABLE",
                                 f"--kind {','.join(kinds)} never matches a {targets[0].kind}: "
                                 f"use {'|'.join(sorted(possible)) or 'another symbol'}"))
    counts: dict[str, int] = {}
    arts = Artifacts.of(store)
    totals: dict[tuple[str, bool], int] = {}
    per_artifact: dict[tuple[str | None, bool], int] = {}
    for s, row in pairs:
        counts[s["kind"]] = counts.get(s["kind"], 0) + 1
        key = (row.get("c_artifact"), in_shadowed_copy(row["c_id"]))
        per_artifact[key] = per_artifact.get(key, 0) + 1
    for (artifact, shadowed), n in per_artifact.items():
        key = (arts.name(artifact), shadowed)
        totals[key] = totals.get(key, 0) + n
    dead = sum(n for (_a, shadowed), n in totals.items() if shadowed)
    kinds_of_targets = sorted({t.kind for t in targets})
    result = {"symbol": symbol_name(targets, text),
              "symbol_kind": kinds_of_targets[0] if len(kinds_of_targets) == 1 else "member",
              "targets": [t.ref for t in targets],
              "kinds": list(kinds), "total": len(sites), "counts": dict(sorted(counts.items())),
              "filter": opts.filter.describe(),
              "notes": _notes(store, symbol, kt, frozenset(wanted)) + _inherited_note(symbol, sites)
              + _shadowed_notes(store, symbol) + _overridden_notes(store, symbol, wanted, opts.filter)
              + _enum_constant_notes(store, symbol, opts.filter)
              + shadowed_sites_note(dead, len(sites)),
              "groups": _groups(shown, totals, _cut_sites(pairs, limit)),
              "_target_ids": [t.id for t in targets]}  # for the Kotlin view; the command drops it
    rows = [c for g in result["groups"] for c in g["callers"]]
    warnings += mark_stale(store, [(c["caller_id"].split("#", 1)[0], c) for c in rows])
    if kt is not None and kt.prop is not None and len(targets) > 1:  # a Kotlin property and others of its name
        result["property"] = {"parts": [role for role, m in (("getter", kt.getters), ("setter", kt.setters),
                                                             ("field", kt.fields)) if m],
                              "others": [t.ref for t in targets if t.id != kt.prop]}  # (okio's `fun buffer()`)
    if unshown := _groups_not_shown(pairs[limit:], result["groups"], totals, arts):
        result["groups_not_shown"] = unshown
    if dead:
        result["shadowed"] = dead
    if symbol.external:
        result["external"] = True
    truncated = {"shown": len(shown), "total": len(sites), "hint": _cut_hint(len(sites), counts, totals)} \
        if len(sites) > limit else None
    return result, warnings, truncated


def _groups_not_shown(rest: list[tuple[dict, dict]], groups: list[dict], totals: dict[tuple[str, bool], int],
                      arts: Artifacts) -> list[dict]:
    """The artifacts (and shadowed copies) whose sites `--limit` left out entirely, in the order their sites sort,
    each with its count: `… 50 of 475 shown` alone does not say where the other 425 are."""
    seen = {(g["artifact"], bool(g.get("shadowed"))) for g in groups}
    out = []
    for _s, row in rest:
        key = (arts.name(row.get("c_artifact")), in_shadowed_copy(row["c_id"]))
        if key not in seen:
            seen.add(key)
            out.append({"artifact": key[0], "total": totals[key]} | ({"shadowed": True} if key[1] else {}))
    return out


def _cut_hint(total: int, counts: dict[str, int], totals: dict[tuple[str, bool], int]) -> str:
    """`--limit <total>`; past NARROW_ABOVE sites also the filters that would narrow them: `--kind` when the sites
    are of several kinds, `--in`/`--exclude` when they are in several artifacts."""
    several = len({artifact for artifact, _shadowed in totals}) > 1
    return narrow_hint(f"--limit {total}", total, ["--kind"] * (len(counts) > 1) + ["--in", "--exclude"] * several)


def _overridden_notes(store: GraphStore, symbol: Symbol, wanted: set[str], filter: ArtifactFilter) -> list[str]:
    """Calls of the methods the asked ones override may run them too, but are those methods' usages: say so."""
    if symbol.external or "call" not in wanted:
        return []
    roots = [(t.id, t.ref) for t in symbol.targets if t.kind == "method" and not
             t.row.get("access", 0) & (ACC["static"] | ACC["private"])]
    return overridden_callers_notes(store, roots, "usages", filter=filter)


def _enum_constant_notes(store: GraphStore, symbol: Symbol, filter: ArtifactFilter) -> list[str]:
    """An enum's usages leave out its constants' reads (`FillMode.UNIFIED` is a `getstatic` of the field UNIFIED),
    as an IDE's Find Usages of the class does: how many there are (within the artifact filter), per constant, and
    the command that lists them (spec §3.3)."""
    target = symbol.targets[0]
    if symbol.external or not symbol.is_type or target.row.get("kind") != "enum":
        return []
    constants = {f"{target.id}#{r['name']}:{r['descriptor']}": r["name"]
                 for r in store.rows(FIELDS_OF_TYPES, {"ids": [target.id]}) if (r["access"] or 0) & ACC["enum"]}
    arts = Artifacts.of(store)
    reads = Counter(r["target"] for r in rows_by_ids(store, q.READS_INTO, constants)
                    if filter.accepts(arts, r["c_artifact"]))
    if not reads:
        return []
    ranked = sorted(reads, key=lambda c: (-reads[c], constants[c]))
    shown = ", ".join(f"{constants[c]} {reads[c]}" for c in ranked[:_CONSTANTS_SHOWN])
    more = f", … {len(ranked) - _CONSTANTS_SHOWN} more" if len(ranked) > _CONSTANTS_SHOWN else ""
    n = sum(reads.values())
    return [f"reads of its enum constants are usages of those fields, not listed here: {n} read{'s' * (n != 1)} of "
            f"{len(ranked)} constant{'s' * (len(ranked) != 1)} ({shown}{more}): "
            f"jdx usages '{target.ref}#{constants[ranked[0]]}'"]


def _inherited_note(symbol: Symbol, sites: list[dict]) -> list[str]:
    asked = inherited_asked(symbol)
    name = format_type(asked) if asked else ""
    return inherited_note(symbol, sum(1 for s in sites if s.get("via") == name)) if asked else []
