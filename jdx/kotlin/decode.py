"""`@kotlin.Metadata` values -> Kotlin declarations (spec §12.1), in pure Python.

Field numbers and flag layouts follow `metadata.proto`, `jvm_metadata.proto` and `Flags.java` of the
Kotlin repository (Apache-2.0). Versions 1.x and 2.x are read; a newer major version, or any unreadable
input (truncated or hostile `d1`, a wrong `mv`, tables past the limits), is a named warning and no
Kotlin view: callers then show the JVM view.
"""

from __future__ import annotations

import json

from jdx.kotlin.jvm import default_method_desc, default_type
from jdx.kotlin.model import (CLASS_KINDS, MEMBER_KINDS, MODALITIES, PROJECTIONS, VARIANCES, VISIBILITIES,
                              KmAccessor, KmClass, KmConstructor, KmFunction, KmPackage, KmProperty, KmType,
                              KmTypeAlias, KmTypeParameter, KmValueParameter, KotlinMetadata)
from jdx.kotlin.strings import NameResolver, read_payload
from jdx.kotlin.wire import (MAX_DEPTH, MetadataError, corrupt, first_bytes, first_int, int32, parse_message,
                             repeated_bytes, repeated_ints)

KINDS = {1: "class", 2: "file facade", 3: "synthetic class", 4: "multi-file class facade",
         5: "multi-file class part"}
SUPPORTED_MAJOR = (1, 2)
EXTENSION_FUNCTION_TYPE = "kotlin/ExtensionFunctionType"
PARAMETER_NAME = "kotlin/ParameterName"  # a function type's parameter name: `(offset: Int) -> Unit`


def _int(values: list) -> int:
    v = values[-1]
    if v.__class__ is not int:
        raise corrupt("expected a number")
    return v if v < 0x80000000 else int32(v)


def _pick(values: tuple, i: int) -> str:
    return values[i] if 0 <= i < len(values) else values[-1]


class _Scope:
    """Type parameters visible to a declaration (id -> name), chained to the enclosing class's."""

    __slots__ = ("names", "parent")

    def __init__(self, parent: _Scope | None = None):
        self.names: dict[int, str] = {}
        self.parent = parent

    def name(self, tid: int) -> str:
        s: _Scope | None = self
        while s is not None:
            got = s.names.get(tid)
            if got is not None:
                return got
            s = s.parent
        return f"T#{tid}"


