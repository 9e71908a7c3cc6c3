"""Inspection cards (spec §7.1): `show` (the class card), `outline` (one line per declared member) and
`signature` (the parameter-info popup). Each returns (result, warnings, provenance); nothing prints."""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass, replace

from jdx.engine import descriptors as d
from jdx.engine.member_resolve import canonical_ref, collect, lookup
from jdx.engine.member_render import (ACC, ACCESS_LEVELS, access_level, annotated_params, annotation_shown,
                                      constructor_name, modifiers, param_annotations, record_components, record_role,
                                      render_field, render_method, with_outer_instance)
from jdx.engine.kotlin_signature import METADATA_NAMES, metadata_param_names
from jdx.engine.members import access_markers, is_hidden, type_arguments, unresolved_warnings
from jdx.engine.outline_from import inherited_from
from jdx.engine.refs import format_member, format_type, parse_ref
from jdx.engine.ranking import internal_packages
from jdx.engine.enum_bodies import body_marks, own_constant
from jdx.engine.resolve import applied_owner, artifact_names, resolve_applied_type
from jdx.engine.search import artifacts_by_id, jdk_internal
from jdx.engine.stale_classes import mark_stale
from jdx.errors import UsageError, Warning_
from jdx.graph_schema import queries
from jdx.graph_schema.store import GraphStore


KEYWORD = {"class": "class", "interface": "interface", "enum": "enum", "record": "record", "annotation": "@interface"}
KOTLIN_KINDS = {1: "class", 2: "file facade", 3: "synthetic class", 4: "multi-file class facade",
                5: "multi-file class part"}
OUTLINE_KINDS = ("method", "field", "ctor", "type", "all")
LANGUAGES = {".java": "java", ".kt": "kotlin", ".scala": "scala", ".groovy": "groovy"}  # by SourceFile extension
MAX_PERMITS_SHOWN = 20  # permitted subclasses a declaration names; `permits` in --json lists all
_SYNTHETIC_NAME = re.compile(r"^(this\$\d+|\$enum\$(name|ordinal)|val\$.*|\$.*)$")


@dataclass
class OutlineOptions:
    kind: str = "all"  # method | field | ctor | type | all
    static: bool | None = None  # True: only static, False: only instance
    access: tuple[str, ...] = ("all",)
    grep: str | None = None
    include_synthetic: bool = False
    view: str = "jvm"  # kotlin: the Kotlin view for Kotlin classes (kotlin_view.py)
    from_type: str | None = None  # a supertype whose members the type inherits follow its own (`members --from`)


def _strip(rows: list[dict]) -> list[dict]:
    """`m.name` -> `name` for `RETURN m.*` rows."""
    return [{k.split(".", 1)[1]: v for k, v in r.items()} for r in rows]


def _source_path(row: dict) -> str | None:
    if not row.get("source_file"):
        return None
    pkg = row["id"].rsplit("/", 1)[0] + "/" if "/" in row["id"] else ""
    return pkg + row["source_file"]


def _provenance(symbol: str, row: dict, artifact: str, lines: tuple[int, int] | None = None) -> dict:
    out = {"symbol": symbol, "artifact": artifact, "origin": "bytecode"}
    path = _source_path(row)
    if path:
        out["file"] = path
    if lines and lines[0] >= 0:
        out["lines"] = [lines[0], lines[1]]
    return out


def _class_sig(row: dict):
    if not row.get("signature"):
        return None
    try:
        return d.parse_class_signature(row["signature"])
    except ValueError:
        return None


# --- the class card ------------------------------------------------------------------------------

def _is_nested(row: dict) -> bool:
    return bool(row.get("outer"))


def type_modifiers(row: dict) -> list[str]:
    """Source modifiers of a type (nested types carry their InnerClasses flags); implicit ones dropped."""
    access, kind = row.get("access") or 0, row.get("kind")
    words = [access_level(access)] if access_level(access) != "package" else []
    if access & ACC["abstract"] and kind == "class":
        words.append("abstract")
    if access & ACC["static"] and _is_nested(row):
        words.append("static")
    if access & ACC["final"] and kind != "enum":  # a record is final (JLS §8.10), and its class file says so
        words.append("final")
    if _sealed(row):
        words.append("sealed")
    elif row.get("non_sealed"):
        words.append("non-sealed")
    return words


