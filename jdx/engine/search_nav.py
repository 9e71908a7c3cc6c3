"""resolve, imports, ls and tree (spec §7.2): what a name is, how to import it, and browsing packages."""

from __future__ import annotations

import fnmatch
import re
import shlex
from collections import defaultdict

from jdx.engine import descriptors as d
from jdx.engine.ranking import internal_packages, is_jdk_internal, symbol_key
from jdx.engine.refs import format_member, format_type, parse_ref
from jdx.engine.relations import lambda_writers, split_method_id
from jdx.engine.search import SearchOptions, artifact_table, search
from jdx.engine.search_index import index_for
from jdx.engine.kotlin_toplevel import (importable_members, java_imports, jvm_names, kotlin_candidates, kotlin_decls,
                                       kotlin_imports, member_decls, member_import, top_level, top_level_decls,
                                       top_level_import)
from jdx.engine.search_match import fuzzy_budget, glob_to_regex, levenshtein
from jdx.errors import AmbiguousError, NotFoundError, RefSyntaxError, UsageError, Warning_
from jdx.graph_schema import queries, queries_search
from jdx.graph_schema.queries_search import TYPE_KINDS
from jdx.graph_schema.store import GraphStore

ACC_PUBLIC, ACC_PRIVATE, ACC_PROTECTED, ACC_STATIC = 0x0001, 0x0002, 0x0004, 0x0008
ACC_BRIDGE, ACC_VARARGS, ACC_SYNTHETIC = 0x0040, 0x0080, 0x1000
# `at java.base/java.util.HashMap.get(HashMap.java:556)`, `app//a.B.c(B.java)`, `a.B.<init>(Unknown Source)`
_FRAME = re.compile(r"^\s*(?:at\s+)?(?:[^\s/()]*/+)?(?P<sym>[^\s/()]+?)\s*(?:\((?P<src>[^)]*)\))?\s*$")




# --- resolve -------------------------------------------------------------------------------------------------
def parse_frame(text: str) -> tuple[str, dict | None]:
    """The symbol part of a stack-trace frame and {file, line} when the text was a frame."""
    m = _FRAME.match(text)
    if not m:
        return text.strip(), None
    sym, src = m.group("sym"), m.group("src")
    if src is None and not text.lstrip().startswith("at "):
        return sym, None
    file, line = (src or ""), None
    if src and ":" in src:
        file, _, num = src.rpartition(":")
        line = int(num) if num.isdigit() else None
    return sym, {"text": sym, "file": file, "line": line}


def _art_names(store: GraphStore) -> dict[str, dict]:
    return {a["id"]: a for a in artifact_table(store)}


def _types_named(store: GraphStore, written: str) -> list[dict]:
    """Loaded types a (possibly partial) dotted name denotes: exact binary names first, else every type whose
    simple name is the last segment and whose qualified name ends with what was written."""
    try:
        ref = parse_ref(written)
    except RefSyntaxError:
        return []
    if ref.member is not None and not ref.ambiguous_dot:
        return []
    for fqn in ref.type_candidates():
        rows = store.rows_cached(queries.TYPE_BY_ID, {"id": fqn.replace(".", "/")})
        if rows and not rows[0]["t.external"]:
            return [{"id": rows[0]["t.id"], "kind": rows[0]["t.kind"], "artifact": rows[0]["t.artifact"],
                     "access": rows[0]["t.access"]}]
    simple = re.split(r"[.$]", written)[-1]
    suffix = written.replace("$", ".")
    found = []
    for r in index_for(store).named(simple):
        if r["kind"] in TYPE_KINDS:
            dotted = format_type(r["owner"]).replace("$", ".")
            if dotted == suffix or dotted.endswith("." + suffix):
                found.append({"id": r["owner"], "kind": r["kind"], "artifact": r["artifact"], "access": r["access"]})
    return found


