"""`jdx diff OLD NEW` (spec §7.7): the public-API difference of two artifacts, no workspace needed.

Glue between the loaders (artifacts, shards, extraction: `diff_artifacts`) and the comparison engine
(`jdx.engine.diff`): resolve each side, reuse or extract its shards, compare, cut for `--severity`/`--limit`,
set the `--fail-on` gate (exit 1 when it trips, spec §16), and write the findings as Parquet with `--out DIR`.
"""

from __future__ import annotations

import difflib
import gc
import os
import re
from dataclasses import dataclass
from pathlib import Path

from jdx.commands.registry import Command, Request, argument, option
from jdx.engine.diff.rules import DEFAULT_LIMIT, FAIL_ON, RULES, SEVERITY_FILTERS, VISIBILITIES
from jdx.errors import JdxError, UsageError

MAX_DUPLICATE_NAMES = 5
# `group:artifact` without a version (what `jdx diff commons-cli:commons-cli X` gets): no file, no coordinate
_PARTIAL_COORDINATE = re.compile(r"[A-Za-z0-9_.\-]+:[A-Za-z0-9_.\-]+")
_SIDE = "a jar, a class directory, a glob of jars, group:artifact:version from ~/.m2, or jrt:JDK_HOME!MODULE"


def _rule_list() -> str:
    """Every rule id by severity: the one place an agent sees them all (docs/diff.md describes each)."""
    from jdx.engine.diff.rules import SEVERITIES

    return "the rules (docs/diff.md says what each means): " + "; ".join(
        f"{severity}: {', '.join(sorted(r for r, s in RULES.items() if s == severity))}" for severity in SEVERITIES)


def _is_classpath(side: str) -> bool:
    """Whether `side` is a classpath (`a.jar:b.jar`), no path of its own: two or more entries, one naming an archive
    or a path (a Maven coordinate's segments never do)."""
    from jdx.loaders.roots import is_archive

    entries = side.split(os.pathsep)
    if len(entries) < 2 or side.startswith("jrt:") or os.path.exists(os.path.expanduser(side)):
        return False
    return any(is_archive(e) or "/" in e or os.sep in e for e in entries)


@dataclass(frozen=True)
class DiffRequest(Request):
    query: str = argument(f"the old artifact: {_SIDE}", "OLD")
    new: str = argument("the new artifact, in the same forms", "NEW")
    visibility: str = option("public", "--visibility", "public: public and protected API; all: every declared "
                             "member (refactors, mod/mixin work)", choices=VISIBILITIES)
    include_synthetic: bool = option(False, "--include-synthetic", "compare synthetic members and bridges too")
    severity: str = option("all", "--severity", "show findings at least this severe (the tally counts all)",
                           choices=SEVERITY_FILTERS)
    fail_on: str = option("none", "--fail-on", "exit 1 when a finding this severe exists (result.gate)",
                          choices=FAIL_ON)
    grep: str | None = option(None, "--grep", "show only findings whose symbol (up to its parameter list) "
                              "matches this regex (a package, a class: 'com\\.acme\\.api\\.'; the tally counts all)", kind="str", metavar="REGEX")
    rule: tuple[str, ...] = option((), "--rule", "show only findings of this rule id (repeatable: MEMBER_REMOVED, "
                                   "TYPE_ADDED, ...; the tally counts all)", kind="list", metavar="RULE")
    limit: int = option(DEFAULT_LIMIT, "--limit", f"show at most N findings (default {DEFAULT_LIMIT}); the rest "
                        "is counted", kind="int", minimum=0)
    out: str | None = option(None, "--out", "also write every finding to DIR/findings.parquet", kind="str",
                             metavar="DIR", writes=True)

    def asked(self) -> str:
        return f"{self.query} {self.new}"  # both sides (the envelope's `query` named the old one only)

    def validate(self) -> None:
        if self.grep is not None:
            try:
                re.compile(self.grep)
            except re.error as exc:
                raise UsageError(f"--grep {self.grep!r}: not a regular expression ({exc})") from None
        for rule in self.rule:
            if rule.upper() not in RULES:
                close = difflib.get_close_matches(rule.upper(), sorted(RULES), n=3)
                raise UsageError(f"--rule {rule}: no such rule" + (f" (did you mean {', '.join(close)}?)" if close
                                                                   else ""), hint=_rule_list())
        if self.out is not None and os.path.exists(self.out) and not os.path.isdir(self.out):
            raise UsageError(f"--out {self.out}: exists and is not a directory")
        for side in (self.query, self.new):
            if _is_classpath(side):
                raise UsageError(f"{side}: a side is one jar, a class directory or a glob of jars, not a classpath",
                                 hint="put the side's jars in one directory and name it, or name them by a glob "
                                      "('lib/*.jar', quoted)")
            if _PARTIAL_COORDINATE.fullmatch(side) and not side.startswith("jrt:") \
                    and not os.path.exists(os.path.expanduser(side)):
                raise UsageError(f"{side}: a Maven coordinate needs group:artifact:version ({side}:VERSION), "
                                 "or name a jar, a class directory or a glob of jars")


