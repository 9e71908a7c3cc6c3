"""What a diff says beyond its findings (spec §7.7, docs/diff.md "Notes"): findings in a package the side's module
does not export (module-info.class, JLS §7.7) rated one level lower, and a hint for a package renamed whole (a
shaded or versioned package: jackson-core's `internal.shaded.fdp.v2_21_2` -> `v2_22_3`).

A named module's unexported package is no API for module users: no module can read it, so no modular client
compiled against it. Classpath clients still can, so a finding there is lowered one level (breaking -> suspicious,
suspicious -> info), never dropped, and its detail says why. A jar's module is its root module-info's: one only
under a multi-release jar's META-INF/versions/N (snakeyaml 2.x over Java 8 classes) makes no module of the base
release, whose classpath clients link to every package (`commands.diff_artifacts.unexported_packages` reads it).

A package module users could read on the old side and cannot on the new one (qdox 2.0.3, an automatic module, ->
2.2.0, whose module-info exports two of its packages) is a PACKAGE_UNEXPORTED finding of its own: no type or member
changed, yet a modular client of the package no longer compiles and throws IllegalAccessError at run time."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace

from jdx.engine.diff.findings import Finding
from jdx.engine.diff.rules import BREAKING, INFO, SEVERITIES, SUSPICIOUS

LOWER = {BREAKING: SUSPICIOUS, SUSPICIOUS: INFO}
NOT_EXPORTED = " is not exported by module "  # what the detail of a finding rated lower for its module says
MAX_NAMED = 3  # the types a PACKAGE_UNEXPORTED names
MIN_RENAMED_TYPES = 2  # a package rename is named when at least this many types moved by the same simple name


def _owner(f: Finding) -> str:
    return f.id.split("#", 1)[0]


def _package(name: str) -> str:
    return name.rpartition("/")[0]


def _dotted(package: str) -> str:
    return package.replace("/", ".")


def lower_unexported(findings: list[Finding], old: dict[str, str], new: dict[str, str],
                     old_types, new_types=None) -> list[Finding]:
    """`findings` with those about a type whose package the old side's module does not export (the new side's, for
    a type only the new side holds) rated one level lower, the reason appended to the detail (which version's
    module it is, and that the new version exports the package when it does), a PACKAGE_UNEXPORTED for each package
    the new side's module stopped exporting (`withdrawn_exports`) and a PACKAGE_EXPORTED for each it started to
    (`granted_exports`). `old`/`new`: package (internal name) -> the module holding it unexported; `old_types`,
    `new_types`: each side's classes by name."""
    if not old and not new:
        return findings
    out = withdrawn_exports(findings, old, new, old_types) + granted_exports(old, new, new_types or {})
    for f in findings:
        owner = _owner(f)
        if f.kind in ("artifact", "package") or not owner:
            out.append(f)
            continue
        held_old = owner in old_types
        package = _package(owner)
        module = (old if held_old else new).get(package)
        if module is None or f.severity not in LOWER:
            out.append(f)
            continue
        lowered = LOWER[f.severity]
        version = "the old version" if held_old else "the new version"
        now = "; the new version exports it" if held_old and package not in new else ""
        why = (f"package {_dotted(package)}{NOT_EXPORTED}{module} in {version}{now}: no API for module users, "
               f"classpath clients only (rated {lowered}, not {f.severity})")
        out.append(replace(f, detail=f"{f.detail}; {why}" if f.detail else why, rated=lowered))
    return sorted(out, key=Finding.sort_key)


def withdrawn_exports(findings: list[Finding], old: dict[str, str], new: dict[str, str],
                      old_types) -> list[Finding]:
    """PACKAGE_UNEXPORTED (suspicious): each package whose public types the old side let module users read (no old
    module held it unexported: its module exported it to every module, or the old side was no named module, which
    on the module path is an automatic module exporting every package) and that the new side's module holds without
    exporting it to every module (not at all, or only to named modules). A modular client of it compiled against the
    old version throws IllegalAccessError on the new one and no longer compiles; classpath clients are unaffected,
    so it is not breaking. Only for public top-level types the new side keeps (a removed one has its TYPE_REMOVED)."""
    if not new:
        return []
    removed = {f.id for f in findings if f.rule == "TYPE_REMOVED"}
    kept: dict[str, list[str]] = defaultdict(list)
    for name, t in old_types.items():
        package = _package(name)
        if package in new and package not in old and _public_top_level(t) and name not in removed:
            kept[package].append(name)
    before = "its module exported it to every module" if old else \
        "the old version exported every package: an automatic module, or a module exporting them all"
    out = []
    for package, names in sorted(kept.items()):
        detail = (f"module users could read it before ({before}); module {new[package]} does not export it to every "
                  f"module now: a modular client of its {_public_types(names)} compiled against the old version "
                  "throws IllegalAccessError, and no longer compiles; classpath clients are unaffected (rated "
                  "suspicious, not breaking)")
        out.append(Finding("PACKAGE_UNEXPORTED", _dotted(package), "package", "exported",
                           f"not exported by module {new[package]}", detail, package))
    return out


def _public_top_level(t) -> bool:
    """Whether a side's type is one a package's module users name: public, top level, not anonymous or local."""
    return t.level == "public" and t.outer is None and not t.anonymous_or_local


