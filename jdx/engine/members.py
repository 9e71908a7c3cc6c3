"""`members`: the completion list of a receiver (spec §7.1, §9.3): inherited members, generics substituted,
overrides collapsed, JLS visibility from the query's point of view, bridges and synthetics hidden; what the filters
leave out is counted, with the flag that shows it (§8.3)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from jdx.engine import descriptors as d
from jdx.engine.member_render import (ACC, ACCESS_LEVELS, access_level, answer_clashes, constructor_name, record_role,
                                      render_field, render_method, with_outer_instance)
from jdx.engine.enum_bodies import own_constant
from jdx.engine.refs import format_member, format_type
from jdx.engine.resolve import resolve_applied_type, resolve_type
from jdx.errors import AmbiguousError, UsageError, Warning_
from jdx.graph_schema import queries
from jdx.graph_schema.store import MEMO_ENTRIES, GraphStore

OBJECT = "java/lang/Object"


@dataclass
class MemberOptions:
    inherited: bool = True
    kind: str = "all"  # method | field | ctor | all
    static: bool | None = None  # True: only static, False: only instance
    access: tuple[str, ...] = ("public", "protected")
    from_type: str | None = None
    grep: str | None = None
    sort: str = "kind"
    include_synthetic: bool = False
    with_doc: bool = False  # add each member's first javadoc sentence (needs sources)


def _package(internal: str) -> str:
    return internal.rsplit("/", 1)[0] if "/" in internal else ""


def unresolved_warnings(unresolved: list[str],
                        consequence: str = "inherited members may be incomplete") -> list[Warning_]:
    """UNRESOLVED_SUPERTYPE for each missing supertype (internal or dotted names) but java.lang.Object, absent only
    from a workspace without the JDK (`--no-jdk`, by choice): a warning on every answer there that says nothing."""
    return [Warning_("UNRESOLVED_SUPERTYPE", f"{format_type(u)} is not in the workspace: {consequence}")
            for u in unresolved if format_type(u) != "java.lang.Object"]


def supertypes_applied(row: dict) -> dict[str, "d.ClassTypeSig"]:
    """The supertypes as the type's generic signature applies them (`ArrayList<String>`)."""
    if not row.get("signature"):
        return {}
    try:
        sig = d.parse_class_signature(row["signature"])
    except ValueError:
        return {}
    return {s.binary_name: s for s in (sig.superclass, *sig.interfaces)}


def _class_params(row: dict) -> tuple["d.TypeParam", ...] | None:
    """A type's own type parameters, () for a non-generic type, None when its signature does not parse."""
    if not row.get("signature"):
        return ()
    try:
        return d.parse_class_signature(row["signature"]).type_params
    except ValueError:
        return None


def _parent(known: dict[str, dict], child: dict, env: dict, parent: str) -> tuple[dict, dict]:
    """The supertype's row and its type-variable environment in the query's terms. A generic supertype the child
    names raw (`extends ArrayList`, or no Signature attribute at all: javac writes none when nothing is generic)
    is seen raw, and so is every supertype above a raw one (JLS §4.8): its env is a raw_env, which erases."""
    prow = known.get(parent) or {"id": parent, "external": True}
    pparams = _class_params(prow)
    if d.is_raw(env):
        return prow, d.raw_env(pparams or ())
    child_params = _class_params(child)
    if child_params is None:
        return prow, {}
    applied = supertypes_applied(child)
    use = applied.get(parent)
    if pparams and (use is None or not (use.inner[-1].args if use.inner else use.args)):
        return prow, d.raw_env(pparams)
    penv: dict = {}
    if use is not None and pparams:
        penv = {k: d.substitute(v, env) for k, v in d.type_arg_env(pparams, use).items()}
    return prow, penv


