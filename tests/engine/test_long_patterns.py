"""A search pattern or a resolve text is capped as a reference is (10,000 characters: a 5 MB pattern over MCP kept the
server busy for ~160 s and echoed itself back whole), and a not-found message quotes a long pattern by its head and
length, never whole (T31)."""

from __future__ import annotations

import pytest

from jdx.engine.refs import MAX_REF_LENGTH, shown_text
from jdx.engine.search import SearchOptions, search
from jdx.engine.search_nav import resolve
from jdx.errors import NotFoundError, UsageError
from tests.service import JdxService, Options


@pytest.fixture(scope="module")
def store(jdx_home):
    service = JdxService(Options(cache_dir=str(jdx_home / "cache")))
    yield service.store()
    service.close()


def test_a_pattern_over_the_limit_is_a_usage_error(store):
    with pytest.raises(UsageError, match=f"search pattern is {MAX_REF_LENGTH + 1} characters long; the limit is"):
        search(store, "a" * (MAX_REF_LENGTH + 1), SearchOptions())
    with pytest.raises(UsageError, match="resolve text is .* characters long"):
        resolve(store, "a" * (MAX_REF_LENGTH + 1), 10)


def test_a_long_miss_quotes_the_head_of_the_pattern(store):
    pattern = "zq" * 2000  # 4,000 characters: under the limit, matching nothing
    with pytest.raises(NotFoundError) as exc:
        search(store, pattern, SearchOptions())
    message = exc.value.message
    assert len(message) < 400 and "(4,000 characters)" in message, message
    assert shown_text("short") == "'short'"
