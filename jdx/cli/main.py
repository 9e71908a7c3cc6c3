"""The `jdx` command line: global flags anywhere; registry commands answered by a daemon or in process.

A query command (one of the registry's) is parsed from the registry alone, sent to the workspace's daemon
when one runs (spawning it on first use, spec §14.1), and answered in process when there is none, it is
unreachable or it dies mid-query; the printed bytes are the same either way. Management commands (`index`,
`ws`, `cache`, `daemon`, `export`, `bench`, `batch`) and every `--help` go through typer. Errors become exit
codes here and in `jdx.commands.execute` only.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field

from jdx.errors import EXIT_INTERNAL, EXIT_USAGE, JdxError, TimeoutExceeded, UsageError

VALUE_FLAGS = {"-w": "workspace", "--workspace": "workspace", "--jars": "jars", "--src": "src",
               "--sources": "sources", "--cache-dir": "cache_dir", "--timeout": "timeout", "--coord": "coords",
               "--project": "project", "--repo": "repos"}
BOOL_FLAGS = {"--json": ("json", True), "--no-color": ("no_color", True), "--jdk": ("jdk", True),
              "--no-jdk": ("jdk", False), "-q": ("quiet", True), "--quiet": ("quiet", True),
              "-v": ("verbose", True), "--verbose": ("verbose", True), "--no-daemon": ("no_daemon", True),
              "--tests": ("tests", True), "--all-versions": ("all_versions", True), "--fetch": ("fetch", True)}
GLOBAL_HELP = (
    ("-w, --workspace NAME", "use a named workspace"),
    ("--jars PATH|GLOB|DIR", "add binary roots (repeatable; a classpath a.jar:b.jar too)"),
    ("--src DIR", "add source roots (repeatable)"),
    ("--sources JAR|DIR", "pair a sources jar or directory explicitly (repeatable)"),
    ("--coord G:A:V", "add a Maven artifact and its runtime dependencies, offline (repeatable)"),
    ("--fetch", "allow network fetches of --coord artifacts from Maven repositories (Central last)"),
    ("--repo URL", "add a Maven repository base URL for --coord fetches (repeatable)"),
    ("--project DIR", "discover the project at DIR (default: walk up from the current directory)"),
    ("--tests", "a discovered project's test classes and test-scoped dependencies too"),
    ("--all-versions", "a Maven repository root in --jars gives every version of each artifact, not the newest"),
    ("--jdk / --no-jdk", "include the JDK (default: include; which one: JAVA_HOME, else java on PATH)"),
    ("--json", "the JSON envelope (spec §8.2) instead of text"),
    ("--max-lines N / --brief", "bound the text output; minimal rows"),
    ("--timeout DURATION", "wall-clock cap per command (30s, 500ms, 2m)"),
    ("--no-daemon", "answer in this process (also JDX_NO_DAEMON=1)"),
    ("--cache-dir PATH", "override the cache directory"),
    ("-q / -v", "quiet (no progress) / verbose"),
)


@dataclass
class Globals:
    workspace: str | None = None
    jars: list[str] = field(default_factory=list)
    src: list[str] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)
    cache_dir: str | None = None
    jdk: bool | None = None
    json: bool = False
    no_color: bool = False
    quiet: bool = False
    verbose: bool = False
    no_daemon: bool = False
    timeout: str | None = None
    coords: list[str] = field(default_factory=list)
    project: str | None = None
    tests: bool = False
    all_versions: bool = False
    fetch: bool = False
    repos: list[str] = field(default_factory=list)
    root_order: list[tuple[str, str]] = field(default_factory=list)  # ("--jars" | "--coord", value), as given

    def has_workspace_flags(self) -> bool:
        return bool(self.workspace or self.jars or self.src or self.sources or self.jdk is not None
                    or self.cache_dir or self.coords or self.project or self.tests or self.all_versions
                    or self.fetch or self.repos)

    def options(self):
        """The session options these flags select."""
        from jdx.commands.session import Options

        return Options(workspace=self.workspace, jars=self.jars, src=self.src, sources=self.sources, jdk=self.jdk,
                       cache_dir=self.cache_dir, coords=self.coords, tests=self.tests, project=self.project,
                       all_versions=self.all_versions, fetch=self.fetch, repos=self.repos,
                       root_order=self.root_order)

    def workspace_key(self) -> dict:
        """What identifies the workspace a daemon serves: the workspace flags, paths made absolute."""
        from jdx.daemon.paths import workspace_flags

        return workspace_flags(self.workspace, self.jars, self.src, self.sources, self.jdk, self.cache_dir,
                               coords=self.coords, project=self.project, tests=self.tests,
                               all_versions=self.all_versions)


def split_globals(argv: list[str]) -> tuple[Globals, list[str]]:
    """Global flags are accepted before or after the command name (spec §7.6)."""
    g = Globals()
    rest: list[str] = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            rest.extend(argv[i:])
            break
        name, eq, inline = arg.partition("=")
        if name in VALUE_FLAGS:
            if eq:
                value = inline
            elif i + 1 < len(argv):
                i += 1
                value = argv[i]
            else:
                raise UsageError(f"{name} needs a value")
            attr = VALUE_FLAGS[name]
            if attr == "coords" and ":" not in value:  # stored beside the paths, it would read as one (exit 5)
                from jdx.loaders.maven_repo import Coordinate

                Coordinate.parse(value)  # the usage error naming the coordinate's form
            if attr in ("jars", "src", "sources", "coords", "repos"):
                getattr(g, attr).append(value)
                if attr in ("jars", "coords"):  # `ws create` keeps the roots in this order
                    g.root_order.append(("--jars" if attr == "jars" else "--coord", value))
            else:
                setattr(g, attr, value)
        elif arg in BOOL_FLAGS:
            attr, value = BOOL_FLAGS[arg]
            setattr(g, attr, value)
        else:
            rest.append(arg)
        i += 1
    return g, rest


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    json_mode = "--json" in argv
    try:
        g, rest = split_globals(argv)
    except JdxError as exc:
        return _print_failure(_command_word(argv), "", exc, json_mode)
    try:
        name = rest[0] if rest else ""
        if name == "--version":  # what a user tries first: `jdx version`'s answer
            name, rest = "version", ["version", *rest[1:]]
        if name.startswith("--") and name not in ("--help", "--install-completion",
                                                  "--show-completion"):  # `jdx --jar x.jar members …`
            flag = name.partition("=")[0]
            raise UsageError(f"no such option {flag}{_suggest_global(flag)}")
        if name == "help" and ("--agent" in rest or json_mode):  # Appendix B: help [--agent] [--json]
            from jdx.cli.agent_help import agent_help

            print(agent_help(json_mode))
            return 0
        if name == "help":  # `jdx help`, `jdx help members`, `jdx help ws create`: that command's --help
            from jdx.cli.commands import run

            return run(g, [w for w in rest[1:] if not w.startswith("-")] + ["--help"])
        if name and not name.startswith("-") and not any(w in ("-h", "--help") for w in rest[1:]):
            from jdx.commands.registry import command

            cmd = command(name)
            if cmd is not None:
                return run_query(g, cmd, rest[1:])
        from jdx.cli.commands import run

        return run(g, rest)
    except JdxError as exc:
        return _print_failure(rest[0] if rest and not rest[0].startswith("-") else _command_word(argv), "", exc,
                              json_mode)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # noqa: BLE001 - the one place an unexpected failure becomes exit 6
        if os.environ.get("JDX_DEBUG"):
            raise
        from jdx.commands.execute import internal_error

        return _print_failure(rest[0] if rest else "", "", internal_error(exc), json_mode) or EXIT_INTERNAL


def _suggest_global(flag: str) -> str:
    """` (did you mean --jars?)` for a mistyped global flag before the command."""
    import difflib

    close = difflib.get_close_matches(flag, sorted(f for f in (*VALUE_FLAGS, *BOOL_FLAGS) if f.startswith("--")), n=1)
    return f" (did you mean {close[0]}?)" if close else ""


def _command_word(argv: list[str]) -> str:
    """The command of a line whose global flags could not be read (for the error envelope)."""
    skip = False
    for word in argv:
        if skip:
            skip = False
        elif word in VALUE_FLAGS:
            skip = True
        elif not word.startswith("-"):
            return word
    return ""


STDIN_QUERIES = ("resolve", "cypher")  # a query of `-` is read from stdin: a pasted trace, a long query


def run_query(g: Globals, cmd, words: list[str], *, session=None, where: str = "") -> int:
    """Parse, answer (daemon or in process), print; the exit code. `session`: batch's shared one; `where`
    prefixes a usage error (batch: "line 3: ")."""
    from jdx.commands.argv import parse_words
    from jdx.commands.registry import build_request

    query = next((w for w in words if not w.startswith("-")), "")
    try:
        query, params = parse_words(cmd, words, tuple(f for f in (*VALUE_FLAGS, *BOOL_FLAGS) if f.startswith("--")))
        if query == "-" and session is None and cmd.name in STDIN_QUERIES:  # `jdx resolve - < trace.txt`
            query = sys.stdin.read().strip()
        request = build_request(cmd, query, params)
    except JdxError as exc:
        exc.message = where + exc.message
        return _print_failure(cmd.name, query, exc, g.json)
    env, code = _answer(g, cmd, query, params, request, session)
    coord = _coordinate_to_add(env, cmd, g)
    if coord is not None and session is None:
        g = _adding_coordinate(g, coord)
        env, code = _answer(g, cmd, query, params, request, None)
        env.setdefault("warnings", []).insert(0, {
            "code": "COORDINATE_ADDED", "message": f"{coord} is not in the workspace: answered from a workspace "
                                                   f"that adds it (as --coord {coord})", "artifact": coord})
    elif coord is not None:  # a batch answers from its one workspace
        note = f"{coord} is in the local repository: a command line with this reference answers from a workspace " \
               "that adds it"
        env["error"]["hint"] = f"{env['error']['hint']}; {note}" if env["error"].get("hint") else note
    said_ignored(env, cmd, g)
    _print_kept(env, cmd, request, g.json, g)
    return code


def _answer(g: Globals, cmd, query: str, params: dict, request, session):
    """(envelope, exit code): from the workspace's daemon when one may answer, else in process."""
    import time

    env = code = None
    spent = 0.0  # `--timeout` caps the whole command: time the daemon took before it failed counts
    if session is None and cmd.wire and cmd.forwarded and _daemon_allowed(g):
        began = time.monotonic()
        env, code = _ask_daemon(g, cmd.name, query, params)
        spent = time.monotonic() - began
    if env is None:
        env, code = _answer_here(g, cmd, request, session, spent)
    return env, code


