"""Kotlin type aliases in `search` and `resolve` (spec §7.2, §12.1): `typealias Transform<T> = (T) -> T`.

An alias compiles to no class: its only trace is its file facade's (or class's) `@kotlin.Metadata`, which the
graph keeps as a `KotlinDecl` row of kind `typealias` (loaders/kotlin_shard.py). The search index built from the
bytecode has no row for it, so the aliases are read here once per open graph (one query; kotlin-stdlib has 33) and
matched in Python with the search's own patterns, tiers and ranking. A top-level alias is named after its Kotlin
package (`kotlin.collections.ArrayList`; a file's `@JvmPackageName`, metadata `pn`, moves its facade only:
`kotlin.jdk7.AutoCloseableKt` declares `kotlin.AutoCloseable`), a nested one after its class. Its expansion is the
fully expanded type the metadata records; where that is a class of the workspace (`java.util.ArrayList`, a Kotlin
mapped type's JVM class), the hit names it as the thing to query next (`expands_to`): `show`, `members` of an alias
answer not-found and name that class, as an IDE navigates to the alias, never silently to its expansion.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from jdx.engine.refs import format_type, parse_ref
from jdx.errors import NotFoundError, RefSyntaxError
from jdx.graph_schema import queries, queries_kotlin as q
from jdx.graph_schema.schema import name_words
from jdx.graph_schema.store import GraphStore

_SHADOW = re.compile(r"@[0-9a-f]+$")  # a shadowed copy's id suffix (refs.SHADOW_SUFFIX's shape)


@dataclass(frozen=True)
class TypeAlias:
    id: str  # as a type id would be: `kx/Transform`, a nested one `a/B$Alias` (a shadowed copy keeps its suffix)
    name: str
    words: str  # name_words(name), what camel humps match
    package: str  # dotted
    public: bool  # public or internal, as search's Kotlin hits count it
    artifact: str  # the artifact id of the class that declares it
    row: dict  # the KotlinDecl row

    @property
    def expansion(self) -> str:
        import json

        return json.loads(self.row["detail"] or "{}").get("expanded") or ""

    @property
    def type_parameters(self) -> str:
        """`<T>` of `typealias Transform<T> = ...` ('' when none), as the declaration writes it."""
        head = self.row["signature"].split(" = ", 1)[0]
        at = head.find("typealias " + self.name)
        return head[at + len("typealias " + self.name):] if at >= 0 else ""

    def declaration(self) -> str:
        """`typealias kx.Transform<T> = (T) -> T`: the alias by its reference, its expansion qualified; a visibility
        other than Kotlin's default `public` leads."""
        vis = self.row["visibility"] or "public"
        lead = "" if vis == "public" else vis + " "
        return f"{lead}typealias {format_type(self.id)}{self.type_parameters} = {self.expansion}"


def _alias_id(owner: str, name: str, nested: bool, kotlin_package: str | None = None) -> str:
    """`kotlin_package`: a top-level alias's package when its file's metadata names another than the JVM's (`pn`)."""
    m = _SHADOW.search(owner)
    base, suffix = (owner[:m.start()], m.group(0)) if m else (owner, "")
    if nested:
        return f"{base}${name}{suffix}"
    package = base.rsplit("/", 1)[0] if "/" in base else ""
    if kotlin_package is not None:
        package = kotlin_package.replace(".", "/")
    return f"{package}/{name}{suffix}" if package else name + suffix


def type_aliases(store: GraphStore) -> list[TypeAlias]:
    """Every type alias of the graph, read once per open graph; [] without a query in a workspace without Kotlin."""
    key = ("kotlin-type-aliases",)
    found = store.memo.get(key)
    if found is not None:
        return found
    from jdx.engine.kotlin_hits import has_kotlin

    rows = store.rows(q.KOTLIN_TYPE_ALIASES) if has_kotlin(store) else []
    owners = sorted({r["owner"] for r in rows if r["facade"] is None})
    classes = {r["id"] for r in store.rows(q.KOTLIN_CLASSES_AMONG, {"ids": owners})} if owners else set()
    from jdx.engine.kotlin_toplevel import kotlin_package

    found = []
    for r in rows:
        nested = r["owner"] in classes
        # a file's `@JvmPackageName` moves its facade, not its declarations: the alias keeps the Kotlin package
        alias_id = _alias_id(r["owner"], r["name"], nested,
                             None if nested else kotlin_package(store, r["owner"]))
        plain = _SHADOW.sub("", alias_id)
        found.append(TypeAlias(alias_id, r["name"], name_words(r["name"]),
                               plain.rsplit("/", 1)[0].replace("/", ".") if "/" in plain else "",
                               r["visibility"] in ("public", "internal"), r["artifact"], r))
    store.memo[key] = found
    return found


def alias_matches(store: GraphStore, p, fuzzy_lower: str | None, art_ids, package_regex: str | None,
                  qualifier_regex: str | None) -> list[tuple[int, TypeAlias]]:
    """(tier, alias) of every alias the pattern matches within the filters: search's tiers (a typo's edit distance)."""
    from jdx.engine.search_match import fuzzy_budget, levenshtein, owner_test

    aliases = type_aliases(store)
    if not aliases:
        return []
    arts = set(art_ids) if art_ids is not None else None
    pkg = re.compile(package_regex) if package_regex is not None else None
    owner = owner_test(qualifier_regex, True) if qualifier_regex is not None else None
    out = []
    for a in aliases:
        if (arts is not None and a.artifact not in arts) or (pkg is not None and not pkg.fullmatch(a.package)):
            continue
        if owner is not None and not owner(_SHADOW.sub("", a.id)):
            continue
        if fuzzy_lower is not None:
            budget = fuzzy_budget(fuzzy_lower)
            if abs(len(a.name) - len(fuzzy_lower)) > budget:
                continue
            d = levenshtein(a.name.lower(), fuzzy_lower)
            tier = d if d <= budget else None
        else:
            tier = p.tier(a.name, a.words)
        if tier is not None:
            out.append((tier, a))
    return out


