"""KDoc `[links]` to canonical references (spec §6, §7.1), resolved as the Kotlin compiler would read the
name in the declaration's file: a parameter of the declaration stays text; then members and nested types of
the enclosing classes (and their companion objects); then the file's imports, its package, its star imports
and Kotlin's default imports; then a fully qualified name. Types and members must be in the workspace;
top-level functions and properties are found in their package's facade classes. Kotlin's mapped types
(`List`, `Any`, `String`) name their JVM classes.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from jdx.engine.kotlin_parse import KtParsedFile
from jdx.engine.refs import format_type
from jdx.errors import JdxError
from jdx.graph_schema import queries_kotlin as qk

DEFAULT_IMPORTS = ("kotlin", "kotlin.annotation", "kotlin.collections", "kotlin.comparisons", "kotlin.io",
                   "kotlin.ranges", "kotlin.sequences", "kotlin.text", "kotlin.jvm", "java.lang")
MAPPED = {"kotlin.Any": "java.lang.Object", "kotlin.String": "java.lang.String",
          "kotlin.CharSequence": "java.lang.CharSequence", "kotlin.Throwable": "java.lang.Throwable",
          "kotlin.Comparable": "java.lang.Comparable", "kotlin.Enum": "java.lang.Enum",
          "kotlin.Number": "java.lang.Number", "kotlin.Annotation": "java.lang.annotation.Annotation",
          "kotlin.Cloneable": "java.lang.Cloneable", "kotlin.collections.Iterable": "java.lang.Iterable",
          "kotlin.collections.Iterator": "java.util.Iterator", "kotlin.collections.Collection": "java.util.Collection",
          "kotlin.collections.List": "java.util.List", "kotlin.collections.ListIterator": "java.util.ListIterator",
          "kotlin.collections.Set": "java.util.Set", "kotlin.collections.Map": "java.util.Map",
          "kotlin.collections.Map.Entry": "java.util.Map.Entry"}
for _k in ("Iterable", "Iterator", "Collection", "List", "ListIterator", "Set", "Map", "Map.Entry"):
    MAPPED[f"kotlin.collections.Mutable{_k}"] = MAPPED[f"kotlin.collections.{_k}"]
FILE_LEVEL = (2, 4, 5)


@dataclass
class LinkScope:
    """Where a KDoc comment stands: its file, the classes around it (innermost first), its parameters."""

    parsed: KtParsedFile
    owners: list[str] = field(default_factory=list)
    params: set[str] = field(default_factory=set)


class LinkResolver:
    """`resolve(target)` → canonical reference or None; memoised per resolver (one comment, one file)."""

    def __init__(self, ctx, scope: LinkScope) -> None:
        self.ctx, self.scope = ctx, scope
        self._seen: dict[str, str | None] = {}

    def __call__(self, target: str) -> str | None:
        if target not in self._seen:
            try:
                self._seen[target] = self._resolve(target)
            except JdxError:
                self._seen[target] = None
        return self._seen[target]

    # --- names ---------------------------------------------------------------------------------------

    def _type(self, fqn: str) -> str | None:
        """The internal name of a type given by a dotted name (packages and nested classes in any split)."""
        fqn = MAPPED.get(fqn, fqn)
        segs = fqn.split(".")
        for p in range(len(segs) - 1, -1, -1):
            internal = "/".join(segs[:p] + ["$".join(segs[p:])])
            if self.ctx.type_row(internal) is not None:
                return internal
        return None

    def _member(self, type_id: str, name: str, declared: bool = False) -> str | None:
        """`Type#name` as a canonical reference (one overload: its full reference). `declared`: a Kotlin
        class must declare `name` itself (a backing field in the outer class is not the companion's property)."""
        from jdx.engine.kotlin_view import decls_of
        from jdx.engine.member_resolve import lookup

        if declared:
            decls = decls_of(self.ctx.store, type_id)
            if decls and not any(d["name"] == name and d["owner"] == type_id for d in decls):
                return None
        try:
            found = lookup(self.ctx.store, f"{format_type(type_id)}#{name}", require_one=False)
        except JdxError:
            return None
        refs = sorted({e["ref"] for e in found.members})
        return refs[0] if len(refs) == 1 else f"{format_type(type_id)}#{name}"

    def _top_level(self, package: str, name: str) -> str | None:
        """A top-level function or property of a package, as its facade's member."""
        prefix = package.replace(".", "/") + "/" if package else ""
        hosts = []
        for row in self.ctx.store.rows_cached(qk.KOTLIN_TOP_LEVEL_NAMED, {"name": name, "prefix": prefix}):
            owner = row["owner"]
            if "/" in owner[len(prefix):]:
                continue
            type_row = self.ctx.type_row(owner)
            if type_row is None or _kind(type_row) not in FILE_LEVEL:
                continue
            hosts.append(row["facade"] or owner)
        for host in sorted(set(hosts)):
            ref = self._member(host, name)
            if ref is not None:
                return ref
        return None

    def _packages(self) -> list[str]:
        p = self.scope.parsed
        return [p.package, *p.star_imports, *DEFAULT_IMPORTS]

    def _first(self, head: str) -> list[str]:
        """Fully qualified names the first segment of a link may stand for, most specific first."""
        p = self.scope.parsed
        out = []
        if head in p.imports:
            out.append(p.imports[head])
        out.extend(f"{pkg}.{head}" if pkg else head for pkg in self._packages())
        return out

    def _resolve(self, target: str) -> str | None:
        segs = [s for s in target.split(".") if s]
        if not segs:
            return None
        head, rest = segs[0], segs[1:]
        if not rest and head in self.scope.params:
            return None
        for owner in self.scope.owners:  # the enclosing classes, their nested types and members
            if not rest and owner.rsplit("/", 1)[-1].rsplit("$", 1)[-1] == head:
                return format_type(owner)
            nested = self._type(format_type(owner) + "." + ".".join(segs))
            if nested is not None:
                return format_type(nested)
            if not rest:
                ref = self._member(owner, head, declared=True)
                if ref is not None:
                    return ref
            elif len(segs) == 2 and self._type(format_type(owner) + "." + head) is not None:
                ref = self._member(self._type(format_type(owner) + "." + head), rest[0])
                if ref is not None:
                    return ref
        for base in self._first(head):  # imports, the package, star and default imports
            found = self._qualified(base, rest)
            if found is not None:
                return found
        if not rest:
            p = self.scope.parsed
            if head in p.imports and "." in p.imports[head]:
                pkg, _, name = p.imports[head].rpartition(".")
                ref = self._top_level(pkg, name)
                if ref is not None:
                    return ref
            for pkg in self._packages():
                ref = self._top_level(pkg, head)
                if ref is not None:
                    return ref
            return None
        return self._qualified(".".join(segs[:-1]), [segs[-1]]) or self._top_level(".".join(segs[:-1]), segs[-1])

    def _qualified(self, base: str, rest: list[str]) -> str | None:
        """`base` (a dotted type) then `rest`: nested types, the last segment possibly a member."""
        whole = self._type(".".join([base, *rest]))
        if whole is not None:
            return format_type(whole)
        if rest:
            owner = self._type(".".join([base, *rest[:-1]]))
            if owner is not None:
                return self._member(owner, rest[-1])
        return None


def _kind(type_row: dict) -> int | None:
    from jdx.engine.kotlin_source import metadata_kind

    return metadata_kind(type_row)


def scope_of(ctx, loc, type_row: dict) -> LinkScope:
    """The link scope of a located Kotlin declaration: its file, its enclosing classes (with their companion
    objects), its parameters (and a class's primary-constructor parameters)."""
    from jdx.engine.src_locate import outer_chain

    owner = loc.owner or type_row
    owners: list[str] = []
    if loc.keys:
        cur: str | None = owner["id"]
        chain = outer_chain(ctx, owner["id"])
        while cur:
            owners.append(cur)
            row = ctx.type_row(cur)
            companion = f"{cur}$Companion"
            if row is not None and ctx.type_row(companion) is not None:
                owners.append(companion)
            cur = chain.get(cur)
        if owner["id"].endswith("$DefaultImpls"):
            owners = [owner["id"][: -len("$DefaultImpls")]] + owners
    params = set(getattr(loc.decl, "param_names", []) or []) if loc.decl is not None else set()
    return LinkScope(loc.file.parsed, owners, params)