def _member_candidates(store: GraphStore, owners: list[dict], name: str, line: int | None) -> list[dict]:
    ids = [o["id"] for o in owners]
    methods = store.rows(queries_search.MEMBERS_NAMED, {"owners": ids, "name": name})
    if line is not None:
        hits = [m for m in methods if m["first_line"] is not None and m["first_line"] <= line <= m["last_line"]]
        methods = hits or methods
    fields = store.rows(queries_search.FIELDS_NAMED, {"owners": ids, "name": name}) if line is None else []
    # methods of one owner, name and parameters that differ in their return (a bridge and the method it bridges):
    # their refs carry the return type, or they would print alike and name the same method
    params = defaultdict(int)
    for m in methods:
        params[(m["owner"], m["descriptor"].split(")")[0])] += 1
    out = []
    for m in methods + fields:
        is_field = m["kind"] == "field"
        try:
            ref = format_member(m["owner"], name, m["descriptor"], is_field=is_field,
                                varargs=bool(m["access"] & ACC_VARARGS),
                                with_return=not is_field and params[(m["owner"], m["descriptor"].split(")")[0])] > 1)
        except ValueError:
            ref = format_type(m["owner"]) + "#" + name
        kind = "constructor" if name == "<init>" else "initializer" if name == "<clinit>" else m["kind"]
        row = {"kind": kind, "ref": ref, "artifact": m["artifact"], "public": bool(m["access"] & ACC_PUBLIC)}
        if not is_field and m.get("first_line", -1) not in (None, -1):
            row["lines"] = [m["first_line"], m["last_line"]]
        if name.startswith("lambda$"):
            row["note"] = _lambda_note(store, m)
        elif not is_field and m["access"] & ACC_BRIDGE:
            row["note"] = "bridge: synthetic, forwards to the method of this name"
        elif m["access"] & ACC_SYNTHETIC:
            row["note"] = "synthetic"
        out.append(row)
    return out


def _lambda_note(store: GraphStore, method: dict) -> str:
    """`lambda body in getBestMatch(List)`: the method that wrote the lambda, as `callers` attributes its calls (the
    handle edge into the body, nested lambdas followed outward); ECJ's `lambda$0` names no method, and javac's
    `lambda$new$0` / `lambda$static$1` a constructor or initializer only by a word."""
    writer = lambda_writers(store, [method["id"]]).get(method["id"])
    if writer is None or writer["c_id"] == method["id"]:
        parts = method["id"].split("#", 1)[1].split("(", 1)[0].split("$")
        return f"lambda body in {parts[1]}" if len(parts) > 2 else "lambda body"
    owner, name, descriptor = split_method_id(writer["c_id"])
    try:
        ref = format_member(owner, name, descriptor, is_field=False)
    except ValueError:
        return f"lambda body in {name}"
    return "lambda body in " + re.sub(r"[\w$]+\.", "", ref.split("#", 1)[1])


def resolve(store: GraphStore, text: str, limit: int) -> tuple[dict, dict | None]:
    """Every candidate for a name, a `Foo.bar`/`Foo#bar` fragment or a stack-trace frame."""
    if not text.strip():
        raise UsageError("resolve needs a name, e.g. jdx resolve Entry or jdx resolve 'at a.B.c(B.java:12)'")
    sym, frame = parse_frame(text)
    arts = _art_names(store)
    candidates: list[dict] = []
    owners: list[dict] = []
    owner_text, sep, member = _split_member(sym)
    if not sep and "." not in sym:
        candidates = _unqualified(store, sym)
        candidates.extend(kotlin_candidates(store, sym, None, candidates))
    else:
        if not sep and frame is None:
            candidates.extend(_type_rows(_types_named(store, sym)))
        if owner_text:
            owners = _types_named(store, owner_text)
            candidates.extend(_member_candidates(store, owners, member, frame["line"] if frame else None))
            if not sep and frame is None:  # `fx.perimeter`: a Kotlin top-level declaration of package fx
                candidates.extend(kotlin_candidates(store, member, owner_text, candidates))
            if owners and frame is None:  # `HttpUrl.Companion.toHttpUrl`: a member by its Kotlin name
                candidates.extend(kotlin_candidates(store, member, None, candidates, {o["id"] for o in owners}))
    if not sep and frame is None:  # a Kotlin type alias, pointing at what it expands to (search_aliases.py)
        from jdx.engine.search_aliases import resolve_candidates

        candidates.extend(resolve_candidates(store, sym))
    if not candidates:
        if owner_text and owners:  # the type exists: only its own members (and its supertypes') can be meant
            raise _no_such_member(store, owners, owner_text, member, frame is not None)
        raise NotFoundError(f"not found: {text.strip()}", candidates=_suggest(store, member or sym),
                            hint="jdx search <pattern> finds names by camel humps and globs")
    for c in candidates:
        a = arts.get(c["artifact"], {})
        c["artifact"], c["rank"] = a.get("name", ""), a.get("rank", 0)
    internal = internal_packages(store)
    candidates.sort(key=lambda c: (is_jdk_internal(c["ref"], internal), c["rank"], not c.get("public", True),
                                   c["kind"] not in TYPE_KINDS + ("typealias",), c["ref"], c["kind"]))
    for c in candidates:
        del c["rank"]
    total = len(candidates)
    result = {"name": text.strip(), "frame": frame, "candidates": candidates[:limit], "total": total}
    truncated = {"shown": limit, "total": total, "hint": f"--limit {total}"} if total > limit else None
    return result, truncated


