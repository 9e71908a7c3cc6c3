"""One side of a diff: the extracted tables (types, supertypes, members, annotations) as an API surface.

Spec §7.7 "What is compared": types with their kind, visibility, supertypes and annotations; members by name plus
erased parameter list (fields by name plus type); `<clinit>` never. Any artifact the extractor read (jar, class
directory, JDK module) is a side.

Between the extracted tables and a `Surface` sits a compact form per artifact (`compact_from_tables`): one entry
per class holding its type row, its interfaces, a digest of everything the comparison reads about it, and its
member and annotation rows as one marshal blob. It is plain data (tuples, strings, bytes), so a command can keep it
in a small file beside the artifact's shard and build a surface later without pyarrow. A class identical on both
sides, with identical supertypes and enclosing classes, is skipped on its digest and never unpacked.
"""

from __future__ import annotations

import hashlib
import marshal
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pyarrow as pa

PUBLIC, PRIVATE, PROTECTED, STATIC, FINAL = 0x1, 0x2, 0x4, 0x8, 0x10
SYNCHRONIZED, VOLATILE_OR_BRIDGE, VARARGS_OR_TRANSIENT, NATIVE = 0x20, 0x40, 0x80, 0x100
INTERFACE, ABSTRACT, SYNTHETIC, ANNOTATION, ENUM, DEPRECATED = 0x200, 0x400, 0x1000, 0x2000, 0x4000, 0x20000
TYPE_KINDS = ("class", "interface", "enum", "record", "annotation", "module")
OBJECT = "java/lang/Object"
DEPRECATED_DESC = "Ljava/lang/Deprecated;"
KOTLIN_DEPRECATED_DESC = "Lkotlin/Deprecated;"  # kotlinc sets ACC_DEPRECATED with it: one deprecation
LEVELS = {"public": 3, "protected": 2, "package": 1, "private": 0}


def access_level(access: int) -> str:
    if access & PUBLIC:
        return "public"
    if access & PROTECTED:
        return "protected"
    if access & PRIVATE:
        return "private"
    return "package"


def level_text(level: str) -> str:
    """An access level as a detail says it: `package` (no modifier) reads `package-private`."""
    return "package-private" if level == "package" else level


# the annotations of a member that has none: shared and read-only (a member given some gets its own dict)
_NONE = MappingProxyType({})


@dataclass(slots=True)
class Member:
    owner: str
    name: str
    descriptor: str
    is_field: bool
    access: int
    signature: str | None = None
    exceptions: tuple[str, ...] = ()
    param_names: str | None = None
    constant: str | None = None
    default: str | None = None
    annotations: dict[str, str] = field(default_factory=dict)  # descriptor -> values text ("" when none)
    param_annotations: dict[tuple[int, str], str] = field(default_factory=dict)
    declared_in: str = ""  # a non-public supertype the member is inherited from ("" when declared here)
    in_interface: bool = False  # declared by an interface or annotation type (its non-abstract methods: `default`)

    @property
    def key(self) -> str:
        """Identity: name plus erased parameters; fields name plus type; synthetic methods their whole descriptor
        (a bridge shares name and parameters with the method it bridges)."""
        if self.is_field:
            return f"{self.name}:{self.descriptor}"
        if self.access & (SYNTHETIC | VOLATILE_OR_BRIDGE):
            return self.name + self.descriptor
        return self.name + self.descriptor[: self.descriptor.index(")") + 1]

    @property
    def params(self) -> str:
        return self.descriptor[: self.descriptor.index(")") + 1]

    @property
    def returns(self) -> str:
        return self.descriptor[self.descriptor.index(")") + 1:]

    @property
    def level(self) -> str:
        return access_level(self.access)

    @property
    def synthetic(self) -> bool:
        return bool(self.access & SYNTHETIC or (not self.is_field and self.access & VOLATILE_OR_BRIDGE))

    @property
    def deprecated(self) -> bool:
        return bool(self.access & DEPRECATED) or DEPRECATED_DESC in self.annotations or \
            KOTLIN_DEPRECATED_DESC in self.annotations


