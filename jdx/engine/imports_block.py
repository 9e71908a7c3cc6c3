"""imports of several names (spec §7.2, §16): one import block for a file that uses them all, each name's own answer
beside it (its notes, or why it has no import: not found, ambiguous, refused), the worst outcome its exit code.

The block is Java a file can hold as it is: a statement javac would reject there is commented out with why (a type
another package cannot name, a second import of one simple name)."""

from __future__ import annotations

from jdx.engine import descriptors as d
from jdx.engine.imports import imports, place_note
from jdx.engine.imports_access import add_note
from jdx.errors import EXIT_OK, AmbiguousError, NotFoundError, UsageError, Warning_
from jdx.graph_schema.store import GraphStore

ANSWERED = (NotFoundError, AmbiguousError, UsageError)  # a name's own outcome; the rest (no index) is the request's
UNRESOLVED = "IMPORT_UNRESOLVED"


def imports_block(store: GraphStore, names: list[str]) -> tuple[dict, list[Warning_], int]:
    """(result, warnings, exit code) of several names: `names`, each asked once in the order given (its `imports`
    answer, or its error with candidates; an ambiguity `_tie_break` settles answers with the candidate picked);
    `statements`, the Java import block of them all (`java_block`); `kotlin_statements`, the Kotlin one when a name
    has a Kotlin import; `clashes`, the single-type imports of one simple name (the first asked kept). A name with no
    import is an IMPORT_UNRESOLVED warning (the block is a partial answer); the exit code is the worst name's."""
    asked = list(dict.fromkeys(n.strip() for n in names if n.strip()))
    outcomes: dict[str, tuple[dict, list[Warning_]] | Exception] = {}
    for name in asked:
        try:
            outcomes[name] = imports(store, name)
        except ANSWERED as exc:
            outcomes[name] = exc
    packages = {_package(e["ref"]) for o in outcomes.values() if isinstance(o, tuple) for e in o[0]["imports"]}
    answers: list[dict] = []
    warnings: list[Warning_] = []
    worst = EXIT_OK
    for name in asked:
        outcome = outcomes[name]
        if isinstance(outcome, AmbiguousError):
            outcome = _tie_break(store, name, outcome, packages)
        if isinstance(outcome, Exception):
            answers.append({"name": name, "error": outcome.to_json(), "candidates": outcome.candidates})
            warnings.append(Warning_(UNRESOLVED, f"{name}: {outcome.message} (no import for it in the block)"))
            worst = max(worst, outcome.exit_code)
            continue
        answers.append({"name": name, **outcome[0]})
        warnings += outcome[1]
    entries = [e for a in answers for e in a.get("imports", ())]
    statements, clashes = java_block(entries)
    result = {"statements": statements, "names": answers}
    kotlin = sorted({e["statement"] for e in entries if e.get("language") == "kotlin" and _importable(e)})
    if kotlin:
        result["kotlin_statements"] = kotlin
    if clashes:
        result["clashes"] = clashes
    return result, warnings, worst


def _package(ref: str) -> str:
    """The package of a ref's type (`okhttp3.Call$Factory#create` → okhttp3)."""
    return d.package_of(ref.split("#", 1)[0].replace(".", "/"))


def _tie_break(store: GraphStore, name: str, ambiguity: AmbiguousError,
               packages: set[str]) -> tuple[dict, list[Warning_]] | AmbiguousError:
    """An ambiguous name's answer when exactly one of its candidates is in a package the other names of the call
    resolved into (`Call` beside `OkHttpClient Request`: okhttp3.Call), with a note saying so and the `candidates`
    it was picked of; else the ambiguity."""
    near = [c for c in ambiguity.candidates if c.get("ref") and _package(c["ref"]) in packages]
    if len(near) != 1:
        return ambiguity
    try:
        answer, warnings = imports(store, near[0]["ref"])
    except ANSWERED:
        return ambiguity
    refs = [c["ref"] for c in ambiguity.candidates if c.get("ref")]
    for entry in answer["imports"]:
        add_note(entry, f"picked of {len(refs)} candidates for {name} ({', '.join(refs)}): the only one in package "
                        f"{_package(near[0]['ref'])}, where other names asked with it are")
    return {**answer, "candidates": ambiguity.candidates}, warnings


def java_block(entries: list[dict]) -> tuple[list[str], list[list[str]]]:
    """(block, clashes): the Java import statements of import entries as a file has them (google-java-format): each
    once, the static ones first, then the others, each group in ASCII order; none for a type no import needs
    (java.lang's) or none can name (the unnamed package's). One javac rejects from another package (`restricted`)
    and each single-type import of a simple name an earlier entry imported already (`clashes`: javac "is already
    defined in this compilation unit") are commented out in place, with why."""
    said: dict[str, str] = {}  # statement → why it is commented out ("" when it is not)
    by_simple: dict[str, list[str]] = {}
    statics: dict[str, list[str]] = {}  # a static member's simple name → its imports
    for e in entries:
        s = e["statement"]
        if e.get("language") == "kotlin" or not _importable(e) or _needs_none(e) or s in said:
            continue
        said[s] = e.get("restricted") or ""
        if said[s]:
            continue
        static = s.startswith("import static ")
        group = (statics if static else by_simple).setdefault(s.rstrip(";").rsplit(".", 1)[-1], [])
        if group and not static:
            said[s] = f"clashes with {group[0]} (one simple name): write {_imported(s)} qualified"
        group.append(s)
    lines = [f"// {s}  // {why}" if why else s + _also_static(s, statics) for s, why in said.items()]
    clashes = [group for _, group in sorted(by_simple.items()) if len(group) > 1]
    return sorted(lines, key=_order), clashes


def _also_static(statement: str, statics: dict[str, list[str]]) -> str:
    """The note on a static import whose simple name another class's static import brings in too: javac takes both,
    and a use the two classes' members both fit is ambiguous (`builder()` of DefaultExecutor and ExecuteWatchdog)."""
    if not statement.startswith("import static "):
        return ""
    name = statement.rstrip(";").rsplit(".", 1)[-1]
    others = [_imported(o).removeprefix("static ").rsplit(".", 1)[0] for o in statics.get(name, ()) if o != statement]
    if not others:
        return ""
    owner = _imported(statement).removeprefix("static ").rsplit(".", 1)[0]
    return (f"  // {name} is imported from {', '.join(others)} too: a use both fit is ambiguous (javac); write "
            f"{owner.rsplit('.', 1)[-1]}.{name} there")


def _order(line: str) -> tuple[bool, str]:
    """Where a block line goes: the static imports first, then the others, each group in ASCII order of the imported
    name (google-java-format's, an IDE's), not of the whole line: `a.B;` before `a.B.C;`, as `;` sorts after `.`."""
    statement = _bare(line)
    static = statement.startswith("import static ")
    return not static, _imported(statement).removeprefix("static ")


def _bare(line: str) -> str:
    """A block line's statement, commented out or not."""
    return line.removeprefix("// ").split("  // ", 1)[0]


def _imported(statement: str) -> str:
    return statement.removeprefix("import ").rstrip(";")


def _importable(entry: dict) -> bool:
    return entry.get("importable", True) and entry["statement"].startswith("import ")


def _needs_none(entry: dict) -> bool:
    """A type no import needs (a top-level java.lang one) or none can name (one of the unnamed package)."""
    ref = entry["ref"].split("#", 1)[0]
    return not entry["statement"].startswith("import static ") and \
        place_note(ref, d.package_of(ref.replace(".", "/"))) is not None