def frame_warnings(result: dict) -> list[Warning_]:
    """FRAME_LINE_OUTSIDE when a stack frame's line lies in none of the named methods' line ranges: the
    running code was most likely another version of the class than the workspace's."""
    frame = result.get("frame")
    line = frame.get("line") if frame else None
    ranged = [c for c in result["candidates"] if c.get("lines")]
    if line is None or not ranged or any(c["lines"][0] <= line <= c["lines"][1] for c in ranged):
        return []
    spans = ", ".join(f"{c['lines'][0]}-{c['lines'][1]}" for c in ranged[:3])
    return [Warning_("FRAME_LINE_OUTSIDE", f"line {line} of the frame is outside {ranged[0]['ref'].split('(')[0]} "
                     f"(lines {spans}): the class that ran is probably another version than the workspace's",
                     ranged[0].get("artifact", ""))]


def _split_member(sym: str) -> tuple[str, str, str]:
    """`a.B#c` / `a.B::c` / `a.B.c` -> (owner, separator, member); a bare name has no owner."""
    for sep in ("#", "::"):
        if sep in sym:
            owner, _, member = sym.partition(sep)
            return owner, sep, member.split("(", 1)[0]
    owner, _, member = sym.rpartition(".")
    return owner, "", member


def _type_rows(types: list[dict]) -> list[dict]:
    return [{"kind": t["kind"], "ref": format_type(t["id"]), "artifact": t["artifact"],
             "public": bool(t["access"] & ACC_PUBLIC)} for t in types]


def _unqualified(store: GraphStore, name: str) -> list[dict]:
    """Every loaded symbol of exactly this name: types, methods and fields (overloads grouped), packages."""
    grouped: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for r in index_for(store).named(name):
        grouped[(r["kind"], r["owner"])].append(r)
    parts = _facade_parts(store, grouped)
    out = []
    for (kind, owner), rows in grouped.items():
        if (kind, owner) in parts:
            continue
        r = rows[0]
        if kind in TYPE_KINDS:
            ref = format_type(owner)
        elif kind == "field" or len(rows) > 1:
            ref = format_type(owner) + "#" + name
        else:
            ref = format_member(owner, name, r["descriptor"], varargs=bool(r["access"] & ACC_VARARGS))
        row = {"kind": kind, "ref": ref, "artifact": r["artifact"], "public": any(x["pub"] for x in rows)}
        if kind == "method":
            row["overloads"] = len(rows)
        out.append(row)
    for p in store.rows_cached(queries_search.PACKAGES):
        if p["name"].rsplit(".", 1)[-1] == name:
            out.append({"kind": "package", "ref": p["name"], "artifact": "", "public": True})
    return out


