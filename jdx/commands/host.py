"""The executor of every long-lived adapter (spec §14.3, §14.2, §14.4): one graph session answering wire
requests, one request at a time. The daemon, `jdx mcp` and `jdx serve` each hold one.

The session keeps the graph open, the search index and source caches warm. Before each answer it is
asked whether the workspace changed (jars, JDK, class dirs, the named workspace's definition), so a
daemon answers exactly what a fresh one-shot process would. Requests are serialised by a lock: the
session is not thread-safe, and the daemon is the only writer of its workspace graph (Kùzu's rule).

`jdx mcp` and `jdx serve` pass each request a `Call`: the server's `--timeout` and, for MCP, the client's
cancellation. A stopped call is interrupted in its thread (an exception raised there, as the CLI's SIGALRM
raises one in its main thread) once the graph is open; a graph still being built is left to finish, so the
next question finds it, and only the answer is dropped.
"""

from __future__ import annotations

import ctypes
import re
import threading
from collections.abc import Callable

from jdx.errors import JdxError, TimeoutExceeded, UsageError


class Host:
    """`execute(command, query, params) -> envelope` over one lazily opened session."""

    def __init__(self, workspace: dict, *, session_factory: Callable[[], object] | None = None,
                 answer: Callable[[object, str, str, dict], object] | None = None,
                 commands: frozenset[str] | None = None):
        self.workspace = workspace
        self._session_factory = session_factory or (lambda: _real_session(workspace))
        self._answer = answer or _real_answer
        self.commands = commands if commands is not None else _real_commands()
        self._lock = threading.Lock()
        self._session = None
        self.refreshes = 0
        self.artifacts = 0  # in the workspace, as of the last answer (0 before the first)
        self.selected: str | None = None  # the named workspace answered for, and how it was picked (`app via ws use`)
        self.prewarming: threading.Thread | None = None
        self.giving_back: threading.Thread | None = None

    def execute(self, command: str, query: str, params: dict, call: "Call | None" = None) -> dict:
        """The envelope of one request; with `call`, the TIMEOUT envelope once the call was stopped."""
        if call is None:
            with self._lock:
                return self._answer_locked(command, query, params)
        if not self._lock.acquire(blocking=False):
            call.phase = _WAITING  # another query holds the host
            while not self._lock.acquire(timeout=0.05):  # a call stopped while it waits never runs
                if call.stopped:
                    return call.envelope(command, query)
        envelope = None
        try:
            try:
                if call.stopped:
                    return call.envelope(command, query)
                call.enter(self._interruptible, self._interrupt)
                envelope = self._answer_locked(command, query, params)
            finally:
                call.leave()
        except _Stopped:
            pass  # raised in this thread by `Call.stop` outside the command's own error handling
        finally:
            self._lock.release()
        return call.envelope(command, query) if call.stopped or envelope is None else envelope

    def _interrupt(self) -> None:
        """Stops the session's graph query under way: a query running in Kùzu takes no Python exception until it
        returns."""
        interrupt = getattr(self._session, "interrupt", None)
        if interrupt is not None:
            interrupt()

    def _interruptible(self) -> bool:
        """A query on an open graph may be stopped; a graph being built or opened is left to finish."""
        return self._session is not None and bool(getattr(self._session, "is_open", True))

    def _answer_locked(self, command: str, query: str, params: dict) -> dict:
        opened = self._session is None  # opened or changed: this answer may build or update the graph
        if opened:
            self._session = self._session_factory()
        elif _refresh(self._session):
            self.refreshes += 1
            opened = True
        try:
            outcome = self._answer(self._session, command, query, params)
        finally:
            self.artifacts = _artifact_count(self._session)
            self.selected = _selected(self._session)
        if self.prewarming is None:
            self.prewarming = _prewarm(self._session)
        else:
            _make_spares()
        if opened:
            self.giving_back = _give_back_memory()
        return getattr(outcome, "envelope", outcome)

    def describe(self) -> dict:
        """Status fields only the session knows, as of the last answer: never waits for a running query."""
        return {"artifacts": self.artifacts, "refreshes": self.refreshes,
                **({"selected": self.selected} if self.selected else {})}

    def close(self, wait: float = 1.0) -> None:
        """Closes the session, unless a query still runs after `wait` seconds (process exit ends it then)."""
        if not self._lock.acquire(timeout=wait):
            return
        try:
            if self._session is not None and hasattr(self._session, "close"):
                self._session.close()
            self._session = None
            _close_spares()
        finally:
            self._lock.release()