def supertype_walk(store: GraphStore, start: dict, start_env: dict | None = None) -> list[tuple[dict, dict]]:
    """The superclass chain first (class members win, as in JVM resolution), then superinterfaces
    breadth-first; cycle-safe; each type with its type-variable environment in the query's terms (`start_env`
    binds the start's own type parameters: `members 'List<String>'`)."""
    known = {start["id"]: start}
    for row in store.rows_cached(queries.SUPERTYPES_CLOSURE, {"id": start["id"]}):
        known[row["id"]] = row
    env = dict(start_env or {})
    chain: list[tuple[dict, dict]] = [(start, env)]
    seen = {start["id"]}
    row = start
    is_iface = start.get("kind") in ("interface", "annotation")
    while row.get("super") and not row.get("external") and row["super"] not in seen:
        if is_iface:
            break
        seen.add(row["super"])
        row, env = _parent(known, row, env, row["super"])
        chain.append((row, env))
    order = list(chain)
    queue = [(r, e, i) for r, e in chain if not r.get("external") for i in (r.get("interfaces") or [])]
    while queue:
        child, cenv, iface = queue.pop(0)
        if iface in seen:
            continue
        seen.add(iface)
        irow, ienv = _parent(known, child, cenv, iface)
        order.append((irow, ienv))
        if not irow.get("external"):
            queue.extend((irow, ienv, j) for j in (irow.get("interfaces") or []))
    if is_iface and OBJECT not in seen:
        found = store.rows(queries.TYPE_BY_ID, {"id": OBJECT})
        if found:
            order.append(({k[2:]: v for k, v in found[0].items()}, {}))
    return order


def declared_members(store: GraphStore, walk: list[tuple[dict, dict]]) -> tuple[dict, dict]:
    """Methods and fields of every type of the walk, two queries in all."""
    ids = [row["id"] for row, _ in walk if not row.get("external")]
    out = []
    for query, tag in ((queries.METHODS_OF_TYPES, "methods"), (queries.FIELDS_OF_TYPES, "fields")):
        if len(store.memo) > MEMO_ENTRIES:
            store.memo.clear()
        missing = [i for i in ids if (tag, i) not in store.memo]
        if missing:
            found: dict[str, list[dict]] = {i: [] for i in missing}
            for row in store.rows(query, {"ids": missing}):
                found[row["owner"]].append(row)
            store.memo.update({(tag, i): rows for i, rows in found.items()})
        out.append({i: store.memo[(tag, i)] for i in ids})
    return out[0], out[1]


def walk_members(walk, methods: dict, fields: dict, target_id: str, unresolved: list[str]):
    """(type row, env, is_interface, declared_by_target, is_field, member) over the supertype walk, nearest
    type first; supertypes the workspace lacks go to `unresolved`."""
    for row, env in walk:
        tid = row["id"]
        if row.get("external"):
            unresolved.append(tid)
            continue
        is_iface = row.get("kind") in ("interface", "annotation")
        for is_field, rows in ((False, methods.get(tid, [])), (True, fields.get(tid, []))):
            for m in rows:
                yield row, env, is_iface, tid == target_id, is_field, m


def is_inherited(m: dict, is_field: bool, declaring: str, is_iface: bool, query_pkg: str) -> bool:
    """JLS inheritance seen from the query's package: no constructors, initialisers or private members,
    package-private ones only inside their package, no static interface methods."""
    access = m["access"]
    if m["name"] in ("<init>", "<clinit>") or access & ACC["private"]:
        return False
    if access_level(access) == "package" and _package(declaring) != query_pkg:
        return False
    return not (is_iface and access & ACC["static"] and not is_field)


def is_hidden(row: dict, is_field: bool) -> bool:
    """Synthetic members: javac's bridges among them. A bridge that is not synthetic is API: kotlinc's bridges of a
    collection's special members (`contains(String)` beside `contains(Object)` in a `List<String>`) are declared
    for Java callers. (`is_field` stays: ACC_BRIDGE shares its bit with ACC_VOLATILE on fields.)"""
    return bool(row["access"] & ACC["synthetic"])