def _facade_parts(store: GraphStore, grouped: dict[tuple[str, str], list[dict]]) -> set[tuple[str, str]]:
    """Method groups of a Kotlin multi-file facade's part (`BuildersKt__Builders_commonKt#launch`) whose every method
    has its facade's copy among the candidates (`BuildersKt#launch`): one Kotlin function, called through the facade,
    which holds the candidate, as `search` folds it (a frame or a reference naming the part still finds it)."""
    parts = {k: rows for k, rows in grouped.items() if k[0] == "method" and "__" in k[1]}
    if not parts:
        return set()
    from jdx.engine.kotlin_view import member_kotlin

    decls = member_kotlin(store, [r["id"] for rows in parts.values() for r in rows])
    listed = {r["id"] for (kind, _owner), rows in grouped.items() if kind == "method" for r in rows}

    def in_facade(member_id: str) -> bool:
        d = (decls.get(member_id) or [{}])[0]
        return bool(d.get("facade")) and any(link.split(":", 1)[1] in listed for link in d.get("jvm") or ()
                                             if link.split(":", 1)[1].split("#", 1)[0] == d["facade"])

    return {k for k, rows in parts.items() if all(in_facade(r["id"]) for r in rows)}


def _no_such_member(store: GraphStore, owners: list[dict], owner_text: str, member: str,
                    frame: bool) -> NotFoundError:
    """Not-found for a member of a type that exists: did-you-mean offers that type's members (and its supertypes')
    near the name, never an unrelated type's (`ObjectMapper$1.foo` is no `AccessibleRole#FOOTER`)."""
    what = "method" if frame or member in ("<init>", "<clinit>") else "member"
    named = format_type(owners[0]["id"]) if len(owners) == 1 else f"no type named {owner_text}"
    message = (f"not found: {named} has no {what} {member}" if len(owners) == 1
               else f"not found: {named} has a {what} {member}")
    hint = (f"jdx members {shlex.quote(format_type(owners[0]['id']))} lists its members" if len(owners) == 1
            else "jdx search <pattern> finds names by camel humps and globs")
    return NotFoundError(message, candidates=_near_members(store, owners, member, methods_only=frame), hint=hint)


def _near_members(store: GraphStore, owners: list[dict], member: str, limit: int = 5,
                  methods_only: bool = False) -> list[dict]:
    """Members of the named type(s) and their supertypes near `member`, nearest first: within a typo's reach
    (edit distance, case ignored), then those it begins (`readVal` -> `readValue`); the type's own before
    inherited ones. Constructors, initializers, lambda bodies and a supertype's private members are left out."""
    arts = _art_names(store)
    distance_of = {o["id"]: 0 for o in owners}  # 0: the named type, 1: a supertype
    art_of = {o["id"]: arts.get(o["artifact"], {}).get("name", "") for o in owners}
    for o in owners:
        for s in store.rows_cached(queries.SUPERTYPES_CLOSURE, {"id": o["id"]}):
            if not s["external"] and s["id"] not in distance_of:
                distance_of[s["id"]] = 1
    for sid in [i for i in distance_of if i not in art_of]:
        rows = store.rows_cached(queries.TYPE_BY_ID, {"id": sid})
        art_of[sid] = arts.get(rows[0]["t.artifact"], {}).get("name", "") if rows else ""
    low = member.lower()
    budget = fuzzy_budget(low)
    scored = []
    queried = ((queries.METHODS_OF_TYPES, False),) if methods_only else (
        (queries.METHODS_OF_TYPES, False), (queries.FIELDS_OF_TYPES, True))
    for q, is_field in queried:
        for r in store.rows(q, {"ids": sorted(distance_of)}):
            name = r["name"]
            if name.startswith(("<", "lambda$")) or (distance_of[r["owner"]] and r["access"] & ACC_PRIVATE):
                continue
            d = levenshtein(name.lower(), low)
            if d <= budget or (len(low) >= 3 and name.lower().startswith(low)):
                near = d if d <= budget else budget + 1
                scored.append((near, distance_of[r["owner"]], format_type(r["owner"]) + "#" + name,
                               "field" if is_field else "method", r["owner"]))
    out, seen = [], set()
    for _near, _inherited, ref, kind, owner in sorted(scored, key=lambda x: (*x[:3], x[3] != "method")):
        if ref not in seen:
            seen.add(ref)
            out.append({"ref": ref, "kind": kind, "artifact": art_of.get(owner, "")})
    return out[:limit]


