"""The Kotlin readings of a member reference (member_resolve.lookup): a top-level name (`kotlinx.coroutines.delay`)
is every JVM member its declarations compile to in its file facade, @JvmName-renamed ones included, with a note for
the Kotlin-only ones left out; `Type#name` of a member of the class's companion object (`Config.from(...)` in Kotlin)
is that member, with a note saying where it lives."""

from __future__ import annotations

import json

from dataclasses import dataclass, replace

from jdx.engine.member_resolve import AMBIGUOUS_HINT, Lookup, mangled_of, lookup_ref
from jdx.engine.refs import SymbolRef, format_type
from jdx.errors import AmbiguousError, NotFoundError
from jdx.graph_schema.store import GraphStore


@dataclass
class TopLevel:
    """A Kotlin top-level name's JVM members in its one file facade: a ref per JVM name (`combine` and the
    @JvmName `flowCombine` of `Flow<T1>.combine`), and the declarations of the name (`top_level` rows)."""

    refs: list[SymbolRef]
    decls: list[dict]


def kotlin_top_level(store: GraphStore, ref: SymbolRef, text: str) -> TopLevel | None:
    """`pkg.name` naming a Kotlin top-level function or property (`kotlinx.coroutines.delay`,
    `kotlin.collections.listOf`): the references to its file facade's members, one a JVM name its declarations have
    there (a multi-file part's through its facade, `CollectionsKt#listOf`; a @JvmName-renamed overload by that name),
    None when there is none; facades of one package declaring the name are an ambiguity, one candidate a facade."""
    from jdx.engine.kotlin_toplevel import facade_member, top_level

    if ref.member is None or ref.coord or not ref.type_name or ref.type_name[:1] == "[":
        return None
    package = ref.type_name
    if not all(part.isidentifier() and part[:1].islower() for part in package.split(".")):
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
        raise AmbiguousError(f"ambiguous: the Kotlin top-level {ref.member} of {package} is declared in "
                             f"{len(refs)} files", candidates=[{"ref": str(r), "kind": "method"} for r in refs],
                             hint=AMBIGUOUS_HINT)
    facade, jvm_names = next(iter(names.items()))
    # the Kotlin name first, then each other JVM name (a property's getter, a @JvmName) in name order
    order = sorted(jvm_names, key=lambda n: (n != ref.member, n))
    return TopLevel([replace(ref, type_name=format_type(facade), member=n) for n in order], decls)


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
        raise AmbiguousError(f"ambiguous: {len(found.members)} candidates for {ref}",
                             candidates=[{"ref": e["ref"], "kind": e["kind"]} for e in found.members], hint=AMBIGUOUS_HINT)
    if ref.params is None and ref.descriptor is None and ref.return_type is None and not with_hidden:
        note = _left_out_note(store, ref, top.decls, found.members)
        if note:
            found.notes.append(note)
    return found


def _left_out_note(store: GraphStore, ref: SymbolRef, decls: list[dict], members: list[dict]) -> str | None:
    """`2 Kotlin-only declarations of p.name left out (reified inline): ...`, for the declarations whose JVM member
    the lookup did not list; None when it listed them all."""
    from jdx.engine.kotlin_toplevel import left_out

    n, why = left_out(store, decls, {e["row"]["name"] + e["row"]["descriptor"] for e in members})
    if not n:
        return None
    name = f"{ref.type_name}.{ref.member}"
    return (f"{n} Kotlin-only declaration{'s' if n > 1 else ''} of {name} left out" + (f" ({why})" if why else "")
            + f": jdx signature {name} --include-synthetic lists {'them' if n > 1 else 'it'}")


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
    kotlin = f"{format_type(target['id']).replace('$', '.')}.{ref.member}"
    found.notes.append(f"{ref.member} is a member of the companion object {owner.replace('$', '.')}, not of "
                       f"{format_type(target['id'])}: Kotlin calls it as {kotlin}, Java through {owner.replace('$', '.')}")
    return found


def kotlin_params_match(store: GraphStore, ref: SymbolRef, entries: list[dict]) -> list[dict]:
    """The methods a parameter list written as Kotlin declares it names: an extension function's without its
    receiver (`CollectionsKt#filterIsInstance()` is the JVM's `filterIsInstance(Iterable)`), a suspend function's
    without the Continuation kotlinc adds last (`delay(long)` is `delay(long, Continuation)`), or in Kotlin's types
    (`delay(Duration)` is kotlinc's `delay-VtjQ1oo(long, Continuation)`); [] when none."""
    from jdx.engine.kotlin_view import member_kotlin

    methods = {f"{e['row']['owner']}#{e['row']['name']}{e['row']['descriptor']}": e for e in entries
               if not e["is_field"]}
    kotlin = member_kotlin(store, list(methods)) if methods and ref.params is not None else {}
    decls = {member: next((k for k in kotlin.get(member, ()) if k["role"] == "method" and k["kind"] == "function"),
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
    """The JVM parameters without an extension's receiver (first) and a suspend function's Continuation (last)."""
    from jdx.engine.jvm_names import parse_method_descriptor
    from jdx.engine.refs import matches_params

    receiver = bool(json.loads(decl["detail"] or "{}").get("receiver"))
    suspend = "suspend" in (decl["flags"] or ())
    params, ret = parse_method_descriptor(row["descriptor"])
    if not (receiver or suspend) or len(params) < receiver + suspend:
        return False
    return matches_params(ref, f"({''.join(params[int(receiver):len(params) - int(suspend)])}){ret}")


def _kotlin_type_fits(written: str, declared: str) -> bool:
    """`Duration` or `kotlin.time.Duration` names `kotlin.time.Duration`; `Class` names `java.lang.Class<R>?`."""
    def bare(t: str) -> str:
        return t.split("<", 1)[0].rstrip("?").strip()

    written, declared = bare(written), bare(declared)
    return bool(written) and (written == declared or declared.endswith("." + written))