def stands_for(bridge_owner: str, twin: dict, twin_class: dict, methods: dict) -> bool:
    """Does the bridge `bridge_owner` declares for `twin` stand for an override (collapse the twin)?

    A covariant or generic bridge does; javac's access bridge (a public subclass re-exporting a public
    method of a non-public superclass it does not override) does not. An override is recognised by a
    real method of the same name and arity in the bridge's class. A bridge has the whole descriptor of
    the method it stands for (JVMS §5.4.5): a twin of its parameters but another return is the method it
    calls (`Object get()` of a `Supplier<String>` calling an inherited `Comparable get()`), listed."""
    if not any(m["name"] == twin["name"] and m["descriptor"] == twin["descriptor"] and is_hidden(m, False)
               for m in methods.get(bridge_owner, [])):
        return False
    if twin_class.get("access", 0) & ACC["public"] or not twin["access"] & ACC["public"]:
        return True
    arity = len(d.parse_method_descriptor(twin["descriptor"])[0])
    return any(m["name"] == twin["name"] and not is_hidden(m, False)
               and len(d.parse_method_descriptor(m["descriptor"])[0]) == arity
               for m in methods.get(bridge_owner, []))


def ancestor_sets(walk: list[tuple[dict, dict]]) -> dict[str, set[str]]:
    """Each type of the walk -> its proper supertypes among the walk's types."""
    parents = {row["id"]: [p for p in [row.get("super"), *(row.get("interfaces") or [])] if p]
               for row, _ in walk if not row.get("external")}
    out: dict[str, set[str]] = {}

    def up(tid: str, path: frozenset) -> set[str]:
        if tid not in out:
            found: set[str] = set()
            for p in parents.get(tid, ()):
                if p not in path:
                    found |= {p} | up(p, path | {p})
            out[tid] = found
        return out[tid]

    for tid in parents:
        up(tid, frozenset({tid}))
    return out


def overrides_earlier(first: str, first_iface: bool, tid: str, is_iface: bool, ancestors: dict[str, set[str]]) -> bool:
    """Does an interface method of `tid`, reached after the same-named-and-parametered one of `first`, override it?
    Yes when `first` is a superinterface of `tid` (`implements I0, I1` with `I1 extends I0`: I1's is the member, JLS
    §8.4.8, §9.4.1); a class's method, which the walk reaches first, stays the member."""
    return first_iface and is_iface and first != tid and first in ancestors.get(tid, ())


def _field_hidden(name: str, owner: str, field_owners: dict[str, list[str]], ancestors: dict[str, set[str]]) -> bool:
    """Does a subtype of `owner` on the walk declare a field `name` (of any type and access: JLS §8.3)?"""
    return any(s != owner and owner in ancestors.get(s, ()) for s in field_owners.get(name, ()))


def is_listable(m: dict, is_field: bool, declared: bool, tid: str, is_iface: bool, query_pkg: str,
              target_iface: bool) -> bool:
    """Is a member of the walk one of the type's: declared by it, or inherited; an interface has only Object's public
    methods (JLS §9.2): no clone(), no finalize()."""
    if not declared and not is_inherited(m, is_field, tid, is_iface, query_pkg):
        return False
    return not (tid == OBJECT and target_iface and not m["access"] & ACC["public"])


def _kind_of(row: dict, is_field: bool) -> str:
    if is_field:
        return "field"
    return "constructor" if row["name"] == "<init>" else "method"


def member_key(m: dict, is_field: bool, include_synthetic: bool) -> str:
    """What one member of the listing is keyed by: a method by name and parameters (an override may return less), a
    field by name and type. A synthetic method listed (`--include-synthetic`) is a JVM method of its own, keyed by its
    whole descriptor: a bridge never stands in for the real method with its parameters (JVMS §4.6: name and
    descriptor name a method)."""
    descriptor = m["descriptor"]
    if is_field:
        return f"{m['name']}:{descriptor}"
    if include_synthetic and is_hidden(m, is_field):
        return f"{m['name']}{descriptor} synthetic"
    return m["name"] + descriptor[: descriptor.index(")") + 1]