def _non_sealed(store: GraphStore, row: dict) -> bool:
    """Declared `non-sealed`: a class file has no flag for it, but a permitted subclass must be final, sealed or
    non-sealed (JLS §8.1.1.2), so one a direct supertype permits that is neither is non-sealed."""
    if _sealed(row) or row.get("access", 0) & ACC["final"] or row.get("kind") in ("enum", "record", "annotation"):
        return False
    for sup in [row.get("super"), *(row.get("interfaces") or [])]:
        found = store.rows_cached(queries.TYPE_BY_ID, {"id": sup}) if sup else []
        if found and row["id"] in (found[0].get("t.permits") or ()):
            return True
    return False


def _sealed(row: dict) -> bool:
    """Declared `sealed`: a PermittedSubclasses attribute (JVMS §4.7.31), except on an enum, which javac seals
    implicitly when a constant has a body (JLS §8.9)."""
    return bool(row.get("permits")) and row.get("kind") != "enum"


def _permits_clause(row: dict) -> str:
    """` permits A, B.C` as source writes it (simple names in the type's package, qualified outside it), at most
    MAX_PERMITS_SHOWN names with an explicit marker for the rest."""
    if not _sealed(row):
        return ""
    package = d.package_of(row["id"])
    names = []
    for p in row["permits"][:MAX_PERMITS_SHOWN]:
        other = d.package_of(p)
        names.append(d.nested_simple_name(p) if other == package or not other
                     else f"{other}.{d.nested_simple_name(p)}")
    more = len(row["permits"]) - MAX_PERMITS_SHOWN
    return " permits " + ", ".join(names) + (f", … +{more} more (jdx show --json lists all)" if more > 0 else "")


def _type_params(row: dict) -> str:
    sig = _class_sig(row)
    return d.render_type_params(sig.type_params, qualified=False) if sig and sig.type_params else ""


def type_synthetic(row: dict) -> list[str]:
    """`["synthetic"]` for a class the compiler wrote with ACC_SYNTHETIC (javac's access-constructor tag class
    `Outer$1`), as members mark theirs; else empty."""
    return ["synthetic"] if (row.get("access") or 0) & ACC["synthetic"] else []


def declaration(row: dict) -> str:
    """`public class HashMap<K, V>`, `public static interface Map.Entry<K, V>`."""
    name = d.nested_simple_name(row["id"])
    if _is_nested(row) and not row.get("inner_name"):
        return f"anonymous class {row['id'].rsplit('/', 1)[-1]}"
    if row.get("outer_method"):
        name = row["inner_name"]  # a local class: declared in a method, known there by its simple name
    local = ["local"] if row.get("outer_method") else []
    # a record's `final` is implicit (JLS §8.10): its header names its components instead
    words = [w for w in type_modifiers(row) if not (w == "final" and row.get("kind") == "record")]
    header = _record_header(row) if row.get("kind") == "record" else ""
    return " ".join(words + local + [KEYWORD.get(row.get("kind"), "class"),
                                     name + _type_params(row) + header]) + _permits_clause(row)


def record_component_list(row: dict) -> list[dict]:
    """A record's components in declaration order: name, type (generic, simple names), annotations as stored."""
    out = []
    for name, desc, sig, anns in record_components(row):
        try:
            parsed = d.parse_field_signature(sig) if sig else d.parse_type_signature(desc)
            shown = d.render_type(parsed, qualified=False)
        except ValueError:
            shown = d.render_type(d.parse_type_signature(desc), qualified=False)
        out.append({"name": name, "type": shown, "annotations": anns})
    return out


def _record_header(row: dict) -> str:
    """`(double w, double h, List<String> tags)`: the components as the record's header declares them."""
    return "(" + ", ".join(" ".join([*map(annotation_shown, c["annotations"]), c["type"], c["name"]])
                           for c in record_component_list(row)) + ")"


def _applied(row: dict, env: dict) -> str:
    """A supertype with the type arguments the query's type gives it, in the query's terms."""
    sig = _class_sig(row)
    if sig and sig.type_params and all(p.name in env for p in sig.type_params):
        args = tuple(d.TypeArg("", env[p.name]) for p in sig.type_params)
        return d.render_type(d.ClassTypeSig(row["id"], args))
    return format_type(row["id"])


