"""jdx's decoding of `@Metadata` in kotlin-reflect's terms, so the two can be compared field by field."""

from __future__ import annotations

import re

from jdx.kotlin import decode_metadata
from jdx.kotlin.model import KmClass, KmFunction, KmProperty, KmType, KmTypeParameter, KmValueParameter
from jdx.kotlin.render import fq_name, render_type

_COMMENT = re.compile(r" /\* = [^/]*?\*/")
_PARAM_NAME = re.compile(r"(?<=[(,] )[A-Za-z_$][\w$]*: |(?<=\()[A-Za-z_$][\w$]*: ")


def normalise_reflect_type(text: str) -> str:
    """Drops what kotlin-reflect adds beyond the declaration: type alias expansions (`/* = ... */`) and
    parameter names inside function types (`(index: Int) -> T`)."""
    prev = None
    while prev != text:
        prev = text
        text = _COMMENT.sub("", text)
    return _PARAM_NAME.sub("", text).replace("`", "")


def _t(t: KmType | None) -> str:
    return render_type(t, qualified=True)


def _tps(tps: list[KmTypeParameter]) -> list[dict]:
    return [{"name": p.name, "variance": p.variance or "invariant", "reified": p.reified,
             "bounds": [_t(b) for b in p.upper_bounds] or ["kotlin.Any?"]} for p in tps]


def _param(p: KmValueParameter) -> dict:
    return {"kind": "value", "name": p.name, "type": _t(p.type), "optional": p.declares_default,
            "vararg": p.vararg_element is not None}


def _this_type(c: KmClass, outer: KmClass | None = None) -> str:
    own = "<" + ", ".join(p.name for p in c.type_parameters) + ">" if c.type_parameters else ""
    if c.inner and outer is not None:
        return _this_type(outer) + "." + c.name.rsplit(".", 1)[-1] + own
    return fq_name(c.name) + own


def _instance(c: KmClass, outer: KmClass | None = None) -> dict:
    return {"kind": "instance", "name": None, "type": _this_type(c, outer), "optional": False, "vararg": False}


def _callable_params(c: KmClass | None, receiver: KmType | None, params: list[KmValueParameter],
                     outer: KmClass | None = None) -> list[dict]:
    out = []
    if c is not None:
        out.append(_instance(c, outer))
    if receiver is not None:
        out.append({"kind": "extension_receiver", "name": None, "type": _t(receiver), "optional": False,
                    "vararg": False})
    return out + [_param(p) for p in params]


def _function(owner: str, c: KmClass | None, f: KmFunction, outer: KmClass | None = None) -> dict:
    return {"owner": owner, "kind": "function", "name": f.name, "visibility": f.visibility,
            "suspend": f.suspend, "inline": f.inline, "infix": f.infix, "operator": f.operator,
            "external": f.external, "params": _callable_params(c, f.receiver, f.parameters, outer),
            "returns": _t(f.return_type), "type_params": _tps(f.type_parameters),
            "jvm": f"{owner}#{f.jvm[0]}{f.jvm[1]}" if f.jvm else None}


def _property(owner: str, c: KmClass | None, p: KmProperty, outer: KmClass | None = None) -> dict:
    return {"owner": owner, "kind": "property", "name": p.name, "visibility": p.visibility, "suspend": False,
            "var": p.var, "const": p.const, "lateinit": p.lateinit,
            "params": _callable_params(c, p.receiver, [], outer), "returns": _t(p.return_type),
            "type_params": _tps(p.type_parameters),
            "getter": f"{owner}#{p.jvm_getter[0]}{p.jvm_getter[1]}" if p.jvm_getter else None}


# JVM classes kotlin-reflect replaces by built-ins (kotlin.Function2, kotlin.Int.Companion) instead of reading them
_BUILTIN_STANDINS = re.compile(r"^kotlin/jvm/(functions/Function\d+|internal/\w+CompanionObject)$")


def comparable(owner: str, raw: str) -> str | None:
    """The oracle target for a class file (`class:` or `package:` + binary name), or None when kotlin-reflect
    cannot answer for it: local classes and anonymous objects, built-in stand-ins, multi-file facades (their
    parts are compared instead), synthetic classes."""
    meta = decode_metadata(raw)
    binary = owner.replace("/", ".")
    if meta.klass is not None:
        if meta.klass.local or _BUILTIN_STANDINS.match(owner):
            return None
        return "class:" + binary
    if meta.package is not None:
        return "package:" + binary
    return None


ENUM_SYNTHESIZED = ("values", "valueOf", "entries")  # compiler-made members that @Metadata does not list


def decode_all(rows) -> dict[str, object]:
    """JVM name -> decoded metadata, outer classes first so inner classes see their type parameters."""
    raw = dict(rows)
    done: dict[str, object] = {}

    def get(name: str):
        if name not in done:
            outer = name.rsplit("$", 1)[0] if "$" in name else None
            done[name] = decode_metadata(raw[name], get(outer) if outer in raw else None)
        return done[name]

    for name in sorted(raw, key=len):
        get(name)
    return done