def _suggest(store: GraphStore, name: str) -> list[dict]:
    """Did-you-mean for resolve/imports: the search machinery's near names."""
    simple = re.split(r"[.$#]", name)[-1]
    if not simple or not re.fullmatch(r"[\w$]+", simple):
        return []
    try:
        found, _ = search(store, simple, SearchOptions(fuzzy=True, limit=5))
    except NotFoundError as exc:
        return exc.candidates
    return [{"ref": m["ref"], "kind": m["kind"], "artifact": m["artifact"]} for m in found["matches"]]


# --- imports -------------------------------------------------------------------------------------------------
def imports(store: GraphStore, text: str) -> tuple[dict, list[Warning_]]:
    """The import statement for a type (or `import static` for a static member), with duplicate warnings."""
    from jdx.engine.resolve import resolve_type

    text = text.strip()
    if not text:
        raise UsageError("imports needs a type, e.g. jdx imports Gson")
    owner_text, sep, member = _split_member(text)
    if sep:
        try:
            owner = resolve_type(store, owner_text)
        except AmbiguousError as exc:
            owner = _only_owner_of(store, exc, member, text)
        return _static_import(store, owner, member)
    types = _types_named(store, text)
    if len(types) > 1:
        internal = internal_packages(store)
        # an import names a public type of an exported package: a package-private class or a JDK implementation
        # class is no candidate while one that can be imported exists
        importable = [t for t in types if t["access"] & ACC_PUBLIC and not is_jdk_internal(t["id"], internal)]
        if len(importable) == 1:
            found = store.rows_cached(queries.TYPE_BY_ID, {"id": importable[0]["id"]})[0]
            answer, warnings = _type_import(store, {k[2:]: v for k, v in found.items()})
            others = len(types) - 1
            answer["imports"][0]["note"] = (f"the only importable type named {text} ({others} other"
                                            f"{'s' if others > 1 else ''} not public or in a JDK implementation "
                                            "package)")
            return answer, warnings
        types = importable or types
    if len(types) > 1:
        arts = _art_names(store)
        internal = internal_packages(store)
        types.sort(key=lambda t: (*symbol_key(t["id"], bool(t["access"] & ACC_PUBLIC), d.simple_name_of(t["id"]),
                                              arts.get(t["artifact"], {}).get("rank", 0), internal), t["id"]))
        raise AmbiguousError(f"ambiguous: {len(types)} types named {text}",
                             candidates=[{"ref": format_type(t["id"]), "kind": t["kind"],
                                          "artifact": arts.get(t["artifact"], {}).get("name", "")} for t in types],
                             hint="re-run with one of the candidates' refs")
    if not types:
        top = top_level(store, member, owner_text or None)
        if top:
            return top_level_import(store, text, top)
        # `toHttpUrl`, `HttpUrl.Companion.toHttpUrl`: a class member by its Kotlin name (its JVM name is another)
        owners = {t["id"] for t in _types_named(store, owner_text)} if owner_text else None
        members = member_decls(store, member, owners) if owners is None or owners else []
        if members:
            return member_import(store, text, members)
        return _type_import(store, resolve_type(store, text))  # raises not-found with did-you-mean
    found = store.rows_cached(queries.TYPE_BY_ID, {"id": types[0]["id"]})[0]
    return _type_import(store, {k[2:]: v for k, v in found.items()})


def _type_import(store: GraphStore, row: dict) -> tuple[dict, list[Warning_]]:
    fqn = row["fqn"]
    if row.get("outer") and not row.get("inner_name"):
        raise UsageError(f"{fqn} is a local or anonymous class: it cannot be imported")
    if row.get("outer_method"):
        raise UsageError(f"{fqn} is a local class (declared inside a method): it cannot be imported")
    source_name = fqn.replace("$", ".")
    entry = {"ref": fqn, "statement": f"import {source_name};", "kind": row["kind"],
             "artifact": _art_names(store).get(row["artifact"], {}).get("name", "")}
    package = row.get("package") or ""
    if not package:
        entry["note"] = "in the unnamed package: it cannot be imported from a named package"
    elif package == "java.lang" and "$" not in fqn:
        entry["note"] = "java.lang is imported implicitly: no import needed"
    elif not row["access"] & ACC_PUBLIC:
        entry["note"] = _access_note(row, package)
    return {"type": fqn, "imports": [entry]}, _duplicates(store, row)