def _supertypes(target: dict, walk: list[tuple[dict, dict]], applied: dict) -> tuple[list[str], list[str]]:
    """(extends, implements) as Java source writes them: a class extends its superclass chain (nearest
    first, generic arguments substituted), an interface extends its direct superinterfaces; `applied` binds the
    type's own parameters (`show 'Map<String, Integer>'`), as the walk's environments do."""
    sig = _class_sig(target)
    if sig:
        direct = [d.render_type(d.substitute(i, applied)) for i in sig.interfaces]
    else:
        direct = [format_type(i) for i in target.get("interfaces") or []]
    if target.get("kind") in ("interface", "annotation"):
        return direct, []
    by_id = {row["id"]: (row, env) for row, env in walk}
    chain, cur, seen = [], target, {target["id"]}
    while cur.get("super") and cur["super"] not in seen:
        seen.add(cur["super"])
        row, env = by_id.get(cur["super"], ({"id": cur["super"], "external": True}, {}))
        if row.get("external"):  # not in the workspace: as the class's own Signature writes it, when it is the target's
            chain.append(d.render_type(d.substitute(sig.superclass, applied)) if cur is target and sig
                         and sig.superclass.binary_name == cur["super"] else format_type(cur["super"]))
            break
        chain.append(_applied(row, env))
        cur = row
    return chain, direct


def _nested(store: GraphStore, target: dict) -> list[tuple[dict, dict]]:
    """(graph row, JSON entry) per type the target declares: member types, then local, then anonymous (an enum
    constant's body with the constant, `enum_constant`)."""
    out = []
    rows = store.rows(queries.NESTED_TYPES_OF, {"id": target["id"]})
    constants = body_marks(store, [r["id"] for r in rows if not r.get("inner_name")]) \
        if target.get("kind") == "enum" else {}
    for r in rows:
        row = dict(r, outer=target["id"])
        anonymous, local = not r.get("inner_name"), bool(r.get("outer_method"))
        # a member type as source names it (`Map.Entry`); a local or anonymous one has no such name (`Outer$1`)
        name = r["id"].rsplit("/", 1)[-1] if anonymous or local else d.nested_simple_name(r["id"])
        entry = {"ref": format_type(r["id"]), "name": name, "kind": r["kind"],
                 "modifiers": type_modifiers(row), "role": "anonymous" if anonymous else "local" if local else "member",
                 "synthetic": type_synthetic(row), **constants.get(r["id"], {})}
        natural = [int(p) if p.isdigit() else p for p in re.split(r"(\d+)", r["id"])]
        out.append((({"member": 0, "local": 1}.get(entry["role"], 2), natural), row, entry))
    out.sort(key=lambda x: x[0])
    return [(row, entry) for _, row, entry in out]


def _outer(target: dict) -> dict | None:
    if not target.get("outer"):
        return None
    out = {"ref": format_type(target["outer"]), "method": None}
    om = target.get("outer_method")
    if om and "(" in om:
        name, desc = om[: om.index("(")], om[om.index("("):]
        try:
            out["method"] = format_member(target["outer"], name, desc)
        except ValueError:
            out["method"] = f"{format_type(target['outer'])}#{om}"
    return out


def _kotlin(row: dict) -> dict | None:
    if not row.get("kotlin"):
        return None
    try:
        meta = json.loads(row["kotlin"])
    except ValueError:
        return {"kind": "unknown", "metadata_version": None}
    mv = meta.get("mv")
    return {"kind": KOTLIN_KINDS.get(meta.get("k", 1), f"k={meta.get('k')}"),
            "metadata_version": ".".join(str(x) for x in mv) if isinstance(mv, list) and mv else None}


def _counts(methods: list[dict], fields: list[dict]) -> dict:
    def shown(m: dict, is_field: bool) -> bool:
        return not is_hidden(m, is_field)

    ms = [m for m in methods if shown(m, False) and not m["name"].startswith("<")]
    cs = [m for m in methods if shown(m, False) and m["name"] == "<init>"]
    fs = [f for f in fields if shown(f, True)]

    def public(rows: list[dict]) -> int:
        return sum(1 for r in rows if r["access"] & ACC["public"])

    return {"methods": len(ms), "public_methods": public(ms), "fields": len(fs), "public_fields": public(fs),
            "constructors": len(cs), "public_constructors": public(cs),
            "enum_constants": sum(1 for f in fs if f["access"] & ACC["enum"]),
            "synthetic": len(methods) + len(fields) - len(ms) - len(cs) - len(fs)
            - sum(1 for m in methods if m["name"] == "<clinit>")}


