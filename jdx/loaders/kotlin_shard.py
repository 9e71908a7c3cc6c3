"""The `kotlin` shard table (spec §12.1): one row per Kotlin declaration of an artifact, decoded from the
`@kotlin.Metadata` values the extractor keeps, each linked to the JVM members that implement it.

Links are `role:member-id` strings, checked against the artifact's members (a link to a member the class
file lacks is never written): `method`, `facade` (a multi-file facade's copy), `default` (the `$default`
synthetic), `overload` (@JvmOverloads), `static` (@JvmStatic in a companion's outer class), `field` (an interface
companion's `const` has two: the companion's and the interface's), `getter`,
`setter`, `annotations` (the synthetic `$annotations` method holding a property's annotations, an interface property's
in its DefaultImpls), `delegate`, `constructor`, `type`.
Unreadable metadata is a named warning for that class; its JVM view stays.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict

import pyarrow as pa

from jdx.kotlin import MetadataError, decode_metadata
from jdx.kotlin.jvm import jvm_internal_name
from jdx.kotlin.model import KmClass, KmFunction, KmProperty, KmType, KmTypeParameter, KmValueParameter
from jdx.kotlin.render import (class_keyword, render_class_header, render_constructor, render_function,
                               render_property, render_type, render_type_alias)
from jdx.loaders.kotlin_schema import ACC_STATIC, ACC_SYNTHETIC, COLUMNS, SCHEMA, STR_LIST, empty_table  # noqa: F401

JVM_OVERLOADS = "Lkotlin/jvm/JvmOverloads;"
ACC_PRIVATE = 0x0002


_REF = re.compile(r"L([^;]+);")  # a class a descriptor names


def _relocation(meta: str, actual: str, classes: set[str]) -> tuple[str, str] | None:
    """The package relocation (`from`, `to`) under which the descriptor `actual` is the metadata's `meta`: a shaded
    jar's class files name its relocated classes (`org/jetbrains/kotlin/com/intellij/psi/PsiClass`) while the
    `@kotlin.Metadata` strings keep the original names (`com/intellij/psi/PsiClass`), as the shade plugin leaves
    annotation strings. Each renamed class is one the artifact does not hold, keeps its package's tail and simple
    name, and all are renamed by one rule (the shortest: `("", "org/jetbrains/kotlin")`); None otherwise."""
    if _REF.sub("L;", meta) != _REF.sub("L;", actual):
        return None
    rule = None
    for was, now in zip(_REF.findall(meta), _REF.findall(actual)):
        if was == now:
            continue
        if was in classes:
            return None
        old, new = was.split("/"), now.split("/")
        kept = 0
        while kept < min(len(old), len(new)) and old[-1 - kept] == new[-1 - kept]:
            kept += 1
        got = ("/".join(old[:len(old) - kept]), "/".join(new[:len(new) - kept]))
        if not kept or (rule is not None and got != rule):
            return None
        rule = got
    return rule


class _Members:
    """The artifact's JVM members by owner: name+descriptor -> access, and names -> descriptors."""

    def __init__(self, members: pa.Table, annotations: pa.Table | None, owners: set[str], classes: set[str]):
        self.classes = classes
        self.named: dict[str, dict[str, list[str]]] = {}  # owner -> member name -> its keys, built when first asked
        self.by_owner: dict[str, dict[str, int]] = defaultdict(dict)
        for owner, name, desc, access, kind in zip(members["owner"].to_pylist(), members["name"].to_pylist(),
                                                   members["descriptor"].to_pylist(), members["access"].to_pylist(),
                                                   members["kind"].to_pylist()):
            if owner in owners:
                self.by_owner[owner][f"{name}{desc}" if kind == 0 else f"{name}:{desc}"] = access
        self.overloads: set[str] = set()
        if annotations is not None and annotations.num_rows:
            for owner, mname, mdesc, ann in zip(annotations["owner"].to_pylist(),
                                                annotations["member_name"].to_pylist(),
                                                annotations["member_desc"].to_pylist(),
                                                annotations["annotation"].to_pylist()):
                if ann == JVM_OVERLOADS and owner in owners:
                    self.overloads.add(f"{owner}#{mname}{mdesc}")

    def method(self, owner: str, sig: tuple[str, str] | None) -> str | None:
        return self._find(owner, sig, "")

    def field(self, owner: str, sig: tuple[str, str] | None) -> str | None:
        return self._find(owner, sig, ":")

    def _find(self, owner: str, sig: tuple[str, str] | None, sep: str) -> str | None:
        """The member `owner#name{sep}descriptor`, else the one member of that name whose descriptor is the
        signature's relocated by a shaded jar (_relocation); None when there is none or several."""
        if sig is None:
            return None
        key = sig[0] + sep + sig[1]
        if key in self.by_owner.get(owner, ()):
            return f"{owner}#{key}"
        if "L" not in sig[1] or owner not in self.by_owner:
            return None
        head = sig[0] + sep
        found = [k for k in self._named(owner).get(head, ())
                 if _relocation(sig[1], k[len(head):], self.classes) is not None]
        return f"{owner}#{found[0]}" if len(found) == 1 else None

    def _named(self, owner: str) -> dict[str, list[str]]:
        """The owner's member keys by what precedes their descriptor: a method's name, a field's `name:`."""
        got = self.named.get(owner)
        if got is None:
            got = self.named[owner] = defaultdict(list)
            for key in sorted(self.by_owner[owner]):
                cut = min((i for i in (key.find("("), key.find(":")) if i >= 0), default=-1)
                if cut >= 0:
                    got[key[:cut] + ("" if key[cut] == "(" else ":")].append(key)
        return got

    def access(self, member_id: str) -> int:
        owner, _, key = member_id.partition("#")
        return self.by_owner.get(owner, {}).get(key, 0)