def _access_note(row: dict, package: str) -> str:
    """Who may use a type that is not public (JLS §6.6.1): a nested type's modifiers are its InnerClasses flags (the
    Type row's `access`); a private one is seen only inside its top-level class, a protected one also by the
    subclasses of its outer class."""
    if row.get("outer") and row["access"] & ACC_PRIVATE:
        return f"private: only code inside {format_type(row['id'].split('$', 1)[0])} can use it"
    if row.get("outer") and row["access"] & ACC_PROTECTED:
        return f"protected: only code in package {package} and subclasses of {format_type(row['outer'])} can use it"
    return f"not public: only code in package {package} can use it"


def _only_owner_of(store: GraphStore, exc: AmbiguousError, member: str, text: str) -> dict:
    """`Simple#member` with several types named `Simple`: only those that declare or inherit `member`."""
    from jdx.engine.member_resolve import lookup

    try:
        found = lookup(store, text)
    except NotFoundError:
        raise exc from None
    rows = store.rows_cached(queries.TYPE_BY_ID, {"id": found.target["id"]})
    return {k[2:]: v for k, v in rows[0].items()}


def _static_import(store: GraphStore, owner: dict, member: str) -> tuple[dict, list[Warning_]]:
    if not member or member in ("<init>", "<clinit>"):
        raise UsageError("import static needs a static method or field name, e.g. java.util.Collections#emptyList")
    rows = [r for q in (queries_search.MEMBERS_NAMED, queries_search.FIELDS_NAMED)
            for r in store.rows(q, {"owners": [owner["id"]], "name": member})]
    if not rows and owner.get("kotlin"):
        from jdx.engine.kotlin_view import jvm_name_of

        members = member_decls(store, member, {owner["id"]})  # `HttpUrl.Companion#toHttpUrl`: @JvmName `get`
        if members and importable_members(store, members):
            return member_import(store, f"{owner['fqn']}#{member}", members)

        jvm = jvm_name_of(store, owner["id"], member, f"{owner['fqn']}#{member}")
        if jvm is not None and jvm != member:  # `fx.Util#perimeter`: a Kotlin property by its Kotlin name
            return _static_import(store, owner, jvm)
        # a multi-file facade inheriting its parts' members (`kotlin.collections.CollectionsKt#emptyList`)
        ids = [r["id"] for n in dict.fromkeys((member, *jvm_names(member))) for r in index_for(store).named(n)
               if r["kind"] in ("method", "field") and r["access"] & ACC_STATIC
               and d.package_of(r["owner"]) == owner.get("package")]
        parts = [x for x in top_level_decls(store, ids) if x["facade"] == owner["id"]
                 and member in (x["name"], x["member"].split("#", 1)[1].split("(", 1)[0].split(":", 1)[0])]
        if parts:
            return {"type": owner["fqn"], "imports": kotlin_imports(parts, java_imports(store, parts))}, []
    if not rows:
        raise NotFoundError(f"not found: {owner['fqn']}#{member}",
                            hint=f"jdx members {shlex.quote(owner['fqn'])} --static lists its static members")
    static = [r for r in rows if r["access"] & ACC_STATIC]
    if owner.get("kotlin"):  # an object's or a companion's member: Kotlin imports it there (Java its static copy)
        members = [x for x in kotlin_decls(store, [r["id"] for r in rows]) if not x["top_level"]
                   and x["name"] == member]
        if members and importable_members(store, members):
            return member_import(store, f"{owner['fqn']}#{member}", members)
    if not static:  # no import names an instance member: the lesser answer is its type's import, said so
        answer, warnings = _type_import(store, owner)
        entry = answer["imports"][0]
        kind = "field" if all(r["kind"] == "field" for r in rows) else "method"
        said = f"{member} is an instance {kind}: no import names it; use it on an instance of {entry['ref']}"
        entry["note"] = said + (f" ({entry['note']})" if entry.get("note") else "")
        answer["member"] = f"{owner['fqn']}#{member}"
        return answer, warnings
    source_owner = owner["fqn"].replace("$", ".")
    entry = {"ref": f"{owner['fqn']}#{member}", "statement": f"import static {source_owner}.{member};",
             "kind": static[0]["kind"], "artifact": _art_names(store).get(owner["artifact"], {}).get("name", "")}
    if len(static) > 1:
        entry["note"] = f"imports all {len(static)} static overloads"
    top = top_level_decls(store, [r["id"] for r in static]) if owner.get("kotlin") else []
    entries = kotlin_imports(top, java_imports(store, top)) if top else [entry]
    return {"type": owner["fqn"], "imports": entries}, _duplicates(store, owner)


