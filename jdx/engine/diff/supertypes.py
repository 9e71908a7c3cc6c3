"""SUPERTYPE_REMOVED and SUPERTYPE_ADDED (spec §7.7): every supertype a caller can see, on each side, as far as the
side holds its classes and the platform (the running JDK's `java.*`) knows the rest."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from jdx.engine.diff.findings import Finding
from jdx.engine.diff.forms import type_ref
from jdx.engine.diff.members import MEMBERLESS_INTERFACES
from jdx.engine.diff.rules import SUSPICIOUS
from jdx.engine.diff.surface import ABSTRACT, FINAL, OBJECT, TypeInfo
from jdx.engine.diff.visibility import ApiView

Platform = Callable[[str], "TypeInfo | None"]  # a type neither side holds, by internal name (the running JDK's)
# packages of the JDK's own modules: their classes extend JDK classes only, never an artifact's
JDK_PACKAGES = ("java/", "javax/", "jdk/", "com/sun/", "sun/")
THROWABLE = "java/lang/Throwable"


def supertype_changes(o: TypeInfo, n: TypeInfo, views: tuple[ApiView, ApiView], make,
                      platform: Platform | None = None) -> list[Finding]:
    """SUPERTYPE_REMOVED/ADDED over every supertype a caller can see (transitively, as far as each side holds). A
    supertype one side lacks is looked up in the platform (the JDK's `java.*`) only when a finding hangs on it: one
    still reached through a JDK type's supertypes is no change, and one that is not is no maybe."""
    def visible(view: ApiView) -> tuple[set[str], list[str]]:
        seen, missing = view.surface.ancestors(o.name)
        names = {s for s in seen if s != OBJECT and (s not in view.surface.types or view.type_is_api(s))}
        return names | set(missing), missing

    (old_names, old_missing), (new_names, new_missing) = visible(views[0]), visible(views[1])
    out = []
    removed = sorted(old_names - new_names)
    above, unknown = _above_missing(new_missing, platform) if removed else (set(), new_missing)
    for s in removed:
        if s in above:
            continue  # still a supertype, through a JDK type's own supertypes
        detail = type_ref(s)
        was = views[0].surface.types.get(s) or (platform(s) if platform is not None and s in old_missing else None)
        # a class comes down the superclass chain only: through a missing interface it cannot
        through = [_missing_superclass(views[1], n.name, platform)] if was is not None and was.kind not in (
            "interface", "annotation") else unknown
        through = [t for t in through if t and t not in MEMBERLESS_INTERFACES]  # they extend nothing either
        if through and _outside_cannot_extend(s, views, through):
            through = []
        if through:
            detail += f" (not among the supertypes this artifact holds; {', '.join(map(type_ref, through))} " \
                      "is not in it, so it may still be inherited there)"
        out.append(replace(make("SUPERTYPE_REMOVED", detail), unresolved=tuple(through)))
    # a supertype the old side had but did not show (a package-private class made public: commons-collections4
    # 4.5's AbstractPatriciaTrie, PatriciaTrie's superclass in 4.4 too) is no new supertype; its TYPE_ADDED says so
    added = sorted(new_names - old_names - set(views[0].surface.ancestors(o.name)[0]))
    if old_missing and any(s.startswith("java/") for s in added):  # only a JDK type is above a JDK type
        added = [s for s in added if s not in _above_missing(old_missing, platform)[0]]  # was one through the JDK
    # a new supertype the artifact lacks may bring abstract methods its implementors must now implement: unchecked
    unchecked = n.kind == "interface" or (n.kind == "class" and n.access & ABSTRACT and not n.access & FINAL)
    chain = _superclasses(views[1], n.name, platform)
    thrown = THROWABLE in chain  # an exception type: a new superclass changes which catch clauses compile
    for s in added:
        found = make("SUPERTYPE_ADDED", type_ref(s) + (" (not in the artifact: abstract methods it may bring are "
                                                       "not checked)" if unchecked and s in new_missing
                                                       and (platform is None or platform(s) is None) else ""))
        # a catch clause can name both only where the old side (or the JDK) has the new superclass
        if thrown and s in chain and s != THROWABLE and (s in views[0].surface.types or s in old_missing or (
                platform is not None and platform(s) is not None)):
            found = replace(found, raised=SUSPICIOUS, detail=found.detail + (
                f": a multi-catch naming both, or a catch of it after one of {type_ref(s)}, no longer compiles; a "
                f"catch of {type_ref(s)} now catches it (rated suspicious, not info)"))
        out.append(found)
    return out


def _superclasses(view: ApiView, name: str, platform: Platform | None) -> list[str]:
    """`name`'s superclasses on a side, nearest first, as far as the side and the platform hold them."""
    out: list[str] = []
    t = view.surface.types.get(name)
    while t is not None and t.superclass and t.superclass not in out:
        out.append(t.superclass)
        t = view.surface.types.get(t.superclass) or (platform(t.superclass) if platform is not None else None)
    return out


def _above_missing(missing: list[str], platform: Platform | None) -> tuple[set[str], list[str]]:
    """(every supertype of the types a side lacks that the platform holds, those types included; the ones neither
    holds). A JDK type extends JDK types only, so the walk ends in the platform."""
    if platform is None:
        return set(), list(missing)
    above: set[str] = set()
    unknown: list[str] = []
    queue = list(missing)
    while queue:
        s = queue.pop(0)
        if s in above or s in unknown or s == OBJECT:
            continue
        t = platform(s)
        if t is None:
            unknown.append(s)
        else:
            above.add(s)
            queue.extend(t.supertypes)
    return above, unknown




def _missing_superclass(view: ApiView, name: str, platform: Platform | None = None) -> str | None:
    """The first class of `name`'s superclass chain that neither the side nor the platform holds (java.lang.Object
    aside), or None."""
    t, seen = view.surface.types.get(name), set()
    while t is not None and t.superclass and t.superclass != OBJECT and t.superclass not in seen:
        up = t.superclass
        seen.add(up)
        t = view.surface.types.get(up) or (platform(up) if platform is not None else None)
        if t is None:
            return up
    return None


def _outside_cannot_extend(s: str, views: tuple[ApiView, ApiView], through: list[str]) -> bool:
    """Whether none of `through` (the new side's supertypes it does not hold) can lead to the removed supertype `s`,
    the artifact's own type: `s` is gone from the new side (a class of another artifact extending it would not load
    either), or every one of them is the JDK's, whose classes never extend an artifact's (google-java-format 1.28's
    `Java21InputAstVisitor`, which lost the removed `Java17InputAstVisitor` while its chain ends in jdk.compiler's
    `TreePathScanner`)."""
    if s not in views[0].surface.types:
        return False
    return s not in views[1].surface.types or all(t.startswith(JDK_PACKAGES) for t in through)