def _type_json(t: KmType | None) -> str | None:
    return render_type(t, qualified=True) if t is not None else None


def _tps_json(tps: list[KmTypeParameter]) -> list[dict]:
    return [{"name": p.name, **({"variance": p.variance} if p.variance else {}),
             **({"reified": True} if p.reified else {}),
             **({"bounds": [_type_json(b) for b in p.upper_bounds]} if p.upper_bounds else {})} for p in tps]


def _params_json(ps: list[KmValueParameter]) -> list[dict]:
    out = []
    for p in ps:
        d = {"name": p.name, "type": _type_json(p.vararg_element or p.type)}
        for flag, on in (("vararg", p.vararg_element is not None), ("default", p.declares_default),
                         ("crossinline", p.crossinline), ("noinline", p.noinline)):
            if on:
                d[flag] = True
        out.append(d)
    return out


def _flags(**named: bool) -> list[str]:
    return [k for k, on in named.items() if on]


class _Rows:
    def __init__(self):
        self.cols: dict[str, list] = {c: [] for c in COLUMNS}

    def add(self, owner: str, kind: str, name: str, visibility: str | None, modality: str | None, flags: list[str],
            signature: str, detail: dict, jvm: list[str], facade: str | None) -> None:
        position = len(self.cols["id"])
        c = self.cols
        c["id"].append(f"{owner}#kotlin:{kind}:{name}:{position}")
        c["owner"].append(owner)
        c["kind"].append(kind)
        c["name"].append(name)
        c["position"].append(position)
        c["visibility"].append(visibility)
        c["modality"].append(modality)
        c["flags"].append(flags)
        c["signature"].append(signature)
        c["detail"].append(json.dumps(detail, sort_keys=True, separators=(",", ":")))
        c["jvm"].append(jvm)
        c["facade"].append(facade)

    def table(self) -> pa.Table:
        return pa.table(self.cols, schema=SCHEMA)


def _function_links(m: _Members, owner: str, facade: str | None, f: KmFunction, static_host: str | None,
                    static_owner: bool) -> list[str]:
    links = []
    main = m.method(owner, f.jvm)
    if main:
        links.append("method:" + main)
    if facade:
        copy = m.method(facade, f.jvm)
        if copy:
            links.append("facade:" + copy)
    if f.jvm and any(p.declares_default for p in f.parameters):
        name, desc = f.jvm
        args, ret = desc[1:].split(")", 1)
        host_args = "" if static_owner or (main and m.access(main) & ACC_STATIC) else f"L{owner};"
        for where in ([owner] + ([facade] if facade else [])):
            d = m.method(where, (name + "$default", f"({host_args}{args}ILjava/lang/Object;){ret}"))
            if d:
                links.append("default:" + d)
        if main and main in m.overloads:  # the copies in the owner, a facade and a @JvmStatic host (static ones)
            hosts = ([(owner, 0)] + ([(facade, 0)] if facade else [])
                     + ([(static_host, ACC_STATIC)] if static_host else []))
            for where, static in hosts:
                for key in _jvm_overloads(args, ret, f.parameters, f.suspend):
                    other = m.method(where, (name, key))
                    if other and not m.access(other) & ACC_SYNTHETIC and m.access(other) & static == static:
                        links.append("overload:" + other)
    if static_host:
        s = m.method(static_host, f.jvm)
        if s and m.access(s) & ACC_STATIC:
            links.append("static:" + s)
    return links


