"""Running a registry command: request in, `--json` envelope out; the text form rendered from that envelope.

Every adapter ends here: the CLI in process, `batch`, the daemon (and MCP/HTTP). Errors become failure
envelopes in this one place; text is rendered from the JSON-decoded envelope, so an in-process answer and
a daemon's answer print the same bytes.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass
from typing import Any

from jdx.commands.registry import Command, build_request, command, wire_commands
from jdx.engine import picked_names
from jdx.errors import EXIT_INTERNAL, JdxError, UsageError, Warning_
from jdx.render import envelope


@dataclass
class Outcome:
    envelope: dict
    exit_code: int
    request: Any = None  # the typed request, None when the line could not be understood


def run_request(session, cmd: Command, request) -> Outcome:
    """One answer as an envelope; a JdxError becomes a failure envelope, anything else INTERNAL (exit 6).
    Every envelope of a workspace command, error or not, carries the workspace's warnings (spec §16)."""
    try:
        if cmd.needs_workspace:
            from jdx.engine.refs import artifact_prefixes

            session.begin_request()
            from jdx.engine.descriptors import literal_dollars
            from jdx.engine.resolve import artifact_ref_prefixes, literal_dollar_names

            session.check_roots()
            scope = contextlib.ExitStack()
            scope.enter_context(artifact_prefixes(lambda: artifact_ref_prefixes(session.store())))
            scope.enter_context(literal_dollars(lambda: literal_dollar_names(session.store())))
        else:
            scope = contextlib.nullcontext()
        with scope, picked_names.collecting() as picked:
            answer = cmd.run(session, request)
        answer.warnings = answer.warnings + [Warning_("NAME_PICKED", note) for note in picked]
        if cmd.needs_workspace:
            # a command that already warned in a family (KOTLIN_VIEW_UNAVAILABLE) is not told the same again
            own = {w.code.split("_", 1)[0] for w in answer.warnings}
            about = [w for w in _subject_warnings(session, answer.result) if w.code.split("_", 1)[0] not in own]
            if not answer.anywhere:
                about += session.artifact_warnings(*_provenance_subjects(answer.provenance))
            answer.warnings = _subject_named(_merged(session.workspace_warnings(), answer.warnings, about), about,
                                             session)
        return Outcome(envelope.success(cmd.name, request.asked(), answer), answer.exit_code, request)
    except JdxError as exc:
        if cmd.needs_workspace:
            exc = _not_found_in_unread(session, _not_found_unreadable_class(session, exc, request.query))
            exc = _not_found_without_project(session, exc, request.query)
            exc = _not_found_outside_tests(session, exc, request.query)
            exc = _not_found_in_versions(session, exc, request.query)
            exc.warnings = _subject_named(_merged(_safe_workspace_warnings(session), exc.warnings), exc.warnings,
                                          session)
        return Outcome(envelope.failure(cmd.name, request.asked(), exc), exc.exit_code, request)
    except Exception as exc:  # noqa: BLE001 - the one place an unexpected failure becomes exit 6
        if os.environ.get("JDX_DEBUG"):
            raise
        return Outcome(envelope.failure(cmd.name, request.asked(), internal_error(exc)), EXIT_INTERNAL, request)


def _provenance_subjects(provenance: list) -> tuple[set[str], dict[str, set[str]]]:
    """The artifacts an answer was drawn from, and per artifact the classes its provenance names (a member's
    declaring class)."""
    subjects: dict[str, set[str]] = {}
    for p in provenance:
        if isinstance(p, dict) and p.get("artifact"):
            names = subjects.setdefault(p["artifact"], set())
            if p.get("symbol"):
                names.add(str(p["symbol"]).split("#", 1)[0].split("<", 1)[0])
    return set(subjects), subjects


