"""The relationship graph (spec §7.3): hierarchy, implementors, overrides, usages, callers, calls.

A mixin of JdxService: methods use self.store(), self._root_warnings and return Answer. The answers
come from bytecode (the workspace graph), which every answer's provenance says.
"""

from __future__ import annotations

from jdx.engine.answer import Answer


def _provenance(symbol: str, artifact: str) -> list[dict]:
    return [{"symbol": symbol, "artifact": artifact, "origin": "bytecode"}]


class GraphCommands:
    def hierarchy(self, type_text: str, opts=None) -> Answer:
        """Supertypes up and subtypes down as trees (`HierarchyOptions`)."""
        from jdx.engine.rel_hierarchy import HierarchyOptions, hierarchy

        result, warnings, truncated = hierarchy(self.store(), type_text, opts or HierarchyOptions())
        return Answer(result, list(self._root_warnings) + warnings, truncated,
                      _provenance(result["type"], result["artifact"]))

    def implementors(self, type_text: str, opts=None) -> Answer:
        """Every subtype of a type in the workspace, flat (`HierarchyOptions`; up is ignored)."""
        from jdx.engine.rel_hierarchy import HierarchyOptions, implementors

        result, warnings, truncated = implementors(self.store(), type_text, opts or HierarchyOptions())
        return Answer(result, list(self._root_warnings) + warnings, truncated,
                      _provenance(result["type"], result["artifact"]))

    def overrides(self, member_text: str, filter=None, limit: int | None = None) -> Answer:
        """What a method overrides and what overrides it (every overload of a bare name)."""
        from jdx.engine.rel_usages import overrides
        from jdx.engine.relations import ArtifactFilter

        result, truncated = overrides(self.store(), member_text, filter or ArtifactFilter(), limit)
        return Answer(result, list(self._root_warnings), truncated,
                      [{"symbol": m["method"], "origin": "bytecode"} for m in result["methods"]])

    def usages(self, text: str, opts=None) -> Answer:
        """Usage sites of a type, method, constructor or field, grouped by artifact then method (`UsageOptions`)."""
        from jdx.engine.rel_usages import UsageOptions, usages

        opts = opts or UsageOptions()
        result, warnings, truncated = usages(self.store(), text, opts)
        if opts.context is not None:
            warnings = warnings + self._site_context(result, opts.context)
        return Answer(result, list(self._root_warnings) + warnings, truncated,
                      [{"symbol": t, "origin": "bytecode"} for t in result["targets"]])

    def _site_context(self, result: dict, context: int) -> list:
        """`--context N`: the source lines around each shown site (`context` on the site), from the sources
        the workspace pairs with each caller's class; a warning names how many sites have none."""
        from jdx.errors import Warning_

        window = getattr(self, "source_window", None)
        missing = 0
        for group in result["groups"]:
            for caller in group["callers"]:
                for site in caller["sites"]:
                    found = None
                    if window is not None and site["line"] > 0 and "#" in site["caller_id"]:
                        found = window(site["caller_id"].split("#", 1)[0], site["line"], context)
                    if found is None:
                        missing += 1
                    else:
                        site["context"] = found
        if not missing:
            return []
        return [Warning_("CONTEXT_UNAVAILABLE", f"{missing} site(s) have no source lines (no sources paired with "
                         "their artifact, or no line number): they show line numbers only")]

    def callers(self, member_text: str, opts=None) -> Answer:
        """Incoming call tree (`CallOptions`, depth 1 by default)."""
        return self._call_tree(member_text, opts, "in")

    def calls(self, member_text: str, opts=None) -> Answer:
        """Outgoing call tree (`CallOptions`, depth 1 by default)."""
        return self._call_tree(member_text, opts, "out")

    def _call_tree(self, member_text: str, opts, direction: str) -> Answer:
        from jdx.engine.rel_calls import CallOptions, call_tree

        result, truncated = call_tree(self.store(), member_text, opts or CallOptions(), direction)
        return Answer(result, list(self._root_warnings), truncated,
                      [{"symbol": r["method"], "artifact": r["artifact"], "origin": "bytecode"}
                       for r in result["roots"]])
