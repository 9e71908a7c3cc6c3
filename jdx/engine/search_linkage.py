"""What a linkage error's message names (spec §7.2, `resolve` of an exception line), looked up in the workspace: the
class a `NoClassDefFoundError` or `ClassNotFoundException` could not load, the method a `NoSuchMethodError` could not
link. Whether the workspace has it is the diagnosis an agent wants: the program ran on another classpath, or against
another version of the class, or the name is in nothing the workspace holds."""

from __future__ import annotations

import re

from jdx.engine import descriptors as d
from jdx.engine.refs import format_type
from jdx.errors import JdxError
from jdx.graph_schema import queries
from jdx.graph_schema.store import GraphStore

_CLASS_ERRORS = ("NoClassDefFoundError", "ClassNotFoundException")
_METHOD_ERROR = "NoSuchMethodError"
_INIT_FAILED = "Could not initialize class "
# JDK 11+ (`'void a.B.m(java.lang.String)'`) and JDK 8 (`a.B.m(Ljava/lang/String;)V`)
_METHOD_JAVA = re.compile(r"'(?P<ret>[^\s']+) (?P<owner>[\w$.]+)\.(?P<name>[\w$<>]+)\((?P<params>[^)]*)\)'")
_METHOD_JVM = re.compile(r"(?P<owner>[\w$./]+)\.(?P<name>[\w$<>]+)(?P<desc>\([^)\s]*\)\S+)")
_CLASS_NAME = re.compile(r"[\w$]+(?:[./][\w$]+)*")


def add_linkage(store: GraphStore, result: dict, thrown: str, message: str, arts: dict[str, dict]) -> None:
    """`result.linkage` and a note, for a resolve answer of a linkage error's line (`arts`: artifact id -> row)."""
    named = linkage(store, thrown, message, {k: a.get("name", k) for k, a in arts.items()})
    if named:
        result["notes"] = [named.pop("note")]
        result["linkage"] = named


def linkage(store: GraphStore, thrown: str, message: str, artifact_names: dict[str, str]) -> dict | None:
    """{kind, names, found, artifact?, note} for a linkage error's line whose message names a class or a method; None
    for any other exception or a message that names neither. `artifact_names`: artifact id -> its name."""
    simple = thrown.rsplit(".", 1)[-1]
    text = message.lstrip(":;").strip()
    if simple in _CLASS_ERRORS:
        return _class_named(store, text, artifact_names)
    if simple == _METHOD_ERROR:
        return _method_named(store, text, artifact_names)
    return None


def _class_named(store: GraphStore, text: str, artifact_names: dict[str, str]) -> dict | None:
    init_failed = text.startswith(_INIT_FAILED)
    name = text.removeprefix(_INIT_FAILED).strip() if init_failed else text
    if not _CLASS_NAME.fullmatch(name):
        return None
    type_id = name.replace(".", "/")
    row = _declared_type(store, type_id)
    shown = format_type(type_id)
    if row is None:
        return {"kind": "class", "names": shown, "found": False,
                "note": f"the class it names, {shown}, is in no artifact of this workspace either"}
    where = artifact_names.get(row["t.artifact"], row["t.artifact"])
    note = (f"{shown} is in {where} of this workspace: its static initializer threw when the class was first used "
            "(the ExceptionInInitializerError earlier in the log says why)" if init_failed else
            f"the class it names, {shown}, is in {where} of this workspace: the classpath the program ran with lacked "
            "it (or the class loader that asked could not see it)")
    return {"kind": "class", "names": shown, "found": True, "artifact": where, "note": note}


def _method_named(store: GraphStore, text: str, artifact_names: dict[str, str]) -> dict | None:
    parsed = _method_parts(text)
    if parsed is None:
        return None
    owner, name, params, returns = parsed
    shown = f"{format_type(owner)}#{name}({', '.join(p.rsplit('.', 1)[-1] for p in params)})"
    row = _declared_type(store, owner)
    if row is None:
        return {"kind": "method", "names": shown, "found": False,
                "note": f"the method it names is of {format_type(owner)}, which no artifact of this workspace has"}
    where = artifact_names.get(row["t.artifact"], row["t.artifact"])
    has = _returns_of(store, row, name, params)
    result = {"kind": "method", "names": shown, "artifact": where}
    if not has:
        return {**result, "found": False,
                "note": f"{format_type(owner)} in {where} of this workspace has no {name}({', '.join(params)}): the "
                        f"caller was compiled against another version of it (jdx members {format_type(owner)} lists "
                        "what this one has)"}
    if returns not in has:
        return {**result, "found": False,
                "note": f"{shown} in {where} of this workspace returns {' or '.join(sorted(has))}, the caller "
                        f"expected {returns}: it was compiled against another version of {format_type(owner)}"}
    return {**result, "found": True,
            "note": f"{shown} is in {where} of this workspace: the program ran with another version of "
                    f"{format_type(owner)} on its classpath (jdx ws info lists this workspace's)"}


def _method_parts(text: str) -> tuple[str, str, list[str], str] | None:
    """(owner id, name, parameter types as Java writes them, return type) of a NoSuchMethodError's message."""
    m = _METHOD_JAVA.fullmatch(text)
    if m:
        params = [p.strip() for p in m.group("params").split(",") if p.strip()]
        return m.group("owner").replace(".", "/"), m.group("name"), params, m.group("ret")
    m = _METHOD_JVM.fullmatch(text)
    if m:
        try:
            params, ret = d.parse_method_descriptor(m.group("desc"))
        except ValueError:
            return None
        return (m.group("owner").replace(".", "/"), m.group("name"), [d.descriptor_to_java(p) for p in params],
                d.descriptor_to_java(ret))
    return None


def _declared_type(store: GraphStore, type_id: str) -> dict | None:
    rows = store.rows_cached(queries.TYPE_BY_ID, {"id": type_id})
    return rows[0] if rows and not rows[0]["t.external"] else None


def _returns_of(store: GraphStore, row: dict, name: str, params: list[str]) -> set[str]:
    """The return types (as Java writes them, qualified) of the methods the type of `row` (TYPE_BY_ID's) declares or
    inherits with this name and exactly these parameter types: what the JVM's method resolution would find."""
    from jdx.engine.member_resolve import collect

    try:
        found = collect(store, {k[2:]: v for k, v in row.items()})
    except JdxError:
        return set()
    out = set()
    for e in found.visible + found.hidden:
        m = e["row"]
        if e["is_field"] or m["name"] != name:
            continue
        wanted, ret = d.parse_method_descriptor(m["descriptor"])
        if [d.descriptor_to_java(p) for p in wanted] == params:
            out.add(d.descriptor_to_java(ret))
    return out