def jdx_view(owner: str, meta, decoded: dict) -> list[dict]:
    """Declarations of one class file as kotlin-reflect lists them (functions, properties, constructors)."""
    out: list[dict] = []
    if meta.klass is not None:
        c = meta.klass
        outer_meta = decoded.get(owner.rsplit("$", 1)[0]) if "$" in owner else None
        outer = outer_meta.klass if outer_meta is not None and c.inner else None
        out.append({"owner": owner, "kind": "class", "name": fq_name(c.name), "visibility": c.visibility,
                    "data": c.data, "value": c.value, "fun": c.fun, "companion": c.kind == "companion object",
                    "inner": c.inner, "sealed": c.modality == "sealed", "enum": c.kind == "enum class", "type_params": _tps(c.type_parameters)})
        out += [_function(owner, c, f, outer) for f in c.functions]
        out += [_property(owner, c, p, outer) for p in c.properties]
        for k in c.constructors if c.kind not in ("object", "companion object") else ():
            # kotlin-reflect types an inner constructor's outer-instance parameter as the inner class itself
            params = ([_instance(c, outer)] if outer is not None else []) + [_param(p) for p in k.parameters]
            out.append({"owner": owner, "kind": "constructor", "name": "<init>", "visibility": k.visibility,
                        "params": params, "returns": _this_type(c, outer),
                        "jvm": f"{owner}#{k.jvm[0]}{k.jvm[1]}" if k.jvm else None})
    elif meta.package is not None:
        out += [_function(owner, None, f) for f in meta.package.functions]
        out += [_property(owner, None, p) for p in meta.package.properties]
    return out


CLASS_FIELDS = ("name", "visibility", "data", "value", "fun", "companion", "inner", "sealed", "type_params")
FUNCTION_FIELDS = ("visibility", "suspend", "inline", "infix", "operator", "external", "params", "returns",
                   "type_params")
PROPERTY_FIELDS = ("visibility", "var", "const", "lateinit", "params", "returns", "type_params", "getter")
CONSTRUCTOR_FIELDS = ("visibility", "params")


def _key(d: dict) -> tuple:
    if d["kind"] == "constructor":  # a value class's constructor has no JVM constructor for kotlin-reflect
        return d["owner"], d["kind"], tuple(normalise_reflect_type(p["type"]) for p in d["params"])
    if d["kind"] == "function":  # a multi-file part's member: in the part or the facade, by compiler mode
        return d["owner"], d["kind"], d["name"], (d.get("jvm") or "#").split("#", 1)[1]
    if d["kind"] == "property":
        receiver = next((p["type"] for p in d["params"] if p["kind"] == "extension_receiver"), None)
        return d["owner"], d["kind"], d["name"], receiver
    return d["owner"], d["kind"]


def _normalised(d: dict) -> dict:
    d = dict(d)
    for k in ("returns",):
        if isinstance(d.get(k), str):
            d[k] = normalise_reflect_type(d[k])
    if "params" in d:
        d["params"] = [{**p, "type": normalise_reflect_type(p["type"])} for p in d["params"]]
    if "type_params" in d:
        d["type_params"] = [{**p, "bounds": [normalise_reflect_type(b) for b in p["bounds"]]}
                            for p in d["type_params"]]
    return d


def _inherited_defaults(r: dict, o: dict) -> tuple[list, list]:
    """kotlin-reflect marks a parameter optional when an overridden declaration has the default; @Metadata
    records only what this declaration declares, so `optional` is compared one way: jdx never claims more."""
    rp, op = r.get("params") or [], o.get("params") or []
    if len(rp) == len(op):
        op = [{**b, "optional": a["optional"]} if a["optional"] and not b["optional"] else b for a, b in zip(rp, op)]
    return rp, op


def compare(reflect: list[dict], ours: list[dict]) -> tuple[int, list[str], list[str]]:
    """(declarations compared, differences, declarations kotlin-reflect could not answer for); a declaration
    only one side has is a difference too."""
    unanswered = [f"{r['owner']} {r.get('name', '')}: {r['error'][:120]}" for r in reflect if r["kind"] == "error"]
    failed = {(r["owner"], r.get("name")) for r in reflect if r["kind"] == "error"}
    failed_owners = {o for o, n in failed if n is None}
    ours = [d for d in ours if d["owner"] not in failed_owners and (d["owner"], d["name"]) not in failed
            and not (d["kind"] == "constructor" and (d["owner"], "<init>") in failed)]
    reflect = [r for r in reflect if r["kind"] != "error"]
    mine = {_key(d): d for d in ours}
    enums = {d["owner"] for d in ours if d["kind"] == "class" and d.get("enum")}
    diffs: list[str] = []
    compared = 0
    for r in reflect:
        if r["owner"] in enums and r.get("name") in ENUM_SYNTHESIZED and _key(r) not in mine:
            continue
        key = _key(r)
        ours_d = mine.pop(key, None)
        if ours_d is None:
            diffs.append(f"only kotlin-reflect has {key}")
            continue
        fields = {"class": CLASS_FIELDS, "function": FUNCTION_FIELDS, "property": PROPERTY_FIELDS,
                  "constructor": CONSTRUCTOR_FIELDS}[r["kind"]]
        rn, on = _normalised(r), _normalised(ours_d)
        rn["params"], on["params"] = _inherited_defaults(rn, on)
        for d in (rn, on):
            if d.get("getter"):
                d["getter"] = d["getter"].split("#", 1)[1]
        compared += 1
        for f in fields:
            if rn.get(f) != on.get(f):
                diffs.append(f"{key} {f}: reflect {rn.get(f)!r} != jdx {on.get(f)!r}")
    diffs.extend(f"only jdx has {k}" for k in mine)
    return compared, diffs, unanswered