def _coordinate_to_add(env: dict, cmd, g: Globals) -> str | None:
    """Spec §6, §13: the `g:a:v` of a `g:a:v/` reference not found because the workspace lacks that artifact, when
    the local repository has it (offline, as --coord reads it); None otherwise (a diff reads its artifacts alone)."""
    error = env.get("error") or {}
    if env.get("ok") or error.get("code") != "NOT_FOUND" or cmd.name == "diff":
        return None
    from jdx.dirs import cache_dir
    from jdx.loaders.maven_repo import fetch_settings, in_local_repository

    coord = error.get("coordinate")  # jdx.errors.JdxError.coordinate: a `g:a:v/` artifact the workspace lacks
    if coord is None or coord in g.coords:
        return None
    if in_local_repository(coord, cache_dir(g.cache_dir)):
        return coord
    try:
        return coord if fetch_settings(g.fetch, g.repos).enabled else None  # --fetch: download it
    except JdxError:
        return None


def _adding_coordinate(g: Globals, coord: str) -> Globals:
    """The workspace of `g` plus `--coord coord`: a discovered project is kept by naming it, as an explicit --coord
    turns auto-discovery off (docs/classpath.md)."""
    import dataclasses

    project = g.project
    if project is None:
        from jdx.engine.workspace import select_workspace

        if select_workspace(g.workspace, g.jars, g.src, g.jdk, g.coords).discover:
            from jdx.loaders.project_root import find_project_root

            found = find_project_root(".")
            project = found[0] if found is not None else None
    return dataclasses.replace(g, coords=[*g.coords, coord], project=project)