class _Stopped(JdxError):
    """Raised inside the thread answering a stopped call (a JdxError: the command's error handling ends it)."""

    code = "TIMEOUT"

    def __init__(self, message: str = "stopped", **kwargs):
        super().__init__(message, **kwargs)


_STARTING = "starting to answer (the server's threads had not yet run it)"
_WAITING = "waiting for the query before it"
_OPENING = "opening the workspace (resolving its classpath, reading and indexing its classes)"
_ANSWERING = "answering the query"


class Call:
    """One request's stop control, set from another thread: its deadline (the server's `--timeout`, `text` as
    given) and its cancellation (an MCP client's `notifications/cancelled`)."""

    def __init__(self, seconds: float | None = None, text: str = ""):
        self.seconds, self.text = seconds, text
        self.stopped: str | None = None  # "timeout" or "cancelled", once stopped
        self.phase = _STARTING
        self._guard = threading.Lock()
        self._thread: int | None = None  # the answering thread, while it holds the host
        self._interruptible: Callable[[], bool] = lambda: False
        self._interrupt: Callable[[], None] = lambda: None

    def enter(self, interruptible: Callable[[], bool], interrupt: Callable[[], None] = lambda: None) -> None:
        """The answering thread starts; `interruptible` says whether its work may be stopped now, `interrupt`
        stops its graph query (which an exception raised in the thread reaches only once the query returns)."""
        with self._guard:
            self._thread, self._interruptible, self._interrupt = threading.get_ident(), interruptible, interrupt
            self.phase = _OPENING

    def leave(self) -> None:
        with self._guard:
            if self.stopped and self._thread is not None:
                _raise_in(self._thread, None)  # an interruption not yet raised is withdrawn
            self._thread = None

    def stop(self, why: str) -> None:
        """Stops the call once: it never starts if it still waits; a query under way is interrupted."""
        with self._guard:
            if self.stopped:
                return
            self.stopped = why
            if self._thread is not None and self._interruptible():
                self.phase = _ANSWERING
                _raise_in(self._thread, _Stopped)
                self._interrupt()

    def envelope(self, command: str, query: str) -> dict:
        """The TIMEOUT failure envelope of a call stopped at its deadline (a cancelled call's is never sent)."""
        from jdx.commands.execute import failure

        hints = {_STARTING: "the machine is busy: ask again, or raise the server's --timeout",
                 _WAITING: "an earlier query still runs on this server: ask again, or raise the server's --timeout",
                 _OPENING: "the server goes on building the workspace graph: ask again in a moment",
                 _ANSWERING: "raise the server's --timeout, or narrow the question (limit, depth)"}
        why = "cancelled" if self.stopped == "cancelled" else f"timed out after --timeout {self.text}"
        return failure(command, query, TimeoutExceeded(f"{why} while {self.phase}", hint=hints[self.phase])).envelope


def _raise_in(thread_id: int, exc_type: type[BaseException] | None) -> None:
    """Raises `exc_type` in another thread at its next bytecode (None withdraws one still pending)."""
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread_id),
                                               ctypes.py_object(exc_type) if exc_type is not None else None)


def answer_within(execute: Callable[..., dict], call: Call, command: str, query: str, params: dict) -> dict:
    """`execute(command, query, params, call=call)` on a worker thread, for an adapter with a thread per request:
    the TIMEOUT envelope at the call's deadline, the call then stopped (the worker ends on its own)."""
    if call.seconds is None:
        return execute(command, query, params)
    answers: list[dict] = []
    worker = threading.Thread(target=lambda: answers.append(execute(command, query, params, call=call)),
                              name="jdx-answer", daemon=True)
    worker.start()
    worker.join(call.seconds)
    if answers:
        return answers[0]
    call.stop("timeout")
    return call.envelope(command, query)


