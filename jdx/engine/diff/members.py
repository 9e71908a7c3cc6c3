"""Member-level rules of spec §7.7: one member present on both sides, judged by JLS §13.4 (binary compatibility)."""

from __future__ import annotations

from dataclasses import replace
from typing import NamedTuple

from jdx.engine.descriptors import render_constant, takes_outer_instance
from jdx.engine.diff.findings import DEPRECATION_ERROR, ERROR_WHY, Finding, kotlin_rerated
from jdx.engine.diff.forms import (generic_form, generic_key, generic_key_beside_return, generic_key_lined_up,
                                   java_type, member_form, member_id, member_ref, params_widened,
                                   raw_params_wildcarded, signature_arity, type_ref)
from jdx.engine.diff.surface import (
    ABSTRACT,
    DEPRECATED_DESC,
    ENUM,
    FINAL,
    KOTLIN_DEPRECATED_DESC,
    LEVELS,
    NATIVE,
    OBJECT,
    STATIC,
    SYNCHRONIZED,
    VARARGS_OR_TRANSIENT,
    VOLATILE_OR_BRIDGE,
    Member,
    Surface,
    TypeInfo,
    level_text,
)
from jdx.engine.diff.rules import INFO
from jdx.engine.diff.throws import exceptions
from jdx.graph_schema.annotation_text import split_elements

# java.lang.Object's members (JLS §4.3.2): the root every class inherits, whether or not a side holds it
OBJECT_MEMBERS = {
    "equals(Ljava/lang/Object;)Z": "public", "hashCode()I": "public", "toString()Ljava/lang/String;": "public",
    "getClass()Ljava/lang/Class;": "public", "notify()V": "public", "notifyAll()V": "public", "wait()V": "public",
    "wait(J)V": "public", "wait(JI)V": "public", "clone()Ljava/lang/Object;": "protected", "finalize()V": "protected",
}
# kotlinc's own annotations (@SourceDebugExtension's SMAP, @SpreadBuiltIns, ...): bookkeeping of the compiler that
# changes with every build and that no caller compiles or links against
KOTLINC_BOOKKEEPING = "Lkotlin/jvm/internal/"


def kind_of(m: Member) -> str:
    return "field" if m.is_field else ("constructor" if m.name == "<init>" else "method")


def annotation_name(desc: str) -> str:
    return "@" + type_ref(desc[1:-1]) if desc.startswith("L") and desc.endswith(";") else desc


def annotation_elements(text: str) -> tuple[str, dict[str, str]] | None:
    """`@x.Tag(a=1, b={"p, q", 'c'})` as (`@x.Tag`, {element: value text}); None when the text does not read so."""
    head, paren, rest = text.partition("(")
    if not paren or not rest.endswith(")"):
        return (text, {}) if not paren else None
    body = rest[:-1]
    split = split_elements(body)
    if split is None:
        return None
    parts = [p.strip() for p in split] if body.strip() else []
    elements = {}
    for part in parts:
        name, eq, value = part.partition("=")
        if not eq or not name.strip().isidentifier():
            return None
        elements[name.strip()] = value.strip()
    return head, elements


def _values_changed(old: str, new: str) -> str:
    """An annotation whose element values changed: only the elements that differ (an annotation with a long text,
    a CLI framework's command description, would print whole twice), or both texts when they do not read."""
    o, n = annotation_elements(old), annotation_elements(new)
    if o is None or n is None or o[0] != n[0] or len(old) + len(new) <= 120:
        return f"{old} -> {new}"
    changes = []
    for name in sorted(set(o[1]) | set(n[1])):
        was, now = o[1].get(name), n[1].get(name)
        if was == now:
            continue
        changes.append(f"{name}={now} added" if was is None else f"{name}={was} removed" if now is None
                       else f"{name}={was} -> {now}")
    return f"{o[0]}: {'; '.join(changes)}"