def _not_found_without_project(session, exc: JdxError, query: str) -> JdxError:
    """A name not found in the default workspace (no flags, no named workspace, no project discovered: the JDK
    alone) says so: the agent may be in a subdirectory of its project, or in none."""
    from jdx.errors import NotFoundError

    try:
        selection = session.selection()
    except Exception:  # noqa: BLE001 - the hint only
        return exc
    if not isinstance(exc, NotFoundError) or not selection.discover or selection.spec.project \
            or query.startswith(("java.", "javax.", "jdk.", "sun.", "com.sun.")):
        return exc
    note = ("no project was discovered from the current directory or above (no pom.xml, build.gradle, .idea; "
            "a plain project's jars and classes only at its own root): the workspace is the JDK alone; run from the "
            "project's root, or pass --project DIR, --jars or --coord")
    exc.hint = f"{exc.hint}; {note}" if exc.hint else note
    return exc


# where a build writes its compiled test classes: Maven's, Gradle's (per language), at the root and one module down
_TEST_CLASSES = ("target/test-classes", "build/classes/*/test", "*/target/test-classes", "*/build/classes/*/test")


def _not_found_outside_tests(session, exc: JdxError, query: str) -> JdxError:
    """A name not found in a project's workspace, which leaves its test code out unless `--tests`: says so, naming the
    compiled test class when one of the project's test class directories holds it (T64: `jdx show org.junit.Assert`
    and a project's own test class were a bare not-found from `core`)."""
    from jdx.errors import NotFoundError

    try:
        selection = session.selection()
    except Exception:  # noqa: BLE001 - the hint only
        return exc
    if not isinstance(exc, NotFoundError) or not selection.spec.project or selection.spec.tests \
            or session.options.tests or query.startswith(("java.", "javax.", "jdk.", "sun.", "com.sun.")):
        return exc
    from pathlib import Path

    path = query.split("#", 1)[0].split("(", 1)[0].strip().replace(".", "/") + ".class"
    root = Path(selection.spec.project)
    held = next((p for pattern in _TEST_CLASSES for p in sorted(root.glob(f"{pattern}/{path}"))), None) \
        if "/" in path and "*" not in path else None
    if held is None and _main_declares(session, exc, query):
        return exc
    note = (f"{held.relative_to(root)} is a compiled test class: --tests adds the test classes and test-scoped "
            "dependencies" if held else "the workspace leaves test code out: --tests adds the test classes and "
            "test-scoped dependencies (JUnit, ...)")
    exc.hint = f"{exc.hint}; {note}" if exc.hint else note
    return exc


def _main_declares(session, exc: JdxError, query: str) -> bool:
    """Whether the workspace's main code declares what a miss names, so test code cannot be where it is: main source
    files declare the type (`unbuilt_sources.explained`: not compiled yet), or the member miss is of a type the graph
    has (test code adds no members to it: the member is not compiled yet, or misspelt)."""
    from jdx.engine.refs import parse_ref
    from jdx.engine.resolve import lookup_type
    from jdx.engine.unbuilt_sources import explained

    if explained(exc):
        files = [exc.result["declared_in"]] if "declared_in" in exc.result else exc.result["declared_in_files"]
        return not any("src/test/" in f"/{f['file']}" for f in files)
    try:
        store = session.store()
        return any(r.member is not None and lookup_type(store, r, query) is not None
                   for r in parse_ref(query).alternatives())
    except Exception:  # noqa: BLE001 - the hint only: an unparsable query, several types of the name
        return False


def _not_found_in_unread(session, exc: JdxError) -> JdxError:
    """Not found in a workspace with an artifact that could not be read at all is an artifact error (exit 5) that
    names it: the symbol may be in it, and exit 1 would say it is nowhere (spec §16)."""
    from jdx.errors import ArtifactReadError, NotFoundError

    if not isinstance(exc, NotFoundError):
        return exc
    try:
        unread = session.unread_artifacts()
    except JdxError:
        return exc
    if not unread:
        return exc
    return ArtifactReadError(f"{exc.message}; {', '.join(unread)} could not be read, so it may be there",
                             candidates=exc.candidates, warnings=exc.warnings,
                             hint="fix or drop the artifact (jdx index --json says why it could not be read)")