def duplicate_class_warnings(store: GraphStore, fqn: str) -> list[Warning_]:
    """DUPLICATE_CLASS for the class `fqn` (dotted, `$` for nesting) when several artifacts provide it."""
    rows = store.rows(queries_search.VISIBLE_TYPE_BY_FQN, {"fqn": fqn})
    return _duplicates(store, rows[0]) if rows else []


def _duplicates(store: GraphStore, row: dict) -> list[Warning_]:
    """DUPLICATE_CLASS when several artifacts provide the FQN: the first on the classpath wins."""
    copies = store.rows(queries_search.TYPE_COPIES, {"name": row["name"]})
    if len(copies) < 2:
        return []
    arts = _art_names(store)
    copies.sort(key=lambda c: (c["shadowed"], arts.get(c["artifact"], {}).get("position", 0)))
    names = [arts.get(c["artifact"], {}).get("name", "?") for c in copies]
    return [Warning_("DUPLICATE_CLASS", f"{row['fqn']} is provided by {len(copies)} artifacts: {names[0]} (loaded), "
                                       + ", ".join(f"{n} (shadowed)" for n in names[1:]), names[0])]


# --- ls and tree ---------------------------------------------------------------------------------------------
def _package_counts(store: GraphStore, artifact_ids: set[str] | None = None) -> dict[str, int]:
    counts: dict[str, int] = defaultdict(int)
    for r in store.rows_cached(queries_search.PACKAGE_TYPES):
        if artifact_ids is None or r["artifact"] in artifact_ids:
            counts[r["package"]] += r["types"]
    return counts


def _public_types(store: GraphStore, package: str, artifact_ids: set[str] | None = None) -> list[dict]:
    rows = store.rows_cached(queries_search.TYPES_IN_PACKAGE, {"package": package})
    return [r for r in rows if r["access"] & ACC_PUBLIC and (artifact_ids is None or r["artifact"] in artifact_ids)
            and not r["name"].isdigit()]


def _subtree_count(counts: dict[str, int], prefix: str) -> int:
    return sum(n for p, n in counts.items() if p == prefix or p.startswith(prefix + "."))


def _children(counts: dict[str, int], prefix: str) -> list[str]:
    """Next-level package prefixes under `prefix` ('' for the roots)."""
    out = set()
    for p in counts:
        if not p:
            continue
        if not prefix:
            out.add(p.split(".", 1)[0])
        elif p.startswith(prefix + "."):
            out.add(prefix + "." + p[len(prefix) + 1:].split(".", 1)[0])
    return sorted(out)


def _walk(store, counts, prefix: str, level: int, depth: int, with_counts: bool, entries: list[dict],
          artifact_ids: set[str] | None) -> None:
    """Entries under package `prefix`: its public top-level types, then its subpackages, `depth` levels deep."""
    if level > depth:
        return
    if prefix in counts:
        public = _public_types(store, prefix, artifact_ids)
        entries.extend({"kind": t["kind"], "name": t["name"], "ref": t["fqn"], "level": level} for t in public)
        if artifact_ids is None and counts[prefix] > len(public):  # never a silent cut (spec G6)
            entries.append({"kind": "unlisted", "name": "not public or nested", "level": level,
                            "types": counts[prefix] - len(public)})
    for child in _children(counts, prefix):
        entry = {"kind": "package", "name": child, "level": level}
        if with_counts:
            entry["types"] = _subtree_count(counts, child)
        entries.append(entry)
        _walk(store, counts, child, level + 1, depth, with_counts, entries, artifact_ids)


