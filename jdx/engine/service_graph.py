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

        result, warnings, truncated = usages(self.store(), text, opts or UsageOptions())
        return Answer(result, list(self._root_warnings) + warnings, truncated,
                      [{"symbol": t, "origin": "bytecode"} for t in result["targets"]])

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