def annotation_findings(old: dict[str, str], new: dict[str, str], make, where: str = "") -> list[Finding]:
    """ANNOTATION_ADDED/REMOVED/VALUES_CHANGED; `@Deprecated` appearing or going is DEPRECATED_* instead."""
    def shown(text: str, desc: str) -> str:  # the extractor's text is the whole annotation, `@x.Tag(v=1)`
        return where + (text if text.startswith("@") else annotation_name(desc) + text)

    out = []
    for desc in sorted(set(old) | set(new)):
        if desc.startswith(KOTLINC_BOOKKEEPING):
            continue
        if desc in old and desc in new:
            if old[desc] != new[desc]:
                was, now = shown(old[desc], desc), shown(new[desc], desc)
                found = make("ANNOTATION_VALUES_CHANGED", _values_changed(was, now))
                raised = desc == KOTLIN_DEPRECATED_DESC and _deprecation_level(was) in (None, WARNING_LEVEL) \
                    and _deprecation_level(now) == DEPRECATION_ERROR
                out.append(kotlin_rerated(found, ERROR_WHY) if raised else found)
        elif desc in (DEPRECATED_DESC, KOTLIN_DEPRECATED_DESC):
            continue  # DEPRECATED_ADDED/REMOVED's (with @kotlin.Deprecated's message, see `deprecation`)
        elif desc in new:
            out.append(make("ANNOTATION_ADDED", shown(new[desc], desc)))
        else:
            out.append(make("ANNOTATION_REMOVED", shown(old[desc], desc)))
    return out


def deprecation(old: TypeInfo | Member, new: TypeInfo | Member, make) -> Finding:
    """DEPRECATED_ADDED/REMOVED; its detail is the @kotlin.Deprecated that came or went (its message, its level),
    which is then no ANNOTATION_ADDED/REMOVED of its own: one deprecation, one finding."""
    side = new if new.deprecated else old
    text = side.annotations.get(KOTLIN_DEPRECATED_DESC)
    other = (old if side is new else new).annotations
    detail = "" if text is None or KOTLIN_DEPRECATED_DESC in other else \
        text if text.startswith("@") else annotation_name(KOTLIN_DEPRECATED_DESC) + text
    found = make("DEPRECATED_ADDED" if new.deprecated else "DEPRECATED_REMOVED", detail)
    return kotlin_rerated(found, ERROR_WHY) if new.deprecated and detail and \
        _deprecation_level(detail) == DEPRECATION_ERROR else found


WARNING_LEVEL = "kotlin.DeprecationLevel.WARNING"


def _deprecation_level(text: str) -> str | None:
    """The `level` a `@kotlin.Deprecated(...)` text states (None: none, which is WARNING, or it does not read)."""
    parsed = annotation_elements(text)
    return None if parsed is None else parsed[1].get("level")


