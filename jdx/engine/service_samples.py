"""`samples` (spec §7.3): real call sites as usage examples, rendered from sources when they exist.

A mixin of JdxService, built on the relationship graph (`usage_sites`) and the sources view (`source_window`).
"""

from __future__ import annotations

from jdx.engine.answer import Answer


class SamplesCommands:
    def samples(self, text: str, opts=None) -> Answer:
        """The most exemplary call sites of a method, constructor, field or type."""
        from jdx.engine.samples import SampleOptions, samples

        store = self.store()
        result, truncated = samples(store, text, opts or SampleOptions(), self.source_window,
                                    self.reconstructed_window)
        detail = f"{result['with_sources']} of {len(result['samples'])} shown from sources"
        if result["reconstructed"]:
            detail += f", {result['reconstructed']} reconstructed from decompiled text"
        provenance = [{"symbol": result["symbol"], "artifact": result["artifact"], "origin": "bytecode",
                       "detail": "call sites from the workspace graph; " + detail}]
        return Answer(result, list(self._root_warnings), truncated, provenance)