def said_ignored(env: dict, cmd, g: Globals) -> None:
    """A diff reads its two artifacts alone: the workspace flags of its command line (or of its batch) are named in
    a warning on its answer."""
    if cmd.name == "diff":
        from jdx.commands.diff import ignored_flags_warning

        if (ignored := ignored_flags_warning(workspace_words(g))) is not None:
            env.setdefault("warnings", []).append(ignored)


def _print_kept(env: dict, cmd, request, json_mode: bool, g: Globals | None = None) -> None:
    """`_print`, where a reader that closed the pipe early (`jdx … | head -1`) leaves the answer's exit code as it
    was: a not-found or an ambiguity must not read as success to a shell with `pipefail` (spec §16)."""
    try:
        _print(env, cmd, request, json_mode, g)
        sys.stdout.flush()
    except BrokenPipeError:
        _drop_stdout()


def _drop_stdout() -> None:
    """Points stdout at /dev/null: the interpreter's flush at exit would otherwise fail on the closed pipe too."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass


def _daemon_allowed(g: Globals) -> bool:
    """A command line that may fetch (--fetch, --repo) answers in process: a daemon's workspace never downloads. So
    does one whose --project names no project (a usage error, exit 3): no daemon is started for a workspace that
    cannot be."""
    if g.no_daemon or g.fetch or g.repos or os.environ.get("JDX_NO_DAEMON", "") in ("1", "true", "yes"):
        return False
    if g.project:
        from jdx.daemon.paths import project_root_of

        return project_root_of(os.path.abspath(os.path.expanduser(g.project))) is not None
    return True


def _ask_daemon(g: Globals, name: str, query: str, params: dict):
    """(envelope, exit code) from the workspace's daemon, or (None, None) to answer in process."""
    import json

    from jdx.commands import wire
    from jdx.daemon import client
    from jdx.errors import exit_code_of

    try:
        line = client.query(g.workspace_key(), wire.encode_request(name, query, params),
                            timeout=parse_duration(g.timeout) if g.timeout else None,
                            progress=None if g.quiet or g.json else _say)  # the daemon's build phases, as
        # a one-shot process prints them
    except client.TimedOut:  # the daemon was answering when --timeout ran out
        from jdx.render import envelope

        exc = TimeoutExceeded(f"timed out after --timeout {g.timeout} while the workspace's daemon answered the query",
                              hint="raise --timeout, or narrow the question (--limit, --depth)")
        return json.loads(envelope.dumps(envelope.failure(name, query, exc))), exc.exit_code
    if line is None:
        return None, None
    env = json.loads(line)
    return env, exit_code_of(env)


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _answer_here(g: Globals, cmd, request, session, spent: float = 0.0):
    import json

    from jdx.commands.execute import run_request
    from jdx.render import envelope

    own = session is None
    if own:
        from jdx.cli.output import progress_printer
        from jdx.commands.session import Session

        session = Session(g.options(), progress=progress_printer(not g.quiet and not g.json))
    try:
        with deadline(g.timeout, spent) as limit, limit.watching(session):
            outcome = run_request(session, cmd, request)
    finally:
        if own:
            session.close()
    if limit.expired:
        # also when the alarm landed in code that recovers from any exception (a cache probe, an optional
        # file) and the command went on: it ran out of time, and says so
        exc = limit.error()
        return json.loads(envelope.dumps(envelope.failure(cmd.name, getattr(request, "query", ""), exc))), \
            exc.exit_code
    return json.loads(envelope.dumps(outcome.envelope)), outcome.exit_code