def compare_member(o: Member, n: Member, old_type: TypeInfo, sides: tuple[Surface, Surface],
                   platform=None) -> list[Finding]:
    """Every rule one member present on both sides can break (a member may carry several findings). `platform`
    looks up a JDK type neither side holds (an added exception's superclasses)."""
    if o == n:
        return []
    forms: list[str] = []

    def make(rule: str, detail: str = "") -> Finding:
        if not forms:  # printed only for members that have a finding
            forms.extend((member_ref(o), member_form(o), member_form(n)))
        return Finding(rule, forms[0], kind_of(o), forms[1], forms[2], detail, member_id(o))

    out: list[Finding] = []
    if not o.is_field and o.returns != n.returns:
        bridge = old_descriptor_bridge(o, n, sides[1])
        if bridge is not None:
            out.append(_narrowed_behind_bridge(o, n, bridge, old_type, sides[0], make))
        else:
            out.append(make("RETURN_TYPE_CHANGED", f"{java_type(o.returns)} -> {java_type(n.returns)}"))
    if LEVELS[n.level] < LEVELS[o.level]:
        out.append(make("MEMBER_VISIBILITY_NARROWED", f"{level_text(o.level)} -> {level_text(n.level)}"))
    elif LEVELS[n.level] > LEVELS[o.level] and overridable_with_access(o, old_type, sides[0]):
        # JLS §8.4.8.3: an override (a static method's hiding) must not be less visible than what it overrides
        how = "hides" if o.access & STATIC else "overrides"
        was, now = level_text(o.level), level_text(n.level)
        out.append(make("METHOD_VISIBILITY_WIDENED",
                        f"{was} -> {now}: a subclass outside the artifact that {how} it as {was} still links and "
                        f"runs; recompiled, it no longer compiles (weaker access than {now})"))
    if o.access & STATIC and not n.access & STATIC:
        out.append(make("STATIC_TO_INSTANCE"))
    elif n.access & STATIC and not o.access & STATIC:
        out.append(make("INSTANCE_TO_STATIC"))
    if n.access & FINAL and not o.access & FINAL and not o.is_field and o.access & STATIC and n.access & STATIC \
            and subclassable_outside(old_type, sides[0]):
        # JLS §13.4.17: a hiding subclass's own static method still runs; only recompiling it fails
        out.append(make("STATIC_METHOD_MADE_FINAL", "a subclass's compiled static method of this signature still "
                                                    "links and runs; recompiled, it no longer compiles (cannot hide)"))
    elif n.access & FINAL and not o.access & FINAL and overridable(o, old_type, sides[0]):
        out.append(make("MEMBER_MADE_FINAL", "compiled writes fail (IllegalAccessError)" if o.is_field else
                        "a subclass outside the artifact overriding it fails to load (IncompatibleClassChangeError)"))
    elif o.access & FINAL and not n.access & FINAL and _final_removal_seen(o, n, old_type, sides[1]):
        out.append(make("FINAL_REMOVED"))
    if n.access & ABSTRACT and not o.access & ABSTRACT:
        out.append(make("ABSTRACT_ADDED"))
    elif o.access & ABSTRACT and not n.access & ABSTRACT:
        out.append(make("ABSTRACT_REMOVED"))
    kind = "field" if o.is_field else "method"
    # no source outside the artifact calls an anonymous or local class's constructor (JLS §15.9.5, §14.3)
    unnamed_constructor = o.name == "<init>" and old_type.anonymous_or_local
    if o.signature != n.signature and not unnamed_constructor and _generic_changed(o, n, kind, sides):
        shown = "constructor" if o.name == "<init>" else kind
        detail = f"{generic_form(o.signature, shown)} -> {generic_form(n.signature, shown)}"
        out.append(_generic_changed_finding(o, n, old_type, make, sides, detail))
    out += exceptions(o, n, old_type, make, sides, platform)
    out += _flags(o, n, make)
    if o.is_field and o.constant != n.constant:
        out.append(make("FIELD_CONSTANT_VALUE_CHANGED", f"{_constant(o)} -> {_constant(n)}" + _inlined(o, n)))
    if o.default is not None and n.default is None and not o.is_field:
        out.append(make("ANNOTATION_DEFAULT_REMOVED", f"{o.default} -> (no default): an annotation that omits it "
                        "throws IncompleteAnnotationException when read, and no longer compiles"))
    elif o.default != n.default:
        out.append(make("ANNOTATION_DEFAULT_CHANGED", f"{_value(o.default, 'a default')} -> "
                                                      f"{_value(n.default, 'a default')}"))
    # the outer instance on both sides (a class made static names it in source: a change worth saying)
    new_type = sides[1].types.get(n.owner) if outer_instance(o, old_type) else None
    hidden = 1 if new_type is not None and outer_instance(n, new_type) else 0
    old_names, new_names = _source_names(o.param_names, hidden), _source_names(n.param_names, hidden)
    if not o.is_field and old_names and old_names != new_names and \
            _plain_names(old_names) != _plain_names(new_names):
        if new_names is None:
            out.append(make("PARAMETER_NAMES_LOST", f"({old_names}) -> (no names in the class file)"))
        else:
            out.append(make("PARAMETER_NAME_CHANGED", f"({old_names}) -> ({new_names})"))
    if o.annotations != n.annotations:
        out += annotation_findings(o.annotations, n.annotations, make)
    if o.param_annotations != n.param_annotations:
        out += _param_annotation_findings(o, n, make, _source_names(n.param_names or o.param_names, hidden))
    if n.deprecated != o.deprecated:
        out.append(deprecation(o, n, make))
    return out


def _final_removal_seen(o: Member, n: Member, old_type: TypeInfo, new: Surface) -> bool:
    """Whether a member's `final` going makes a difference to code outside the artifact: the mirror of what makes
    it coming one (MEMBER_MADE_FINAL, STATIC_METHOD_MADE_FINAL), judged on the new side, where the freedom is: a
    field always; a method only when a class outside the artifact can now override it (hide it, static on both
    sides). A method of a final class (httpclient 4.5.13 -> 4.5.14's `HttpRoute`), of a sealed one or of one
    without a public or protected constructor stays as unoverridable as it was: no finding, as the reverse diff
    has none. A class no longer final is its own FINAL_REMOVED, and its methods that lost `final` are theirs."""
    new_type = new.types.get(old_type.name, old_type)  # (one name on both sides: the compared type)
    if n.access & STATIC and o.access & STATIC and not n.is_field:
        return subclassable_outside(new_type, new)
    return overridable(n, new_type, new)


