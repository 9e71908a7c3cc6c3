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
        result, truncated = samples(store, text, opts or SampleOptions(), self._sample_window)
        provenance = [{"symbol": result["symbol"], "artifact": result["artifact"], "origin": "bytecode",
                       "detail": "call sites from the workspace graph; "
                                 f"{result['with_sources']} of {len(result['samples'])} shown from sources"}]
        return Answer(result, list(self._root_warnings), truncated, provenance)

    _sample_lines: dict | None = None

    def _sample_window(self, type_id: str, line: int, context: int) -> dict | None:
        """Lines around `line` of class `type_id` from its sources, None without them. Unlike `source_window`
        it never parses the file: ranking reads the sources of up to a few hundred candidate sites."""
        from jdx.engine.sources import find_file
        from jdx.engine.src_locate import outer_chain, source_rel, top_level

        ctx = self.source_context()
        row = ctx.type_row(type_id)
        if row is None or line < 1:
            return None
        rel = source_rel(row, top_level(type_id, outer_chain(ctx, type_id)))
        if rel is None:
            return None
        if self._sample_lines is None:
            self._sample_lines = {}
        key = (row.get("artifact") or "", rel)
        if key not in self._sample_lines:
            found = find_file(ctx.roots_for(key[0]), rel)
            self._sample_lines[key] = None if found is None else \
                (found[0], found[1].decode("utf-8", "replace").splitlines())
        hit = self._sample_lines[key]
        if hit is None or line > len(hit[1]):
            return None
        root, lines = hit
        a, b = max(1, line - context), min(len(lines), line + context)
        return {"label": root.label, "file": root.display(rel), "lines": [a, b], "first_line": a, "focus": line,
                "text": lines[a - 1:b]}
