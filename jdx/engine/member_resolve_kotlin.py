"""The Kotlin readings of a member reference (member_resolve.lookup): a top-level name (`kotlinx.coroutines.delay`)
is every JVM member its declarations compile to in its file facade, @JvmName-renamed ones included, with a note for
the Kotlin-only ones left out; `Type#name` of a Kotlin class is also every function of the name @JvmName renamed
(`renamed_functions`); `Type#name` of a member of the class's companion object (`Config.from(...)` in Kotlin) is that
member, with a note saying where it lives."""

from __future__ import annotations

import json
import re

from dataclasses import dataclass, replace

from jdx.engine.jvm_names import simple_name_of
from jdx.engine.member_resolve import AMBIGUOUS_HINT, MAX_SUGGESTIONS, Lookup, lookup_ref, mangled_of, names_a_type
from jdx.engine.resolve import resolve_type_ref
from jdx.engine.refs import SymbolRef, format_type
from jdx.errors import AmbiguousError, NotFoundError, UsageError
from jdx.graph_schema.store import GraphStore


@dataclass
class TopLevel:
    """A Kotlin top-level name's JVM members in its one file facade: a ref per JVM name (`combine` and the
    @JvmName `flowCombine` of `Flow<T1>.combine`), the declarations of the name (`top_level` rows), and its Kotlin
    name (`kotlinx.coroutines.launch`)."""

    refs: list[SymbolRef]
    decls: list[dict]
    name: str

    @property
    def kind(self) -> str:
        return "function" if any(x["kind"] == "function" for x in self.decls) else "property"


def kotlin_top_level(store: GraphStore, ref: SymbolRef, text: str) -> TopLevel | None:
    """`pkg.name` naming a Kotlin top-level function or property (`kotlinx.coroutines.delay`,
    `kotlin.collections.listOf`), or a bare `name` (no type part: of any package): the references to its file facade's
    members, one a JVM name its declarations have there (a multi-file part's through its facade, `CollectionsKt#listOf`;
    a @JvmName-renamed overload by that name), None when there is none; several facades declaring the name are an
    ambiguity, one candidate a facade."""
    from jdx.engine.kotlin_toplevel import facade_member, kotlin_package, top_level

    if ref.member is None or ref.coord or ref.type_name[:1] == "[":
        return None
    package = ref.type_name or None
    if package and not all(part.isidentifier() and part[:1].islower() for part in package.split(".")):
        return None  # not a package: `Type.member` missed as a member of a type
    names: dict[str, set[str]] = {}  # facade -> the JVM names its declarations of the name have there
    decls = top_level(store, ref.member, package)
    functions = [x for x in decls if x["kind"] == "function"]
    if functions:  # `delay` is the functions Kotlin calls `delay(…)`, not the internal `CoroutineContext.delay`
        decls = functions
    for x in decls:
        facade, jvm = facade_member(x)
        base = jvm.split("-", 1)[0]
        names.setdefault(facade, set()).add(base if jvm == base or mangled_of(jvm, base) else jvm)
    if not names:
        return None
    if len(names) > 1:
        refs = [replace(ref, type_name=format_type(f), member=next(iter(n)) if len(n) == 1 else ref.member)
                for f, n in sorted(names.items())]
        where = f"of {package} " if package else ""
        raise AmbiguousError(f"ambiguous: the Kotlin top-level {ref.member} {where}is declared in {len(refs)} files",
                             candidates=[{"ref": str(r), "kind": "method"} for r in refs], hint=AMBIGUOUS_HINT)
    facade, jvm_names = next(iter(names.items()))
    # the Kotlin name first, then each other JVM name (a property's getter, a @JvmName) in name order
    order = sorted(jvm_names, key=lambda n: (n != ref.member, n))
    package = package or kotlin_package(store, decls[0]["owner"])
    return TopLevel([replace(ref, type_name=format_type(facade), member=n) for n in order], decls,
                    f"{package}.{ref.member}" if package else ref.member)