def overridable(m: Member, owner: TypeInfo, side: Surface) -> bool:
    """Whether code outside the artifact could override method `m` (or write field `m`): a field always; a method
    not static, private or a constructor, of a type outside code can subclass (`subclassable_outside`)."""
    if m.is_field:
        return True
    if m.access & STATIC or m.level == "private" or m.name == "<init>":
        return False
    return subclassable_outside(owner, side)


def overridable_with_access(m: Member, owner: TypeInfo, side: Surface) -> bool:
    """Whether a subclass outside the artifact could override method `m`, or hide it when static, with `m`'s own
    access (so widening `m` leaves that subclass weaker than it): a method, not a constructor, not private, final
    or synthetic (no source overrides a bridge), of a type outside code can subclass (`subclassable_outside`)."""
    if m.is_field or m.name in ("<init>", "<clinit>") or m.level == "private" or m.access & FINAL or m.synthetic:
        return False
    return subclassable_outside(owner, side)


def subclassable_outside(t: TypeInfo, side: Surface) -> bool:
    """Whether a class outside the artifact can extend (implement) `t` as this side declares it: not final, no enum,
    not sealed, a class with a public or protected constructor. A type none of these settle (an interface, a class
    of the side's ancestors the walk does not hold) can."""
    if t.access & FINAL or t.kind in ("enum", "annotation", "record") or t.name in side.sealed:
        return False
    if t.kind == "class":
        return any(m.name == "<init>" and LEVELS[m.level] >= LEVELS["protected"] for m in t.members.values())
    return True


def old_descriptor_bridge(o: Member, n: Member, new: Surface) -> Member | None:
    """The synthetic method of `n`'s own type (not a supertype's) with exactly `o`'s descriptor, static as `o` and
    at least as visible (javac's bridge for a covariant return), or None: what still links `o`'s compiled callers."""
    if n.declared_in:
        return None
    holder = new.types.get(n.owner)
    bridge = holder.members.get(o.name + o.descriptor) if holder is not None else None
    if bridge is None or not bridge.synthetic or bridge.descriptor != o.descriptor or bridge.owner != n.owner:
        return None
    if (bridge.access & STATIC) != (o.access & STATIC) or LEVELS[bridge.level] < LEVELS[o.level]:
        return None
    return bridge


def _narrowed_behind_bridge(o: Member, n: Member, bridge: Member, owner: TypeInfo, old: Surface, make) -> Finding:
    """MEMBER_MADE_SYNTHETIC for a return type narrowed behind a bridge: binary-compatible, but not for overriders;
    rated info when no class outside the artifact could override (or hide) the old method (final, private, or of a
    class such a subclass cannot extend: `overridable_with_access`), where no source or compiled client breaks
    (commons-beanutils 1.11's `ResultSetIterator#next()`, whose class has package-private constructors only)."""
    what = "bridge" if bridge.access & VOLATILE_OR_BRIDGE else "method"
    detail = (f"return type narrowed from {java_type(o.returns)} to {java_type(n.returns)}: a synthetic {what} keeps "
              "the old descriptor, so compiled callers still link")
    if overridable_with_access(o, owner, old):
        return make("MEMBER_MADE_SYNTHETIC", f"{detail}; a subclass overriding the old signature no longer compiles, "
                                             "and its compiled override is bypassed by callers of the new descriptor")
    why = "it is final" if o.access & FINAL else "it is private" if o.level == "private" else \
        "no class outside the artifact can extend its class"
    return replace(make("MEMBER_MADE_SYNTHETIC", f"{detail}; no subclass outside the artifact can override it "
                                                 f"({why}): no client breaks (rated info, not suspicious)"), rated=INFO)


def _receiver_name(name: str) -> bool:
    """A name kotlinc gives the receiver or `this` it passes as a parameter (DefaultImpls, static forwarders,
    extensions): versions of kotlinc spell it differently, and no caller can name it."""
    return name in ("this", "$this", "$receiver") or name.startswith("$this$")


def _plain_names(names: str | None) -> list[str] | None:
    return None if names is None else ["$this" if _receiver_name(p) else p for p in names.split(",")]


