"""Sources and bodies (spec §7.1, §11): body, source, doc, samples.

A mixin of JdxService: methods use self.store(), self._root_warnings and return Answer.
"""

from __future__ import annotations

from jdx.engine.answer import Answer  # noqa: F401


class SourceCommands:
    pass
