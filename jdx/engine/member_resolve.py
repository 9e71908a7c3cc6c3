"""Member references to graph members (spec §6, §9.3): `Type#name`, `Type#name(params)[:Ret]`, exact
descriptors, `Type::name`, dotted `a.b.C.name`, `#<init>`, fields.

A member is looked up among the members the type *has*: its own, then those it inherits (the supertype
walk of `members`: private members of supertypes, package-private ones from other packages, constructors
and static interface methods are not inherited; an override hides what it overrides, and a static method
every supertype method of its name and parameters whatever it returns, JLS §8.4.8). Bridges and other
synthetic members only answer when nothing visible matches (`Dog#self():fx.Animal` names the bridge); an
access bridge (`StringBuilder#length()`, javac's re-export of a public method of a non-public superclass)
has the very name and descriptor of the inherited method, which its ref therefore names.
"""

from __future__ import annotations

import difflib
import re
import shlex
from dataclasses import dataclass, field, replace

from jdx.engine import descriptors as d
from jdx.engine.member_render import ACC, access_level, source_descriptor, with_outer_instance
from jdx.engine.members import (ancestor_sets, declared_members, is_hidden, is_listable, overrides_earlier, stands_for,
                                supertype_walk, walk_members)
from jdx.engine.refs import SymbolRef, format_member, format_type, matches_params, parse_ref
from jdx.engine.resolve import resolve_type_ref
from jdx.engine.search_match import levenshtein
from jdx.errors import AmbiguousError, NotFoundError, UsageError
from jdx.graph_schema import queries
from jdx.graph_schema.store import GraphStore

MAX_SUGGESTIONS = 5
NEAR_OWNERS = 50  # near type names a misspelled owner's suggestions are drawn from (cheap: one fuzzy query)
AMBIGUOUS_HINT = "re-run with one of the candidates' refs"