_FLAG = re.compile(r"(?<![\w-])--([a-z][a-z0-9-]*)")
_SWITCH_RUN = re.compile(r"(?<![\w-])(--[a-z][a-z0-9-]*)(?= --[a-z])")  # a flag another flag follows
_UNKNOWN = re.compile(r"unknown option --([a-z][a-z0-9-]*)")
# a command line jdx suggests (`jdx callers 'a.B#m()' --depth 3`): the CLI's words, its flags stay flags
_CLI_LINE = re.compile(r"\bjdx [a-z][a-z-]*(?: (?:'[^']*'|\"[^\"]*\"|[^\s;,()'\"]+))*")
# result fields that quote what was asked or the code itself (source and doc text, constants, annotations,
# declarations, Cypher rows), not jdx's own words: never respelled
_QUOTED = frozenset({"query", "symbol", "pattern", "text", "doc", "first_sentence", "constant", "value",
                     "annotations", "declaration", "columns", "rows"})
WORKSPACE = "workspace"
# a call cannot pick another workspace: the server holds one graph open, on the workspace its command line named
ONE_WORKSPACE = ("unknown argument workspace: a server answers for the one workspace on its own command line "
                 "(jdx mcp -w NAME, jdx serve --jars …); start one server per workspace")


# "pass --sources <jar> or --src <dir>": a workspace flag, which only the server's own command line takes
_WORKSPACE_FLAG = re.compile(r"\bpass (?=--(?:sources|src|jars|coord|project)\b)")


class Spelling:
    """How MCP and HTTP answers name one command's flags: as the arguments those clients send (`--limit 80` ->
    `limit 80`, `--in` -> `include`, `--declared` -> `inherited=false`, an unknown `--bogus` -> `bogus`). Every
    string jdx wrote is respelled; a flag another tool owns (the server's `--timeout`, `--json`), a command line
    jdx suggests (`jdx callers X --depth 3`) and the text an answer quotes (`_QUOTED`) are left as they are."""

    def __init__(self, command_name: str | None, request: type | None = None):
        from jdx.commands.registry import command, params_of, served_params

        cmd = command(command_name or "")
        request = request or (cmd.request if cmd is not None else None)
        served = served_params(request) if request is not None else ()  # a flag they cannot send keeps its CLI form
        self.names = {p.flag: p.name for p in served if p.flag}
        self.names.update({p.negative: f"{p.name}=false" for p in served if p.negative})
        # a switch another flag follows (`--include-synthetic --access all`): a comma keeps the two apart
        self.switches = {p.flag for p in served if p.flag and p.kind == "bool"} | {p.negative for p in served
                                                                                    if p.negative}
        self.positional = next((p.metavar for p in (params_of(request) if request is not None else ())
                                if not p.flag), "")

    def __call__(self, text):
        """One string jdx wrote, respelled."""
        if not isinstance(text, str) or "--" not in text:
            return text
        text = _UNKNOWN.sub(lambda m: f"unknown argument {m.group(1).replace('-', '_')}", text)
        text = _WORKSPACE_FLAG.sub("start the server with ", text)  # no argument sets the server's workspace
        out, at = [], 0
        for line in _CLI_LINE.finditer(text):
            out += [self._flags(text[at:line.start()]), line.group(0)]
            at = line.end()
        return "".join(out) + self._flags(text[at:])

    def _flags(self, text: str) -> str:
        text = _SWITCH_RUN.sub(lambda m: m.group(1) + ("," if m.group(1) in self.switches else ""), text)
        return _FLAG.sub(lambda m: self.names.get(m.group(0), m.group(0)), text)

    def names_a_flag(self, text: str) -> bool:
        """Whether the text names one of the command's flags."""
        return any(m.group(0) in self.names for m in _FLAG.finditer(text))

    def value(self, value, key: str | None = None):
        """A JSON value with every string jdx wrote respelled (a `_QUOTED` field's as it is)."""
        if key in _QUOTED:
            return value
        if isinstance(value, str):
            return self(value)
        if isinstance(value, dict):
            return {k: self.value(v, k) for k, v in value.items()}
        if isinstance(value, list):
            return [self.value(v, key) for v in value]
        return value

    def quoted(self, value, key: str | None = None, inside: bool = False) -> set[str]:
        """The lines of the quoted text (`_QUOTED`) in a JSON value that name one of the command's flags."""
        inside = inside or key in _QUOTED
        if isinstance(value, str):
            return {ln.strip() for ln in value.splitlines() if inside and ln.strip() and self.names_a_flag(ln)}
        items = value.items() if isinstance(value, dict) else ((key, v) for v in value) \
            if isinstance(value, list) else ()
        return set().union(*(self.quoted(v, k, inside) for k, v in items))