def run_diff(session, request: DiffRequest):
    """Compares the two sides; the answer exits 1 when the `--fail-on` gate trips (`result.gate.failed`)."""
    from jdx.commands.diff_artifacts import (
        load_releases,
        load_sides,
        resolve_side,
        side_warnings,
        unexported_packages,
    )
    from jdx.engine.answer import Answer
    from jdx.engine.diff.api_status import with_api_status
    from jdx.engine.diff.compare import compare
    from jdx.engine.diff.findings import Finding
    from jdx.engine.diff.modules import diff_notes, lower_unexported
    from jdx.engine.diff.releases import release_findings
    from jdx.engine.diff.report import ReportOptions, result_dict
    from jdx.engine.diff.surface import surface_from_compact
    from jdx.engine.diff.visibility import DiffOptions
    from jdx.loaders.roots import HashCache

    cache = session.cache
    hashes = HashCache(cache)
    fetch = (session.options.fetch, session.options.repos)  # --fetch / --repo (spec §13)
    old, new = resolve_side(request.query, hashes, fetch), resolve_side(request.new, hashes, fetch)
    hashes.save()
    # the comparison allocates ~100k short-lived acyclic objects; the cycle collector's passes over them cost
    # a third of it and free nothing
    collecting = gc.isenabled()
    gc.disable()
    try:
        writes = load_sides([old, new], cache)
        try:
            _refuse_unreadable((old, new))
            surfaces = surface_from_compact(old.label, old.surfaces), surface_from_compact(new.label, new.surfaces)
            options, platform = DiffOptions(request.visibility, request.include_synthetic), _platform(cache)
            findings = compare(*surfaces, options, platform=platform)
        finally:
            writes.wait()
        load_releases([old, new], cache)  # a multi-release jar's versioned classes, compared per release
        released = []
        if old.releases or new.releases:
            released = release_findings(
                (old.label, old.surfaces, old.releases), (new.label, new.surfaces, new.releases), findings,
                lambda o, n: compare(o, n, options, platform=platform))
            findings = sorted(findings + released, key=Finding.sort_key)
        hidden = unexported_packages(old), unexported_packages(new)
        findings = with_api_status(lower_unexported(findings, *hidden, surfaces[0].types, surfaces[1].types),
                                   surfaces[0])
    finally:
        if collecting:
            gc.enable()
    warnings = side_warnings([old, new], bool(released)) + _duplicate_warnings((old, new), surfaces)
    if old.artifacts and [a.key for a in old.artifacts] == [a.key for a in new.artifacts]:
        from jdx.errors import Warning_

        warnings.append(Warning_("SAME_ARTIFACT", f"{request.query} and {request.new} have the same content"))
    sides = {"old": old.to_json(), "new": new.to_json(), "visibility": request.visibility,
             "include_synthetic": request.include_synthetic}
    result, truncated = result_dict(findings, ReportOptions(request.severity, request.fail_on, request.limit,
                                                                request.grep, tuple(r.upper() for r in request.rule)),
                                    sides)
    result["notes"] = diff_notes(findings, *hidden)
    if request.out is not None:
        result["out"] = _write_out(request.out, findings)
    provenance = [{"artifact": a.name, "side": label, "origin": "bytecode", "path": a.path}
                  for label, side in (("old", old), ("new", new)) for a in side.artifacts]
    return Answer(result, warnings=warnings, truncated=truncated, provenance=provenance,
                  exit_code=1 if result["gate"]["failed"] else 0)


def _platform(cache):
    """A lookup of a type in the running JDK (its module's diff surface: read from the JDK's cached shard, extracted
    once otherwise): `java.*` in java.base, any other package in the module whose descriptor holds it (jdk.compiler's
    `com.sun.source.util`), made only when the comparison first asks (a supertype neither side holds); None for a
    type of no JDK module, or when the JDK cannot be read."""
    state: dict = {}

    def lookup(name: str):
        module = "java.base" if name.startswith("java/") else _jdk_package_modules(state).get(name.rpartition("/")[0])
        if module is None:
            return None
        if module not in state:
            state[module] = _jdk_module_surface(cache, module)
        surface = state[module]
        return surface.types.get(name) if surface is not None else None

    return lookup


def _jdk_package_modules(state: dict) -> dict[str, str]:
    """Package (internal name) -> the running JDK's module holding it (jdk_modules.package_modules, read once into
    `state`); {} when the JDK cannot be read."""
    if "packages" not in state:
        from jdx.loaders.jdk_modules import package_modules
        from jdx.loaders.jvm import find_java_home
        from jdx.loaders.roots import jdk_modules

        try:
            home = Path(find_java_home().home)
        except (JdxError, OSError):
            home = None
        state["packages"] = package_modules(home, jdk_modules(home)) if home is not None else {}
    return state["packages"]


