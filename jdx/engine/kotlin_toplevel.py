"""Kotlin functions and properties by their Kotlin names (docs/kotlin.md): what `search`, `imports` and `resolve`
need of them. A top-level declaration compiles to a static member of its file facade (`UtilKt`, or the class a
@JvmName names; a multi-file part's is named in its facade); Java imports that member, Kotlin the package name. A
declaration whose JVM member has another name (`@JvmName("get") fun String.toHttpUrl()`, `val size` -> `getSize`)
is not in the search index by its Kotlin name: `kotlin_names` holds those names, read once per open graph."""

from __future__ import annotations

import json
import re
from collections import defaultdict
from dataclasses import dataclass, field

from jdx.engine import descriptors as d
from jdx.engine.refs import format_type
from jdx.engine.search import artifacts_by_id
from jdx.engine.search_index import NameList, index_for
from jdx.errors import AmbiguousError, Warning_
from jdx.graph_schema import queries
from jdx.graph_schema import queries_kotlin as qk
from jdx.graph_schema.store import GraphStore

ACC_PRIVATE, ACC_STATIC, ACC_SYNTHETIC, ACC_DEPRECATED = 0x0002, 0x0008, 0x1000, 0x20000


FILE_LEVEL_KINDS = (2, 5)  # @kotlin.Metadata `k` of a file facade and of a multi-file facade's part


def jvm_names(name: str) -> tuple[str, ...]:
    """The JVM names a Kotlin function or property `name` compiles to without @JvmName: the function, the field of
    a `const`/`@JvmField`, an `isX` property's getter, and `getX`."""
    return (name, "get" + name[:1].upper() + name[1:]) if name[:1].islower() else (name, "get" + name)


# --- Kotlin names that are no JVM name ------------------------------------------------------------------------


@dataclass
class KotlinNames:
    """The Kotlin functions and properties whose main JVM member has another name, by Kotlin name: each a slim
    declaration row with `main`, the JVM member that stands for it (kotlin_hits.main_member). `names` matches
    them as the search index matches JVM names."""

    by_name: dict[str, list[dict]]
    names: NameList
    listed: dict[str, dict | None] = field(default_factory=dict)  # JVM member id -> its search index row, once read


def jvm_simple_name(member_id: str) -> str:
    """`a/B#get(Ljava/lang/String;)La/B;` -> `get`: a member id's JVM name."""
    return member_id.split("#", 1)[1].split("(", 1)[0].split(":", 1)[0]


def renamed(kotlin_name: str, jvm_name: str) -> bool:
    """Whether a JVM member name is another name than the Kotlin one: an internal member's `$module` suffix and an
    inline class's `-hash` mangling are the same name (loaders.kotlin_shard._renamed's rule); a Kotlin name may hold
    a `$` itself (okio's `` `access$newTimeoutException` ``)."""
    return not (jvm_name == kotlin_name or (jvm_name.startswith(kotlin_name) and jvm_name[len(kotlin_name)] in "$-"))


def kotlin_names(store: GraphStore) -> KotlinNames | None:
    """The graph's renamed Kotlin declarations, read once per open graph (one query: 3,000 rows, ~1,400 renamed,
    on okhttp + okio + kotlin-stdlib); None, without a query, in a workspace without Kotlin."""
    from jdx.engine.kotlin_hits import MAIN_ROLES, has_kotlin, main_member

    key = ("kotlin-renamed-names",)
    if key in store.memo:
        return store.memo[key]
    found = None
    if has_kotlin(store):
        by_name: dict[str, list[dict]] = defaultdict(list)
        rank = {role: i for i, role in enumerate(MAIN_ROLES)}
        for row in store.rows(qk.RENAMED_DECLS):
            # the name of the best-ranked role decides (a facade's copy and its part's method share it); the main
            # member itself is picked only for the renamed (main_member: half the build's time for all 3,000 rows)
            best = min((link.split(":", 1) for link in row["jvm"] or () if link.split(":", 1)[0] in rank),
                       key=lambda rt: rank[rt[0]], default=None)
            if best is None or not renamed(row["name"], jvm_simple_name(best[1])):
                continue
            main = main_member(row, row["owner"])
            if main is not None and renamed(row["name"], jvm_simple_name(main)):
                by_name[row["name"]].append({**row, "main": main})
        found = KotlinNames(dict(by_name), NameList(by_name))
    store.memo[key] = found
    return found