def _generic_key(m: Member, kind: str, side: Surface) -> str | None:
    owner = side.types.get(m.owner)
    return generic_key(m.signature, kind, owner.signature if owner is not None else None)


# a method whose only generic change makes raw parameter types their unbounded-wildcard form breaks no source
RAW_TO_WILDCARD = ("; only raw parameter types made their unbounded-wildcard form: every call and override that "
                   "compiled against the old version still compiles (rated info, not suspicious)")


# a member nothing outside the artifact can override (or hide) whose generic change only widens parameter types
WIDENED = ("; only parameter types widened (each new one contains the old), on a member no class outside the "
           "artifact can override or hide ({why}): every call that compiled against the old version still compiles "
           "(rated info, not suspicious)")


def _generic_changed_finding(o: Member, n: Member, old_type: TypeInfo, make, sides: tuple[Surface, Surface],
                             detail: str) -> Finding:
    """GENERIC_SIGNATURE_CHANGED, rated info when the only change is raw parameter types made `?`-parameterized
    (commons-beanutils 1.11's `setDynaBeanClass(Class)` -> `(Class<?>)`: `forms.raw_params_wildcarded`), or
    parameter types widened (`forms.params_widened`) on a member no class outside the artifact can override or hide
    (a constructor, a final or private method, one of a class no outside code can extend: commons-collections4
    4.5's `IteratorUtils#chainedIterator(Collection<? extends Iterator<? extends E>>)`); an overridable one stays
    suspicious, as an override of the old form no longer compiles (name clash)."""
    found = make("GENERIC_SIGNATURE_CHANGED", detail)
    if o.is_field:
        return found
    owners = [t and t.signature for t in (sides[0].types.get(o.owner), sides[1].types.get(n.owner))]
    old, new = (o.signature, o.descriptor, owners[0]), (n.signature, n.descriptor, owners[1])
    if raw_params_wildcarded(old, new):
        return replace(found, detail=detail + RAW_TO_WILDCARD, rated=INFO)
    if params_widened(old, new) and not overridable_with_access(o, old_type, sides[0]):
        return replace(found, detail=detail + WIDENED.format(why=_not_overridable(o, old_type)), rated=INFO)
    return found


def _not_overridable(m: Member, owner: TypeInfo) -> str:
    """Why no class outside the artifact can override or hide method `m` (`overridable_with_access` said so)."""
    if m.name == "<init>":
        return "a constructor"
    if m.access & FINAL or m.level == "private":
        return "it is final" if m.access & FINAL else "it is private"
    return "no class outside the artifact can extend its class"


def _generic_changed(o: Member, n: Member, kind: str, sides: tuple[Surface, Surface]) -> bool:
    """Whether the generic signature changed beyond what an erased finding already says: a changed return type
    is RETURN_TYPE_CHANGED's (`Class<? extends A>` -> `Class<? extends A>[]` is one change, not two), so only the
    rest of the signature is compared then. Two versions whose Signatures list different numbers of parameters (one
    leaves out a parameter no source writes, an inner class's outer instance, or there is none) are compared on the
    parameters both line up with, the last ones: `(none)` -> `(Ljava/lang/String;)V` over `(LOuter;Ljava/lang/String;)V`
    is no change."""
    last = None
    if kind == "method":
        arities = signature_arity(o.signature, o.descriptor), signature_arity(n.signature, n.descriptor)
        last = min(arities) if arities[0] != arities[1] else None
    if kind == "field" or (o.returns == n.returns and last is None):
        return _generic_key(o, kind, sides[0]) != _generic_key(n, kind, sides[1])
    owners = [t and t.signature for t in (sides[0].types.get(o.owner), sides[1].types.get(n.owner))]
    if o.returns == n.returns:
        return generic_key_lined_up(o.signature, o.descriptor, owners[0], last) != \
            generic_key_lined_up(n.signature, n.descriptor, owners[1], last)
    return generic_key_beside_return(o.signature, o.descriptor, owners[0], last) != \
        generic_key_beside_return(n.signature, n.descriptor, owners[1], last)


