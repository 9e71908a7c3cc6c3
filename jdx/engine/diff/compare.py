"""The comparison of two sides (spec §7.7): types, then members through three pairing passes and the inheritance
walk. Works on `Surface`s built from extracted tables; never reads an artifact itself."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace

from jdx.engine.diff.extensions import extensions
from jdx.engine.diff.facades import facade_moves
from jdx.engine.diff.findings import KOTLIN_ONLY_NARROWED, KOTLIN_ONLY_WHY, Finding, kotlin_rerated
from jdx.engine.diff.forms import (
    class_generic_key,
    generic_form,
    java_type,
    member_form,
    member_id,
    member_ref,
    param_list,
    parse_method_descriptor,
    type_form,
    type_ref,
)
from jdx.engine.diff.members import (
    OBJECT_MEMBERS,
    annotation_findings,
    compare_member,
    constant_literal,
    deprecation,
    find_inherited,
    kind_of,
    old_descriptor_bridge,
    subclassable_outside,
)
from jdx.engine.diff.surface import (ABSTRACT, FINAL, LEVELS, OBJECT, PRIVATE, PROTECTED, PUBLIC, STATIC,
                                    VOLATILE_OR_BRIDGE, Member, Surface, TypeInfo, level_text)
from jdx.engine.diff.pairing import pair_by_shape
from jdx.engine.diff.references import still_referenced
from jdx.engine.diff.removals import removal
from jdx.engine.diff.rules import INFO
from jdx.engine.diff.supertypes import Platform, supertype_changes
from jdx.engine.diff.type_changes import RECORD_REF, class_version, permits_changes, record_change
from jdx.engine.diff.visibility import ApiView, DiffOptions

def compare(old: Surface, new: Surface, options: DiffOptions, platform: Platform | None = None) -> list[Finding]:
    """Every finding of old -> new, most severe first (then by symbol, rule and detail). `platform` looks up a
    type neither side holds (the running JDK's `java.*` classes): what a new supertype from there brings."""
    views = ApiView(old, options), ApiView(new, options)
    sides = (old, new)
    stable = _Stable(old, new)
    out: list[Finding] = []
    for name in sorted(set(old.types) | set(new.types)):
        o, n = old.types.get(name), new.types.get(name)
        if o is not None and n is not None and stable(name):
            continue  # identical, enclosing classes too: equally API on both sides, nothing to find
        o_api = o is not None and views[0].type_is_api(name)
        n_api = n is not None and views[1].type_is_api(name)
        if o_api and n is None:
            if views[0].empty_facade(o):
                continue  # a Kotlin file facade of internal functions only: never API, so never removed
            out.append(Finding("TYPE_REMOVED", type_ref(name), o.kind, type_form(o), None, id=name))
        elif o_api and not n_api:
            detail = f"{views[0].type_level(o)} -> {views[1].type_level(n)}"
            kotlin_only = False
            if n.anonymous_or_local and LEVELS[n.level] >= LEVELS["protected"]:
                detail = "now an anonymous or local class (no source can name it)"
            elif LEVELS[n.level] >= LEVELS["protected"] and not n.access & 0x1000 and not _kotlin_api(views[1], n):
                # a type that became Kotlin `internal` is narrowed, not removed: its JVM class is still there, so
                # compiled callers link, but no Kotlin source outside the module can name it any more
                detail += KOTLIN_ONLY_NARROWED
                kotlin_only = True
            elif n.outer and n.outer in new.types and LEVELS[n.level] >= LEVELS["protected"]:
                detail = f"enclosing {type_ref(n.outer)} is no longer part of the API"
            elif n.access & 0x1000:
                detail = "now synthetic"
            found = Finding("TYPE_VISIBILITY_NARROWED", type_ref(name), o.kind, type_form(o), type_form(n), detail,
                            name)
            out.append(kotlin_rerated(found, KOTLIN_ONLY_WHY) if kotlin_only else found)
        elif n_api and not o_api:
            if o is None and views[1].empty_facade(n):
                continue
            was = "" if o is None else "was an anonymous or local class" if o.anonymous_or_local else \
                f"was {views[0].type_level(o)}"
            if o is not None and was in ("was public", "was protected") and o.outer in old.types:
                was = f"enclosing {type_ref(o.outer)} was not part of the API"
            out.append(Finding("TYPE_ADDED", type_ref(name), n.kind, None, type_form(n), was, name))
        elif o_api and n_api:
            out += _compare_type(o, n, views, sides, platform)
    out += class_version(old, new)
    return sorted(still_referenced(facade_moves(out, old, new), views[1]), key=Finding.sort_key)


def _kotlin_api(view: ApiView, t: TypeInfo) -> bool:
    """Whether `t`'s own Kotlin visibility (not its enclosing classes') lets it be API."""
    kotlin = view.kotlin.type_access(t.name) if t.kotlin else None
    return kotlin is None or kotlin.is_api


class _Stable:
    """A class is stable when it, its enclosing classes and every supertype either side holds are identical on both
    sides: nothing the comparison reads about it can differ, so it has no finding (most of two versions)."""

    def __init__(self, old: Surface, new: Surface):
        self.old, self.new = old, new
        self.memo: dict[str, bool] = {}

    def __call__(self, name: str) -> bool:
        if name not in self.memo:
            self.memo[name] = True  # a cycle does not make a class unstable by itself
            self.memo[name] = self._stable(name)
        return self.memo[name]

    def _stable(self, name: str) -> bool:
        o, n = self.old.types.get(name), self.new.types.get(name)
        if o is None or n is None:
            return o is None and n is None
        if not o.same_as(n) or (name in self.old.sealed) != (name in self.new.sealed):
            return False
        related = {s for s in o.supertypes if s in self.old.types or s in self.new.types}
        if o.outer and (o.outer in self.old.types or o.outer in self.new.types):
            related.add(o.outer)
        related.update(_facade_parts(o))  # what a Kotlin multi-file facade's members are (their visibility)
        return all(self(r) for r in related)


def _facade_parts(t: TypeInfo) -> list[str]:
    """The part classes of a Kotlin multi-file facade (`@Metadata(k = 4)`, parts in `d1`); [] for any other class."""
    if not t.kotlin or '"k":4' not in t.kotlin.replace(" ", ""):
        return []
    import json

    try:
        parts = json.loads(t.kotlin).get("d1") or []
    except (ValueError, AttributeError):
        return []
    return [p for p in parts if isinstance(p, str)]


def _compare_type(o: TypeInfo, n: TypeInfo, views: tuple[ApiView, ApiView], sides,
                  platform: Platform | None = None) -> list[Finding]:
    forms: list[str] = []

    def make(rule: str, detail: str = "") -> Finding:
        if not forms:
            forms.extend((type_ref(o.name), type_form(o), type_form(n)))
        return Finding(rule, forms[0], o.kind, forms[1], forms[2], detail, o.name)

    out: list[Finding] = []
    classes = {o.kind, n.kind} <= {"class", "record"}  # a record is a final class extending java.lang.Record
    if o.kind != n.kind and classes:
        out.append(record_change(o, n, make))
    elif o.kind != n.kind:
        out.append(make("TYPE_KIND_CHANGED", f"{o.kind} -> {n.kind}"))
    if LEVELS[n.level] < LEVELS[o.level]:
        out.append(make("TYPE_VISIBILITY_NARROWED", f"{level_text(o.level)} -> {level_text(n.level)}"))
    if classes:
        if n.access & FINAL and not o.access & FINAL:
            out.append(_made_final(o, sides[0], make))
        elif o.access & FINAL and not n.access & FINAL:
            out.append(make("FINAL_REMOVED"))
        if n.access & ABSTRACT and not o.access & ABSTRACT:
            out.append(make("ABSTRACT_ADDED"))
        elif o.access & ABSTRACT and not n.access & ABSTRACT:
            out.append(make("ABSTRACT_REMOVED"))
    if o.kind == n.kind and n.name in sides[1].sealed and o.name not in sides[0].sealed and \
            subclassable_outside(o, sides[0]):
        # JVMS §5.3.5: a class whose superclass or superinterface is sealed and does not permit it fails to load
        who = "an implementor" if n.kind == "interface" else "a subclass"
        out.append(make("TYPE_MADE_SEALED", f"{who} outside the artifact compiled against the old version fails to "
                                            "load (IncompatibleClassChangeError)"))
    out += permits_changes(o, n, sides, make)
    supertypes = supertype_changes(o, n, views, make, platform)
    if {o.kind, n.kind} == {"class", "record"}:  # TYPE_BECAME_RECORD / TYPE_NO_LONGER_RECORD say it
        supertypes = [f for f in supertypes if not (f.rule in ("SUPERTYPE_ADDED", "SUPERTYPE_REMOVED")
                                                    and f.detail == RECORD_REF)]
    out += supertypes
    out += _inherited_abstract_added(o, n, views, platform)
    common = frozenset((o.superclass, *o.interfaces)) & frozenset((n.superclass, *n.interfaces))
    if o.signature != n.signature and class_generic_key(o, common) != class_generic_key(n, common):
        out.append(make("GENERIC_SIGNATURE_CHANGED",
                        f"{generic_form(o.signature, 'class')} -> {generic_form(n.signature, 'class')}"))
    out += annotation_findings(o.annotations, n.annotations, make)
    if o.deprecated != n.deprecated:
        out.append(deprecation(o, n, make))
    for ext in extensions():
        out += ext.compare_types(o, n, sides)
    out += _compare_members(o, n, views, sides, platform)
    return _without_restatements(out)


def _made_final(o: TypeInfo, old: Surface, make) -> Finding:
    """TYPE_MADE_FINAL: breaking when a class outside the artifact could extend `o` as the old side declares it (a
    public or protected constructor, not sealed: `subclassable_outside`), since that compiled subclass now fails to
    load (IncompatibleClassChangeError); rated info otherwise, the detail saying why no such subclass could exist
    (commons-cli 1.0 -> 1.9's `OptionBuilder`, whose only constructor was private), as MEMBER_MADE_FINAL is no
    finding for such a class."""
    if subclassable_outside(o, old):
        return make("TYPE_MADE_FINAL", "it had a public or protected constructor: a subclass compiled against the "
                                       "old version fails to load (IncompatibleClassChangeError), and no longer "
                                       "compiles")
    why = ("sealed: only its permitted subclasses, in the artifact, could extend it" if o.name in old.sealed
           else "it had no public or protected constructor a subclass outside the artifact could call")
    return replace(make("TYPE_MADE_FINAL", f"no class outside the artifact could extend it before ({why}): no "
                                           "compiled client is broken (rated info, not breaking)"), rated=INFO)


# kotlinc writes a Kotlin type's nullability as these annotations: KOTLIN_NULLABILITY_CHANGED already says it
_NULLABILITY = ("@org.jetbrains.annotations.NotNull", "@org.jetbrains.annotations.Nullable")


def _without_restatements(found: list[Finding]) -> list[Finding]:
    """One finding per change (spec §7.7, no avalanche): a JVM finding the Kotlin view's finding on the same member
    already makes is dropped. KOTLIN_PARAMETER_NAME_CHANGED says what PARAMETER_NAME_CHANGED does; the
    KOTLIN_NULLABILITY_CHANGED of a return (property) or a parameter says what kotlinc's @NotNull/@Nullable
    appearing or going on the method (a parameter) does. Members are matched on name and erased parameters."""
    said: dict[str, set[str]] = defaultdict(set)
    for f in found:
        if f.rule == "KOTLIN_PARAMETER_NAME_CHANGED":
            said[f.id.split(")")[0]].add("names")
        elif f.rule == "KOTLIN_NULLABILITY_CHANGED":
            said[f.id.split(")")[0]].add("parameter" if f.detail.startswith("parameter ") else "member")
    if not said:
        return found

    def restated(f: Finding) -> bool:
        what = said.get(f.id.split(")")[0])
        if not what:
            return False
        if f.rule == "PARAMETER_NAME_CHANGED":
            return "names" in what
        if f.rule in ("ANNOTATION_ADDED", "ANNOTATION_REMOVED"):
            on_parameter = f.detail.startswith("parameter ")
            annotation = f.detail.rpartition(": ")[2] if on_parameter else f.detail
            return annotation in _NULLABILITY and ("parameter" if on_parameter else "member") in what
        return False

    return [f for f in found if not restated(f)]


def _lineage(surface: Surface, name: str, platform: Platform | None) -> list[TypeInfo]:
    """`name` and every supertype the side holds or the platform knows, nearest first."""
    out, seen, queue = [], set(), [name]
    while queue:
        x = queue.pop(0)
        if x in seen:
            continue
        seen.add(x)
        t = surface.types.get(x) or (platform(x) if platform is not None and x != OBJECT else None)
        if t is not None:
            out.append(t)
            queue.extend(t.supertypes)
    return out


def _abstract_inherited(surface: Surface, name: str, platform: Platform | None = None) -> dict[tuple[str, str], str]:
    """(name, descriptor) -> the supertype declaring it, for every abstract instance method `name` inherits and
    nothing on its way implements (no concrete or default method of that signature in the type or an ancestor the
    side holds or the platform knows, a synthetic bridge included, as the JVM selects it; java.lang.Object's public
    methods are implemented by every class)."""
    abstract: dict[tuple[str, str], str] = {}
    concrete: set[tuple[str, str]] = set()
    for t in _lineage(surface, name, platform):
        for m in t.members.values():
            if m.is_field or m.name in ("<init>", "<clinit>") or m.access & STATIC:
                continue
            key = (m.name, m.descriptor)
            if m.access & ABSTRACT:
                if m.synthetic:
                    continue
                if t.name != name:
                    abstract.setdefault(key, t.name)
            else:
                concrete.add(key)
    return {k: v for k, v in abstract.items() if k not in concrete and k[0] + k[1] not in OBJECT_MEMBERS}


def _inherited_abstract_added(o: TypeInfo, n: TypeInfo, views: tuple[ApiView, ApiView],
                              platform: Platform | None = None) -> list[Finding]:
    """An interface or abstract class that inherits an abstract method it did not before (a new supertype
    declaring one: commons-text 1.12's `Builder<T> extends Supplier<T>`) breaks its implementors outside the
    artifact as a method added to it would: INTERFACE_METHOD_ADDED / ABSTRACT_ADDED, naming the supertype. Only
    what the side holds is walked; a new supertype it lacks is named on SUPERTYPE_ADDED instead."""
    if not (n.kind == "interface" or (n.kind == "class" and n.access & ABSTRACT)) or n.access & FINAL:
        return []
    # the platform is asked only about a type that gained a supertype neither side holds (and then for both sides
    # alike): most compared types never make it read the JDK
    gained = set(views[1].surface.ancestors(n.name)[1]) - set(views[0].surface.ancestors(o.name)[1])
    platform = platform if gained else None
    new = _abstract_inherited(views[1].surface, n.name, platform)
    if not new:
        return []
    old = _abstract_inherited(views[0].surface, o.name, platform)
    if _no_outside_subclass(o, views[0].surface, old) is not None:
        return []  # no subclass or implementor outside the artifact could exist: none is broken
    declared = {(m.name, m.descriptor) for t in (o, n) for m in t.members.values()}  # the member pass's
    rule = "INTERFACE_METHOD_ADDED" if n.kind == "interface" else "ABSTRACT_ADDED"
    was_super = set().union(*views[0].surface.ancestors(o.name))
    out = []
    for (name, desc), holder in sorted(new.items()):
        if (name, desc) in old or (name, desc) in declared:
            continue
        holder_type = views[1].surface.types.get(holder) or platform(holder)
        m = next(m for m in holder_type.members.values() if m.name == name and m.descriptor == desc)
        who = "implementors" if n.kind == "interface" else "subclasses"
        out.append(Finding(rule, member_ref(m, n.name), "method", None, member_form(m),
                           f"{_why_inherited(holder, name, desc, was_super, views[0].surface)}: {who} outside the "
                           "artifact must now implement it", f"{n.name}#{name}{desc}"))
    return out


def _no_outside_subclass(t: TypeInfo, side: Surface, abstract: dict[tuple[str, str], str] | None = None,
                         platform: Platform | None = None) -> str | None:
    """Why no class outside the artifact can extend or implement `t` as `side` declares it (so an abstract method
    added to it breaks none), or None when one can. `abstract` is `_abstract_inherited` of `t` when known."""
    if t.kind == "enum":
        return "an enum"
    if t.name in side.sealed:
        return "sealed: only its permitted subclasses, in the artifact, can extend it"
    if t.kind == "interface":
        return None
    if t.kind != "class":
        return f"a {t.kind}"
    if not subclassable_outside(t, side):
        return "final" if t.access & FINAL else "no constructor a subclass outside the artifact can call"
    if abstract is None:
        abstract = _abstract_inherited(side, t.name, platform)
    for m in t.members.values():
        if m.access & ABSTRACT and not m.is_field and m.level == "package":
            return f"its package-private abstract {m.name}{param_list(m)} cannot be implemented outside its package"
    for (name, desc), holder in sorted(abstract.items()):
        h = side.types.get(holder)
        m = next((c for c in h.members.values() if c.name == name and c.descriptor == desc), None) if h else None
        if m is not None and m.level == "package":
            return f"the package-private abstract {type_ref(holder)}#{name} cannot be implemented outside its package"
    return None


def _why_inherited(holder: str, name: str, desc: str, was_super: set[str], old: Surface) -> str:
    """Why an abstract method reaches a type it did not: the supertype is new, or an old supertype changed (1.7's
    `Job` gained `getParent()`: `ChildJob extends Job` did not gain a supertype)."""
    if holder not in was_super:
        return f"inherited from the new supertype {type_ref(holder)}"
    before = old.types.get(holder)
    if before is None:
        return f"inherited from {type_ref(holder)}, which the old side does not hold"
    had = next((m for m in before.members.values() if m.name == name and m.descriptor == desc), None)
    if had is None:
        return f"inherited from {type_ref(holder)}, which declares it anew"
    if not had.access & ABSTRACT:
        return f"inherited from {type_ref(holder)}, where it is now abstract"
    return f"inherited from {type_ref(holder)}; what implemented it on the way is gone"


def _compare_members(o: TypeInfo, n: TypeInfo, views: tuple[ApiView, ApiView], sides,
                     platform: Platform | None = None) -> list[Finding]:
    old_members, new_members = views[0].members(o.name), views[1].members(n.name)
    out: list[Finding] = []
    removed: list[Member] = []
    added: list[Member] = []
    # keys of new members an old member's finding already tells: the old member with its synthetic flag flipped, or
    # (--include-synthetic) the bridge keeping an old descriptor behind a narrowed return (MEMBER_MADE_SYNTHETIC,
    # whose other half is the narrowed method)
    flipped: set[str] = set()
    for key, m in old_members.items():
        other = new_members.get(key)
        if other is None and (other := _synthetic_flip(m, n.members)) is not None:
            flipped.add(other.key)
            if m.synthetic and not m.is_field and other.key != m.key and other.key in old_members \
                    and other.key in new_members:
                continue  # a bridge whose descriptor the method it bridged now has: that method's pairing tells it
        if other is not None:
            found = compare_member(m, other, o, sides, platform)
            if not m.is_field and m.returns != other.returns and \
                    (bridge := old_descriptor_bridge(m, other, sides[1])) is not None:
                flipped.add(bridge.key)
            if other.synthetic != m.synthetic and (other.synthetic or other.key in new_members):
                out.append(_synthetic_flipped(m, other))
                if other.synthetic:  # no source sees it now: the names and the Signature compilers read are moot
                    found = [f for f in found if f.rule not in ("PARAMETER_NAMES_LOST", "GENERIC_SIGNATURE_CHANGED")]
            out += found
            for ext in extensions():
                out += ext.compare_members(m, other, sides)
        elif key in n.members and not n.members[key].synthetic:
            # also a Kotlin member made `internal` whose JVM name stays (a file-level function, a constructor):
            # compiled callers still link, Kotlin sources outside the module can no longer call it. One whose JVM
            # name is now mangled (`name$module`) is a MEMBER_REMOVED below: compiled callers fail to link.
            hidden = n.members[key]
            detail = f"{views[0].member_level(m)} -> {views[1].member_level(hidden)}"
            found = Finding("MEMBER_VISIBILITY_NARROWED", member_ref(m), kind_of(m), member_form(m),
                            member_form(hidden), detail, member_id(m))
            if hidden.access & (PUBLIC | PROTECTED):
                found = kotlin_rerated(replace(found, detail=detail + KOTLIN_ONLY_NARROWED), KOTLIN_ONLY_WHY)
            out.append(found)
        elif (same := _still_inherited(m, o, n, sides, platform)) is not None:
            if not m.synthetic:  # the same declaration, from the same class: only what changed in it is a finding
                out += compare_member(m, same, o, sides, platform)
        else:
            removed.append(m)
    for key, m in new_members.items():
        if key in old_members or key in flipped:
            continue
        was = _synthetic_flip(m, o.members)
        if was is not None and was.synthetic:
            out.append(_synthetic_flipped(was, m))
        elif (was := o.members.get(key)) is not None and not was.synthetic:
            out.append(Finding("MEMBER_ADDED", member_ref(m), kind_of(m), member_form(was),
                               member_form(m), f"was {views[0].member_level(was)}", member_id(m)))
        else:
            added.append(m)
    # a removal a supertype still resolves is no retyped signature: its compiled callers link (or its finding says
    # why not), so it is never paired with an addition of the same shape
    early = {id(m): removal(m, o, n, sides, {}, platform) for m in removed}
    out += [early[id(m)] for m in removed if early[id(m)].rule in _RESOLVED]
    paired, removed, added, ambiguous = pair_by_shape([m for m in removed if early[id(m)].rule not in _RESOLVED],
                                                       added)
    out += paired
    # what each removal is on its own: only one whose old JVM name and descriptor no longer resolve (MEMBER_REMOVED)
    # is offered to the extensions' pairing, so a JVM rename they report (KOTLIN_NAME_CHANGED,
    # KOTLIN_SUSPEND_CHANGED: breaking rules) always is a link break; one still inherited (or left abstract) keeps
    # its own finding and never hides behind a rename
    fates = {id(m): removal(m, o, n, sides, ambiguous, platform) if m.key in ambiguous else early[id(m)]
             for m in removed}
    out += [fates[id(m)] for m in removed if fates[id(m)].rule != "MEMBER_REMOVED"]
    removed = [m for m in removed if fates[id(m)].rule == "MEMBER_REMOVED"]
    for ext in extensions():
        found, removed, added = ext.pair_members(o, n, removed, added, sides)
        out += found
    out += [fates[id(m)] for m in removed]
    out += [_addition(m, n, sides[0]) for m in added]
    return _constants_inlined(out, old_members)


# breaking rules whose compiled clients of a compile-time constant keep running (javac inlined its value, JLS §13.1),
# and what recompiling them does
_RECOMPILING = {"MEMBER_REMOVED": "recompiling them fails", "MEMBER_VISIBILITY_NARROWED": "recompiling them fails",
                "STATIC_TO_INSTANCE": "recompiling them fails", "INSTANCE_TO_STATIC": "only recompiled ones see the change",
                "FIELD_TYPE_CHANGED": "only recompiled ones see the change"}


def _constants_inlined(found: list[Finding], old_members: dict[str, Member]) -> list[Finding]:
    """A breaking finding on a compile-time constant (a final field with a ConstantValue) says that compiled clients
    reading it still run: javac copied its value into them (JLS §13.4.9), so only a reflective read fails. The rule
    and its severity stay (spec §7.7): recompiling is where it breaks."""
    constants = {member_id(m): m for m in old_members.values() if m.is_field and m.constant is not None
                 and m.access & FINAL and not m.access & PRIVATE}  # (a private one has no clients to inline it)
    if not constants:
        return found
    out = []
    for f in found:
        m = constants.get(f.id) if f.rule in _RECOMPILING else None
        if m is None:
            out.append(f)
            continue
        note = (f"a compile-time constant (= {constant_literal(m)}): clients compiled against the old version inlined "
                f"its value and still run; {_RECOMPILING[f.rule]}")
        out.append(replace(f, detail=f"{f.detail}; {note}" if f.detail else note))
    return out


_MADE_SYNTHETIC = "now synthetic: compiled callers still link, but sources can no longer call it " \
                  "(Kotlin's @Deprecated(level = HIDDEN) does this)"
_MADE_BRIDGE = "now a compiler bridge: compiled callers still link and reach the method it forwards to; sources " \
               "call that one"


def _synthetic_flip(m: Member, members: dict[str, Member]) -> Member | None:
    """The member of `members` with `m`'s exact name and descriptor whose synthetic flag differs from `m`'s (its key
    does too: a synthetic method is keyed on its whole descriptor), or None."""
    if m.is_field:
        other = members.get(m.key)
    else:
        other = members.get(m.name + (m.params if m.synthetic else m.descriptor))
    if other is None or other.descriptor != m.descriptor or other.synthetic == m.synthetic:
        return None
    return other


def _synthetic_flipped(o: Member, n: Member) -> Finding:
    """A member made synthetic (compiled callers still link, sources no longer see it), or no longer synthetic (an
    addition to what sources see)."""
    if n.synthetic:
        return Finding("MEMBER_MADE_SYNTHETIC", member_ref(o), kind_of(o), member_form(o), member_form(n),
                       _MADE_BRIDGE if _bridge_return(n) else _MADE_SYNTHETIC, member_id(o))
    return Finding("MEMBER_ADDED", member_ref(n), kind_of(n), member_form(o), member_form(n),
                   "was synthetic: sources can call it now", member_id(n))


def _bridge_return(m: Member) -> str | None:
    """The return type of a member that is a compiler bridge (its printed reference is its overload's: the return
    type tells them apart), or None."""
    if m.is_field or not m.access & VOLATILE_OR_BRIDGE:
        return None
    return java_type(parse_method_descriptor(m.descriptor)[1])


_RESOLVED = ("MEMBER_MOVED_TO_SUPERTYPE", "MEMBER_MADE_FINAL")


def _still_inherited(m: Member, o: TypeInfo, n: TypeInfo, sides: tuple[Surface, Surface],
                     platform: Platform | None = None) -> Member | None:
    """The declaration a member gone from `n`'s compared members still is, or None: a member the old view re-exported
    from a non-public supertype (`declared_in`) that the new side now exposes itself, public, still declaring it;
    or (`--include-synthetic`) javac's visibility bridge for such a member (a bridge, beside no override of its own,
    with the very descriptor of what that non-public supertype declared on the old side). Compiled callers reach the
    same declaration in the same class: no move (commons-collections4 4.4 -> 4.5.0's `PatriciaTrie#firstKey()`,
    declared by `AbstractPatriciaTrie` in both, which was made public)."""
    if m.name == "<init>":
        return None
    found = find_inherited(sides[1], n.name, m, platform)
    holder = found.holder or (found.abstract if m.access & ABSTRACT else None)
    if holder is None or holder not in sides[0].ancestors(o.name)[0]:
        return None
    if m.declared_in:
        return _declaration(sides[1], holder, m) if holder == m.declared_in else None
    if m.is_field or not (m.synthetic and m.access & VOLATILE_OR_BRIDGE) or sides[0].types[holder].level == "public":
        return None  # javac writes a visibility bridge for what a public class inherits from a non-public one only
    if any(c.name == m.name and c.params == m.params and not c.synthetic for c in o.members.values()):
        return None  # the bridge of an override (a generic one: protobuf's `Parser#parseFrom`), no visibility bridge
    before = _declaration(sides[0], holder, m)
    return None if before is None or before.synthetic else _declaration(sides[1], holder, m)


def _declaration(side: Surface, holder: str, m: Member) -> Member | None:
    """The member of `side`'s type `holder` with `m`'s name and descriptor (a field, a method as `m` is), or None."""
    t = side.types.get(holder)
    return None if t is None else next((c for c in t.members.values() if c.name == m.name and
                                        c.descriptor == m.descriptor and c.is_field == m.is_field), None)


def _addition(m: Member, n: TypeInfo, old: Surface) -> Finding:
    ref, kind, form, fid = member_ref(m), kind_of(m), member_form(m), member_id(m)
    if m.is_field or not m.access & ABSTRACT:
        ret = _bridge_return(m)
        return Finding("MEMBER_ADDED", ref, kind, None, form, f"a compiler bridge returning {ret}" if ret else "",
                       id=fid)
    if n.kind == "annotation" and m.default is not None:
        return Finding("MEMBER_ADDED", ref, kind, None, form, "annotation element with a default", id=fid)
    if n.name in old.types:
        ancestors, _ = old.ancestors(n.name)
        for s in ancestors:
            declared = (s == OBJECT and s not in old.types and m.name + m.descriptor in OBJECT_MEMBERS) or (
                s in old.types and any(c.name == m.name and c.descriptor == m.descriptor
                                       for c in old.types[s].members.values()))
            if declared:
                return Finding("MEMBER_ADDED", ref, kind, None, form,
                               f"redeclared abstract; already inherited from {type_ref(s)}", id=fid)
    was = old.types.get(n.name)
    if n.kind in ("interface", "class") and was is not None and was.kind == n.kind:
        why = _no_outside_subclass(was, old)
        if why is not None:
            return Finding("MEMBER_ADDED", ref, kind, None, form, f"abstract, but no subclass or implementor outside "
                                                                  f"the artifact can exist ({why})", id=fid)
    if n.kind in ("interface", "annotation"):
        return Finding("INTERFACE_METHOD_ADDED", ref, kind, None, form, id=fid)
    if n.kind == "enum":
        return Finding("MEMBER_ADDED", ref, kind, None, form, "abstract in an enum (no subclass outside it)", id=fid)
    return Finding("ABSTRACT_ADDED", ref, kind, None, form, "new abstract method", id=fid)