def renamed_named(store: GraphStore, name: str) -> list[dict]:
    """The renamed declarations of exactly this Kotlin name (slim rows with `main`)."""
    names = kotlin_names(store)
    return names.by_name.get(name, []) if names is not None else []


# --- declarations by Kotlin name ---------------------------------------------------------------------------------
def kotlin_decls(store: GraphStore, member_ids: list[str]) -> list[dict]:
    """The Kotlin functions and properties these JVM members compile from, each once, with `member` (the JVM member
    it was found by), its class's `artifact` and `top_level` (of a file facade or a multi-file part)."""
    from jdx.engine.kotlin_view import member_kotlin

    out: dict[str, dict] = {}
    for mid, rows in member_kotlin(store, member_ids).items():
        for row in rows:
            if row["kind"] not in ("function", "property") or row["id"] in out:
                continue
            owner = store.rows_cached(queries.TYPE_BY_ID, {"id": row["owner"]})
            if owner:
                out[row["id"]] = {**row, "member": mid, "artifact": owner[0]["t.artifact"],
                                  "top_level": _file_level(owner[0])}
    return sorted(out.values(), key=lambda d: (d["owner"], d["position"]))


def top_level_decls(store: GraphStore, member_ids: list[str]) -> list[dict]:
    """The Kotlin top-level functions and properties (of a file facade or a multi-file part) these JVM members
    compile from, each once, with `member` (the JVM member it was found by) and its class's `artifact`."""
    return [x for x in kotlin_decls(store, member_ids) if x["top_level"]]


def _unlisted(store: GraphStore, name: str, package: str | None) -> set[str]:
    """The main JVM members of the top-level declarations of this Kotlin name the search index does not list, as
    their members are synthetic: a reified inline function (`enumEntries<T>()`, `filterIsInstance<R>()`), a
    @JvmSynthetic one. Read from the declarations of that name, in `package` when given."""
    from jdx.engine.kotlin_hits import main_member
    from jdx.engine.kotlin_view import decls_of

    prefix = package.replace(".", "/") + "/" if package else ""
    owners = {row["owner"] for row in store.rows_cached(qk.KOTLIN_TOP_LEVEL_NAMED, {"name": name, "prefix": prefix})
              if package is None or "/" not in row["owner"][len(prefix):]}
    return {m for owner in sorted(owners) for x in decls_of(store, owner)
            if x["name"] == name and x["kind"] in ("function", "property") and (m := main_member(x, owner))}


def _file_level(type_row: dict) -> bool:
    """Whether a type row is a file facade's or a multi-file part's."""
    try:
        return int(json.loads(type_row["t.kotlin"] or "{}").get("k")) in FILE_LEVEL_KINDS
    except (TypeError, ValueError, AttributeError):
        return False


def kotlin_package(store: GraphStore, owner: str) -> str:
    """The Kotlin package of a file facade's (or part's) declarations: its JVM package, or the one its metadata `pn`
    names (`@JvmPackageName`: kotlin-stdlib's `kotlin.jdk7.AutoCloseableKt` declares `kotlin.use`)."""
    rows = store.rows_cached(queries.TYPE_BY_ID, {"id": owner})
    try:
        pn = json.loads(rows[0]["t.kotlin"] or "{}").get("pn") if rows else None
    except (ValueError, AttributeError):
        pn = None
    return pn if isinstance(pn, str) and pn else d.package_of(owner)


def _in_package(store: GraphStore, owner: str, package: str | None) -> bool:
    """Whether a top-level declaration of `owner` is in `package` (any when None), by its JVM or its Kotlin package."""
    return package is None or d.package_of(owner) == package or kotlin_package(store, owner) == package


