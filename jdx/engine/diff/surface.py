"""One side of a diff: the extracted tables (types, supertypes, members, annotations) as an API surface.

Spec §7.7 "What is compared": types with their kind, visibility, supertypes and annotations; members by name plus
erased parameter list (fields by name plus type); `<clinit>` never. Works on pyarrow tables only, so any artifact
the extractor read (jar, class directory, JDK module) is a side.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pyarrow as pa

PUBLIC, PRIVATE, PROTECTED, STATIC, FINAL = 0x1, 0x2, 0x4, 0x8, 0x10
SYNCHRONIZED, VOLATILE_OR_BRIDGE, VARARGS_OR_TRANSIENT, NATIVE = 0x20, 0x40, 0x80, 0x100
INTERFACE, ABSTRACT, SYNTHETIC, ANNOTATION, ENUM, DEPRECATED = 0x200, 0x400, 0x1000, 0x2000, 0x4000, 0x20000
TYPE_KINDS = ("class", "interface", "enum", "record", "annotation", "module")
OBJECT = "java/lang/Object"
DEPRECATED_DESC = "Ljava/lang/Deprecated;"
LEVELS = {"public": 3, "protected": 2, "package": 1, "private": 0}


def access_level(access: int) -> str:
    if access & PUBLIC:
        return "public"
    if access & PROTECTED:
        return "protected"
    if access & PRIVATE:
        return "private"
    return "package"


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
        return bool(self.access & DEPRECATED) or DEPRECATED_DESC in self.annotations


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
    # raw rows as (columns, start, end) runs of the side's column lists, turned into `members` on first use
    member_runs: list[tuple[list[list], int, int]] = field(default_factory=list)
    annotation_runs: list[tuple[list[list], int, int]] = field(default_factory=list)
    row: tuple = ()
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
        for kind, name, desc, sig, access, exc, params, constant, default in _rows(self.member_runs):
            if name == "<clinit>":
                continue
            m = Member(self.name, name, desc, kind == 1, access, sig, tuple(sorted(exc.split(","))) if exc else (),
                       params, constant, default)
            members.setdefault(m.key, m)
            by_sig.setdefault((name, desc), m)
        annotations: dict[str, str] = {}
        for okind, mname, mdesc, param, desc, text in _rows(self.annotation_runs):
            if okind == 0:
                annotations[desc] = text or ""
                continue
            m = by_sig.get((mname, mdesc))
            if m is None:
                continue
            if okind == 3:
                m.param_annotations[(param, desc)] = text or ""
            else:
                m.annotations[desc] = text or ""
        self._members, self._annotations = members, annotations

    def same_as(self, other: "TypeInfo") -> bool:
        """Everything the comparison reads about this class is equal, in class-file order (a reordered but equal
        class merely gets compared in full). Compares column slices, never builds a row."""
        return (self.row == other.row and self.interfaces == other.interfaces
                and _same_runs(self.member_runs, other.member_runs)
                and _same_runs(self.annotation_runs, other.annotation_runs))

    @property
    def supertypes(self) -> tuple[str, ...]:
        return ((self.superclass,) if self.superclass else ()) + self.interfaces

    @property
    def level(self) -> str:
        return access_level(self.access)

    @property
    def deprecated(self) -> bool:
        return bool(self.access & DEPRECATED) or DEPRECATED_DESC in self.annotations


@dataclass
class Surface:
    """Every class of one side, by internal name; `label` names the side in details."""

    label: str
    types: dict[str, TypeInfo]
    duplicates: list[str] = field(default_factory=list)  # class names held twice (the first one is kept)

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


def _column(table: pa.Table, name: str) -> list:
    return table.column(name).to_pylist()


def build_surface(label: str, tables: list[dict[str, pa.Table]]) -> Surface:
    """The surface of one side from the extracted tables of its artifacts, in classpath order (first class wins).
    Members stay raw rows until a comparison needs them (most classes of two versions are identical)."""
    types: dict[str, TypeInfo] = {}
    duplicates: list[str] = []
    for t in tables:
        own = _types(t["types"], t["supertypes"])
        for name, info in own.items():
            if name in types:
                duplicates.append(name)
            else:
                types[name] = info
        kept = {n: info for n, info in own.items() if types.get(n) is info}
        _member_rows(t["members"], kept)
        _annotation_rows(t["annotations"], kept)
    return Surface(label, types, sorted(set(duplicates)))


def _types(rows: pa.Table, supers: pa.Table) -> dict[str, TypeInfo]:
    interfaces: dict[str, list[tuple[int, str]]] = {}
    for typ, sup, kind, pos in zip(*(_column(supers, c) for c in ("type", "super", "kind", "position"))):
        if kind == 1:
            interfaces.setdefault(typ, []).append((pos, sup))
    out = {}
    cols = [_column(rows, c) for c in ("name", "kind", "access", "signature", "super", "outer", "inner_name",
                                      "inner_access", "outer_method", "kotlin")]
    for row in zip(*cols):
        name, kind, access, sig, sup, outer, inner_name, inner_access, outer_method, kotlin = row
        kind_name = TYPE_KINDS[kind]
        if kind_name == "module" or name.endswith("package-info"):
            continue
        flags = inner_access if inner_access is not None and inner_access >= 0 else access
        # the class-file flags still say interface/annotation/enum/deprecated/synthetic exactly
        flags = (flags & ~(INTERFACE | ANNOTATION | ENUM | DEPRECATED | SYNTHETIC)) | (
            access & (INTERFACE | ANNOTATION | ENUM | DEPRECATED | SYNTHETIC))
        out[name] = TypeInfo(
            name=name, kind=kind_name, access=flags, signature=sig, superclass=sup,
            interfaces=tuple(s for _, s in sorted(interfaces.get(name, []))), outer=outer,
            anonymous_or_local=inner_name == "" or outer_method is not None, kotlin=kotlin, row=row)
    return out


def _rows(runs: list[tuple[list[list], int, int]]):
    for cols, start, end in runs:
        yield from zip(*(c[start:end] for c in cols))


def _same_runs(a: list[tuple[list[list], int, int]], b: list[tuple[list[list], int, int]]) -> bool:
    if len(a) != len(b):
        return False
    for (ca, sa, ea), (cb, sb, eb) in zip(a, b):
        if ea - sa != eb - sb or any(x[sa:ea] != y[sb:eb] for x, y in zip(ca, cb)):
            return False
    return True


def _runs(owners: list[str], cols: list[list], kept: dict[str, TypeInfo], attr: str) -> None:
    """Rows come grouped by class (the extractor visits one class at a time): one run per class, no row copied."""
    n, start = len(owners), 0
    for i in range(1, n + 1):
        if i == n or owners[i] != owners[start]:
            info = kept.get(owners[start])
            if info is not None:
                getattr(info, attr).append((cols, start, i))
            start = i


def _member_rows(rows: pa.Table, kept: dict[str, TypeInfo]) -> None:
    names = ("kind", "name", "descriptor", "signature", "access", "exceptions", "param_names", "constant",
             "annotation_default")
    _runs(_column(rows, "owner"), [_column(rows, c) for c in names], kept, "member_runs")


def _annotation_rows(rows: pa.Table, kept: dict[str, TypeInfo]) -> None:
    names = ("owner_kind", "member_name", "member_desc", "param", "annotation", "text")
    _runs(_column(rows, "owner"), [_column(rows, c) for c in names], kept, "annotation_runs")