@dataclass
class TypeInfo:
    name: str
    kind: str
    access: int  # the nested-class flags when the class is nested (they carry protected/private/static)
    signature: str | None
    superclass: str | None
    interfaces: tuple[str, ...]
    outer: str | None
    anonymous_or_local: bool
    kotlin: str | None = None  # the decoded @Metadata (JSON text) of a Kotlin class
    permits: tuple[str, ...] | None = None  # a sealed class's PermittedSubclasses (JVMS §4.7.31); None: not sealed
    row: tuple = ()
    digest: bytes = b""  # of the row, the interfaces, the member and annotation rows (see `Entry`)
    blob: bytes = b""  # marshal of (member rows, annotation rows), turned into `members` on first use
    _members: dict[str, Member] | None = None
    _annotations: dict[str, str] | None = None

    @property
    def members(self) -> dict[str, Member]:
        if self._members is None:
            self._materialize()
        return self._members

    @property
    def annotations(self) -> dict[str, str]:
        if self._annotations is None:
            self._materialize()
        return self._annotations

    def _materialize(self) -> None:
        members: dict[str, Member] = {}
        by_sig: dict[tuple[str, str], Member] = {}
        member_rows, annotation_rows = marshal.loads(self.blob) if self.blob else ((), ())
        owner, in_interface = self.name, self.kind in ("interface", "annotation")
        for kind, name, desc, sig, access, exc, params, constant, default in member_rows:
            if name == "<clinit>":
                continue
            is_field = kind == 1
            m = Member(owner, name, desc, is_field, access, sig, tuple(sorted(exc.split(","))) if exc else (),
                       params, constant, default, _NONE, _NONE, in_interface=in_interface)
            # Member.key, inlined: this loop builds every member of every compared class
            if is_field:
                key = f"{name}:{desc}"
            elif access & (SYNTHETIC | VOLATILE_OR_BRIDGE):
                key = name + desc
            else:
                key = name + desc[: desc.index(")") + 1]
            if key not in members:
                members[key] = m
            if (name, desc) not in by_sig:
                by_sig[(name, desc)] = m
        annotations: dict[str, str] = {}
        for okind, mname, mdesc, param, desc, text in annotation_rows:
            if okind == 0:
                annotations[desc] = text or ""
                continue
            m = by_sig.get((mname, mdesc))
            if m is None:
                continue
            if okind == 3:
                if m.param_annotations is _NONE:
                    m.param_annotations = {}
                m.param_annotations[(param, desc)] = text or ""
            else:
                if m.annotations is _NONE:
                    m.annotations = {}
                m.annotations[desc] = text or ""
        self._members, self._annotations = members, annotations

    def same_as(self, other: "TypeInfo") -> bool:
        """Everything the comparison reads about this class is equal, in class-file order (a reordered but equal
        class merely gets compared in full). Compares digests, never unpacks a member."""
        return self.digest == other.digest

    @property
    def supertypes(self) -> tuple[str, ...]:
        return ((self.superclass,) if self.superclass else ()) + self.interfaces

    @property
    def level(self) -> str:
        return access_level(self.access)

    @property
    def deprecated(self) -> bool:
        return bool(self.access & DEPRECATED) or DEPRECATED_DESC in self.annotations or \
            KOTLIN_DEPRECATED_DESC in self.annotations


@dataclass
class Surface:
    """Every class of one side, by internal name; `label` names the side in details."""

    label: str
    types: dict[str, TypeInfo]
    duplicates: list[str] = field(default_factory=list)  # class names held twice (the first one is kept)
    # class name -> its decoded @Metadata (None: none or unreadable), filled by kotlin_visibility.decoded_metadata
    kotlin_decoded: dict[str, object] = field(default_factory=dict, repr=False)
    # the sealed classes: those with a PermittedSubclasses attribute (JVMS §4.7.31, the extracted `permits`)
    sealed: frozenset[str] = frozenset()
    # class-file major version -> the classes of that version (the JVM refuses a version newer than its own)
    versions: dict[int, list[str]] = field(default_factory=dict)

    def ancestors(self, name: str) -> tuple[list[str], list[str]]:
        """(every supertype reachable through classes this side holds, nearest first; the supertypes it lacks)."""
        seen: list[str] = []
        missing: list[str] = []
        queue = list(self.types[name].supertypes) if name in self.types else []
        while queue:
            s = queue.pop(0)
            if s in seen or s in missing:
                continue
            if s in self.types:
                seen.append(s)
                queue.extend(self.types[s].supertypes)
            elif s == OBJECT:
                seen.append(s)
            else:
                missing.append(s)
        return seen, missing


# One class of an artifact's compact form: (type row, interfaces in declaration order, digest, blob). The type row
# holds TYPE_COLUMNS; the blob is marshal((member rows of MEMBER_COLUMNS, annotation rows of ANNOTATION_COLUMNS)).
Entry = tuple[tuple, tuple[str, ...], bytes, bytes]
TYPE_COLUMNS = ("name", "kind", "access", "signature", "super", "outer", "inner_name", "inner_access", "outer_method",
                "kotlin", "permits", "version")
# the class-file major version is the row's last column and left out of its digest: a library recompiled for a newer
# Java keeps its classes stable (skipped), and the version change is one finding per side (compare.class_version)
_VERSION = TYPE_COLUMNS.index("version")
MEMBER_COLUMNS = ("kind", "name", "descriptor", "signature", "access", "exceptions", "param_names", "constant",
                  "annotation_default")