def _param_annotation_findings(o: Member, n: Member, make, names: str | None) -> list[Finding]:
    """Per parameter whose annotations changed; a parameter is named by its index among the source's parameters
    (RuntimeVisibleParameterAnnotations counts those: javac leaves an inner class's outer instance out) and by
    its name where the class file has one."""
    named = names.split(",") if names else []
    out: list[Finding] = []
    for index in sorted({p for p, _ in o.param_annotations} | {p for p, _ in n.param_annotations}):
        name = f" ({named[index]})" if index < len(named) and named[index] else ""
        out += annotation_findings({d: t for (p, d), t in o.param_annotations.items() if p == index},
                                   {d: t for (p, d), t in n.param_annotations.items() if p == index},
                                   make, f"parameter {index}{name}: ")
    return out


def outer_instance(m: Member, t: TypeInfo) -> bool:
    """Whether `m` is a constructor of inner member class `t`, taking the outer instance as a hidden first parameter
    (`descriptors.takes_outer_instance`). Its name (`this$0`, or none) is no source's."""
    return m.name == "<init>" and takes_outer_instance(t.outer, t.anonymous_or_local, t.access, t.kind) \
        and m.descriptor.startswith(f"(L{t.outer};")


def _source_names(names: str | None, hidden: int) -> str | None:
    """Comma-separated parameter names without the first `hidden` (an inner class's outer instance)."""
    return names if names is None or not hidden else ",".join(names.split(",")[hidden:])


def _flags(o: Member, n: Member, make) -> list[Finding]:
    out = []
    flipped = o.access ^ n.access
    if o.is_field:
        if flipped & VARARGS_OR_TRANSIENT:
            out.append(make("TRANSIENT_CHANGED", "transient added" if n.access & VARARGS_OR_TRANSIENT
                            else "transient removed"))
        return out
    if flipped & VARARGS_OR_TRANSIENT:
        out.append(make("VARARGS_CHANGED", "varargs added" if n.access & VARARGS_OR_TRANSIENT else "varargs removed"))
    if flipped & NATIVE:
        out.append(make("NATIVE_ADDED" if n.access & NATIVE else "NATIVE_REMOVED"))
    if flipped & SYNCHRONIZED:
        out.append(make("SYNCHRONIZED_ADDED" if n.access & SYNCHRONIZED else "SYNCHRONIZED_REMOVED"))
    return out


class Inherited(NamedTuple):
    """Where a member gone from its type is still found above it on one side (`find_inherited`)."""
    holder: str | None  # the nearest supertype that implements it (a caller's invokevirtual still links and runs)
    abstract: str | None  # else the nearest one that declares it abstract only (links; a subclass must implement it)
    missing: list[str]  # else the supertypes neither the side nor the platform holds that could still hand it down


def find_inherited(surface: Surface, type_name: str, m: Member, platform=None) -> Inherited:
    """Where `m` is still inherited by `type_name` on this side. Resolution looks through every superclass and
    superinterface (JVMS §5.4.3.3-4); java.lang.Object's members (JLS §4.3.2) are always there. `platform` looks up
    the supertypes the side lacks (the running JDK's `java.*`), asked only when the side holds no implementation:
    a JDK type extends JDK types only, so the walk ends in the platform."""
    ancestors, missing = surface.ancestors(type_name)
    missing = could_supply(surface, type_name, missing, m)
    abstract = None
    for s in ancestors:
        verdict = _supplied_by(surface.types.get(s), s, m)
        if verdict is True:
            return Inherited(s, None, [])
        if verdict is False and abstract is None:
            abstract = s
    if not missing or platform is None:
        return Inherited(None, abstract, missing)
    unknown: list[str] = []
    seen = set(ancestors)
    queue = list(missing)
    while queue:
        s = queue.pop(0)
        if s in seen:
            continue
        seen.add(s)
        t = None if s == OBJECT else platform(s)
        if t is None and s != OBJECT:
            unknown.append(s)
            continue
        verdict = _supplied_by(t, s, m)
        if verdict is True:
            return Inherited(s, None, [])
        if verdict is False and abstract is None:
            abstract = s
        if t is not None:
            queue.extend(t.supertypes)
    return Inherited(None, abstract, [s for s in unknown if s not in MEMBERLESS_INTERFACES])