def top_level(store: GraphStore, name: str, package: str | None) -> list[dict]:
    """The Kotlin top-level declarations of this Kotlin name (in `package` when given): by the JVM names it compiles
    to without @JvmName (the search index), and the renamed ones by their Kotlin name (`kotlin_names`)."""
    from jdx.engine.kotlin_hits import has_kotlin

    if not name or not re.fullmatch(r"[\w$]+", name) or not has_kotlin(store):
        return []
    index = index_for(store)
    found = {r["id"] for n in jvm_names(name) for r in index.named(n)
             if r["kind"] in ("method", "field") and r["access"] & ACC_STATIC
             and _in_package(store, r["owner"], package)}
    found.update(x["main"] for x in renamed_named(store, name) if _in_package(store, x["owner"], package))
    found.update(_unlisted(store, name, package))
    if not found:
        return []
    return [x for x in top_level_decls(store, sorted(found)) if x["name"] == name]


def top_level_by_jvm_name(store: GraphStore, jvm_name: str, package: str | None) -> list[dict]:
    """The Kotlin top-level declarations whose JVM member is named `jvm_name` and whose Kotlin name is another: a
    property's getter (`getGreeting`), a `@JvmName` (`@get:JvmName("fetchGreeting") val greeting`)."""
    from jdx.engine.kotlin_hits import has_kotlin

    if not jvm_name or not re.fullmatch(r"[\w$]+", jvm_name) or not has_kotlin(store):
        return []
    ids = sorted({r["id"] for r in index_for(store).named(jvm_name) if r["kind"] in ("method", "field")
                  and r["access"] & ACC_STATIC and _in_package(store, r["owner"], package)})
    decls = top_level_decls(store, ids) if ids else []
    return [x for x in decls if x["name"] != jvm_name and x["name"] == decls[0]["name"]]


def member_decls(store: GraphStore, name: str, owners: set[str] | None = None) -> list[dict]:
    """The Kotlin functions and properties of classes (not top-level) named `name` whose JVM member has another
    name (`toHttpUrl`, @JvmName `get` of okhttp's `HttpUrl.Companion`), declared in `owners` when given."""
    if not name or not re.fullmatch(r"[\w$]+", name):
        return []
    renamed_ = [x for x in renamed_named(store, name) if owners is None or x["owner"] in owners]
    if not renamed_:
        return []
    # their namesakes in the same classes, whose JVM name is the Kotlin one: okio's `ByteString.Companion` has
    # `@JvmStatic fun String.encodeUtf8()` beside `@JvmName("-deprecated_encodeUtf8") fun encodeUtf8(string)`
    mains = {x["main"] for x in renamed_} | {m for owner in sorted({x["owner"] for x in renamed_})
                                             for m in _main_members(store, owner, name)}
    return [x for x in kotlin_decls(store, sorted(mains)) if not x["top_level"] and x["name"] == name]


def _main_members(store: GraphStore, owner: str, name: str) -> set[str]:
    """The JVM members that stand for the Kotlin functions and properties named `name` a class declares."""
    from jdx.engine.kotlin_hits import main_member
    from jdx.engine.kotlin_view import decls_of

    return {m for x in decls_of(store, owner) if x["name"] == name and x["kind"] in ("function", "property")
            and (m := main_member(x, owner)) is not None}


def class_members(store: GraphStore, owner: str, name: str) -> list[dict]:
    """The Kotlin functions and properties named `name` a class declares (not a file facade's), as kotlin_decls
    rows, whatever their JVM names (`Duration.Companion#parse`: `parse-UwyO8pc`)."""
    mains = _main_members(store, owner, name)
    return [x for x in kotlin_decls(store, sorted(mains)) if not x["top_level"] and x["name"] == name] if mains else []


def _main_ref(decl: dict) -> str:
    """The JVM member a Java caller names for a top-level declaration: a multi-file part's is named in its facade,
    which has a copy or inherits it from the part (kotlin-stdlib's `CollectionsKt`, `-Xmultifile-parts-inherit`)."""
    from jdx.engine.kotlin_hits import main_member
    from jdx.engine.kotlin_view import member_ref

    target = main_member(decl, decl["owner"]) or decl["member"]
    if decl["facade"] and target.split("#", 1)[0] != decl["facade"]:
        target = f"{decl['facade']}#{target.split('#', 1)[1]}"
    return member_ref(target)