def top_level_lookup(store: GraphStore, ref: SymbolRef, top: TopLevel, require_one: bool, include_hidden: bool,
                      with_hidden: bool) -> Lookup:
    """The members of every JVM name a Kotlin top-level name compiles to, in one Lookup under the first; a note
    counts the declarations of the name left out as Kotlin-only (no member a Java caller or this lookup lists)."""
    found: Lookup | None = None
    miss: NotFoundError | None = None
    for r in top.refs:
        try:
            got = lookup_ref(store, r, str(r), False, include_hidden, with_hidden)
        except NotFoundError as exc:
            miss = miss or exc
            continue
        if found is None:
            found = got
        else:
            keys = {(e["declaring"], e["row"]["name"], e["row"]["descriptor"]) for e in found.members}
            found.members += [e for e in got.members
                              if (e["declaring"], e["row"]["name"], e["row"]["descriptor"]) not in keys]
    if found is None:
        raise miss
    if require_one and len(found.members) > 1:
        written = str(ref) if ref.type_name else ref.member  # a bare `name` has no type part
        raise AmbiguousError(f"ambiguous: {len(found.members)} candidates for {written}",
                             candidates=[{"ref": e["ref"], "kind": e["kind"]} for e in found.members], hint=AMBIGUOUS_HINT)
    if ref.params is None and ref.descriptor is None and ref.return_type is None and not with_hidden:
        note = _left_out_note(store, top, found.members)
        if note:
            found.notes.append(note)
    return found


def _left_out_note(store: GraphStore, top: TopLevel, members: list[dict]) -> str | None:
    """`2 Kotlin-only declarations of p.name left out (reified inline): ...`, for the declarations whose JVM member
    the lookup did not list; None when it listed them all."""
    from jdx.engine.kotlin_toplevel import left_out

    n, why = left_out(store, top.decls, {e["row"]["name"] + e["row"]["descriptor"] for e in members})
    if not n:
        return None
    name = top.name
    return (f"{n} Kotlin-only declaration{'s' if n > 1 else ''} of {name} left out" + (f" ({why})" if why else "")
            + f": jdx signature {name} --include-synthetic lists {'them' if n > 1 else 'it'}")


def of_kotlin_name(store: GraphStore, entries: list[dict], kotlin_name: str, jvm_name: str) -> list[dict]:
    """The collected members without those of JVM name `jvm_name` (kotlinc's mangled `jvm_name-hash` too) that no
    declaration named `kotlin_name` compiles to: several Kotlin names may share one JVM name under @JvmName (okio's
    `String.toPath` and `File.toOkioPath` are both `get`), and a Kotlin name asked for is only its own."""
    from jdx.engine.kotlin_refs import member_id
    from jdx.engine.kotlin_view import member_kotlin

    ours = {id(e): member_id(e) for e in entries if e["row"]["name"] == jvm_name
            or (not e["is_field"] and mangled_of(e["row"]["name"], jvm_name))}
    kotlin = member_kotlin(store, list(ours.values())) if ours else {}
    return [e for e in entries if id(e) not in ours
            or any(k["name"] == kotlin_name for k in kotlin.get(ours[id(e)], ()))]


def renamed_functions(store: GraphStore, entries: list[dict], kotlin_name: str) -> list[dict]:
    """The collected methods Kotlin functions named `kotlin_name` compile to under another JVM name (@JvmName:
    `PropertiesCollection.Builder`'s `append(values: Iterable<V>)` is `appendToList`, beside the `append` overloads
    that kept the name), inherited ones included; a property's accessors are `kotlin_refs.property_members`'."""
    from jdx.engine.kotlin_refs import member_id
    from jdx.engine.kotlin_toplevel import renamed_named

    mains = {x["main"] for x in renamed_named(store, kotlin_name) if x["kind"] == "function"}
    return [e for e in entries if not e["is_field"] and member_id(e) in mains] if mains else []


def companion_member(store: GraphStore, target: dict, ref: SymbolRef, require_one: bool,
                      include_hidden: bool, with_hidden: bool, kotlin_properties: bool) -> Lookup | None:
    """A Kotlin class's companion object's member of the name, as Kotlin code calls it through the class
    (`Config.from(...)`), with a note that it lives in the companion; None when the class has no companion or the
    companion no such member."""
    from jdx.engine.kotlin_nested import companion_id

    companion = companion_id(store, target["id"])
    if companion is None:
        return None
    owner = format_type(companion)
    via = replace(ref, type_name=owner, coord=ref.coord)
    try:
        found = lookup_ref(store, via, str(via), require_one, include_hidden, with_hidden, kotlin_properties,
                        companion=False)
    except NotFoundError:
        return None
    found.notes.append(_companion_note(store, target["id"], companion, ref.member, found.members))
    return found


