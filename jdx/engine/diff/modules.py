"""What a diff says beyond its findings (spec §7.7, docs/diff.md "Notes"): findings in a package the side's module
does not export (module-info.class, JLS §7.7) rated one level lower, and a hint for a package renamed whole (a
shaded or versioned package: jackson-core's `internal.shaded.fdp.v2_21_2` -> `v2_22_3`).

A named module's unexported package is no API for module users: no module can read it, so no modular client
compiled against it. Classpath clients still can, so a finding there is lowered one level (breaking -> suspicious,
suspicious -> info), never dropped, and its detail says why. A jar's module is its root module-info's: one only
under a multi-release jar's META-INF/versions/N (snakeyaml 2.x over Java 8 classes) makes no module of the base
release, whose classpath clients link to every package (`commands.diff_artifacts.unexported_packages` reads it)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace

from jdx.engine.diff.findings import Finding
from jdx.engine.diff.rules import BREAKING, INFO, SUSPICIOUS, severity_of

LOWER = {BREAKING: SUSPICIOUS, SUSPICIOUS: INFO}
MIN_RENAMED_TYPES = 2  # a package rename is named when at least this many types moved by the same simple name


def _owner(f: Finding) -> str:
    return f.id.split("#", 1)[0]


def _package(name: str) -> str:
    return name.rpartition("/")[0]


def _dotted(package: str) -> str:
    return package.replace("/", ".")


def lower_unexported(findings: list[Finding], old: dict[str, str], new: dict[str, str],
                     old_types) -> list[Finding]:
    """`findings` with those about a type whose package the old side's module does not export (the new side's, for
    a type only the new side holds) rated one level lower, the reason appended to the detail. `old`/`new`: package
    (internal name) -> the module holding it unexported; `old_types`: the old side's class names."""
    if not old and not new:
        return findings
    out = []
    for f in findings:
        owner = _owner(f)
        if f.kind == "artifact" or not owner:
            out.append(f)
            continue
        module = (old if owner in old_types else new).get(_package(owner))
        if module is None or f.severity not in LOWER:
            out.append(f)
            continue
        lowered = LOWER[f.severity]
        why = (f"package {_dotted(_package(owner))} is not exported by module {module}: no API for module users, "
               f"classpath clients only (rated {lowered}, not {f.severity})")
        out.append(replace(f, detail=f"{f.detail}; {why}" if f.detail else why, rated=lowered))
    return sorted(out, key=Finding.sort_key)


def diff_notes(findings: list[Finding], old: dict[str, str], new: dict[str, str]) -> list[dict]:
    """The notes of a diff's answer (`result.notes`, a `note:` line each), in a fixed order: the findings rated lower
    for an unexported package (PACKAGE_NOT_EXPORTED), then each package renamed whole (PACKAGE_RENAMED)."""
    notes = []
    lowered: dict[str, set[str]] = defaultdict(set)
    count: dict[str, int] = defaultdict(int)
    for f in findings:
        # lowered for its module: one level below what it was rated before (its rule's, or the one it was raised
        # to: a TYPE_MADE_FINAL no outside class could extend is rated info, two below, for a reason of its own)
        if f.rated and f.rated == LOWER.get(f.raised or severity_of(f.rule)):
            package = _package(_owner(f))
            module = old.get(package) or new.get(package, "")
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
    return notes


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