def access_markers(access: int, is_field: bool) -> list[str]:
    """`bridge`, `synthetic`: the compiler's flags of a member as `outline` and `members` mark it (ACC_BRIDGE is a
    field's ACC_VOLATILE)."""
    return [t for t, bit in (("bridge", ACC["bridge"]), ("synthetic", ACC["synthetic"]))
            if access & bit and not (is_field and t == "bridge")]


def synthetic_markers(m: dict, is_field: bool) -> list[str]:
    """`access_markers` of a synthetic member, [] for any other."""
    return access_markers(m["access"], is_field) if m["access"] & ACC["synthetic"] else []


def java_name(jvm_name: str) -> bool:
    """Whether Java source can name a JVM member (kotlin_toplevel.java_identifier)."""
    from jdx.engine.kotlin_toplevel import java_identifier

    return java_identifier(jvm_name)


def for_removal(m: dict) -> bool:
    """Deprecated with `@Deprecated(forRemoval=true)` (the row's `deprecation`: its annotations when deprecated)."""
    return any(a.startswith("@java.lang.Deprecated(") and "forRemoval=true" in a for a in m.get("deprecation") or ())


def _annotation_defaults(store: GraphStore, walk: list[tuple[dict, dict]]) -> dict[tuple[str, str, str], str]:
    """(annotation type, element name, descriptor) -> the element's default as stored (`Method.annotation_default`,
    as `outline` prints it), for the annotation types of the walk (no query for a walk without one)."""
    out = {}
    for row, _ in walk:
        if row.get("kind") != "annotation" or row.get("external"):
            continue
        for m in store.rows_cached(queries.MEMBERS_OF, {"id": row["id"]}):
            if m.get("m.annotation_default") is not None:
                out[(row["id"], m["m.name"], m["m.descriptor"])] = m["m.annotation_default"]
    return out


def _hidden(synthetic: list[dict], by_access: dict[str, int], levels: set[str]) -> list[dict]:
    """What `members` left out that its flags show, each {count, what, show}: the synthetic members (with those of a
    hidden access level, `--access all` too), then the others of the access levels `--access` left out."""
    out = []
    if synthetic:
        outside = any(access_level(e["m"]["access"]) not in levels for e in synthetic)
        out.append({"count": len(synthetic), "what": "synthetic",
                    "show": "--include-synthetic --access all" if outside else "--include-synthetic"})
    if by_access:
        out.append({"count": sum(by_access.values()), "what": " or ".join(a for a in ACCESS_LEVELS if a in by_access),
                    "show": "--access all"})
    return out


def type_arguments(applied: dict) -> dict[str, str]:
    """The type arguments a query gave, by parameter name, as its answer carries them: a wildcard as written
    (`? extends java.lang.Number`), its capture in the members' texts."""
    return {k: d.render_type_arg(v.arg) if isinstance(v, d.CaptureVar) else d.render_type(v)
            for k, v in applied.items()}


DECLARED_FROM = ("--declared and --from exclude each other: --from picks members inherited from a supertype, "
                 "--declared leaves the supertypes out")