def group_of(a: TypeAlias, rank: int) -> dict:
    """An alias shaped like a search group, for search's ranking key."""
    return {"name": a.name, "owner": a.id, "pub": a.public, "rank": rank, "kind": "typealias"}


def expands_to(store: GraphStore, a: TypeAlias) -> str | None:
    """The workspace class an alias expands to (`java.util.ArrayList` for `kotlin.collections.ArrayList`, a Kotlin
    mapped type's JVM class), None for a function type, a primitive or a class outside the workspace."""
    text = a.expansion.strip()
    if not text or text.startswith(("(", "suspend ")) or "->" in text.split("<", 1)[0]:
        return None
    head = text.split("<", 1)[0].rstrip("?").strip()
    if head.startswith("kotlin."):
        from jdx.engine.kotlin_doc import MAPPED

        head = MAPPED.get(head, head)
    try:
        candidates = parse_ref(head).type_candidates()
    except RefSyntaxError:
        return None
    for fqn in candidates:
        rows = store.rows_cached(queries.TYPE_BY_ID, {"id": fqn.replace(".", "/")})
        if rows and not rows[0]["t.external"]:
            return format_type(rows[0]["t.id"])
    return None


def alias_fields(store: GraphStore, a: TypeAlias) -> dict:
    """What every answer naming an alias carries: its expansion, the class it expands to, its declaration."""
    from jdx.engine.kotlin_view import kotlin_entry

    return {"expansion": a.expansion, "expands_to": expands_to(store, a), "declaration": a.declaration(),
            "kotlin": kotlin_entry(a.row)}


def aliases_named(store: GraphStore, written: str) -> list[TypeAlias]:
    """Aliases a (possibly partial) dotted name denotes: the simple name, or a qualified name's tail."""
    aliases = type_aliases(store)
    if not aliases or not written:
        return []
    suffix = written.replace("$", ".")
    simple = re.split(r"[.$]", written)[-1]
    out = []
    for a in aliases:
        if a.name != simple:
            continue
        dotted = format_type(_SHADOW.sub("", a.id)).replace("$", ".")
        if dotted == suffix or dotted.endswith("." + suffix):
            out.append(a)
    return out


def resolve_candidates(store: GraphStore, written: str) -> list[dict]:
    """`resolve` candidates of the aliases a name denotes, each pointing at its expansion."""
    out = []
    for a in aliases_named(store, written):
        fields = alias_fields(store, a)
        target = fields["expands_to"]
        note = f"typealias for {a.expansion}" + (f": query {target}" if target else "")
        out.append({"kind": "typealias", "ref": format_type(a.id), "artifact": a.artifact, "public": a.public,
                    "note": note, **fields})
    return out


def alias_miss(store: GraphStore, text: str) -> NotFoundError | None:
    """The not-found of a command taking a class when `text` names a type alias: it says so, and names the class
    the alias expands to as the candidate to re-run with (None when `text` names no alias)."""
    try:
        ref = parse_ref(text)
    except RefSyntaxError:
        return None
    if (ref.member is not None and not ref.ambiguous_dot) or ref.is_glob or ref.is_package_glob:
        return None
    found = aliases_named(store, ref.type_name)
    if ref.coord is None and "." in ref.type_name:  # a qualified name is that alias, not one whose tail it is
        found = [a for a in found if format_type(_SHADOW.sub("", a.id)).replace("$", ".") ==
                 ref.type_name.replace("$", ".")] or found
    if not found:
        return None
    from jdx.engine.resolve import artifact_names

    arts = artifact_names(store)
    candidates, lines = [], []
    for a in found:
        target = expands_to(store, a)
        lines.append(a.declaration())
        if target is not None and all(c["ref"] != target for c in candidates):
            row = store.rows_cached(queries.TYPE_BY_ID, {"id": target.replace(".", "/")})
            art = row[0]["t.artifact"] if row else ""
            candidates.append({"ref": target, "kind": row[0]["t.kind"] if row else "", "artifact": arts.get(art, "")})
    what = "a Kotlin type alias" if len(found) == 1 else f"{len(found)} Kotlin type aliases"
    message = f"not found: {text.strip()} is {what}, not a class: {'; '.join(lines)}"
    if candidates:
        hint = f"the alias expands to {candidates[0]['ref']}: re-run with it"
    else:
        owner = found[0].row["facade"] or found[0].row["owner"]
        hint = (f"it expands to {found[0].expansion}, which is no class of the workspace; "
                f"jdx outline {shlex.quote(format_type(owner))} lists the alias")
    return NotFoundError(message, candidates=candidates, hint=hint)


@contextmanager
def alias_misses(store_of, text: str) -> Iterator[None]:
    """A class command's not-found becomes `alias_miss`'s when the name is a type alias (exit 1 either way).
    `store_of`: a callable giving the store (the session opens it lazily)."""
    try:
        yield
    except NotFoundError as exc:
        better = alias_miss(store_of(), text)
        if better is None:
            raise
        raise better from exc
