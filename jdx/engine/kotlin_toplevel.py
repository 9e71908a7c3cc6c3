"""Kotlin top-level functions and properties by their Kotlin names (docs/kotlin.md): what `imports` and `resolve`
need of them. A top-level declaration compiles to a static member of its file facade (`UtilKt`, or the class a
@JvmName names; a multi-file part's is named in its facade); Java imports that member, Kotlin the package name."""

from __future__ import annotations

import json
import re
from collections import defaultdict

from jdx.engine import descriptors as d
from jdx.engine.search import artifact_table
from jdx.engine.search_index import index_for
from jdx.errors import AmbiguousError, Warning_
from jdx.graph_schema import queries
from jdx.graph_schema.store import GraphStore

ACC_STATIC = 0x0008


def _art_names(store: GraphStore) -> dict[str, dict]:
    return {a["id"]: a for a in artifact_table(store)}


FILE_LEVEL_KINDS = (2, 5)  # @kotlin.Metadata `k` of a file facade and of a multi-file facade's part


def jvm_names(name: str) -> tuple[str, ...]:
    """The JVM names a Kotlin function or property `name` compiles to without @JvmName: the function, the field of
    a `const`/`@JvmField`, an `isX` property's getter, and `getX`."""
    return (name, "get" + name[:1].upper() + name[1:]) if name[:1].islower() else (name, "get" + name)


def top_level_decls(store: GraphStore, member_ids: list[str]) -> list[dict]:
    """The Kotlin top-level functions and properties (of a file facade or a multi-file part) these JVM members
    compile from, each once, with `member` (the JVM member it was found by) and its class's `artifact`."""
    from jdx.engine.kotlin_view import member_kotlin

    out: dict[str, dict] = {}
    for mid, rows in member_kotlin(store, member_ids).items():
        for row in rows:
            if row["kind"] not in ("function", "property") or row["id"] in out:
                continue
            owner = _file_level(store, row["owner"])
            if owner is not None:
                out[row["id"]] = {**row, "member": mid, "artifact": owner["t.artifact"]}
    return sorted(out.values(), key=lambda d: (d["owner"], d["position"]))


def _file_level(store: GraphStore, type_id: str) -> dict | None:
    """The type row of a file facade or multi-file part, None for any other class."""
    rows = store.rows_cached(queries.TYPE_BY_ID, {"id": type_id})
    try:
        level = bool(rows) and int(json.loads(rows[0]["t.kotlin"] or "{}").get("k")) in FILE_LEVEL_KINDS
    except (TypeError, ValueError, AttributeError):
        return None
    return rows[0] if level else None


def top_level(store: GraphStore, name: str, package: str | None) -> list[dict]:
    """The Kotlin top-level declarations of this Kotlin name (in `package` when given), found through the search
    index by the JVM names they compile to (a @JvmName rename is found by its JVM name only)."""
    from jdx.engine.kotlin_hits import has_kotlin

    if not name or not re.fullmatch(r"[\w$]+", name) or not has_kotlin(store):
        return []
    index = index_for(store)
    found = {r["id"]: r for n in jvm_names(name) for r in index.named(n)
             if r["kind"] in ("method", "field") and r["access"] & ACC_STATIC
             and (package is None or d.package_of(r["owner"]) == package)}
    if not found:
        return []
    return [x for x in top_level_decls(store, sorted(found)) if x["name"] == name]


def _main_ref(decl: dict) -> str:
    """The JVM member a Java caller names for a top-level declaration: a multi-file part's is named in its facade,
    which has a copy or inherits it from the part (kotlin-stdlib's `CollectionsKt`, `-Xmultifile-parts-inherit`)."""
    from jdx.engine.kotlin_hits import main_member
    from jdx.engine.kotlin_view import member_ref

    target = main_member(decl, decl["owner"]) or decl["member"]
    if decl["facade"] and target.split("#", 1)[0] != decl["facade"]:
        target = f"{decl['facade']}#{target.split('#', 1)[1]}"
    return member_ref(target)