def _companion_note(store: GraphStore, outer: str, companion: str, name: str, members: list[dict]) -> str:
    """`toPath is a member of the companion object okio.Path.Companion, not of okio.Path: Kotlin calls it as an
    extension on String (import okio.Path.Companion.toPath), Java as okio.Path.get (@JvmStatic)`: how each language
    calls the members found, an extension on its receiver once imported, a @JvmStatic one by the outer class's
    static copy."""
    from jdx.engine.kotlin_refs import member_id
    from jdx.engine.kotlin_view import member_kotlin

    dotted, where = format_type(outer).replace("$", "."), format_type(companion).replace("$", ".")
    decls = {rows[0]["id"]: rows[0] for rows in member_kotlin(store, [member_id(e) for e in members]).values() if rows}
    details = [json.loads(x["detail"] or "{}") for x in decls.values()]
    receivers = _receiver_names({x["receiver"] for x in details if x.get("receiver")}, outer)
    statics = sorted({n for x in decls.values() for n in _static_copies(x, outer)})
    kotlin = ([f"as {dotted}.{name}"] if not details or not all(x.get("receiver") for x in details) else []) + (
        [f"as an extension on {' or '.join(receivers)} (import {where}.{name})"] if receivers else [])
    plain = not statics or any(not _static_copies(x, outer) for x in decls.values())
    java = [f"as {dotted}.{n} (@JvmStatic)" for n in statics] + ([f"through {where}"] if plain else [])
    return (f"{name} is a member of the companion object {where}, not of {format_type(outer)}: Kotlin calls it "
            f"{' or '.join(kotlin)}, Java {' or '.join(java)}")


def _static_copies(decl: dict, outer: str) -> list[str]:
    """The JVM names of a companion member's @JvmStatic copies in the outer class (a property's accessors)."""
    return [link.split("#", 1)[1].split("(", 1)[0] for link in decl["jvm"] or () if link.startswith(f"static:{outer}#")]


def _receiver_names(receivers: set[str], outer: str) -> list[str]:
    """The receiver types in simple names (`kotlin.collections.List<kotlin.Int>?` -> `List<Int>?`), one whose simple
    name is the outer class's or another's qualified (okio's `File or java.nio.file.Path` beside `okio.Path`)."""
    def simple(t: str) -> str:
        return re.sub(r"\b[a-z_]\w*\.(?=[\w.]*[A-Z])", "", t)

    def base(t: str) -> str:
        return re.split(r"[<?]", simple(t), maxsplit=1)[0]

    taken = [base(t) for t in receivers] + [simple_name_of(outer)]
    return sorted(simple(t) if taken.count(base(t)) == 1 else t for t in receivers)


_FULL_ROLES = ("method", "static", "facade")  # JVM members with every parameter of their declaration


def kotlin_params_match(store: GraphStore, ref: SymbolRef, entries: list[dict]) -> list[dict]:
    """The methods a parameter list written as Kotlin declares it names: an extension function's without its
    receiver (`CollectionsKt#filterIsInstance()` is the JVM's `filterIsInstance(Iterable)`), a suspend function's
    without the Continuation kotlinc adds last (`delay(long)` is `delay(long, Continuation)`), or in Kotlin's types
    (`delay(Duration)` is kotlinc's `delay-VtjQ1oo(long, Continuation)`, `get(String, Boolean)` the JVM's
    `get(String, boolean)` of `String.toPath(normalize: Boolean)`); [] when none."""
    from jdx.engine.kotlin_view import member_kotlin

    methods = {f"{e['row']['owner']}#{e['row']['name']}{e['row']['descriptor']}": e for e in entries
               if not e["is_field"]}
    kotlin = member_kotlin(store, list(methods)) if methods and ref.params is not None else {}
    decls = {member: next((k for k in kotlin.get(member, ()) if k["role"] in _FULL_ROLES and k["kind"] == "function"),
                          None) for member in methods}
    decls = {member: k for member, k in decls.items() if k is not None}
    by_kotlin = [methods[m] for m, k in decls.items() if _kotlin_types_fit(ref, k)]
    # a mangled name's JVM parameters are an inline class's erasure, which Kotlin code never writes
    return by_kotlin or [methods[m] for m, k in decls.items()
                         if "-" not in methods[m]["row"]["name"] and _jvm_params_fit(ref, k, methods[m]["row"])]


