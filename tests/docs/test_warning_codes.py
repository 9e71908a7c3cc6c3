"""docs/warnings.md lists every code jdx can put in `error.code`, `warnings[].code` (and a diff's `notes[].code`),
and nothing else (spec §16 "warnings, never silent"). The codes are found by reading jdx/ statically:

- Python: the literal first argument of `Warning_(`, or a module constant it names (`WARNING = "SOURCE_ONLY"`);
  `code = "X"` class attributes (JdxError subclasses); `"code": "X"` dict literals and `"code": ["X"] * n` Arrow
  warning columns; the literal first argument of `WireError(`, `HttpError(` and `MetadataError(`.
- Java (jdx/**/*.java): `chunk.warn("X", …)` / `head.warn("X", …)` of the extractor, and the `warn\tX\t` /
  `error\tX\t` lines of the Maven resolver helper (which jdx/loaders/maven_resolver.py wraps in Warning_).

A `Warning_(` whose first argument is neither a literal nor a module constant must be a known pass-through
(PASS_THROUGH below): a new one fails the test until its codes are found by a rule here or listed in DYNAMIC."""

from __future__ import annotations

import functools
import importlib
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "warnings.md"

CODE = r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*"
WARNING_CALL = re.compile(r"\bWarning_\(\s*([^,)]*)")
CONSTANT = re.compile(rf'^([A-Za-z_][A-Za-z0-9_]*)\s*=\s*"({CODE})"\s*(?:#.*)?$', re.M)
CLASS_ATTRIBUTE = re.compile(rf'^\s+code\s*=\s*"({CODE})"', re.M)
DICT_CODE = re.compile(rf'"code"\s*:\s*\[?\s*"({CODE})"')
ERROR_CALL = re.compile(rf'(?<!class )\b(WireError|HttpError|MetadataError)\(\s*"({CODE})"')
JAVA_WARN = re.compile(rf'\.warn\(\s*"({CODE})"')
JAVA_LINE = re.compile(rf'"(?:warn|error)\\t({CODE})\\t')

# Warning_( calls that re-wrap a code found elsewhere (file, first argument as written up to its first `,` or `)`)
PASS_THROUGH = {
    ("jdx/commands/diff_artifacts.py", "code"),  # a shard's warnings (extractor: Java and Arrow rules)
    ("jdx/commands/diff_artifacts.py", "w.code"),  # MULTI_RELEASE_JAR reworded for a diff
    ("jdx/commands/samples.py", "code"),  # a DecompileError's class code, once per answer
    ("jdx/commands/session.py", "code"),  # several graph warnings of one code folded into one
    ("jdx/commands/execute.py", "first.code"),  # an unreadable class's own build warning, counting the others
    ("jdx/engine/src_body.py", "w.code"),  # the decompiler's DECOMPILED_* notes
    ("jdx/engine/src_special.py", "w.code"),  # the same notes on a lambda body's decompiled lines
    ("jdx/engine/src_body.py", 'code if code.startswith("DECOMPILE"'),  # a DecompileError's class code
    ("jdx/engine/src_source.py", "w.code"),  # the decompiler's DECOMPILED_* notes
    ("jdx/engine/src_source.py", 'getattr(exc'),  # a DecompileError's class code
    ("jdx/loaders/decompile.py", "self.code"),  # DecompileError.warning(): its class code
    ("jdx/loaders/decompile.py", "str(code"),  # DECOMPILED_* notes read back from the decompile cache
    ("jdx/loaders/indexer.py", "code"),  # a shard's warnings (extractor: Java and Arrow rules)
    ("jdx/loaders/indexer.py", "**w"),  # a manifest's stored warnings read back
    ("jdx/loaders/maven_resolver.py", "parts[1]"),  # the helper's warn/error lines (JAVA_LINE rule)
}
# codes built at run time from parts, with where: none today (add "CODE": "file: how" when one is)
DYNAMIC: dict[str, str] = {}
# JdxError subclasses jdx always catches and turns into warnings (jdx/loaders/decompile.py DecompileError, caught in
# jdx/engine/src_body.py and src_source.py): documented as warnings, never as an `error.code`
CAUGHT_AS_WARNINGS = {"DECOMPILE_FAILED", "DECOMPILE_TIMEOUT", "DECOMPILER_UNAVAILABLE"}


def _sources(suffix: str):
    for path in sorted((ROOT / "jdx").rglob(f"*{suffix}")):
        yield path.relative_to(ROOT).as_posix(), path.read_text(encoding="utf-8")


