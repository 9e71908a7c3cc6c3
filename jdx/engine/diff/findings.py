"""One finding of a diff (spec §7.7): exactly one rule id, its severity, the symbol, both forms and a detail."""

from __future__ import annotations

from dataclasses import dataclass

from jdx.engine.diff.rules import RULES, SEVERITY_RANK, severity_of


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

    def __post_init__(self):
        if self.rule not in RULES:
            raise ValueError(f"unknown diff rule {self.rule}")
        if self.rated and self.rated not in SEVERITY_RANK:
            raise ValueError(f"unknown diff severity {self.rated}")

    @property
    def severity(self) -> str:
        return self.rated or severity_of(self.rule)

    def sort_key(self) -> tuple:
        return (SEVERITY_RANK[self.severity], self.symbol, self.rule, self.detail)

    def to_json(self) -> dict:
        return {"rule": self.rule, "severity": self.severity, "symbol": self.symbol, "kind": self.kind,
                "old": self.old, "new": self.new, "detail": self.detail, "id": self.id}