ANNOTATION_COLUMNS = ("owner_kind", "member_name", "member_desc", "param", "annotation", "text")


def _column(table: pa.Table, name: str) -> list:
    return table.column(name).to_pylist()


def build_surface(label: str, tables: list[dict[str, pa.Table]]) -> Surface:
    """The surface of one side from the extracted tables of its artifacts, in classpath order (first class wins)."""
    return surface_from_compact(label, [compact_from_tables(t) for t in tables])


def surface_from_compact(label: str, artifacts: list[list[Entry]]) -> Surface:
    """The surface of one side from the compact form of each of its artifacts, in classpath order (first class
    wins). Members stay packed until a comparison needs them (most classes of two versions are identical)."""
    types: dict[str, TypeInfo] = {}
    duplicates: list[str] = []
    versions: dict[int, list[str]] = {}
    for entries in artifacts:
        for row, interfaces, digest, blob in entries:
            name = row[0]
            if name in types:
                duplicates.append(name)
            else:
                types[name] = _type_info(row, interfaces, digest, blob)
                if row[_VERSION] is not None:
                    versions.setdefault(row[_VERSION], []).append(name)
    sealed = frozenset(name for name, t in types.items() if t.permits is not None)
    return Surface(label, types, sorted(set(duplicates)), sealed=sealed, versions=versions)


def _type_info(row: tuple, interfaces: tuple[str, ...], digest: bytes, blob: bytes) -> TypeInfo:
    name, kind, access, sig, sup, outer, inner_name, inner_access, outer_method, kotlin, permits, _version = row
    flags = inner_access if inner_access is not None and inner_access >= 0 else access
    # the class-file flags still say interface/annotation/enum/deprecated/synthetic exactly
    flags = (flags & ~(INTERFACE | ANNOTATION | ENUM | DEPRECATED | SYNTHETIC)) | (
        access & (INTERFACE | ANNOTATION | ENUM | DEPRECATED | SYNTHETIC))
    return TypeInfo(name=name, kind=TYPE_KINDS[kind], access=flags, signature=sig, superclass=sup,
                    interfaces=interfaces, outer=outer, anonymous_or_local=inner_name == "" or outer_method is not None,
                    kotlin=kotlin, permits=None if permits is None else tuple(permits.split(",")), row=row,
                    digest=digest, blob=blob)


def compact_from_tables(t: dict[str, pa.Table]) -> list[Entry]:
    """One artifact's compact form from its extracted tables (`types`, `supertypes`, `members`, `annotations`):
    every class but module-info and package-info, in table order; a class the table holds twice keeps its last
    type row and the member rows of both."""
    interfaces: dict[str, list[tuple[int, str]]] = {}
    supers = t["supertypes"]
    for typ, sup, kind, pos in zip(*(_column(supers, c) for c in ("type", "super", "kind", "position"))):
        if kind == 1:
            interfaces.setdefault(typ, []).append((pos, sup))
    rows: dict[str, tuple] = {}
    types = t["types"]
    for row in zip(*(_column(types, c) if c in types.column_names else [None] * types.num_rows
                     for c in TYPE_COLUMNS)):
        if TYPE_KINDS[row[1]] == "module" or row[0].endswith("package-info"):
            continue
        rows[row[0]] = row
    members = _grouped(t["members"], MEMBER_COLUMNS, rows)
    annotations = _grouped(t["annotations"], ANNOTATION_COLUMNS, rows)
    out: list[Entry] = []
    for name, row in rows.items():
        ifaces = tuple(s for _, s in sorted(interfaces.get(name, [])))
        # marshal version 2 writes no back-references, so equal rows give equal bytes whatever shares them
        blob = marshal.dumps((members.get(name, []), annotations.get(name, [])), 2)
        digest = hashlib.blake2b(marshal.dumps((row[:_VERSION], ifaces), 2) + blob, digest_size=16).digest()
        out.append((row, ifaces, digest, blob))
    return out


def _grouped(table: pa.Table, names: tuple[str, ...], kept: dict[str, tuple]) -> dict[str, list[tuple]]:
    """Rows of `table` by owner class (rows come grouped by class: the extractor visits one class at a time)."""
    owners = _column(table, "owner")
    cols = [_column(table, c) for c in names]
    out: dict[str, list[tuple]] = {}
    n, start = len(owners), 0
    for i in range(1, n + 1):
        if i == n or owners[i] != owners[start]:
            if owners[start] in kept:
                out.setdefault(owners[start], []).extend(zip(*(c[start:i] for c in cols)))
            start = i
    return out
