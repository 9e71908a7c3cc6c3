"""Type-level changes beside the member comparison (spec §7.7): a class becoming a record or no longer one, a sealed
type's permitted subtypes changing, and each side's newest class-file version (docs/diff.md, Rules)."""

from __future__ import annotations

from jdx.engine.diff.findings import Finding
from jdx.engine.diff.forms import type_ref
from jdx.engine.diff.surface import FINAL, Surface, TypeInfo

MAX_VERSION_NAMES = 3


def java_release(major: int) -> str:
    """The Java release of a class-file major version (JVMS §4.1): 52 -> 8, 65 -> 21, 48 -> 1.4."""
    return str(major - 44) if major >= 49 else f"1.{major - 44}"


def class_version(old: Surface, new: Surface) -> list[Finding]:
    """CLASS_VERSION_RAISED / CLASS_VERSION_LOWERED: each side's newest class-file major version, once per diff. A
    JVM refuses a class newer than itself (UnsupportedClassVersionError), whatever the API says; every class counts,
    API or not, since loading any of them fails. The symbol is the new side's name (kind `artifact`)."""
    if not old.versions or not new.versions:
        return []
    was, now = max(old.versions), max(new.versions)
    if was == now:
        return []
    span = f"{was} (Java {java_release(was)}) -> {now} (Java {java_release(now)})"
    total = sum(map(len, new.versions.values()))
    if now > was:
        above = sorted((name for v, names in new.versions.items() if v > was for name in names),
                       key=lambda name: ("$" in name, name))  # named classes first
        shown = ", ".join(type_ref(a) for a in above[:MAX_VERSION_NAMES]) + (" …" if len(above) > MAX_VERSION_NAMES
                                                                              else "")
        detail = (f"{span}: needs Java {java_release(now)}+ to load; {len(above)} of {total} classes are newer than "
                  f"{was}, which a JVM older than Java {java_release(now)} refuses (UnsupportedClassVersionError): "
                  f"{shown}")
        return [Finding("CLASS_VERSION_RAISED", new.label, "artifact", str(was), str(now), detail)]
    detail = f"{span}: loads on Java {java_release(now)}+"
    return [Finding("CLASS_VERSION_LOWERED", new.label, "artifact", str(was), str(now), detail)]


RECORD_REF = "java.lang.Record"


def record_change(o: TypeInfo, n: TypeInfo, make) -> Finding:
    """A class that became a record keeps every compiled caller linking when its members stay (they are compared
    as any class's are; a non-final class made final is TYPE_MADE_FINAL): TYPE_BECAME_RECORD, info. A record that
    became a class likewise keeps its members' callers, but java.lang.Record leaves its supertypes, so a caller using
    it as a Record fails verification, and record patterns over it no longer compile: TYPE_NO_LONGER_RECORD,
    breaking, which says what SUPERTYPE_REMOVED of java.lang.Record would (compare drops that one)."""
    if n.kind == "record":
        return make("TYPE_BECAME_RECORD", f"class -> record (now extends {RECORD_REF}); compiled callers still link "
                                          "to every member it kept")
    return make("TYPE_NO_LONGER_RECORD", f"record -> class: no longer a {RECORD_REF}, so a caller using it as one "
                                         "fails to link (VerifyError), and record patterns over it (`case R(var x)`) "
                                         "no longer compile; callers of the members it kept still link")


def permits_changes(o: TypeInfo, n: TypeInfo, sides, make) -> list[Finding]:
    """A sealed type's permitted subtypes changing (JLS §13.4.2.1). Added, or no longer sealed: binary compatible,
    but a switch exhaustive over it no longer compiles and one compiled against the old version throws
    MatchException on an instance it did not know (SEALED_PERMITS_ADDED, TYPE_NO_LONGER_SEALED). Removed: the
    subtype's own finding (TYPE_REMOVED, SUPERTYPE_REMOVED) says what breaks for its users; a `case` naming it
    no longer compiles; one neither side holds, still extending it, fails to load (SEALED_PERMITS_REMOVED)."""
    was, now = o.name in sides[0].sealed, n.name in sides[1].sealed
    if was and not now and not n.access & FINAL:
        return [make("TYPE_NO_LONGER_SEALED", f"a switch exhaustive over {type_ref(o.name)} no longer compiles; one "
                                              "compiled against the old version throws MatchException on a subtype "
                                              "it does not know")]
    if not (was and now):
        return []
    out = []
    added = sorted(set(n.permits) - set(o.permits))
    if added:
        names = ", ".join(map(type_ref, added))
        out.append(make("SEALED_PERMITS_ADDED",
                        f"now also permits {names}: a switch exhaustive over {type_ref(o.name)} no longer compiles, "
                        f"and one compiled against the old version throws MatchException on "
                        f"{'an instance of it' if len(added) == 1 else 'their instances'}"))
    for gone in sorted(set(o.permits) - set(n.permits)):
        detail = f"no longer permits {type_ref(gone)}: a `case` or pattern naming it may no longer compile"
        if gone not in sides[0].types and gone not in sides[1].types:
            detail += f"; it is not in the artifact: if it still extends {type_ref(o.name)}, it fails to load " \
                      "(IncompatibleClassChangeError)"
        out.append(make("SEALED_PERMITS_REMOVED", detail))
    return out
