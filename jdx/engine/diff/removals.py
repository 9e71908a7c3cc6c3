"""A member gone from its type (spec §7.7): removed, moved to a supertype, made final there, or an implementation
gone while a supertype declares it abstract; a walk that meets a supertype neither side holds says so and names it
(`unresolved`), never downgrading the removal."""

from __future__ import annotations

from dataclasses import replace

from jdx.engine.diff.findings import Finding
from jdx.engine.diff.forms import member_form, member_id, member_ref, type_ref
from jdx.engine.diff.members import find_inherited, inherited_member, is_enum_constant, kind_of, overridable
from jdx.engine.diff.supertypes import Platform
from jdx.engine.diff.surface import ABSTRACT, FINAL, Member, Surface, TypeInfo


def removal(m: Member, o: TypeInfo, n: TypeInfo, sides: tuple[Surface, Surface], ambiguous: dict[str, str],
             platform: Platform | None = None) -> Finding:
    old_side, new = sides
    ref, kind, form, fid = member_ref(m), kind_of(m), member_form(m), member_id(m)
    if is_enum_constant(m, o):
        return Finding("ENUM_CONSTANT_REMOVED", ref, kind, form, None, id=fid)
    notes = [ambiguous[m.key]] if m.key in ambiguous else []
    missing: list[str] = []  # supertypes neither the new side nor the platform holds
    if m.name != "<init>":
        holder, abstract, missing = find_inherited(new, n.name, m, platform)
        supplier = inherited_member(new, holder, m, platform) if holder is not None else None
        if supplier is not None and supplier.access & FINAL and not m.access & FINAL and \
                overridable(m, o, old_side):
            what = "a subclass outside the artifact overriding it fails to load (IncompatibleClassChangeError)" \
                if not m.is_field else "compiled writes to it fail (IllegalAccessError)"
            return Finding("MEMBER_MADE_FINAL", ref, kind, form, member_form(supplier),
                           f"now inherited from {type_ref(holder)}, where it is final: {what}", id=fid)
        if holder is not None or (abstract is not None and m.access & ABSTRACT):
            return Finding("MEMBER_MOVED_TO_SUPERTYPE", ref, kind, form, None,
                           f"now inherited from {type_ref(holder or abstract)}", id=fid)
        mangled = _mangled(new, n.name, m) if abstract is None else None
        if mangled is not None:
            notes.append(f"now Kotlin `internal` ({mangled}, the name mangled): compiled callers fail to link "
                         "(NoSuchMethodError)")
            missing = []
        if missing:
            what = "an implementation" if abstract is not None else "the member"
            notes.append(f"not found in the supertypes the artifact holds; {', '.join(map(type_ref, missing))} "
                         f"is not in it, so {what} may still be inherited from there")
        if abstract is not None:
            return replace(_implementation_removed(m, n, abstract, notes), unresolved=tuple(missing))
    if m.declared_in:
        notes.insert(0, f"was inherited from non-public {type_ref(m.declared_in)}")
    return Finding("MEMBER_REMOVED", ref, kind, form, None, "; ".join(notes), id=fid,
                   unresolved=tuple(missing))


def _mangled(side: Surface, type_name: str, m: Member) -> str | None:
    """`m`'s name as kotlinc mangles a Kotlin `internal` member (`getMode$kotlinx_coroutines_core`: `name$module`), of
    one method of `m`'s descriptor that `type_name` declares or inherits on `side`, or None."""
    if m.is_field:
        return None
    for holder in (type_name, *side.ancestors(type_name)[0]):
        t = side.types.get(holder)
        for c in t.members.values() if t is not None else ():
            if not c.is_field and c.descriptor == m.descriptor and c.name.startswith(m.name + "$") and \
                    "$" not in c.name[len(m.name) + 1:]:
                return c.name
    return None


def _implementation_removed(m: Member, n: TypeInfo, abstract: str, notes: list[str]) -> Finding:
    """A concrete method gone while a supertype still declares it abstract (JLS §13.4.16): callers link, but a
    subclass compiled against the old version that does not implement it throws AbstractMethodError, and one
    compiled anew must implement it."""
    if m.declared_in:
        notes.insert(0, f"was inherited from non-public {type_ref(m.declared_in)}")
    detail = f"the implementation is gone and {type_ref(abstract)} declares it abstract: "
    if n.kind == "interface" or (n.kind == "class" and n.access & ABSTRACT and not n.access & FINAL):
        detail += f"{'implementors' if n.kind == 'interface' else 'subclasses'} outside the artifact must now " \
                  "implement it (compiled ones that do not throw AbstractMethodError)"
    else:
        detail += "calls on its instances throw AbstractMethodError"
    return Finding("INTERFACE_METHOD_ADDED" if n.kind == "interface" else "ABSTRACT_ADDED", member_ref(m),
                   kind_of(m), member_form(m), None, "; ".join([detail, *notes]), member_id(m))