def facade_member(decl: dict) -> tuple[str, str]:
    """(the class a Java caller names a top-level declaration in, the JVM name it names there): a multi-file part's
    facade, a property's getter (`CollectionsKt`, `getLastIndex`)."""
    from jdx.engine.kotlin_hits import main_member

    target = main_member(decl, decl["owner"]) or decl["member"]
    return decl["facade"] or target.split("#", 1)[0], jvm_simple_name(target)


def kotlin_candidates(store: GraphStore, name: str, package: str | None, found: list[dict],
                      owners: set[str] | None = None) -> list[dict]:
    """resolve's candidates for the Kotlin declarations of `name` whose JVM member has another name (a property's
    getter, a @JvmName): top-level ones (in `package` when given), and class members (of `owners` when given; none
    for a package qualifier): the JVM reference (overloads grouped, as `_unqualified` does) with the Kotlin
    declaration as a note."""
    have = {c["ref"].split("(", 1)[0] for c in found}
    groups: dict[str, list[tuple[str, dict]]] = defaultdict(list)
    decls = top_level(store, name, package) if owners is None else []
    if package is None or owners is not None:
        decls += member_decls(store, name, owners)
    for x in decls:
        ref = _main_ref(x)
        if ref.split("(", 1)[0] not in have:
            groups[ref.split("(", 1)[0]].append((ref, x))
        elif x["kind"] == "property":  # its getter, found by its JVM name (`@get:JvmName("body") val body`): whose
            for c in found:
                if c["ref"] == ref and "note" not in c:
                    c["note"] = f"getter of Kotlin {x['signature'].removeprefix('public ')}"
    mains, access = _main_access(store, [x for group in groups.values() for _, x in group])
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
        if all(access.get(mains[v["id"]], 0) & ACC_DEPRECATED for _, v in decls):  # ranked after, as search does
            row["deprecated"] = True
        out.append(row)
    return out


def kotlin_imports(store: GraphStore, decls: list[dict]) -> list[dict]:
    """The Java `import static` entries (labelled) and the Kotlin `import package.name` of top-level declarations;
    an extension is imported by its Kotlin name only (Java calls it as a static method of its facade). A declaration
    whose JVM member Java cannot call (`kotlin_only`) gets no Java import, and the Kotlin entry says why."""
    package = kotlin_package(store, decls[0]["owner"])
    name = decls[0]["name"]
    hidden = hidden_decls(store, decls)
    gone = len(hidden) == len(decls)
    decls = decls if gone else [x for x in decls if x["id"] not in hidden]
    extension = all(json.loads(x["detail"] or "{}").get("receiver") for x in decls)
    only = {} if gone else kotlin_only(store, decls)
    public = [x for x in decls if x["visibility"] not in ("internal", "private")]
    # Java's import names the public declarations' members: not an internal or private one of the same name (an
    # internal `val CoroutineContext.delay` beside the public `delay()`), unless no declaration is public
    callable_ = [] if gone else [x for x in public or decls if x["id"] not in only]
    java = java_imports(store, callable_)
    artifact = artifacts_by_id(store).get(decls[0]["artifact"], {}).get("name", "")
    kotlin = {"ref": _main_ref(decls[0]), "kotlin_name": f"{package}.{name}" if package else name, "language": "kotlin",
              "statement": f"import {package}.{name}" if package else f"// {name}: in the unnamed package",
              "kind": decls[0]["kind"], "artifact": artifact,
              "declarations": [x["signature"] for x in decls]}
    visibility = {x["visibility"] for x in decls}
    closed = not_importable(kotlin["kotlin_name"], visibility)
    if closed and package and not gone:
        kotlin["statement"], kotlin["importable"] = closed, False
    why = _why(sorted(set(only.values())))
    notes = []
    if gone:
        notes.append("hidden by deprecation (synthetic on the JVM): no Java or Kotlin caller can use it")
    elif closed:
        pass  # the statement says it
    elif not callable_:
        rest = len(decls) - len(public)
        notes.append(f"Kotlin-only ({why}): Java cannot call it" + (
            f"; the other {rest} declaration{'s are' if rest > 1 else ' is'} internal or private" if rest else ""))
    else:
        if extension:
            refs = [_main_ref(x) for x in callable_]
            notes.append(f"extension: Java calls it as the static method{'s' if len(set(refs)) > 1 else ''} "
                         f"{either(refs)}")
        if only:
            notes.append(f"{len(only)} of its {len(decls)} declarations {'are' if len(only) > 1 else 'is'} "
                         f"Kotlin-only ({why})")
        if java and public and not extension and len(public) < len(decls):
            rest = len(decls) - len(public)
            notes.append(f"Java's import leaves out the {rest} internal or private one{'s' if rest > 1 else ''}")
    if notes:
        kotlin["note"] = "; ".join(notes)
    if extension:
        return [kotlin]
    return [{**j, "language": "java"} for j in java] + [kotlin]


