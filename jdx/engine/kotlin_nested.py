"""The Kotlin view's reading of what a class holds beside its own declarations: its nested classes as Kotlin
declares them (`companion object Companion`, `object Default`, `enum class Severity`), an interface's `DefaultImpls`
left out, its companion object (`companion_id`), and the JVM twins kotlinc writes beside a value class's declarations
(kotlin_view.outline_view)."""

from __future__ import annotations

import json

from jdx.engine.kotlin_view import CALLED_ROLES, decls_of, keyword_of
from jdx.kotlin.jvm import MANGLED


def boxed_twins(type_id: str, decls: list[dict], member_ids: set) -> dict[str, list[tuple[str, str]]]:
    """Declaration id -> (role, JVM member id) of the members kotlinc writes beside a value class's declaration, which
    compiles to a static method taking the unboxed value first (`equals-impl(JLjava/lang/Object;)Z`,
    `compareTo-LRDsOJo(JJ)I`): its `boxed` twin, the instance method a boxed value (and Java) calls, of the same name
    without `-impl` and parameters without the value (`equals(Ljava/lang/Object;)Z`, `compareTo-LRDsOJo(J)I`), and
    `equals`'s `unboxed` `equals-impl0(JJ)Z` (`==` of two unboxed values). Those of `member_ids` only."""
    from jdx.engine.jvm_names import parse_method_descriptor

    out: dict[str, list[tuple[str, str]]] = {}
    for d in decls:
        for link in d["jvm"] or ():
            role, _, target = link.partition(":")
            owner, _, rest = target.partition("#")
            if role not in CALLED_ROLES or owner != type_id or "(" not in rest:
                continue
            name, desc = rest[:rest.index("(")], rest[rest.index("("):]
            try:
                params, ret = parse_method_descriptor(desc)
            except ValueError:
                continue
            if not params or not (name.endswith("-impl") or MANGLED.fullmatch(name)):
                continue
            base = name.removesuffix("-impl")
            found = [("boxed", f"{type_id}#{base}({''.join(params[1:])}){ret}")]
            if base == "equals":
                found.append(("unboxed", f"{type_id}#equals-impl0({params[0] * 2})Z"))
            out.setdefault(d["id"], []).extend(x for x in found if x[1] in member_ids)
    return {k: v for k, v in out.items() if v}


def nested_rows(store, members: list[dict], include_synthetic: bool) -> tuple[list[dict], set[str]]:
    """(the outline's nested classes as Kotlin declares them, from each one's own @Metadata: `companion object
    Companion`, `object Default`, `enum class Severity`, `data class Pt`, `inner class Cursor`; the ids of the
    `DefaultImpls` classes left out). kotlinc writes an interface's `DefaultImpls` (the bodies of its methods, for
    Java callers; a synthetic class to the metadata, no Kotlin declaration): listed as a JVM class only with
    `include_synthetic`. A nested class without a Kotlin header stays a JVM row."""
    out, impls = [], set()
    for m in members:
        if not m.get("nested_type") or not m.get("_id"):
            continue
        header = next((d for d in decls_of(store, m["_id"]) if d["kind"] == "class" and d["owner"] == m["_id"]), None)
        if header is not None:
            out.append({"kind": "class", "name": m["name"], "text": _nested_text(header), "visibility":
                        header["visibility"], "modality": header["modality"], "flags": list(header["flags"] or ()),
                        "markers": [], "detail": {"keyword": keyword_of(header)},
                        "jvm": [{"role": "type", "ref": m["ref"]}], "_id": m["_id"]})
        elif not include_synthetic and m["name"] == "DefaultImpls" and _synthetic_class(store, m["_id"]):
            impls.add(m["_id"])
    return out, impls


def _synthetic_class(store, type_id: str) -> bool:
    """Whether the class's @kotlin.Metadata is kotlinc's kind 3 (a synthetic class: a lambda, `DefaultImpls`)."""
    from jdx.graph_schema import queries

    rows = store.rows(queries.TYPE_BY_ID, {"id": type_id})
    try:
        return bool(rows) and json.loads(rows[0].get("t.kotlin") or "{}").get("k") == 3
    except ValueError:
        return False


def _nested_text(header: dict) -> str:
    """A nested class's header row as a line of its outer class's outline: its visibility, kind word, name and type
    parameters (`public enum class Severity`, `public data class Pair<out A, out B>`), no constructor or
    supertypes (`jdx show` of the class has them)."""
    text, keyword = header["signature"], keyword_of(header)
    start = text.find(f" {keyword} ") if keyword else -1
    if start < 0:
        return text
    depth, quoted, i = 0, False, start + len(keyword) + 2
    while i < len(text) and (depth or quoted or text[i] not in "( :"):
        depth += {"<": 1, ">": -1}.get(text[i], 0)
        quoted ^= text[i] == "`"  # (a name in backticks may hold a space)
        i += 1
    return text[:i]


def companion_id(store, type_id: str) -> str | None:
    """The id of a Kotlin class's companion object, which its class header names (`kotlin/time/Duration$Companion`),
    None when it has none (or no readable header)."""
    header = next((d for d in decls_of(store, type_id) if d["kind"] == "class" and d["owner"] == type_id), None)
    try:
        name = json.loads(header["detail"] or "{}").get("companion") if header else None
    except (ValueError, AttributeError):
        name = None
    return f"{type_id}${name}" if isinstance(name, str) and name else None