_ARG = re.compile(r"\[*(?:[BCDFIJSZ]|L[^;]+;)")  # one parameter of a method descriptor


def _jvm_overloads(args: str, ret: str, parameters: list[KmValueParameter], suspend: bool = False) -> list[str]:
    """The descriptors `@JvmOverloads` gives the function or constructor whose descriptor is `(args)ret` and whose
    Kotlin parameters are `parameters`: for k = 0 .. n-1 of its n parameters with a default, every parameter kept
    except the defaults after the k-th (what a different function of the same name is never mistaken for); [] when
    the descriptor's parameters do not line up with the Kotlin ones."""
    pieces = _ARG.findall(args)
    if "".join(pieces) != args:
        return []
    lead = len(pieces) - len(parameters) - (1 if suspend else 0)  # a receiver leads, a continuation trails
    if lead < 0:
        return []
    head, own, tail = pieces[:lead], pieces[lead:lead + len(parameters)], pieces[lead + len(parameters):]
    defaults = [i for i, p in enumerate(parameters) if p.declares_default]
    out = []
    for k in range(len(defaults)):
        dropped = set(defaults[k:])
        kept = [d for i, d in enumerate(own) if i not in dropped]
        out.append("(" + "".join(head + kept + tail) + ")" + ret)
    return out


def _property_links(m: _Members, owner: str, facade: str | None, p: KmProperty, field_host: str | None) -> list[str]:
    links = []
    fld = m.field(owner, p.jvm_field) or (m.field(field_host, p.jvm_field) if field_host else None) or (
        m.field(facade, p.jvm_field) if facade else None)
    if fld:
        links.append("field:" + fld)
        copy = m.field(field_host, p.jvm_field) if field_host and not fld.startswith(field_host + "#") else None
        if copy and m.access(copy) & ACC_STATIC:  # an interface companion's const: a copy in the interface too
            links.append("field:" + copy)
    for role, sig in (("getter", p.jvm_getter), ("setter", p.jvm_setter), ("annotations", p.jvm_synthetic),
                      ("delegate", p.jvm_delegate)):
        got = m.method(owner, sig)
        if got is None and role == "annotations":  # an interface property's: in its DefaultImpls (javap's oracle)
            got = m.method(owner + "$DefaultImpls", sig)
        if got:
            links.append(f"{role}:{got}")
        if facade:
            copy = m.method(facade, sig)
            if copy:
                links.append(f"{role}:{copy}")
    if field_host:  # a companion's @JvmStatic property: its accessors' static copies in the outer class
        for sig in (p.jvm_getter, p.jvm_setter):
            s = m.method(field_host, sig)
            if s and m.access(s) & ACC_STATIC:
                links.append("static:" + s)
    return links


def _descriptor(member_id: str | None, sig: tuple[str, str] | None) -> str | None:
    """The descriptor of the JVM member a declaration links (a shaded jar's relocated one), else its metadata's."""
    if sig is None:
        return None
    return member_id.partition("#")[2][len(sig[0]):] if member_id else sig[1]


