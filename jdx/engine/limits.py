"""The default answer size of the query commands (spec §8.3: 50 entries, the rest counted and the cut stated), apart
from the engine modules that use it so a command needing only the number (signature, cypher) imports nothing heavy."""

from __future__ import annotations

from jdx.errors import UsageError

DEFAULT_LIMIT = 50


def check_limit(limit: int | None) -> int:
    if limit is None:
        return DEFAULT_LIMIT
    if limit < 1:
        raise UsageError("--limit must be at least 1")
    return limit