class _Reader:
    def __init__(self, names: NameResolver):
        self.names = names
        self.table: list[bytes] = []
        self.first_nullable = -1
        self.type_cache: dict[int, KmType] = {}  # table types that name no type parameter by id
        self.parsed: dict[int, dict[int, list]] = {}  # every table type's fields, parsed once
        self.scope_lookups = 0

    # --- tables

    def use_type_table(self, fields: dict[int, list]) -> None:
        raw = first_bytes(fields, 30)
        if raw is None:
            return
        tt = parse_message(raw)
        self.table = repeated_bytes(tt, 1)
        self.first_nullable = first_int(tt, 2, -1)
        self.type_cache = {}
        self.parsed = {}

    def s(self, index: int | None) -> str:
        if index is None:
            raise corrupt("a required name is missing")
        return self.names.string(index)

    # --- types

    def type_by_id(self, tid: int, scope: _Scope, depth: int) -> KmType:
        if not 0 <= tid < len(self.table):
            raise corrupt(f"type id {tid} outside the type table")
        got = self.type_cache.get(tid)
        if got is not None:
            return got
        before = self.scope_lookups
        fields = self.parsed.get(tid)
        if fields is None:
            fields = self.parsed[tid] = parse_message(self.table[tid])
        t = self.type(fields, scope, depth + 1)
        if 0 <= self.first_nullable <= tid:
            t.nullable = True
        if self.scope_lookups == before:  # the same KmType serves every declaration (never mutated later)
            self.type_cache[tid] = t
        return t

    def type_of(self, fields: dict[int, list], inline: int, by_id: int, scope: _Scope, depth: int) -> KmType | None:
        raw = first_bytes(fields, inline)
        if raw is not None:
            return self.type(parse_message(raw), scope, depth + 1)
        tid = first_int(fields, by_id)
        if tid is not None:
            return self.type_by_id(tid, scope, depth)
        return None

    def types_of(self, fields: dict[int, list], inline: int, by_id: int, scope: _Scope) -> list[KmType]:
        out = [self.type(parse_message(raw), scope, 1) for raw in repeated_bytes(fields, inline)]
        out.extend(self.type_by_id(tid, scope, 0) for tid in repeated_ints(fields, by_id))
        return out

    def type(self, f: dict[int, list], scope: _Scope, depth: int) -> KmType:
        if depth > MAX_DEPTH:
            raise corrupt("types nest deeper than the limit")
        get = f.get
        if (v := get(6)) is not None:
            t = KmType(self.s(_int(v)))
        elif (v := get(7)) is not None:
            self.scope_lookups += 1
            t = KmType(scope.name(_int(v)), "typeparam")
        elif (v := get(9)) is not None:
            t = KmType(self.s(_int(v)), "typeparam")
        elif (v := get(12)) is not None:
            t = KmType(self.s(_int(v)), "alias")
        else:
            raise corrupt("a type without a classifier")
        if (v := get(1)) is not None:
            flags = _int(v)
            t.suspend = bool(flags & 1)
            t.definitely_non_null = bool(flags & 2)
        if (v := get(3)) is not None:
            t.nullable = bool(_int(v))
        if (v := get(2)) is not None:
            for raw in v:
                if raw.__class__ is not bytes:
                    raise corrupt("a type argument is not a message")
                a = parse_message(raw)
                projection = _pick(PROJECTIONS, first_int(a, 1, 2))
                arg = None if projection == "*" else self.type_of(a, 2, 3, scope, depth)
                if arg is None:
                    projection = "*"
                t.arguments.append((projection, arg))
        if 10 in f or 11 in f:
            t.outer = self.type_of(f, 10, 11, scope, depth)
        if 13 in f or 14 in f:
            t.abbreviation = self.type_of(f, 13, 14, scope, depth)
        if 4 in f:
            t.flexible_upper = self.type_of(f, 5, 8, scope, depth)
        if (v := get(100)) is not None:
            for raw in repeated_bytes(f, 100):
                ann = parse_message(raw)
                name = self.s(first_int(ann, 1))
                if name == EXTENSION_FUNCTION_TYPE:
                    t.extension_function = True
                elif name == PARAMETER_NAME:
                    t.parameter_name = self.parameter_name(ann)
        if 101 in f:
            t.raw = bool(first_int(f, 101, 0))
        return t

    def parameter_name(self, ann: dict[int, list]) -> str | None:
        """The `name` argument of a `@ParameterName` (Annotation.Argument: 1 name, 2 value; Value: 5 string)."""
        for raw in repeated_bytes(ann, 2):
            arg = parse_message(raw)
            values = repeated_bytes(arg, 2)
            name = first_int(arg, 1)
            if values and name is not None and self.s(name) == "name":
                index = first_int(parse_message(values[0]), 5)
                return self.s(index) if index is not None else None
        return None

    def type_parameters(self, fields: dict[int, list], number: int, scope: _Scope) -> list[KmTypeParameter]:
        raws = [parse_message(raw) for raw in repeated_bytes(fields, number)]
        params = []
        for p in raws:  # names first: bounds may mention any parameter of the list (T : Comparable<T>)
            tp = KmTypeParameter(first_int(p, 1, 0), self.s(first_int(p, 2)))
            scope.names[tp.id] = tp.name
            params.append(tp)
        for tp, p in zip(params, raws):
            tp.reified = bool(first_int(p, 3, 0))
            tp.variance = _pick(VARIANCES, first_int(p, 4, 2))
            tp.upper_bounds = self.types_of(p, 5, 6, scope)
        return params

    # --- declarations

    def value_parameters(self, fields: dict[int, list], number: int, scope: _Scope) -> list[KmValueParameter]:
        out = []
        for raw in repeated_bytes(fields, number):
            p = parse_message(raw)
            flags = first_int(p, 1, 0)
            out.append(KmValueParameter(
                self.s(first_int(p, 2)), self.type_of(p, 3, 5, scope, 0), self.type_of(p, 4, 6, scope, 0),
                declares_default=bool(flags & 2), crossinline=bool(flags & 4), noinline=bool(flags & 8)))
        return out

    def signature(self, raw: bytes | None) -> tuple[int | None, int | None]:
        if raw is None:
            return None, None
        sig = parse_message(raw)
        return first_int(sig, 1), first_int(sig, 2)

    def function(self, raw: bytes, outer: _Scope) -> KmFunction:
        f = parse_message(raw)
        saved = (self.table, self.first_nullable, self.type_cache, self.parsed)
        if 30 in f:
            self.use_type_table(f)
        try:
            flags = first_int(f, 9, 6)
            fn = KmFunction(
                self.s(first_int(f, 2)), _pick(VISIBILITIES, (flags >> 1) & 7), _pick(MODALITIES, (flags >> 4) & 3),
                _pick(MEMBER_KINDS, (flags >> 6) & 3), operator=bool(flags & 1 << 8), infix=bool(flags & 1 << 9),
                inline=bool(flags & 1 << 10), tailrec=bool(flags & 1 << 11), external=bool(flags & 1 << 12),
                suspend=bool(flags & 1 << 13), expect=bool(flags & 1 << 14))
            scope = _Scope(outer)
            fn.type_parameters = self.type_parameters(f, 4, scope)
            fn.receiver = self.type_of(f, 5, 8, scope, 0)
            fn.context_receivers = self.types_of(f, 10, 11, scope)
            fn.parameters = self.value_parameters(f, 6, scope)
            fn.return_type = self.type_of(f, 3, 7, scope, 0)
            name, desc = self.signature(first_bytes(f, 100))
            jname = self.s(name) if name is not None else fn.name
            if desc is not None:
                fn.jvm = (jname, self.s(desc))
            else:
                params = ([fn.receiver] if fn.receiver else []) + [p.type for p in fn.parameters]
                d = default_method_desc(params, fn.return_type)
                fn.jvm = (jname, d) if d else None
            origin = first_int(f, 101)
            fn.lambda_origin = self.s(origin) if origin is not None else None
            return fn
        finally:
            self.table, self.first_nullable, self.type_cache, self.parsed = saved

    def property(self, raw: bytes, outer: _Scope) -> KmProperty:
        f = parse_message(raw)
        flags = first_int(f, 11, 518)
        vis, mod = _pick(VISIBILITIES, (flags >> 1) & 7), _pick(MODALITIES, (flags >> 4) & 3)
        p = KmProperty(
            self.s(first_int(f, 2)), vis, mod, _pick(MEMBER_KINDS, (flags >> 6) & 3), var=bool(flags & 1 << 8),
            const=bool(flags & 1 << 11), lateinit=bool(flags & 1 << 12), has_constant=bool(flags & 1 << 13),
            external=bool(flags & 1 << 14), delegated=bool(flags & 1 << 15), expect=bool(flags & 1 << 16))
        scope = _Scope(outer)
        p.type_parameters = self.type_parameters(f, 4, scope)
        p.receiver = self.type_of(f, 5, 10, scope, 0)
        p.context_receivers = self.types_of(f, 12, 13, scope)
        p.return_type = self.type_of(f, 3, 9, scope, 0)
        setter_param = first_bytes(f, 6)
        if setter_param is not None:
            p.setter_parameter = self.s(first_int(parse_message(setter_param), 2))
        default_accessor = flags & 0x3F  # hasAnnotations, visibility, modality of the property
        if flags & 1 << 9:
            p.getter = _accessor(first_int(f, 7, default_accessor))
        if flags & 1 << 10:
            p.setter = _accessor(first_int(f, 8, default_accessor))
        sig_raw = first_bytes(f, 100)
        if sig_raw is not None:
            sig = parse_message(sig_raw)
            field_raw = first_bytes(sig, 1)
            if field_raw is not None:
                name, desc = self.signature(field_raw)
                fdesc = self.s(desc) if desc is not None else default_type(p.return_type)
                if fdesc:
                    p.jvm_field = (self.s(name) if name is not None else p.name, fdesc)
            for number, attr in ((2, "jvm_synthetic"), (3, "jvm_getter"), (4, "jvm_setter"), (5, "jvm_delegate")):
                name, desc = self.signature(first_bytes(sig, number))
                if name is not None and desc is not None:
                    setattr(p, attr, (self.s(name), self.s(desc)))
        p.moved_from_interface_companion = bool(first_int(f, 101, 0) & 1)
        return p

    def constructor(self, raw: bytes, scope: _Scope) -> KmConstructor:
        f = parse_message(raw)
        flags = first_int(f, 1, 6)
        c = KmConstructor(_pick(VISIBILITIES, (flags >> 1) & 7), secondary=bool(flags & 1 << 4))
        c.parameters = self.value_parameters(f, 2, scope)
        name, desc = self.signature(first_bytes(f, 100))
        jname = self.s(name) if name is not None else "<init>"
        if desc is not None:
            c.jvm = (jname, self.s(desc))
        else:
            d = default_method_desc([p.type for p in c.parameters], None, constructor=True)
            c.jvm = (jname, d) if d else None
        return c

    def type_alias(self, raw: bytes, outer: _Scope) -> KmTypeAlias:
        f = parse_message(raw)
        flags = first_int(f, 1, 6)
        a = KmTypeAlias(self.s(first_int(f, 2)), _pick(VISIBILITIES, (flags >> 1) & 7))
        scope = _Scope(outer)
        a.type_parameters = self.type_parameters(f, 3, scope)
        a.underlying = self.type_of(f, 4, 5, scope, 0)
        a.expanded = self.type_of(f, 6, 7, scope, 0)
        return a

    def klass(self, f: dict[int, list], outer_ids: dict[int, str] | None) -> KmClass:
        self.use_type_table(f)
        flags = first_int(f, 1, 6)
        fq = first_int(f, 3)
        c = KmClass(
            self.s(fq), _pick(CLASS_KINDS, (flags >> 6) & 7), _pick(VISIBILITIES, (flags >> 1) & 7),
            _pick(MODALITIES, (flags >> 4) & 3), inner=bool(flags & 1 << 9), data=bool(flags & 1 << 10),
            external=bool(flags & 1 << 11), expect=bool(flags & 1 << 12), value=bool(flags & 1 << 13),
            fun=bool(flags & 1 << 14), local=self.names.is_local(fq))
        enclosing = _Scope()
        enclosing.names.update(outer_ids or {})
        scope = _Scope(enclosing)
        c.type_parameters = self.type_parameters(f, 5, scope)
        c.supertypes = self.types_of(f, 6, 2, scope)
        companion = first_int(f, 4)
        c.companion = self.s(companion) if companion is not None else None
        c.nested = [self.s(i) for i in repeated_ints(f, 7)]
        c.enum_entries = [self.s(first_int(parse_message(raw), 1)) for raw in repeated_bytes(f, 13)]
        c.sealed_subclasses = [self.s(i) for i in repeated_ints(f, 16)]
        c.constructors = [self.constructor(raw, scope) for raw in repeated_bytes(f, 8)]
        if c.kind == "annotation class":
            for k in c.constructors:
                k.jvm = None  # an annotation interface has no constructor on the JVM
        c.functions = [self.function(raw, scope) for raw in repeated_bytes(f, 9)]
        c.properties = [self.property(raw, scope) for raw in repeated_bytes(f, 10)]
        c.type_aliases = [self.type_alias(raw, scope) for raw in repeated_bytes(f, 11)]
        under = first_int(f, 17)
        c.underlying_property = self.s(under) if under is not None else None
        c.underlying_type = self.type_of(f, 18, 19, scope, 0)
        module = first_int(f, 101)
        c.module = self.s(module) if module is not None else None
        c.type_parameter_ids = {**enclosing.names, **scope.names}
        return c

    def package(self, f: dict[int, list]) -> KmPackage:
        self.use_type_table(f)
        scope = _Scope()
        p = KmPackage(
            [self.function(raw, scope) for raw in repeated_bytes(f, 3)],
            [self.property(raw, scope) for raw in repeated_bytes(f, 4)],
            [self.type_alias(raw, scope) for raw in repeated_bytes(f, 5)])
        module = first_int(f, 101)
        p.module = self.s(module) if module is not None else None
        return p


