"""A valid query that exhausts Kùzu's buffer pool (T45: `MATCH (a:Method)-[:INVOKES*1..5]->(b) RETURN count(*)` on
guava) was a USAGE error carrying the engine's raw text: an agent reading exit 3 "usage" fixes its syntax. It is
QUERY_TOO_LARGE (exit 3, its own code in docs/warnings.md) with how to narrow it; other engine errors stay USAGE."""

from __future__ import annotations

import pytest

from jdx.errors import QueryTooLarge, UsageError, exit_code_of
from jdx.graph_schema.store import GraphStore

KUZU_FULL = ("Buffer manager exception: Unable to allocate memory! The buffer pool is full and no memory could be "
             "freed!")


class _Conn:
    def __init__(self, message: str):
        self.message = message

    def execute(self, *_args):
        raise RuntimeError(self.message)


def _store(message: str) -> GraphStore:
    store = GraphStore.__new__(GraphStore)
    store._conn, store.deadline, store._timed, store.read_only = _Conn(message), None, False, True
    return store


def test_a_full_buffer_pool_is_query_too_large():
    with pytest.raises(QueryTooLarge) as caught:
        _store(KUZU_FULL)._execute("MATCH (a:Method)-[:INVOKES*1..5]->(b:Method) RETURN count(*)", None)
    err = caught.value
    assert err.code == "QUERY_TOO_LARGE" and err.exit_code == 3 and "bound a variable-length path" in err.hint
    assert exit_code_of({"ok": False, "error": {"code": "QUERY_TOO_LARGE"}}) == 3  # a daemon's answer maps back


def test_a_syntax_error_stays_a_usage_error():
    with pytest.raises(UsageError) as caught:
        _store("Parser exception: extraneous input")._execute("MATCH (", None)
    assert caught.value.code == "USAGE" and caught.value.message.startswith("cypher: Parser exception")