def list_members(store: GraphStore, type_text: str, opts: MemberOptions) -> dict:
    """The members of a type as data: one entry per member, grouped by declaring type; type arguments given
    (`List<String>`) are substituted for the type's parameters."""
    target, applied = resolve_applied_type(store, type_text)
    unknown = [a for a in opts.access if a not in ACCESS_LEVELS + ("all",)]
    if unknown:
        raise UsageError(f"--access {unknown[0]!r}: use public, protected, package, private or all")
    levels = set(ACCESS_LEVELS) if "all" in opts.access else set(opts.access)
    grep = None
    if opts.grep:
        try:
            grep = re.compile(opts.grep, re.IGNORECASE)
        except re.error as exc:
            raise UsageError(f"--grep {opts.grep!r}: {exc}") from exc
    if opts.from_type and not opts.inherited:  # (the request refuses it first: see cards.MembersRequest.validate)
        raise UsageError(DECLARED_FROM)
    walk = supertype_walk(store, target, applied)  # --declared too: what its own members override
    from_id = None
    if opts.from_type:
        try:
            from_id = resolve_type(store, opts.from_type)["id"]
        except AmbiguousError as exc:  # `--from Map`: the one supertype of that name, not every `Map` of the workspace
            supers = {row["id"] for row, _ in walk}
            mine = [c for c in exc.candidates if d.fqn_to_internal(c.get("ref", "")) in supers]
            if len(mine) != 1:
                raise
            from_id = d.fqn_to_internal(mine[0]["ref"])
        if from_id not in {row["id"] for row, _ in walk}:
            raise UsageError(f"--from {opts.from_type}: not a supertype of {format_type(target['id'])}")
    query_pkg = _package(target["id"])
    all_methods, all_fields = declared_members(store, walk)
    seen: dict[str, dict] = {}
    bridged: dict[str, str] = {}
    entries: list[dict] = []
    synthetic: list[dict] = []  # the synthetic members --include-synthetic would list
    synthetic_keys: set[str] = set()
    collapsed_object = 0
    unresolved: list[str] = []
    ancestors = ancestor_sets(walk)
    field_owners: dict[str, list[str]] = {}
    for tid, rows in all_fields.items():
        for f in rows:
            field_owners.setdefault(f["name"], []).append(tid)
    target_iface = target.get("kind") in ("interface", "annotation")
    for row, env, is_iface, declared, is_field, m in walk_members(walk, all_methods, all_fields, target["id"],
                                                                  unresolved):
        tid = row["id"]
        name = m["name"]
        if name == "<clinit>":
            continue
        # what hides a supertype's member (JLS §8.3, §8.4.8): a field of the same name in a subtype on the way,
        # whatever its type; a method of the same name and parameters, whatever it returns (a static one has no bridge
        # to carry the old return);
        # fields of one name that reach the type on different paths are both members (naming one is ambiguous)
        if is_field and _field_hidden(name, tid, field_owners, ancestors):
            continue
        key = member_key(m, is_field, opts.include_synthetic)
        if is_hidden(m, is_field) and not is_field:
            # a bridge stands for the member it bridges: the supertype's erased twin is collapsed (listed or not),
            # unless it is javac's access bridge re-exporting a method of a non-public class
            plain = member_key(m, is_field, False)
            if plain not in seen:
                bridged[plain] = tid
        if is_hidden(m, is_field) and not opts.include_synthetic:
            if is_listable(m, is_field, declared, tid, is_iface, query_pkg, target_iface):
                listed_key = member_key(m, is_field, True)  # (counted once, as --include-synthetic would list it)
                if listed_key not in seen and listed_key not in synthetic_keys:
                    synthetic_keys.add(listed_key)
                    synthetic.append({"m": m, "kind": _kind_of(m, is_field), "declaring": tid})
            continue
        if not is_listable(m, is_field, declared, tid, is_iface, query_pkg, target_iface):
            continue
        if key in seen:
            first = seen[key].get("declaring")
            if not declared and first is not None and tid in ancestors.get(first, ()):
                # a static method hides its supertype's (JLS §8.4.8.2): it overrides nothing
                hiding = not is_field and seen[key]["m"]["access"] & ACC["static"]
                seen[key].setdefault("hides" if hiding else "overrides", []).append(format_type(tid))
            elif not declared and first is not None and not is_field and \
                    overrides_earlier(first, seen[key]["iface"], tid, is_iface, ancestors):
                prior = seen[key]
                entry = {"m": m, "kind": prior["kind"], "declaring": tid, "env": env, "iface": is_iface}
                passed = [first, *prior.get("_also", ())]  # it overrides what it extends, the rest stay beside it
                entry["overrides"] = [format_type(t) for t in passed if t in ancestors[tid]] + \
                    prior.get("overrides", [])
                others = [t for t in passed if t not in ancestors[tid]]
                if others:
                    entry["_also"] = others
                    entry["also_declared_by"] = [format_type(t) for t in others]
                entries[next(i for i, e in enumerate(entries) if e is prior)] = entry
                seen[key] = entry
            elif not declared and first is not None:  # two unrelated supertypes declare it: one member, both say so
                seen[key].setdefault("also_declared_by", []).append(format_type(tid))
                seen[key].setdefault("_also", []).append(tid)
            continue
        if key in bridged and bridged[key] != tid and stands_for(bridged[key], m, row, all_methods):
            seen[key] = {"bridge": True}
            continue
        kind = _kind_of(m, is_field)
        entry = {"m": m, "kind": kind, "declaring": tid, "env": env, "iface": is_iface}
        seen[key] = entry
        entries.append(entry)
    method_names = {m["name"] for rows in all_methods.values() for m in rows}
    descriptors: dict[tuple[str, str], list[str]] = {}  # (declaring type, name) -> its methods' descriptors
    for owner, rows in all_methods.items():
        for o in rows:
            descriptors.setdefault((owner, o["name"]), []).append(o["descriptor"])
    out = []
    type_rows = {row["id"]: row for row, _ in walk}

    def wanted(e: dict) -> bool:  # every filter but --access and --include-synthetic
        m = e["m"]
        if opts.kind != "all" and {"ctor": "constructor"}.get(opts.kind, opts.kind) != e["kind"]:
            return False
        if opts.static is not None and opts.static != bool(m["access"] & ACC["static"]):
            return False
        return not (grep and not grep.search(m["name"])) and not (from_id and e["declaring"] != from_id) and \
            (opts.inherited or e["declaring"] == target["id"])

    def folded(e: dict) -> bool:  # Object's members, collapsed into one line that names --from
        return e["declaring"] == OBJECT and target["id"] != OBJECT and not from_id

    hidden_synthetic = [e for e in synthetic if wanted(e) and not folded(e)]
    hidden_access: dict[str, int] = {}
    # an enum constant's place in its class file: the constants list first among the fields, in declaration order
    # (their ordinals: `severity >= ERROR` compares them so), as javap and outline list them
    enum_place: dict[str, int] = {}
    defaults = _annotation_defaults(store, walk)
    clashing = answer_clashes([(e["m"], e["env"], e["kind"] == "field") for e in entries if wanted(e)
                               and access_level(e["m"]["access"]) in levels and not folded(e)])
    for e in entries:
        m, kind = e["m"], e["kind"]
        access = m["access"]
        if not wanted(e):
            continue
        if access_level(access) not in levels:
            if not folded(e):
                hidden_access[access_level(access)] = hidden_access.get(access_level(access), 0) + 1
            continue
        if folded(e):
            collapsed_object += 1
            continue
        owner_simple = constructor_name(target["id"]) if kind == "constructor" else d.simple_name_of(e["declaring"])
        if kind == "field":
            text = render_field(m, e["env"], (target["id"],), clashing)
            # `Type#name` would also name same-named methods; `Type#name:type` names the field alone
            clash = m["name"] in method_names
            ref = format_member(e["declaring"], m["name"], m["descriptor"], is_field=True, with_return=clash)
        else:
            m["_iface"] = e["iface"]
            # a class's member still abstract is what a subclass must implement: said also of an interface's method
            m["_abstract_shown"] = e["iface"] and target.get("kind") not in ("interface", "annotation")
            shown = with_outer_instance(m, target) if kind == "constructor" else m
            text, _params, _ret = render_method(shown, owner_simple, e["env"], (target["id"],), clashing)
            params = m["descriptor"][: m["descriptor"].index(")") + 1]
            twins = any(other != m["descriptor"] and other.startswith(params)
                        for other in descriptors.get((e["declaring"], m["name"]), ()))
            ref = format_member(e["declaring"], m["name"], m["descriptor"], varargs=bool(access & ACC["varargs"]),
                                with_return=twins)
        item = {"ref": ref, "kind": kind, "declaring": format_type(e["declaring"]), "name": m["name"],
                "descriptor": m["descriptor"], "access": access_level(access), "static": bool(access & ACC["static"]),
                "text": text, "deprecated": bool(m.get("deprecated"))}
        if kind == "field" and access & ACC["enum"]:
            enum_place[ref] = m.get("position") or 0
        if for_removal(m):
            item["for_removal"] = True
        if kind == "method" and access & ACC["abstract"]:
            item["abstract"] = True
        markers = synthetic_markers(m, kind == "field") if opts.include_synthetic else []
        if markers:  # (only listed with --include-synthetic)
            item["synthetic"] = markers
        if kind != "constructor" and not java_name(m["name"]):  # kotlinc's `-deprecated_url`, `delay-VtjQ1oo`
            item["not_java_identifier"] = True
        if m.get("constant") is not None:  # as outline and signature carry it
            item["constant"] = d.render_constant(m.get("descriptor") or "", m["constant"])
        default = defaults.get((e["declaring"], m["name"], m["descriptor"])) if kind == "method" else None
        if default is not None:  # an annotation element's default, as outline and signature carry it
            item["default"] = default
        if e.get("overrides"):
            item["overrides"] = e["overrides"]
        if e.get("hides"):
            item["hides"] = e["hides"]
        if e.get("also_declared_by"):
            item["also_declared_by"] = e["also_declared_by"]
        role = None if kind == "field" else record_role(type_rows.get(e["declaring"]), m)
        if role:
            item["record"] = role
        out.append(item)
    order = {"constructor": 0, "field": 1, "method": 2}
    depth_of = {format_type(row["id"]): i for i, (row, _) in enumerate(walk)}
    def same(x: dict) -> tuple:  # a bridge after the method of its parameters (`--include-synthetic` lists both)
        return x["ref"].split(":", 1)[0], "synthetic" in x, x["ref"]

    def constants_first(x: dict) -> tuple:
        return (0, enum_place[x["ref"]]) if x["ref"] in enum_place else (1, 0)

    if opts.sort == "name":
        out.sort(key=lambda x: (x["name"], *same(x)))
    elif opts.sort == "declaring":
        out.sort(key=lambda x: (depth_of.get(x["declaring"], 99), *constants_first(x), x["name"], *same(x)))
    elif opts.sort == "kind":
        out.sort(key=lambda x: (depth_of.get(x["declaring"], 99), order[x["kind"]], *constants_first(x), x["name"],
                                *same(x)))
    else:
        raise UsageError(f"--sort {opts.sort!r}: use name, kind or declaring")
    return {
        "type": format_type(target["id"]),
        "kind": target.get("kind"),
        "members": out,
        "collapsed": {"java.lang.Object": collapsed_object} if collapsed_object else {},
        "unresolved_supertypes": [format_type(u) for u in unresolved] if opts.inherited else [],
        # supertypes no code outside their package can name, whose members it calls through the type
        **({"nonpublic_supertypes": closed} if (closed := sorted(
            {m["declaring"] for m in out} - {format_type(target["id"])} - {
                format_type(i) for i, row in type_rows.items() if row.get("access", 0) & ACC["public"]})) else {}),
        # what the filters left out, with the flags that show it (spec §8.3)
        **({"hidden": hidden} if (hidden := _hidden(hidden_synthetic, hidden_access, levels)) else {}),
        # `--from` a supertype none of whose members reaches the type unoverridden: say so, not a bare "0 shown"
        **({"from_overridden": format_type(from_id)} if from_id and not out and not grep else {}),
        # a wildcard argument prints as written (`? extends java.lang.Number`), its capture in the members' texts
        **({"type_arguments": type_arguments(applied)} if applied else {}),
        "artifact": target.get("artifact"),
        **({"kotlin_target": True} if target.get("kotlin") else {}),
        **own_constant(store, target),  # the body of an enum constant says which (`Op$3`: `ex.Op#DIV`)
    }