def spelled_as_arguments(env: dict) -> dict:
    """An envelope for MCP and HTTP clients: every string jdx wrote in its error, truncation, warnings and result
    names the command's flags as the arguments those clients send (`Spelling`), and an error's message does not
    repeat its code; the CLI's own envelope is left as it is."""
    spell = Spelling(env.get("command"))
    out = dict(env)
    for key in ("error", "truncated", "warnings", "result"):
        if key in env:
            out[key] = spell.value(env[key])
    error = out.get("error") if isinstance(out.get("error"), dict) else {}
    message = error.get("message")
    if not isinstance(message, str):
        return out
    # the CLI's text prints the message alone, so some name their code in it (`…: no such file
    # (ARTIFACT_READ_ERROR)`): here the code is a field of its own
    message = message.removesuffix(f" ({error.get('code')})")
    if spell.positional and message.endswith(f"missing {spell.positional}"):
        message = f"{message[:-len(spell.positional)]}query ({spell.positional})"
    if message != error["message"]:
        out["error"] = {**error, "message": message}
    return out


def spelled_text(text: str, env: dict, also: dict[str, str] | None = None) -> str:
    """The CLI's text of an envelope for MCP clients, spelled as `spelled_as_arguments` spells the envelope: every
    line jdx wrote (a cut `… 5 of 80 lines shown (--max-lines 80 for all)`, a note, a header's filter), not a line
    quoting the code (source, doc or constant text that names a flag). `also`: other flags the client has in its own
    words (MCP: `--json` is its structured content)."""
    spell = Spelling(env.get("command"))
    spell.names.update(also or {})
    quoted = spell.quoted({"query": env.get("query"), "result": env.get("result")})
    return "\n".join(line if any(q in line for q in quoted) else spell(line) for line in text.split("\n"))


def spelled_line(line: str, command: str | None) -> str:
    """One line jdx wrote, spelled as `spelled_as_arguments` spells the envelope."""
    return Spelling(command)(line)


def check_arguments(command_name: str, arguments) -> None:
    """MCP's and HTTP's refusal of an argument the command does not take: a usage error naming it (and, for a
    negative flag's name, the argument to send false) with the arguments the command takes. `arguments` is their
    names, or a mapping of them to the typed values a client sent (MCP's arguments, a batch line's params), whose
    JSON types are checked too (`check_type`)."""
    from jdx.commands.registry import command, params_of, served_params

    cmd = command(command_name)
    if cmd is None:
        return
    params = [p for p in params_of(cmd.request) if p.name != "query"]  # (the query is every command's argument)
    known = {p.name: p for p in params}  # (one that writes files is refused by name: jdx.commands.execute.served)
    values = arguments if isinstance(arguments, dict) else {}
    for name in arguments:
        if name in known:
            check_type(known[name], values.get(name))
            continue
        if name == WORKSPACE:
            raise UsageError(ONE_WORKSPACE)
        negated = next((p.name for p in params if p.negative == "--" + name.replace("_", "-")), None)
        served = ["query"] * any(p.name == "query" for p in params_of(cmd.request)) + sorted(
            p.name for p in served_params(cmd.request) if p.name != "query")  # the query first, as it is sent
        raise UsageError(f"unknown argument {name}" + (f" (send {negated}=false)" if negated else "")
                         + (f"; arguments: {', '.join(served)}" if served else ""))


_TAKES = {"bool": "true or false", "int": "a whole number", "str": "text", "list": "text or a list of texts"}


def check_type(param, value) -> None:
    """A typed value whose JSON type the argument never takes is refused, as the wire refuses a query that is not text
    (`include: expected text or a list of texts, got a number`). Text suits every argument: it is the wire's canonical
    form (spec §14.5), what HTTP query strings and batch lines send, read as the CLI reads the flag (`limit "abc"` gets
    the CLI's `limit takes a whole number`). A boolean suits a switch only, a number a whole-number argument only (its
    fraction refused as the CLI refuses `--limit 2.5`), a list a repeatable argument only, every item text."""
    from jdx.commands.wire import kind_of

    if value is None or isinstance(value, str):
        return
    if isinstance(value, (list, tuple)) and param.kind == "list":
        odd = [item for item in value if not isinstance(item, str)]
        if not odd:
            return
        got = f"a list holding {kind_of(odd[0])}"
    elif isinstance(value, bool):
        if param.kind == "bool":
            return
        got = kind_of(value)
    elif isinstance(value, (int, float)) and param.kind == "int":
        return
    else:
        got = kind_of(value)
    raise UsageError(f"{param.name}: expected {_TAKES[param.kind]}, got {got}")


