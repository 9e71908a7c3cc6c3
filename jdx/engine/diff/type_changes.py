"""Type-level changes beside the member comparison (spec §7.7): a class becoming a record or no longer one, a sealed
type's permitted subtypes changing, and the class-file versions each side needs (docs/diff.md, Rules)."""

from __future__ import annotations

from dataclasses import replace

from jdx.engine.diff.findings import Finding
from jdx.engine.diff.forms import type_ref
from jdx.engine.diff.rules import SUSPICIOUS
from jdx.engine.diff.surface import FINAL, Surface, TypeInfo

MAX_VERSION_NAMES = 3


def java_release(major: int) -> str:
    """The Java release of a class-file major version (JVMS §4.1): 52 -> 8, 65 -> 21, 48 -> 1.4."""
    return str(major - 44) if major >= 49 else f"1.{major - 44}"


def class_version(old: Surface, new: Surface) -> list[Finding]:
    """CLASS_VERSION_RAISED / CLASS_VERSION_LOWERED, once per diff, symbol the new side's name (kind `artifact`). A
    JVM refuses a class newer than itself (UnsupportedClassVersionError), whatever the API says; every class counts,
    API or not. What a side needs is the version most of its classes have (`_commonest`): when that went up, every
    consumer on an older JVM breaks (breaking); when only a minority is newer than anything the old side had (an
    optional provider compiled for a newer Java: jline 3.26's `org.jline.terminal.impl.ffm`, Java 22, beside 464
    Java 8 classes), only code touching those classes does, so the finding names their packages and is rated
    suspicious."""
    if not old.versions or not new.versions:
        return []
    was, now = max(old.versions), max(new.versions)
    needed, needs = _commonest(old.versions), _commonest(new.versions)
    if needs > needed:
        return [_raised(old, new, needed, needs)]
    if now > was:
        return [_raised_in_part(new, was, now)]
    if now < was:
        return [Finding("CLASS_VERSION_LOWERED", new.label, "artifact", str(was), str(now),
                        f"{_span(was, now)}: loads on Java {java_release(now)}+")]
    return []


def _commonest(versions: dict[int, list[str]]) -> int:
    """The class-file version most classes of a side have (a tie: the newer): what loading the artifact needs."""
    return max(versions, key=lambda v: (len(versions[v]), v))


def _span(was: int, now: int) -> str:
    return f"{was} (Java {java_release(was)}) -> {now} (Java {java_release(now)})"


def _above(side: Surface, version: int) -> list[str]:
    """The classes of `side` newer than `version`, named classes first."""
    return sorted((name for v, names in side.versions.items() if v > version for name in names),
                  key=lambda name: ("$" in name, name))


def _packages(side: Surface, version: int) -> str:
    """The packages holding classes newer than `version`, with how many and the Java each needs, newest first:
    `org.x.ffm (21 classes) needs Java 22+`."""
    counts: dict[tuple[int, str], int] = {}
    for v, names in side.versions.items():
        for name in names if v > version else ():
            key = (v, name.rpartition("/")[0].replace("/", ".") or "(default package)")
            counts[key] = counts.get(key, 0) + 1
    ordered = sorted(counts.items(), key=lambda kv: (-kv[0][0], kv[0][1]))
    shown = [f"{package} ({n} class{'es' if n > 1 else ''}) needs Java {java_release(v)}+"
             for (v, package), n in ordered[:MAX_VERSION_NAMES]]
    rest = len(ordered) - len(shown)
    return ", ".join(shown) + (f" and {rest} more package{'s' if rest > 1 else ''}" if rest else "")


def _raised(old: Surface, new: Surface, needed: int, needs: int) -> Finding:
    """What most classes need went up: a JVM older than that refuses the artifact (breaking). When the old side's
    newest classes were already newer than what most of its classes needed, the detail says so: its consumers were
    already on a newer JVM than `needed` names, if they used those classes."""
    above = _above(new, needed)
    total = sum(map(len, new.versions.values()))
    shown = ", ".join(type_ref(a) for a in above[:MAX_VERSION_NAMES]) + (" …" if len(above) > MAX_VERSION_NAMES
                                                                          else "")
    detail = (f"{_span(needed, needs)}: needs Java {java_release(needs)}+ to load; {len(above)} of {total} classes "
              f"are newer than {needed}, which a JVM older than Java {java_release(needs)} refuses "
              f"(UnsupportedClassVersionError): {shown}")
    if max(new.versions) > needs:
        detail += f"; beyond that, {_packages(new, needs)}"
    if (was := max(old.versions)) > needed:
        detail += (f"; the old version's newest classes were already {was} (Java {java_release(was)}): "
                   f"{len(old.versions[was])} of {sum(map(len, old.versions.values()))}")
    return Finding("CLASS_VERSION_RAISED", new.label, "artifact", str(needed), str(needs), detail)


def _raised_in_part(new: Surface, was: int, now: int) -> Finding:
    """Only a minority of classes is newer than anything the old side had: the rest still load where the old
    version did, and only code touching the newer classes fails on an older JVM (rated suspicious)."""
    above = _above(new, was)
    total = sum(map(len, new.versions.values()))
    detail = (f"{_span(was, now)}: only {len(above)} of {total} classes are newer than {was}: {_packages(new, was)}; "
              f"the other {total - len(above)} still load on Java {java_release(was)}, so only code that uses the "
              "newer ones fails on an older JVM (UnsupportedClassVersionError) (rated suspicious, not breaking)")
    return replace(Finding("CLASS_VERSION_RAISED", new.label, "artifact", str(was), str(now), detail),
                   rated=SUSPICIOUS)


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