NAMED_IN_NOTE = 3  # the JVM members a note names for a Kotlin name's declarations; the rest it counts


def either(refs: list[str]) -> str:
    """The JVM members of a Kotlin name's declarations, each once, as a note names them: `A`, `A or B`,
    `A, B or C`, `A, B, C or 2 more` (the declarations of `jvm` in three file facades, a companion's overloads)."""
    refs = list(dict.fromkeys(refs))
    if len(refs) > NAMED_IN_NOTE:
        return f"{', '.join(refs[:NAMED_IN_NOTE])} or {len(refs) - NAMED_IN_NOTE} more"
    return refs[0] if len(refs) == 1 else f"{', '.join(refs[:-1])} or {refs[-1]}"


def not_importable(kotlin_name: str, visibility: set[str]) -> str | None:
    """The comment that stands for the Kotlin import of an internal or a private top-level declaration (kotlinc
    rejects the import elsewhere: "cannot access 'x': it is internal in 'p'"); None when another module can."""
    if visibility == {"internal"}:
        return (f"// {kotlin_name} is internal: it cannot be imported from another module "
                "(only code of its module can use it)")
    if visibility <= {"internal", "private"} and visibility:
        return (f"// {kotlin_name} is private to its file: it cannot be imported" if visibility == {"private"} else
                f"// {kotlin_name} is internal or private: it cannot be imported from another module")
    return None


_WHY = {"reified inline": "reified inline", "synthetic": "synthetic on the JVM",
        "inline-only": "inline-only: private on the JVM", "mangled": "its JVM name is no Java identifier"}


def _why(reasons: list[str]) -> str:
    return ", ".join(_WHY[r] for r in reasons)


def java_identifier(jvm_name: str) -> bool:
    """Whether Java source can name a JVM member: not one kotlinc mangled (`delay-VtjQ1oo`, a function taking or
    returning an inline class; javac reads `-` as an operator)."""
    return jvm_name.replace("$", "_").isidentifier()


def _main_access(store: GraphStore, decls: list[dict]) -> tuple[dict[str, str], dict[str, int]]:
    """(declaration id -> the JVM member that stands for it, method id -> its access flags)."""
    from jdx.engine.kotlin_hits import main_member

    mains = {x["id"]: main_member(x, x["owner"]) or x["member"] for x in decls}
    methods = sorted({m for m in mains.values() if "(" in m})
    access = {r["id"]: r["access"] or 0 for r in store.rows(qk.METHOD_ACCESS, {"ids": methods})} if methods else {}
    return mains, access


def hidden_decls(store: GraphStore, decls: list[dict], main_access: tuple | None = None) -> set[str]:
    """The ids of the declarations a deprecation hid (`@Deprecated(level = HIDDEN)`: their JVM members synthetic and
    deprecated), as `outline` leaves them out (kotlin_view.jvm_access); only those whose member is synthetic are
    read further (`main_access`: `_main_access` of `decls` when the caller has it)."""
    from jdx.engine.kotlin_view import jvm_access

    mains, access = main_access or _main_access(store, decls)
    synthetic = [x for x in decls if access.get(mains[x["id"]], 0) & ACC_SYNTHETIC]
    return jvm_access(store, synthetic)[0] if synthetic else set()


