"""Engine-level calls for tests: a session with one method per command taking the engine's own options
(`MemberOptions`, `UsageOptions`, ...), each the command module's function that its registry `run` calls."""

from __future__ import annotations

from jdx.commands import cards, foundation, graph, samples, search, source
from jdx.commands.session import Options, Session

__all__ = ["JdxService", "Options"]


class JdxService(Session):
    def members(self, text, opts=None):
        from jdx.engine.members import MemberOptions

        return cards.members_answer(self, text, opts or MemberOptions())

    def show(self, text, opts=None):
        return cards.show_answer(self, text)

    def outline(self, text, opts=None):
        return cards.outline_answer(self, text, opts)

    def signature(self, text, opts=None):
        return cards.card(self, "member_signatures", text, opts)

    def hierarchy(self, text, opts=None):
        from jdx.engine.rel_hierarchy import HierarchyOptions

        return graph.hierarchy_answer(self, text, opts or HierarchyOptions())

    def implementors(self, text, opts=None):
        from jdx.engine.rel_hierarchy import HierarchyOptions

        return graph.implementors_answer(self, text, opts or HierarchyOptions())

    def overrides(self, text, filter=None, limit=None):
        return graph.overrides_answer(self, text, filter, limit)

    def usages(self, text, opts=None):
        return graph.usages_answer(self, text, opts)

    def callers(self, text, opts=None):
        return graph.call_tree_answer(self, text, opts, "in")

    def calls(self, text, opts=None):
        return graph.call_tree_answer(self, text, opts, "out")

    def search(self, pattern, opts=None):
        from jdx.engine.search import SearchOptions

        kinds = opts or SearchOptions()
        return search.run_search(self, search.SearchRequest(
            query=pattern, kind=kinds.kinds, regex=kinds.regex, fuzzy=kinds.fuzzy, include=kinds.artifact_globs,
            package=kinds.package_glob, limit=kinds.limit))

    def body(self, text, opts=None):
        return source.body_answer(self, text, opts)

    def source(self, text, lines=None, around=None, context=None, engine=None):
        return source.source_answer(self, text, lines, around, context, engine)

    def doc(self, text, opts=None):
        return source.doc_answer(self, text, opts)

    def samples(self, text, opts=None):
        return samples.samples_answer(self, text, opts)

    def cypher(self, query):
        return foundation.run_cypher(self, foundation.CypherRequest(query=query))
