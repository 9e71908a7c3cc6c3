"""Which types and members a diff compares (spec §7.7 `--visibility public|all`, `--include-synthetic`).

`public`: public and protected types (a nested type only when its outer types are too) and their public and
protected members. An anonymous or local class is never API, whatever its flags (kotlinc marks anonymous objects
public; no source can name one). A public type also exposes the public and protected members it inherits from a
non-public supertype of the same artifact (javac re-exports them; the JVM resolves them through the public type),
so those count as the public type's own surface. A Kotlin declaration is API only when its `@Metadata` says so:
`internal` (or `private`) is JVM-public but not API unless `@PublishedApi` (kotlin_visibility.py).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from jdx.engine.diff.kotlin_visibility import KotlinDeclarations
from jdx.engine.diff.surface import (LEVELS, OBJECT, PROTECTED, PUBLIC, STATIC, SYNTHETIC, Member, Surface, TypeInfo,
                                    level_text)
from jdx.engine.diff.surface import VOLATILE_OR_BRIDGE as BRIDGE


@dataclass(frozen=True)
class DiffOptions:
    visibility: str = "public"
    include_synthetic: bool = False


class ApiView:
    """The compared surface of one side under the options; memoised per type."""

    def __init__(self, surface: Surface, options: DiffOptions):
        self.surface = surface
        self.options = options
        self._api: dict[str, bool] = {}
        self._members: dict[str, dict[str, Member]] = {}
        self.kotlin = KotlinDeclarations(surface)

    def type_is_api(self, name: str) -> bool:
        if name not in self._api:
            self._api[name] = False  # a cycle through `outer` answers no
            self._api[name] = self._type_is_api(self.surface.types[name])
        return self._api[name]

    def _type_is_api(self, t: TypeInfo) -> bool:
        if t.access & 0x1000 and not self.options.include_synthetic:
            return False
        if self.options.visibility == "all":
            return True
        if LEVELS[t.level] < LEVELS["protected"] or t.anonymous_or_local:
            return False
        kotlin = self.kotlin.type_access(t.name) if t.kotlin else None
        if kotlin is not None and not kotlin.is_api:
            return False  # Kotlin `internal`/`private`: public on the JVM only
        return t.outer is None or t.outer not in self.surface.types or self.type_is_api(t.outer)

    def member_is_api(self, m: Member) -> bool:
        access = m.access
        if not self.options.include_synthetic and (access & SYNTHETIC or (not m.is_field and access & BRIDGE)):
            return False  # Member.synthetic
        if self.options.visibility == "all":
            return True
        if not access & (PUBLIC | PROTECTED):  # level protected or wider
            return False
        kotlin = self._kotlin_member(m)
        return kotlin is None or kotlin.is_api

    def _kotlin_member(self, m: Member):
        owner = self.surface.types.get(m.owner)
        return self.kotlin.member_access(m) if owner is not None and owner.kotlin else None

    def empty_facade(self, t: TypeInfo) -> bool:
        """A Kotlin file or multi-file facade without one member in the compared surface (its functions all
        `internal` or private): Kotlin sources never name a facade, so then it is no API of its own."""
        if self.options.visibility == "all" or not t.kotlin:
            return False
        meta = self.kotlin.metadata(t.name)
        return meta is not None and meta.kind in ("file facade", "multi-file class facade") and not self.members(t.name)

    def type_level(self, t: TypeInfo) -> str:
        """A type's visibility for a detail: the Kotlin one (`internal`) when metadata states it, else the JVM's."""
        kotlin = self.kotlin.type_access(t.name) if t.kotlin and LEVELS[t.level] >= LEVELS["protected"] else None
        return kotlin.text if kotlin is not None else level_text(t.level)

    def member_level(self, m: Member) -> str:
        """A member's visibility for a detail, as `type_level`."""
        kotlin = self._kotlin_member(m) if m.access & (PUBLIC | PROTECTED) else None
        return kotlin.text if kotlin is not None else level_text(m.level)

    def members(self, name: str) -> dict[str, Member]:
        """Compared members of an API type: declared ones, plus (public view) those re-exported from non-public
        supertypes of this side."""
        if name in self._members:
            return self._members[name]
        t = self.surface.types[name]
        out = {k: m for k, m in t.members.items() if self.member_is_api(m)}
        if self.options.visibility == "public":
            queue, seen = list(t.supertypes), set()
            while queue:
                s = queue.pop(0)
                if s in seen or s not in self.surface.types or s == OBJECT or self.type_is_api(s):
                    continue
                seen.add(s)
                st = self.surface.types[s]
                queue.extend(st.supertypes)
                for k, m in st.members.items():
                    if k in out or m.name == "<init>" or not self.member_is_api(m):
                        continue
                    if st.kind in ("interface", "annotation") and m.access & STATIC:
                        continue  # static interface methods are not inherited
                    out[k] = replace(m, owner=name, declared_in=s)
        self._members[name] = out
        return out