def _print(env: dict, cmd, request, json_mode: bool, g: Globals | None = None) -> None:
    from jdx.render import envelope

    if json_mode:
        print(envelope.dumps(env))
        return
    from jdx.commands.execute import text_of

    text, stream = text_of(env, cmd, request)
    if text and g is not None and "next: jdx " in text and getattr(cmd, "name", "") != "diff":
        text = _next_in_workspace(text, g)
    if text:
        print(text, file=sys.stdout if stream == "stdout" else sys.stderr)


def workspace_words(g: Globals) -> list[str]:
    """The workspace flags of this command line, as words a later command repeats to ask the same workspace."""
    words: list[str] = []
    if g.workspace:
        words += ["-w", g.workspace]
    for flag, values in (("--jars", g.jars), ("--src", g.src), ("--sources", g.sources), ("--coord", g.coords)):
        for value in values:
            words += [flag, value]
    if g.project:
        words += ["--project", g.project]
    words += [flag for flag, on in (("--tests", g.tests), ("--all-versions", g.all_versions),
                                    ("--no-jdk", g.jdk is False)) if on]
    if g.cache_dir:
        words += ["--cache-dir", g.cache_dir]
    return words


NEXT_FLAGS_WIDTH = 120


def _next_in_workspace(text: str, g: Globals) -> str:
    """A `next: jdx …` step run as printed must ask the same workspace: the command line's workspace flags are
    appended (spec Appendix A) unless the step already names its own (`diff` points at the new jar); flags longer
    than NEXT_FLAGS_WIDTH characters (a classpath of many jars) are named, not repeated."""
    import shlex

    words = workspace_words(g)
    if not words:
        return text
    tail = " " + shlex.join(words)
    note = ""
    if len(tail) > NEXT_FLAGS_WIDTH:  # a long classpath repeated on every answer costs an agent more than it helps
        tail, note = "", "with this command's workspace flags"
    own = {*VALUE_FLAGS, "--no-jdk", "--project", "--tests"}

    def step(line: str) -> str:
        if not line.startswith("next: jdx ") or own & set(line.split()):
            return line
        command, gap, comment = line.partition("   (")  # `next: jdx body X --engine javap   (exact bytecode)`
        if note:
            return f"{command}   ({comment[:-1] + '; ' if comment else ''}{note})"
        return command + tail + gap + comment

    return "\n".join(step(line) for line in text.split("\n"))


