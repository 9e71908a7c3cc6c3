"""The relationship graph (spec §7.3): hierarchy, implementors, overrides, usages, callers, calls.

A mixin of JdxService: methods use self.store(), self._root_warnings and return Answer.
"""

from __future__ import annotations

from jdx.engine.answer import Answer  # noqa: F401


class GraphCommands:
    pass