@functools.cache
def scan() -> dict:
    """{"warning": {code: [where]}, "error": {code: ["file WireError|HttpError"]}, "class": {code: [file]},
    "unknown": [(file, arg)], "modules": {modules with a `code = ...` class attribute}}."""
    found = {"warning": {}, "error": {}, "class": {}, "unknown": [], "modules": set()}

    def add(kind, code, where):
        found[kind].setdefault(code, []).append(where)

    for rel, text in _sources(".py"):
        constants = dict(CONSTANT.findall(text))
        for m in WARNING_CALL.finditer(text):
            arg = m.group(1).strip()
            literal = re.fullmatch(rf'"({CODE})"', arg)
            if literal:
                add("warning", literal.group(1), rel)
            elif arg in constants:
                add("warning", constants[arg], rel)
            elif (rel, arg) not in PASS_THROUGH:
                found["unknown"].append((rel, arg))
        for code in DICT_CODE.findall(text):
            add("warning", code, rel)
        for cls, code in ERROR_CALL.findall(text):
            add("warning" if cls == "MetadataError" else "error", code, f"{rel} {cls}")
        for code in CLASS_ATTRIBUTE.findall(text):
            add("class", code, rel)
            found["modules"].add(rel[:-3].replace("/", "."))
    for rel, text in _sources(".java"):
        for code in JAVA_WARN.findall(text) + JAVA_LINE.findall(text):
            add("warning", code, rel)
    for code, where in DYNAMIC.items():
        add("warning", code, where)
    return found


def documented() -> dict[str, dict[str, str]]:
    """{section: {code: exit column or ""}}: the first-column codes of each `## ` section's table."""
    out: dict[str, dict[str, str]] = {}
    section = None
    for line in DOC.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            section = line[3:].split(" (")[0].strip()
            out[section] = {}
        elif section and (m := re.match(rf"\|({CODE})\|([^|]*)\|", line)):
            assert m.group(1) not in out[section], f"{m.group(1)} twice in {section}"
            out[section][m.group(1)] = m.group(2).strip()
    return out


def test_every_warning_call_is_understood():
    unknown = scan()["unknown"]
    assert not unknown, ("Warning_( with a first argument the scan cannot read: pass a literal code, or add the site "
                         f"to PASS_THROUGH (re-wrapping a code found elsewhere) or its codes to DYNAMIC: {unknown}")


def test_every_emitted_code_is_documented():
    found, doc = scan(), documented()
    errors, warnings = doc["Error codes"], doc["Warning codes"]
    notes = doc.get("Diff notes", {})
    everything = set(errors) | set(warnings) | set(notes)
    missing = {c: w for kind in ("warning", "error", "class") for c, w in found[kind].items() if c not in everything}
    assert not missing, f"codes jdx emits that docs/warnings.md lacks: {missing}"
    for code, where in found["warning"].items():
        assert code in warnings or code in notes, f"{code} ({where}) is a warning: document it in Warning codes"
    for code, where in {**found["error"], **found["class"]}.items():
        if code not in CAUGHT_AS_WARNINGS:
            assert code in errors, f"{code} ({where}) is an error code: document it in Error codes"


def test_every_documented_code_is_emitted():
    found, doc = scan(), documented()
    emitted = set(found["warning"]) | set(found["error"]) | set(found["class"])
    stale = {section: sorted(set(codes) - emitted) for section, codes in doc.items() if set(codes) - emitted}
    assert not stale, f"docs/warnings.md documents codes nothing in jdx/ emits: {stale}"
    assert set(doc["Warning codes"]) - set(found["warning"]) <= CAUGHT_AS_WARNINGS


def test_sections_are_alphabetical():
    for section, codes in documented().items():
        assert list(codes) == sorted(codes), f"{section} is not in alphabetical order"


def test_error_exit_codes_match_the_classes():
    from jdx.commands.wire import WireError
    from jdx.errors import JdxError
    from jdx.http.server import HttpError

    found = scan()
    for module in sorted(found["modules"]):
        importlib.import_module(module)
    exits: dict[str, set[int]] = {}
    pending = [JdxError]
    while pending:
        cls = pending.pop()
        if "code" in vars(cls):
            exits.setdefault(cls.code, set()).add(cls.exit_code)
        pending.extend(cls.__subclasses__())
    refusals = {"WireError": WireError, "HttpError": HttpError}
    for code, where in found["error"].items():
        exits.setdefault(code, set()).update(refusals[w.rsplit(" ", 1)[1]].exit_code for w in where)
    assert set(found["class"]) <= set(exits), "a `code = ...` class attribute outside a JdxError subclass"
    errors = documented()["Error codes"]
    for code, column in errors.items():
        assert code in exits, f"{code} is in the error table but no JdxError/WireError/HttpError carries it"
        assert len(exits[code]) == 1, f"{code} maps to several exit codes: {exits[code]}"
        assert column == str(next(iter(exits[code]))), f"{code}: the table says exit {column}, the class {exits[code]}"


def test_the_scan_finds_the_known_shapes():
    """Each extraction rule still finds what it was written for (a rule broken by a refactor fails here)."""
    found = scan()
    for code in ("NO_SOURCES", "SOURCE_ONLY", "SOURCES_NOT_COMPILED", "COORDINATE_ADDED", "MISPLACED_CLASS",
                 "KOTLIN_METADATA_CORRUPT", "ZIP_BOMB", "RESOLVE_TIMEOUT", "PACKAGE_RENAMED"):
        assert code in found["warning"], code
    for code in ("WIRE_JSON", "UNKNOWN_PATH"):
        assert code in found["error"], code
    for code in ("NOT_FOUND", "DAEMON_RUNNING", "JAVAP_FAILED", "DECOMPILE_TIMEOUT"):
        assert code in found["class"], code