def _function_row(rows: _Rows, m: _Members, owner: str, facade: str | None, f: KmFunction, in_interface: bool,
                  static_host: str | None, static_owner: bool, is_object: bool = False) -> None:
    links = _function_links(m, owner, facade, f, static_host, static_owner)
    main = next((x[7:] for x in links if x.startswith("method:")), None)
    static_in_object = is_object and main is not None and bool(m.access(main) & ACC_STATIC)
    flags = _flags(suspend=f.suspend, inline=f.inline, infix=f.infix, operator=f.operator, tailrec=f.tailrec,
                   external=f.external, expect=f.expect,
                   jvm_static=static_in_object or any(x.startswith("static:") for x in links),
                   jvm_overloads=any(x.startswith("overload:") for x in links),
                   jvm_name=bool(f.jvm and _renamed(f.name, f.jvm[0])),
                   component=f.name.startswith("component") and f.name[9:].isdigit() and f.operator,
                   synthesized=f.member_kind == "synthesized", delegation=f.member_kind == "delegation")
    detail = {"type_parameters": _tps_json(f.type_parameters), "receiver": _type_json(f.receiver),
              "parameters": _params_json(f.parameters), "returns": _type_json(f.return_type),
              "jvm_name": f.jvm[0] if f.jvm else None, "jvm_descriptor": _descriptor(main, f.jvm)}
    rows.add(owner, "function", f.name, f.visibility, f.modality, flags, render_function(f, in_interface), detail,
             links, facade)


def _property_row(rows: _Rows, m: _Members, owner: str, facade: str | None, p: KmProperty, in_interface: bool,
                  field_host: str | None, annotation: bool = False, is_object: bool = False) -> None:
    links = _property_links(m, owner, facade, p, field_host)
    getter = next((x[7:] for x in links if x.startswith("getter:")), None)
    static_in_object = is_object and getter is not None and bool(m.access(getter) & ACC_STATIC)
    fld = next((x[6:] for x in links if x.startswith("field:")), None)
    # a @JvmField's field has the property's visibility; a private one without a getter is a backing field only its
    # class reads (an inline class's underlying `value`, `UInt.data`), no @JvmField
    jvm_field = bool(fld and not p.const and not p.lateinit and p.jvm_getter is None and p.visibility != "private"
                     and not m.access(fld) & ACC_PRIVATE)
    flags = _flags(var=p.var, const=p.const, lateinit=p.lateinit, delegated=p.delegated, external=p.external,
                   expect=p.expect, jvm_field=jvm_field,
                   jvm_static=static_in_object or any(x.startswith("static:") for x in links),
                   synthesized=p.member_kind == "synthesized",
                   jvm_name=bool(p.jvm_getter and not annotation and not _default_getter(p.name, p.jvm_getter[0])))
    detail = {"type_parameters": _tps_json(p.type_parameters), "receiver": _type_json(p.receiver),
              "type": _type_json(p.return_type),
              "getter": {"visibility": p.getter.visibility, **({"custom": True} if p.getter.not_default else {})}
              if p.getter else None,
              "setter": {"visibility": p.setter.visibility, **({"custom": True} if p.setter.not_default else {})}
              if p.setter else None}
    rows.add(owner, "property", p.name, p.visibility, p.modality, flags, render_property(p, in_interface), detail,
             links, facade)


def _same_name(name: str, jvm_name: str) -> bool:
    """Whether a JVM name is `name`, an `internal` one's `$module` suffix or a value-class mangling (`equals-impl`,
    `foo-3xk2a`) aside; a Kotlin name may itself hold a `$` (okio's `` `access$newTimeoutException` ``)."""
    return jvm_name == name or (jvm_name.startswith(name) and jvm_name[len(name)] in "$-")


def _renamed(name: str, jvm_name: str) -> bool:
    """A JVM name @JvmName chose: not the Kotlin name (kotlin_shard._same_name)."""
    return not _same_name(name, jvm_name)


def _default_getter(name: str, jvm_name: str) -> bool:
    """The getter name Kotlin derives (`getX`, `isX` for `isX`), an internal one's `$module` suffix aside."""
    return _same_name(f"get{name[:1].upper()}{name[1:]}", jvm_name) or (name.startswith("is")
                                                                         and _same_name(name, jvm_name))


