"""The daemon's host: one session, asked whether the workspace changed before every answer, one request at a time."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

from jdx.daemon.host import Host
from jdx.errors import NotFoundError


class FakeSession:
    def __init__(self):
        self.changes = [False, True, False]
        self.refreshed = 0
        self.closed = False
        self._artifacts = ["a", "b"]

    def refresh(self) -> bool:
        self.refreshed += 1
        return self.changes.pop(0) if self.changes else False

    def artifacts(self):
        return self._artifacts

    def close(self):
        self.closed = True


@dataclass
class Outcome:
    envelope: dict
    exit_code: int = 0


def test_session_opened_once_refreshed_before_each_later_answer():
    sessions = []

    def factory():
        sessions.append(FakeSession())
        return sessions[-1]

    host = Host({}, session_factory=factory, answer=lambda s, c, q, p: Outcome({"ok": True, "query": q}),
                commands=frozenset({"members"}))
    assert host.describe() == {"artifacts": 0, "refreshes": 0}
    assert [host.execute("members", f"q{i}", {})["query"] for i in range(4)] == ["q0", "q1", "q2", "q3"]
    assert len(sessions) == 1 and sessions[0].refreshed == 3
    assert host.describe() == {"artifacts": 2, "refreshes": 1}
    host.close()
    assert sessions[0].closed


def test_requests_never_overlap_on_the_session():
    inside = []
    overlaps = []

    def answer(session, command, query, params):
        inside.append(query)
        if len(inside) > 1:
            overlaps.append(tuple(inside))
        time.sleep(0.005)
        inside.remove(query)
        return Outcome({"ok": True, "query": query})

    host = Host({}, session_factory=FakeSession, answer=answer, commands=frozenset({"members"}))
    threads = [threading.Thread(target=host.execute, args=("members", f"q{i}", {})) for i in range(10)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert overlaps == []


def test_errors_raised_by_the_answer_reach_the_server():
    def answer(session, command, query, params):
        raise NotFoundError("nope")

    host = Host({}, session_factory=FakeSession, answer=answer, commands=frozenset({"members"}))
    try:
        host.execute("members", "x", {})
    except NotFoundError as exc:
        assert exc.exit_code == 1
    else:
        raise AssertionError("the error was swallowed")


def test_real_commands_are_the_registry_wire_commands():
    from jdx.commands.registry import wire_commands

    host = Host({})
    assert host.commands == wire_commands() and "members" in host.commands and "ws" not in host.commands


def test_status_never_waits_for_a_running_query():
    release = threading.Event()

    def answer(session, command, query, params):
        release.wait(10)
        return Outcome({"ok": True})

    host = Host({}, session_factory=FakeSession, answer=answer, commands=frozenset({"members"}))
    worker = threading.Thread(target=host.execute, args=("members", "slow", {}))
    worker.start()
    try:
        start = time.monotonic()
        assert host.describe() == {"artifacts": 0, "refreshes": 0}
        assert time.monotonic() - start < 1
    finally:
        release.set()
        worker.join(10)
    assert host.describe()["artifacts"] == 2


def test_a_workspace_with_class_directories_prewarms_its_first_update(monkeypatch, tmp_path):
    """After the first answer (never before it), a host whose workspace has a class directory loads what the
    first update after a recompile needs on a side thread; a workspace of jars only starts nothing."""
    import jdx.loaders.indexer as indexer
    from jdx.loaders.roots import Artifact

    calls = []
    monkeypatch.setattr(indexer, "prewarm_updates", lambda cache, artifacts: calls.append((cache, artifacts)))

    def host_for(kinds: list[str]) -> tuple[Host, FakeSession]:
        session = FakeSession()
        session._artifacts = [Artifact(key=f"k{i}", kind=k, name=f"a{i}", path=str(tmp_path / f"a{i}"), spec="")
                              for i, k in enumerate(kinds)]
        session.cache = tmp_path / "cache"
        answered = []
        host = Host({}, session_factory=lambda: session,
                    answer=lambda s, c, q, p: answered.append(list(calls)) or Outcome({"ok": True}),
                    commands=frozenset({"members"}))
        host.answered = answered
        return host, session

    host, session = host_for(["dir", "jrt"])
    host.execute("members", "x", {})
    host.prewarming.join(5)
    host.execute("members", "y", {})
    assert host.answered[0] == [] and calls == [(session.cache, session._artifacts)]  # after the first answer, once
    calls.clear()
    host, _ = host_for(["jar", "jrt"])
    host.execute("members", "x", {})
    host.prewarming.join(5)
    assert calls == []


def test_prewarming_loads_the_base_graphs_context(tmp_path, monkeypatch):
    """prewarm_updates leaves the context of the graph the class directory grows from loaded in the process."""
    import jdx.loaders.build_context as build_context
    import jdx.loaders.indexer as indexer
    import jdx.loaders.jvm as jvm
    from jdx.loaders.indexer import ensure_graph
    from tests.loaders.test_graph_build import FakeExtractor, artifact
    from tests.loaders.test_incremental_graph import CORPUS

    monkeypatch.setattr(jvm, "prewarm", lambda cache: None)  # no JVM for hand-made shards
    cache = tmp_path / "cache"
    fixed = [artifact("lib.jar"), artifact("base.jar")]
    base = ensure_graph(cache, fixed, extractor=FakeExtractor(CORPUS)).graph
    build_context._LOADED.clear()
    folder = artifact("solo.jar")
    from dataclasses import replace

    indexer.prewarm_updates(cache, [replace(folder, kind="dir"), *fixed])
    assert list(build_context._LOADED) == [base]
    # the base's declared member codes its build kept, read with the context: the first update finds them
    methods, fields = build_context._LOADED[base].declared
    assert len(methods) == 10 and len(fields) == 2


def test_memory_goes_back_after_an_answer_that_opened_or_rebuilt_the_graph_only(monkeypatch):
    """The first answer (the graph opened or built) and an answer after a change (rebuilt or updated) hand freed
    memory back on a side thread; a warm answer does not."""
    import jdx.graph_schema.store as store

    given_back = []
    monkeypatch.setattr(store, "return_freed_memory", lambda: given_back.append(threading.current_thread().name))
    session = FakeSession()  # changes: the 2nd answer's refresh finds none, the 3rd's one, the 4th's none
    host = Host({}, session_factory=lambda: session, answer=lambda s, c, q, p: Outcome({"ok": True, "query": q}),
                commands=frozenset({"members"}))
    counts = []
    for i in range(4):
        host.execute("members", f"q{i}", {})
        if host.giving_back is not None:
            host.giving_back.join(5)
        counts.append(len(given_back))
    assert counts == [1, 1, 2, 2]
    assert set(given_back) == {"jdx-give-back"}  # never on the answering thread
    host.close()