def language(row: dict, kotlin: dict | None) -> str:
    """The language a class was compiled from: Kotlin by its @Metadata, else by its SourceFile's extension
    (`package.scala` -> scala); java when neither says."""
    if kotlin:
        return "kotlin"
    ext = "." + (row.get("source_file") or "").rpartition(".")[2]
    return LANGUAGES.get(ext, "java")


def members_command(fqn: str, arguments: dict[str, str] | None = None) -> str:
    """`jdx members java.util.HashMap`, the name shell-quoted when needed (`'java.util.Map$Entry'`), with the type
    arguments a query gave (`type_arguments`) kept."""
    return "jdx members " + shlex.quote(fqn + (f"<{', '.join(arguments.values())}>" if arguments else ""))


def show_type(store: GraphStore, text: str, opts=None) -> tuple[dict, list[Warning_], list[dict]]:
    """The class card of spec §7.1 (no doc line: sources are not indexed yet); `opts` is the view
    (`kotlin` adds the Kotlin declaration of a Kotlin class). Type arguments given (`Map<String, Integer>`) are
    checked as `members` checks them and substituted in the supertypes."""
    target, applied = resolve_applied_type(store, text)
    fqn = format_type(target["id"])
    found = collect(store, target, applied)
    if _non_sealed(store, target):
        target = dict(target, non_sealed=True)
    extends, implements = _supertypes(target, found.walk, applied)
    direct = set(target.get("interfaces") or [])
    # the interfaces it has through its supertypes ("is it Serializable?"), nearest first, as they are applied there
    also = [_applied(row, env) for row, env in found.walk[1:]
            if row.get("kind") in ("interface", "annotation") and row["id"] not in direct]
    arguments = type_arguments(applied)
    arts = artifact_names(store)
    artifact = arts.get(target.get("artifact") or "", "")
    kotlin = _kotlin(target)
    nested = _nested(store, target)
    result = {
        "ref": fqn,
        "kind": target.get("kind"),
        "package": d.package_of(target["id"]),
        "modifiers": type_modifiers(target),
        "synthetic": type_synthetic(target),
        "declaration": declaration(target),
        **own_constant(store, target),
        "extends": extends,
        "implements": implements,
        "also_implements": also,
        "permits": [format_type(p) for p in target.get("permits") or []],  # PermittedSubclasses, class-file order
        **({"record_components": record_component_list(target)} if target.get("kind") == "record" else {}),
        "nested": [entry for _, entry in nested],
        "outer": _outer(target),
        "annotations": list(target.get("annotations") or []),
        "deprecated": bool(target.get("deprecated")),
        **({"jdk_internal": True} if _jdk_internal(store, target) else {}),
        "artifact": artifact,
        "source_file": target.get("source_file"),
        "language": language(target, kotlin),
        "kotlin": kotlin,
        "class_version": target.get("version"),
        "counts": _counts(found.methods.get(target["id"], []), found.fields.get(target["id"], [])),
        **({"type_arguments": arguments} if arguments else {}),
        "next": members_command(fqn, arguments),
    }
    warnings = unresolved_warnings(found.unresolved) + mark_stale(store, [(row["id"], e) for row, e in nested])
    if opts == "kotlin" and kotlin:
        from jdx.engine import kotlin_view

        warnings += kotlin_view.show_view(store, result, target)
    return result, warnings, [_provenance(fqn, target, artifact)]


def _jdk_internal(store: GraphStore, row: dict) -> bool:
    """A JDK type in a package its module does not export to every module (`com.sun.tools.javac.tree`, exported to
    jdk.jshell and jdk.javadoc only): code outside the JDK compiles against it only with --add-exports."""
    origin = artifacts_by_id(store).get(row.get("artifact") or "", {}).get("origin", "")
    return jdk_internal(origin, row["id"], internal_packages(store))


# --- rendering one member -------------------------------------------------------------------------

def param_names(row: dict, count: int) -> tuple[list[str], str]:
    """Names for `count` rendered parameters and where they came from (`none`: synthesised arg0…).

    The rendered list follows the generic signature, which omits synthetic leading parameters (an enum
    constructor's name and ordinal); names follow the descriptor, so those are dropped to line up."""
    names = row.get("param_names")
    source = row.get("param_source") or "none"
    if names is not None and len(names) != count:
        kept = [n for n in names if n and not _SYNTHETIC_NAME.match(n)]
        names = kept if len(kept) == count else (names[len(names) - count:] if len(names) > count else None)
    if names is None or (count and source == "none"):
        return [f"arg{i}" for i in range(count)], "none"
    return [n or f"arg{i}" for i, n in enumerate(names)], source