def _print_failure(command: str, query: str, exc: JdxError, json_mode: bool) -> int:
    import json

    from jdx.render import envelope

    env = json.loads(envelope.dumps(envelope.failure(command, query, exc)))
    _print_kept(env, None, None, json_mode)
    return exc.exit_code


def parse_duration(text: str) -> float:
    """`30s`, `500ms`, `2m`, `1h` or plain seconds; a usage error otherwise."""
    units = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0}
    raw = text.strip().lower()
    for unit in ("ms", "s", "m", "h"):
        if raw.endswith(unit):
            number, scale = raw[: -len(unit)], units[unit]
            break
    else:
        number, scale = raw, 1.0
    try:
        value = float(number) * scale
    except ValueError:
        raise UsageError(f"--timeout {text!r}: use a duration such as 30s, 500ms or 2m") from None
    if value <= 0:
        raise UsageError("--timeout must be more than zero")
    return value


QUERY_GRACE = 0.25  # seconds a graph query may run past --timeout: the alarm lands first and names the phase


class deadline:
    """`--timeout`: a wall-clock cap on the command in this process (SIGALRM; the main thread only)."""

    def __init__(self, text: str | None, spent: float = 0.0):
        # `spent`: of the command's time, already gone (a daemon that failed to answer); at least a moment is left,
        # so the alarm still fires and says what was cut short
        self.seconds = max(parse_duration(text) - spent, 0.001) if text else None
        self.text = text
        self.expired = False
        self._phase = _Phase(None, None)
        self._at_expiry: tuple[str, str] | None = None

    def watching(self, session) -> "_Phase":
        """Follows `session`'s progress while the command runs, so a timeout says what phase it cut short; its
        graph queries stop just after the alarm (the alarm's handler waits for a query in Kùzu to return)."""
        self._phase = _Phase(session, getattr(session, "progress", None))
        if self.seconds is not None and hasattr(session, "deadline"):
            import time

            session.deadline = time.monotonic() + self.seconds + QUERY_GRACE
        return self._phase

    def error(self) -> "TimeoutExceeded":
        where, hint = self._at_expiry or self._phase.describe()
        return TimeoutExceeded(f"timed out after --timeout {self.text} while {where}", hint=hint)

    def __enter__(self):
        import signal
        import threading

        if self.seconds is None or threading.current_thread() is not threading.main_thread():
            self.seconds = None
            return self

        def expire(_signum, _frame):
            self.expired = True
            self._at_expiry = self._phase.describe()
            error = self.error()
            jvm = sys.modules.get("jdx.loaders.jvm")  # never imported here: nothing of it can be under way
            if jvm is not None and jvm.defer_interrupt(error):
                return
            raise error

        self._old = signal.signal(signal.SIGALRM, expire)
        signal.setitimer(signal.ITIMER_REAL, self.seconds)
        return self

    def __exit__(self, *exc):
        if self.seconds is not None:
            import signal

            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self._old)
        return False


