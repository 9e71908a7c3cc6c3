"""Search and navigation (spec §7.2): search, resolve, imports, ls, tree.

A mixin of JdxService: methods use self.store(), self._root_warnings and return Answer.
"""

from __future__ import annotations

from jdx.engine.answer import Answer  # noqa: F401


class SearchCommands:
    pass
