"""KOTLIN_* rules of the public-API diff (spec §7.7), over two artifacts' `kotlin` shard tables.

`kotlin_findings(old_rows, new_rows)` takes the rows of the old and new `kotlin` tables (dicts with
owner, kind, name, visibility, flags, detail (JSON text or dict), jvm) and yields one `KotlinFinding` per
change a Kotlin caller can see although the JVM view may not: a JVM rename of one Kotlin declaration
(@JvmName, internal mangling), a suspend flip, nullability, default arguments, parameter names, val→var.
Declarations pair by (class, kind, Kotlin name, the arity a Kotlin caller writes, receiver); an ambiguous
bucket (two declarations of one shape on either side) is never paired (§3.3). The diff engine merges these
with its JVM findings (a JVM `MEMBER_REMOVED` that this reports as `KOTLIN_NAME_CHANGED` is one change).
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

SEVERITY = {
    "KOTLIN_NAME_CHANGED": "BREAKING", "KOTLIN_SUSPEND_CHANGED": "BREAKING",  # the old JVM method is gone
    "KOTLIN_DEFAULT_STUB_REMOVED": "BREAKING",  # the last default gone: so is the `$default` method callers link to
    "KOTLIN_NULLABILITY_CHANGED": "SUSPICIOUS", "KOTLIN_DEFAULT_ARG_REMOVED": "SUSPICIOUS",
    "KOTLIN_PARAMETER_NAME_CHANGED": "SUSPICIOUS", "KOTLIN_DEFAULT_ARG_ADDED": "INFO",
    "KOTLIN_PROPERTY_BECAME_MUTABLE": "INFO",
}


@dataclass(frozen=True, order=True)
class KotlinFinding:
    rule: str
    owner: str  # JVM internal name of the class (or multi-file facade) that declares it
    declaration: str  # the new Kotlin signature
    detail: str

    @property
    def severity(self) -> str:
        return SEVERITY[self.rule]


def _detail(row: dict) -> dict:
    d = row.get("detail") or {}
    return json.loads(d) if isinstance(d, str) else d


def _shape(row: dict) -> tuple:
    """What pairs two declarations: class, kind, Kotlin name, the arity a Kotlin caller writes, receiver."""
    d = _detail(row)
    owner = row.get("facade") or row["owner"]
    arity = len(d.get("parameters") or ())
    receiver = (d.get("receiver") or "").rstrip("?")
    return owner, row["kind"], row["name"], arity, receiver


def _main_jvm(row: dict) -> str | None:
    for role in ("method", "getter", "constructor", "field"):
        for link in row.get("jvm") or ():
            r, _, target = link.partition(":")
            if r == role:
                return target.split("#", 1)[1]
    return None


def _nullable(t: str | None) -> bool:
    return bool(t) and t.endswith("?")


def kotlin_findings(old_rows: Iterable[dict], new_rows: Iterable[dict]) -> Iterator[KotlinFinding]:
    """Findings in a stable order (rule, owner, declaration)."""
    olds: dict[tuple, list[dict]] = defaultdict(list)
    news: dict[tuple, list[dict]] = defaultdict(list)
    for r in old_rows:
        if r["kind"] in ("function", "property", "constructor") and r.get("visibility") in ("public", "protected"):
            olds[_shape(r)].append(r)
    for r in new_rows:
        if r["kind"] in ("function", "property", "constructor") and r.get("visibility") in ("public", "protected"):
            news[_shape(r)].append(r)
    out: list[KotlinFinding] = []
    for shape, before in olds.items():
        after = news.get(shape)
        if not after or len(before) != 1 or len(after) != 1:
            continue  # gone, added, or an ambiguous bucket: never paired
        out.extend(_compare(shape[0], before[0], after[0]))
    yield from sorted(out)


def _compare(owner: str, old: dict, new: dict) -> Iterator[KotlinFinding]:
    sig = new.get("signature") or new["name"]
    od, nd = _detail(old), _detail(new)
    oflags, nflags = set(old.get("flags") or ()), set(new.get("flags") or ())

    def finding(rule: str, text: str) -> KotlinFinding:
        return KotlinFinding(rule, owner, sig, text)

    ojvm, njvm = _main_jvm(old), _main_jvm(new)
    if ("suspend" in oflags) != ("suspend" in nflags):
        yield finding("KOTLIN_SUSPEND_CHANGED", f"{'now' if 'suspend' in nflags else 'no longer'} suspend "
                                                f"(JVM {ojvm} -> {njvm})")
    elif ojvm and njvm and ojvm.split("(")[0].split(":")[0] != njvm.split("(")[0].split(":")[0]:
        yield finding("KOTLIN_NAME_CHANGED", f"JVM name {ojvm.split('(')[0]} -> {njvm.split('(')[0]}")
    oparams, nparams = od.get("parameters") or [], nd.get("parameters") or []
    for i, (a, b) in enumerate(zip(oparams, nparams)):
        if a.get("name") != b.get("name"):
            yield finding("KOTLIN_PARAMETER_NAME_CHANGED", f"parameter {i + 1}: {a.get('name')} -> {b.get('name')}"
                          " (breaks named arguments)")
        if a.get("default") and not b.get("default"):
            yield finding("KOTLIN_DEFAULT_ARG_REMOVED", f"parameter {b.get('name')} lost its default value")
        elif b.get("default") and not a.get("default"):
            yield finding("KOTLIN_DEFAULT_ARG_ADDED", f"parameter {b.get('name')} has a default value")
        if _nullable(a.get("type")) != _nullable(b.get("type")):
            yield finding("KOTLIN_NULLABILITY_CHANGED", f"parameter {b.get('name')}: {a.get('type')} -> "
                                                       f"{b.get('type')}")
    if new["kind"] in ("function", "constructor") and any(p.get("default") for p in oparams) \
            and not any(p.get("default") for p in nparams):
        yield finding("KOTLIN_DEFAULT_STUB_REMOVED", "no parameter has a default value any more: the synthetic "
                      "$default method that callers compiled against the old version call is gone (NoSuchMethodError)")
    oret = od.get("returns") if old["kind"] == "function" else od.get("type")
    nret = nd.get("returns") if new["kind"] == "function" else nd.get("type")
    if old["kind"] != "constructor" and _nullable(oret) != _nullable(nret):
        yield finding("KOTLIN_NULLABILITY_CHANGED", f"{'type' if new['kind'] == 'property' else 'return'}: "
                                                   f"{oret} -> {nret}")
    if new["kind"] == "property" and "var" in nflags and "var" not in oflags:
        yield finding("KOTLIN_PROPERTY_BECAME_MUTABLE", "val -> var")