def kotlin_only(store: GraphStore, decls: list[dict]) -> dict[str, str]:
    """Declaration id -> why Java cannot call the JVM member that stands for it: synthetic or private
    (kotlin_view.kotlin_only_reason), or a mangled name (`mangled`), for those of `decls` whose member is so; a
    Kotlin caller uses them all (`outline` marks the synthetic and private ones Kotlin-only). A declaration a
    deprecation hid is none: nobody calls it (`hidden_decls`)."""
    from jdx.engine.kotlin_view import kotlin_only_reason

    mains, access = _main_access(store, decls)
    hidden = hidden_decls(store, decls, (mains, access))
    out = {}
    for x in decls:
        flags = access.get(mains[x["id"]])
        if flags is None or x["visibility"] == "private" or x["id"] in hidden:
            continue
        reason = kotlin_only_reason(x, flags) if flags & (ACC_SYNTHETIC | ACC_PRIVATE) else None
        if reason is None and not java_identifier(jvm_simple_name(mains[x["id"]])):
            reason = "mangled"
        if reason:
            out[x["id"]] = reason
    return out


def left_out(store: GraphStore, decls: list[dict], listed: set[str]) -> tuple[int, str]:
    """(how many of these top-level declarations have no JVM member among `listed` (`name` + descriptor: what a
    lookup listed), why they are Kotlin-only): a reified inline function's synthetic facade copy, a @JvmSynthetic
    one, one a deprecation hid."""
    mains, access = _main_access(store, decls)
    left = [x for x in decls if mains[x["id"]].split("#", 1)[1] not in listed]
    if not left:
        return 0, ""
    only, hidden = kotlin_only(store, left), hidden_decls(store, left, (mains, access))
    why = sorted({_WHY[only[x["id"]]] for x in left if x["id"] in only}
                 | ({"hidden by deprecation"} if any(x["id"] in hidden for x in left) else set()))
    return len(left), ", ".join(why)


def top_level_import(store: GraphStore, text: str, decls: list[dict]) -> tuple[dict, list[Warning_]]:
    """`imports scaled` / `imports fx.scaled`: a Kotlin top-level function or property by its Kotlin name."""
    packages = sorted({kotlin_package(store, x["owner"]) for x in decls})
    arts = artifacts_by_id(store)
    if len(packages) > 1:  # one candidate a package: what a Kotlin import names
        first = {kotlin_package(store, x["owner"]): x for x in reversed(decls)}
        raise AmbiguousError(f"ambiguous: Kotlin top-level declarations named {text} in {len(packages)} packages",
                             candidates=[{"ref": f"{p}.{first[p]['name']}" if p else first[p]["name"],
                                          "kind": first[p]["kind"],
                                          "artifact": arts.get(first[p]["artifact"], {}).get("name", "")}
                                         for p in packages],
                             hint="re-run with one of the names above")
    return {"type": _main_ref(decls[0]).split("#", 1)[0], "imports": kotlin_imports(store, decls)}, []


def java_imports(store: GraphStore, decls: list[dict]) -> list[dict]:
    """The `import static` of each JVM member name the declarations compile to, in the class a Java caller names."""
    arts = artifacts_by_id(store)
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


# --- class members by their Kotlin name ------------------------------------------------------------------------
def _is_object(store: GraphStore, type_id: str) -> bool:
    """Whether a Kotlin class is an `object` or a companion (its header says so, as outline reads it)."""
    rows = store.rows_cached(qk.KOTLIN_OF_TYPES, {"ids": [type_id]})
    return bool(rows) and " object " in f" {rows[0]['signature'].split(':', 1)[0]} "


def _static_members(store: GraphStore, decl: dict) -> list[str]:
    """The static JVM members a Java caller names for a class member: its @JvmStatic copy in the outer class (an
    interface companion's `const`: the interface's field), or its own member when static (an `object`'s @JvmStatic
    function)."""
    links = [link.split(":", 1) for link in decl["jvm"] or () if not link.startswith("type:")]
    targets = ([m for role, m in links if role == "static"]  # an interface companion's const: the interface's copy
               or [m for role, m in links if role == "field" and m.split("#", 1)[0] != decl["owner"]]
               or [_main_ref_id(decl)])
    index = index_for(store)
    statics = {r["id"] for t in targets for r in index.named(jvm_simple_name(t)) if r["access"] & ACC_STATIC}
    return [t for t in targets if t in statics]


