"""Kotlin visibility on the diff's public surface (spec §7.7 `--visibility public`, §12.1 `@Metadata`).

kotlinc compiles an `internal` declaration to a public JVM one (a class member's name mangled `name$module`), so the
JVM flags alone would call it API. As Kotlin's binary-compatibility-validator does, the public view reads the
declaration's visibility from the class's `@Metadata`: `internal`, `private` and `local` are not API, unless the
declaration is `@kotlin.PublishedApi` (public inline functions inline calls to it into their callers' bytecode).
A member the metadata does not describe (an enum constant, `INSTANCE`, a synthetic accessor) keeps its JVM view.

Metadata is decoded per class on first use, so only the classes a comparison looks into pay for it.
"""

from __future__ import annotations

from dataclasses import dataclass

from jdx.engine.diff.surface import Member, Surface, TypeInfo

PUBLISHED_API = "Lkotlin/PublishedApi;"
_API = ("public", "protected")


@dataclass(frozen=True, slots=True)
class KotlinAccess:
    """A declaration's Kotlin visibility as `@Metadata` states it, and whether it is `@PublishedApi`."""

    visibility: str  # public | protected | internal | private | local
    published: bool = False

    @property
    def is_api(self) -> bool:
        return self.visibility in _API or (self.visibility == "internal" and self.published)

    @property
    def text(self) -> str:
        return "internal (@PublishedApi)" if self.published and self.visibility == "internal" else self.visibility


_Signature = tuple[str, str]  # a JVM member's (name, descriptor)


class KotlinDeclarations:
    """One side's Kotlin access of classes and of the JVM members their declarations compile to."""

    def __init__(self, surface: Surface):
        self.surface = surface
        self._members: dict[str, dict[_Signature, KotlinAccess]] = {}
        self._types: dict[str, KotlinAccess | None] = {}

    def type_access(self, name: str) -> KotlinAccess | None:
        """The Kotlin access of a class, None for a Java class, a facade or unreadable metadata."""
        if name not in self._types:
            t = self.surface.types.get(name)
            visibility = _class_visibility(t.kotlin) if t is not None and t.kotlin else None
            self._types[name] = None if visibility is None else KotlinAccess(
                visibility, PUBLISHED_API in t.annotations)
        return self._types[name]

    def member_access(self, m: Member) -> KotlinAccess | None:
        """The Kotlin access of the declaration `m` compiles (`m.owner` declares it), None when no metadata
        describes it."""
        if m.owner not in self._members:
            self._members[m.owner] = self._member_map(m.owner)
        return self._members[m.owner].get((m.name, m.descriptor))

    def metadata(self, name: str):
        """The class's decoded `@Metadata`, or None."""
        return decoded_metadata(self.surface, name)

    def _member_map(self, name: str) -> dict[_Signature, KotlinAccess]:
        meta = self.metadata(name)
        if meta is None:
            return {}
        t = self.surface.types[name]
        out: dict[_Signature, KotlinAccess] = {}
        if meta.facade_parts:  # a multi-file facade delegates to its parts, which carry the declarations
            for part in meta.facade_parts:
                part_meta = self.metadata(part)
                if part_meta is not None and part_meta.package is not None:
                    _declare(out, part_meta.package, _published((self.surface.types[part], t)))
            return out
        decls = meta.klass or meta.package
        if decls is None:
            return out
        published = _published((t,))
        _declare(out, decls, published)
        if meta.klass is not None:
            for c in meta.klass.constructors:
                if c.jvm:
                    out[c.jvm] = KotlinAccess(c.visibility, c.jvm in published)
            if meta.klass.companion:
                self._companion(out, t, meta.klass.companion)
        return out

    def _companion(self, out: dict[_Signature, KotlinAccess], t: TypeInfo, simple: str) -> None:
        """A companion's `const`/`@JvmField` properties are static fields of the outer class, and the outer class's
        `Companion` field is as visible as the companion object."""
        name = f"{t.name}${simple}"
        access, meta = self.type_access(name), self.metadata(name)
        if access is None or meta is None or meta.klass is None:
            return
        out.setdefault((simple, f"L{name};"), access)
        published = _published((self.surface.types[name], t))
        for p in meta.klass.properties:
            if p.jvm_field:
                out.setdefault(p.jvm_field, KotlinAccess(p.visibility, any(
                    s in published for s in (p.jvm_synthetic, p.jvm_getter, p.jvm_field))))


def decoded_metadata(surface: Surface, name: str):
    """The decoded `@Metadata` of a class of `surface` (lambdas left undecoded), once per side; None for a Java
    class, a class the side lacks, or unreadable metadata (the JVM view then stands)."""
    memo = surface.kotlin_decoded
    if name not in memo:
        t = surface.types.get(name)
        meta = None
        if t is not None and t.kotlin:
            from jdx.kotlin import MetadataError, decode_metadata

            try:
                meta = decode_metadata(t.kotlin, lambdas=False)
            except MetadataError:
                meta = None
        memo[name] = meta
    return memo[name]


def _class_visibility(raw: str) -> str | None:
    """The visibility of a class's `@Metadata(k = 1)` read from its flags alone, without decoding its declarations
    (every class of both sides may be asked); None for any other kind or unreadable metadata."""
    import json

    from jdx.kotlin.decode import SUPPORTED_MAJOR
    from jdx.kotlin.model import VISIBILITIES
    from jdx.kotlin.strings import read_payload
    from jdx.kotlin.wire import MetadataError, first_int, parse_message

    try:
        values = json.loads(raw)
        mv = values.get("mv") or [1]
        if values.get("k", 1) != 1 or not values.get("d1") or mv[0] not in SUPPORTED_MAJOR:
            return None
        _, data, start = read_payload(values["d1"], values.get("d2") or [])
        flags = first_int(parse_message(data, start), 1, 6)
    except (MetadataError, ValueError, TypeError, KeyError, IndexError, AttributeError):
        return None
    return VISIBILITIES[(flags >> 1) & 7] if 0 <= (flags >> 1) & 7 < len(VISIBILITIES) else None


def _declare(out: dict[_Signature, KotlinAccess], decls, published: frozenset[_Signature]) -> None:
    """The functions and properties of `decls` (a class's or a file's) by the JVM members they compile to;
    `published` are the members annotated `@PublishedApi` of the classes that hold them."""
    for f in decls.functions:
        if f.jvm:
            out[f.jvm] = KotlinAccess(f.visibility, f.jvm in published)
    for p in decls.properties:
        # a property's annotations sit on its synthetic `getX$annotations()` (or on the accessor or field)
        published_p = any(s in published for s in (p.jvm_synthetic, p.jvm_getter, p.jvm_setter, p.jvm_field))
        access = KotlinAccess(p.visibility, published_p)
        for sig in (p.jvm_getter, p.jvm_field):
            if sig:
                out[sig] = access
        if p.jvm_setter:
            setter = p.setter.visibility if p.setter is not None else p.visibility  # `internal set`
            out[p.jvm_setter] = KotlinAccess(setter, published_p)


def _published(holders: tuple[TypeInfo, ...]) -> frozenset[_Signature]:
    """The members of `holders` annotated `@PublishedApi`."""
    return frozenset((m.name, m.descriptor) for t in holders for m in t.members.values()
                     if PUBLISHED_API in m.annotations)