def _prewarm(session) -> threading.Thread:
    """A workspace with class directories is one an agent recompiles: after the first answer, what its first
    update needs (the JVM, the base graph's context) is loaded on a side thread (indexer.prewarm_updates)."""
    thread = threading.Thread(target=lambda: None, name="jdx-prewarm", daemon=True)
    try:
        dirs = any(getattr(a, "kind", None) == "dir" for a in session.artifacts())
    except (JdxError, AttributeError):
        dirs = False
    cache = getattr(session, "cache", None)
    if dirs and cache is not None:
        from jdx.loaders.indexer import prewarm_updates

        thread = threading.Thread(target=prewarm_updates, args=(cache, list(session.artifacts())),
                                  name="jdx-prewarm", daemon=True)
    thread.start()
    return thread


def _give_back_memory() -> threading.Thread:
    """After an answer that opened or rebuilt the workspace's graph, the memory its build freed goes back to the OS, on
    a side thread (the answer does not wait): the allocators keep it otherwise, and a long-lived host would hold its
    builds' high-water mark (a daemon over a class directory, eight recompiles: 360-460 MB and creeping without
    this, 270-350 MB with it). A warm answer builds nothing and is not followed by it."""
    from jdx.graph_schema.store import return_freed_memory

    thread = threading.Thread(target=return_freed_memory, name="jdx-give-back", daemon=True)
    thread.start()
    return thread


def _spares():
    """`jdx.graph_schema.spares` where an update ran in this process (else no spare was asked for or made)."""
    import sys

    return sys.modules.get("jdx.graph_schema.spares")


def _make_spares() -> None:
    """The copies of base graphs the updates of this answer asked for, made on a side thread."""
    if (spares := _spares()) is not None:
        spares.make_wanted()


def _close_spares() -> None:
    """The spare copies this host made go with it."""
    if (spares := _spares()) is not None:
        spares.close()


def _artifact_count(session) -> int:
    """Artifacts of the session's workspace (resolved by the query just answered); 0 when it has none."""
    try:
        return len(session.artifacts())
    except JdxError:
        return 0


def _selected(session) -> str | None:
    """`NAME via HOW` of the named workspace a session answers for (a `ws use` default too); None for ad hoc flags
    or a discovered project, or when none was resolved."""
    try:
        sel = session.selection()
    except Exception:  # noqa: BLE001 - status only: an unresolved workspace names none
        return None
    name = getattr(getattr(sel, "spec", None), "name", None)
    return f"{name} via {sel.how}" if name else None


def _refresh(session) -> bool:
    """Asks the session whether its workspace changed (it drops its graph when so)."""
    refresh = getattr(session, "refresh", None)
    return bool(refresh()) if refresh is not None else False


def _real_session(workspace: dict):
    from jdx.commands.session import Options, Session

    return Session(Options(workspace=workspace.get("workspace"), jars=list(workspace.get("jars") or []),
                           src=list(workspace.get("src") or []), sources=list(workspace.get("sources") or []),
                           jdk=workspace.get("jdk"), cache_dir=workspace.get("cache_dir"),
                           coords=list(workspace.get("coords") or []), project=workspace.get("project"),
                           tests=bool(workspace.get("tests")), all_versions=bool(workspace.get("all_versions"))))


def _real_answer(session, command: str, query: str, params: dict):
    from jdx.commands.execute import answer_request

    return answer_request(session, command, query, params)


def answer_with_workspace(session, command: str, query: str, params: dict):
    """`answer_request`, plus the `workspace` question MCP and HTTP serve (jdx.commands.workspace_info)."""
    from jdx.commands import workspace_info

    if command == workspace_info.NAME and not query and not params:
        return workspace_info.answer(session)
    return _real_answer(session, command, query, params)


def _real_commands() -> frozenset[str]:
    from jdx.commands.registry import wire_commands

    return wire_commands()
