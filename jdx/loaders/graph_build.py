"""Shards of ordered artifacts -> node and relationship tables of one workspace graph.

Settled here, once, so queries stay one- or few-hop: which of several same-named classes the JVM
would load (classpath order), which declaration a call site really reaches (JVM resolution), which
methods override which, and external nodes for everything referenced but absent.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

import pyarrow as pa
import pyarrow.compute as pc

from jdx.errors import Warning_
from jdx.loaders.extractor import REF_KINDS, TYPE_KINDS
from jdx.loaders.shards import Shard

ACC_PRIVATE, ACC_STATIC, ACC_INTERFACE, ACC_DEPRECATED = 0x0002, 0x0008, 0x0200, 0x20000
INVOKE_KINDS = range(0, 5)
READ_KINDS = (5, 6, 16)
WRITE_KINDS = (7, 8, 17)
TYPE_REF_KINDS = (9, 10, 11, 12, 13, 14, 15)
EMPTY_LIST = pa.list_(pa.string())


@dataclass
class GraphTables:
    nodes: dict[str, pa.Table]
    rels: list[tuple[str, str, str, pa.Table]]
    warnings: list[Warning_] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)


def _join(*arrays, sep: str = "") -> pa.Array:
    return pc.binary_join_element_wise(*arrays, sep)


def _concat(shards: list[Shard], name: str) -> pa.Table:
    parts = []
    for pos, shard in enumerate(shards):
        t = shard.table(name)
        parts.append(t.append_column("pos", pa.array([pos] * t.num_rows, pa.int32())))
    return pa.concat_tables(parts) if parts else pa.table({})


def _first_rows(keys: pa.Array) -> pa.Array:
    """Mask of rows whose key did not occur earlier."""
    first = pc.index_in(keys, value_set=keys)
    return pc.equal(first, pa.array(range(len(keys)), pa.int32()))


def _element_type(name: str) -> str | None:
    """Array descriptors name their element class; primitive arrays name none."""
    if not name.startswith("["):
        return name
    stripped = name.lstrip("[")
    if stripped.startswith("L") and stripped.endswith(";"):
        return stripped[1:-1]
    return None


def _humps(simple: str) -> str:
    return "".join(ch for ch in simple if ch.isupper() or ch.isdigit())


class _Hierarchy:
    """Supertypes of the loaded classes, for JVM-style member resolution."""

    def __init__(self, supers: dict[str, str | None], interfaces: dict[str, list[str]],
                 methods: set[str], fields: set[str]):
        self.supers = supers
        self.interfaces = interfaces
        self.methods = methods
        self.fields = fields

    def resolve_method(self, owner: str, name_desc: str) -> str | None:
        """JVMS 5.4.3.3/5.4.3.4: the class chain (for interfaces: itself, then Object), then superinterfaces."""
        seen: set[str] = set()
        chain = []
        c = owner
        while c and c not in seen:
            seen.add(c)
            chain.append(c)
            if f"{c}#{name_desc}" in self.methods:
                return c
            c = self.supers.get(c)
        queue = [i for c in chain for i in self.interfaces.get(c, ())]
        while queue:
            i = queue.pop(0)
            if i in seen:
                continue
            seen.add(i)
            if f"{i}#{name_desc}" in self.methods:
                return i
            queue.extend(self.interfaces.get(i, ()))
        return None

    def resolve_field(self, owner: str, name_desc: str, seen: set[str] | None = None) -> str | None:
        """JVMS 5.4.3.2: the class, then its superinterfaces, then its superclass."""
        seen = set() if seen is None else seen
        c = owner
        while c and c not in seen:
            seen.add(c)
            if f"{c}#{name_desc}" in self.fields:
                return c
            for i in self.interfaces.get(c, ()):
                found = self.resolve_field(i, name_desc, seen)
                if found:
                    return found
            c = self.supers.get(c)
        return None


def _shadow_prefix(pos: int, art_ids: list[str]) -> str:
    return "@" + art_ids[pos][:16]


def _rename_shadowed(members: pa.Table, shadowed_pairs: set, art_ids: list[str]):
    """Members of a shadowed class copy get ids under that copy's id (name@artifact)."""
    ids, owners, flags = [], [], []
    for mid, owner, pos in zip(members["id"].to_pylist(), members["owner"].to_pylist(), members["pos"].to_pylist()):
        if (pos, owner) in shadowed_pairs:
            new_owner = owner + _shadow_prefix(pos, art_ids)
            ids.append(new_owner + mid[len(owner):])
            owners.append(new_owner)
            flags.append(True)
        else:
            ids.append(mid)
            owners.append(owner)
            flags.append(False)
    return pa.array(ids, pa.string()), pa.array(owners, pa.string()), pa.array(flags, pa.bool_())