class _Phase:
    """What a command is doing, from its session's progress events (extracting classes, building the graph) and
    whether its graph is open yet: a `--timeout` that cuts indexing short must not advise a narrower question."""

    def __init__(self, session, inner):
        self.session, self.inner = session, inner
        self.stage: tuple[str, int, int] | None = None  # the stage under way: (name, done, total)

    def __call__(self, stage: str, done: int, total: int, *args, **kwargs) -> None:
        self.stage = (stage, done, total) if done < total else None
        if self.inner is not None:
            self.inner(stage, done, total, *args, **kwargs)

    def __enter__(self):
        if self.session is not None:
            self.session.progress = self
        return self

    def __exit__(self, *exc):
        if self.session is not None:
            self.session.progress = self.inner
            if hasattr(self.session, "deadline"):
                self.session.deadline = None  # a batch's next line sets its own
        return False

    def describe(self) -> tuple[str, str]:
        """(what was running, what to do about it)."""
        cached = "re-run without --timeout once: the workspace graph is then cached, and later commands answer from it"
        if self.stage is not None and self.stage[0] == "extract":
            return f"reading the workspace's classes ({self.stage[1]}/{self.stage[2]} artifacts read)", cached
        if self.stage is not None:
            return "building the workspace graph", "re-run without --timeout once, the graph is then cached"
        if self.session is not None and not self.session.is_open:
            return ("opening the workspace (resolving its classpath, reading and indexing its classes)",
                    "re-run without --timeout once (a workspace's first command indexes it; later ones answer from "
                    "the cache), or raise --timeout")
        return "answering the query", "raise --timeout, or narrow the question (--limit, --depth)"


# Python's cyclic collector runs a young collection every 700 net allocations and a full one every 100 of those
# while long-lived objects grew by a quarter: an answer of thousands of rows (every row a dict) set off dozens,
# each walking what the process holds. Measured (docs/PERFORMANCE.md, "Long-lived readers on big graphs"): warm
# `usages java.util.List#size()` in a long-lived process 12-476 ms on the JDK's graph, 413-579 ms on a Maven
# repository's, against 11.5-12.2 ms and 309-397 ms with a young generation of 10,000. Only jdx's own processes
# (this entry: the CLI, its daemon, `jdx mcp`, `jdx serve`) change it; importing jdx as a library does not.
GC_THRESHOLDS = (10_000, 10, 10)


def tune_gc() -> None:
    import gc

    gc.set_threshold(*GC_THRESHOLDS)


def entry() -> None:
    tune_gc()
    code = main()
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        _drop_stdout()
    sys.exit(code if code is not None else EXIT_USAGE)