def _jdk_module_surface(cache, module: str):
    from jdx.commands.diff_artifacts import load_sides, resolve_side
    from jdx.engine.diff.surface import surface_from_compact
    from jdx.loaders.jvm import find_java_home

    try:
        side = resolve_side(f"jrt:{find_java_home().home}!{module}", None)  # a JDK module needs no hash cache
        load_sides([side], cache).wait()
        return surface_from_compact(side.label, side.surfaces)
    except (JdxError, OSError):
        return None


def _refuse_unreadable(sides) -> None:
    """Exit 5 naming the first artifact that could not be read (spec §7.7). A fresh extraction refuses by itself; a
    shard a query's workspace build cached keeps the failure only as a warning, and comparing what could not be read
    would report the other side's every type as added or removed."""
    from jdx.commands.diff_artifacts import unreadable

    for side in sides:
        for w in side.warnings:
            if w.code != "ARTIFACT_READ_ERROR":
                continue
            artifact = next((a for a in side.artifacts if a.name == w.artifact), None)
            if artifact is None:
                raise unreadable(w.message)
            reason = w.message.removeprefix(f"{artifact.name}: ").removeprefix(f"{artifact.spec}: ")
            raise unreadable(f"cannot read {artifact.path}: {reason}")


def _duplicate_warnings(sides, surfaces) -> list:
    from jdx.errors import Warning_

    out = []
    for side, surface in zip(sides, surfaces):
        if surface.duplicates:
            names = ", ".join(surface.duplicates[:MAX_DUPLICATE_NAMES])
            more = len(surface.duplicates) - MAX_DUPLICATE_NAMES
            out.append(Warning_("DUPLICATE_CLASS", f"{side.label}: {len(surface.duplicates)} classes held twice, "
                                f"the first one compared: {names}" + (f" … {more} more" if more > 0 else ""),
                                side.label))
    return out


def _write_out(directory: str, findings) -> dict:
    """`--out DIR`: every finding (no --severity/--limit cut) as DIR/findings.parquet, written atomically."""
    import pyarrow.parquet as pq

    from jdx.engine.diff.report import findings_table

    target = Path(directory)
    target.mkdir(parents=True, exist_ok=True)
    path = target / "findings.parquet"
    tmp = target / f".findings.{os.getpid()}.tmp"
    pq.write_table(findings_table(findings), tmp)
    os.replace(tmp, path)
    return {"path": str(path), "rows": len(findings)}


# global flags a diff uses (spec §7.7: it names its own two artifacts; --cache-dir still says where shards live)
_DIFF_GLOBALS = ("--cache-dir",)


def ignored_flags_warning(words: list[str]) -> dict | None:
    """The WORKSPACE_FLAGS_IGNORED warning (JSON form) for workspace flags given to `jdx diff` (`-w`, `--jars`,
    `--src`, `--sources`, `--coord`, `--project`, `--tests`, `--all-versions`, `--no-jdk`, as the CLI's
    `workspace_words` lists them), None when there are none: a diff reads only its two artifacts, so these change
    nothing, and saying so beats an agent believing `--jars` resolved a supertype."""
    flags: list[str] = []
    skip = False
    for i, word in enumerate(words):
        if skip:
            skip = False
            continue
        if word in _DIFF_GLOBALS:
            skip = True
            continue
        if word.startswith("-") and word not in flags:
            flags.append(word)
            skip = i + 1 < len(words) and not words[i + 1].startswith("-")
    if not flags:
        return None
    return {"code": "WORKSPACE_FLAGS_IGNORED",
            "message": f"{' '.join(flags)}: ignored by diff, which compares its two artifacts alone (no workspace, "
                       "no classpath, spec §7.7); pass what a side needs as part of that side (a directory or a "
                       "glob of jars)"}


def _render(result: dict, req) -> list[str]:
    from jdx.render.diff import diff_fitted

    return diff_fitted(result, bool(getattr(req, "brief", False)), getattr(req, "max_lines", None))[0]


def _cut(result: dict, req) -> dict | None:
    """The `--max-lines` cut of the text (finding rows dropped, header and tally kept); a `--limit` cut alone is
    stated by the text itself, after the rows, so its cut has no hint and the text path adds no line; else None."""
    from jdx.render.diff import diff_fitted

    return diff_fitted(result, bool(getattr(req, "brief", False)), getattr(req, "max_lines", None))[1]


COMMANDS = (
    Command("diff", "The public-API difference of two artifacts, most severe first, one rule id per finding.",
            "jdx diff gson-2.11.0.jar gson-2.14.0.jar --severity breaking", DiffRequest, run_diff, _render, _cut,
            next_hint="members of a changed type (with --jars NEW)", needs_workspace=False, forwarded=False),
)
