"""What the old side declared a broken symbol to be (spec §7.7, a finding's detail): deprecated (for removal), or
marked by apiguardian's `@API` as INTERNAL, DEPRECATED or EXPERIMENTAL, on the member or on its class. A break of
an API its authors deprecated or kept internal is one an agent judges differently; the rating stands."""

from __future__ import annotations

import re
from dataclasses import replace

from jdx.engine.diff.findings import Finding
from jdx.engine.diff.rules import BREAKING, SUSPICIOUS
from jdx.engine.diff.surface import DEPRECATED_DESC, Surface

API_DESC = "Lorg/apiguardian/api/API;"
OPT_IN_DESC = "Lkotlin/RequiresOptIn;"
_API_STATUS = re.compile(r"status=org\.apiguardian\.api\.API\$Status\.(INTERNAL|DEPRECATED|EXPERIMENTAL)")
_CONSUMERS = re.compile(r"consumers=\{([^}]*)\}")
_ADDED = "_ADDED"  # a rule about what the new side added: the old side has no such symbol
IMPLEMENTORS_ONLY = ("affects classes that implement it: they no longer compile, and calling it on one compiled "
                     "before throws AbstractMethodError; callers of its other methods are unaffected")


def with_api_status(findings: list[Finding], old: Surface) -> list[Finding]:
    """`findings` with the old side's declared status appended to the detail of each breaking or suspicious one."""
    out = []
    for f in findings:
        status = _status(old, f) if f.severity in (BREAKING, SUSPICIOUS) and f.id else None
        if status is None and f.rule == "INTERFACE_METHOD_ADDED" and not f.detail:
            status = IMPLEMENTORS_ONLY
        out.append(replace(f, detail="; ".join(x for x in (f.detail, status) if x)) if status else f)
    return out


def _status(old: Surface, f: Finding) -> str | None:
    owner, _, member = f.id.partition("#")
    t = old.types.get(owner)
    if t is None:
        return None
    if member and not f.rule.endswith(_ADDED):
        m = next((m for m in t.members.values() if (f"{m.name}:{m.descriptor}" if m.is_field else
                                                    m.name + m.descriptor) == member), None)
        said = _said(m.annotations, old) if m is not None else None
        if said:
            return f"the old version declared it {said}"
    said = _said(t.annotations, old)
    if said:
        return f"the old version declared {'its class' if member else 'it'} {said}"
    return None


def _said(annotations: dict[str, str], old: Surface) -> str | None:
    words = []
    text = annotations.get(DEPRECATED_DESC)
    if text is not None:
        words.append("@Deprecated(forRemoval=true)" if "forRemoval=true" in text else "@Deprecated")
    api = _API_STATUS.search(annotations.get(API_DESC) or "")
    if api:
        consumers = _CONSUMERS.search(annotations[API_DESC])
        words.append(f"@API({api.group(1)}" + (f", for {consumers.group(1).replace(chr(34), '')}" if consumers else "")
                     + ")")
    for desc in sorted(annotations):  # a Kotlin opt-in marker: `@InternalCoroutinesApi` (opt-in required, ERROR)
        marker = old.types.get(desc[1:-1]) if desc.startswith("L") and desc.endswith(";") else None
        opt_in = marker.annotations.get(OPT_IN_DESC) if marker is not None else None
        if opt_in is not None:
            level = "ERROR" if "ERROR" in opt_in else "WARNING"
            words.append(f"@{desc[1:-1].rpartition('/')[2].replace('$', '.')} (a Kotlin opt-in marker, level {level}: "
                         "callers had to opt in)")
    return " and ".join(words) or None