def _accessor(flags: int) -> KmAccessor:
    return KmAccessor(_pick(VISIBILITIES, (flags >> 1) & 7), _pick(MODALITIES, (flags >> 4) & 3),
                      not_default=bool(flags & 1 << 6), external=bool(flags & 1 << 7), inline=bool(flags & 1 << 8))


def _version(raw: dict) -> tuple[int, ...]:
    mv = raw.get("mv")
    if mv is None:
        return (1, 0, 0)
    if not isinstance(mv, list) or not mv or not all(isinstance(x, int) and not isinstance(x, bool) for x in mv):
        raise MetadataError("KOTLIN_METADATA_VERSION", f"mv is not a version: {json.dumps(mv)[:40]}")
    version = tuple(mv)
    if version[0] not in SUPPORTED_MAJOR:
        raise MetadataError("KOTLIN_METADATA_VERSION",
                            f"metadata version {'.'.join(map(str, version))} is newer than jdx reads (1.x, 2.x)")
    return version


def decode_metadata(raw: dict | str, outer: KotlinMetadata | None = None, lambdas: bool = True) -> KotlinMetadata:
    """Decodes the raw annotation values (a dict, or the JSON the extractor keeps). Raises MetadataError
    with a named code for anything unreadable; never another exception. `outer`, the decoded enclosing
    class, names the type parameters an inner class uses from it (the ids continue the outer's); `lambdas`
    False leaves a synthetic class's function undecoded (the shards do not list lambdas)."""
    try:
        if isinstance(raw, str):
            raw = json.loads(raw)
        if not isinstance(raw, dict):
            raise corrupt("the metadata values are not an object")
        outer_ids = outer.klass.type_parameter_ids if outer is not None and outer.klass is not None else None
        return _decode(raw, outer_ids, lambdas)
    except MetadataError:
        raise
    except (ValueError, TypeError, KeyError, IndexError, OverflowError, RecursionError, UnicodeError) as e:
        raise corrupt(f"{type(e).__name__}: {e}") from None