def _main_ref_id(decl: dict) -> str:
    from jdx.engine.kotlin_hits import main_member

    return main_member(decl, decl["owner"]) or decl["member"]


def importable_members(store: GraphStore, decls: list[dict]) -> bool:
    """Whether `import` can name these members: they are an object's or a companion's, or have a static copy."""
    return any(_is_object(store, x["owner"]) or _static_members(store, x) for x in decls)


def member_import(store: GraphStore, text: str, decls: list[dict]) -> tuple[dict, list[Warning_]]:
    """`imports toHttpUrl`: a class member by its Kotlin name. Kotlin imports an object's or a companion's member by
    its name there (`import okhttp3.HttpUrl.Companion.toHttpUrl`); a class's member is called on an instance, so its
    class is what to import. Java imports the static JVM member (a @JvmStatic copy) when there is one."""
    from jdx.engine.kotlin_view import member_ref

    arts = artifacts_by_id(store)
    owners = sorted({x["owner"] for x in decls})
    name = decls[0]["name"]
    if len(owners) > 1:  # one candidate a class: what a Kotlin import names
        first = {x["owner"]: x for x in reversed(decls)}
        raise AmbiguousError(f"ambiguous: Kotlin members named {text} in {len(owners)} classes",
                             candidates=[{"ref": f"{format_type(o).replace('$', '.')}.{name}",
                                          "kind": first[o]["kind"],
                                          "artifact": arts.get(first[o]["artifact"], {}).get("name", "")}
                                         for o in owners],
                             hint="re-run with one of the names above")
    owner = owners[0]
    # the declaration Java can name first (its JVM name an identifier, a static copy): it stands for the rest
    decls = sorted(decls, key=lambda x: (not java_identifier(jvm_simple_name(_main_ref_id(x))),
                                         not _static_members(store, x)))
    artifact = arts.get(decls[0]["artifact"], {}).get("name", "")
    dotted = format_type(owner).replace("$", ".")
    index = index_for(store)
    java: dict[str, dict] = {}
    for x in decls:
        for target in _static_members(store, x):
            host, jvm_name = target.split("#", 1)[0], jvm_simple_name(target)
            key = f"{host}#{jvm_name}"
            if key not in java and java_identifier(jvm_name):
                overloads = sum(1 for r in index.named(jvm_name) if r["owner"] == host and r["access"] & ACC_STATIC
                                and r["kind"] == ("method" if "(" in target else "field"))
                java[key] = {"ref": member_ref(target), "language": "java",
                             "statement": f"import static {format_type(host).replace('$', '.')}.{jvm_name};",
                             "kind": "method" if "(" in target else "field", "artifact": artifact}
                if overloads > 1:
                    java[key]["note"] = f"imports all {overloads} static overloads"
    main = member_ref(_main_ref_id(decls[0]))
    kotlin = {"ref": main, "kotlin_name": f"{dotted}.{name}", "language": "kotlin", "kind": decls[0]["kind"],
              "artifact": artifact, "declarations": [x["signature"] for x in decls]}
    visibility = {x["visibility"] for x in decls}
    if _is_object(store, owner):
        kotlin["statement"] = f"import {dotted}.{name}"
    else:
        kotlin["statement"] = f"import {dotted}"
        kotlin["note"] = f"a member of {dotted}: called on an instance, so import its class"
    if visibility == {"internal"}:
        kotlin["note"] = "internal: only code of its module can use it"
    elif visibility == {"private"}:
        kotlin["note"] = f"private: only code of {dotted} can use it"
    elif not java and not java_identifier(jvm_simple_name(_main_ref_id(decls[0]))):
        kotlin["note"] = (f"Java cannot call it: its JVM name {jvm_simple_name(_main_ref_id(decls[0]))} is no Java "
                          "identifier (kotlinc mangles a member taking or returning an inline class)")
    elif not java and "note" not in kotlin:
        kotlin["note"] = f"Java calls it as {either([member_ref(_main_ref_id(x)) for x in decls])}"
    return {"type": format_type(owner), "imports": [*java.values(), kotlin]}, []
