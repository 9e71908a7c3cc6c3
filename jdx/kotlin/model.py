"""Kotlin declarations as `@Metadata` describes them (spec §12.1): the decoder's output, the renderer's input.

Class names keep the metadata's form: `/` between packages, `.` between nested classes
(`kotlin/collections/Map.Entry`); a local or anonymous class name starts with `.`.
JVM signatures are `(name, descriptor)` pairs, exactly as the class file declares the member.
"""

from __future__ import annotations

from dataclasses import dataclass, field

VISIBILITIES = ("internal", "private", "protected", "public", "private", "local")  # PRIVATE_TO_THIS prints private
MODALITIES = ("final", "open", "abstract", "sealed")
CLASS_KINDS = ("class", "interface", "enum class", "enum entry", "annotation class", "object", "companion object")
MEMBER_KINDS = ("declaration", "fake override", "delegation", "synthesized")
VARIANCES = ("in", "out", "")
PROJECTIONS = ("in", "out", "", "*")


@dataclass(slots=True)
class KmType:
    classifier: str  # a class name, a type parameter name, or a type alias name
    kind: str = "class"  # class | typeparam | alias
    arguments: list[tuple[str, KmType | None]] = field(default_factory=list)  # (projection, type); '*' has None
    nullable: bool = False
    suspend: bool = False  # a suspend function type
    definitely_non_null: bool = False  # T & Any
    extension_function: bool = False  # @ExtensionFunctionType: A.(B) -> C
    outer: KmType | None = None
    abbreviation: KmType | None = None  # the type alias as written, when the type is an expansion
    flexible_upper: KmType | None = None  # a platform type (T!)
    raw: bool = False
    # @ParameterName of a function type's parameter: `(offset: Int) -> Unit`; not part of the type's identity
    parameter_name: str | None = field(default=None, compare=False)
    shown: dict = field(default_factory=dict, compare=False, repr=False)  # rendered text by mode (render.py)


@dataclass(slots=True)
class KmTypeParameter:
    id: int
    name: str
    variance: str = ""
    reified: bool = False
    upper_bounds: list[KmType] = field(default_factory=list)


@dataclass(slots=True)
class KmValueParameter:
    name: str
    type: KmType | None
    vararg_element: KmType | None = None
    declares_default: bool = False
    crossinline: bool = False
    noinline: bool = False


@dataclass(slots=True)
class KmFunction:
    name: str
    visibility: str = "public"
    modality: str = "final"
    member_kind: str = "declaration"
    operator: bool = False
    infix: bool = False
    inline: bool = False
    tailrec: bool = False
    external: bool = False
    suspend: bool = False
    expect: bool = False
    type_parameters: list[KmTypeParameter] = field(default_factory=list)
    receiver: KmType | None = None
    context_receivers: list[KmType] = field(default_factory=list)
    parameters: list[KmValueParameter] = field(default_factory=list)
    return_type: KmType | None = None
    jvm: tuple[str, str] | None = None  # (name, descriptor) of the JVM method
    lambda_origin: str | None = None


@dataclass(slots=True)
class KmAccessor:
    visibility: str
    modality: str
    not_default: bool = False
    external: bool = False
    inline: bool = False


@dataclass(slots=True)
class KmProperty:
    name: str
    visibility: str = "public"
    modality: str = "final"
    member_kind: str = "declaration"
    var: bool = False
    const: bool = False
    lateinit: bool = False
    has_constant: bool = False
    external: bool = False
    delegated: bool = False
    expect: bool = False
    type_parameters: list[KmTypeParameter] = field(default_factory=list)
    receiver: KmType | None = None
    context_receivers: list[KmType] = field(default_factory=list)
    return_type: KmType | None = None
    getter: KmAccessor | None = None
    setter: KmAccessor | None = None
    setter_parameter: str | None = None
    jvm_field: tuple[str, str] | None = None
    jvm_getter: tuple[str, str] | None = None
    jvm_setter: tuple[str, str] | None = None
    jvm_synthetic: tuple[str, str] | None = None  # carries the property's annotations
    jvm_delegate: tuple[str, str] | None = None
    moved_from_interface_companion: bool = False


@dataclass(slots=True)
class KmConstructor:
    visibility: str = "public"
    secondary: bool = False
    parameters: list[KmValueParameter] = field(default_factory=list)
    jvm: tuple[str, str] | None = None


@dataclass(slots=True)
class KmTypeAlias:
    name: str
    visibility: str = "public"
    type_parameters: list[KmTypeParameter] = field(default_factory=list)
    underlying: KmType | None = None
    expanded: KmType | None = None


@dataclass(slots=True)
class KmClass:
    name: str
    kind: str = "class"
    visibility: str = "public"
    modality: str = "final"
    inner: bool = False
    data: bool = False
    external: bool = False
    expect: bool = False
    value: bool = False
    fun: bool = False
    local: bool = False  # a local class or anonymous object
    type_parameters: list[KmTypeParameter] = field(default_factory=list)
    supertypes: list[KmType] = field(default_factory=list)
    companion: str | None = None
    nested: list[str] = field(default_factory=list)
    enum_entries: list[str] = field(default_factory=list)
    sealed_subclasses: list[str] = field(default_factory=list)
    constructors: list[KmConstructor] = field(default_factory=list)
    functions: list[KmFunction] = field(default_factory=list)
    properties: list[KmProperty] = field(default_factory=list)
    type_aliases: list[KmTypeAlias] = field(default_factory=list)
    underlying_property: str | None = None
    underlying_type: KmType | None = None
    module: str | None = None
    type_parameter_ids: dict[int, str] = field(default_factory=dict)  # own and outer classes', for inner classes


@dataclass(slots=True)
class KmPackage:
    functions: list[KmFunction] = field(default_factory=list)
    properties: list[KmProperty] = field(default_factory=list)
    type_aliases: list[KmTypeAlias] = field(default_factory=list)
    module: str | None = None


@dataclass(slots=True)
class KotlinMetadata:
    """One class file's `@Metadata`, decoded; `kind` follows the annotation's `k`."""

    kind: str  # class | file facade | synthetic class | multi-file class facade | multi-file class part
    version: tuple[int, ...]
    extra: int = 0  # xi: bit 1 pre-release, bit 2 scripts, bit 4 strict semantics, ...
    package_name: str | None = None  # pn: a @JvmPackageName package
    klass: KmClass | None = None
    package: KmPackage | None = None
    lambda_function: KmFunction | None = None  # a synthetic class that is a lambda
    facade_parts: list[str] = field(default_factory=list)  # k=4: the part classes (JVM internal names)
    facade: str | None = None  # k=5: the facade class (JVM internal name)
