"""imports of several names (spec §7.2, §16): one import block for a file that uses them all, each name's own answer
beside it (its notes, or why it has no import: not found, ambiguous, refused), the worst outcome its exit code."""

from __future__ import annotations

from jdx.engine import descriptors as d
from jdx.engine.imports import imports, place_note
from jdx.errors import EXIT_OK, AmbiguousError, NotFoundError, UsageError, Warning_
from jdx.graph_schema.store import GraphStore

ANSWERED = (NotFoundError, AmbiguousError, UsageError)  # a name's own outcome; the rest (no index) is the request's


def imports_block(store: GraphStore, names: list[str]) -> tuple[dict, list[Warning_], int]:
    """(result, warnings, exit code) of several names: `names`, each asked once in the order given (its `imports`
    answer, or its error with candidates); `statements`, the Java import block of them all (`java_block`);
    `kotlin_statements`, the Kotlin one when a name has a Kotlin import; `clashes`, the single-type imports of one
    simple name (javac accepts one of them). The exit code is the worst name's (spec §16)."""
    answers: list[dict] = []
    warnings: list[Warning_] = []
    worst = EXIT_OK
    for name in dict.fromkeys(n.strip() for n in names if n.strip()):
        try:
            answer, found = imports(store, name)
        except ANSWERED as exc:
            answers.append({"name": name, "error": exc.to_json(), "candidates": exc.candidates})
            worst = max(worst, exc.exit_code)
            continue
        answers.append({"name": name, **answer})
        warnings += found
    entries = [e for a in answers for e in a.get("imports", ())]
    result = {"statements": java_block(entries), "names": answers}
    kotlin = sorted({e["statement"] for e in entries if e.get("language") == "kotlin" and _importable(e)})
    if kotlin:
        result["kotlin_statements"] = kotlin
    clashes = _clashes(result["statements"])
    if clashes:
        result["clashes"] = clashes
    return result, warnings, worst


def java_block(entries: list[dict]) -> list[str]:
    """The Java import statements of import entries as a file has them (google-java-format): each once, the static
    ones first, then the others, each group in ASCII order; none for a type no import needs (java.lang's) or none
    can name (the unnamed package's)."""
    statements = {e["statement"] for e in entries if e.get("language") != "kotlin" and _importable(e)
                  and not _needs_none(e)}
    return sorted(statements, key=lambda s: (not s.startswith("import static "), s))


def _importable(entry: dict) -> bool:
    return entry.get("importable", True) and entry["statement"].startswith("import ")


def _needs_none(entry: dict) -> bool:
    """A type no import needs (a top-level java.lang one) or none can name (one of the unnamed package)."""
    ref = entry["ref"].split("#", 1)[0]
    return not entry["statement"].startswith("import static ") and \
        place_note(ref, d.package_of(ref.replace(".", "/"))) is not None


def _clashes(statements: list[str]) -> list[list[str]]:
    """The single-type imports that import one simple name from several places (javac: "a type with the same simple
    name … is already defined by the single-type-import of …"), by simple name."""
    by_simple: dict[str, list[str]] = {}
    for s in statements:
        if not s.startswith("import static "):
            by_simple.setdefault(s.rstrip(";").rsplit(".", 1)[-1], []).append(s)
    return [group for _, group in sorted(by_simple.items()) if len(group) > 1]