def _supplied_by(t: TypeInfo | None, name: str, m: Member) -> bool | None:
    """Whether supertype `name` (`t`, None for java.lang.Object when unheld) hands `m` down: True implemented, False
    declared abstract only, None not at all."""
    if name == OBJECT and (t is None or not t.members):
        level = None if m.is_field else OBJECT_MEMBERS.get(m.name + m.descriptor)
        return True if level and LEVELS[level] >= LEVELS[m.level] and not m.access & STATIC else None
    found = [c for c in t.members.values() if supplies(c, m)] if t is not None else []
    if t is not None and t.kind in ("interface", "annotation"):
        # a static interface method is never inherited (JVMS §5.4.3.3-4: resolution skips static superinterface
        # methods), so `I.s()` or `A.s()` compiled against a type that declared it does not find it there
        found = [c for c in found if c.is_field or not c.access & STATIC]
    if not found:
        return None
    return any(not c.access & ABSTRACT for c in found)


def supplies(cand: Member, m: Member) -> bool:
    """Whether a supertype's member `cand` lets a caller compiled against `m` still link. A synthetic one does too:
    resolution and selection (JVMS §5.4.3.3, §5.4.6) go by name and descriptor, never ACC_SYNTHETIC, so a bridge
    javac wrote in a superclass (protobuf 4.32's `AbstractParser#parseFrom([B)Object`) implements what a removed
    bridge of the same descriptor did."""
    return cand.name == m.name and cand.descriptor == m.descriptor and cand.is_field == m.is_field \
        and LEVELS[cand.level] >= LEVELS[m.level] \
        and (cand.access & STATIC) == (m.access & STATIC)


# Java SE interfaces that declare no member in any release: a removed member cannot be inherited from them
MEMBERLESS_INTERFACES = frozenset({"java/io/Serializable", "java/lang/Cloneable", "java/util/RandomAccess",
                                   "java/util/EventListener", "java/rmi/Remote"})


def could_supply(surface: Surface, type_name: str, missing: list[str], m: Member) -> list[str]:
    """The supertypes of `missing` (those the side does not hold) that could still hand `m` to `type_name`'s
    callers. A missing class always could; a missing interface only a public instance method (a default method)
    or a public field (a constant), never a constructor, a static method or anything not public (JLS §9.2,
    §9.3, §9.4); the member-less Java SE interfaces never."""
    as_class = set()
    held = [type_name, *surface.ancestors(type_name)[0]]
    for t in (surface.types.get(h) for h in held):
        if t is not None and t.superclass in missing:
            as_class.add(t.superclass)
    method_from_interface = not m.is_field and m.level == "public" and not m.access & STATIC
    field_from_interface = m.is_field and m.level == "public" and bool(m.access & STATIC)
    return [s for s in missing if s not in MEMBERLESS_INTERFACES
            and (s in as_class or method_from_interface or field_from_interface)]


def is_enum_constant(m: Member, t: TypeInfo) -> bool:
    return m.is_field and t.kind == "enum" and bool(m.access & ENUM)


def inherited_member(surface: Surface, holder: str, m: Member, platform=None) -> Member | None:
    """The member of supertype `holder` (on this side, or the platform's) that hands `m` down, or None."""
    t = surface.types.get(holder) or (platform(holder) if platform is not None and holder != OBJECT else None)
    if t is None:
        return None
    return next((c for c in t.members.values() if supplies(c, m) and not c.access & ABSTRACT), None)


__all__ = ["OBJECT", "Inherited", "compare_member", "find_inherited", "inherited_member", "supplies", "could_supply",
           "annotation_findings", "constant_literal", "deprecation", "kind_of", "is_enum_constant", "overridable",
           "overridable_with_access", "subclassable_outside", "outer_instance"]


def constant_literal(field: Member) -> str:
    """A compile-time constant's value as its Java literal (`"x"`, `true`, `'/'`)."""
    return render_constant(field.descriptor, field.constant)


def _inlined(o: Member, n: Member) -> str:
    """What a changed constant does to compiled clients (JLS §13.4.9): javac copied the old value into them."""
    if o.constant is None or not o.access & FINAL:
        return ": compiled clients read the field at run time and see the new value"
    return (f": clients compiled against the old version inlined {constant_literal(o)} and keep it until "
            "recompiled (JLS §13.4.9)")


def _constant(field: Member) -> str:
    """A field's constant as its Java literal (`true`, `'/'`: the class file holds an int), or its absence."""
    return _value(None if field.constant is None else render_constant(field.descriptor, field.constant), "a constant")


def _value(value, what: str) -> str:
    """A constant or annotation default as the detail prints it; its absence in words, not `None`."""
    return f"(not {what})" if value is None else str(value)