@dataclass
class Lookup:
    """Everything a member lookup found: the queried type, the matches and what the walk could not see."""

    target: dict
    ref: SymbolRef
    members: list[dict]
    unresolved: list[str] = field(default_factory=list)
    walk: list[tuple[dict, dict]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # what the lookup read into the name (a Kotlin property's members)


def _package(internal: str) -> str:
    return internal.rsplit("/", 1)[0] if "/" in internal else ""


def _kind(row: dict, is_field: bool) -> str:
    if is_field:
        return "field"
    return {"<init>": "constructor", "<clinit>": "initializer"}.get(row["name"], "method")


_hidden = is_hidden


def canonical_ref(entry: dict, methods_of_owner: list[dict] | None = None, all_methods: dict | None = None) -> str:
    """The canonical ref of a collected member; `:ReturnType` only when the declaring type has another
    method of the same name and parameters (a bridge or covariant twin). A field gets `:Type` when a
    method of the same name exists (`fx.Point#x:int` beside `fx.Point#x()`): without parentheses but
    with a type, a reference names a field only."""
    row = entry["row"]
    if entry["is_field"]:
        clash = any(m["name"] == row["name"] for ms in (all_methods or {}).values() for m in ms)
        return format_member(entry["declaring"], row["name"], row["descriptor"], is_field=True, with_return=clash)
    params = row["descriptor"][: row["descriptor"].index(")") + 1]
    twins = [m for m in methods_of_owner or [] if m["name"] == row["name"] and m["descriptor"] != row["descriptor"]
             and m["descriptor"].startswith(params)]
    return format_member(entry["declaring"], row["name"], row["descriptor"],
                         varargs=bool(row["access"] & ACC["varargs"]), with_return=bool(twins))


_stands_for = stands_for


@dataclass
class Collected:
    visible: list[dict]  # what the type has: declared and inherited, overrides collapsed
    hidden: list[dict]  # bridges and synthetic members (nearest first)
    unresolved: list[str]  # supertypes the workspace lacks
    walk: list[tuple[dict, dict]]
    methods: dict[str, list[dict]]  # every method of every walked type, by owner
    fields: dict[str, list[dict]]


def collect(store: GraphStore, target: dict, applied: dict | None = None) -> Collected:
    """The members a type has, as `members --inherited --access all` computes them, except that a bridge
    collapses the supertype method it overrides whenever it is a covariant/generic bridge (see
    `_stands_for`); `members` keeps a protected twin, or a twin in a non-public class, visible. `applied` binds the
    type's own parameters (`Map<String, Integer>#put(String, Integer)`): each member's `env` is in those terms."""
    walk = supertype_walk(store, target, applied)
    methods, fields = declared_members(store, walk)
    query_pkg = _package(target["id"])
    ancestors = ancestor_sets(walk)
    seen: dict[str, dict] = {}
    bridged: dict[str, str] = {}
    visible: list[dict] = []
    hidden: list[dict] = []
    hidden_keys: set[str] = set()
    unresolved: list[str] = []
    target_iface = target.get("kind") in ("interface", "annotation")
    for row, env, is_iface, declared, is_field, m in walk_members(walk, methods, fields, target["id"], unresolved):
        tid = row["id"]
        name = m["name"]
        if not is_listable(m, is_field, declared, tid, is_iface, query_pkg, target_iface):
            continue  # an interface has Object's public methods only (JLS §9.2): never its clone() or finalize()
        # what hides a supertype's method (JLS §8.4.8): one of the same name and parameters, whatever it
        # returns; a covariant override has a bridge to carry the old return, a hiding static method none
        full = f"{name}:{m['descriptor']}" if is_field else name + m["descriptor"]
        key = full if is_field else name + m["descriptor"][: m["descriptor"].index(")") + 1]
        entry = {"row": with_outer_instance(m, row) if declared and not is_field else m, "is_field": is_field,
                 "kind": _kind(m, is_field), "declaring": tid, "env": env, "iface": is_iface, "type_row": row}
        if _hidden(m, is_field):
            if not is_field and key not in seen:
                bridged.setdefault(key, tid)
            if full not in hidden_keys:
                hidden_keys.add(full)
                hidden.append(entry)
            continue
        if key in seen and seen[key].get("declaring") == tid:
            key = full  # two real methods of one class differing only in return (not Java, but bytecode allows)
        if key in seen and not declared and not is_field and "overrides" in seen[key] and \
                overrides_earlier(seen[key]["declaring"], seen[key]["iface"], tid, is_iface, ancestors):
            prior = seen[key]  # a subinterface reached after its superinterface: its method is the member
            entry["overrides"] = [format_type(prior["declaring"]), *prior["overrides"]]
            visible[next(i for i, e in enumerate(visible) if e is prior)] = entry
            seen[key] = entry
            continue
        if key in seen:
            if not declared and "overrides" in seen[key]:
                first = seen[key]  # a static method hides its supertype's (JLS §8.4.8.2): it overrides nothing
                hiding = not first["is_field"] and first["row"]["access"] & ACC["static"]
                (first.setdefault("hides", []) if hiding else first["overrides"]).append(format_type(tid))
            continue
        if key in bridged and bridged[key] != tid and _stands_for(bridged[key], m, row, methods):
            seen[key] = {"bridge": True}  # a covariant/generic bridge below stands for this one
            continue
        entry["overrides"] = []
        seen[key] = entry
        visible.append(entry)
    return Collected(visible, hidden, unresolved, walk, methods, fields)


def _substituted_descriptor(entry: dict) -> str | None:
    """The erased descriptor of an inherited generic method in the query's terms (`add(E)` of
    `ArrayList<String>` reads `(Ljava/lang/String;)Z`), so `StringList#add(String)` matches it."""
    row = entry["row"]
    if entry["is_field"] or not entry["env"] or d.is_raw(entry["env"]) or not row.get("signature"):
        return None  # (a raw type's member: its descriptor is already its erasure)
    try:
        sig = d.substitute(d.parse_method_signature(row["signature"]), entry["env"])
        return d.erased_method_descriptor(sig)
    except ValueError:
        return None


def _matches(ref: SymbolRef, entry: dict) -> bool:
    row = entry["row"]
    if ref.params is None and ref.return_type is None and ref.descriptor is None:
        return True
    if entry["is_field"] != (ref.params is None and ref.descriptor is None):
        return False  # parentheses name methods; `name:Type` without them names a field
    varargs = bool(row["access"] & ACC["varargs"])
    if matches_params(ref, row["descriptor"], varargs, signature=row.get("signature")):
        return True
    source = source_descriptor(row)  # an inner class's constructor as its source writes it, no outer instance
    if source is not None and ref.descriptor is None and matches_params(ref, source, varargs,
                                                                         signature=row.get("signature")):
        return True
    enum = _enum_source_descriptor(entry)  # an enum's constructor as its source writes it, no name and ordinal
    if enum is not None and ref.descriptor is None and matches_params(ref, enum, varargs):
        return True
    sub = _substituted_descriptor(entry)
    return sub is not None and ref.descriptor is None and matches_params(ref, sub, varargs)


_ENUM_HIDDEN = "(Ljava/lang/String;I"  # javac's enum constructors take the constant's name and ordinal first


def _enum_source_descriptor(entry: dict) -> str | None:
    """`(Ljava/lang/String;)V` for an enum's constructor `(Ljava/lang/String;ILjava/lang/String;)V` (JLS §8.9.2:
    the name and ordinal javac prepends); None for every other member."""
    row = entry["row"]
    descriptor = row.get("descriptor") or ""
    if entry.get("is_field") or row.get("name") != "<init>" or (entry.get("type_row") or {}).get("kind") != "enum" \
            or not descriptor.startswith(_ENUM_HIDDEN):
        return None
    return "(" + descriptor[len(_ENUM_HIDDEN):]


def _named(entries: list[dict], name: str) -> list[dict]:
    return [e for e in entries if e["row"]["name"] == name]


def _mangled(entries: list[dict], name: str) -> list[dict]:
    """The methods kotlinc named `name-hash` (a function taking or returning an inline class: `delay-VtjQ1oo` is
    Kotlin's `delay(Duration)`), which a bare `Type#name` lists beside the overloads named `name`. An inline class's
    own `toString-impl` is no such name: its boxed twin `toString` stands for it."""
    return [e for e in entries if not e["is_field"] and mangled_of(e["row"]["name"], name)]


def mangled_of(jvm_name: str, name: str) -> bool:
    return re.fullmatch(re.escape(name) + r"-[\w-]{7}", jvm_name) is not None


def _candidate(entry: dict, methods: dict, note: str = "") -> dict:
    out = {"ref": canonical_ref(entry, methods.get(entry["declaring"]), methods), "kind": entry["kind"]}
    if note:
        out["note"] = note
    return out


def _not_inherited(found: Collected, target: dict, member: str) -> list[dict]:
    """Same-named members of supertypes that the type does not inherit (static interface methods,
    private or package-private ones), so a miss can say where the name lives."""
    out = []
    for row, env in found.walk[1:]:
        for is_field, rows in ((False, found.methods.get(row["id"], [])), (True, found.fields.get(row["id"], []))):
            for m in rows:
                if m["name"] == member and not _hidden(m, is_field):
                    entry = {"row": m, "is_field": is_field, "kind": _kind(m, is_field), "declaring": row["id"]}
                    why = "static interface method, not inherited" if m["access"] & ACC["static"] and not is_field \
                        else f"{access_level(m['access'])} member, not inherited"
                    if row["id"] == "java/lang/Object" and target.get("kind") in ("interface", "annotation"):
                        why = (f"{access_level(m['access'])} method: an interface has only Object's public ones "
                               "(JLS §9.2)")
                    out.append(_candidate(entry, found.methods, why))
    return out


def _written_params(ref: SymbolRef) -> tuple[str, ...] | None:
    """The parameter types a ref spells, from its list or its exact descriptor; None when it names none."""
    if ref.params is not None:
        return ref.params
    if ref.descriptor is not None and ref.descriptor.startswith("("):
        try:
            return tuple(d.descriptor_to_java(p) for p in d.parse_method_descriptor(ref.descriptor)[0])
        except ValueError:
            return None
    return None


def _type_cost(written: str, actual: str) -> float:
    """How far a written parameter type is from a declared one: edit distance of the simple names
    (lower-cased, relative to the longer), so `Strin` is near `java.lang.String`; array depth counts."""
    w, a = written.rstrip("[]"), actual.rstrip("[]")
    dims = (len(written) - len(w)) != (len(actual) - len(a))
    w, a = re.split(r"[.$]", w)[-1].lower(), re.split(r"[.$]", a)[-1].lower()
    return min(1.0, levenshtein(w, a) / max(len(w), len(a), 1) + 0.5 * dims)


def _param_cost(written: tuple[str, ...], entry: dict) -> float:
    """Distance of an overload from the written parameters: each written type against its nearest unused
    declared one (a little more when out of place), a missing one costing as much as a wrong one and each
    extra declared one a quarter, so `load(Strin)` ranks `load(String, ClassLoader)` before `load(Config)`
    and `load()`. A field is farthest."""
    if entry["is_field"]:
        return float("inf")
    try:
        params = [d.descriptor_to_java(p) for p in d.parse_method_descriptor(entry["row"]["descriptor"])[0]]
    except ValueError:
        return float("inf")
    unused = dict(enumerate(params))
    cost = 0.0
    for i, w in enumerate(written):
        if not unused:
            cost += 1.0
            continue
        j = min(unused, key=lambda k: (_type_cost(w, unused[k]), k != i, k))
        cost += _type_cost(w, unused.pop(j)) + 0.01 * (j != i)
    return cost + 0.25 * len(unused)


def _by_params(entries: list[dict], ref: SymbolRef) -> list[dict]:
    """Overloads nearest the written parameters first (declaration order among equals)."""
    written = _written_params(ref)
    if written is None:
        return entries
    return sorted(entries, key=lambda e: _param_cost(written, e))


def _overloads_note(name: str, total: int, shown: int) -> str:
    return f"{name} has {total} overloads" + (f", the {shown} nearest shown" if shown < total else "")


def _suggest(found: Collected, target: dict, member: str, ref: SymbolRef) -> tuple[list[dict], list[str]]:
    """(candidates, notes) for a miss, every candidate a ref that resolves. Overloads of the same name first
    (the parameters were wrong), nearest the written parameters first; then same-named members that are
    not inherited; then case-insensitive, prefix and edit-distance matches among the type's member names
    (see _corrected_names)."""
    visible, methods = found.visible, found.methods
    same = _named(visible, member)
    if same:
        shown = _by_params(same, ref)[:MAX_SUGGESTIONS]
        notes = [_overloads_note(member, len(same), len(shown))] if len(same) > len(shown) else []
        return [_candidate(e, methods) for e in shown], notes
    elsewhere = _not_inherited(found, target, member)
    if elsewhere:
        shown = elsewhere[:MAX_SUGGESTIONS]
        return shown, [f"{c['ref']} is a {c['note']}" for c in shown]
    ctor = member in ("<init>", d.simple_name_of(target["id"]))
    method = ref.params is not None or ref.descriptor is not None  # parentheses name a method, never a field
    names: dict[str, list[dict]] = {}
    for e in visible:  # (an interface's: never Object's clone() for `content()`, `collect` left it out)
        if e["kind"] == "method" or (e["kind"] == "field" and not method) or ctor:
            names.setdefault(e["row"]["name"], []).append(e)
    low = member.lower()
    picked: list[str] = [n for n in sorted(names) if n.lower() == low]
    picked += [n for n in sorted(names) if n.lower().startswith(low) and n not in picked and len(low) >= 2]
    picked += [n for n in difflib.get_close_matches(member, sorted(names), n=MAX_SUGGESTIONS, cutoff=0.6)
               if n not in picked]
    lowered = {n.lower(): n for n in sorted(names)}
    picked += [lowered[n] for n in difflib.get_close_matches(low, list(lowered), n=MAX_SUGGESTIONS, cutoff=0.6)
               if lowered[n] not in picked]
    if method:  # a renamed method keeps its parameters: the type's own methods taking exactly the written ones
        picked += [n for n in sorted(names) if n not in picked and any(
            e["declaring"] == target["id"] and _matches(replace(ref, member=n), e) for e in names[n])]
    return _corrected_names(found, target, ref, {n: names[n] for n in picked[:MAX_SUGGESTIONS]})


def _corrected_names(found: Collected, target: dict, ref: SymbolRef,
                     names: dict[str, list[dict]]) -> tuple[list[dict], list[str]]:
    """Suggestions for a misspelled member name, nearest name first. With parameters written, the overloads
    of all near names nearest those parameters; else every overload when they all fit, or else one ref per
    name: its one member, or the bare `Type#name` (all its overloads) with the count in the notes."""
    methods = found.methods
    written = _written_params(ref)
    pool = [(i, e) for i, entries in enumerate(names.values()) for e in entries]
    if written is not None:
        def key(item: tuple[int, dict]) -> tuple:
            i, e = item
            exact = _matches(replace(ref, member=e["row"]["name"]), e)
            return (not exact, _param_cost(written, e), i)
        return [_candidate(e, methods) for _, e in sorted(pool, key=key)[:MAX_SUGGESTIONS]], []
    if len(pool) <= MAX_SUGGESTIONS:
        return [_candidate(e, methods) for _, e in pool], []
    out = []
    for name, entries in names.items():  # a name's count goes with its candidate: the message is the query's
        out.append(_candidate(entries[0], methods) if len(entries) == 1 else
                   {"ref": str(SymbolRef(type_name=format_type(target["id"]), member=name)),
                    "kind": entries[0]["kind"], "overloads": len(entries)})
    return out, []


def _member_reading(text: str) -> tuple[SymbolRef, SymbolRef | None]:
    """The reading of `text` that names a member, plus the type-only reading of a dotted `a.b.C.name` or of a bare
    `name`, whose member reading has no type part (`launch`: a Kotlin top-level name, see
    `member_resolve_kotlin.bare_lookup`)."""
    ref = parse_ref(text)
    if ref.is_glob or ref.is_package_glob:
        raise UsageError(f"{text!r} is a glob; this command takes one member, e.g. Type#name")
    if ref.member is not None:
        return ref, None
    readings = ref.alternatives()
    if len(readings) < 2:
        return replace(ref, type_name="", member=ref.type_name), ref
    return readings[1], readings[0]


def names_a_type(text: str, also: str = "") -> UsageError:
    return UsageError(f"{text!r} names a type; this command takes a member, e.g. {text}#name "
                      f"(for the type itself: jdx show {shlex.quote(text)}{also})")


def lookup(store: GraphStore, text: str, require_one: bool = False, include_hidden: bool = True,
           with_hidden: bool = False, kotlin_properties: bool = True, applied: dict | None = None) -> Lookup:
    """Resolve a member reference; NotFoundError (with did-you-mean), AmbiguousError when `require_one`. Hidden
    members (bridges, synthetic ones) answer when no visible one matches (`include_hidden`), or beside the visible
    ones (`with_hidden`: `signature --include-synthetic`). A bare `Type#name` of a Kotlin class naming a property
    is every JVM member it compiles to (`kotlin_properties`, see `kotlin_refs.property_members`; never with `require_one`)."""
    ref, type_reading = _member_reading(text)
    if not ref.type_name:  # a bare `launch`: a Kotlin top-level name, if no type's
        from jdx.engine.member_resolve_kotlin import bare_lookup

        return bare_lookup(store, ref, type_reading, text, require_one, include_hidden, with_hidden)
    properties = kotlin_properties and not require_one
    try:
        return lookup_ref(store, ref, text, require_one, include_hidden, with_hidden, properties, applied=applied)
    except NotFoundError:
        from jdx.engine.member_resolve_kotlin import kotlin_top_level, top_level_lookup

        facade = kotlin_top_level(store, ref, text)
        if facade is not None:  # `kotlinx.coroutines.delay`: Kotlin's name of `DelayKt#delay`
            return top_level_lookup(store, ref, facade, require_one, include_hidden, with_hidden)
        if type_reading is not None:
            try:
                resolve_type_ref(store, type_reading, text)
            except (NotFoundError, AmbiguousError):
                pass
            else:
                raise names_a_type(text) from None
        raise


def lookup_ref(store: GraphStore, ref: SymbolRef, text: str, require_one: bool, include_hidden: bool,
            with_hidden: bool = False, kotlin_properties: bool = False, companion: bool = True,
            applied: dict | None = None) -> Lookup:
    try:
        target = resolve_type_ref(store, ref, text, near=NEAR_OWNERS)
    except AmbiguousError as exc:
        target = _only_type_with_member(store, ref, text, exc)
    except NotFoundError as exc:  # a type only a source file declares: that answer, not near types
        from jdx.engine import unbuilt_sources
        from jdx.engine.member_near import no_owner

        raise (exc if unbuilt_sources.explained(exc) else no_owner(store, ref, text, exc)) from None
    found_all = collect(store, target, applied)
    visible, hidden, unresolved, walk, methods = (found_all.visible, found_all.hidden, found_all.unresolved,
                                                  found_all.walk, found_all.methods)
    member = ref.member
    named = _named(visible, member)
    if not named and member == d.simple_name_of(target["id"]):
        member, ref = "<init>", replace(ref, member="<init>")  # `Foo#Foo(int)`: the constructor, as in Java
        named = _named(visible, member)
    written = member  # the name as written: a Kotlin property's, when `jvm_name_of` renames it below
    renamed = []
    if target.get("kotlin"):  # the Kotlin name's overloads @JvmName renamed, whether or not one kept the name
        from jdx.engine.member_resolve_kotlin import renamed_functions

        renamed = renamed_functions(store, visible, member)
    if not named and target.get("kotlin") and len({e["row"]["name"] for e in renamed}) < 2:
        from jdx.engine.kotlin_refs import jvm_name_of

        # a property name (its supertypes' too), a function under @JvmName
        jvm = jvm_name_of(store, target["id"], member, text, visible + hidden)
        if jvm is not None:
            from jdx.engine.member_resolve_kotlin import of_kotlin_name

            # `Path#div` is the `div` operators under @JvmName `resolve`, not the functions Kotlin calls `resolve`
            visible, hidden = of_kotlin_name(store, visible, member, jvm), of_kotlin_name(store, hidden, member, jvm)
            found_all = replace(found_all, visible=visible, hidden=hidden)
            member, ref = jvm, replace(ref, member=jvm)
            named = _named(visible, member)
    named += [e for e in renamed if e not in named]  # `Builder#append`: `append` and its @JvmName `appendToList`
    if target.get("kotlin") and ref.params is None and ref.descriptor is None and ref.return_type is None:
        named += [e for e in _mangled(visible, member) if e not in named]  # every overload: the mangled ones too
    found = [e for e in named if _matches(ref, e)]
    if with_hidden or (not found and include_hidden):
        found += [e for e in _named(hidden, member) if _matches(ref, e)]
    if not found and target.get("kotlin") and ref.params is not None:
        from jdx.engine.member_resolve_kotlin import kotlin_params_match

        found = kotlin_params_match(store, ref, named + _mangled(visible, member)
                                    + (_named(hidden, member) if include_hidden else []))
    if not found and not named and not _named(hidden, member) and target.get("kotlin") and companion:
        from jdx.engine.member_resolve_kotlin import companion_member

        via = companion_member(store, target, ref, require_one, include_hidden, with_hidden, kotlin_properties)
        if via is not None:  # `EditorConfigOverride#from`: Kotlin's `EditorConfigOverride.from(...)`
            return via
    if not found:
        from jdx.engine.external_symbols import shadowed_member_miss

        if (shadowed := shadowed_member_miss(store, text, ref)) is not None:
            raise shadowed  # the loaded copy lacks it, a shadowed copy declares it: NoSuchMethodError at run time
        candidates, notes = _suggest(found_all, target, member, ref)
        if unresolved:
            notes.append(f"{len(unresolved)} supertype(s) not in the workspace: it may be declared there")
        from jdx.engine import unbuilt_sources

        # no near name to offer: the type's members are the list to pick from (a type named `X`'s miss says so too)
        hint = None if candidates else f"jdx members {shlex.quote(format_type(target['id']))} lists what it has"
        miss = NotFoundError(f"not found: {text}" + (f" ({'; '.join(notes)})" if notes else ""), candidates=candidates,
                             hint=hint)
        raise unbuilt_sources.member_not_compiled(store, format_type(target["id"]), ref, text, miss)
    notes: list[str] = []
    if kotlin_properties and target.get("kotlin") and ref.params is None and ref.descriptor is None \
            and ref.return_type is None:
        from jdx.engine.kotlin_refs import property_members

        found, notes = property_members(store, found, visible, written, methods)
    if ref.params is None and ref.descriptor is None and ref.return_type is None \
            and not (kotlin_properties and target.get("kotlin")):  # (a Kotlin property is its field and accessors)
        found = _without_private_namesake_fields(found)
    for e in found:
        e["ref"] = canonical_ref(e, methods.get(e["declaring"]), methods)
    if require_one and len(found) > 1:
        raise AmbiguousError(f"ambiguous: {len(found)} candidates for {text}",
                             candidates=[{"ref": e["ref"], "kind": e["kind"]} for e in found], hint=AMBIGUOUS_HINT)
    return Lookup(target, ref, found, unresolved, walk, notes)


def _without_private_namesake_fields(found: list[dict]) -> list[dict]:
    """A bare `Type#name` naming methods and private fields alike (durian's `Errors#rethrow()` beside its `private
    static Rethrowing rethrow`): the methods, which code outside the class can use; `Type#name:Type` names the field."""
    if not any(not e["is_field"] and not e["row"]["access"] & ACC["private"] for e in found):
        return found
    return [e for e in found if not (e["is_field"] and e["row"]["access"] & ACC["private"])]


def _has_member(store: GraphStore, ref: SymbolRef, row: dict) -> bool:
    """Does the type declare or inherit a member `ref` names (bridges and synthetics included)?"""
    found = collect(store, row)
    member = ref.member
    if member == d.simple_name_of(row["id"]) and not _named(found.visible, member):
        member, ref = "<init>", replace(ref, member="<init>")
    return any(_matches(ref, e) for e in _named(found.visible, member) + _named(found.hidden, member))


def _only_type_with_member(store: GraphStore, ref: SymbolRef, text: str, exc: AmbiguousError) -> dict:
    """`Simple#m` where several types are named `Simple`: the candidates are only the types that declare or
    inherit `m` (spec §9.3); one left is the answer, none is not-found, several stay ambiguous."""
    having = []
    ids = [c["ref"].replace(".", "/") for c in exc.candidates]
    maybe = set(ids)
    if ref.member != d.simple_name_of(ids[0]) and not store.rows(queries.TYPES_DECLARING, {
            "ids": ["java/lang/Object"], "name": ref.member}):
        # no type declaring the name anywhere above a candidate: it cannot have the member
        maybe = {r["id"] for q in (queries.TYPES_DECLARING, queries.TYPES_INHERITING)
                 for r in store.rows(q, {"ids": ids, "name": ref.member})}
    for c in exc.candidates:
        rows = store.rows_cached(queries.TYPE_BY_ID, {"id": c["ref"].replace(".", "/")}) \
            if c["ref"].replace(".", "/") in maybe else []
        if rows:
            row = {k[2:]: v for k, v in rows[0].items()}
            if _has_member(store, ref, row):
                having.append((c, row))
    if len(having) == 1:
        return having[0][1]
    if not having:
        message = f"not found: {text} ({_none_has(store, ref, exc.candidates)})"
        near = _near_members(store, ref, exc.candidates)  # a misspelled member: its near names, not the types
        raise NotFoundError(message, candidates=near or exc.candidates[:MAX_SUGGESTIONS],
                            hint="jdx members <type> lists what a type has") from None
    raise AmbiguousError(f"ambiguous: {len(having)} candidates for {text}",
                         candidates=[{**c, "ref": str(replace(ref, type_name=c["ref"], coord=None))}
                                     for c, _ in having], hint=AMBIGUOUS_HINT) from None


def _none_has(store: GraphStore, ref: SymbolRef, types: list[dict]) -> str:
    """Why no type of the simple name answers `ref`: none has a member of the name; or, for a written parameter
    list, none has that overload while some have others of the name (`Names#slug(int)`: `slug(String)` exists; it
    read as if the method were gone)."""
    every = f"none of the {len(types)} types named {ref.type_name}"
    if ref.params is not None:
        for c in types:
            rows = store.rows_cached(queries.TYPE_BY_ID, {"id": c["ref"].replace(".", "/")})
            if rows and _has_member(store, replace(ref, params=None, varargs=False, descriptor=None),
                                    {k[2:]: v for k, v in rows[0].items()}):
                return f"{every} has {ref.member}({', '.join(ref.params)}); {c['ref']} has {ref.member} with other " \
                       "parameters"
    return f"{every} has a member {ref.member}"


def _near_members(store: GraphStore, ref: SymbolRef, types: list[dict]) -> list[dict]:
    """The did-you-mean members of the types a simple name names, the types in their ranked order (`ArrayList#addAl`:
    `java.util.ArrayList#addAll` before `Arrays$ArrayList`'s); empty when no type has a member named like it."""
    out: list[dict] = []
    for c in types:
        try:
            row = resolve_type_ref(store, parse_ref(c["ref"]), c["ref"])
        except (NotFoundError, AmbiguousError, UsageError):
            continue
        candidates, _ = _suggest(collect(store, row), row, ref.member, replace(ref, type_name=c["ref"], coord=None))
        out += [x for x in candidates if x not in out]
        if len(out) >= MAX_SUGGESTIONS:
            break
    return out[:MAX_SUGGESTIONS]


def resolve_members(store: GraphStore, text: str, require_one: bool = False) -> tuple[dict, list[dict]]:
    """(the queried Type row, the matching members): every overload when no parameters were written.

    Each member dict has `row` (the graph row), `kind` (method, constructor, initializer, field),
    `declaring` (internal name), `env` (type-variable bindings in the query's terms), `iface`,
    `is_field`, `ref` (canonical) and `overrides` (supertypes whose declaration it hides)."""
    found = lookup(store, text, require_one=require_one)
    return found.target, found.members