def _class_rows(rows: _Rows, m: _Members, owner: str, c: KmClass) -> None:
    flags = _flags(data=c.data, value=c.value, fun=c.fun, inner=c.inner, external=c.external, expect=c.expect,
                   local=c.local, sealed=c.modality == "sealed")
    detail = {"keyword": class_keyword(c), "type_parameters": _tps_json(c.type_parameters),
              "supertypes": [_type_json(s) for s in c.supertypes], "companion": c.companion,
              "enum_entries": c.enum_entries, "sealed_subclasses": [jvm_internal_name(s) for s in c.sealed_subclasses],
              "nested": c.nested}
    if c.underlying_property:
        detail["underlying"] = {"name": c.underlying_property, "type": _type_json(c.underlying_type)}
    rows.add(owner, "class", c.name.rsplit("/", 1)[-1], c.visibility, c.modality, flags, render_class_header(c),
             detail, ["type:" + owner], None)
    in_interface = c.kind == "interface"
    is_object = c.kind in ("object", "companion object")
    outer = owner.rsplit("$", 1)[0] if c.kind == "companion object" and "$" in owner else None
    if c.kind not in ("object", "companion object"):
        for k in c.constructors:
            links = []
            main = m.method(owner, k.jvm)
            if main:
                links.append("constructor:" + main)
            if k.jvm and any(p.declares_default for p in k.parameters) and k.jvm[0] == "<init>":
                d = m.method(owner, ("<init>", k.jvm[1][:-2] + "ILkotlin/jvm/internal/DefaultConstructorMarker;)V"))
                if d:
                    links.append("default:" + d)
                if main and main in m.overloads:  # @JvmOverloads: the copies dropping trailing defaults
                    for key in _jvm_overloads(k.jvm[1][1:-2], "V", k.parameters):
                        other = m.method(owner, ("<init>", key))
                        if other and not m.access(other) & ACC_SYNTHETIC:
                            links.append("overload:" + other)
            detail = {"parameters": _params_json(k.parameters), "jvm_descriptor": _descriptor(main, k.jvm)}
            rows.add(owner, "constructor", "<init>", k.visibility, None,
                     _flags(secondary=k.secondary, jvm_overloads=any(x.startswith("overload:") for x in links)),
                     render_constructor(k), detail, links, None)
    for f in c.functions:
        _function_row(rows, m, owner, None, f, in_interface, outer, False, is_object)
    for p in c.properties:
        _property_row(rows, m, owner, None, p, in_interface, outer, c.kind == "annotation class", is_object)
    for a in c.type_aliases:
        rows.add(owner, "typealias", a.name, a.visibility, None, [], render_type_alias(a),
                 {"expanded": _type_json(a.expanded)}, [], None)


def kotlin_table(types: pa.Table, members: pa.Table, annotations: pa.Table | None = None
                 ) -> tuple[pa.Table, list[tuple[str, str, str]]]:
    """The `kotlin` table of one artifact and the warnings of classes whose metadata could not be read."""
    names, raws = types["name"].to_pylist(), types["kotlin"].to_pylist()
    present = {n: r for n, r in zip(names, raws) if r}
    if not present:
        return empty_table(), []
    facades_of: dict[str, str] = {}
    decoded: dict[str, object] = {}
    warnings: list[tuple[str, str, str]] = []

    def decode(name: str):
        if name in decoded:
            return decoded[name]
        outer_name = name.rsplit("$", 1)[0] if "$" in name else None
        outer = decode(outer_name) if outer_name in present else None
        try:
            meta = decode_metadata(present[name], outer, lambdas=False)
        except MetadataError as e:
            warnings.append((e.code, name, f"Kotlin metadata of {name.replace('/', '.')} unread ({e.message}); "
                                           f"showing its JVM view"))
            meta = None
        decoded[name] = meta
        return meta

    for name in sorted(present, key=lambda n: (n.count("$"), n)):
        decode(name)
    for name, meta in decoded.items():
        if meta is not None and meta.facade:
            facades_of[name] = meta.facade
    m = _Members(members, annotations, set(present) | set(facades_of.values()), set(names))
    rows = _Rows()
    for name in sorted(decoded):
        meta = decoded[name]
        if meta is None:
            continue
        if meta.klass is not None:
            _class_rows(rows, m, name, meta.klass)
        elif meta.package is not None:
            facade = meta.facade
            for f in meta.package.functions:
                _function_row(rows, m, name, facade, f, False, None, True)
            for p in meta.package.properties:
                _property_row(rows, m, name, facade, p, False, None)
            for a in meta.package.type_aliases:
                rows.add(name, "typealias", a.name, a.visibility, None, [], render_type_alias(a),
                         {"expanded": _type_json(a.expanded)}, [], facade)
    return rows.table(), sorted(warnings)