def _decode(raw: dict, outer_ids: dict[int, str] | None, lambdas: bool = True) -> KotlinMetadata:
    version = _version(raw)
    k = raw.get("k", 1)
    if k not in KINDS:
        raise MetadataError("KOTLIN_METADATA_KIND", f"unknown metadata kind k={k}")
    xi = raw.get("xi", 0)
    pn = raw.get("pn")
    meta = KotlinMetadata(KINDS[k], version, xi if isinstance(xi, int) else 0, pn if isinstance(pn, str) else None)
    d1, d2 = raw.get("d1") or [], raw.get("d2") or []
    if k == 4:
        meta.facade_parts = [s for s in d1 if isinstance(s, str)]
        return meta
    if k == 5 and isinstance(raw.get("xs"), str):
        meta.facade = raw["xs"]
    if not d1 or (k == 3 and not lambdas):
        if k in (1, 2, 5):
            raise corrupt(f"{KINDS[k]} metadata without d1")
        return meta
    names, data, start = read_payload(d1, d2)
    fields = parse_message(data, start)
    reader = _Reader(names)
    if k == 1:
        meta.klass = reader.klass(fields, outer_ids)
    elif k in (2, 5):
        meta.package = reader.package(fields)
    else:
        meta.lambda_function = reader.function(data[start:], _Scope())
    return meta