def list_packages(store: GraphStore, glob: str | None, depth: int, with_counts: bool,
                  limit: int) -> tuple[dict, dict | None]:
    """`ls`: no argument -> the root namespaces; a package -> its types and subpackages; a glob -> the
    packages it matches. --depth expands subpackages that many levels, --counts adds type counts
    (subpackages included)."""
    counts = _package_counts(store)
    entries: list[dict] = []
    if glob is None or not glob.strip():
        _walk(store, counts, "", 0, depth - 1, with_counts, entries, None)
        entries = [e for e in entries if e["kind"] == "package"]
    elif any(c in glob for c in "*?"):
        rx = re.compile(glob_to_regex(glob))
        for p in sorted(x for x in counts if x and rx.fullmatch(x)):
            entry = {"kind": "package", "name": p, "level": 0}
            if with_counts:
                entry["types"] = counts[p]
            entries.append(entry)
            if depth > 1:
                _walk(store, counts, p, 1, depth - 1, with_counts, entries, None)
    else:
        package = glob.strip()
        if package not in counts and not _children(counts, package):
            close = sorted((p for p in counts if p), key=lambda p: (levenshtein(p, package), p))[:5]
            raise NotFoundError(f"not found: package {package}",
                                candidates=[{"ref": p, "kind": "package"} for p in close])
        entry = {"kind": "package", "name": package, "level": 0}
        if with_counts:
            entry["types"] = _subtree_count(counts, package)
        entries.append(entry)
        _walk(store, counts, package, 1, depth, with_counts, entries, None)
    if not entries and glob:
        raise NotFoundError(f"not found: no package matches {glob}")
    return _capped({"query": glob or "", "entries": entries}, limit)


def _capped(result: dict, limit: int) -> tuple[dict, dict | None]:
    entries = result["entries"]
    result["total"] = len(entries)
    if len(entries) <= limit:
        return result, None
    result["entries"] = entries[:limit]
    return result, {"shown": limit, "total": len(entries), "hint": f"--limit {len(entries)}, or a narrower glob"}


def artifact_tree(store: GraphStore, glob: str | None, depth: int | None, with_counts: bool,
                  limit: int) -> tuple[dict, dict | None]:
    """`tree`: artifacts in classpath order (level 0), their packages (1), public top-level types (2)."""
    arts = sorted(artifact_table(store), key=lambda a: a["position"])
    if glob:
        picked = [a for a in arts if fnmatch.fnmatchcase(a["name"], glob)]
        if not picked:
            close = sorted(arts, key=lambda a: (levenshtein(a["name"], glob), a["name"]))[:5]
            raise NotFoundError(f"not found: no artifact matches {glob}",
                                candidates=[{"ref": a["name"], "kind": "artifact", "artifact": a["kind"]}
                                            for a in close])
        arts = picked
    depth = depth if depth is not None else (2 if glob else 1)
    entries: list[dict] = []
    for a in arts:
        counts = _package_counts(store, {a["id"]})
        entry = {"kind": "artifact", "name": a["name"], "artifact_kind": a["kind"], "level": 0}
        if with_counts:
            entry["types"] = sum(counts.values())
        entries.append(entry)
        if depth < 2:
            continue
        for package in sorted(counts):
            pentry = {"kind": "package", "name": package or "(unnamed)", "level": 1}
            if with_counts:
                pentry["types"] = counts[package]
            entries.append(pentry)
            if depth >= 3:
                for t in _public_types(store, package, {a["id"]}):
                    entries.append({"kind": t["kind"], "name": t["name"], "ref": t["fqn"], "level": 2})
    return _capped({"query": glob or "", "depth": depth, "entries": entries}, limit)