def _rename_refs(refs: pa.Table, shadowed_pairs: set, art_ids: list[str]) -> pa.Array:
    out = []
    for frm, pos in zip(refs["from"].to_pylist(), refs["pos"].to_pylist()):
        owner = frm.split("#", 1)[0]
        out.append(owner + _shadow_prefix(pos, art_ids) + frm[len(owner):] if (pos, owner) in shadowed_pairs else frm)
    return pa.array(out, pa.string())


def build_tables(shards: list[Shard]) -> GraphTables:
    """Everything the graph needs, as Arrow tables keyed by canonical JVM identities."""
    warnings: list[Warning_] = []
    art_names = [s.artifact.name for s in shards]
    art_ids = [s.artifact.key for s in shards]

    # --- types: the JVM loads the first class of a name on the classpath; the rest are shadowed
    types = _concat(shards, "types")
    types = types.filter(pc.not_equal(types["kind"], TYPE_KINDS.index("module")))
    pos_name = _join(pc.cast(types["pos"], pa.string()), types["name"], sep=":")
    keep = _first_rows(pos_name)
    types = types.filter(keep)
    pos_name = pos_name.filter(keep)
    names = types["name"].to_pylist()
    positions = types["pos"].to_pylist()
    winner_mask = _first_rows(types["name"]).to_pylist()
    ids = [n if w else n + _shadow_prefix(p, art_ids) for n, w, p in zip(names, winner_mask, positions)]
    type_ids = pa.array(ids, pa.string())
    winners = {n for n, w in zip(names, winner_mask) if w}
    shadowed_pairs = {(p, n) for n, w, p in zip(names, winner_mask, positions) if not w}

    providers: dict[str, list[int]] = defaultdict(list)
    for n, p in zip(names, positions):
        providers[n].append(p)
    dup_sets: dict[tuple[int, ...], list[str]] = defaultdict(list)
    for n, ps in providers.items():
        if len(ps) > 1:
            dup_sets[tuple(ps)].append(n)
    for ps, dup_names in sorted(dup_sets.items()):
        dup_names.sort()
        who = ", ".join(art_names[p] for p in ps)
        example = dup_names[0].replace("/", ".")
        warnings.append(Warning_(
            "DUPLICATE_CLASS",
            f"{len(dup_names)} class(es) provided by several artifacts, e.g. {example}; "
            f"loaded from {art_names[ps[0]]} (providers: {who})",
            art_names[ps[0]],
        ))

    # --- members, keyed under their declaring type's id (ids come from the extractor; shadowed copies renamed)
    members = _concat(shards, "members")
    members = members.filter(_first_rows(members["id"]) if not shadowed_pairs else pa.array([True] * members.num_rows))
    member_ids = members["id"]
    member_owner_ids = members["owner"]
    shadow_mask = None
    if shadowed_pairs:
        member_ids, member_owner_ids, shadow_mask = _rename_shadowed(members, shadowed_pairs, art_ids)
        first = _first_rows(member_ids)
        members, member_ids, member_owner_ids, shadow_mask = (
            members.filter(first), member_ids.filter(first), member_owner_ids.filter(first), shadow_mask.filter(first))
    members = members.set_column(members.schema.get_field_index("id"), "id", member_ids)
    members = members.append_column("owner_id", member_owner_ids)
    members = members.append_column("shadowed", shadow_mask if shadow_mask is not None
                                    else pa.array([False] * members.num_rows))
    methods_t = members.filter(pc.equal(members["kind"], 0))
    fields_t = members.filter(pc.equal(members["kind"], 1))

    # --- hierarchy of the loaded (winning) classes
    supertypes = _concat(shards, "supertypes")
    st_pos_type = _join(pc.cast(supertypes["pos"], pa.string()), supertypes["type"], sep=":")
    st_idx = pc.index_in(st_pos_type, value_set=pos_name)
    supertypes = supertypes.filter(pc.is_valid(st_idx))
    st_from = pc.take(type_ids, st_idx.filter(pc.is_valid(st_idx)))
    supertypes = supertypes.append_column("from", st_from)
    access_by_id = dict(zip(ids, types["access"].to_pylist()))
    supers: dict[str, str | None] = {}
    interfaces: dict[str, list[str]] = defaultdict(list)
    for frm, sup, kind in zip(st_from.to_pylist(), supertypes["super"].to_pylist(), supertypes["kind"].to_pylist()):
        if kind == 0:
            supers[frm] = sup
        else:
            interfaces[frm].append(sup)
    winner_methods = set(methods_t["id"].to_pylist())
    winner_fields = set(fields_t["id"].to_pylist())
    hierarchy = _Hierarchy(supers, interfaces, winner_methods, winner_fields)

    external_types: set[str] = set()
    external_methods: dict[str, tuple[str, str, str]] = {}
    external_fields: dict[str, tuple[str, str, str]] = {}

    def type_target(name: str | None) -> str | None:
        if name is None:
            return None
        element = _element_type(name)
        if element is None:
            return None
        if element not in winners:
            external_types.add(element)
        return element

    # --- EXTENDS / IMPLEMENTS
    sup_targets = [type_target(s) for s in supertypes["super"].to_pylist()]
    sup_kinds = supertypes["kind"].to_pylist()
    ext_rows = ([], [])
    impl_rows = ([], [], [])
    for frm, tgt, kind, position in zip(st_from.to_pylist(), sup_targets, sup_kinds,
                                        supertypes["position"].to_pylist()):
        if tgt is None:
            continue
        if kind == 0:
            if tgt == "java/lang/Object" and access_by_id.get(frm, 0) & ACC_INTERFACE:
                continue
            ext_rows[0].append(frm)
            ext_rows[1].append(tgt)
        else:
            impl_rows[0].append(frm)
            impl_rows[1].append(tgt)
            impl_rows[2].append(position)

    # --- references from method bodies
    refs = _concat(shards, "refs")
    ref_from = refs["from"]
    if shadowed_pairs:
        ref_from = _rename_refs(refs, shadowed_pairs, art_ids)
    kinds = refs["kind"]
    kind_names = pa.array(REF_KINDS, pa.string())

    invoke_mask = pc.less_equal(kinds, 4)
    read_mask = pc.is_in(kinds, value_set=pa.array(READ_KINDS, pa.int32()))
    write_mask = pc.is_in(kinds, value_set=pa.array(WRITE_KINDS, pa.int32()))
    typeref_mask = pc.and_(pc.greater_equal(kinds, 9), pc.less_equal(kinds, 15))
    declared_methods = pa.array(sorted(winner_methods), pa.string())
    declared_fields = pa.array(sorted(winner_fields), pa.string())

    def resolve(mask, is_field_ref: bool):
        """Declared where named: kept; otherwise resolved up the hierarchy once per distinct key."""
        sub = refs.filter(mask)
        keys = sub["to"]
        unique = pc.unique(keys)
        declared = pc.is_in(unique, value_set=declared_fields if is_field_ref else declared_methods)
        targets = unique.to_pylist()
        vias: list[str | None] = [None] * len(targets)
        for i, (key, ok) in enumerate(zip(targets, declared.to_pylist())):
            if ok:
                continue
            owner, nd = key.split("#", 1)
            found = (hierarchy.resolve_field if is_field_ref else hierarchy.resolve_method)(owner, nd)
            if found is None:
                if owner not in winners:
                    external_types.add(owner)
                if is_field_ref:
                    name, desc = nd.split(":", 1)
                    external_fields[key] = (owner, name, desc)
                else:
                    paren = nd.index("(")
                    external_methods[key] = (owner, nd[:paren], nd[paren:])
            else:
                targets[i] = f"{found}#{nd}"
                vias[i] = owner  # named through a subtype (or sub-interface) of the declaring type
        positions = pc.index_in(keys, value_set=unique)
        return pa.table({
            "from": ref_from.filter(mask),
            "to": pc.take(pa.array(targets, pa.string()), positions),
            "line": sub["line"],
            "kind": pc.take(kind_names, sub["kind"]),
            "via": pc.take(pa.array(vias, pa.string()), positions),
        })

    invokes = resolve(invoke_mask, False)
    reads = resolve(read_mask, True)
    writes = resolve(write_mask, True)

    tr = refs.filter(typeref_mask)
    tr_unique = pc.unique(tr["to"]).to_pylist()
    external_types.update(t for t in tr_unique if t not in winners)
    references = pa.table({
        "from": ref_from.filter(typeref_mask),
        "to": tr["to"],
        "line": tr["line"],
        "kind": pc.take(kind_names, tr["kind"]),
    })

    # throws clauses are declaration-level references (usages --kind throw)
    throw_from, throw_to = [], []
    for mid, exc in zip(methods_t["id"].to_pylist(), methods_t["exceptions"].to_pylist()):
        if exc:
            for e in exc.split(","):
                t = type_target(e)
                if t:
                    throw_from.append(mid)
                    throw_to.append(t)
    references = pa.concat_tables([references, pa.table({
        "from": pa.array(throw_from, pa.string()), "to": pa.array(throw_to, pa.string()),
        "line": pa.array([-1] * len(throw_from), pa.int32()),
        "kind": pa.array(["throws"] * len(throw_from), pa.string()),
    })])

    # --- annotations
    ann = _concat(shards, "annotations")
    ann_pos_owner = _join(pc.cast(ann["pos"], pa.string()), ann["owner"], sep=":")
    ann_idx = pc.index_in(ann_pos_owner, value_set=pos_name)
    ann = ann.filter(pc.is_valid(ann_idx))
    ann_owner = pc.take(type_ids, ann_idx.filter(pc.is_valid(ann_idx)))
    ann_types = [type_target(d[1:-1]) if d and d.startswith("L") else None for d in ann["annotation"].to_pylist()]
    ann_by_owner: dict[str, list[str]] = defaultdict(list)
    annotated: dict[str, tuple[list, list, list]] = {"Type": ([], [], []), "Method": ([], [], []),
                                                      "Field": ([], [], [])}
    for owner_id, okind, mname, mdesc, param, atype, text in zip(
            ann_owner.to_pylist(), ann["owner_kind"].to_pylist(), ann["member_name"].to_pylist(),
            ann["member_desc"].to_pylist(), ann["param"].to_pylist(), ann_types, ann["text"].to_pylist()):
        if atype is None or okind == 3:
            continue
        if okind == 0:
            sid, label = owner_id, "Type"
        elif okind == 1:
            sid, label = f"{owner_id}#{mname}{mdesc}", "Method"
        else:
            sid, label = f"{owner_id}#{mname}:{mdesc}", "Field"
        ann_by_owner[sid].append(text)
        rows = annotated[label]
        rows[0].append(sid)
        rows[1].append(atype)
        rows[2].append(text)

    # --- overrides: instance, non-private methods that a supertype also declares
    def overridable(access: int, name: str) -> bool:
        return not (access & (ACC_PRIVATE | ACC_STATIC)) and not name.startswith("<")

    by_owner: dict[str, dict[str, int]] = defaultdict(dict)
    for oid, name, desc, acc in zip(methods_t["owner_id"].to_pylist(), methods_t["name"].to_pylist(),
                                     methods_t["descriptor"].to_pylist(), methods_t["access"].to_pylist()):
        if overridable(acc, name):
            by_owner[oid][name + desc] = acc

    def ancestors(t: str) -> list[str]:
        out, seen, queue = [], {t}, []
        c = supers.get(t)
        while c and c not in seen:
            seen.add(c)
            out.append(c)
            c = supers.get(c)
        queue = [i for c in [t, *out] for i in interfaces.get(c, ())]
        while queue:
            i = queue.pop(0)
            if i in seen:
                continue
            seen.add(i)
            out.append(i)
            queue.extend(interfaces.get(i, ()))
        return out

    def package(t: str) -> str:
        return t.rsplit("/", 1)[0] if "/" in t else ""

    ov_from, ov_to, ov_direct = [], [], []
    for t in sorted(by_owner):
        if t not in winners:
            continue
        own = by_owner[t]
        matched: set[str] = set()
        for a in ancestors(t):
            theirs = by_owner.get(a)
            if not theirs:
                continue
            for nd in sorted(own.keys() & theirs.keys()):
                acc = theirs[nd]
                if not (acc & 0x0007) and package(a) != package(t):
                    continue  # package-private: only overridable inside its package
                ov_from.append(f"{t}#{nd}")
                ov_to.append(f"{a}#{nd}")
                ov_direct.append(nd not in matched)
                matched.add(nd)

    # --- node tables
    def str_list(values: list[str | None], sep: str = ",") -> pa.Array:
        return pa.array([v.split(sep) if v else [] for v in values], EMPTY_LIST)

    simple = []
    for n, inner in zip(names, types["inner_name"].to_pylist()):
        base = n.rsplit("/", 1)[-1]
        if inner:
            simple.append(inner)
        elif inner == "" and "$" in base:
            simple.append(base.rsplit("$", 1)[-1])
        else:
            simple.append(base)
    packages = [package(n) for n in names]
    iface_lists = [interfaces.get(i, []) for i in ids]
    type_nodes = pa.table({
        "id": type_ids,
        "name": types["name"],
        "fqn": pa.array([n.replace("/", ".") for n in names], pa.string()),
        "simple_name": pa.array(simple, pa.string()),
        "package": pa.array([p.replace("/", ".") for p in packages], pa.string()),
        "kind": pc.take(pa.array(TYPE_KINDS, pa.string()), types["kind"]),
        "access": types["access"],
        "signature": types["signature"],
        "super": types["super"],
        "interfaces": pa.array(iface_lists, EMPTY_LIST),
        "outer": types["outer"],
        "inner_name": types["inner_name"],
        "outer_method": types["outer_method"],
        "source_file": types["source_file"],
        "version": types["version"],
        "kotlin": types["kotlin"],
        "artifact": pc.take(pa.array(art_ids, pa.string()), types["pos"]),
        "external": pa.array([False] * len(ids)),
        "shadowed": pa.array([not w for w in winner_mask]),
        "deprecated": pc.not_equal(pc.bit_wise_and(types["access"], ACC_DEPRECATED), 0),
        "annotations": pa.array([ann_by_owner.get(i, []) for i in ids], EMPTY_LIST),
        "simple_lower": pa.array([s.lower() for s in simple], pa.string()),
        "humps": pa.array([_humps(s) for s in simple], pa.string()),
    })
    # inner_access carries the real modifiers of a nested class (private, static, protected)
    inner_access = types["inner_access"].to_pylist()
    fixed_access = [ia if ia >= 0 else a for ia, a in zip(inner_access, types["access"].to_pylist())]
    type_nodes = type_nodes.set_column(type_nodes.schema.get_field_index("access"), "access",
                                       pa.array(fixed_access, pa.int32()))

    ext_sorted = sorted(external_types - winners)
    ext_simple = [n.rsplit("/", 1)[-1].rsplit("$", 1)[-1] for n in ext_sorted]
    ext_nodes = pa.table({
        "id": pa.array(ext_sorted, pa.string()), "name": pa.array(ext_sorted, pa.string()),
        "fqn": pa.array([n.replace("/", ".") for n in ext_sorted], pa.string()),
        "simple_name": pa.array(ext_simple, pa.string()),
        "package": pa.array([package(n).replace("/", ".") for n in ext_sorted], pa.string()),
        "kind": pa.array(["unknown"] * len(ext_sorted), pa.string()),
        "access": pa.array([0] * len(ext_sorted), pa.int32()),
        "external": pa.array([True] * len(ext_sorted)),
        "shadowed": pa.array([False] * len(ext_sorted)),
        "deprecated": pa.array([False] * len(ext_sorted)),
        "interfaces": pa.array([[]] * len(ext_sorted), EMPTY_LIST),
        "annotations": pa.array([[]] * len(ext_sorted), EMPTY_LIST),
        "simple_lower": pa.array([s.lower() for s in ext_simple], pa.string()),
        "humps": pa.array([_humps(s) for s in ext_simple], pa.string()),
    })
    type_nodes = pa.concat_tables([type_nodes, ext_nodes], promote_options="default")

    method_kind = pc.if_else(pc.equal(methods_t["name"], "<init>"), "constructor",
                             pc.if_else(pc.equal(methods_t["name"], "<clinit>"), "initializer", "method"))
    param_sources = pc.take(pa.array(["none", "MethodParameters", "LocalVariableTable"], pa.string()),
                            methods_t["param_source"])
    method_nodes = pa.table({
        "id": methods_t["id"], "owner": methods_t["owner_id"], "name": methods_t["name"],
        "descriptor": methods_t["descriptor"], "signature": methods_t["signature"],
        "access": methods_t["access"], "kind": method_kind,
        "exceptions": str_list(methods_t["exceptions"].to_pylist()),
        "param_names": pa.array([v.split(",") if v else ([] if v == "" else None)
                                 for v in methods_t["param_names"].to_pylist()], EMPTY_LIST),
        "param_source": param_sources, "annotation_default": methods_t["annotation_default"],
        "first_line": methods_t["first_line"], "last_line": methods_t["last_line"],
        "artifact": pc.take(pa.array(art_ids, pa.string()), methods_t["pos"]),
        "external": pa.array([False] * methods_t.num_rows),
        "shadowed": methods_t["shadowed"],
        "deprecated": pc.not_equal(pc.bit_wise_and(methods_t["access"], ACC_DEPRECATED), 0),
        "annotations": pa.array([ann_by_owner.get(i, []) for i in methods_t["id"].to_pylist()], EMPTY_LIST),
    })
    em = sorted(external_methods.items())
    ext_methods = pa.table({
        "id": pa.array([k for k, _ in em], pa.string()), "owner": pa.array([v[0] for _, v in em], pa.string()),
        "name": pa.array([v[1] for _, v in em], pa.string()),
        "descriptor": pa.array([v[2] for _, v in em], pa.string()),
        "kind": pa.array(["constructor" if v[1] == "<init>" else "method" for _, v in em], pa.string()),
        "access": pa.array([0] * len(em), pa.int32()),
        "external": pa.array([True] * len(em)), "shadowed": pa.array([False] * len(em)),
        "deprecated": pa.array([False] * len(em)),
        "exceptions": pa.array([[]] * len(em), EMPTY_LIST), "annotations": pa.array([[]] * len(em), EMPTY_LIST),
    })
    method_nodes = pa.concat_tables([method_nodes, ext_methods], promote_options="default")

    field_nodes = pa.table({
        "id": fields_t["id"], "owner": fields_t["owner_id"], "name": fields_t["name"],
        "descriptor": fields_t["descriptor"], "signature": fields_t["signature"], "access": fields_t["access"],
        "constant": fields_t["constant"],
        "artifact": pc.take(pa.array(art_ids, pa.string()), fields_t["pos"]),
        "external": pa.array([False] * fields_t.num_rows), "shadowed": fields_t["shadowed"],
        "deprecated": pc.not_equal(pc.bit_wise_and(fields_t["access"], ACC_DEPRECATED), 0),
        "annotations": pa.array([ann_by_owner.get(i, []) for i in fields_t["id"].to_pylist()], EMPTY_LIST),
    })
    ef = sorted(external_fields.items())
    ext_fields = pa.table({
        "id": pa.array([k for k, _ in ef], pa.string()), "owner": pa.array([v[0] for _, v in ef], pa.string()),
        "name": pa.array([v[1] for _, v in ef], pa.string()),
        "descriptor": pa.array([v[2] for _, v in ef], pa.string()),
        "access": pa.array([0] * len(ef), pa.int32()),
        "external": pa.array([True] * len(ef)), "shadowed": pa.array([False] * len(ef)),
        "deprecated": pa.array([False] * len(ef)), "annotations": pa.array([[]] * len(ef), EMPTY_LIST),
    })
    field_nodes = pa.concat_tables([field_nodes, ext_fields], promote_options="default")

    pkg_ids = sorted(set(packages))
    package_nodes = pa.table({"id": pa.array(pkg_ids, pa.string()),
                              "name": pa.array([p.replace("/", ".") for p in pkg_ids], pa.string())})
    artifact_nodes = pa.table({
        "id": pa.array(art_ids, pa.string()), "name": pa.array(art_names, pa.string()),
        "kind": pa.array([s.artifact.kind for s in shards], pa.string()),
        "path": pa.array([s.artifact.path for s in shards], pa.string()),
        "position": pa.array(range(len(shards)), pa.int32()),
        "classes": pa.array([int(s.meta.get("classes", 0)) for s in shards], pa.int32()),
    })

    # --- structural relationships
    type_artifact = pc.take(pa.array(art_ids, pa.string()), types["pos"])
    contains_art = pa.table({"from": type_artifact, "to": type_ids})
    contains_pkg = pa.table({"from": pa.array(packages, pa.string()), "to": type_ids})
    declares_m = pa.table({"from": methods_t["owner_id"], "to": methods_t["id"]})
    declares_f = pa.table({"from": fields_t["owner_id"], "to": fields_t["id"]})
    nest_from, nest_to = [], []
    id_set = set(ids)
    for tid, outer, w, pos in zip(ids, types["outer"].to_pylist(), winner_mask, positions):
        if outer:
            oid = outer if w else outer + _shadow_prefix(pos, art_ids)
            if oid in id_set:
                nest_from.append(oid)
                nest_to.append(tid)
    declares_t = pa.table({"from": pa.array(nest_from, pa.string()), "to": pa.array(nest_to, pa.string())})

    rels = [
        ("CONTAINS", "Artifact", "Type", contains_art),
        ("CONTAINS", "Package", "Type", contains_pkg),
        ("DECLARES", "Type", "Method", declares_m),
        ("DECLARES", "Type", "Field", declares_f),
        ("DECLARES", "Type", "Type", declares_t),
        ("EXTENDS", "Type", "Type", pa.table({"from": pa.array(ext_rows[0], pa.string()),
                                              "to": pa.array(ext_rows[1], pa.string())})),
        ("IMPLEMENTS", "Type", "Type", pa.table({"from": pa.array(impl_rows[0], pa.string()),
                                                 "to": pa.array(impl_rows[1], pa.string()),
                                                 "position": pa.array(impl_rows[2], pa.int32())})),
        ("INVOKES", "Method", "Method", invokes),
        ("READS", "Method", "Field", reads),
        ("WRITES", "Method", "Field", writes),
        ("REFERENCES", "Method", "Type", references),
        ("OVERRIDES", "Method", "Method", pa.table({"from": pa.array(ov_from, pa.string()),
                                                    "to": pa.array(ov_to, pa.string()),
                                                    "direct": pa.array(ov_direct, pa.bool_())})),
    ]
    for label, (src, dst, text) in annotated.items():
        rels.append(("ANNOTATED_BY", label, "Type", pa.table({
            "from": pa.array(src, pa.string()), "to": pa.array(dst, pa.string()),
            "text": pa.array(text, pa.string())})))

    nodes = {"Artifact": artifact_nodes, "Package": package_nodes, "Type": type_nodes,
             "Method": method_nodes, "Field": field_nodes}
    counts = {
        "artifacts": len(shards),
        "classes": len(winners),
        "types": type_nodes.num_rows,
        "methods": methods_t.num_rows,
        "fields": fields_t.num_rows,
        "members": methods_t.num_rows + fields_t.num_rows,
        "edges": sum(t.num_rows for _, _, _, t in rels),
        "calls": invokes.num_rows,
    }
    return GraphTables(nodes, rels, warnings, counts)