def _field_type(row: dict, env: dict) -> str:
    try:
        sig = d.parse_field_signature(row["signature"]) if row.get("signature") else None
    except ValueError:
        sig = None
    sig = sig or d.parse_type_signature(row["descriptor"])
    return d.render_type(d.substitute(sig, env) if env else sig, qualified=False)


def render_member(row: dict, *, is_field: bool, owner: str, env: dict, iface: bool, names_from_source=None,
                  names_from_kotlin=None) -> dict:
    """A member as data; `text` is its declaration in simple names with parameter names
    (`public V put(K key, V value)`), generics substituted by `env`. `names_from_kotlin` (a
    kotlin_view.MetadataParamNames), then `names_from_source` (a src_params.SourceParamNames), name the parameters
    the class file leaves unnamed as the class's @kotlin.Metadata, then its sources, declare them."""
    access = row["access"]
    kind = "field" if is_field else {"<init>": "constructor", "<clinit>": "initializer"}.get(row["name"], "method")
    item = {"kind": kind, "name": row["name"], "text": "", "modifiers": [], "access": access_level(access),
            "static": bool(access & ACC["static"]), "deprecated": bool(row.get("deprecated")),
            "synthetic": access_markers(access, is_field)}
    if is_field:
        item.update(text=render_field(row, env), modifiers=modifiers(access, method=False).split(),
                    type=_field_type(row, env),
                    constant=d.render_constant(row["descriptor"], row["constant"]) if row.get("constant") is not None
                    else None)
        return item
    if kind == "initializer":
        item.update(text="static {}", modifiers=["static"], params=[], returns=None, throws=[],
                    param_names_from=None, default=None)
        return item
    text, params, ret = render_method(dict(row, _iface=iface), constructor_name(owner), env)
    names, names_from = param_names(row, len(params))
    for namer, source in ((names_from_kotlin, METADATA_NAMES), (names_from_source, "source")):
        declared = namer.names(owner, row, len(params)) if names_from == "none" and namer is not None else None
        if declared is not None:
            names, names_from = declared, source
    head = text[: text.index("(")]
    shown = annotated_params(row, params)
    rest = text[len(head) + 2 + len(", ".join(shown)):]
    item.update(text=f"{head}({', '.join(f'{t} {n}' for t, n in zip(shown, names))}){rest}",
                modifiers=modifiers(access, method=True, interface_owner=iface).split(),
                params=[{"name": n, "type": t, **({"annotations": a} if a else {})}
                        for t, n, a in zip(params, names, param_annotations(row, len(params)))],
                returns=None if kind == "constructor" else ret,
                throws=rest[len(" throws "):].split(", ") if rest.startswith(" throws ") else [],
                param_names_from=names_from if params else None, default=row.get("annotation_default"))
    return item


def _unnamed(row: dict) -> bool:
    """A method with parameters its class file does not name (its sources may)."""
    return (row.get("param_source") or "none") == "none" and not (row.get("descriptor") or "()").startswith("()")


# --- outline -------------------------------------------------------------------------------------

def _levels(access: tuple[str, ...]) -> set[str]:
    unknown = [a for a in access if a not in ACCESS_LEVELS + ("all",)]
    if unknown:
        raise UsageError(f"--access {unknown[0]!r}: use public, protected, package, private or all")
    return set(ACCESS_LEVELS) if "all" in access or not access else set(access)


def _grep(pattern: str | None):
    if not pattern:
        return None
    try:
        return re.compile(pattern, re.IGNORECASE)
    except re.error as exc:
        raise UsageError(f"--grep {pattern!r}: {exc}") from exc