def _not_found_unreadable_class(session, exc: JdxError, query: str) -> JdxError:
    """Not found, and the class file the reference names is one the index could not read (CORRUPT_CLASS,
    UNSUPPORTED_CLASS_VERSION, a ZIP_BOMB skip of an oversized class file): an artifact error (exit 5) saying only
    that, not "nowhere" (exit 1) nor "not compiled" (a source file declaring it), with a hint for a class directory
    (recompile) or a jar."""
    from jdx.engine.unbuilt_sources import explained
    from jdx.errors import ArtifactReadError, NotFoundError

    if not isinstance(exc, NotFoundError) or not query:
        return exc
    for w in _unread_class_warnings(session, query)[:1]:
        named = query if explained(exc) else exc.message.removeprefix("not found: ")
        return ArtifactReadError(f"{named}: the class file is there but could not be read ({w.code}: {w.message})",
                                 candidates=[] if explained(exc) else exc.candidates, warnings=[w, *exc.warnings],
                                 hint=_unreadable_class_hint(session, w))
    return exc


def _unread_class_warnings(session, text: str) -> list:
    """The build's warnings that the class file a reference names (any reading of its type part) could not be read:
    CORRUPT_CLASS, UNSUPPORTED_CLASS_VERSION, a ZIP_BOMB skip of an oversized class file. [] when there are none, or
    the reference cannot be read."""
    from jdx.engine.refs import parse_ref

    try:
        entries = {f"{fqn.replace('.', '/')}.class" for fqn in parse_ref(text.split("<", 1)[0]).type_candidates()}
        # every warning of the build, not the per-code summary of workspace_warnings (it names only the first)
        warnings = session.graph_warnings() or session.workspace_warnings()
    except Exception:  # noqa: BLE001 - an unparsable reference or an unreadable workspace: none known
        return []
    return [w for w in warnings if _unreadable(w) and _entry_of(w.message) in entries]


def _unreadable(warning) -> bool:
    """A build warning that one class file could not be read."""
    skipped = warning.code == "ZIP_BOMB" and "class file larger than" in warning.message  # over the per-entry cap
    return warning.code in ("CORRUPT_CLASS", "UNSUPPORTED_CLASS_VERSION") or skipped


def _subject_named(warnings: list, subject: list, session) -> list:
    """`warnings` with each code the answer's subject has a class warning of (`subject`: the class asked about could
    not be read) said once, by that warning, rather than by the workspace's summary of the code, which names the
    build's first (another class's) file; how many more of the code there are is counted after it."""
    own = {}
    for w in subject:
        if _unreadable(w):
            own.setdefault(w.code, w)
    if not own:
        return warnings
    try:
        every = session.graph_warnings()
    except Exception:  # noqa: BLE001 - the count only
        every = []
    out, said = [], set()
    for w in warnings:
        first = own.get(w.code)
        if first is None:
            out.append(w)
        elif w.code not in said:
            said.add(w.code)
            more = sum(1 for x in every if x.code == w.code) - 1
            out.append(first if more <= 0 else Warning_(first.code, f"{first.message} ({more} more of this kind: "
                                                        "jdx index --json lists them all)", first.artifact))
    return out


