"""The reflection oracle for `jdx diff`: what the JVM's own reflection (getMethods/getFields/getConstructors,
classes loaded without initialisation) sees vanish between two versions, checked against the diff's findings."""

from __future__ import annotations

import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
# the findings that make a public member unreachable through its type (the inherited ones included)
VANISH_RULES = {"MEMBER_REMOVED", "PARAMETER_TYPE_CHANGED", "FIELD_TYPE_CHANGED", "ENUM_CONSTANT_REMOVED",
                "MEMBER_VISIBILITY_NARROWED"}
TYPE_RULES = {"SUPERTYPE_REMOVED", "TYPE_KIND_CHANGED", "TYPE_NO_LONGER_RECORD"}  # a lost supertype


@dataclass
class Reflected:
    public: set[str] = field(default_factory=set)  # binary names loaded, public with every enclosing class
    supertypes: dict[str, list[str]] = field(default_factory=dict)
    members: dict[str, set[str]] = field(default_factory=dict)  # name -> {"m(I)", "f:I", "<init>()"}
    failed: set[str] = field(default_factory=set)


def reflect(java: str, names: list[str], jars: list[str]) -> Reflected:
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("\n".join(names) + "\n")
    proc = subprocess.run([java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", str(HERE / "Reflect.java"),
                           f.name, *jars], capture_output=True, text=True, timeout=600)
    Path(f.name).unlink()
    if proc.returncode != 0:
        raise AssertionError(proc.stderr[-2000:])
    out = Reflected()
    for line in proc.stdout.splitlines():
        kind, name, *rest = line.split("\t")
        if kind == "C":
            if rest[0] == "public":
                out.public.add(name)
            out.supertypes[name] = [s for s in rest[1].split(",") if s] if len(rest) > 1 else []
            out.members.setdefault(name, set())
        elif kind == "M":
            out.members[name].add(rest[0])
        else:
            out.failed.add(name)
    return out


def _member_key(jvm_id: str) -> tuple[str, str]:
    """`com/x/A#m(I)V` -> ("com.x.A", "m(I)"); `com/x/A#f:I` -> ("com.x.A", "f:I")."""
    owner, member = jvm_id.split("#", 1)
    if "(" in member:
        member = member[: member.index(")") + 1]
    return owner.replace("/", "."), member


def check(findings: list[dict], old: Reflected, new: Reflected) -> tuple[list[str], list[str], int, int]:
    """(public members reflection sees vanish that no breaking finding explains, removals the diff reports that
    reflection does not see, removals left unproven because a supertype is outside the artifact, how many members
    reflection saw vanish)."""
    breaking_members: dict[str, set[str]] = {}
    breaking_types: set[str] = set()
    for f in findings:
        # a package its module does not export is rated one level lower (docs/diff.md): still the finding of the
        # removal a classpath client sees
        if f["severity"] != "breaking" and "is not exported by module" not in (f.get("detail") or ""):
            continue
        if "#" in f["id"]:
            owner, key = _member_key(f["id"])
            breaking_members.setdefault(owner, set()).add(key)
        if f["rule"] in TYPE_RULES or f["rule"] in ("TYPE_REMOVED", "TYPE_VISIBILITY_NARROWED"):
            breaking_types.add(f["id"].replace("/", "."))
    compared = (old.public & new.public) - old.failed - new.failed
    unexplained, vanished = [], 0
    for name in sorted(compared):
        for key in sorted(old.members[name] - new.members[name]):
            vanished += 1
            chain = [name] + old.supertypes.get(name, [])
            if any(key in breaking_members.get(t, ()) for t in chain):
                continue
            if any(t in breaking_types for t in chain):
                continue
            unexplained.append(f"{name} {key}")
    unconfirmed, unproven = [], 0
    for f in findings:
        if f["rule"] not in VANISH_RULES or not (f["old"] or "").startswith("public "):
            continue
        owner, key = _member_key(f["id"])
        if owner not in compared:
            continue
        if key in old.members[owner] and key not in new.members[owner]:
            continue
        if "is not in it" in f["detail"]:
            unproven += 1  # the walk could not look into a supertype the artifact lacks: never a downgrade
            continue
        unconfirmed.append(f"{f['rule']} {owner} {key}")
    return unexplained, unconfirmed, unproven, vanished
