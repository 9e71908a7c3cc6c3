"""`jdx bench` rows for the relationship graph: warm measurements on an indexed service."""

from __future__ import annotations


def rows(service, iterations: int) -> list[dict]:
    """Rows of {name, value, seconds} measured on `service` (already indexed, warm)."""
    return []