def _not_found_in_versions(session, exc: JdxError, query: str) -> JdxError:
    """Not found, and a multi-release jar of the workspace holds the class only under `META-INF/versions/N/`,
    which jdx does not read (base entries only; MULTI_RELEASE_JAR): the answer says so, naming the entry, instead
    of a bare not-found. Only jars the build flagged MULTI_RELEASE_JAR are opened (their entry list alone)."""
    from jdx.engine.refs import parse_ref
    from jdx.errors import NotFoundError, Warning_
    from jdx.loaders.class_files import versioned_entries

    if not isinstance(exc, NotFoundError) or not query:
        return exc
    try:
        flagged = {w.artifact for w in session.graph_warnings() if w.code == "MULTI_RELEASE_JAR"}
        if not flagged:
            return exc
        wanted = {f"{fqn.replace('.', '/')}.class": fqn
                  for fqn in parse_ref(query.split("<", 1)[0]).type_candidates()}
        jars = [a for a in session.artifacts() if a.name in flagged and a.kind == "jar"]
    except Exception:  # noqa: BLE001 - an unparsable query or an unreadable workspace: the plain not-found stands
        return exc
    found = []
    for jar in jars:
        for entry, releases in versioned_entries(jar.path, set(wanted)).items():
            where = " and ".join(f"META-INF/versions/{n}/" for n in releases)
            found.append(Warning_("MULTI_RELEASE_JAR", f"{wanted[entry]} is only in {where} of {jar.name}, which jdx "
                                  "does not read (a multi-release jar's base entries are read; the JVM of that release "
                                  "loads the versioned class)", jar.name))
    if found:
        exc.warnings = _merged(exc.warnings, found)
    return exc


def _entry_of(message: str) -> str:
    """`app/Junk.class` of a class warning `<artifact>: <entry>: <why>` (a multi-release entry's version dropped)."""
    import re

    entry = message.split(": ", 2)[1] if message.count(": ") >= 2 else ""
    return re.sub(r"^META-INF/versions/\d+/", "", entry)


def _unreadable_class_hint(session, warning) -> str:
    """What to do about an unreadable class file: recompile it in a class directory, replace a jar."""
    try:
        artifact = next((a for a in session.artifacts() if a.name == warning.artifact), None)
    except Exception:  # noqa: BLE001 - the hint only: without the artifact it speaks of a jar
        artifact = None
    if artifact is None or artifact.kind != "dir":
        return "the jar is damaged or newer than jdx reads it (javap -v says more)"
    file = os.path.join(artifact.path, _entry_of(warning.message))
    if warning.code == "UNSUPPORTED_CLASS_VERSION":
        return f"{file} is compiled for a newer Java than jdx reads: recompile it with an older --release"
    return f"{file} is damaged: recompile it (javap -v says more)"


def _merged(*groups) -> list:
    """Warnings in order, each (code, message) once."""
    seen, out = set(), []
    for group in groups:
        for w in group:
            if (w.code, w.message) not in seen:
                seen.add((w.code, w.message))
                out.append(w)
    return out


def _safe_workspace_warnings(session) -> list:
    try:
        return session.workspace_warnings()
    except JdxError:
        return []


def _subject_warnings(session, result) -> list:
    """DUPLICATE_CLASS and the class's own build warnings for the class an answer is about, and DUPLICATE_CLASS for
    every other class it is built on: the declaring class of each member or doc it lists (a supertype's inherited
    members), each type candidate of `resolve`."""
    if not isinstance(result, dict):
        return []
    subject = next((result[k] for k in ("ref", "type", "symbol", "owner") if isinstance(result.get(k), str)), None)
    used = [e.get(k) for key in ("members", "docs", "candidates") for e in result.get(key) or ()
            if isinstance(e, dict) for k in ("declaring", "ref") if isinstance(e.get(k), str)]
    out = session.class_warnings(_fqn(subject)) + _unread_class_warnings(session, _fqn(subject)) if subject else []
    for fqn in dict.fromkeys(_fqn(s) for s in [subject, *used] if s):
        if session.is_duplicated(fqn):
            from jdx.engine.imports import duplicate_class_warnings

            out += duplicate_class_warnings(session.store(), fqn)
    return out


def _fqn(ref: str) -> str:
    return ref.split("#", 1)[0].split("(", 1)[0].rsplit("/", 1)[-1]  # a shadowed copy's `g:a:v/` prefix dropped


