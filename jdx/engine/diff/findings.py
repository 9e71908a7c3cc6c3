"""One finding of a diff (spec §7.7): exactly one rule id, its severity, the symbol, both forms and a detail."""

from __future__ import annotations

from dataclasses import dataclass, replace

from jdx.engine.diff.rules import RULES, SEVERITY_RANK, SUSPICIOUS, severity_of

# a TYPE_/MEMBER_VISIBILITY_NARROWED whose JVM access stays public or protected: only the Kotlin metadata narrowed
# it (made `internal`): compiled callers, Kotlin or Java, still link and run, recompiled Kotlin sources do not
KOTLIN_ONLY_NARROWED = " (Kotlin metadata; still public on the JVM)"
KOTLIN_ONLY_WHY = ("; compiled callers still link, Kotlin sources outside the module no longer compile "
                   "(rated suspicious, not breaking)")
# `@kotlin.Deprecated(level = ERROR)` added, or its level raised to ERROR: Kotlin sources using it stop compiling
# ("using ... is an error"), compiled callers still link (HIDDEN makes the member synthetic: MEMBER_MADE_SYNTHETIC)
DEPRECATION_ERROR = "kotlin.DeprecationLevel.ERROR"
ERROR_WHY = ("; level ERROR: Kotlin sources using it no longer compile, compiled callers still link "
             "(rated suspicious, not info)")


@dataclass(frozen=True)
class Finding:
    rule: str
    symbol: str  # canonical reference (spec §6) of the type or member on the old side (the new one when added)
    kind: str  # class | interface | enum | record | annotation | method | constructor | field
    old: str | None = None  # declaration form on the old side, None when absent
    new: str | None = None
    detail: str = ""
    id: str = ""  # JVM identity on the old side (new when added): `com/x/A`, `com/x/A#m(I)V`, `com/x/A#f:I`
    # a severity below the rule's, for a reason the detail states (a package its module does not export: modules.py)
    rated: str = ""
    # a severity above the rule's, the reason appended to the detail: what the Kotlin view makes of a finding (a
    # narrowing only the Kotlin metadata shows, a deprecation raised to ERROR: `kotlin_rerated`), a checked exception
    # removed from `throws` (members._throws_removed); outranked by `rated`
    raised: str = ""
    # the supertypes neither side holds that the finding rests on (internal names): a member or supertype the new
    # side lacks may still be inherited through them; the rating stands (spec §7.7: never downgraded on a maybe)
    unresolved: tuple[str, ...] = ()

    def __post_init__(self):
        if self.rule not in RULES:
            raise ValueError(f"unknown diff rule {self.rule}")
        for rated in (self.rated, self.raised):
            if rated and rated not in SEVERITY_RANK:
                raise ValueError(f"unknown diff severity {rated}")

    @property
    def severity(self) -> str:
        return self.rated or self.raised or severity_of(self.rule)

    def sort_key(self) -> tuple:
        return (SEVERITY_RANK[self.severity], self.symbol, self.rule, self.detail)

    def to_json(self) -> dict:
        out = {"rule": self.rule, "severity": self.severity, "symbol": self.symbol, "kind": self.kind,
               "old": self.old, "new": self.new, "detail": self.detail, "id": self.id}
        if self.unresolved:
            out["unresolved"] = [n.replace("/", ".") for n in self.unresolved]
        return out


def kotlin_rerated(finding: Finding, why: str) -> Finding:
    """`finding` rated suspicious by the Kotlin view, `why` (KOTLIN_ONLY_WHY, ERROR_WHY) appended to its detail."""
    return replace(finding, raised=SUSPICIOUS, detail=finding.detail + why)