def outline_type(store: GraphStore, text: str, opts=None, sources=None) -> tuple[dict, list[Warning_], list[dict]]:
    """One line per declared member (fields, constructors, methods, each in the class file's order, then member
    types), the File Structure popup; synthetic and bridge members only with `include_synthetic`. `sources` (a SourceContext, or a
    callable giving one) names the parameters the class file does not, from the type's sources."""
    from jdx.engine.src_params import namer

    opts = opts or OutlineOptions()
    if opts.kind not in OUTLINE_KINDS:
        raise UsageError(f"--kind {opts.kind!r}: use method, field, ctor, type or all")
    levels, grep = _levels(opts.access), _grep(opts.grep)
    target = resolve_applied_type(store, text)[0]  # arguments checked as `members` does; declarations as declared
    fqn = format_type(target["id"])
    iface = target.get("kind") in ("interface", "annotation")
    methods = _strip(store.rows(queries.MEMBERS_OF, {"id": target["id"]}))
    fields = _strip(store.rows(queries.FIELDS_OF, {"id": target["id"]}))
    rows = [(f, True) for f in fields] + [(with_outer_instance(m, target), False) for m in methods
                                          if m["name"] != "<clinit>"]
    found = collect(store, target)
    walked = found.methods  # canonical refs: `:Ret` for bridge twins, `:Type` for clashing fields
    items = []
    named = namer(sources) if any(_unnamed(m) for m, f in rows if not f) else None
    from_kotlin = metadata_param_names(store, [target], methods)
    for row, is_field in rows:
        item = render_member(row, is_field=is_field, owner=target["id"], env={}, iface=iface,
                             names_from_source=named, names_from_kotlin=from_kotlin)
        ref = canonical_ref({"row": row, "is_field": is_field, "declaring": target["id"]},
                            walked.get(target["id"]), walked)
        line = row.get("first_line")
        role = None if is_field else record_role(target, row)
        items.append({"ref": ref, **item, "line": line if line is not None and line >= 0 else None,
                      **({"record": role} if role else {}), "_id": row["id"], "_pos": row.get("position")})
    nested = _nested(store, target)
    bodies = {n["enum_constant"]: n["ref"] for _, n in nested if n.get("enum_constant")}
    for it in items:
        if it["kind"] == "field" and it["ref"] in bodies:
            it["body"] = bodies[it["ref"]]  # an enum constant's class body (`Op$3`)
    for nrow, n in nested:
        if n["role"] == "member":
            items.append({"ref": n["ref"], "kind": n["kind"], "name": nrow["inner_name"],
                          "text": " ".join(n["modifiers"] + [nrow["inner_name"] + _type_params(nrow)]),
                          "modifiers": n["modifiers"], "access": access_level(nrow["access"]),
                          "static": bool(nrow["access"] & ACC["static"]), "deprecated": False,
                          "synthetic": ["synthetic"] if nrow["access"] & ACC["synthetic"] else [], "nested_type": True,
                          "line": None, "_id": nrow["id"]})
    want = {"ctor": "constructor"}.get(opts.kind, opts.kind)
    out, hidden = [], 0
    for it in items:
        if opts.kind != "all" and not (it["kind"] == want and not it.get("nested_type")
                                       or (want == "type" and it.get("nested_type"))):
            continue
        if it["access"] not in levels or (grep and not grep.search(it["name"])):
            continue
        if opts.static is not None and it["static"] != opts.static:
            continue
        if it["synthetic"] and not opts.include_synthetic:
            hidden += 1
            continue
        out.append(it)
    order = {"field": 0, "constructor": 1, "initializer": 1, "method": 2}
    # each kind in the class file's order (javac's is the source's: an enum's constants as `values()` gives them, a
    # struct's fields in layout order), member types by name
    out.sort(key=lambda it: (3 if it.get("nested_type") else order[it["kind"]],
                             -1 if it.get("_pos") is None else it["_pos"], it["name"], it["ref"]))
    arts = artifact_names(store)
    artifact = arts.get(target.get("artifact") or "", "")
    result = {"type": fqn, "kind": target.get("kind"), "declaration": declaration(target),
              **own_constant(store, target), "members": out, "hidden_synthetic": hidden, "artifact": artifact}
    warnings = mark_stale(store, [(it["_id"], it) for it in out if it.get("nested_type")])
    if opts.view == "kotlin" and target.get("kotlin"):
        from jdx.engine import kotlin_view

        warnings = kotlin_view.outline_view(store, result, target, opts)
    for it in out:
        it.pop("_id", None)
        it.pop("_pos", None)
    if opts.from_type:
        named = named or namer(sources)
        warnings += inherited_from(store, result, found.walk, opts, named)
    provenance = [_provenance(fqn, target, artifact)]
    if named is not None:
        warnings += named.warnings
        provenance += named.provenance()
    return result, warnings, provenance


# --- signature -----------------------------------------------------------------------------------