def _kotlin_types_fit(ref: SymbolRef, decl: dict) -> bool:
    declared = [p.get("type") or "" for p in json.loads(decl["detail"] or "{}").get("parameters") or ()]
    return len(declared) == len(ref.params) and all(map(_kotlin_type_fits, ref.params, declared))


def _jvm_params_fit(ref: SymbolRef, decl: dict, row: dict) -> bool:
    """The JVM parameters, whole or without an extension's receiver (first) and a suspend function's Continuation
    (last), each written as the JVM or as Kotlin declares it (`String.toPath(normalize: Boolean)` under @JvmName
    `get` is `get(String, boolean)`, `get(String, Boolean)` or `get(java.lang.String, Boolean)`)."""
    from jdx.engine.jvm_names import parse_method_descriptor
    from jdx.engine.refs import matches_params

    detail = json.loads(decl["detail"] or "{}")
    receiver = detail.get("receiver")
    suspend = int("suspend" in (decl["flags"] or ()))
    params, ret = parse_method_descriptor(row["descriptor"])
    declared = ([receiver] if receiver else []) + [p.get("type") or "" for p in detail.get("parameters") or ()]
    kotlin = declared + [""] * suspend if len(declared) + suspend == len(params) else [""] * len(params)
    pairs = list(zip(params, kotlin))

    def fits(written: str, jvm: str, declared_type: str) -> bool:
        return _kotlin_type_fits(written, declared_type) or matches_params(
            replace(ref, params=(written,), return_type=None, varargs=False), f"({jvm})V")

    return matches_params(replace(ref, params=None), f"(){ret}") and any(
        len(ref.params) == len(ps) and all(fits(w, *p) for w, p in zip(ref.params, ps))
        for ps in (pairs, pairs[int(bool(receiver)):len(pairs) - suspend]))


def _kotlin_type_fits(written: str, declared: str) -> bool:
    """`Duration` or `kotlin.time.Duration` names `kotlin.time.Duration`; `Class` names `java.lang.Class<R>?`."""
    def bare(t: str) -> str:
        return t.split("<", 1)[0].rstrip("?").strip()

    written, declared = bare(written), bare(declared)
    return bool(written) and (written == declared or declared.endswith("." + written))


def bare_lookup(store: GraphStore, ref: SymbolRef, type_reading: SymbolRef, text: str, require_one: bool,
                 include_hidden: bool, with_hidden: bool) -> Lookup:
    """A bare `name`: a type's is a usage error (saying so of a Kotlin top-level name it shares too: `Job`); else a
    Kotlin top-level function or property of any package (`launch`: `BuildersKt#launch`, several files declaring it
    an ambiguity); else not found, with the near members of the workspace (as `resolve` offers them)."""
    try:
        resolve_type_ref(store, type_reading, text)
    except NotFoundError:
        pass
    except AmbiguousError:  # several types (`Channel`: kotlinx's and java.nio's) and maybe a top-level `Channel()`
        raise names_a_type(text, _shared_top_level(store, ref, text)) from None
    else:
        raise names_a_type(text, _shared_top_level(store, ref, text))
    top = kotlin_top_level(store, ref, text)
    if top is not None:
        return top_level_lookup(store, ref, top, require_one, include_hidden, with_hidden)
    raise NotFoundError(f"not found: {text} (no type, and no Kotlin top-level function or property, of this name)",
                        candidates=_near_member_names(store, text), hint="jdx search <pattern> finds names by camel "
                        "humps and globs; a member is Type#name")


def _shared_top_level(store: GraphStore, ref: SymbolRef, text: str) -> str:
    """The usage error's note of a Kotlin top-level declaration named like the type(s) `text` names, if one is."""
    try:
        top = kotlin_top_level(store, ref, text)
    except AmbiguousError:
        return ""
    return f"; the Kotlin top-level {top.kind}: {top.name}" if top else ""


def _near_member_names(store: GraphStore, name: str) -> list[dict]:
    """The workspace's methods and fields named like `name`, nearest first (search's fuzzy ranking)."""
    from jdx.engine.search import SearchOptions, search

    try:
        found, _ = search(store, name, SearchOptions(kinds=("method", "field"), fuzzy=True, limit=MAX_SUGGESTIONS))
    except (NotFoundError, UsageError):
        return []
    return [{"ref": m["ref"], "kind": m["kind"], "artifact": m["artifact"]} for m in found["matches"]]
