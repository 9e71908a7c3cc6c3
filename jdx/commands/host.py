"""The executor of every long-lived adapter (spec §14.3, §14.2, §14.4): one graph session answering wire
requests, one request at a time. The daemon, `jdx mcp` and `jdx serve` each hold one.

The session keeps the graph open, the search index and source caches warm. Before each answer it is
asked whether the workspace changed (jars, JDK, class dirs, the named workspace's definition), so a
daemon answers exactly what a fresh one-shot process would. Requests are serialised by a lock: the
session is not thread-safe, and the daemon is the only writer of its workspace graph (Kùzu's rule).
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from jdx.errors import JdxError


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
        self.prewarming: threading.Thread | None = None
        self.giving_back: threading.Thread | None = None

    def execute(self, command: str, query: str, params: dict) -> dict:
        with self._lock:
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
            if self.prewarming is None:
                self.prewarming = _prewarm(self._session)
            else:
                _make_spares()
            if opened:
                self.giving_back = _give_back_memory()
        return getattr(outcome, "envelope", outcome)

    def describe(self) -> dict:
        """Status fields only the session knows, as of the last answer: never waits for a running query."""
        return {"artifacts": self.artifacts, "refreshes": self.refreshes}

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