def top_level_candidates(store: GraphStore, name: str, package: str | None, found: list[dict]) -> list[dict]:
    """resolve's candidates for the Kotlin top-level declarations of `name` whose JVM member has another name (a
    property's getter): the JVM reference (overloads grouped, as `_unqualified` does) with the Kotlin declaration
    as a note."""
    have = {c["ref"].split("(", 1)[0] for c in found}
    groups: dict[str, list[tuple[str, dict]]] = defaultdict(list)
    for x in top_level(store, name, package):
        ref = _main_ref(x)
        if ref.split("(", 1)[0] not in have:
            groups[ref.split("(", 1)[0]].append((ref, x))
    out = []
    for short, decls in groups.items():
        ref, x = decls[0]
        note = f"Kotlin {x['signature'].removeprefix('public ')}" + (
            f" and {len(decls) - 1} more" if len(decls) > 1 else "")
        row = {"kind": "method" if "(" in ref else "field", "ref": ref if len(decls) == 1 else short,
               "artifact": x["artifact"], "public": any(v["visibility"] in ("public", None) for _, v in decls),
               "note": note}
        if len(decls) > 1:
            row["overloads"] = len(decls)
        out.append(row)
    return out


def kotlin_imports(decls: list[dict], java: list[dict]) -> list[dict]:
    """The Java `import static` entries (labelled) and the Kotlin `import package.name` of top-level declarations;
    an extension is imported by its Kotlin name only (Java calls it as a static method of its facade)."""
    package = d.package_of(decls[0]["owner"])
    name = decls[0]["name"]
    extension = all(json.loads(x["detail"] or "{}").get("receiver") for x in decls)
    kotlin = {"ref": _main_ref(decls[0]), "kotlin_name": f"{package}.{name}" if package else name, "language": "kotlin",
              "statement": f"import {package}.{name}" if package else f"// {name}: in the unnamed package",
              "kind": decls[0]["kind"], "artifact": java[0]["artifact"],
              "declarations": [x["signature"] for x in decls]}
    visibility = {x["visibility"] for x in decls}
    if visibility == {"internal"}:
        kotlin["note"] = "internal: only code of its module can use it"
    elif visibility == {"private"}:
        kotlin["note"] = "private: only code of its file can use it"
    elif extension:
        kotlin["note"] = f"extension: Java calls it as the static method {_main_ref(decls[0])}"
    if extension:
        return [kotlin]
    return [{**j, "language": "java"} for j in java] + [kotlin]


def top_level_import(store: GraphStore, text: str, decls: list[dict]) -> tuple[dict, list[Warning_]]:
    """`imports scaled` / `imports fx.scaled`: a Kotlin top-level function or property by its Kotlin name."""
    packages = sorted({d.package_of(x["owner"]) for x in decls})
    arts = _art_names(store)
    if len(packages) > 1:  # one candidate a package: what a Kotlin import names
        first = {d.package_of(x["owner"]): x for x in reversed(decls)}
        raise AmbiguousError(f"ambiguous: Kotlin top-level declarations named {text} in {len(packages)} packages",
                             candidates=[{"ref": f"{p}.{first[p]['name']}" if p else first[p]["name"],
                                          "kind": first[p]["kind"],
                                          "artifact": arts.get(first[p]["artifact"], {}).get("name", "")}
                                         for p in packages],
                             hint="re-run with one of the names above")
    java = java_imports(store, decls)
    return {"type": java[0]["ref"].split("#", 1)[0], "imports": kotlin_imports(decls, java)}, []


def java_imports(store: GraphStore, decls: list[dict]) -> list[dict]:
    """The `import static` of each JVM member name the declarations compile to, in the class a Java caller names."""
    arts = _art_names(store)
    names: dict[str, list[tuple[str, str]]] = defaultdict(list)  # owner#name -> (full ref, artifact id)
    for x in decls:
        ref = _main_ref(x)
        names[ref.split("(", 1)[0]].append((ref, x["artifact"]))
    java = []
    for ref, found in sorted(names.items()):
        host, _, jvm_name = ref.partition("#")
        entry = {"ref": ref, "statement": f"import static {host.replace('$', '.')}.{jvm_name};",
                 "kind": "method" if "(" in found[0][0] else "field",
                 "artifact": arts.get(found[0][1], {}).get("name", "")}
        if len(found) > 1:
            entry["note"] = f"imports all {len(found)} static overloads"
        java.append(entry)
    return java