def member_signatures(store: GraphStore, text: str, opts=None, include_synthetic: bool = False,
                      limit: int | None = None, sources=None) -> tuple[dict, list[Warning_], list[dict]]:
    """Every overload a member reference names, with parameter names, generics (in the queried type's
    terms), throws, annotations and annotation defaults; bridges and synthetic overloads too with
    `include_synthetic`; the first `limit` (the result's `total` counts them all). `sources` (a SourceContext, or a
    callable giving one) names the parameters the class file does not, from the declaring type's sources."""
    from jdx.engine.src_params import namer
    from jdx.engine.type_uses import annotate, with_type_uses
    owner = applied_owner(text)  # `Map<String, Integer>#get`: checked as `members` checks them, before the member
    applied = resolve_applied_type(store, owner)[1] if owner is not None else {}
    found = lookup(store, text, with_hidden=include_synthetic, kotlin_properties=opts != "jvm", applied=applied)
    if opts == "kotlin" and not include_synthetic and found.target.get("kotlin"):
        from jdx.engine.kotlin_signature import with_reified_inline

        found = with_reified_inline(store, text, found)  # a reified inline function's synthetic method is API
    total = len(found.members)
    if limit is not None and total > limit:
        found = replace(found, members=found.members[:limit])
    full: dict[tuple[str, str, str], dict] = {}
    owners: dict[str, dict] = {}
    for owner in dict.fromkeys(e["declaring"] for e in found.members):
        owners[owner] = _strip(store.rows(queries.TYPE_BY_ID, {"id": owner}))[0]
        for row in _strip(store.rows(queries.MEMBERS_OF, {"id": owner})):
            full[(owner, row["name"], row["descriptor"])] = row
        for row in _strip(store.rows(queries.FIELDS_OF, {"id": owner})):
            full[(owner, row["name"], ":" + row["descriptor"])] = row
    arts = artifact_names(store)
    items, provenance = [], []
    named = None
    from_kotlin = metadata_param_names(store, list(owners.values()), [r for k, r in full.items() if "(" in k[2]])
    for e in found.members:
        row = e["row"]
        key = (e["declaring"], row["name"], (":" if e["is_field"] else "") + row["descriptor"])
        row = with_type_uses(store, {**row, **full.get(key, {})}, e["is_field"])  # `@Nullable String`
        if named is None and not e["is_field"] and _unnamed(row):
            named = namer(sources)
        item = annotate(render_member(row, is_field=e["is_field"], owner=e["declaring"], env=e["env"],
                                      iface=e["iface"], names_from_source=named, names_from_kotlin=from_kotlin), row)
        artifact = arts.get(owners[e["declaring"]].get("artifact") or "", "")
        item = {"ref": e["ref"], "declaring": format_type(e["declaring"]), **item,
                "annotations": list(row.get("annotations") or []), "artifact": artifact}
        line = row.get("first_line", -1)
        item["lines"] = [line, row.get("last_line", -1)] if line is not None and line >= 0 else None
        if e.get("overrides"):
            item["overrides"] = e["overrides"]
        if e.get("hides"):
            item["hides"] = e["hides"]
        items.append(item)
        provenance.append(_provenance(e["ref"], owners[e["declaring"]], artifact,
                                      (row.get("first_line", -1), row.get("last_line", -1))))
    # the Kotlin view names the overloads as asked (`Path#div`, the operators kotlinc compiles to `resolve`)
    asked = parse_ref(text).member if opts == "kotlin" and found.target.get("kotlin") else None
    result = {"type": format_type(found.target["id"]), "name": asked or found.ref.member, "signatures": items,
              "total": total,
              "next": f"jdx outline {shlex.quote(items[0]['declaring'])}" if len(items) == 1 else None,
              **({"notes": found.notes} if found.notes else {}),  # what the name was read as (Kotlin)
              **({"type_arguments": type_arguments(applied)} if applied else {})}
    if opts == "kotlin" and any(owners[e["declaring"]].get("kotlin") for e in found.members):
        from jdx.engine import kotlin_view

        kotlin_view.signature_view(store, result, [
            f"{e['declaring']}#{e['row']['name']}" + (":" if e["is_field"] else "") + e["row"]["descriptor"]
            for e in found.members])
    warnings = unresolved_warnings(found.unresolved)
    if named is not None:
        warnings += named.warnings
        provenance += named.provenance()
    return result, warnings, provenance