def _public_types(names: list[str]) -> str:
    """`3 public types (a.B, a.C, a.D …)`: the count and the first MAX_NAMED names, sorted."""
    names = sorted(names)
    shown = ", ".join(_dotted(n) for n in names[:MAX_NAMED]) + (" …" if len(names) > MAX_NAMED else "")
    return f"{len(names)} public type{'' if len(names) == 1 else 's'} ({shown})"


def granted_exports(old: dict[str, str], new: dict[str, str], new_types) -> list[Finding]:
    """PACKAGE_EXPORTED (info): each package the old side's module held without exporting it to every module and
    the new side exports (its module does, or the new side is no named module: on the module path an automatic
    module exporting every package), with public top-level types on the new side: module users can now read them.
    The findings about its types stay rated by the old module (lowered), as a client of the old version saw them."""
    public: dict[str, list[str]] = defaultdict(list)
    for name, t in new_types.items():
        package = _package(name)
        if package in old and package not in new and _public_top_level(t):
            public[package].append(name)
    out = []
    for package, names in sorted(public.items()):
        detail = (f"module {old[package]} of the old version did not export it to every module; the new version "
                  f"exports it: module users can now read its {_public_types(names)}")
        out.append(Finding("PACKAGE_EXPORTED", _dotted(package), "package", f"not exported by module {old[package]}",
                           "exported", detail, package))
    return out


def diff_notes(findings: list[Finding], old: dict[str, str], new: dict[str, str]) -> list[dict]:
    """The notes of a diff's answer (`result.notes`, a `note:` line each), in a fixed order: the findings rated lower
    for an unexported package (PACKAGE_NOT_EXPORTED), each package renamed whole (PACKAGE_RENAMED), then the findings
    resting on supertypes neither side holds (UNRESOLVED_SUPERTYPE)."""
    notes = []
    lowered: dict[str, set[str]] = defaultdict(set)
    count: dict[str, int] = defaultdict(int)
    for f in findings:
        # lowered for its module (others are rated lower for reasons of their own: a TYPE_MADE_FINAL no outside
        # class could extend, a GENERIC_SIGNATURE_CHANGED of raw parameters made `?` ones)
        if f.rated and NOT_EXPORTED in f.detail:
            package = _package(_owner(f))
            module = f"{old[package]} (the old version)" if package in old else \
                f"{new.get(package, '')} (the new version)"
            lowered[module].add(package)
            count[module] += 1
    for module, packages in sorted(lowered.items()):
        shown = sorted(packages)
        notes.append({"code": "PACKAGE_NOT_EXPORTED",
                      "message": f"{count[module]} finding{'' if count[module] == 1 else 's'} rated one level lower: "
                                 f"module {module} does not export {', '.join(_dotted(p) for p in shown[:3])}"
                                 + (f" … {len(shown) - 3} more" if len(shown) > 3 else "")
                                 + " (module users cannot reach them; classpath users can)"})
    notes += _renamed_packages(findings)
    notes += _unresolved(findings)
    return notes


def _unresolved(findings: list[Finding]) -> list[dict]:
    """UNRESOLVED_SUPERTYPE: the findings that rest on supertypes neither side holds (each finding's `unresolved`),
    how many of each severity, the first of those types."""
    resting = [f for f in findings if f.unresolved]
    if not resting:
        return []
    types = sorted({_dotted(t) for f in resting for t in f.unresolved})
    by = defaultdict(int)
    for f in resting:
        by[f.severity] += 1
    counts = ", ".join(f"{by[s]} {s}" for s in SEVERITIES if by[s])
    return [{"code": "UNRESOLVED_SUPERTYPE",
             "message": f"{len(resting)} finding{'' if len(resting) == 1 else 's'} ({counts}) rest on supertypes "
                        f"neither side holds ({', '.join(types[:3])}" + (f" … {len(types) - 3} more" if len(types) > 3
                                                                        else "")
                        + "): what they say is gone may still be inherited there (JSON `unresolved`); sides that "
                          "hold those types too (a directory or glob of the jar and its dependencies) settle them"}]


def _renamed_packages(findings: list[Finding]) -> list[dict]:
    """PACKAGE_RENAMED: removed and added types pairing up one to one by their name in the package, the packages
    differing in exactly one segment, at least MIN_RENAMED_TYPES of them for one pair of packages."""
    removed: dict[str, list[str]] = defaultdict(list)
    added: dict[str, list[str]] = defaultdict(list)
    for f in findings:
        if f.rule == "TYPE_REMOVED":
            removed[f.id.rpartition("/")[2]].append(f.id)
        elif f.rule == "TYPE_ADDED" and not f.detail:
            added[f.id.rpartition("/")[2]].append(f.id)
    moves: dict[tuple[str, str], int] = defaultdict(int)
    for simple, gone in removed.items():
        came = added.get(simple, [])
        if len(gone) != 1 or len(came) != 1:
            continue  # no guessing which replaced which (spec §3.3)
        a, b = _package(gone[0]).split("/"), _package(came[0]).split("/")
        if len(a) == len(b) and sum(x != y for x, y in zip(a, b)) == 1:
            moves[(_package(gone[0]), _package(came[0]))] += 1
    return [{"code": "PACKAGE_RENAMED",
             "message": f"package {_dotted(o)} -> {_dotted(n)}: {count} types removed from the one were added to "
                        "the other under the same names (a relocated, shaded or versioned package)"}
            for (o, n), count in sorted(moves.items()) if count >= MIN_RENAMED_TYPES]