def internal_error(exc: BaseException) -> JdxError:
    return JdxError(f"internal error: {type(exc).__name__}: {exc}".splitlines()[0],
                    hint="re-run with JDX_DEBUG=1 for a traceback")


def answer_request(session, name: str, query: str, params: dict[str, Any]) -> Outcome:
    """A wire request (command name, query, canonical params) answered on `session`."""
    if name == "health":
        from jdx.engine.answer import Answer

        return Outcome(envelope.success("health", "", Answer({"status": "ok"})), 0)
    cmd = command(name) if name in wire_commands() else None
    if cmd is None:
        return failure(name, query, UsageError(f"unknown command {name!r}"))
    try:
        request = build_request(cmd, query, params)
    except JdxError as exc:
        return failure(name, query, exc)
    return run_request(session, cmd, request)


def served(execute):
    """`execute(command, query, params) -> envelope` as MCP and HTTP call it: a request naming a field that writes
    files where the caller says (`diff --out`) is refused, whoever reached the server (spec §17)."""
    from jdx.commands.registry import refuse_writes

    def run(name: str, query: str, params: dict) -> dict:
        cmd = command(name)
        if cmd is not None:
            try:
                refuse_writes(cmd, params)
            except UsageError as exc:
                return failure(name, query, exc).envelope
        return execute(name, query, params)

    return run


def failure(name: str, query: str, exc: JdxError) -> Outcome:
    return Outcome(envelope.failure(name, query, exc), exc.exit_code)


def text_of(env: dict, cmd: Command | None, request) -> tuple[str, str]:
    """(text, "stdout"|"stderr") of a JSON-decoded envelope: the renderer's lines, the explicit cut, warnings."""
    if not env.get("ok"):
        return "\n".join(envelope.error_lines(env)), envelope.error_stream(env)
    result = env.get("result") or {}
    lines = cmd.render(result, request) if cmd is not None else []
    own_cut = cmd is not None and cmd.truncation is not None
    cut = (cmd.truncation(result, request) if own_cut else None) or env.get("truncated")  # a renderer's own cut,
    # else the answer's (a `--limit` cut the renderer does not restate)
    limit_cut = cut if cut and cut.get("hint") else None
    if not own_cut and request is not None:
        capped = cap_lines(lines, getattr(request, "max_lines", None), limit_cut)
        limit_cut = None if capped is not lines else limit_cut  # (the budget's line states both cuts)
        lines = capped
    if limit_cut:
        lines.append(f"… {limit_cut['shown']} of {limit_cut['total']} shown ({limit_cut['hint']})")
    prefix = cmd.comment if cmd is not None else ""  # code to paste: the warnings in its comment syntax
    lines.extend(prefix + line for line in envelope.warning_lines_json(env.get("warnings") or [],
                                                                       fold_resolution=True))
    return "\n".join(lines), "stdout"


def cap_lines(lines: list[str], max_lines: int | None, limited: dict | None = None) -> list[str]:
    """The generic `--max-lines` budget (spec §8.3) for renderers without their own, stated (`lines` itself when it
    fits). An element of `lines` may hold several text lines (a usage with its `--context` lines): it is one entity,
    kept whole or dropped whole ("never cut mid-entity"); the first one is kept whole even past the budget.
    `limited`: the answer's `--limit` cut too, stated on the same line (`--max-lines` alone shows those results)."""
    total = sum(line.count("\n") + 1 for line in lines)
    if not max_lines or total <= max_lines:
        return lines
    kept: list[str] = []
    shown = 0
    for line in lines:
        height = line.count("\n") + 1
        if kept and shown + height > max_lines:
            break
        kept.append(line)
        shown += height
    if limited:
        return kept + [f"… {shown} of {total} lines shown, of {limited['shown']} of {limited['total']} results "
                       f"(--max-lines {total} shows those {limited['shown']}; {limited['hint']})"]
    return kept + [f"… {shown} of {total} lines shown (--max-lines {total} for all)"]
